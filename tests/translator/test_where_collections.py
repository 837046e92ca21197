"""RDF collections ``( … )`` in WHERE patterns (SPARQL 1.1 §4.2.4, grammar §19.5 [102]–[104]): a
chain of fresh blank nodes with rdf:first/rdf:rest ending in rdf:nil, matched as variables no
answer shows (§4.1.4). In subject and object position, nested, inside ``[ … ]`` and property
lists, empty ``()``; compared with pyoxigraph and rdflib on data written with Turtle collections,
by the reference semantics and by ``rsplars run``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Graph

import oracles
from lars import reference
from lars.model import Program, Stream
from translator.cli import main
from translator.query.parse import parse
from translator.query.model import BGP, BlankNode, TriplePattern
from translator.rdf.static import static_facts
from translator.rdf.terms import from_lars, to_nt
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS

PREFIX = "PREFIX : <http://ex.org/>\n"
DATA = PREFIX.replace("PREFIX", "@prefix") .replace("\n", " .\n") + """
:a :list (1 2 3) .
:b :list (1 (2 3) "x") .
:c :list () .
:d :list (:a) ; :tag "d" .
(:a :b) :names :pair .
(1 2) :names :short .
:e :pairs ([ :k 1 ] [ :k 2 ]) .
:f :list (1 2 3 4) .
:g :list (5 6) .
"""

WHERE = {
    "object-three": "?s :list (?x ?y ?z)",
    "object-constants": "?s :list (1 ?y 3)",
    "object-two": "?s :list (?x ?y)",
    "object-one": "?s :list (?x)",
    "object-empty": "?s :list ()",
    "nested": "?s :list (?x (?y ?z) ?w)",
    "nested-constants": "?s :list (1 (2 ?z) \"x\")",
    "subject": "(?x ?y) :names ?n",
    "subject-alone": "(?x 2) . ?s :names ?n",
    "subject-and-object": "(?x ?y) :names ?n . ?s :list (?x ?y ?z)",
    "property-list": "?s :list (?x) ; :tag ?t",
    "in-blank-node-property-list": "?s :pairs ([ :k ?a ] [ :k ?b ])",
    "blank-node-property-list-subject": "[ :list (1 ?y 3) ] ?p ?o",
    "object-list": "?s :list (1 ?y 3), (?x 2 3)",
    "variable-predicate": "?s ?p (?x 2 ?z)",
    "in-optional": "?s :tag ?t OPTIONAL { ?s :list (?x) }",
    "in-graph-union": "{ ?s :list (?x ?y) } UNION { (?x ?y) :names ?s }",
    "no-match": "?s :list (?x ?x)",
}


def rsplars_rows(text: str, names: tuple[str, ...]) -> set[tuple]:
    compiled = compile_query(parse(text, "rspql"), mode="none")
    assert compiled.variables == names
    facts = static_facts(oracles.rdflib_dataset(TRIPLES))
    answer = reference.answer_at(Program((*compiled.program.rules, *facts)), Stream({}, 0, 0), 0, functions=FUNCTIONS)
    assert answer is not None
    return {tuple(None if from_lars(a) is None else to_nt(from_lars(a)) for a in atom.args)
            for atom in answer if atom.predicate == compiled.answer_predicate}


TRIPLES = list(Graph().parse(data=DATA, format="turtle"))  # parsed once: its blank nodes keep their labels


@pytest.mark.parametrize("name", list(WHERE))
def test_collections_in_where_equal_sparql(name: str) -> None:
    text = f"{PREFIX}SELECT DISTINCT * WHERE {{ {WHERE[name]} }}"
    names = compile_query(parse(text, "rspql"), mode="none").variables
    got = rsplars_rows(text, names)
    assert got == oracles.rows(text, TRIPLES, {}, names, "oxigraph") == oracles.rows(text, TRIPLES, {}, names,
                                                                                         "rdflib")
    assert bool(got) != (name == "no-match")  # not vacuous


def test_collection_is_a_chain_of_fresh_blank_nodes() -> None:
    query = parse(f"{PREFIX}SELECT * WHERE {{ _:l :p (?x (?y)) }}", "rspql")
    bgp = query.where.parts[0]
    assert isinstance(bgp, BGP) and len(bgp.triples) == 7
    first, rest, nil = (f"http://www.w3.org/1999/02/22-rdf-syntax-ns#{n}" for n in ("first", "rest", "nil"))
    by_predicate = {}
    for t in bgp.triples:
        assert isinstance(t, TriplePattern)
        by_predicate.setdefault(t.predicate.value, []).append(t)
    assert len(by_predicate[first]) == 3 and len(by_predicate[rest]) == 3
    assert sorted(t.object.value for t in by_predicate[rest] if not isinstance(t.object, BlankNode)) == [nil, nil]
    labels = {t.subject.label for t in bgp.triples if isinstance(t.subject, BlankNode)}
    assert len(labels) == 4 and "l" in labels  # the outer list's two nodes, the inner one's, the written _:l


def test_run_answers_a_collection_pattern(tmp_path: Path) -> None:
    (tmp_path / "d.ttl").write_text(DATA, encoding="utf-8")
    (tmp_path / "q.rq").write_text(f"{PREFIX}SELECT ?s ?y WHERE {{\n  ?s :list (1 ?y 3) }}", encoding="utf-8")
    out = tmp_path / "out.json"
    assert main(["run", str(tmp_path / "q.rq"), "--static", str(tmp_path / "d.ttl"), "--format", "sparql-json",
                 "--output", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["results"]["bindings"]
    assert [(r["s"]["value"], r["y"]["value"]) for r in rows] == [("http://ex.org/a", "2")]
