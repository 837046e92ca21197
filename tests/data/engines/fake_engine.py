"""A tiny stand-in for a real RSP engine, started by the generic command adapter in the tests
(docs/engines.md): reads timestamped N-Triples (seconds), evaluates `SELECT ?s` over a tumbling window
of 2 seconds, (c - 2, c] at every close c = 2, 4, … up to the last element, and prints one JSON line
per non-empty window, {"t": c, "answers": [{"s": "<…>"}]}. --scale N reads and writes times in units
N times finer (N = 1000: milliseconds); --drop-last leaves out the last window (a faulty engine); --fail
exits 3 with a message on stderr.

    python fake_engine.py STREAM.nt [--scale N] [--drop-last] [--fail] [--output FILE]
"""

import json
import re
import sys

args = sys.argv[1:]
if "--fail" in args:
    print("fake engine: cannot open the stream", file=sys.stderr)
    sys.exit(3)
out = open(args[args.index("--output") + 1], "w") if "--output" in args else sys.stdout
elements = []
with open(args[0]) as stream:
    for line in stream:
        m = re.match(r'(<[^>]*>) (<[^>]*>) (\S+) "(\d+)"', line)
        if m:
            elements.append((int(m.group(4)), m.group(1)))
scale = int(args[args.index("--scale") + 1]) if "--scale" in args else 1
width = 2 * scale
last = max(t for t, _ in elements)
closes = list(range(width, last + width, width))
if "--drop-last" in args:
    closes = closes[:-1]
for c in closes:
    subjects = sorted({s for t, s in elements if c - width < t <= c})
    if subjects:
        out.write(json.dumps({"t": c, "answers": [{"s": s} for s in subjects]}) + "\n")
