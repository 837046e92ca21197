"""MIN/MAX read from a group's texts (``lars.incremental.aggregates._Group``: external aggregates
that declare ``extreme = (min | max, key)``, ``lars.evaluation.external_aggregate``).

The group keeps the multiset of its values' texts and the extreme text with its key while it
stays (a new text replaces it when better, its last copy leaving forgets it). Oracles:

* the functions themselves (``sparql_min_of``/``sparql_max_of`` of the multiset of terms, which
  pick by ``@sparql_order_key``), after every change of a random sequence of additions and
  removals with duplicates, reads at random moments (so that the kept extreme is known or not when
  a change comes), and groups that empty and fill again;
* the reference semantics of LARS (``lars.reference``) on the *portable* program (order keys
  through clingo's #min/#max, no external aggregate), at every time point of random windowed
  streams whose values repeat within a group and mix integers, decimals, floats, doubles,
  NaN/±INF, ±0, ill-typed literals, strings and IRIs.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from lars.incremental import aggregates as ia
from lars.incremental.texts import parse_term
from lars.printer import format_term
from translator.rdf.terms import to_lars
from translator.translate.expressions import FUNCTIONS, sparql_max_of, sparql_min_of

from portable_reference import E, WINDOW_WHERE as WHERE, assert_native_run_equals_portable_reference, observations

VALUES = [
    Literal("1", datatype=XSD.integer), Literal("01", datatype=XSD.integer), Literal("-3", datatype=XSD.integer),
    Literal("1.0", datatype=XSD.decimal), Literal("0.1", datatype=XSD.decimal), Literal("-0.0", datatype=XSD.decimal),
    Literal("1.0E0", datatype=XSD.float), Literal("3.3E0", datatype=XSD.float), Literal("NaN", datatype=XSD.float),
    Literal("-INF", datatype=XSD.float), Literal("-0.0E0", datatype=XSD.float), Literal("0.0E0", datatype=XSD.double),
    Literal("2.5E0", datatype=XSD.double), Literal("INF", datatype=XSD.double), Literal("1.0E0", datatype=XSD.double),
    Literal("abc", datatype=XSD.integer), Literal("x"), Literal("x", lang="en"), URIRef(E + "v"),
]
TEXTS = [format_term(to_lars(v)) for v in VALUES]


class _Engine:
    """What ``_Group`` asks of the engine: terms by their texts, its functions, its caches."""

    def __init__(self) -> None:
        self.blk: dict = {}
        self.aggregate_functions = FUNCTIONS

    @staticmethod
    def term(text: str):
        return parse_term(text)


def test_the_sparql_extremes_are_declared() -> None:
    engine = _Engine()
    assert ia._extreme_of(engine, "@sparql_min_of")[0] is min
    assert ia._extreme_of(engine, "@sparql_max_of")[0] is max
    assert ia._extreme_of(engine, "@sparql_avg_of") is None


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(st.tuples(st.integers(0, len(TEXTS) - 1), st.booleans(), st.booleans()), max_size=60))
def test_group_extremes_equal_the_functions_on_the_multiset(ops: list) -> None:
    engine = _Engine()
    functions = {"@sparql_min_of": sparql_min_of, "@sparql_max_of": sparql_max_of}
    extremes = {f: ia._extreme_of(engine, f) for f in functions}
    group = None
    multiset: Counter = Counter()
    for index, add, read in ops:
        text = TEXTS[index]
        if not add and not multiset[text]:
            continue  # never below none
        if group is None:
            group = ia._Group(None, True, False, extremes)
        sign = 1 if add else -1
        multiset[text] += sign
        group.change(text, sign, engine)
        if not group.n:  # the engine drops an empty group
            group = None
        if read or group is None:
            for name, function in functions.items():
                expected = format_term(function({parse_term(t): k for t, k in multiset.items() if k}))
                assert ia._Group.value(group, name, engine) == expected, (name, dict(+multiset))
    assert group is None or group.n == sum(multiset.values())


QUERIES = [
    "REGISTER QUERY c AS SELECT ?sensor (COUNT(?obs) AS ?n) (MIN(?value) AS ?lo) (MAX(?value) AS ?hi)\n" + WHERE
    + "HAVING (COUNT(?obs) > 1)\n",
    "REGISTER QUERY s AS SELECT ?sensor (SAMPLE(?value) AS ?any) (MAX(?value) AS ?hi)\n" + WHERE,
]


def repeating_observations():
    """Few values, so that they repeat within a group."""
    return st.lists(st.sampled_from(VALUES), min_size=1, max_size=4).flatmap(lambda values: observations(values, 2))


@pytest.mark.parametrize("query", QUERIES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=repeating_observations())
def test_engine_extremes_equal_reference_of_portable_program(query: str, elements: list) -> None:
    assert_native_run_equals_portable_reference(query, elements)
