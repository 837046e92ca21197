"""Helpers for the CLI tests of ``rsplars translate`` and ``rsplars run``: ``main([...])`` with
``capsys`` (never sys.argv), the running example files, answers read back from JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

from translator.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
SEEDS = DATA / "queries" / "seeds"
RUNNING = DATA / "runs" / "running_example"
Q1 = SEEDS / "s000_ex4_q1.rq"  # C-SPARQL
Q2 = SEEDS / "s000_ex4_q2.rq"  # CQELS
RTGM = "http://example.org/rtgm#"
S1, S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
SHOP_B_RAYBAN_25 = {"shop": f"<{RTGM}b>", "product": '"rayban"', "percent": f'"25"^^<{XSD_INTEGER}>'}


def running_example_data(fmt: str = "stream") -> list[str]:
    """``--stream``/``--static``/``--unit`` options of the running example, streams in ``fmt``."""
    return [
        "--stream", f"{S1}={RUNNING / ('offers.' + fmt)}",
        "--stream", f"{S2}={RUNNING / ('near.' + fmt)}",
        "--static", str(RUNNING / "static.ttl"),
        "--unit", "m",
    ]


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(out: str) -> dict[int, list[dict]]:
    """``{t: answers}`` of ``rsplars run --format jsonl`` output."""
    records = [json.loads(line) for line in out.splitlines()]
    return {r["t"]: r["answers"] for r in records}
