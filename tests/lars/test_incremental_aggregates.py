"""Aggregates and positive recursion in the incremental engine (``lars.incremental.aggregates``)
against the reference semantics (``lars.reference``) and the clingo engine (``asp.solver``):
random programs with ``#count``/``#sum``/``#min``/``#max`` assignments and comparisons (groups
bound elsewhere in the body, a global variable only in a comparison of the condition, no group at
all, negated and comparison conditions, empty groups that vanish and come back) over windowed
relations, and recursive components (chains, transitive closure over windowed edges that expire,
a cycle through two predicates), on streams of mostly fresh terms. Answers at every time point,
at random reference times, and the deltas."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from lars.incremental import IncrementalSolver, NotInFragment
from lars.model import (
    AggregateAssignment,
    Arith,
    AggregateElement,
    Atom,
    Comparison,
    Constant,
    Diamond,
    Integer,
    Literal,
    Program,
    Rule,
    Stream,
    String,
    TimeWindow,
    Variable,
)
from lars.reference import expected_answers
from lars.syntax import parse_program

from test_incremental import SETTINGS, _answers, _check_deltas, equals_reference_at_every_point, equals_reference_on

X, Y, Z, N, R, P = (Variable(v) for v in "XYZNRP")
VALUES = [Integer(1), Integer(2), Integer(-3), Constant("a"), String("s")]
windows = st.builds(TimeWindow, st.integers(0, 4), st.integers(-1, 0), st.integers(1, 2))


@st.composite
def streams(draw) -> Stream:
    """e/2 edges and r/1 over mostly fresh constants (and integers, which #sum adds); terms seen
    before come back after gaps, and the program's values now and then."""
    length = draw(st.integers(1, 18))
    start = draw(st.integers(0, 2))
    seen: list = [Constant("a")]
    points: dict[int, tuple[Atom, ...]] = {}
    for t in range(start, start + length):
        atoms = []
        for i in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["fresh", "fresh", "int", "back", "value"]))
            if kind == "fresh":
                term = Constant(f"c{t}_{i}")
                seen.append(term)
            elif kind == "int":
                term = Integer(draw(st.integers(-4, 9)))
            elif kind == "back":
                term = draw(st.sampled_from(seen))
            else:
                term = draw(st.sampled_from(VALUES))
            if draw(st.integers(0, 2)):
                other = draw(st.sampled_from([*seen[-4:], *VALUES, Integer(draw(st.integers(-4, 9)))]))
                atoms.append(Atom("e", (draw(st.sampled_from([term, *seen[-3:]])), other)))
            else:
                atoms.append(Atom("r", (term,)))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, start=start, end=start + length - 1)


def _agg(function: str, terms, condition, left=N, op="=") -> AggregateAssignment:
    return AggregateAssignment(left, function, (AggregateElement(tuple(terms), tuple(condition)),), op)


