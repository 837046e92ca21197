"""The native aggregates of one argument share their elements (``translator.translate.aggregates.native_rules``:
``#@sparql_min_of``, ``#@sparql_max_of``, ``#@sparql_sum_of``, ``#@sparql_avg_of`` and agglimit's
``#count`` all over ``Z, X̄``), so the incremental engine keeps one element relation for them.

Oracle: the reference semantics of LARS (``lars.reference``) on the *portable* program (limb sums,
order keys through clingo's #min/#max, no external aggregate), at every evaluation time, on
random windowed streams of observations whose values mix integers, decimals, floats, doubles and
non-numbers, come back after leaving the window, and whose groups empty and come back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from lars.incremental import IncrementalSolver
from translator.query.parse import parse
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase

from portable_reference import E, WINDOW_WHERE as WHERE, assert_native_run_equals_portable_reference, observations

QUERIES = [
    "REGISTER QUERY m AS SELECT ?sensor (MIN(?value) AS ?lo) (MAX(?value) AS ?hi) (SUM(?value) AS ?total)\n" + WHERE,
    "REGISTER QUERY a AS SELECT ?sensor (AVG(?value) AS ?avg) (COUNT(?obs) AS ?n) (MIN(?value) AS ?lo)\n" + WHERE,
    "REGISTER QUERY c AS SELECT ?sensor (COUNT(?obs) AS ?n) (MAX(?value) AS ?hi)\n" + WHERE + "HAVING (COUNT(?obs) > 1)\n",
]
VALUES = [Literal("1", datatype=XSD.integer), Literal("1.0", datatype=XSD.decimal), Literal("1.0E0", datatype=XSD.float),
          Literal("2.5E0", datatype=XSD.double), Literal("-3", datatype=XSD.integer), Literal("0.1", datatype=XSD.decimal),
          Literal("3.3E0", datatype=XSD.float), Literal("x"), URIRef(E + "v")]


def native_observations():
    return observations(VALUES, 3)


def test_one_element_relation_for_min_max_sum_and_agglimit() -> None:
    compiled = compile_query(parse(QUERIES[0]), base=TimeBase("s"))
    native = compiled.engine_programs()[1]
    assert native is not None
    order = IncrementalSolver(native, functions=FUNCTIONS).order
    assert sum(1 for sig in order if sig[0] == "#e") == 1


@pytest.mark.parametrize("query", QUERIES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=native_observations())
def test_native_run_equals_reference_of_portable_program(query: str, elements: list) -> None:
    assert_native_run_equals_portable_reference(query, elements)


def _heads(program) -> list[str]:
    return [r.head.predicate for r in program.rules if r.head is not None and hasattr(r.head, "predicate")]


def test_avg_and_count_keep_one_element_relation_and_answer_is_derived_in_place() -> None:
    """COUNT(?obs) beside AVG(?value) counts the elements AVG holds (``lars.incremental.aggregates._count_key``),
    and ``answer(X̄) :- grouped(X̄)`` is unfolded (``compile._answer_in_place``): the native program derives
    ``answer`` in the rule that aggregates, the portable one keeps τ's shape."""
    compiled = compile_query(parse(QUERIES[1]), base=TimeBase("s"))
    portable, native = compiled.engine_programs()
    assert native is not None
    assert "grouped" not in _heads(native) and _heads(native).count("answer") == 1
    assert "grouped" in _heads(portable)
    order = IncrementalSolver(native, functions=FUNCTIONS).order
    assert sum(1 for sig in order if sig[0] == "#e") == 1


@pytest.mark.parametrize("query, kept", [
    # the answer's variables in another order than the group's row, a variable twice, HAVING: unfolded
    ("SELECT (COUNT(?obs) AS ?n) ?sensor\n" + WHERE, set()),
    ("SELECT ?sensor ?sensor (COUNT(?obs) AS ?n)\n" + WHERE, set()),
    ("SELECT ?sensor (COUNT(?obs) AS ?n)\n" + WHERE + "HAVING (MAX(?value) > 1)\n", set()),
    # HAVING with || is two rules of having (Lloyd–Topor), each reading grouped: both copies kept
    ("SELECT ?sensor (COUNT(?obs) AS ?n)\n" + WHERE + "HAVING (COUNT(?obs) > 1 || MIN(?value) < 0)\n", {"grouped", "having"}),
    # a SELECT expression over the aggregates: selected's rule reads having, unfolded
    ("SELECT ?sensor (COUNT(?obs) * 2 AS ?m)\n" + WHERE + "HAVING (COUNT(?obs) > 1)\n", set()),
])
def test_copies_unfolded_into_answer(query: str, kept: set) -> None:
    compiled = compile_query(parse("REGISTER QUERY q AS " + query), base=TimeBase("s"))
    native = compiled.engine_programs()[1]
    assert native is not None
    assert set(_heads(native)) & {"grouped", "having", "selected"} == kept
    assert "group1" in _heads(native)  # read by a rule with aggregates: never unfolded (their globals would change)


def test_the_group_of_a_query_without_group_by_is_kept() -> None:
    """No GROUP BY: the group is the fact ``group1``, read by the rule that aggregates, which keeps it."""
    compiled = compile_query(parse("REGISTER QUERY q AS SELECT (COUNT(?obs) AS ?n) (AVG(?value) AS ?a)\n"
                                   + WHERE.replace("GROUP BY ?sensor", "")), base=TimeBase("s"))
    native = compiled.engine_programs()[1]
    assert native is not None and "group1" in _heads(native) and "grouped" not in _heads(native)


@pytest.mark.parametrize("query", [
    "SELECT (COUNT(?obs) AS ?n) ?sensor\n" + WHERE,
    "SELECT ?sensor ?sensor (AVG(?value) AS ?a)\n" + WHERE,
    "SELECT ?sensor (COUNT(?obs) AS ?n)\n" + WHERE + "HAVING (COUNT(?obs) > 1 || MIN(?value) < 0)\n",
    "SELECT ?sensor (COUNT(?obs) * 2 AS ?m) (SUM(?value) AS ?s)\n" + WHERE + "HAVING (COUNT(?obs) > 1)\n",
])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=native_observations())
def test_unfolded_and_kept_copies_equal_reference_of_portable_program(query: str, elements: list) -> None:
    assert_native_run_equals_portable_reference("REGISTER QUERY q AS " + query, elements)
