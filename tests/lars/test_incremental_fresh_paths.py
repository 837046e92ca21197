"""The fast paths of the incremental engine for streams of fresh atoms (``lars.incremental``):

* a rule that copies one relation (``h(X,Y) :- p(X,Y) [w].``) records the changes of its head
  exactly (``Engine._exact``: rows that enter new and leave gone need no set operations at the
  flush), and falls back to the general path whenever another rule, a fact, the stream (D11) or a
  second copy rule touches the same head, or a row comes back while it is still supported;
* window relations read only by such copies keep no rows (``Engine.untracked``);
* the answer's atom texts are built once per row and kept while it is shown (``Engine.shown``);
* the JSON of the answer's blocks is a join while no text has a character to escape
  (``SortedAnswer.plain``).

Each is checked against ``lars.reference`` at every time point (answers, deltas, and the JSON line
``rsplars lars`` prints: ``Step.encoded`` against ``json.dumps``), on random programs mixing copy
rules with joins, negation, facts and □ over the same heads, and random streams of mostly fresh
constants that leave every window and come back later (as the same atom, or as a string that
needs JSON escapes)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.incremental import answer as answer_module
from lars.incremental import engine as engine_module
from lars.incremental import IncrementalSolver, fragment_problem
from lars.model import Atom, Constant, Program, Stream, String
from lars.reference import expected_answers
from lars.syntax import parse_program

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: rules for h/2 (and readers of it): copies of one relation through different windows (so that
#: a row can leave one window as it enters another at the same step), and rules that touch the
#: same head otherwise (a join, a repeated variable, a fact, a constant, □)
HEAD_RULES = [
    "h(X,Y) :- p(X,Y).",
    "h(X,Y) :- p(X,Y) {w}.",
    "h(X,Y) :- p(X,Y) {r}.",
    "h(X,Y) :- p(X,Y) {v}.",
    "h(X,Y) :- p(X,Y) always {b}.",
    "h(X,Y) :- q(X,Y) {w}.",
    "h(X,Y) :- q(X,Y) {v}, p(X,Z) {w}.",
    "h(X,X) :- q(X,Y) {w}.",
    "h(Y,X) :- p(X,Y) {v}.",
    "h(c0_0,a).",
    "h(X,a) :- q(X,a) {v}.",
]
#: readers of h and of the windows: joins, negation, a second copy, an aggregate, recursion (the
#: blocks of ``lars.incremental.aggregates`` read the window relations' rows)
READERS = [
    "k(X) :- h(X,Y), not p(Y,X) {v}.",
    "g(X,Y) :- q(X,Y) {w}, not h(X,Y).",
    "e(X) :- h(X,Y), h(Y,X).",
    "f(X,Y) :- h(X,Y).",
    "f(X,Y) :- p(Y,X) {w}.",
    "n(X,N) :- q(X,Y) {u}, N = #count{{ Z : h(X,Z) }}.",
    "r(X,Y) :- p(X,Y) {w}. r(X,Z) :- r(X,Y), q(Y,Z) {v}.",
]
VALUES = [Constant("a"), String('x"y'), String("é\\n")]  # values that come back; two need JSON escapes


@st.composite
def window_text(draw) -> str:
    """A time window ``[L, U, D]`` (right-open ends, steps, jumps), ``[N]``, ``[now]``, ``[all]``."""
    kind = draw(st.sampled_from(["n", "n", "lud", "now", "all"]))
    if kind == "n":
        return f"[{draw(st.integers(0, 3))}]"
    if kind == "lud":
        return f"[{draw(st.integers(0, 4))}, {draw(st.integers(-1, 1))}, {draw(st.integers(1, 3))}]"
    return f"[{kind}]"


@st.composite
def copy_programs(draw) -> Program:
    w, v, u = draw(window_text()), draw(window_text()), draw(window_text())
    b = f"[{draw(st.integers(0, 3))}]"
    # mostly one or two copies of p through windows, and up to three other rules for h
    # (``r`` is right-open: a row enters it as it leaves the window at t, ``[now]``, before it)
    r = f"[{draw(st.integers(1, 3))}, -1, {draw(st.integers(1, 2))}]"
    rules = [rule for rule in HEAD_RULES[:3] if draw(st.integers(0, 2))]
    rules += draw(st.lists(st.sampled_from(HEAD_RULES[3:]), min_size=0 if rules else 1, max_size=3, unique=True))
    rules += draw(st.lists(st.sampled_from(READERS), max_size=2, unique=True))
    program = parse_program("\n".join(rule.format(w=w, v=v, u=u, b=b, r=r) for rule in rules))
    assert fragment_problem(program) is None, fragment_problem(program)
    return program


@st.composite
def fresh_pair_streams(draw) -> Stream:
    """p/2, q/2 (and h/2, in the stream too) over mostly fresh constants ``c<t>_<i>``: each time
    point brings new atoms; now and then an atom seen before comes back, after it left a window
    or while it is still in one, and some terms need JSON escapes."""
    length = draw(st.integers(1, 16))
    points: dict[int, tuple[Atom, ...]] = {}
    seen: list[Atom] = []
    for t in range(length):
        atoms: list[Atom] = []
        for i in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["fresh", "fresh", "fresh", "back", "value"]))
            if kind == "back" and seen:
                atom = draw(st.sampled_from(seen))
            else:
                x = Constant(f"c{t}_{i}")
                y = draw(st.sampled_from(VALUES)) if kind == "value" else Constant(f"v{draw(st.integers(0, 3))}")
                pred = draw(st.sampled_from(["p", "p", "q", "h"]))
                atom = Atom(pred, (x, y) if draw(st.integers(0, 5)) else (y, x))
                seen.append(atom)
            atoms.append(atom)
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, start=0, end=length - 1)


def _check(program: Program, stream: Stream, times: list[int]) -> None:
    solver = IncrementalSolver(program)
    solver.encode_json = True
    steps = list(solver.run(stream, times))
    previous = None
    for step in steps:
        assert step.answers == expected_answers(program, stream, step.t), step.t
        if step.answers:
            assert step.encoded is not None
            assert f'{{"t": {step.t}, "atoms": [{step.encoded}]}}' == json.dumps({"t": step.t, "atoms": list(step.answers[0])}, ensure_ascii=False)
            if step.delta is not None:
                added, removed = step.delta
                assert list(added) == sorted(added) and list(removed) == sorted(removed)
                assert not set(added) & previous and set(removed) <= previous
                assert (previous | set(added)) - set(removed) == set(step.answers[0])
        previous = set(step.answers[0]) if step.answers else None


@settings(max_examples=300, **SETTINGS)
@given(program=copy_programs(), stream=fresh_pair_streams(), data=st.data())
def test_copy_rules_over_fresh_atoms_equal_reference(program: Program, stream: Stream, data) -> None:
    """At every time point, and at increasing reference times that skip points (several points
    enter and leave a window at one step: a row can enter and leave in the same step)."""
    tmin, tmax = stream.timeline
    _check(program, stream, list(range(tmin, tmax + 1)))
    jumps = sorted(set(data.draw(st.lists(st.integers(tmin, tmax + 2), min_size=1, max_size=6))))
    _check(program, stream, jumps)


def test_copy_rule_paths_are_taken() -> None:
    """The fast paths run on the one-rule program of the fresh-atom benchmark (not only the
    general path): changes recorded exactly, the window relation keeps no rows, texts kept."""
    program = parse_program("a(X,Y) :- p(X,Y) [2].")
    points = {t: tuple(Atom("p", (Constant(f"o{t}_{i}"), Constant(f"v{i}"))) for i in range(3)) for t in range(8)}
    stream = Stream(points, start=0, end=7)
    solver = IncrementalSolver(program)
    seen_exact: list[bool] = []
    engines: list = []
    engine_cls = engine_module.Engine
    original = engine_cls.changes

    def spy(self, sig):
        if sig == ("a", 2):
            seen_exact.append(sig in self.exact)
            engines.append(self)
        return original(self, sig)

    engine_cls.changes = spy
    try:
        steps = list(solver.run(stream, range(8)))
    finally:
        engine_cls.changes = original
    assert [s.answers for s in steps] == [expected_answers(program, stream, t) for t in range(8)]
    assert all(seen_exact) and len(seen_exact) == 8
    engine = engines[-1]
    assert engine.untracked and not any(engine.rels[rel].rows for rel in engine.untracked)
    assert {engine.shown[("a", 2)][row] for row in engine.rels["a", 2].rows} == set(steps[-1].answers[0])


def test_plain_json_blocks_until_an_escape_arrives() -> None:
    """``SortedAnswer.encoded`` joins the texts while none has a character that JSON escapes,
    and is ``json.dumps`` throughout: before and after a quote, a backslash, a control character,
    non-ASCII and a lone surrogate arrive."""
    import random

    rng = random.Random(8)
    for odd in ['"', "\\", "\n", "\x1f", "\x7f", "é", "\u2028", "\ud800"]:
        answer = answer_module.SortedAnswer()
        now: set[str] = set()
        for step in range(12):
            removed = sorted(rng.sample(sorted(now), rng.randrange(len(now) + 1)))
            fresh = {f"a(o{step}_{i},v{rng.randrange(9)})" for i in range(rng.randrange(1, 2500))}
            if step == 6:  # no quotes around it: the odd character alone must be seen
                fresh.add(f"a(x{odd}y)")
            added = sorted(fresh - now)
            answer.update(added, removed)
            now = (now - set(removed)) | set(added)
            assert answer.atoms() == tuple(sorted(now))
            assert "[" + answer.encoded() + "]" == json.dumps(sorted(now), ensure_ascii=False), (odd, step)


def test_a_row_leaving_one_copy_as_it_enters_another() -> None:
    """A row that leaves ``[now]`` and enters ``[2, -1, 1]`` at the same step is no change of h
    (recorded gone, then coming back: the general path), and it leaves h two steps later."""
    program = parse_program("h(X,Y) :- p(X,Y) [now]. h(X,Y) :- p(X,Y) [2, -1, 1].")
    points = {t: (Atom("p", (Constant(f"o{t}"), Constant("v"))),) for t in range(0, 12, 3)}
    stream = Stream(points, start=0, end=11)
    _check(program, stream, list(range(12)))
    _check(program, stream, [0, 1, 3, 4, 6, 9, 10, 11])


def test_sorted_answer_takes_runs_of_consecutive_atoms() -> None:
    """Atoms that enter and leave as runs (one time point's fresh atoms: consecutive in the
    order) are cut out and put in by slices (``SortedAnswer.update``), others one by one; the
    blocks stay the sorted set and its JSON across splits, with runs that straddle blocks."""
    import random

    rng = random.Random(5)
    for width in (1, 3, 6):
        answer = answer_module.SortedAnswer()
        now: set[str] = set()
        window: list[list[str]] = []
        for t in range(40):
            fresh = {f"a(o{t}_{i},v{i % 7})" for i in range(rng.choice([0, 1, 2, 40, 900, 2600]))}
            if t % 3 == 1:  # a few among the atoms of earlier points
                fresh |= {f"a(o{rng.randrange(t + 1)}_{i}x,v0)" for i in range(rng.randrange(1, 5))}
            fresh = sorted(fresh - now)  # (absent ones only, as the engine gives them)
            window.append(fresh)
            removed = window.pop(0) if len(window) > width else []
            if t % 5 == 4 and now:  # a few scattered ones too
                extra = rng.sample(sorted(now - set(removed)), min(3, len(now - set(removed))))
                removed = sorted(set(removed) | set(extra))
                window = [[x for x in run if x not in extra] for run in window]
            answer.update(fresh, sorted(removed))
            now = (now - set(removed)) | set(fresh)
            assert answer.atoms() == tuple(sorted(now)), (width, t)
            assert "[" + answer.encoded() + "]" == json.dumps(sorted(now), ensure_ascii=False)
            assert all(0 < len(b) <= 2 * answer_module._BLOCK for b in answer.blocks)
