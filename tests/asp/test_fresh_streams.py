"""Streams of fresh terms: every observation a new constant, some terms leaving every
window and coming back later. The engine, reading the stream whole or live (``LiveStream``: read
while evaluated, atoms forgotten once nothing refers to them) and forgetting atoms after every
step, gives the reference answer (``lars.reference``) at every time point; its deltas
(``Step.delta``) add up to the full answers; ``rsplars lars --stream -`` reads a pipe and flushes
each answer as soon as its time point is complete."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_asp_property import programs  # noqa: E402  (pytest puts this folder on sys.path)

import asp.solver as solver_module
from asp.solver import StreamSolver
from lars.model import Atom, Constant, Integer, Stream
from lars.reference import expected_answers
from lars.streams import LiveStream, parse_stream_text

ROOT = Path(__file__).resolve().parents[2]
RETURNING = [Constant("a"), Integer(1), Integer(2)]  # the program's own values: they come back


@st.composite
def fresh_streams(draw) -> Stream:
    """Mostly fresh constants ``c<t>_<i>``; now and then a term seen before (fresh or not) returns
    after a gap longer than the windows, so that it has left every window in between."""
    length = draw(st.integers(8, 30))
    points: dict[int, tuple[Atom, ...]] = {}
    seen: list = []
    for t in range(length):
        atoms = []
        for i in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["fresh", "fresh", "fresh", "back", "value"]))
            if kind == "back" and seen:
                term = draw(st.sampled_from(seen))
            elif kind == "value":
                term = draw(st.sampled_from(RETURNING))
            else:
                term = Constant(f"c{t}_{i}")
                seen.append(term)
            atoms.append(Atom(draw(st.sampled_from(["p", "q", "m"])), (term,)))
        if draw(st.booleans()):
            atoms.append(Atom("s"))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, start=0, end=length - 1)


def _check_deltas(steps) -> None:
    previous = None
    for step in steps:
        if step.delta is not None:
            assert previous is not None and len(step.answers) == 1
            added, removed = step.delta
            assert list(added) == sorted(added) and list(removed) == sorted(removed)
            assert not set(added) & previous and set(removed) <= previous
            assert (previous | set(added)) - set(removed) == set(step.answers[0]), step.t
        previous = set(step.answers[0]) if len(step.answers) == 1 and not step.more else None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(program=programs(), stream=fresh_streams(), lookahead=st.sampled_from([0, 8]))
def test_fresh_terms_whole_and_live_equal_reference(program, stream, lookahead, monkeypatch_collect) -> None:
    times = list(range(0, stream.timeline[1] + 1))
    want = {t: expected_answers(program, stream, t) for t in times}
    whole = list(StreamSolver(program, lookahead=lookahead).run(stream, times))
    assert {s.t: s.answers for s in whole} == want
    _check_deltas(whole)
    if not stream.points:
        return
    live = LiveStream(iter(sorted(stream.points.items())))
    steps = list(StreamSolver(program, lookahead=lookahead).run(live))
    # a live stream's timeline goes from its first to its last time point with data
    first, last = min(stream.points), max(stream.points)
    cut = Stream(stream.points, start=first, end=last)
    assert [s.t for s in steps] == list(range(first, last + 1))
    assert {s.t: s.answers for s in steps} == {t: expected_answers(program, cut, t) for t in range(first, last + 1)}
    _check_deltas(steps)


@pytest.fixture
def monkeypatch_collect(monkeypatch):
    """Forget unused atoms after every step (the default waits until the index has doubled)."""
    monkeypatch.setattr(solver_module, "_COLLECT_MIN", 0)
    monkeypatch.setattr(solver_module, "_COLLECT_FACTOR", 0)


def test_forgotten_atoms_come_back_with_the_right_answers(monkeypatch_collect) -> None:
    text = "\n".join(f"{t}: p(c{t}), p(k)" if t % 7 == 0 else f"{t}: p(c{t})" for t in range(40))
    program_text = "q(X) :- p(X) [3]. r(X) :- p(X) always [1]."
    from lars.syntax import parse_program

    program = parse_program(program_text)
    stream = parse_stream_text(text)
    solver = StreamSolver(program)
    run = list(solver.run(stream))
    assert [s.answers for s in run] == [expected_answers(program, stream, t) for t in range(40)]
    assert len(run[39].answers[0]) == 4  # q(c36..c39)


def _lars(*args: str, stdin: str | None = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "translator", "lars", *args], input=stdin, capture_output=True, text=True, env=env, check=True)
    return out.stdout


def test_pipe_and_delta_output(tmp_path: Path) -> None:
    program = tmp_path / "p.lars"
    program.write_text("a(X,Y) :- p(X,Y) [2].\nb(X) :- p(X,v1) always [1].\n")
    text = "".join(f"{t}: " + ", ".join(f"p(o{t}_{i},v{i % 2})" for i in range(3)) + "\n" for t in range(0, 12, 1) if t != 5)
    stream = tmp_path / "s.txt"
    stream.write_text(text)
    full = [json.loads(line) for line in _lars(str(program), "--stream", str(stream)).splitlines()]
    piped = [json.loads(line) for line in _lars(str(program), "--stream", "-", stdin=text).splitlines()]
    assert piped == full and [r["t"] for r in full] == list(range(12))
    delta = [json.loads(line) for line in _lars(str(program), "--stream", "-", "--emit", "delta", stdin=text).splitlines()]
    current: set[str] = set()
    for record, want in zip(delta, full, strict=True):
        if "atoms" in record:
            current = set(record["atoms"])
        else:
            assert not set(record["added"]) & current and set(record["removed"]) <= current
            current = (current | set(record["added"])) - set(record["removed"])
        assert sorted(current) == want["atoms"], record["t"]
    text_delta = _lars(str(program), "--stream", str(stream), "--emit", "delta", "--format", "text").splitlines()
    assert text_delta[0].startswith("0: a(o0_0,v0)") and text_delta[3].startswith("3: +a(o3_0,v0)")


def test_pipe_answers_are_flushed_as_computed(tmp_path: Path) -> None:
    """The answer at t is printed once t+1 has arrived, while the pipe is still open."""
    program = tmp_path / "p.lars"
    program.write_text("q(X) :- p(X) [1].\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "translator", "lars", str(program), "--stream", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("0: p(a)\n1: p(b)\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "no answer while the stream is still open"
        assert json.loads(proc.stdout.readline()) == {"t": 0, "atoms": ["q(a)"]}
        proc.stdin.write("2: p(c)\n")
        proc.stdin.close()
        rest = [json.loads(line) for line in proc.stdout.read().splitlines()]
        assert rest == [{"t": 1, "atoms": ["q(a)", "q(b)"]}, {"t": 2, "atoms": ["q(b)", "q(c)"]}]
    finally:
        proc.kill()
        proc.wait()


def test_which_programs_use_term_ids() -> None:
    from asp.termids import id_safe
    from lars.syntax import parse_program

    assert id_safe(parse_program("a(X,Y) :- p(X,Y) [32]. b(X) :- a(X,c), not q(X) always [2]. h at T :- p(X,Y) at T [3]."))
    assert not id_safe(parse_program("a(X) :- p(X) [3], X > 2."))  # order of terms
    assert not id_safe(parse_program("a(X) :- p(X,Y) [3], X = Y."))  # any comparison
    assert not id_safe(parse_program("a(T) :- p(T) at T [3]."))  # a term that is also a time
    assert not id_safe(parse_program("a(N) :- N = #count{ X : p(X) }."))


def test_term_ids_are_reused_and_answers_name_the_terms(monkeypatch_collect) -> None:
    """Fresh terms, some equal to time points or to the program's constants: the ids are reused,
    clingo sees no stream constant, and the answers are the reference's."""
    from lars.syntax import parse_program

    program = parse_program('q(X,Y) :- p(X,Y) [2]. r(X) :- p(X,c) [1]. s(X) :- p(X,3) at 4 [5]. k(c16777217, "16777218").')
    text = "\n".join(f"{t}: p(o{t},c), p({t},3), p(\"s{t}\",v{t % 3}), p(o{max(0, t - 4)},3)" for t in range(30))
    stream = parse_stream_text(text)
    solver = StreamSolver(program, epoch_span=4)  # the @-window puts time points in the ground program
    steps = list(solver.run(stream))
    assert [s.answers for s in steps] == [expected_answers(program, stream, t) for t in range(30)]
    ids = solver.last_term_ids
    assert ids is not None and ids.next < ids.assigned / 2  # ids served several terms each
    assert "q(o28,c)" in steps[29].answers[0] and 'q("s29",v2)' in steps[29].answers[0]
    assert 'k(c16777217,"16777218")' in steps[29].answers[0]  # digits in names and strings are not ids
    plain = StreamSolver(program, term_ids=False)
    assert [s.answers for s in plain.run(stream)] == [s.answers for s in steps] and plain.last_term_ids is None


def test_long_fresh_stream_keeps_tables_bounded() -> None:
    """20,000 fresh terms through a live stream: the solver's tables and the term ids stay bounded
    by the windows (plus the collection threshold), not by the stream's length."""
    from lars.syntax import parse_program

    program = parse_program("a(X,Y) :- p(X,Y) [4].")

    def points():
        for t in range(1000):
            yield t, tuple(Atom("p", (Constant(f"o{t}_{i}"), Constant(f"v{i}"))) for i in range(20))

    live = LiveStream(points())
    solver = StreamSolver(program)
    sizes = []
    for step in solver.run(live):
        assert len(step.answers[0]) == 20 * min(5, step.t + 1)
        if step.t % 100 == 99:
            sizes.append(len(live.points))
    ids = solver.last_term_ids
    assert ids is not None and ids.assigned >= 20_000
    assert ids.next < 8_000 and len(ids.ids) < 8_000
    assert max(sizes) <= 300  # time points held by the live stream: the windows and the look-ahead
