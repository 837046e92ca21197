"""Aggregates of the incremental engine that share one kept element relation
(``lars.incremental.aggregates._maintain``): aggregates with the same elements and global
variables have the same element tuples in every group, whatever their functions and rules, so the
engine keeps them once and each group serves every function (counts, sums, #min/#max, external
aggregates with and without an incremental state).

Oracle: the reference semantics (``lars.reference``) at every time point, on the random
fresh-term streams of ``test_incremental_aggregates``; the sharing itself is checked on the
engine's nodes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from lars.incremental import IncrementalSolver
from lars.model import Stream
from lars.syntax import parse_program

from test_external_aggregates import INCREMENTAL, _profile
from test_incremental import SETTINGS, equals_reference_at_every_point
from test_incremental_aggregates import streams

FUNCTIONS = {**INCREMENTAL, "plain": _profile}  # ``plain``: the same function without a state

PROGRAMS = [
    # count, min and max of one element set in one rule; the count again in another rule (as
    # SPARQL's agglimit rule); a sum with another tuple: its own relation
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. "
    "a(X,N,L,H) :- g(X), N = #count{ Y : f(X,Y) }, L = #min{ Y : f(X,Y) }, H = #max{ Y : f(X,Y) }. "
    "b(X) :- g(X), N = #count{ Y : f(X,Y) }, N > 1. "
    "c(X,S) :- g(X), S = #sum{ Y,X : f(X,Y) }.",
    # external aggregates with and without a state sharing with a builtin one; compared, not assigned
    "f(X,Y) :- e(X,Y) [2]. g(X) :- r(X) [3]. "
    "a(X,P,Q,S) :- g(X), P = #@profile{ Y : f(X,Y) }, Q = #@plain{ Y : f(X,Y) }, S = #sum{ Y : f(X,Y) }. "
    "b(X) :- g(X), 1 < #@profile{ Y : f(X,Y) }. "
    "c(X,M) :- g(X), M = #max{ Y : f(X,Y) }, M != 1.",
    # no global variable: one group for all, shared by two rules
    "f(X,Y) :- e(X,Y) [2]. a(N) :- N = #count{ Y,X : f(X,Y) }. b(M) :- M = #min{ Y,X : f(X,Y) }. c(P) :- P = #@profile{ Y,X : f(X,Y) }.",
    # a #count whose variables are those of another aggregate's element in another order, or
    # repeated (SPARQL's COUNT(?obs) beside AVG(?value): ``#count{O,V}`` and ``#@avg{V,O,V}``):
    # one relation; a count of fewer variables, of a constant, or of two elements: their own
    "f(X,Y,Z) :- e(X,Y) [3], e(Y,Z) [2]. g(X) :- r(X) [2]. "
    "a(X,P,N) :- g(X), P = #@profile{ Z,Y,Z : f(X,Y,Z) }, N = #count{ Y,Z : f(X,Y,Z) }. "
    "b(X,N) :- g(X), N = #count{ Z,Z,Y : f(X,Y,Z) }. "
    "c(X,N) :- g(X), N = #count{ Y : f(X,Y,Z) }. "
    "d(X,N) :- g(X), N = #count{ Y,Z,1 : f(X,Y,Z) }. "
    "h(X,N) :- g(X), N = #count{ Y,Z : f(X,Y,Z); Z,Y : f(X,Z,Y) }.",
    # the count first: it owns the relation, and the later aggregate, whose first term differs, keeps its own
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. a(X,N,S) :- g(X), N = #count{ X,Y : f(X,Y) }, S = #sum{ Y,X : f(X,Y) }.",
]


def _element_relations(text: str) -> int:
    return sum(1 for sig in IncrementalSolver(parse_program(text), functions=FUNCTIONS).order if sig[0] == "#e")


@pytest.mark.parametrize("text, relations", list(zip(PROGRAMS, [2, 1, 1, 4, 2])))
def test_aggregates_with_the_same_elements_share_one_relation(text: str, relations: int) -> None:
    assert _element_relations(text) == relations


@pytest.mark.parametrize("text", PROGRAMS)
@settings(max_examples=60, **SETTINGS)
@given(stream=streams())
def test_shared_relations_equal_reference_at_every_time_point(text: str, stream: Stream) -> None:
    equals_reference_at_every_point(parse_program(text), stream, FUNCTIONS)
