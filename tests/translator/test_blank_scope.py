"""A blank node label is local to one basic graph pattern (SPARQL 1.1 §19.6): a query that uses
one label in two of them is refused where the later use is written (exit 2); FILTER, BIND and
VALUES between triples blocks do not end a basic graph pattern. Each query is also given to
Oxigraph's parser (pyoxigraph), which must accept and refuse the same queries."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph
import pytest

from translator.cli import main
from translator.query.errors import QuerySemanticError
from translator.query.parse import parse

ACCEPTED = {
    "one-bgp": "SELECT * { _:a ?p ?v . _:a ?q 1 }",
    "across-filter": "SELECT * { _:a ?p ?v FILTER(true) _:a ?q 1 }",
    "across-two-filters": "SELECT * { _:a ?p ?v FILTER(true) FILTER(false) . _:a ?q 1 }",
    "across-bind": "SELECT * { _:a ?p ?v BIND(1 AS ?x) _:a ?q 1 }",
    "across-values": "SELECT * { _:a ?p ?v VALUES ?x { 1 } _:a ?q 1 }",
    "inside-a-property-list": "SELECT * { [ ?p _:a ] . _:a ?q 1 }",
    "in-template-and-where": "CONSTRUCT { _:a <http://p> ?v } WHERE { _:a ?p ?v OPTIONAL { ?v ?p _:b } }",
    "construct-where": "CONSTRUCT WHERE { _:a ?p ?v . _:a ?q ?w }",
    "one-union-branch": "SELECT * { { _:a ?p ?v . _:a ?q _:a } UNION { _:b ?q _:c } }",
    "inside-exists": "SELECT * { ?s ?p ?o FILTER EXISTS { _:a ?p ?v FILTER(true) _:a ?q 1 } }",
    "two-labels": "SELECT * { _:a ?p ?v OPTIONAL { _:b ?q 1 } }",
}

REFUSED = {
    # name -> (query, the column of the later use)
    "nested-group": ("SELECT * { _:a ?p ?v . { _:a ?q 1 } }", 26),
    "group-then-triples": ("SELECT * { { _:a ?p ?v . } _:a ?q 1 }", 28),
    "union": ("SELECT * { { _:a ?p ?v } UNION { _:a ?q 1 } }", 34),
    "optional": ("SELECT * { _:a ?p ?v OPTIONAL { _:a ?q 1 } }", 33),
    "optional-breaks-bgp": ("SELECT * { _:a ?p ?v OPTIONAL { ?s ?p ?v } _:a ?q 1 }", 44),
    "graph-breaks-bgp": ("SELECT * { _:a ?p ?v GRAPH ?g { ?s ?p ?v } _:a ?q 1 }", 44),
    "minus": ("SELECT * { _:a ?p ?v MINUS { _:a ?q 1 } }", 30),
    "sub-query": ("SELECT * { _:a ?p ?v { SELECT * { _:a ?q 1 } } }", 35),
    "exists": ("SELECT * { _:a ?p ?v FILTER EXISTS { _:a ?q 1 } }", 38),
    "two-optionals": ("SELECT * { OPTIONAL { _:a ?p ?v } OPTIONAL { _:a ?q 1 } }", 46),
    "in-a-collection": ("SELECT * { ?s ?p (_:a) OPTIONAL { _:a ?q 1 } }", 35),
}


def oxigraph_reads(text: str) -> bool:
    try:
        pyoxigraph.Store().query(text)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_labels_within_one_bgp_are_read(name: str) -> None:
    assert oxigraph_reads(ACCEPTED[name])
    parse(ACCEPTED[name], "rspql")


@pytest.mark.parametrize("name", list(REFUSED))
def test_label_in_two_bgps_is_refused_at_its_later_use(name: str) -> None:
    text, column = REFUSED[name]
    assert not oxigraph_reads(text)
    with pytest.raises(QuerySemanticError) as caught:
        parse(text, "rspql")
    assert (caught.value.line, caught.value.column) == (1, column)
    assert "_:a is used in two basic graph patterns" in str(caught.value)


def test_cli_refuses_with_exit_2_and_the_position(tmp_path: Path, capsys) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT * WHERE {\n  _:x ?p ?v .\n  OPTIONAL { _:x ?q 1 } }\n", encoding="utf-8")
    assert main(["translate", str(query), "--to", "model"]) == 2
    err = capsys.readouterr().err
    assert f"{query}:3:14:" in err and "Traceback" not in err


@pytest.mark.parametrize("written", ["_:anon1", "_:anon2", "_:anon_1"])
def test_anonymous_nodes_differ_from_every_written_label(written: str) -> None:
    """``[ … ]`` and collections get labels that no ``_:label`` of the query is, whatever it is."""
    query = parse(f"SELECT * {{ ?x <http://p> {written} . ?x <http://q> [ <http://r> (?y) ] }}", "rspql")
    labels = [t.label for t in query.where.parts[0].triples for t in (t.subject, t.object) if hasattr(t, "label")]
    assert labels.count(written[2:]) == 1 and len(set(labels)) == 3


def test_a_written_anon_label_does_not_join_an_anonymous_node(tmp_path: Path, capsys) -> None:
    (tmp_path / "q.rq").write_text("PREFIX : <http://ex.org/>\n"
                                   "SELECT ?x ?y WHERE { ?x :p _:anon1 . OPTIONAL { ?x :q [ :r ?y ] } }", encoding="utf-8")
    (tmp_path / "d.nt").write_text("<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n"
                                   "<http://ex.org/a> <http://ex.org/q> <http://ex.org/c> .\n"
                                   "<http://ex.org/c> <http://ex.org/r> \"1\" .\n", encoding="utf-8")
    assert main(["run", str(tmp_path / "q.rq"), "--static", str(tmp_path / "d.nt"), "--format", "jsonl"]) == 0
    assert '"y": "\\"1\\""' in capsys.readouterr().out
