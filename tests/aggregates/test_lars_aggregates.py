"""Aggregates in LARS programs (``lars.model.AggregateAssignment``): text syntax, printer, the
reference semantics, and the clingo engine against the reference semantics.

Oracles: hand-computed values; plain clingo on window-free programs (its aggregates are the
definition the LARS extension copies); the reference semantics for the engine on streams.
"""

from __future__ import annotations

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asp.solver import StreamSolver
from lars.errors import SourceError, UnsupportedError
from lars.model import (
    AggregateAssignment,
    AggregateElement,
    Atom,
    Comparison,
    Constant,
    Integer,
    Literal,
    Program,
    Rule,
    Stream,
    Variable,
)
from lars.printer import format_program
from lars.reference import answer_at, expected_answers
from lars.syntax import parse_program


def reference_atoms(text: str, stream: Stream = Stream({})) -> list[str]:
    from lars.printer import format_atom

    answer = answer_at(parse_program(text), stream, stream.timeline[1])
    assert answer is not None
    return sorted(format_atom(a) for a in answer)


def plain_clingo(text: str) -> list[str]:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    out: list[list[str]] = []
    ctl.solve(on_model=lambda m: out.append(sorted(str(s) for s in m.symbols(atoms=True))))
    assert len(out) == 1
    return out[0]


STATIC = """
g(a). g(b). g(c). p(a,1). p(a,2). p(b,5). p(b,x). p(b,-7). q(2).
count(G,N) :- g(G), N = #count{ X : p(G,X) }.
sum(G,S) :- g(G), S = #sum{ X : p(G,X) }.
min(G,M) :- g(G), M = #min{ X : p(G,X) }.
max(G,M) :- g(G), M = #max{ X : p(G,X) }.
big(G) :- g(G), 2 < #count{ X : p(G,X) }.
none(G) :- g(G), 0 = #count{ X : p(G,X) }.
notq(G,N) :- g(G), N = #count{ X : p(G,X), not q(X), X != 5 }.
pairs(N) :- N = #count{ G,X : p(G,X); x,X : q(X) }.
"""


def test_syntax_round_trip_and_model():
    program = parse_program(STATIC)
    assert parse_program(format_program(program)) == program
    rule = program.rules[-1]
    (agg,) = rule.body
    assert agg == AggregateAssignment(
        Variable("N"),
        "count",
        (
            AggregateElement((Variable("G"), Variable("X")), (Literal(Atom("p", (Variable("G"), Variable("X")))),)),
            AggregateElement((Constant("x"), Variable("X")), (Literal(Atom("q", (Variable("X"),))),)),
        ),
    )
    assert "N = #count{G,X : p(G,X); x,X : q(X)}" in format_program(program)


def test_syntax_errors():
    with pytest.raises(SourceError, match="unknown aggregate #avg"):
        parse_program("a(N) :- N = #avg{ X : p(X) }.")
    with pytest.raises(SourceError):
        parse_program("a(N) :- N = #count{ X : p(X) [3] }.")  # no windows inside aggregates


def test_reference_hand_computed():
    atoms = set(reference_atoms(STATIC))
    expected = {
        "count(a,2)", "count(b,3)", "count(c,0)",
        "sum(a,3)", "sum(b,-2)", "sum(c,0)",  # the constant x is not an integer: ignored (clingo)
        "min(a,1)", "min(b,-7)",  # no min/max for c: #min of nothing assigns nothing
        "max(a,2)", "max(b,x)",  # clingo's order: integers < constants
        "big(b)", "none(c)",
        "notq(a,1)", "notq(b,2)",
        "pairs(6)",
    }
    assert expected <= atoms
    assert not any(a.startswith(("min(c", "max(c")) for a in atoms)


def test_reference_equals_plain_clingo_on_static_programs():
    # clingo gives min(c,#sup)/max(c,#inf) where the LARS extension assigns nothing (documented)
    from_clingo = [a for a in plain_clingo(STATIC) if "#sup" not in a and "#inf" not in a]
    assert reference_atoms(STATIC) == from_clingo


def test_aggregates_are_stratified_like_negation():
    with pytest.raises(UnsupportedError, match="non-stratified"):
        answer_at(parse_program("a(N) :- N = #count{ X : a(X) }."), Stream({}), 0)


