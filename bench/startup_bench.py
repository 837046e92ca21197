"""Start-up of the command line, side by side with importing rdflib and parsing the query with
pyoxigraph: whole processes, median wall time of N repeats.

    .venv/bin/python bench/startup_bench.py               # 10 repeats
    .venv/bin/python bench/startup_bench.py --repeat 3    # quick
    .venv/bin/python bench/startup_bench.py --against DIR # also another checkout's rsplars (bench/checkouts.py)

Cases (each a separate process of this interpreter, timed from start to exit):

* ``rsplars run`` of a small C-SPARQL query (a FILTER over a 10 s window) on a 4-time-point
  N-Triples stream, and ``rsplars lars`` of a two-rule program on a 3-time-point stream, each
  **cold** (an empty user cache folder every repeat: Lark builds the parse tables, the query or
  program is parsed, the entries written) and **warm** (the folder filled by a run before: the
  parse tables, query and program read from ``translator.cache``);
* ``python -c "import rdflib"``: what a Python RDF library costs to import;
* a pyoxigraph script that imports pyoxigraph and runs the same query's SPARQL part (the SELECT,
  WHERE and FILTER, without the stream clause C-SPARQL adds) on an empty ``pyoxigraph.Store()``:
  loading a SPARQL engine and parsing the query;
* ``python -c pass``: the interpreter alone.

No target: the figures say where start-up stands. The results, with the git commit and the Python
version, go to ``bench/results/startup.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from checkouts import rsplars_command  # noqa: E402

PY = sys.executable
EX = "http://example.org/"

QUERY = f"""REGISTER QUERY hot AS
SELECT ?sensor ?value
FROM STREAM <{EX}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{EX}procedure> ?sensor . ?obs <{EX}value> ?value . FILTER (?value > 30.5) }}
"""
#: the SPARQL part of QUERY, what pyoxigraph parses and evaluates
SPARQL = f"SELECT ?sensor ?value WHERE {{ ?obs <{EX}procedure> ?sensor . ?obs <{EX}value> ?value . FILTER (?value > 30.5) }}"
STREAM = "".join(
    f'<{EX}o{t}> <{EX}procedure> <{EX}s{t % 2}> "{t}" .\n'
    f'<{EX}o{t}> <{EX}value> "{25 + 3 * t}.5"^^<http://www.w3.org/2001/XMLSchema#float> "{t}" .\n'
    for t in range(4)
)
PROGRAM = "a(X,Y) :- p(X,Y) [4].\nb(X) :- q(X) always [2].\n"
LARS_STREAM = "0: p(a,b), q(c)\n1: p(d,e), q(c)\n3: q(c)\n"
OXIGRAPH = f"import pyoxigraph; list(pyoxigraph.Store().query({SPARQL!r}))"


def _timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    return elapsed


def _git_commit(tree: Path = ROOT) -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs per case (the median is reported)")
    parser.add_argument("--output", default=str(ROOT / "bench" / "results" / "startup.json"))
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="also time the rsplars of this checkout")
    args = parser.parse_args()
    against = _git_commit(args.against) if args.against else None

    work = Path(tempfile.mkdtemp(prefix="startup-bench-"))
    try:
        files = {"query": work / "q.rq", "stream": work / "s.nt", "program": work / "p.lars",
                 "lars_stream": work / "s.txt"}
        files["query"].write_text(QUERY)
        files["stream"].write_text(STREAM)
        files["program"].write_text(PROGRAM)
        files["lars_stream"].write_text(LARS_STREAM)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        run = ["run", str(files["query"]), "--stream", f"{EX}stream={files['stream']}"]
        lars = ["lars", str(files["program"]), "--stream", str(files["lars_stream"])]
        sides = {"": rsplars_command(), **({f" ({against})": rsplars_command(args.against)} if args.against else {})}
        cases: dict[str, tuple[list[str], str | None]] = {"python -c pass": ([PY, "-c", "pass"], None)}
        for side, command in sides.items():
            cases.update({
                f"rsplars run, cold cache{side}": ([*command, *run], "cold"),
                f"rsplars run, warm cache{side}": ([*command, *run], f"warm{side}"),
                f"rsplars lars, cold cache{side}": ([*command, *lars], "cold"),
                f"rsplars lars, warm cache{side}": ([*command, *lars], f"warm{side}"),
            })
        cases['python -c "import rdflib"'] = ([PY, "-c", "import rdflib"], None)
        cases["pyoxigraph: import, parse and run the query on an empty store"] = ([PY, "-c", OXIGRAPH], None)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.repeat):  # the cases interleaved: a load change on the machine hits them all alike
            for name, (argv, cache) in cases.items():
                case_env = dict(env)
                if cache == "cold":
                    folder = work / "cold-cache"
                    shutil.rmtree(folder, ignore_errors=True)
                    case_env["RSPLARS_CACHE_DIR"] = str(folder)
                elif cache is not None:  # warm: a folder of this side's own, filled by a run before
                    warm_folder = work / cache.replace(" ", "-")
                    case_env["RSPLARS_CACHE_DIR"] = str(warm_folder)
                    if not warm_folder.exists():
                        _timed(argv, case_env)  # fills the folder (not timed)
                times[name].append(_timed(argv, case_env))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    rows = {name: {"median_s": round(statistics.median(values), 4), "min_s": round(min(values), 4),
                   "max_s": round(max(values), 4)} for name, values in times.items()}
    width = max(map(len, rows))
    print(f"{'case':{width}s}  median    min      max   (s, {args.repeat} runs each)")
    for name, row in rows.items():
        print(f"{name:{width}s}  {row['median_s']:.3f}   {row['min_s']:.3f}   {row['max_s']:.3f}")
    result = {
        "benchmark": "startup_bench",
        "commit": _git_commit(),
        "python": sys.version.split()[0],
        "python_full": sys.version,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "repeat": args.repeat,
        "against": against,
        "query": QUERY,
        "sparql_for_pyoxigraph": SPARQL,
        "program": PROGRAM,
        "cases": rows,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