@st.composite
def programs(draw) -> Program:
    rules: list[Rule] = [
        Rule(Atom("f", (X, Y)), (Literal(Diamond(draw(windows), Atom("e", (X, Y)))),)),
        Rule(Atom("g", (X,)), (Literal(Diamond(draw(windows), Atom("r", (X,)))),)),
    ]
    edges = "f"
    if draw(st.booleans()):  # recursion: reachability over the windowed edges
        kind = draw(st.sampled_from(["linear", "doubly", "mutual", "chain"]))
        rules.append(Rule(Atom("t", (X, Y)), (Literal(Atom("f", (X, Y))),)))
        if kind == "linear":
            rules.append(Rule(Atom("t", (X, Z)), (Literal(Atom("t", (X, Y))), Literal(Atom("f", (Y, Z))))))
        elif kind == "doubly":
            rules.append(Rule(Atom("t", (X, Z)), (Literal(Atom("t", (X, Y))), Literal(Atom("t", (Y, Z))))))
        elif kind == "mutual":  # t and u call each other
            rules.append(Rule(Atom("u", (X, Z)), (Literal(Atom("t", (X, Y))), Literal(Atom("f", (Y, Z))))))
            rules.append(Rule(Atom("t", (X, Y)), (Literal(Atom("u", (X, Y))), Literal(Atom("g", (X,)), negated=draw(st.booleans())))))
        else:  # partitioned by X (recomputed per changed X): steps along f(X,_), as the limbs of AVG
            J, I = Variable("J"), Variable("I")
            rules.append(Rule(Atom("t", (X, J)), (Literal(Atom("t", (X, I))), Literal(Atom("f", (X, J))), Comparison("<", I, J))))
            if draw(st.booleans()):
                rules.append(Rule(Atom("t", (X, J)), (Literal(Atom("t", (X, I))), Comparison("=", J, Arith("+", I, Integer(1))),
                                  Comparison("<", J, Integer(3)), Literal(Atom("g", (X,))))))
        if draw(st.booleans()):
            rules.append(Rule(Atom("t", (Constant("a"), Constant("a")))))  # a fact of the component
        edges = "t"
    for i in range(draw(st.integers(1, 3))):
        function = draw(st.sampled_from(["count", "sum", "min", "max"]))
        shape = draw(st.sampled_from(["group", "group", "none", "correlated", "compare", "constant"]))
        cond: list = [Literal(Atom(edges, (X, Y)))]
        if draw(st.integers(0, 3)) == 0:
            cond.append(Literal(Atom("g", (Y,)), negated=draw(st.booleans())))
        if draw(st.integers(0, 3)) == 0:
            cond.append(Comparison(draw(st.sampled_from(["!=", "<", ">="])), Y, draw(st.sampled_from(VALUES))))
        terms = [Y] if draw(st.booleans()) else [Y, X]
        head = f"a{i}"
        if shape == "group":  # per X bound by g(X): empty groups give 0 (count, sum) or nothing
            body = [Literal(Atom("g", (X,))), _agg(function, terms, cond)]
            rules.append(Rule(Atom(head, (X, N)), tuple(body)))
        elif shape == "none":  # no global variable: one group, always there
            rules.append(Rule(Atom(head, (N,)), (_agg(function, [Y, X], [Literal(Atom(edges, (X, Y)))]),)))
        elif shape == "correlated":  # a global only in a comparison of the condition (the chain of sums)
            inner = _agg(function, [R], [Literal(Atom(edges, (X, R))), Comparison(">", R, P)])
            rules.append(Rule(Atom(head, (X, P, N)), (Literal(Atom(edges, (X, P))), inner)))
        elif shape == "compare":  # the value compared, not assigned; then a comparison over it
            left = draw(st.sampled_from([Integer(1), Integer(2), Constant("a")]))
            op = draw(st.sampled_from(["<", "<=", "=", "!=", ">"]))
            rules.append(Rule(Atom(head, (X,)), (Literal(Atom("g", (X,))), _agg(function, terms, cond, left, op))))
        else:  # assigned, then compared in the body, and a head with the value
            rules.append(Rule(Atom(head, (X, N)), (Literal(Atom("g", (X,))), _agg(function, terms, cond),
                                                   Comparison(draw(st.sampled_from([">", "<=", "!="])), N, Integer(1)))))
        if draw(st.integers(0, 2)) == 0:  # a rule over the aggregate's results
            args = rules[-1].head.args
            rules.append(Rule(Atom(f"b{i}", (args[0],)), (Literal(Atom(head, args)), Literal(Atom("g", (args[0],)), negated=True))))
    return Program(tuple(rules))


@settings(max_examples=200, **SETTINGS)
@given(program=programs(), stream=streams())
def test_aggregates_and_recursion_equal_reference_at_every_time_point(program: Program, stream: Stream) -> None:
    equals_reference_at_every_point(program, stream)


@settings(max_examples=60, **SETTINGS)
@given(program=programs(), stream=streams(), data=st.data())
def test_aggregates_and_recursion_on_any_reference_times(program: Program, stream: Stream, data) -> None:
    tmin, tmax = stream.timeline
    equals_reference_on(program, stream, data.draw(st.lists(st.integers(tmin, tmax + 3), min_size=1, max_size=8)))


@settings(max_examples=30, **SETTINGS)
@given(program=programs(), stream=streams())
def test_aggregates_and_recursion_equal_clingo_engine(program: Program, stream: Stream) -> None:
    from asp.solver import StreamSolver

    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    assert _answers(IncrementalSolver(program).run(stream, times)) == _answers(StreamSolver(program).run(stream, times))


