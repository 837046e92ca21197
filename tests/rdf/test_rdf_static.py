"""Static data in any rdflib syntax, named graphs, and positioned parse errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from lars.errors import RsplarsError, SourceError
from translator.rdf.static import dataset_quads, load_dataset, load_static

DATA = Path(__file__).parent.parent / "data" / "rdf"
EX = "http://example.org/"


def test_running_example_background_data():
    graph = load_static(DATA / "running_example" / "static.n3")
    assert set(graph) == {
        (Literal("mbt"), URIRef(EX + "g_classify"), Literal(1)),
        (Literal("rayban"), URIRef(EX + "g_classify"), Literal(0)),
    }


def test_default_and_named_graphs(tmp_path):
    (tmp_path / "d.ttl").write_text("@prefix : <http://e.org/> .\n:a :b :c .\n")
    (tmp_path / "n.nt").write_text("<http://e.org/x> <http://e.org/y> \"z\"^^<http://www.w3.org/2001/XMLSchema#string> .\n")
    (tmp_path / "q.trig").write_text("@prefix : <http://e.org/> .\n:g { :s :p :o . }\n")
    ds = load_dataset([tmp_path / "d.ttl", tmp_path / "q.trig"], {"http://e.org/named": tmp_path / "n.nt"})
    quads = list(dataset_quads(ds))
    assert quads == [
        (URIRef("http://e.org/a"), URIRef("http://e.org/b"), URIRef("http://e.org/c"), None),
        (URIRef("http://e.org/s"), URIRef("http://e.org/p"), URIRef("http://e.org/o"), URIRef("http://e.org/g")),
        (URIRef("http://e.org/x"), URIRef("http://e.org/y"), Literal("z"), URIRef("http://e.org/named")),
    ]


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("bad.ttl", "@prefix : <http://e.org/> .\n:a :b :c .\n:a :b .\n", 3),
        ("bad.nt", "<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a> <b> .\n", None),
        ("bad.rdf", "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n<oops>\n</rdf:RDF>\n", 3),
    ],
)
def test_parse_errors_are_source_errors(tmp_path, name, text, line):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(SourceError, match="syntax error") as err:
        load_static(path)
    assert str(err.value).startswith(str(path))
    if line is not None:
        assert err.value.line == line


def test_missing_file():
    with pytest.raises(RsplarsError, match="not found"):
        load_static("/nonexistent.ttl")


def test_lexical_forms_are_kept(tmp_path):
    path = tmp_path / "d.ttl"
    path.write_text('@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n<http://a> <http://p> "01"^^xsd:integer .\n')
    ((_, _, o),) = list(load_static(path))
    assert str(o) == "01"


def test_static_facts_match_the_translation_names():
    from lars.model import Atom, Constant, Rule, String
    from translator.translate import tau
    from translator.rdf.static import DEFAULT_GRAPH, TRIPLE, static_facts

    assert (TRIPLE, DEFAULT_GRAPH) == (tau.TRIPLE, tau.DEFAULT_GRAPH)
    ds = load_dataset([DATA / "running_example" / "static.n3"])
    facts = static_facts(ds)
    assert Rule(Atom("triple", (String('"rayban"'), String(f"<{EX}g_classify>"),
                                String('"0"^^<http://www.w3.org/2001/XMLSchema#integer>'),
                                Constant("default")))) in facts
    assert len(facts) == 2 and all(r.is_fact for r in facts)
