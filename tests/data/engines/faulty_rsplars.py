"""A deliberately faulty engine for the hunt's tests: it answers as ``rsplars run --profile rsp-ql``
(the query and the stream in ms) but leaves out every row that binds a variable to ``<…/a>``, the kind
of fault a hunt must find and shrink to a case with an ``a`` in it.

    python faulty_rsplars.py QUERY STREAM_IRI=STREAM.nt OUTPUT
"""

import contextlib
import io
import json
import sys

from translator.cli import main

query, stream, output = sys.argv[1:4]
said = io.StringIO()
with contextlib.redirect_stdout(said):
    code = main(["run", query, "--stream", stream, "--unit", "ms", "--profile", "rsp-ql", "--no-cache"])
if code != 0:
    sys.exit(code)
with open(output, "w") as out:
    for line in said.getvalue().splitlines():
        relation = json.loads(line)
        relation["answers"] = [row for row in relation["answers"]
                               if not any(term.endswith("/a>") for term in row.values())]
        out.write(json.dumps(relation) + "\n")
