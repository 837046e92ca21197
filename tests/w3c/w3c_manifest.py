"""The W3C SPARQL query-evaluation test suites (``tests/data/w3c-sparql11/`` and
``tests/data/w3c-sparql10/``, README in each): their ``manifest.ttl`` files read with rdflib into
:class:`W3CTest` records.

A manifest lists its tests in ``mf:entries``; a ``mf:QueryEvaluationTest`` has an action with
``qt:query``, ``qt:data`` (the default graph, any number) and ``qt:graphData`` (named graphs, named
by their file's IRI), and an ``mf:result`` (SRX, SRJ, or an RDF graph in Turtle or RDF/XML: a
result set in the DAWG result-set vocabulary, or the graph of a CONSTRUCT). SPARQL 1.0's manifests
also say whether the working group approved a test (``dawgt:approval``), which optional features
it requires (``mf:requires``) and whether its result holds for any cardinality between one and the
listed one (``mf:resultCardinality mf:LaxCardinality``, the REDUCED tests). Syntax tests
(``mf:PositiveSyntaxTest``, ``mf:NegativeSyntaxTest``) are read by :func:`syntax_tests`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
SUITE = DATA / "w3c-sparql11" / "sparql11"
SUITE10 = DATA / "w3c-sparql10" / "sparql10"

MF = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
QT = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#"
DAWGT = "http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#"

CATEGORIES = ("aggregates", "bind", "bindings", "cast", "construct", "exists", "functions", "grouping",
              "negation", "project-expression", "property-path", "subquery")
"""The folders of the SPARQL 1.1 suite, in the order the conformance table of docs/conformance.md lists them."""

CATEGORIES10 = ("basic", "triple-match", "open-world", "algebra", "bnode-coreference", "optional",
                "optional-filter", "graph", "dataset", "type-promotion", "cast", "boolean-effective-value",
                "bound", "expr-builtin", "expr-ops", "expr-equals", "regex", "i18n", "construct", "ask",
                "distinct", "sort", "solution-seq", "reduced")
"""The folders of the SPARQL 1.0 evaluation tests, in the order of ``manifest-evaluation.ttl``."""

SYNTAX10 = ("syntax-sparql1", "syntax-sparql2", "syntax-sparql3", "syntax-sparql4", "syntax-sparql5")
"""The folders of the SPARQL 1.0 syntax tests (``manifest-syntax.ttl``)."""


@dataclass(frozen=True)
class W3CTest:
    """One ``mf:QueryEvaluationTest``: its category (folder) and name (the fragment of its IRI,
    e.g. ``bind01``), the query file, the default-graph files, the named graphs (IRI, file), the
    expected result file, whether it is approved, the features it requires and whether its
    cardinality is lax (module docstring)."""

    category: str
    name: str
    query: Path
    data: tuple[Path, ...]
    graph_data: tuple[tuple[str, Path], ...]
    result: Path
    approved: bool = True
    requires: tuple[str, ...] = ()
    lax_cardinality: bool = False

    @property
    def key(self) -> str:
        """``category/name``, how the classification and docs/conformance.md name a test."""
        return f"{self.category}/{self.name}"


@dataclass(frozen=True)
class SyntaxTest:
    """One ``mf:PositiveSyntaxTest`` (``positive``: a query SPARQL accepts) or
    ``mf:NegativeSyntaxTest`` (a text SPARQL's grammar refuses)."""

    category: str
    name: str
    query: Path
    positive: bool

    @property
    def key(self) -> str:
        return f"{self.category}/{self.name}"


def _entries(folder: Path):
    from rdflib import RDF, Graph, URIRef
    from rdflib.collection import Collection

    manifest = folder / "manifest.ttl"
    g = Graph()
    g.parse(manifest, format="turtle", publicID=manifest.as_uri())
    (root,) = g.subjects(RDF.type, URIRef(MF + "Manifest"))
    return g, list(Collection(g, g.value(root, URIRef(MF + "entries"))))


def _local(iri) -> str:
    return str(iri).rsplit("#", 1)[1]


def read_manifest(category: str, suite: Path = SUITE) -> list[W3CTest]:
    """The evaluation tests of one folder, in the manifest's order."""
    from rdflib import RDF, URIRef

    g, entries = _entries(suite / category)
    tests = []
    for entry in entries:
        if g.value(entry, RDF.type) != URIRef(MF + "QueryEvaluationTest"):
            continue
        action = g.value(entry, URIRef(MF + "action"))
        query = g.value(action, URIRef(QT + "query"))
        data = sorted(g.objects(action, URIRef(QT + "data")))
        graphs = sorted(g.objects(action, URIRef(QT + "graphData")))
        result = g.value(entry, URIRef(MF + "result"))
        approval = g.value(entry, URIRef(DAWGT + "approval"))
        tests.append(W3CTest(
            category, _local(entry), _path(query), tuple(map(_path, data)),
            tuple((str(iri), _path(iri)) for iri in graphs), _path(result),
            approved=approval == URIRef(DAWGT + "Approved"),
            requires=tuple(sorted(_local(r) for r in g.objects(entry, URIRef(MF + "requires")))),
            lax_cardinality=g.value(entry, URIRef(MF + "resultCardinality")) == URIRef(MF + "LaxCardinality")))
    return tests


def syntax_tests() -> list[SyntaxTest]:
    """The SPARQL 1.0 syntax tests, folder by folder in the manifests' order."""
    from rdflib import RDF, URIRef

    tests = []
    for category in SYNTAX10:
        g, entries = _entries(SUITE10 / category)
        for entry in entries:
            kind = g.value(entry, RDF.type)
            if kind not in (URIRef(MF + "PositiveSyntaxTest"), URIRef(MF + "NegativeSyntaxTest")):
                continue
            tests.append(SyntaxTest(category, _local(entry), _path(g.value(entry, URIRef(MF + "action"))),
                                    kind == URIRef(MF + "PositiveSyntaxTest")))
    return tests


def _path(iri) -> Path:
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(str(iri)).path))


def all_tests() -> list[W3CTest]:
    """Every evaluation test of the SPARQL 1.1 suite, category by category."""
    return [test for category in CATEGORIES for test in read_manifest(category)]


def all_tests10() -> list[W3CTest]:
    """Every evaluation test of the SPARQL 1.0 suite, category by category."""
    return [test for category in CATEGORIES10 for test in read_manifest(category, SUITE10)]
