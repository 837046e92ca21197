"""DESCRIBE (SPARQL 1.1 §16.4, ``translator.translate.describe``): the concise bounded description
of each described resource, compared with pyoxigraph's DESCRIBE as graphs (blank nodes up to
renaming), on fixed and on random data; over a stream, per evaluation."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Graph
from rdflib.compare import isomorphic

DATA = """<http://e/a> <http://e/p> _:b1 .
_:b1 <http://e/q> _:b2 .
_:b2 <http://e/r> "x" .
_:b2 <http://e/r> _:b1 .
_:b1 <http://e/q> <http://e/c> .
<http://e/c> <http://e/p> "no" .
<http://e/z> <http://e/p> <http://e/a> .
_:b3 <http://e/p> <http://e/a> .
"""
NAMED = {"http://e/g": '<http://e/a> <http://e/inner> "only in g" .\n'}


def oxigraph_graph(query: str, data: str, named: dict[str, str] | None = None) -> Graph:
    store = ox.Store()
    store.load(data.encode(), ox.RdfFormat.N_TRIPLES)
    for iri, text in (named or {}).items():
        store.load(text.encode(), ox.RdfFormat.N_TRIPLES, to_graph=ox.NamedNode(iri))
    g = Graph()
    g.parse(data="".join(f"{t.subject} {t.predicate} {t.object} .\n" for t in store.query(query)), format="nt")
    return g


def rsplars_graph(run) -> Graph:
    assert run.code == 0, run.err
    g = Graph()
    g.parse(data=run.out, format="nt")
    return g


@pytest.mark.parametrize("query", [
    "DESCRIBE <http://e/a>",
    "DESCRIBE <http://e/a> <http://e/c>",
    'DESCRIBE ?x WHERE { ?x <http://e/p> "no" }',
    "DESCRIBE ?x WHERE { ?x <http://e/p> <http://e/a> }",
    "DESCRIBE * WHERE { ?x <http://e/p> ?y }",
    "DESCRIBE ?x <http://e/z> WHERE { ?x <http://e/q> ?y }",
    "DESCRIBE ?y WHERE { ?x <http://e/p> ?y }",  # literals are not described
    "DESCRIBE ?x WHERE { GRAPH ?g { ?x ?p ?o } }",  # the description reads the default graph only
    "DESCRIBE <http://e/c> WHERE { ?x <http://e/none> ?y }",  # no solution: nothing described
    "DESCRIBE <http://e/c> ?x WHERE { OPTIONAL { ?x <http://e/none> ?y } }",  # ?x unbound
])
def test_as_oxigraph(rsplars, query: str) -> None:
    run = rsplars(query, DATA, NAMED, "--format", "ntriples")
    assert isomorphic(rsplars_graph(run), oxigraph_graph(query, DATA, NAMED))


def test_jsonl_records_the_triples(rsplars) -> None:
    run = rsplars('DESCRIBE ?x WHERE { ?x <http://e/p> "no" }', DATA)
    assert run.code == 0, run.err
    assert run.records() == [{"t": 0, "triples": ['<http://e/c> <http://e/p> "no" .']}]


NODES = ["<http://e/n0>", "<http://e/n1>", "<http://e/n2>", "_:k0", "_:k1", "_:k2"]
OBJECTS = NODES + ['"v"']


@settings(max_examples=40, deadline=None)
@given(triples=st.lists(st.tuples(st.sampled_from(NODES), st.sampled_from(["<http://e/p>", "<http://e/q>"]),
                                  st.sampled_from(OBJECTS)), min_size=1, max_size=12),
       start=st.sampled_from(["<http://e/n0>", "<http://e/n1>"]))
def test_random_graphs_as_oxigraph(tmp_path_factory, triples, start) -> None:
    from sparql11_cli import run_query

    data = "".join(f"{s} {p} {o} .\n" for s, p, o in set(triples))
    for query in (f"DESCRIBE {start}", "DESCRIBE ?x WHERE { ?x <http://e/p> ?o }"):
        run = run_query(tmp_path_factory.mktemp("describe"), query, data, None, "--format", "ntriples")
        assert isomorphic(rsplars_graph(run), oxigraph_graph(query, data)), (query, data)


def test_on_a_stream_the_description_of_each_evaluation(rsplars, tmp_path) -> None:
    """C-SPARQL merges the window into the default graph: the description at t reads the static
    data and the window's triples at t."""
    stream = tmp_path / "s.stream"
    stream.write_text("<http://e/a> <http://e/p> _:w [1] .\n_:w <http://e/q> \"in the window\" [1] .\n"
                      "<http://e/b> <http://e/p> <http://e/c> [3] .\n", encoding="utf-8")
    static = '<http://e/a> <http://e/label> "static" .\n<http://e/b> <http://e/label> "b" .\n'
    query = ("DESCRIBE ?x FROM STREAM <http://e/str> [RANGE 1s STEP 1s] WHERE { ?x <http://e/p> ?o }")
    run = rsplars(query, static, None, "--stream", f"http://e/str={stream}", "--to", "4")
    assert run.code == 0, run.err
    by_t = {r["t"]: r["triples"] for r in run.records()}
    assert sorted(by_t[1]) == sorted(by_t[2])
    assert len(by_t[1]) == 3 and '<http://e/a> <http://e/label> "static" .' in by_t[1]
    assert any('"in the window"' in line for line in by_t[1])
    assert sorted(by_t[3]) == ['<http://e/b> <http://e/label> "b" .', "<http://e/b> <http://e/p> <http://e/c> ."]
    assert by_t[0] == [] and by_t.get(4, []) == sorted(by_t[3])
