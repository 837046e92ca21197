"""The W3C SPARQL 1.1 query-evaluation tests (``tests/data/w3c-sparql11/``, README there): their
``manifest.ttl`` files read with rdflib into :class:`W3CTest` records.

A manifest lists its tests in ``mf:entries``; a ``mf:QueryEvaluationTest`` has an action with
``qt:query``, ``qt:data`` (the default graph, any number) and ``qt:graphData`` (named graphs, named
by their file's IRI), and an ``mf:result`` (SRX, SRJ, or an RDF graph for CONSTRUCT). Other test
types (syntax tests) are not evaluation tests and are not read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SUITE = Path(__file__).resolve().parents[1] / "data" / "w3c-sparql11" / "sparql11"

MF = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
QT = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#"

CATEGORIES = ("aggregates", "bind", "bindings", "cast", "construct", "exists", "functions", "grouping",
              "negation", "project-expression", "property-path", "subquery")
"""The folders of the suite, in the order the README's conformance table lists them."""


@dataclass(frozen=True)
class W3CTest:
    """One ``mf:QueryEvaluationTest``: its category (folder) and name (the fragment of its IRI,
    e.g. ``bind01``), the query file, the default-graph files, the named graphs (IRI, file) and the
    expected result file."""

    category: str
    name: str
    query: Path
    data: tuple[Path, ...]
    graph_data: tuple[tuple[str, Path], ...]
    result: Path

    @property
    def key(self) -> str:
        """``category/name``, how the classification and the README name a test."""
        return f"{self.category}/{self.name}"


def read_manifest(category: str) -> list[W3CTest]:
    """The evaluation tests of one folder, in the manifest's order."""
    from rdflib import RDF, Graph, URIRef
    from rdflib.collection import Collection

    folder = SUITE / category
    manifest = folder / "manifest.ttl"
    g = Graph()
    g.parse(manifest, format="turtle", publicID=manifest.as_uri())
    (root,) = g.subjects(RDF.type, URIRef(MF + "Manifest"))
    entries = Collection(g, g.value(root, URIRef(MF + "entries")))
    tests = []
    for entry in entries:
        if g.value(entry, RDF.type) != URIRef(MF + "QueryEvaluationTest"):
            continue
        action = g.value(entry, URIRef(MF + "action"))
        query = g.value(action, URIRef(QT + "query"))
        data = sorted(g.objects(action, URIRef(QT + "data")))
        graphs = sorted(g.objects(action, URIRef(QT + "graphData")))
        result = g.value(entry, URIRef(MF + "result"))
        tests.append(W3CTest(category, str(entry).rsplit("#", 1)[1], _path(query), tuple(map(_path, data)),
                             tuple((str(iri), _path(iri)) for iri in graphs), _path(result)))
    return tests


def _path(iri) -> Path:
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(str(iri)).path))


def all_tests() -> list[W3CTest]:
    """Every evaluation test of the suite, category by category."""
    return [test for category in CATEGORIES for test in read_manifest(category)]