WINDOWED = """
g(a). g(b).
w(G,X) :- p(G,X) [3].
count(G,N) :- g(G), N = #count{ X : w(G,X) }.
sum(G,S) :- g(G), S = #sum{ X : w(G,X) }.
min(G,M) :- g(G), M = #min{ X : w(G,X) }.
now(N) :- N = #count{ G,X : p(G,X) }.
two(G) :- g(G), N = #count{ X : w(G,X), X != 1 }, N >= 2.
"""


def _stream(points: dict[int, list[tuple[str, object]]], end: int) -> Stream:
    def atom(g: str, x: object) -> Atom:
        return Atom("p", (Constant(g), Integer(x) if isinstance(x, int) else Constant(str(x))))

    return Stream({t: tuple(atom(g, x) for g, x in items) for t, items in points.items()}, 0, end)


def test_engine_equals_reference_on_a_windowed_program():
    program = parse_program(WINDOWED)
    stream = _stream({0: [("a", 1)], 1: [("a", 2), ("b", "x")], 3: [("b", 5)], 6: [("a", 1), ("a", 1)]}, 8)
    for step in StreamSolver(program).run(stream, range(0, 9)):
        assert step.answers == expected_answers(program, stream, step.t), step.t
    at3 = expected_answers(program, stream, 3)[0]
    # window [0,3]: a has 1, 2 and b has x, 5; at 3 only p(b,5) arrives
    assert {"count(a,2)", "count(b,2)", "sum(a,3)", "sum(b,5)", "min(b,5)", "two(b)", "now(1)"} <= set(at3)
    assert "two(a)" not in at3


items = st.tuples(st.sampled_from(["a", "b"]), st.one_of(st.integers(-3, 3), st.sampled_from(["x", "y"])))


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(st.integers(0, 6), st.lists(items, min_size=1, max_size=3), max_size=5),
    st.sampled_from(["count", "sum", "min", "max"]),
    st.integers(0, 4),
)
def test_engine_equals_reference_property(points, function, width):
    text = f"""
    g(a). g(b). g(c).
    w(G,X) :- p(G,X) [{width}].
    v(G,V) :- g(G), V = #{function}{{ X : w(G,X) }}.
    k(V) :- V = #{function}{{ X,G : w(G,X), G != b; X,G : p(G,X) }}.
    """
    program = parse_program(text)
    stream = _stream(points, 7)
    for step in StreamSolver(program).run(stream, range(0, 8)):
        assert step.answers == expected_answers(program, stream, step.t), (step.t, points)


# ---------------------------------------------------------------------------- printer round trip

terms = st.one_of(
    st.sampled_from([Variable("X"), Variable("Y"), Variable("Z")]),
    st.integers(-5, 5).map(Integer),
    st.sampled_from([Constant("a"), Constant("null")]),
)
conditions = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["p", "q"]), st.lists(terms, min_size=1, max_size=3), st.booleans()).map(
            lambda c: Literal(Atom(c[0], tuple(c[1])), c[2])),
        st.tuples(st.sampled_from(["=", "!=", "<", ">="]), terms, terms).map(lambda c: Comparison(*c)),
    ),
    max_size=3,
)
elements = st.tuples(st.lists(terms, min_size=1, max_size=3), conditions).map(
    lambda e: AggregateElement(tuple(e[0]), tuple(e[1])))
aggregate_literals = st.tuples(terms, st.sampled_from(["=", "<", "!=", ">="]), st.sampled_from(["count", "sum", "min", "max"]),
                               st.lists(elements, max_size=3)).map(
    lambda a: AggregateAssignment(a[0], a[2], tuple(a[3]), a[1]))


@settings(max_examples=150, deadline=None)
@given(st.lists(aggregate_literals, min_size=1, max_size=3))
def test_printer_round_trip_of_aggregates(body):
    program = Program((Rule(Atom("h", (Variable("X"),)), (Literal(Atom("g", (Variable("X"),))), *body)),))
    text = format_program(program)
    assert parse_program(text) == program, text
    assert format_program(parse_program(text)) == text
