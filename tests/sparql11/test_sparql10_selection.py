"""W3C SPARQL 1.0 tests (``tests/data/w3c-sparql10``, README there) of dateTime/date comparisons
across time zones, an empty group inside GRAPH and codepoint escapes, through ``rsplars run``
(evaluation tests, compared as ``tests/w3c`` compares the SPARQL 1.1 suite) and the parser
(positive syntax tests)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "w3c"))

from w3c_manifest import MF, QT, W3CTest, _path  # noqa: E402
from w3c_runner import measure  # noqa: E402

SUITE = Path(__file__).resolve().parents[1] / "data" / "w3c-sparql10" / "sparql10"

EVALUATION = {"expr-equals": ["eq-dateTime"], "expr-ops": ["dateTime-le-2", "dateTime-ge-2", "dateTime-lt-2", "dateTime-gt-2"],
              "graph": ["graph-empty", "graph-not-exist", "graph-variable-scope"], "open-world": ["date-2", "date-3"]}
SYNTAX = ["syntax-esc-04", "syntax-esc-05"]


def _entries(folder: str):
    from rdflib import Graph, URIRef

    manifest = SUITE / folder / "manifest.ttl"
    g = Graph()
    g.parse(manifest, format="turtle", publicID=manifest.as_uri())
    return g, {str(e).rsplit("#", 1)[-1]: e for e in g.subjects(URIRef(MF + "action"), None)}


def evaluation_tests() -> list[W3CTest]:
    from rdflib import URIRef

    out = []
    for folder, names in EVALUATION.items():
        g, entries = _entries(folder)
        for name in names:
            action = g.value(entries[name], URIRef(MF + "action"))
            out.append(W3CTest(folder, name, _path(g.value(action, URIRef(QT + "query"))),
                               tuple(map(_path, sorted(g.objects(action, URIRef(QT + "data"))))),
                               tuple((str(i), _path(i)) for i in sorted(g.objects(action, URIRef(QT + "graphData")))),
                               _path(g.value(entries[name], URIRef(MF + "result")))))
    return out


TESTS = evaluation_tests()


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_evaluation(test: W3CTest) -> None:
    outcome = measure(test)
    assert outcome.status == "passed", outcome


@pytest.mark.parametrize("name", SYNTAX)
def test_positive_syntax(name: str) -> None:
    from translator.query.parse import parse

    query = parse((SUITE / "syntax-sparql2" / f"{name}.rq").read_text(encoding="utf-8"), "auto")
    assert query.form is not None
