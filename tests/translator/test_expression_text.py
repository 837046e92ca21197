"""The canonical text of an expression (``translator.query.printer.expression_text``, what the
LARS program's ``@sparql_test``/``@sparql_value`` calls carry) parses back to the same expression:
the property that lets ``translator.translate.expressions.remember_expression`` hand the
translator's own expression to the engine instead of parsing its text again. Random expressions
(the generator of ``test_roundtrip``) and every FILTER of the corpus queries."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from test_roundtrip import expressions
from translator.query import model as M
from translator.query.parse import parse
from translator.query.printer import expression_text
from translator.translate import expressions as X

QUERIES = sorted(p for d in ("csparql", "cqels") for p in Path(__file__).parent.parent.joinpath("data", "queries", d).glob("*.txt"))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(expressions())
def test_printed_expressions_parse_back_to_themselves(e) -> None:
    assert X._parsed_expression(expression_text(e))[0] == e


def _filters(node):
    if isinstance(node, M.Filter):
        yield node.expr
    if hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            value = getattr(node, name)
            for child in value if isinstance(value, tuple) else (value,):
                yield from _filters(child)


@pytest.mark.parametrize("path", QUERIES, ids=lambda p: p.name)
def test_corpus_filters_parse_back_to_themselves(path: Path) -> None:
    query = parse(path.read_text(), path.parent.name, lenient=True)
    for e in _filters(query.where):
        assert X._parsed_expression(expression_text(e))[0] == e


def test_the_translator_hands_its_expressions_to_the_engine() -> None:
    """After translation the engine gets the expression the translator printed (no parse)."""
    from translator.translate.compile import compile_query

    query = parse("REGISTER QUERY q AS SELECT ?v FROM STREAM <http://e/s> [RANGE 10s STEP 1s] "
                  "WHERE { ?o <http://e/p> ?v FILTER (?v > 30.5) }", "csparql")
    compile_query(query)
    (e,) = list(_filters(query.where))
    got = X.parse_expression(expression_text(e))
    assert got[0] is e and got[1] == ("v",)
