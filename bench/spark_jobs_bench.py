"""Throughput of the jobs of docs/spark_jobs.md (not a test): sequential against Spark ``local[2]``.

    .venv/bin/python bench/spark_jobs_bench.py            # the sizes of the rows of docs/spark_jobs.md
    .venv/bin/python bench/spark_jobs_bench.py --quick    # smoke run (a tenth of the sizes)

Three jobs, each run sequentially and on Spark ``local[2]`` (Spark's start-up included), every case in a
fresh process, input generation excluded from the wall times:

* ``epsparql``: ``rsplars run`` of an EP-SPARQL query (a stock price followed by a higher one of the
  same company ``WITHIN 5``, ``examples/epsparql/rise.rq``) on a generated stock stream
  (``translator.evaluate.epsparql_run.event_answers`` / ``spark_jobs.epsparql_job.event_answers_spark``);
  throughput: event times per second;
* ``lars``: ``rsplars lars`` of a program with time windows (``◇`` over 10 ticks, ``□`` over 3, a join
  over 5) on a generated stream of ``rec/1`` and ``hot/1`` atoms (``make_solver("auto").run`` /
  ``spark_jobs.lars_job.lars_steps_spark``); throughput: time points per second;
* ``check``: ``rsplars check`` over answer files × engine profiles × fixed t0 values of a C-SPARQL
  query (``examples/check/hot.rq``) on a generated temperature stream, each item the command's own
  path (``translator.cli.commands.check.judge_item``; in order / ``spark_jobs.check_job.judge_on_spark``);
  throughput: verdicts per second.

Printed per job: wall times, throughput, speed-up, and whether the Spark output equals the sequential
one (a digest of every answer, event or verdict). Results: ``bench/results/spark_jobs_bench.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from recording import results_path, revision  # noqa: E402

SIZES = {"epsparql": 200_000, "lars": 300_000, "check": 6_000}  # time points; check: readings per stream
NS = "http://rsplars.invalid/bare#"
RISE = (ROOT / "examples" / "epsparql" / "rise.rq").read_text()
LARS_PROGRAM = """warm(X) :- rec(X) [10].
steady(X) :- rec(X) always [3].
alarm(X) :- hot(X) [5], warm(X), not steady(X).
"""


def _digest(items) -> str:
    return hashlib.sha256(repr(items).encode()).hexdigest()[:16]


def _stock(time_points: int):
    from rdflib import Literal, URIRef
    from rdflib.namespace import XSD

    from translator.rdf.streams import StreamElement

    rng = random.Random(5)
    companies = [URIRef(NS + f"c{k}") for k in range(20)]
    price = URIRef(NS + "hasStockPrice")
    stream = URIRef("http://example.org/stock")
    return [StreamElement((rng.choice(companies), price, Literal(rng.randint(1, 50), datatype=XSD.integer)), t, stream)
            for t in range(time_points) for _ in range(rng.choice((0, 1, 2, 3)))]


def _lars_stream(time_points: int):
    from lars.model import Atom, Integer, Stream

    rng = random.Random(6)
    points = {}
    for t in range(time_points):
        atoms = [Atom("rec", (Integer(x),)) for x in rng.sample(range(40), rng.choice((0, 1, 2, 3)))]
        atoms += [Atom("hot", (Integer(x),)) for x in rng.sample(range(40), rng.choice((0, 0, 1)))]
        if atoms:
            points[t] = tuple(atoms)
    return Stream(points)


def _check_items(readings: int, folder: Path) -> list:
    """Answer files of two engine profiles (written by ``rsplars run --profile``) × the two profiles ×
    t0 free or fixed to 0: eight verdicts."""
    from translator.cli import main
    from translator.cli.main import build_parser

    rng = random.Random(7)
    temps = folder / "temps.nt"
    temps.write_text("".join(
        f'<http://example.org/s{rng.randint(1, 6)}> <http://example.org/temp> '
        f'"{rng.randint(20, 40)}"^^<http://www.w3.org/2001/XMLSchema#integer> "{(i + 1) * 1000}" .\n'
        for i in range(readings)))
    base = [str(ROOT / "examples" / "check" / "hot.rq"), "--stream", f"http://example.org/temps={temps}",
            "--stream-time-unit", "ms"]
    for profile in ("csparql", "cqels"):
        with open(folder / f"{profile}.jsonl", "w") as out, open(os.devnull, "w") as quiet:
            saved = sys.stdout, sys.stderr
            sys.stdout, sys.stderr = out, quiet
            try:
                main(["run", *base, "--profile", profile])
            finally:
                sys.stdout, sys.stderr = saved
    parser = build_parser("check")
    items = []
    for answers in ("csparql", "cqels"):
        for profile in ("csparql", "cqels"):
            for t0 in ([], ["--t0", "0"]):
                argv = ["check", *base, "--answers", str(folder / f"{answers}.jsonl"), "--profile", profile, *t0]
                item = parser.parse_args(argv)
                item.answers = item.answers[0]
                vars(item).pop("func", None)
                items.append(item)
    return items


def case(job: str, mode: str, size: int, partitions: int | None) -> dict:
    master = "local[2]"
    with tempfile.TemporaryDirectory() as folder:
        if job == "epsparql":
            from translator.evaluate.epsparql_run import event_answers
            from translator.query.parse import parse
            from translator.translate.epsparql import compile_epsparql

            elements = _stock(size)
            compiled = compile_epsparql(parse(RISE, "epsparql"))
            t0 = time.perf_counter()
            if mode == "sequential":
                evaluations = list(event_answers(compiled, elements))
            else:
                from spark_jobs.epsparql_job import event_answers_spark

                evaluations = list(event_answers_spark(compiled, elements, master=master, partitions=partitions))
            wall = time.perf_counter() - t0
            units = len(evaluations)
            digest = _digest([(ev.t, sorted(ev.rows)) for ev in evaluations])
            extra = {"triples": len(elements), "complex_events": sum(len(ev.rows) for ev in evaluations)}
        elif job == "lars":
            from lars.syntax import parse_program

            stream = _lars_stream(size)
            program = parse_program(LARS_PROGRAM)
            lo, hi = stream.timeline
            times = list(range(lo, hi + 1))
            t0 = time.perf_counter()
            if mode == "sequential":
                from translator.evaluate.engine import make_solver

                steps = [(s.t, s.answers) for s in make_solver(program, "auto").run(stream, times)]
            else:
                from spark_jobs.lars_job import lars_steps_spark

                steps = [(s.t, s.answers) for s in lars_steps_spark(program, stream, times, master=master,
                                                                    partitions=partitions)]
            wall = time.perf_counter() - t0
            units = len(steps)
            digest = _digest(steps)
            extra = {"atoms": sum(len(a) for a in stream.points.values())}
        else:
            from spark_jobs.check_job import judge_in_order, judge_on_spark
            from translator.cli.commands.check import judge_item

            items = _check_items(size, Path(folder))
            t0 = time.perf_counter()
            if mode == "sequential":
                outcomes = judge_in_order(items, judge_item)
            else:
                outcomes = judge_on_spark(items, judge_item, master=master, partitions=partitions)
            wall = time.perf_counter() - t0
            units = len(outcomes)
            digest = _digest([(o.code, o.out) for o in outcomes])
            extra = {"readings": size, "verdicts": [o.code for o in outcomes]}
    return {"job": job, "mode": mode, "size": size, "wall_s": round(wall, 2), "units": units,
            "per_s": round(units / wall, 1), "digest": digest, **extra,
            "load_avg_1min": round(os.getloadavg()[0], 2)}


def run_case(job: str, mode: str, size: int, partitions: int | None) -> dict:
    cmd = [sys.executable, __file__, "--case", f"{job}:{mode}", "--size", str(size)]
    if partitions:
        cmd += ["--partitions", str(partitions)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"case {job}:{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


UNITS = {"epsparql": "event times", "lars": "time points", "check": "verdicts"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    p.add_argument("--jobs", default="epsparql,lars,check", help="which jobs (default: all three)")
    p.add_argument("--partitions", type=int, help="blocks / tasks of the Spark runs (default: 4 per core; check: 1 per item)")
    p.add_argument("--case", help=argparse.SUPPRESS)
    p.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.case:
        job, mode = args.case.split(":")
        print(json.dumps(case(job, mode, args.size, args.partitions)))
        return
    results = {}
    for job in args.jobs.split(","):
        size = SIZES[job] // (10 if args.quick else 1)
        seq = run_case(job, "sequential", size, None)
        spk = run_case(job, "spark", size, args.partitions)
        same = seq["digest"] == spk["digest"]
        results[job] = {"sequential": seq, "spark": spk, "speedup": round(seq["wall_s"] / spk["wall_s"], 2),
                        "identical": same}
        print(f"{job:>9}: {seq['units']:,} {UNITS[job]}: sequential {seq['wall_s']:.1f} s ({seq['per_s']:,}/s), "
              f"spark local[2] {spk['wall_s']:.1f} s ({spk['per_s']:,}/s) = {seq['wall_s'] / spk['wall_s']:.2f}x; "
              f"identical: {same}; load average {seq['load_avg_1min']}/{spk['load_avg_1min']}", flush=True)
    out = results_path("spark_jobs_bench", "quick" if args.quick else "")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**revision(), "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
                               "jobs": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
