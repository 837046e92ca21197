"""The packages shipped as one zip (``spark-submit --py-files rsplars.zip``, docs/spark.md § On a
cluster) must work from inside the zip: the Lark grammars are package data, read through the
package loader, never by a file-system path (a FILTER is parsed on the worker at grounding time,
which failed with "Not a directory: …/rsplars.zip/translator/grammars/cqels.lark")."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r'''
import translator, lars
assert ".zip" in translator.__file__ and ".zip" in lars.__file__, (translator.__file__, lars.__file__)
from lars.syntax import parse_program
from translator.query.parse import parse
from translator.rdf.streams import parse_stream
from translator.translate.expressions import FUNCTIONS
from lars.model import String
query = parse("PREFIX : <http://e/> SELECT ?x WHERE { STREAM <http://e/s> [RANGE 3s] { ?x :p ?v } FILTER(?v > 1) }", "cqels")
program = parse_program("q(X) :- p(X) [3].")
stream = parse_stream("@prefix : <http://e/> .\n:a :p 1 [0] .\n", "http://e/s", fmt="notation")
# what a worker does at grounding time for a FILTER: parse the expression text
FUNCTIONS["sparql_test"](String("?v > 1"), String('"2"^^<http://www.w3.org/2001/XMLSchema#integer>'))
print(type(query).__name__, len(program.rules), len(stream))
'''


def test_grammars_load_from_a_zip(tmp_path) -> None:
    archive = tmp_path / "rsplars.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for package in ("translator", "lars", "asp", "spark_jobs"):
            for path in (ROOT / package).rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    zf.write(path, path.relative_to(ROOT).as_posix())
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(archive), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["Query", "1", "1"]