@pytest.mark.parametrize("text", [
    "a(N) :- N = #count{ X : p(X) }.",  # one group, empty at times
    "g(X) :- r(X) [2]. c(X,N) :- g(X), N = #count{ Y : e(X,Y) }. s(X,N) :- g(X), N = #sum{ Y,X : e(X,Y) }.",
    "g(X) :- r(X) [3]. m(X,M) :- g(X), M = #min{ Y : e(X,Y) }. k(X) :- g(X), 1 < #max{ Y : e(X,Y) }.",
    "f(X,Y) :- e(X,Y) [3]. n(X,P,Q) :- f(X,P), Q = #min{ R : f(X,R), R > P }.",
    "f(X,Y) :- e(X,Y) [2]. t(X,Y) :- f(X,Y). t(X,Z) :- t(X,Y), t(Y,Z). l(X) :- t(X,X).",
    "f(X,Y) :- e(X,Y) [4]. t(X,Y) :- f(X,Y). t(X,Z) :- t(X,Y), f(Y,Z). n(X,N) :- r(X), N = #count{ Y : t(X,Y) }.",
    "f(X,Y) :- e(X,Y) [3]. :- 2 < #count{ X,Y : f(X,Y) }.",  # a constraint with an aggregate
    "f(X,Y) :- e(X,Y) [3]. a(N) :- N = #count{ X : f(X,_) }. b(N) :- N = #count{ 1 : f(X,Y) }.",  # wildcard, constant tuple
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. a(X,N) :- g(X), N = #count{ Y : f(X,Y); Y : f(Y,X) }.",  # two elements: one set
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. a(X,N,M) :- g(X), N = #count{ Y : f(X,Y) }, M = #count{ Z : f(N,Z) }.",
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. a(X,S) :- g(X), S = #sum{ Y*2,Y : f(X,Y), Y > 0 }. z(X) :- g(X), 0 = #count{ Y : f(X,Y) }.",
    # partitioned by X: only the partitions of changed input rows are recomputed
    "f(X,Y) :- e(X,Y) [3]. l(X,0) :- f(X,Y). l(X,J) :- l(X,I), J = I + 1, J < 3, r(X) [2]. m(X,J) :- l(X,J), J > 0.",
])
def test_fixed_programs_equal_reference(text: str) -> None:
    program = parse_program(text)
    pairs = [("a", "b"), ("b", "c"), ("c", "a"), ("b", "1"), ("a", "3"), ("c", "-2")]
    points = {}
    for t in range(30):
        atoms = [Atom("e", (Constant(x), Integer(int(y)) if y.lstrip("-").isdigit() else Constant(y)))
                 for x, y in (pairs[(t * 7 + k) % len(pairs)] for k in range(t % 3))]
        atoms += [Atom("r", (Constant("abc"[t % 3]),))] if t % 4 else []
        atoms += [Atom("p", (Constant(f"o{t}"),))] if t % 5 > 1 else []
        points[t] = tuple(dict.fromkeys(atoms))
    stream = Stream(points)
    steps = list(IncrementalSolver(program).run(stream))
    assert _answers(steps) == {t: expected_answers(program, stream, t) for t in range(30)}
    _check_deltas(steps)


@pytest.mark.parametrize("text, why", [
    ("a(X) :- b(X). b(X) :- p(X), not a(X).", "negation inside recursion"),
    ("a(N) :- N = #count{ X : a(X) }.", "aggregate inside recursion"),
    ("a(X) :- b(X). b(X) :- a(X), N = #count{ Y : p(Y) }, N > 1.", "aggregate inside recursion"),
    ("a(X,N) :- N = #count{ Y : p(Y) }.", "unsafe"),  # X bound by nothing
])
def test_outside_the_extended_fragment_is_named(text: str, why: str) -> None:
    with pytest.raises(NotInFragment) as err:
        IncrementalSolver(parse_program(text))
    assert why in str(err.value) and "rule `" in str(err.value)


def test_partitioned_components_recompute_only_changed_partitions() -> None:
    """The chain of the AVG encoding (limbs per value) is partitioned by its first argument: a
    step whose input changes name some partitions recomputes only those (and stays exact)."""
    from lars.incremental import aggregates as agg

    program = parse_program("f(X,Y) :- e(X,Y) [3]. l(X,0) :- f(X,Y). l(X,J) :- l(X,I), J = I + 1, J < 4. n(X,N) :- r(X), N = #count{ J : l(X,J) }.")
    points = {t: (Atom("e", (Constant(f"v{t}"), Integer(t))), Atom("r", (Constant(f"v{t - 1}"),))) for t in range(20)}
    stream = Stream(points)
    calls: list = []
    original = agg.RecursiveBlock.evaluate

    def spy(self, engine, keys=None):
        calls.append(keys)
        return original(self, engine, keys)

    agg.RecursiveBlock.evaluate = spy
    try:
        steps = list(IncrementalSolver(program).run(stream))
    finally:
        agg.RecursiveBlock.evaluate = original
    assert _answers(steps) == {t: expected_answers(program, stream, t) for t in range(20)}
    assert calls[0] is None and all(keys is not None and len(keys) <= 2 for keys in calls[1:]), calls


@settings(max_examples=80, **SETTINGS)
@given(program=programs(), stream=streams(), data=st.data())
def test_aggregates_and_recursion_with_outputs_equal_reference_restricted(program: Program, stream: Stream, data) -> None:
    """With ``outputs`` (what ``rsplars run`` passes), the demand analysis must keep every row a
    block reads (it drops stream rows no output needs): the answers restricted to the outputs."""
    heads = sorted({r.head.predicate for r in program.rules if r.head is not None})
    names = set(data.draw(st.lists(st.sampled_from(heads), unique=True, min_size=1))) if heads else set()
    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    for step in IncrementalSolver(program, outputs=names).run(stream, times):
        expected = tuple(a for a in expected_answers(program, stream, step.t)[0] if a.split("(", 1)[0] in names)
        assert [tuple(step.answers[0])] == [expected], step.t
