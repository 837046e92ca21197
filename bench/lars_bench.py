"""LARS engine benchmark (not a test): Laser-style micro-programs over generated streams.

    .venv/bin/python bench/lars_bench.py            # full run (a few minutes on 2 cores)
    .venv/bin/python bench/lars_bench.py --quick    # smoke run (small streams)

Every case runs in a fresh subprocess. Per case it prints facts/s (stream atoms processed per second
of ``StreamSolver.run``, stream generation excluded), ms per time point, peak memory and the ratio
to the *floor* measured in the same run: the same facts loaded into clingo (symbol per atom,
``backend.add_atom`` + ``add_rule`` as a fact) and grounded with no rules, per time point.

Peak memory is the process's peak resident set size (``resource.getrusage(RUSAGE_SELF).ru_maxrss``)
minus the resident set size measured after the stream was built, i.e. what the engine adds on top
of its input (``/proc/self/statm``); it covers Python and clingo alike.

Streams (after PyLaser's ``stream_1k_1k_*`` micro-benchmark data): 1,000
time points × 1,000 facts. ``steady``: the same 1,000 atoms ``p(i, j)`` at every time point (as
PyLaser's data: every □ holds); ``churn``: 10 % of the atoms change value at every time point, from a
bounded pool of 2,000 distinct atoms. Targets: ≥ 120k facts/s on ◇ w32, ≥ 65k on □ w32,
≤ 5 ms per time point at window 200 with one item per time point, flat peak memory when a stream
with a bounded set of distinct atoms gets 10× longer. Results go to ``bench/results/lars_bench.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lars.model import Atom, Integer, Stream  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from recording import results_path, revision  # noqa: E402

PROGRAMS = {
    "atom": "q(X,Y) :- p(X,Y).",
    "dia_w32": "q(X,Y) :- p(X,Y) [32].",
    "box_w32": "q(X,Y) :- p(X,Y) always [32].",
    "conj": "q(X,Y) :- p(X,Y), r(X,Y).",
    "join": "q(X,Z) :- p(X,Y), r(Y,Z).",
    "at_w4": "q(X) at T :- p(X,Y) at T [4], Y = 0.",
    "dia_w200": "q(X) :- p(X) [200].",
    "box_w200": "q(X) :- p(X) always [200].",
}


class GeneratedPoints(Mapping):
    """Time point → atoms, generated on access from a bounded pool of shared Atom objects (as
    ``lars.streams`` shares equal atoms); nothing is stored per time point."""

    def __init__(self, kind: str, length: int, facts: int) -> None:
        self.kind, self.length, self.facts = kind, length, facts
        ints = [Integer(i) for i in range(max(facts, 64) + 2)]
        side = max(1, int(facts**0.5))
        if kind in ("steady", "churn"):
            self.pool0 = [Atom("p", (ints[i // side], ints[i % side])) for i in range(facts)]
            self.pool1 = [Atom("p", (ints[i // side], ints[side + 1])) for i in range(facts)]
        elif kind == "two":  # p and r with matching arguments (conjunction, join)
            half = facts // 2
            self.pool0 = [Atom("p", (ints[i // side], ints[i % side])) for i in range(half)] + [
                Atom("r", (ints[i // side], ints[i % side])) for i in range(facts - half)
            ]
        elif kind == "fresh":  # every atom is new: p(t, i)
            self.ints = ints
        elif kind == "single":  # one item per time point from 50 distinct values
            self.pool0 = [Atom("p", (ints[i],)) for i in range(50)]

    def __getitem__(self, t: int) -> tuple[Atom, ...]:
        if not 0 <= t < self.length:
            raise KeyError(t)
        if self.kind == "single":
            return (self.pool0[(t * 7) % 50],)
        if self.kind == "fresh":
            tt = Integer(t)
            return tuple(Atom("p", (tt, self.ints[i])) for i in range(self.facts))
        if self.kind == "churn":
            n = self.facts
            lo = (t * n // 10) % n
            flipped = set(range(lo, lo + n // 10))
            return tuple(self.pool1[i] if (i in flipped or i + n in flipped) else self.pool0[i] for i in range(n))
        return tuple(self.pool0)

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.length))

    def __len__(self) -> int:
        return self.length


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(program: str, kind: str, length: int, facts: int, materialize: bool, reuse: bool = True) -> dict:
    """One measurement in this process (called in a subprocess by :func:`main`)."""
    from asp.solver import StreamSolver
    from lars.syntax import parse_program

    points = GeneratedPoints(kind, length, facts)
    stream = Stream(dict(points.items()) if materialize else points, start=0, end=length - 1)
    total = sum(len(points[t]) for t in range(length))
    base = _rss_mb()
    solver = StreamSolver(parse_program(PROGRAMS[program]), reuse=reuse)
    derived = 0
    start = time.perf_counter()
    for step in solver.run(stream):
        derived += len(step.answers[0]) if step.answers else 0
    elapsed = time.perf_counter() - start
    return {
        "program": program,
        "stream": kind,
        "time_points": length,
        "facts": total,
        "derived": derived,
        "seconds": elapsed,
        "facts_per_s": total / elapsed,
        "ms_per_time_point": 1000 * elapsed / length,
        "peak_mb": _peak_mb() - base,
        "reuse": reuse,
        "controls": solver.epochs,
        "solves": solver.solves,
    }


def run_floor(kind: str, length: int, facts: int) -> dict:
    """The same facts loaded into one clingo Control and grounded with no rules, per time point."""
    from clingo.control import Control

    from asp.symbols import atom_symbol

    points = GeneratedPoints(kind, length, facts)
    stream = Stream(dict(points.items()), start=0, end=length - 1)
    total = sum(len(a) for _, a in stream.items())
    base = _rss_mb()
    ctl = Control(message_limit=0)
    start = time.perf_counter()
    for _, atoms in stream.items():
        with ctl.backend() as backend:
            for a in atoms:
                backend.add_rule([backend.add_atom(atom_symbol(a))])
        ctl.ground([])
    elapsed = time.perf_counter() - start
    return {"stream": kind, "facts": total, "seconds": elapsed, "facts_per_s": total / elapsed, "peak_mb": _peak_mb() - base}


def _subprocess(args: list[str]) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"benchmark case {args} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run on small streams")
    parser.add_argument("--case", nargs=6, metavar=("PROGRAM", "KIND", "LENGTH", "FACTS", "MATERIALIZE", "REUSE"), help=argparse.SUPPRESS)
    parser.add_argument("--floor", nargs=3, metavar=("KIND", "LENGTH", "FACTS"), help=argparse.SUPPRESS)
    parser.add_argument("--output", help="default: bench/results/lars_bench[.quick].json")
    args = parser.parse_args(argv)
    if args.case:
        p, kind, length, facts, mat, reuse = args.case
        print(json.dumps(run_case(p, kind, int(length), int(facts), mat == "1", reuse == "1")))
        return 0
    if args.floor:
        kind, length, facts = args.floor
        print(json.dumps(run_floor(kind, int(length), int(facts))))
        return 0

    n_t, n_f = (100, 1000) if args.quick else (1000, 1000)
    cases = [
        ("atom", "steady", 1), ("dia_w32", "steady", 1), ("box_w32", "steady", 1),
        ("atom", "steady", 0), ("dia_w32", "steady", 0), ("box_w32", "steady", 0),
        ("conj", "two", 0), ("join", "two", 0), ("at_w4", "steady", 0),
        ("atom", "churn", 0), ("dia_w32", "churn", 0), ("box_w32", "churn", 0),
    ]  # fmt: skip
    floors = {kind: _subprocess(["--floor", kind, str(n_t), str(n_f)]) for kind in ("steady", "two", "churn")}
    rows = []
    print(f"LARS engine benchmark ({'quick' if args.quick else 'full'}): {n_t} time points x {n_f} facts; Python {platform.python_version()}")
    for kind, floor in floors.items():
        print(f"  floor[{kind}]: {floor['facts_per_s']:,.0f} facts/s (clingo: load + ground the facts, no rules)")
    print("  reuse=1: the previous answer is reused when no external changed; reuse=0: solve at every time point")
    header = f"{'program':10} {'stream':7} {'reuse':>5} {'facts/s':>10} {'ms/tp':>7} {'peak MB':>8} {'x floor':>8} {'controls':>8}"
    print(header)
    for program, kind, reuse in cases:
        r = _subprocess(["--case", program, kind, str(n_t), str(n_f), "1", str(reuse)])
        r["ratio_to_floor"] = r["seconds"] / floors[kind]["seconds"]
        rows.append(r)
        print(f"{program:10} {kind:7} {reuse:>5} {r['facts_per_s']:>10,.0f} {r['ms_per_time_point']:>7.2f} {r['peak_mb']:>8.1f} {r['ratio_to_floor']:>8.2f} {r['controls']:>8}")
    # stress: every atom new (unbounded distinct atoms)
    n_fresh = 50 if args.quick else 200
    fresh_floor = _subprocess(["--floor", "fresh", str(n_fresh), str(n_f)])
    for program in ("atom", "dia_w32"):
        r = _subprocess(["--case", program, "fresh", str(n_fresh), str(n_f), "1", "1"])
        r["ratio_to_floor"] = r["seconds"] / fresh_floor["seconds"]
        rows.append(r)
        print(f"{program:10} {'fresh':7} {1:>5} {r['facts_per_s']:>10,.0f} {r['ms_per_time_point']:>7.2f} {r['peak_mb']:>8.1f} {r['ratio_to_floor']:>8.2f} {r['controls']:>8}  ({n_fresh} time points; floor {fresh_floor['facts_per_s']:,.0f} facts/s)")
    # window 200, one item per time point (Ticker's setting)
    n_single = 300 if args.quick else 2000
    for program in ("dia_w200", "box_w200"):
        r = _subprocess(["--case", program, "single", str(n_single), "1", "1", "0"])
        rows.append(r)
        print(f"{program:10} {'single':7} {0:>5} {r['facts_per_s']:>10,.0f} {r['ms_per_time_point']:>7.2f} {r['peak_mb']:>8.1f} {'':>8} {r['controls']:>8}")
    # flat memory: bounded distinct atoms, stream 10x longer, generated lazily (not stored)
    short, facts = (500, 100) if args.quick else (2000, 100)
    mem = [_subprocess(["--case", "dia_w32", "churn", str(n), str(facts), "0", "0"]) for n in (short, 10 * short)]
    for r in mem:
        rows.append(r)
        print(f"{'dia_w32':10} {'lazy':7} {0:>5} {r['facts_per_s']:>10,.0f} {r['ms_per_time_point']:>7.2f} {r['peak_mb']:>8.1f} {'':>8} {r['controls']:>8}  ({r['time_points']} time points x {facts})")

    def find(program: str, kind: str, reuse: bool = False) -> dict:
        return next(r for r in rows if r["program"] == program and r["stream"] == kind and r["reuse"] == reuse)

    targets = [
        ("dia_w32 steady >= 120k facts/s (solving every time point)", find("dia_w32", "steady")["facts_per_s"] >= 120_000),
        ("box_w32 steady >= 65k facts/s (solving every time point)", find("box_w32", "steady")["facts_per_s"] >= 65_000),
        ("dia_w200, 1 item/tp <= 5 ms/tp", find("dia_w200", "single")["ms_per_time_point"] <= 5),
        ("peak memory flat at 10x length (<= 1.25x + 5 MB)", mem[1]["peak_mb"] <= 1.25 * mem[0]["peak_mb"] + 5),
    ]
    print("targets:")
    for name, ok in targets:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    result = {
        **revision(),
        "mode": "quick" if args.quick else "full",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "floors": floors,
        "cases": rows,
        "targets": {name: ok for name, ok in targets},
    }
    out = Path(args.output) if args.output else results_path("lars_bench", "quick" if args.quick else "")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
