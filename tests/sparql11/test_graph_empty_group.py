"""An empty group inside GRAPH (SPARQL 1.1 §18.6 eval(D(G), Graph(var, P)) with P = {}):
``GRAPH ?g {}`` binds ?g to every named graph, ``GRAPH <g> {}`` is one empty solution when <g>
names a graph of the dataset and none otherwise; answers as pyoxigraph gives them."""

from __future__ import annotations

import pytest
from rdflib import Graph, URIRef

from oxigraph_oracle import oxigraph_answers

DEFAULT = '<http://e/a> <http://e/p> <http://e/b> .\n'
NAMED = {"http://e/g1": '<http://e/a> <http://e/p> <http://e/c> .\n',
         "http://e/g2": '<http://e/b> <http://e/q> "x" .\n'}


def triples(text: str) -> list[tuple]:
    return list(Graph().parse(data=text, format="nt"))


@pytest.mark.parametrize("query", [
    "SELECT ?g WHERE { GRAPH ?g { } }",
    "SELECT * WHERE { GRAPH <http://e/g1> { } }",
    "SELECT * WHERE { GRAPH <http://e/unknown> { } }",
    "SELECT ?s ?g WHERE { ?s <http://e/p> ?o . GRAPH ?g { } }",
    "SELECT ?g ?x WHERE { GRAPH ?g { } OPTIONAL { GRAPH ?g { ?x <http://e/q> ?y } } }",
    "SELECT ?g ?s WHERE { { GRAPH ?g { } } UNION { ?s ?p ?o } }",
    "ASK { GRAPH <http://e/g2> { } }",
])
def test_as_oxigraph(rsplars, query: str) -> None:
    run = rsplars(query, DEFAULT, NAMED)
    assert run.code == 0, run.err
    named = {URIRef(k): triples(v) for k, v in NAMED.items()}
    want_rows = oxigraph_answers(query, triples(DEFAULT), named, ())
    if query.startswith("ASK"):
        (record,) = run.records()
        assert record["answer"] == bool(want_rows)
        return
    names = tuple(query.split("WHERE")[0].replace("SELECT", "").replace("*", "").split())
    names = tuple(n.lstrip("?") for n in names)
    want = oxigraph_answers(query, triples(DEFAULT), named, names)
    got = {tuple(a.get(n) for n in names) for a in run.answers()}
    assert got == want
    assert len(run.answers()) == len(want)


def test_the_graph_variable_is_not_in_scope_inside(rsplars) -> None:
    """W3C test graph-variable-scope (SPARQL 1.0 suite): inside ``GRAPH ?g {…}`` ?g is unbound, so
    ``FILTER(BOUND(?g))`` removes the empty solution (Oxigraph binds it there and differs)."""
    run = rsplars("SELECT * WHERE { GRAPH ?g { FILTER(BOUND(?g)) } }", DEFAULT, NAMED)
    assert (run.code, run.answers()) == (0, [])
