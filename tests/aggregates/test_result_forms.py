"""CONSTRUCT and ASK through ``rsplars run`` (SPARQL 1.1 §16.2, §16.3; Barbieri et al. 2010, §2.5 for the
timestamped CONSTRUCT stream): the template instantiated per answer and evaluation time, blank
nodes fresh per answer with stable labels, the output formats, and ASK's boolean per time point.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Graph
from rdflib.compare import isomorphic

from translator.cli import main
from translator.rdf.streams import read_stream

PREFIX = "PREFIX : <http://example.org/>\n"
STREAM = "http://example.org/s"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def setup(tmp_path: Path, query: str) -> list[str]:
    stream = write(tmp_path, "s.nt", "\n".join([
        '<http://example.org/a> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> "1"',
        '<http://example.org/b> <http://example.org/p> "2"^^<http://www.w3.org/2001/XMLSchema#integer> "1"',
        '<http://example.org/a> <http://example.org/p> "3"^^<http://www.w3.org/2001/XMLSchema#integer> "3"',
    ]) + "\n")
    static = write(tmp_path, "static.ttl", "@prefix : <http://example.org/> . :a :name \"A\" . :b :name \"B\" .\n")
    return [write(tmp_path, "q.rq", PREFIX + query), "--stream", f"{STREAM}={stream}", "--static", static]


def run_json(capsys, args: list[str]) -> list[dict]:
    assert main(["run", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


CONSTRUCT = """CONSTRUCT { _:r :about ?x . _:r :value ?v . ?v :bad ?x . ?x :name ?n }
WHERE { STREAM <http://example.org/s> [RANGE 1s] { ?x :p ?v } OPTIONAL { ?x :nick ?n } }"""


def test_construct_template_per_answer_with_fresh_stable_blank_nodes(tmp_path, capsys):
    args = setup(tmp_path, CONSTRUCT)
    first = run_json(capsys, args)
    assert [r["t"] for r in first] == [1, 3]  # CQELS: pushed when input arrives
    at1 = first[0]["triples"]
    assert at1 == sorted(at1)
    graph = Graph().parse(data="\n".join(at1), format="nt")
    expected = Graph().parse(data=PREFIX.replace("PREFIX :", "@prefix :") + """ .
        [ :about :a ; :value 1 ] . [ :about :b ; :value 2 ] .""", format="turtle")
    # literal subjects (?v :bad ?x) and unbound ?n are left out; one blank node per answer
    assert isomorphic(graph, expected)
    assert run_json(capsys, args) == first  # stable labels
    labels = {line.split()[0] for r in first for line in r["triples"]}
    assert len(labels) == 3  # fresh per answer and evaluation time


def test_construct_equals_rdflib_on_a_snapshot(tmp_path, capsys):
    query = "CONSTRUCT { ?x :named ?n . _:e :of ?x } WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?x :p ?v } ?x :name ?n }"
    args = setup(tmp_path, query)
    records = run_json(capsys, args)
    at3 = Graph().parse(data="\n".join(records[-1]["triples"]), format="nt")
    snapshot = Graph().parse(data="@prefix : <http://example.org/> . :a :name \"A\" ; :p 1, 3 . :b :name \"B\" ; :p 2 .",
                             format="turtle")
    oracle = snapshot.query(PREFIX + query.replace("STREAM <http://example.org/s> [RANGE 5s] { ?x :p ?v }", "?x :p ?v .")).graph
    # the WHERE solutions (x, v, n) are distinct here, so bags and sets (D5) agree: one blank node each
    assert len(at3) == 5 and isomorphic(at3, oracle)


def test_construct_ntriples_output_reads_back_as_a_stream(tmp_path, capsys):
    args = setup(tmp_path, CONSTRUCT)
    assert main(["run", *args, "--format", "ntriples"]) == 0
    out = tmp_path / "out.nt"
    out.write_text(capsys.readouterr().out)
    elements = read_stream(out, "http://example.org/out")
    assert sorted({e.t for e in elements}) == [1, 3]  # stamped with the evaluation time
    records = run_json(capsys, args)
    back = {t: sorted(f"{e.triple[0].n3()} {e.triple[1].n3()} {e.triple[2].n3()} ." for e in elements if e.t == t)
            for t in (1, 3)}
    assert all(len(back[r["t"]]) == len(r["triples"]) for r in records)
    assert main(["run", *args, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "t,subject,predicate,object" and len(lines) == 1 + sum(len(r["triples"]) for r in records)


def test_ask_per_time_point(tmp_path, capsys):
    args = setup(tmp_path, "ASK WHERE { STREAM <http://example.org/s> [RANGE 1s] { ?x :p ?v } FILTER(?v > 2) }")
    records = run_json(capsys, [*args, "--mode", "none", "--to", "5"])
    assert [(r["t"], r["answer"]) for r in records] == [(0, False), (1, False), (2, False), (3, True), (4, True), (5, False)]
    assert main(["run", *args, "--format", "sparql-json"]) == 0
    assert [json.loads(line)["boolean"] for line in capsys.readouterr().out.splitlines()] == [False, True]


def test_ask_with_having(tmp_path, capsys):
    args = setup(tmp_path, "ASK WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?x :p ?v } } GROUP BY ?x HAVING (COUNT(*) > 1)")
    records = run_json(capsys, args)
    assert [(r["t"], r["answer"]) for r in records] == [(1, False), (3, True)]


def test_format_and_form_mismatches_are_errors(tmp_path, capsys):
    select = setup(tmp_path, "SELECT ?x WHERE { STREAM <http://example.org/s> [RANGE 1s] { ?x :p ?v } }")
    assert main(["run", *select, "--format", "ntriples"]) == 2
    assert "CONSTRUCT" in capsys.readouterr().err
    construct = setup(tmp_path, CONSTRUCT)
    assert main(["run", *construct, "--format", "sparql-json"]) == 2
    assert "--format jsonl, csv or ntriples" in capsys.readouterr().err
