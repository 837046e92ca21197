"""``=`` and ``!=`` between two different literals (SPARQL 1.1 §17.3, §17.4.1.7 RDFterm-equal):
unequal when their types are known and their value spaces disjoint, a type error otherwise; every
pair of a pool of literals (and an IRI) against Oxigraph (pyoxigraph), which gives the
same answers (``translator.rdf.sparql_ops.known_types_unequal``)."""

from __future__ import annotations

import itertools

import pyoxigraph
import pytest

from translator.rdf import sparql_terms
from translator.rdf.terms import from_nt

X = "http://www.w3.org/2001/XMLSchema#"

POOL = [
    '"xyz"', '"abc"', '"1"', '"xyz"@en', '"xyz"@EN', '"abc"@fr', '"xyz"@en-GB', f'"xyz"^^<{X}string>',
    f'"xyz"^^<{X}integer>', f'"1"^^<{X}integer>', f'"01"^^<{X}int>', f'"1.0"^^<{X}decimal>',
    f'"1.0E0"^^<{X}double>', f'"1"^^<{X}float>', f'"true"^^<{X}boolean>', f'"0"^^<{X}boolean>',
    f'"xyz"^^<{X}boolean>', f'"2001-01-01T00:00:00Z"^^<{X}dateTime>',
    f'"xyz"^^<{X}dateTime>', f'"2001-01-01Z"^^<{X}date>', f'"10:00:00"^^<{X}time>',
    f'"P1D"^^<{X}duration>',
    f'"P"^^<{X}duration>', '"xyz"^^<http://example/unknown>', '"abc"^^<http://example/unknown>',
    "<http://example/xyz>",
]
# not in the pool: a dateTime or date without a time zone, which rsplars orders against a zoned one
# only more than 14 hours apart (XSD 1.1's partial order) and Oxigraph with an implicit time zone;
# two durations of different lexical forms, which rsplars does not compare by value (an error)
# and Oxigraph does; an xsd:byte out of its range ("300"), which rsplars reads as ill-formed (no
# value, so RDFterm-equal's error) and Oxigraph as a number

BOOLEAN = f"^^<{X}boolean>"


def oxigraph(a: str, b: str) -> tuple[str, str]:
    row = next(iter(pyoxigraph.Store().query(f"SELECT (({a} = {b}) AS ?e) (({a} != {b}) AS ?n) {{}}")))
    return tuple("error" if row[v] is None else row[v].value for v in ("e", "n"))  # type: ignore[return-value]


def ours(a: str, b: str) -> tuple[str, str]:
    x, y = from_nt(a), from_nt(b)
    return tuple("error" if isinstance(v, sparql_terms.ExprError) else str(v)
                 for v in (sparql_terms.call("=", [x, y]), sparql_terms.call("!=", [x, y])))  # type: ignore[return-value]


@pytest.mark.parametrize("a", POOL)
def test_equality_against_every_term_equals_oxigraph(a: str) -> None:
    for b in POOL:
        assert ours(a, b) == oxigraph(a, b), (a, b)


def test_the_pool_reaches_each_answer() -> None:
    answers = {ours(a, b) for a, b in itertools.product(POOL, repeat=2)}
    assert answers == {("true", "false"), ("false", "true"), ("error", "error")}


@pytest.mark.parametrize(("a", "b"), [
    ('"xyz"', '"xyz"@en'),  # LangTagAwareness
    ('"xyz"', f'"1"^^<{X}integer>'),  # KnownTypesDefault2Neq
    (f'"1"^^<{X}integer>', f'"true"^^<{X}boolean>'),
    (f'"P1D"^^<{X}duration>', f'"10:00:00"^^<{X}time>'),
])
def test_filter_keeps_known_types_unequal(a: str, b: str) -> None:
    x, y = from_nt(a), from_nt(b)
    assert sparql_terms.filter_holds(sparql_terms.call("!=", [x, y]))
    assert not sparql_terms.filter_holds(sparql_terms.call("=", [x, y]))
