"""``rsplars run Q --static D [--named IRI=FILE]`` without ``--stream``: a query without streams is
plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2), evaluated once and written in SPARQL's
result formats (``translator.evaluate.plain_sparql``). The oracle is rdflib's SPARQL engine on the
same query and data, and its own parsers of the SPARQL JSON and CSV result formats."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from w3c_runner import run_cli, run_cli_subprocess  # noqa: E402

DATA = """@prefix : <http://example.org/> .
:a :p 1 ; :q "x"@en ; :r :b .
:b :p 2.5 ; :q "y, \\"quoted\\"" .
_:n :p 3 .
"""
NAMED = """@prefix : <http://example.org/> .
:c :p 7 .
"""
SELECT = """PREFIX : <http://example.org/>
SELECT ?s ?v ?w WHERE { { ?s :p ?v OPTIONAL { ?s :q ?w } } UNION { GRAPH <http://example.org/g> { ?s :p ?v } } }"""
ASK = "PREFIX : <http://example.org/> ASK { :a :r :b }"
CONSTRUCT = "PREFIX : <http://example.org/> CONSTRUCT { ?o :back ?s . [] :from ?s } WHERE { ?s :r ?o }"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in {"data.ttl": DATA, "named.ttl": NAMED, "select.rq": SELECT, "ask.rq": ASK,
                       "construct.rq": CONSTRUCT}.items():
        out[name] = tmp_path / name
        out[name].write_text(text, encoding="utf-8")
    return out


def rdflib_result(query: str):
    from rdflib import Dataset, URIRef

    ds = Dataset(default_union=False)
    ds.default_graph.parse(data=DATA, format="turtle")
    ds.graph(URIRef("http://example.org/g")).parse(data=NAMED, format="turtle")
    return ds.query(query)


def run(files, query: str, fmt: str, tmp_path: Path) -> str:
    out = tmp_path / f"out.{fmt}"
    done = run_cli_subprocess(["run", str(files[query]), "--static", str(files["data.ttl"]),
                               "--named", f"http://example.org/g={files['named.ttl']}", "--format", fmt,
                               "--output", str(out)])
    assert done.returncode == 0, done.stderr
    assert "dialect:" in done.stderr and "epsparql" not in done.stderr
    return out.read_bytes().decode("utf-8")  # as written (CSV ends its lines with CRLF)


def _rows(result, variables) -> set:
    """Solutions as sets of (variable, term) pairs, blank nodes as one placeholder."""
    from rdflib import BNode

    return {frozenset((v, "_" if isinstance(row[v], BNode) else row[v]) for v in variables if row[v] is not None)
            for row in result}


def test_every_format_of_a_plain_query_equals_rdflib(files, tmp_path: Path) -> None:
    from rdflib import Graph
    from rdflib.compare import isomorphic
    from rdflib.query import Result

    expected = rdflib_result(SELECT)
    variables = [str(v) for v in expected.vars]
    # sparql-json: one standard SPARQL 1.1 Query Results JSON document
    text = run(files, "select.rq", "sparql-json", tmp_path)
    got = Result.parse(source=io.StringIO(text), format="json")
    assert _rows(got, variables) == _rows(expected, variables) and len(got) == 4
    assert "t" not in json.loads(text)
    # csv: SPARQL 1.1 CSV, the values without datatypes, CRLF line ends, quoted where needed
    text = run(files, "select.rq", "csv", tmp_path)
    lines = text.split("\r\n")
    assert lines[0] == "s,v,w" and lines[-1] == ""
    import csv

    header, *got_csv = list(csv.reader(io.StringIO(text)))
    want_csv = [tuple("" if row[v] is None else str(row[v]) for v in variables) for row in expected]
    named = {r for r in want_csv if r[0].startswith("http")}
    assert {tuple(r) for r in got_csv if not r[0].startswith("_:")} == named
    assert [r[1:] for r in got_csv if r[0].startswith("_:")] == [["3", ""]]  # the blank node as _:label
    assert 'http://example.org/b,2.5,"y, ""quoted"""' in lines
    # jsonl: the record of a stream run at t = 0, one line
    (record,) = [json.loads(line) for line in run(files, "select.rq", "jsonl", tmp_path).splitlines()]
    assert record["t"] == 0 and len(record["answers"]) == 4
    # ASK
    assert json.loads(run(files, "ask.rq", "sparql-json", tmp_path)) == {"head": {}, "boolean": True}
    assert run(files, "ask.rq", "jsonl", tmp_path) == '{"t": 0, "answer": true}\n'
    # CONSTRUCT: plain N-Triples, isomorphic to rdflib's graph
    graph = Graph().parse(data=run(files, "construct.rq", "ntriples", tmp_path), format="nt")
    assert isomorphic(graph, rdflib_result(CONSTRUCT).graph)
    assert len(graph) == 2


def test_a_query_with_streams_needs_them(tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?s FROM STREAM <http://s> [RANGE 5s STEP 1s] WHERE { ?s ?p ?o }", encoding="utf-8")
    code, err = run_cli(["run", str(query)])
    assert code == 2
    assert "the query reads the streams" in err and "--stream" in err


@pytest.mark.parametrize("option", [["--from", "3"], ["--r2s", "istream"], ["--period", "5s"], ["--mode", "pull"]])
def test_stream_options_without_a_stream_are_refused(option, files) -> None:
    code, err = run_cli(["run", str(files["select.rq"]), "--static", str(files["data.ttl"]), *option])
    assert code == 2
    assert f"{option[0]}" in err and "needs --stream" in err


def test_bad_static_data_is_located(files, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix : <http://e/> .\n:a :b :c .\n:a :b .\n", encoding="utf-8")
    done = run_cli_subprocess(["run", str(files["select.rq"]), "--static", str(bad)])
    assert done.returncode == 2
    assert f"{bad}:3:6:" in done.stderr and "Traceback" not in done.stderr


def test_a_bad_query_is_located_and_not_read_as_epsparql(tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?s WHERE {\n  ?s ?p \n}", encoding="utf-8")
    code, err = run_cli(["run", str(query)])
    assert code == 2
    assert f"{query}:3:1:" in err and "EP-SPARQL" not in err


def test_a_bare_name_read_as_epsparql_is_explained(tmp_path: Path) -> None:
    """A plain query with an unprefixed name is read as EP-SPARQL (ETALIS writes bare names): the
    error says so and how plain SPARQL writes IRIs, instead of a confusing EP-SPARQL failure."""
    query = tmp_path / "q.rq"
    query.write_text("SELECT * WHERE { ?s knows ?o }", encoding="utf-8")
    code, err = run_cli(["run", str(query)])
    assert code == 2
    assert "dialect: epsparql (bare name 'knows' at 1:21" in err
    assert "read as EP-SPARQL" in err and "plain SPARQL query writes every IRI as <…> or prefix:name" in err


@pytest.mark.parametrize("where", [
    "?s :p ?v BIND(?v -2*3 AS ?z)",  # W3C AdditiveExpression: ?v + (-2 * 3)
    "?s :p ?v BIND(?v+10 AS ?z)",
    "?s :p ?v FILTER(?v > 1.5) } VALUES ?z { 1 2",  # a trailing VALUES clause
    "?s :p ?v FILTER(bound(?z)) } VALUES ?z { 1",  # joined after WHERE: the FILTER does not see ?z
    "?s :p ?v } VALUES (?s ?z) { (:a 1) (UNDEF 2) (:zz 3)",
])
def test_sparql_syntax_of_plain_queries_equals_rdflib(where: str, files, tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    text = f"PREFIX : <http://example.org/>\nSELECT ?s ?v ?z WHERE {{ {where} }}"
    query.write_text(text, encoding="utf-8")
    out = tmp_path / "out.srj"
    code, err = run_cli(["run", str(query), "--static", str(files["data.ttl"]), "--format", "sparql-json",
                         "--output", str(out)])
    assert code == 0, err
    from rdflib.query import Result

    got = Result.parse(source=io.StringIO(out.read_text(encoding="utf-8")), format="json")
    if "*" in where:  # rdflib 7 types an integer product as xsd:decimal (docs/coverage.md, oracles): Oxigraph
        from rdflib import Graph
        from oxigraph_oracle import oxigraph_rows

        rows = oxigraph_rows(text, Graph().parse(data=DATA, format="turtle"))
        assert _rows(got, ["s", "v", "z"]) == _rows([{v: r.get(v) for v in "svz"} for r in rows], ["s", "v", "z"])
        return
    expected = rdflib_result(text)
    assert _rows(got, ["s", "v", "z"]) == _rows(expected, ["s", "v", "z"])


def test_a_trailing_values_clause_after_aggregation_is_refused_at_its_place(tmp_path: Path) -> None:
    query = tmp_path / "q.rq"
    query.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }\nVALUES ?n { 1 }", encoding="utf-8")
    code, err = run_cli(["run", str(query)])
    assert code == 2
    assert f"{query}:2:1: unsupported: a VALUES clause after a query that aggregates" in err
