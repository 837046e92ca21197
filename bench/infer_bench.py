"""``rsplars check --infer`` on CSRBench (not a test): every recorded answer file the tests carry,
whole process, on the benchmark's stream (15,188 triples, Dell'Aglio et al. 2013, §6.3, rebuilt by
``tests/check/csrbench_data.py``), compared as the oracle compares (``--ignore-timestamps``; the
engines stamp relations with their own clocks).

    .venv/bin/python bench/infer_bench.py             # the ten recorded files
    .venv/bin/python bench/infer_bench.py --quick     # C-SPARQL's Q1 and CQELS' Q4 only

For each file: the wall time of the process, the settings in the space and how many were searched
(the target: at least 500 settings in at most 60 s), how many explain the output, the
engine profiles among them, and the published verdict (Dell'Aglio et al. 2013, §7, Table 2). Results:
``bench/results/infer_bench.json`` (``infer_bench.quick.json``), with the commit measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "check"))
from csrbench_data import DATA, STREAM_IRI, write_stream  # noqa: E402
from recording import results_path, revision  # noqa: E402

#: (engine, query, answer file, published verdict: True = pass), Dell'Aglio et al. 2013, Table 2
CELLS = [
    ("csparql", "q1", "csparql-answer-1.json", True),
    ("csparql", "q2", "csparql-answer-2.json", True),
    ("csparql", "q4", "csparql-answer-4.json", True),
    ("csparql", "q5", "csparql-answer-5.json", False),
    ("cqels", "q1", "cqels-answer-1.json", True),
    ("cqels", "q2", "cqels-answer-2.json", True),
    ("cqels", "q4", "cqels-answer-4.json", False),
    ("cqels", "q5", "cqels-answer-5.json", True),
    ("sparqlstream", "q1", "sparqlstream-answer-1.json", True),
    ("sparqlstream", "q4", "sparqlstream-answer-4.json", False),
]
QUICK = {("csparql", "q1"), ("cqels", "q4")}


def run_cell(stream: Path, engine: str, query: str, answers: str, report: Path) -> dict:
    argv = [sys.executable, "-m", "translator", "check", str(DATA / "queries" / f"{query}.rq"),
            "--stream", f"{STREAM_IRI}={stream}", "--stream-time-unit", "ms", "--answers",
            str(DATA / "answers" / answers), "--answers-time-unit", "ms", "--ignore-timestamps", "--infer",
            "--profile", engine, "--json", str(report), "--no-cache"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{engine} {query}: exit {done.returncode}\n{done.stderr}")
    data = json.loads(report.read_text())
    inf = data["inference"]
    return {"engine": engine, "query": query, "answers": answers, "wall_s": round(wall, 2), "exit": done.returncode,
            "settings": inf["settings"], "searched": inf["searched"], "not_searched": inf["not_searched"],
            "plans": inf["plans"], "correct_settings": inf["correct_settings"], "explained": inf["explained"],
            "profiles": inf["profiles"], "profile_explains": data.get("profile_explains")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two files only")
    args = parser.parse_args()
    cells = [c for c in CELLS if not args.quick or (c[0], c[1]) in QUICK]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        stream = write_stream(Path(tmp) / "stream.nt")
        for engine, query, answers, published in cells:
            row = run_cell(stream, engine, query, answers, Path(tmp) / "report.json")
            row["published_pass"] = published
            rows.append(row)
            print(f"{engine:>12} {query}: {row['wall_s']:6.2f} s, {row['searched']} of {row['settings']} settings "
                  f"searched, {row['correct_settings']} correct, profiles {sorted(row['profiles'])}, "
                  f"published {'pass' if published else 'fail'}", flush=True)
    result = {"benchmark": "infer_bench", **revision(), "python": platform.python_version(),
              "load_average": os.getloadavg(), "stream_triples": 15188, "cells": rows,
              "max_wall_s": max(r["wall_s"] for r in rows), "min_searched": min(r["searched"] for r in rows)}
    path = results_path("infer_bench", "quick" if args.quick else "")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"results: {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
