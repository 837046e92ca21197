"""External aggregates ``V = #@name{…}`` (``lars.model.AggregateAssignment``): the function of the
multiset of first terms, as the translator uses them for SPARQL's SUM/AVG/MIN/MAX/SAMPLE.

Oracles: the reference semantics (``lars.reference``: the set of tuples, then the multiset of their
first terms) for the incremental engine (kept groups whose value is cached until they change, and
groups recomputed from their condition), on the random programs and fresh-term streams of
``test_incremental_aggregates``; the text syntax read back; clingo, which has no such aggregate,
refuses it by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from lars.errors import UnsupportedError
from lars.incremental import IncrementalSolver
from lars.model import AggregateAssignment, AggregateElement, Atom, Constant, Function, Integer, Literal, Program, Rule, Stream, Variable
from lars.printer import format_program
from lars.reference import clingo_order, expected_answers
from lars.syntax import parse_program

from test_incremental import SETTINGS, equals_reference_at_every_point
from test_incremental_aggregates import programs, streams


def _profile(values) -> Function:
    """A test function that sees everything of the multiset: the number of tuples (multiplicities
    summed), of distinct first terms, and the least first term (``none`` for no tuple)."""
    least = min(values, key=clingo_order) if values else Constant("none")
    return Function("m", (Integer(sum(values.values())), Integer(len(values)), least))


FUNCTIONS = {"profile": _profile}


class _ProfileState:
    """``_profile`` offered incrementally (``lars.evaluation.external_aggregate``): the multiset
    kept under the changes the engine reports, the function applied to it when asked; an engine
    that missed or mis-signed a change gives another value than the reference's."""

    asked = 0

    def __init__(self) -> None:
        self.values: dict = {}

    def change(self, term, times: int) -> None:
        got = self.values.get(term, 0) + times
        assert got >= 0, "a term below no tuple"
        if got:
            self.values[term] = got
        else:
            del self.values[term]

    def value(self):
        _ProfileState.asked += 1
        return _profile(self.values)


def _incremental_profile(values) -> Function:
    _incremental_profile.called += 1  # type: ignore[attr-defined]
    return _profile(values)


_incremental_profile.called = 0  # type: ignore[attr-defined]
_incremental_profile.incremental = _ProfileState  # type: ignore[attr-defined]


def _wrap(term) -> Function:
    return Function("w", (term,))


INCREMENTAL = {"profile": _incremental_profile, "wrap": _wrap}


def _external(program: Program) -> Program:
    """``program`` with every #count/#sum/#min/#max turned into ``#@profile``."""
    def body(b):
        if isinstance(b, AggregateAssignment):
            return AggregateAssignment(b.left, "@profile", b.elements, b.op)
        return b

    return Program(tuple(Rule(r.head, tuple(body(b) for b in r.body)) for r in program.rules))


@settings(max_examples=150, **SETTINGS)
@given(program=programs(), stream=streams())
def test_external_aggregates_equal_reference_at_every_time_point(program: Program, stream: Stream) -> None:
    equals_reference_at_every_point(_external(program), stream, FUNCTIONS)


@settings(max_examples=150, **SETTINGS)
@given(program=programs(), stream=streams())
def test_incremental_states_equal_reference_at_every_time_point(program: Program, stream: Stream) -> None:
    """The engine keeps a function's incremental state per group and asks it for the value."""
    equals_reference_at_every_point(_external(program), stream, INCREMENTAL)


@settings(max_examples=100, **SETTINGS)
@given(stream=streams())
def test_values_of_calls_over_aggregates_equal_reference(stream: Stream) -> None:
    """``W = @wrap(N)`` after an aggregate (its text cached per argument texts by the engine), a
    comparison of plain terms after it, and an aggregate compared, not assigned."""
    program = parse_program("f(X,Y) :- e(X,Y) [2]. g(X) :- r(X) [3]. "
                            "a(X,W) :- g(X), N = #@profile{ Y,X : f(X,Y) }, W = @wrap(N), W != w(m(0,0,none)). "
                            "b(X,N,M) :- g(X), N = #count{ Y : f(X,Y) }, M = @wrap(N), N > 1. "
                            "c(X) :- g(X), m(1,1,a) = #@profile{ Y : f(X,Y) }.")
    equals_reference_at_every_point(program, stream, INCREMENTAL)


def test_the_engine_asks_the_state_not_the_function() -> None:
    """Kept groups ask their state; the function is called for an empty group only."""
    program = parse_program("e(X,Y) :- p(X,Y) [2]. g(X) :- r(X) [5]. a(X,V) :- g(X), V = #@profile{ Y,X : e(X,Y) }.")
    stream = Stream({t: (Atom("p", (Constant("a"), Integer(t))), Atom("r", (Constant("a"),)), Atom("r", (Constant("b"),)))
                     for t in range(6)})
    _incremental_profile.called, _ProfileState.asked = 0, 0  # type: ignore[attr-defined]
    steps = list(IncrementalSolver(program, functions=INCREMENTAL).run(stream, range(6)))
    assert "a(a,m(3,3,1))" in steps[3].answers[0] and "a(b,m(0,0,none))" in steps[3].answers[0]
    assert _ProfileState.asked == 6  # group a changes at every point
    assert _incremental_profile.called == 1  # group b is empty: once (the value is cached in the engine's call)


def test_multiplicities_count_tuples_not_first_terms() -> None:
    """``#@f{Y,X : e(X,Y)}``: two tuples with the first term 1 give it multiplicity 2."""
    program = parse_program("e(X,Y) :- p(X,Y) [2]. a(V) :- V = #@profile{ Y,X : e(X,Y) }.")
    stream = Stream({0: (Atom("p", (Constant("a"), Integer(1))), Atom("p", (Constant("b"), Integer(1))),
                         Atom("p", (Constant("c"), Integer(5))))})
    (answer,) = expected_answers(program, stream, 0, functions=FUNCTIONS)
    assert "a(m(3,2,1))" in answer
    (step,) = IncrementalSolver(program, functions=FUNCTIONS).run(stream, [0])
    assert "a(m(3,2,1))" in step.answers[0]


def test_external_aggregates_read_back_from_text() -> None:
    text = "a(G,V) :- g(G), V = #@sparql_avg_of{X,O : p(G,O,X), X != null}.\n"
    program = parse_program(text)
    (agg,) = [b for b in program.rules[0].body if isinstance(b, AggregateAssignment)]
    assert agg.function == "@sparql_avg_of"
    assert format_program(program) == text
    assert parse_program(format_program(program)) == program


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError):
        AggregateAssignment(Variable("V"), "@Bad-name", (AggregateElement((Variable("X"),), ()),))
    with pytest.raises(UnsupportedError, match="profile"):  # the engine names the missing function
        IncrementalSolver(parse_program("a(V) :- V = #@profile{ X : p(X) }."))


def test_clingo_refuses_external_aggregates_by_name() -> None:
    from asp.solver import StreamSolver

    program = Program((Rule(Atom("a", (Variable("V"),)),
                            (AggregateAssignment(Variable("V"), "@profile", (AggregateElement((Variable("X"),), (Literal(Atom("p", (Variable("X"),))),)),)),)),))
    with pytest.raises(UnsupportedError, match="external aggregate #@profile"):
        list(StreamSolver(program, functions=FUNCTIONS).run(Stream({0: (Atom("p", (Integer(1),)),)}), [0]))
