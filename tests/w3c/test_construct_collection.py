"""An RDF collection ``( … )`` in a CONSTRUCT template (SPARQL 1.1 §4.2.5, §16.2): the list's
rdf:first/rdf:rest triples with blank nodes fresh in every solution. The oracle is rdflib's SPARQL
engine on the same query and data (graphs compared up to blank-node renaming); the printed query
(``translate --to query``) is read back and gives the same graph."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from w3c_runner import run_cli  # noqa: E402

DATA = """@prefix : <http://example.org/> .
:a :p 1 ; :q "x" .
:b :p 2 ; :q "y" .
"""
QUERY = """PREFIX : <http://example.org/>
CONSTRUCT { ?s :list (?v "k" [ :label ?w ] (?v)) } WHERE { ?s :p ?v ; :q ?w }"""


def constructed(tmp_path: Path, query_file: Path):
    from rdflib import Graph

    out = tmp_path / "out.nt"
    code, err = run_cli(["run", str(query_file), "--static", str(tmp_path / "d.ttl"), "--format", "ntriples",
                         "--output", str(out)])
    assert code == 0, err
    return Graph().parse(data=out.read_text(encoding="utf-8"), format="nt")


@pytest.fixture
def query_file(tmp_path: Path) -> Path:
    (tmp_path / "d.ttl").write_text(DATA, encoding="utf-8")
    path = tmp_path / "q.rq"
    path.write_text(QUERY, encoding="utf-8")
    return path


def test_collection_in_template_equals_rdflib(tmp_path: Path, query_file: Path) -> None:
    from rdflib import Graph
    from rdflib.compare import isomorphic

    oracle = Graph().parse(data=DATA, format="turtle").query(QUERY).graph
    got = constructed(tmp_path, query_file)
    assert len(got) == len(oracle) == 2 * 12 and isomorphic(got, oracle)


def test_printed_template_gives_the_same_graph(tmp_path: Path, query_file: Path) -> None:
    import contextlib
    import io

    from rdflib.compare import isomorphic

    from translator.cli.main import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        assert main(["translate", str(query_file), "--to", "query"]) == 0
    again = tmp_path / "printed.rq"
    again.write_text(printed.getvalue(), encoding="utf-8")
    assert isomorphic(constructed(tmp_path, again), constructed(tmp_path, query_file))

