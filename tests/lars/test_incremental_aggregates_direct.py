"""The direct evaluation of partitioned aggregate blocks (``lars.incremental.aggregates._direct``):
a rule of the shape the SPARQL translation gives (``grouped(K, V…) :- group(K), V = #…{…}, …,
trigger.``, its ``agglimit`` rule) is evaluated per changed group without the general machinery.

Oracles: the reference semantics (``lars.reference``) at every time point, and the general
evaluation of the same block (``_direct`` switched off), on the random fresh-term streams of
``test_incremental_aggregates`` (terms that leave every window and come back, groups that empty
and come back, #min/#max over integers, constants and strings together)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import lars.incremental.aggregates as ia
from lars.incremental import IncrementalSolver
from lars.model import Stream
from lars.syntax import parse_program

from lars.model import Integer
from test_external_aggregates import INCREMENTAL as _INCREMENTAL
from test_incremental import SETTINGS, equals_reference_at_every_point
from test_incremental_aggregates import streams



def _half(term):
    """``@half(N)``: an integer halved (towards minus infinity), any other term itself."""
    return Integer(term.value // 2) if isinstance(term, Integer) else term


INCREMENTAL = {**_INCREMENTAL, "half": _half}

PROGRAMS = [
    # the SPARQL shape: a group literal, kept aggregates assigned, a call on a count, a count
    # compared with a constant (agglimit), an external aggregate with an incremental state
    "f(X,Y) :- e(X,Y) [3]. g(X) :- f(X,Y). "
    "a(X,N,L,H,W) :- g(X), N = #count{ Y : f(X,Y) }, L = #min{ Y : f(X,Y) }, H = #max{ Y : f(X,Y) }, W = @wrap(N). "
    "b(X) :- g(X), N = #count{ Y,X : f(X,Y) }, N > 1. "
    "c(X,S,P) :- g(X), S = #sum{ Y,X : f(X,Y) }, P = #@profile{ Y : f(X,Y) }.",
    # a literal without arguments in the core (trigger), comparisons between bound variables and
    # with constants of every kind, a #min of nothing (an element condition the group may lack)
    "f(X,Y) :- e(X,Y) [2]. g(X) :- r(X) [3]. t :- r(Z) [1]. "
    "a(X,M,L) :- g(X), t, M = #max{ Y : f(X,Y) }, L = #min{ Y : f(X,Y) }, M != L, L < a. "
    "b(X,S) :- g(X), t, S = #sum{ Y : f(X,Y) }, S >= 1, 2 > S. "
    "c(X,N) :- g(X), N = #count{ Y : f(X,Y) }, W = @wrap(N), W != N. d(X,L) :- g(X), L = #min{ Y : f(X,Y) }.",
    # tests of a call on bound variables against a plain term, either side (HAVING's
    # ``@sparql_test(…) = 1``), with every operator
    "f(X,Y) :- e(X,Y) [3]. g(X) :- r(X) [2]. "
    "a(X,N) :- g(X), N = #count{ Y : f(X,Y) }, @half(N) = 1. "
    "b(X,L,H) :- g(X), L = #min{ Y : f(X,Y) }, H = #max{ Y : f(X,Y) }, @half(H) > L, 1 <= @half(L). "
    "c(X,S) :- g(X), S = #sum{ Y : f(X,Y) }, @half(S) != 0, @half(S) < 3, 2 >= @half(S). "
    "d(X,N) :- g(X), N = #count{ Y : f(X,Y) }, @wrap(N) >= a.",
]


def _blocks(text: str) -> list:
    solver = IncrementalSolver(parse_program(text), functions=INCREMENTAL)
    return [sig[2] for sig in solver.order if sig[0] == "#blk"]


@pytest.mark.parametrize("text", PROGRAMS)
def test_these_blocks_are_evaluated_directly(text: str) -> None:
    blocks = _blocks(text)
    assert blocks and all(b.seeded is not None and ia._direct(b) is not None for b in blocks)


def test_other_shapes_are_not() -> None:
    """A negated literal, a computed comparison, a non-partitioned block: the general evaluation."""
    for text in ["f(X,Y) :- e(X,Y) [2]. g(X) :- r(X) [2]. a(X,N) :- g(X), N = #count{ Y : f(X,Y) }, not f(X,X).",
                 "f(X,Y) :- e(X,Y) [2]. g(X) :- r(X) [2]. a(X,N) :- g(X), N = #count{ Y : f(X,Y) }, N + 1 > 2.",
                 "f(X,Y) :- e(X,Y) [2]. a(N) :- N = #count{ Y,X : f(X,Y) }."]:
        assert all(b.seeded is None or ia._direct(b) is None for b in _blocks(text))


def _run(text: str, stream: Stream, direct: bool) -> list:
    program = parse_program(text)
    tmin, tmax = stream.timeline
    saved = ia._direct
    try:
        if not direct:
            ia._direct = lambda block: None
        return [(s.t, s.answers, s.delta) for s in IncrementalSolver(program, functions=INCREMENTAL).run(stream, list(range(tmin, tmax + 1)))]
    finally:
        ia._direct = saved


@pytest.mark.parametrize("text", PROGRAMS)
@settings(max_examples=80, **SETTINGS)
@given(stream=streams())
def test_direct_equals_reference_and_general_evaluation(text: str, stream: Stream) -> None:
    equals_reference_at_every_point(parse_program(text), stream, INCREMENTAL)
    assert _run(text, stream, True) == _run(text, stream, False)
