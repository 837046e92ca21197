"""Paths of the API tests' data (the running example of Dao-Tran, Beck, Eiter 2015, the check fixtures)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
RUNNING = DATA / "runs" / "running_example"
SEEDS = DATA / "queries" / "seeds"
Q1 = SEEDS / "s000_ex4_q1.rq"  # C-SPARQL, Dao-Tran, Beck, Eiter 2015, Ex. 4
Q2 = SEEDS / "s000_ex4_q2.rq"  # CQELS, the same example
S1, S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"
CHECK = DATA / "check"
CSR_STREAM = "http://www.example.org/stream1"
