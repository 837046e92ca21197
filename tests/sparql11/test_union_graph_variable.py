"""A graph variable that one branch of a UNION leaves unbound, read by a FILTER or BIND after the
UNION: the engines may evaluate the expression on the translation's graph names (``default``)
before the rule rejects them (``translator.translate.expressions._value_of``); the answers are
pyoxigraph's, on both LARS engines."""

from __future__ import annotations

import pytest
from rdflib import Graph, URIRef

from oxigraph_oracle import oxigraph_answers

DEFAULT = '<http://e/a> <http://e/p> <http://e/b> .\n'
NAMED = {"http://e/g1": '<http://e/a> <http://e/p> <http://e/c> .\n'}


def triples(text: str) -> list[tuple]:
    return list(Graph().parse(data=text, format="nt"))


@pytest.mark.parametrize("engine", ["incremental", "asp"])
@pytest.mark.parametrize("query, names", [
    ("SELECT ?g ?o WHERE { { GRAPH ?g { ?s ?p ?o } } UNION { ?s ?p ?o } FILTER(?g != <http://x>) }", ("g", "o")),
    ("SELECT ?g ?o WHERE { { GRAPH ?g { ?s ?p ?o } } UNION { ?s ?p ?o } FILTER(!BOUND(?g) || ?g = <http://e/g1>) }", ("g", "o")),
    ("SELECT ?x WHERE { { GRAPH ?g { ?s ?p ?o } } UNION { ?s ?p ?o } BIND(COALESCE(?g, 1) AS ?x) }", ("x",)),
    ("SELECT ?x ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } BIND(STR(?g) AS ?x) }", ("x", "o")),
])
def test_as_oxigraph(rsplars, engine: str, query: str, names: tuple[str, ...]) -> None:
    run = rsplars(query, DEFAULT, NAMED, "--lars-engine", engine)
    assert run.code == 0, run.err
    want = oxigraph_answers(query, triples(DEFAULT), {URIRef(k): triples(v) for k, v in NAMED.items()}, names)
    assert {tuple(a.get(n) for n in names) for a in run.answers()} == want
