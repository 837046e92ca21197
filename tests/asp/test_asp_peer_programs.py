"""Peer programs through the clingo engine: the Ticker programs (every one parses and runs through
``rsplars lars``) and the 20 Laser unit cases (tests/data/lars; attribution in their README.md).

Laser cases: the engine must give the LARS answer, i.e. the same as ``lars.reference`` at every
time point Laser checks. Laser's own expectation (its derived atoms plus the intensional stream
atoms at t) is met by all cases except the ones named in ``LASER_DIFFERS``, where Laser's
semantics differ from LARS (reasons next to each name; ``docs/lars.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asp.solver import StreamSolver
from lars.laser import parse_laser_program
from lars.model import Stream
from lars.printer import format_atom
from lars.reference import expected_answers
from lars.streams import parse_ground_atom
from translator.cli import main

DATA = Path(__file__).parent.parent / "data" / "lars"
TICKER = DATA / "ticker"
LASER = json.loads((DATA / "laser" / "laser_tests_shared.json").read_text())["tests"]

LASER_DIFFERS = {
    "test_3": "negation inside a window (◇¬s ≡ ¬□s) and Laser feeds derived s back as input (D10)",
    "test_4": "negation inside a window: ◇¬s(C,B) read as ¬□s(C,B)",
    "test4": "Laser applies rules in order rather than by strata, and answers nothing past the stream's end",
    "test11": "tuple windows count all stream atoms in arrival order (D11); Laser counts differently",
    "test12": "tuple windows (D11)",
    "test13": "tuple windows (D11)",
}


def _laser_stream(case: dict) -> Stream:
    points = {int(t): tuple(dict.fromkeys(parse_ground_atom(a) for a in atoms if a)) for t, atoms in case["stream"].items()}
    bounds = case["stream_bounds"]
    return Stream(points, start=bounds["start"], end=bounds["end"])


@pytest.mark.parametrize("case", LASER, ids=lambda c: c["name"])
def test_laser_case_through_the_engine(case: dict) -> None:
    program = parse_laser_program(case["rules"], case["name"])
    stream = _laser_stream(case)
    times = [e["t"] for e in case["expected"]]
    got = {s.t: s.answers for s in StreamSolver(program).run(stream, times)}
    intensional = program.intensional()
    mismatches = []
    for expected in case["expected"]:
        t = expected["t"]
        assert got[t] == expected_answers(program, stream, t), (case["name"], t)
        laser = set(expected["tuples"].get(str(t), [])) | {format_atom(a) for a in stream.at(t) if a.signature in intensional}
        if got[t] != [tuple(sorted(laser))]:
            mismatches.append(t)
    assert bool(mismatches) == (case["name"] in LASER_DIFFERS), (case["name"], mismatches)


TICKER_STREAMS = {
    "MMedia.lars": "0: alpha(25)\n1: alpha(15), rtm50\n2: alpha(5)\n3:\n",
    "program.lars": "0: rec(1)\n1: rec(2)\n2: rec(3)\n3: rec(1)\n4:\n",
    "cacheHopsEvalInst.lars": "0: item(i1), req(i1,1), cache(i1,3)\n1: req(i1,2)\n2: error(2,3)\n",
    "cacheHopsEvalInst_mod.lars": "0: item(i1), req(i1,1), cache(i1,3)\n1: req(i1,2)\n2: error(2,3)\n",
}


@pytest.mark.parametrize("name", sorted(p.name for p in TICKER.glob("*.lars")))
def test_ticker_program_runs_through_the_cli(name: str, tmp_path: Path, capsys) -> None:
    assert name in TICKER_STREAMS, f"write a small stream for {name}"
    stream = tmp_path / "stream.txt"
    stream.write_text(TICKER_STREAMS[name])
    code = main(["lars", str(TICKER / name), "--stream", str(stream), "--models", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["t"] for r in records] == list(range(len(TICKER_STREAMS[name].splitlines())))
    for r in records:
        answers = [r["atoms"]] if r["atoms"] is not None else r["answers"]
        assert answers, (name, r)  # every time point has an answer stream


def test_ticker_mmedia_by_hand(tmp_path: Path, capsys) -> None:
    """alpha(25) at 0 → high at 0 (@-head), so □high over [0, 0] → lfu → done; at 1 alpha(15):
    mid at 1, high at 0 only: no □ holds over [0, 1] → random."""
    stream = tmp_path / "s.txt"
    stream.write_text(TICKER_STREAMS["MMedia.lars"])
    assert main(["lars", str(TICKER / "MMedia.lars"), "--stream", str(stream), "--times", "0..1"]) == 0
    values = ["value(15)", "value(25)", "value(5)"]
    got = [json.loads(line)["atoms"] for line in capsys.readouterr().out.splitlines()]
    assert got == [sorted(["done", "high", "lfu", *values]), sorted(["mid", "random", *values])]


def test_ticker_cache_hops_has_one_choice_per_minimal_reach(tmp_path: Path, capsys) -> None:
    """cacheHopsEvalInst: item i1 requested at node 1, cached at 3; node 1 reaches 3 via 2 (two
    hops) or via 8,4 — the minimal reach is unique, so one answer stream with getFrom(i1,1,3)."""
    stream = tmp_path / "s.txt"
    stream.write_text("0: item(i1), req(i1,1), cache(i1,3)\n")
    assert main(["lars", str(TICKER / "cacheHopsEvalInst_mod.lars"), "--stream", str(stream), "--models", "0"]) == 0
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    atoms = record["atoms"]
    assert atoms is not None and "getFrom(i1,1,3)" in atoms and "get(i1,1)" in atoms and "fail(i1,1)" not in atoms


@pytest.mark.parametrize("name", ["cacheHopsEvalInst.lars", "cacheHopsEvalInst_mod.lars"])
def test_ticker_cache_hops_with_two_minimal_reaches_has_two_answer_streams(name: str, tmp_path: Path, capsys) -> None:
    """Cached at 3 (1→2→3) and at 7 (1→6→7), both two hops from node 1: the non-stratified choice
    between getFrom(i1,1,3) and getFrom(i1,1,7) gives exactly two answer streams."""
    stream = tmp_path / "s.txt"
    stream.write_text("0: item(i1), req(i1,1), cache(i1,3), cache(i1,7)\n")
    assert main(["lars", str(TICKER / name), "--stream", str(stream), "--models", "0"]) == 0
    out, err = capsys.readouterr()
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["atoms"] is None and record["more"] is False
    chosen = [[a for a in answer if a.startswith("getFrom(")] for answer in record["answers"]]
    assert chosen == [["getFrom(i1,1,3)"], ["getFrom(i1,1,7)"]]
    assert "2 answer streams at t=0" in err


def _ticker_streams(names: dict[str, list[str]]):
    from hypothesis import strategies as st

    from lars.syntax import parse_atom

    @st.composite
    def streams(draw) -> Stream:
        length = draw(st.integers(1, 12))
        points = {}
        for t in range(length):
            atoms = draw(st.lists(st.sampled_from(names["atoms"]), max_size=3))
            if atoms:
                points[t] = tuple(dict.fromkeys(parse_atom(a) for a in atoms))
        return Stream(points, start=0, end=length - 1)

    return streams()


@pytest.mark.parametrize(
    ("name", "unit", "atoms"),
    [
        ("MMedia.lars", "min", ["alpha(5)", "alpha(15)", "alpha(25)", "alpha(12)", "alpha(18)", "rtm50"]),
        ("program.lars", "sec", ["rec(1)", "rec(2)", "rec(3)", "rec(4)", "rec(5)"]),
    ],
)
def test_stratified_ticker_programs_equal_the_reference_on_random_streams(name: str, unit: str, atoms: list[str]) -> None:
    """The stratified Ticker programs (windows in seconds, @-heads, tuple windows, □ over derived
    atoms) on random streams: engine == lars.reference at every time point. MMedia is read with
    the base unit of a minute, so that its 300-second windows (5 ticks) slide within the stream."""
    from hypothesis import HealthCheck, given, settings

    from lars.syntax import parse_program

    program = parse_program((TICKER / name).read_text(), source=name, base_unit=unit)

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(stream=_ticker_streams({"atoms": atoms}))
    def check(stream: Stream) -> None:
        times = list(range(0, stream.timeline[1] + 1))
        got = {s.t: s.answers for s in StreamSolver(program).run(stream, times)}
        assert got == {t: expected_answers(program, stream, t) for t in times}

    check()
