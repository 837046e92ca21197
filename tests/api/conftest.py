"""Fixtures of the API tests: the command line in process (``rsplars …`` through
:func:`translator.cli.main`), to compare every result of ``import rsplars`` with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
RUNNING = DATA / "runs" / "running_example"
SEEDS = DATA / "queries" / "seeds"
Q1 = SEEDS / "s000_ex4_q1.rq"  # C-SPARQL, Dao-Tran, Beck, Eiter 2015, Ex. 4
Q2 = SEEDS / "s000_ex4_q2.rq"  # CQELS, the same example
S1, S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"
CHECK = DATA / "check"
CSR_STREAM = "http://www.example.org/stream1"


@pytest.fixture
def cli(capsys):
    """``cli(*argv) -> (exit code, stdout, stderr)`` of the rsplars command line, in process."""
    def call(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return call
