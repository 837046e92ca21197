"""Property: random stratified LARS programs with every window kind × random streams — the clingo
engine (asp.solver) gives the same answer as the reference semantics (lars.reference) at every
time point of the stream.

Bodies may hold clock conditions (``⊞^0 @_C true`` with comparisons over C alone), which the
encoding turns into ``lars_clock`` externals.

Programs are generated safe (every variable of a head, a negative literal, a □, a comparison or an
@-time is bound by a positive plain, ◇ or @ literal) and stratified by construction (a rule for
``h<i>`` reads only ``h<j>`` with j < i, or itself positively).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asp.solver import StreamSolver
from lars.model import (
    ALL,
    NOW,
    Arith,
    At,
    Atom,
    Box,
    Comparison,
    Constant,
    Diamond,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    Stream,
    TRUE,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)
from lars.reference import expected_answers

X, T, C = Variable("X"), Variable("T"), Variable("C")
VALUES = [Integer(1), Integer(2), Constant("a")]
EXTENSIONAL = ["p", "q"]  # p/1, q/1 come only from the stream
MIXED = "m"  # m/1 is in the stream and in rule heads

windows = st.one_of(
    st.builds(TimeWindow, st.one_of(st.none(), st.integers(0, 3)), st.integers(-1, 1), st.integers(1, 3)),
    st.just(NOW),
    st.just(ALL),
    st.builds(TupleWindow, st.integers(0, 4)),
    st.builds(lambda n, pred: PartitionWindow(n, Atom(pred, (Variable("_"),))), st.integers(1, 3), st.sampled_from(["p", "q", "m"])),
)


@st.composite
def streams(draw) -> Stream:
    length = draw(st.integers(1, 7))
    start = draw(st.integers(0, 2))
    points = {}
    for t in range(start, start + length):
        atoms = draw(
            st.lists(
                st.builds(lambda pred, v: Atom(pred, (v,)), st.sampled_from(EXTENSIONAL + [MIXED]), st.sampled_from(VALUES)),
                max_size=3,
            )
        )
        if draw(st.booleans()):
            atoms.append(Atom("s"))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, start=start, end=start + length - 1)


@st.composite
def programs(draw) -> Program:
    n_heads = draw(st.integers(1, 4))
    rules: list[Rule] = []
    if draw(st.booleans()):
        rules.append(Rule(Atom("f", (draw(st.sampled_from(VALUES)),))))  # a fact (background data)
    for i in range(n_heads):
        head_pred = f"h{i}"
        lower = [f"h{j}" for j in range(i)] + (["f"] if rules and rules[0].is_fact else [])
        for _ in range(draw(st.integers(1, 2))):
            rules.append(draw(rule_for(head_pred, lower)))
    if draw(st.booleans()):
        rules.insert(0, draw(rule_for(MIXED, [])))  # m: below every h (which may read it)
    if draw(st.integers(0, 5)) == 0:
        rules.append(Rule(None, (Literal(Atom(f"h{n_heads - 1}", (X,))), Literal(Atom("s"), negated=True))))
    return Program(tuple(rules))


@st.composite
def rule_for(draw, head_pred: str, lower: list[str]) -> Rule:
    """A safe rule for head_pred whose body reads extensional atoms, ``s``, ``true``, lower heads
    (positively or negatively) and head_pred itself (positively)."""
    readable = EXTENSIONAL + ([MIXED] if head_pred != MIXED else []) + lower
    # the binder of X: a positive plain, ◇ or @ literal
    binder_pred = draw(st.sampled_from(readable))
    binder_kind = draw(st.sampled_from(["plain", "dia", "at", "wat"]))
    atom = Atom(binder_pred, (X,))
    time_bound = False
    if binder_kind == "plain":
        body: list = [Literal(atom)]
    elif binder_kind == "dia":
        body = [Literal(Diamond(draw(windows), atom))]
    elif binder_kind == "at":
        body = [Literal(At(atom, T))]
        time_bound = True
    else:
        body = [Literal(WindowAt(draw(windows), atom, T))]
        time_bound = True
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["plain", "dia", "box", "at", "true", "s", "cmp", "self", "clock"]))
        negated = draw(st.booleans())
        pred = draw(st.sampled_from(readable))
        arg = X if draw(st.booleans()) else draw(st.sampled_from(VALUES))
        a = Atom(pred, (arg,))
        if kind == "plain":
            body.append(Literal(a, negated))
        elif kind == "dia":
            body.append(Literal(Diamond(draw(windows), a), negated))
        elif kind == "box":
            body.append(Literal(Box(draw(windows), a), negated))
        elif kind == "at":
            when = T if time_bound else Integer(draw(st.integers(0, 6)))
            body.append(Literal(WindowAt(draw(windows), a, when), negated) if draw(st.booleans()) else Literal(At(a, when), negated))
        elif kind == "true":
            if time_bound:
                body.append(Literal(WindowAt(draw(windows), TRUE, T), negated))
            else:
                body.append(Literal(Diamond(draw(windows), TRUE), negated))
        elif kind == "s":
            body.append(Literal(Diamond(draw(windows), Atom("s")), negated) if draw(st.booleans()) else Literal(Atom("s"), negated))
        elif kind == "cmp":
            if time_bound and draw(st.booleans()):
                body.append(Comparison(draw(st.sampled_from(["=", "!=", "<", ">="])), Arith("\\", T, Integer(2)), Integer(0)))
            else:
                body.append(Comparison(draw(st.sampled_from(["!=", "<", ">="])), X, draw(st.sampled_from(VALUES))))
        elif kind == "clock":  # ⊞^0 @_C true with conditions on C alone: a clock condition of asp.encode
            body.append(Literal(WindowAt(NOW, TRUE, C)))
            for _ in range(draw(st.integers(0, 2))):
                left = Arith("\\", C, Integer(draw(st.integers(1, 3)))) if draw(st.booleans()) else C
                body.append(Comparison(draw(st.sampled_from(["=", "!=", "<", ">="])), left, Integer(draw(st.integers(0, 4)))))
        elif kind == "self" and head_pred.startswith("h"):
            body.append(Literal(Diamond(draw(windows), Atom(head_pred, (X,)))))
    head_atom = Atom(head_pred, (X,))
    if time_bound and draw(st.integers(0, 2)) == 0:
        shift = draw(st.integers(-1, 0))
        head = At(head_atom, T if shift == 0 else Arith("+", T, Integer(shift)))
        return Rule(head, tuple(body))
    return Rule(head_atom, tuple(body))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program=programs(), stream=streams())
def test_engine_equals_reference_semantics(program: Program, stream: Stream) -> None:
    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    got = {s.t: s.answers for s in StreamSolver(program).run(stream, times)}
    want = {t: expected_answers(program, stream, t) for t in times}
    assert got == want


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(), stream=streams(), data=st.data())
def test_engine_equals_reference_on_any_reference_times(program: Program, stream: Stream, data) -> None:
    """Reference times may start late and skip points (windows jump; epochs are rebuilt)."""
    tmin, tmax = stream.timeline
    times = sorted(data.draw(st.sets(st.integers(tmin, tmax), min_size=1)))
    got = {s.t: s.answers for s in StreamSolver(program, epoch_span=2, lookahead=0).run(stream, times)}
    want = {t: expected_answers(program, stream, t) for t in times}
    assert got == want


@st.composite
def long_streams(draw) -> Stream:
    """10–40 time points: windows move past what the solver cached, epochs end and restart."""
    length = draw(st.integers(10, 40))
    points = {}
    for t in range(length):
        atoms = draw(
            st.lists(st.builds(lambda p, v: Atom(p, (v,)), st.sampled_from(EXTENSIONAL + [MIXED]), st.sampled_from(VALUES)), max_size=3)
        )
        if draw(st.booleans()):
            atoms.append(Atom("s"))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, start=0, end=length - 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program=programs(), stream=long_streams(), span=st.sampled_from([2, 5, 128]), lookahead=st.sampled_from([0, 1, 8]))
def test_engine_equals_reference_on_long_streams(program: Program, stream: Stream, span: int, lookahead: int) -> None:
    times = list(range(0, stream.timeline[1] + 1))
    got = {s.t: s.answers for s in StreamSolver(program, epoch_span=span, lookahead=lookahead).run(stream, times)}
    assert got == {t: expected_answers(program, stream, t) for t in times}
