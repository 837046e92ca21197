"""NOW() on a stream and GRAPH blocks in RSP-QL CONSTRUCT templates, through ``rsplars run``.

* ``NOW()`` (SPARQL 1.1 §17.4.5.1, one value per query execution) is the evaluation time t as an
  ``xsd:dateTime``: the run's ``--epoch`` plus t base units (decision D1, docs/decisions.md),
  checked here against ``datetime + timedelta``; without ``--epoch`` it is a named error at NOW.
* ``GRAPH g { … }`` in a CONSTRUCT template (RSP4J's quad output) gives quads: jsonl records get
  ``"quads"``, ``--format nquads`` writes N-Quads (read back here with rdflib and compared with the
  template instantiated directly on the window's readings; rdflib's SPARQL has no GRAPH in a
  CONSTRUCT template). A blank node naming a graph is fresh per solution, as for triples.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from rdflib import BNode, Dataset, Literal, URIRef
from rdflib.namespace import XSD

from cli_helpers import cli

EX = "http://example.org/"
STREAM = "http://example.org/stream"
EPOCH = datetime(2018, 1, 1, 1, 0, 0, tzinfo=timezone.utc)
#: (offset after the epoch in ms, sensor, value)
READINGS = [(1000, "s1", 7), (3000, "s2", 9), (4000, "s1", 12), (13000, "s2", 3)]
PREFIX = f"PREFIX : <{EX}>\nPREFIX prov: <http://www.w3.org/ns/prov#>\n"
WINDOW = f"FROM NAMED WINDOW <w> ON <{STREAM}> [RANGE PT10S STEP PT1S]\n"


def stream_text() -> str:
    lines = [f"@prefix : <{EX}> .", "@prefix prov: <http://www.w3.org/ns/prov#> .",
             "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> ."]
    for i, (ms, sensor, value) in enumerate(READINGS):
        stamp = (EPOCH + timedelta(milliseconds=ms)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        lines += [f':e{i} prov:generatedAtTime "{stamp}"^^xsd:dateTime .', f":e{i} {{ :{sensor} :temp {value} . }}"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def stream(tmp_path: Path) -> Path:
    path = tmp_path / "stream.trig"
    path.write_text(stream_text())
    return path


def run(capsys, tmp_path: Path, query: str, stream: Path, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "q.rq"
    path.write_text(query)
    return cli(capsys, "run", path, "--stream", f"{STREAM}={stream}", *options)


def run_quads(capsys, tmp_path: Path, query: str, stream: Path, *options: str) -> tuple[int, str, str]:
    """A run with time 0 at :data:`EPOCH` (the readings at 1 s, 3 s, 4 s, 13 s)."""
    return run(capsys, tmp_path, query, stream, "--epoch", "2018-01-01T01:00:00Z", *options)


def window_readings(t_ms: int, range_ms: int = 10_000) -> list[tuple[str, int]]:
    """The readings in the window (t − 10 s, t] (Dell'Aglio et al. 2014, Def 13)."""
    return [(sensor, value) for ms, sensor, value in READINGS if t_ms - range_ms < ms <= t_ms]


def now_literal(t: int, unit_ms: int) -> str:
    when = EPOCH + timedelta(milliseconds=t * unit_ms)
    lexical = when.strftime("%Y-%m-%dT%H:%M:%S") + (f".{when.microsecond:06d}".rstrip("0") if when.microsecond else "")
    return f'"{lexical}Z"^^<{XSD.dateTime}>'


# ------------------------------------------------------------------------------------------ NOW()


@pytest.mark.parametrize("unit, unit_ms", [("s", 1000), ("ms", 1)])
def test_now_is_the_epoch_plus_the_evaluation_time(unit, unit_ms, tmp_path, capsys, stream):
    query = (f"{PREFIX}REGISTER RSTREAM <o> AS SELECT ?s ?now\n{WINDOW}"
             "WHERE { WINDOW <w> { ?s :temp ?v } BIND(NOW() AS ?now) }")
    code, out, err = run(capsys, tmp_path, query, stream, "--epoch", "2018-01-01T01:00:00Z", "--unit", unit)
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert records
    for record in records:
        t = record["t"]
        expected = {(f"<{EX}{sensor}>", now_literal(t, unit_ms)) for sensor, _ in window_readings(t * unit_ms)}
        assert {(a["s"], a["now"]) for a in record["answers"]} == expected, t
    assert all(a["now"].endswith(f"^^<{XSD.dateTime}>") for r in records for a in r["answers"])
    assert len({a["now"] for r in records for a in r["answers"]}) == len([r for r in records if r["answers"]])


@pytest.mark.parametrize("t, unit_ms", [(0, 1000), (480, 1000), (1500, 1), (7, 60_000), (86_400, 1000)])
def test_evaluation_datetime_against_datetime_arithmetic(t, unit_ms):
    from translator.rdf.sparql_terms import evaluation_datetime

    epoch = Literal("2018-01-01T01:00:00Z", datatype=XSD.dateTime)
    got = evaluation_datetime(epoch, Literal(unit_ms), Literal(t))
    assert got.n3() == now_literal(t, unit_ms)
    assert got.toPython() == EPOCH + timedelta(milliseconds=t * unit_ms)


def test_now_in_a_filter_compares_as_a_datetime(tmp_path, capsys, stream):
    query = (f"{PREFIX}REGISTER RSTREAM <o> AS SELECT ?s\n{WINDOW}"
             'WHERE { WINDOW <w> { ?s :temp ?v } FILTER(NOW() >= "2018-01-01T01:00:12Z"^^<'
             f'{XSD.dateTime}>) }}')
    code, out, err = run(capsys, tmp_path, query, stream, "--epoch", "2018-01-01T01:00:00Z")
    assert code == 0, err
    got = {r["t"]: {a["s"] for a in r["answers"]} for r in map(json.loads, out.splitlines()) if r["answers"]}
    assert got and min(got) >= 12
    for t, subjects in got.items():
        assert subjects == {f"<{EX}{s}>" for s, _ in window_readings(1000 * t)}
    assert max(got) >= 13


def test_now_in_an_aggregate_projection_and_having(tmp_path, capsys, stream):
    """NOW() has one value per evaluation, so it may stand beside aggregates (SPARQL 1.1 §11.4)."""
    query = (f"{PREFIX}REGISTER RSTREAM <o> AS SELECT (COUNT(?s) AS ?n) (NOW() AS ?now)\n{WINDOW}"
             "WHERE { WINDOW <w> { ?s :temp ?v } }\n"
             f'HAVING (NOW() > "2018-01-01T01:00:11Z"^^<{XSD.dateTime}>)')
    code, out, err = run(capsys, tmp_path, query, stream, "--epoch", "2018-01-01T01:00:00Z")
    assert code == 0, err
    got = {r["t"]: r["answers"] for r in map(json.loads, out.splitlines()) if r["answers"]}
    expected = {t: [{"n": f'"{len(window_readings(1000 * t))}"^^<{XSD.integer}>', "now": now_literal(t, 1000)}]
                for t in range(12, 23)}  # from 23 on the window (t − 10 s, t] is empty: not reported (rsp-ql profile)
    assert got == expected


def test_now_needs_an_epoch_and_names_its_position(tmp_path, capsys, stream):
    query = (f"{PREFIX}REGISTER RSTREAM <o> AS SELECT ?s ?now\n{WINDOW}"
             "WHERE { WINDOW <w> { ?s :temp ?v }\n  BIND(NOW() AS ?now) }")
    code, _, err = run(capsys, tmp_path, query, stream)
    assert code == 2
    assert "q.rq:6:8: NOW() is the evaluation time as an xsd:dateTime" in err and "--epoch" in err
    assert "Traceback" not in err


def test_now_without_a_stream_is_the_query_time(tmp_path, capsys):
    """A query without streams is evaluated once: NOW() is that query's time (SPARQL 1.1 §17.4.5.1;
    tests/sparql11/test_fresh_values.py checks the value against the wall clock)."""
    (tmp_path / "d.ttl").write_text(f"<{EX}a> <{EX}p> 1 .\n")
    (tmp_path / "q.rq").write_text("SELECT ?now WHERE { ?s ?p ?o BIND(NOW() AS ?now) }")
    code, out, err = cli(capsys, "run", tmp_path / "q.rq", "--static", tmp_path / "d.ttl", "--format", "jsonl")
    assert code == 0 and "#dateTime>" in out and "Traceback" not in err


# ------------------------------------------------------------------------------- GRAPH templates

QUAD_QUERY = (f"{PREFIX}REGISTER RSTREAM <o> AS\n"
              "CONSTRUCT { _:b :reading ?s . GRAPH _:b { ?s :temp ?v } GRAPH ?s { ?s :seen ?v } "
              f"GRAPH <{EX}all> {{ ?s :temp ?v }} }}\n{WINDOW}"
              "WHERE { WINDOW <w> { ?s :temp ?v } }")


def expected_dataset(t: int) -> tuple[set[tuple], list[frozenset]]:
    """The template instantiated directly on the window at t: (the quads without blank nodes,
    for each solution the contents of its blank-node graph)."""
    fixed, per_solution = set(), []
    for sensor, value in window_readings(1000 * t):
        s, v = URIRef(EX + sensor), Literal(value)
        fixed |= {(s, URIRef(EX + "seen"), v, s), (s, URIRef(EX + "temp"), v, URIRef(EX + "all"))}
        per_solution.append(frozenset({(s, URIRef(EX + "temp"), v)}))
    return fixed, per_solution


def test_quad_templates_in_nquads_read_back_with_rdflib(tmp_path, capsys, stream):
    code, out, err = run_quads(capsys, tmp_path, QUAD_QUERY, stream, "--format", "nquads")
    assert code == 0, err
    blocks = re.split(r"^# t=(-?\d+)\n", out, flags=re.M)
    assert blocks[0] == ""
    times = [int(t) for t in blocks[1::2]]
    assert times and times == sorted(times)
    labels_seen: set[str] = set()
    for t, text in zip(times, blocks[2::2]):
        data = Dataset()
        data.parse(data=text, format="nquads")
        quads = {(s, p, o, g.identifier if hasattr(g, "identifier") else g) for s, p, o, g in data.quads()}
        fixed, per_solution = expected_dataset(t)
        assert {q for q in quads if not isinstance(q[3], BNode) and q[3] != data.default_context.identifier} == fixed
        blank_graphs = {q[3] for q in quads if isinstance(q[3], BNode)}
        contents = sorted((frozenset(q[:3] for q in quads if q[3] == g) for g in blank_graphs), key=sorted)
        assert contents == sorted(per_solution, key=sorted), t  # one fresh graph per solution
        # the default graph: each blank graph name is the subject of its solution's triple
        default = {(s, p, o) for s, p, o, g in quads if g == data.default_context.identifier}
        assert default == {(g, URIRef(EX + "reading"), next(iter(c))[0])
                           for g in blank_graphs for c in [frozenset(q[:3] for q in quads if q[3] == g)]}
        labels = set(re.findall(r"_:\w+", text))
        assert len(labels) == len(per_solution) and not labels & labels_seen  # fresh per time too
        labels_seen |= labels
    assert any(len(expected_dataset(t)[1]) > 1 for t in times)


def test_quad_templates_in_jsonl(tmp_path, capsys, stream):
    code, out, err = run_quads(capsys, tmp_path, QUAD_QUERY, stream)
    assert code == 0, err
    for record in map(json.loads, out.splitlines()):
        t = record["t"]
        fixed, per_solution = expected_dataset(t)
        nquads = [q for q in record["quads"] if not q.split()[-2].startswith("_:")]
        assert {tuple(x.n3() for x in q) for q in fixed} == {tuple(q.removesuffix(" .").split(" ")) for q in nquads}
        blank = [q for q in record["quads"] if q.split()[-2].startswith("_:")]
        assert len(blank) == len(per_solution) == len({q.split()[-2] for q in blank})
        assert {q.split()[-2] for q in blank} == {x.split()[0] for x in record["triples"]}


@pytest.mark.parametrize("fmt", ["ntriples", "csv"])
def test_quad_templates_refuse_triple_formats(fmt, tmp_path, capsys, stream):
    code, _, err = run(capsys, tmp_path, QUAD_QUERY, stream, "--format", fmt)
    assert code == 2 and "GRAPH blocks" in err and "nquads" in err and "Traceback" not in err


def test_a_triples_only_template_has_no_quads_member(tmp_path, capsys, stream):
    query = f"{PREFIX}REGISTER RSTREAM <o> AS\nCONSTRUCT {{ ?s :temp ?v }}\n{WINDOW}WHERE {{ WINDOW <w> {{ ?s :temp ?v }} }}"
    code, out, err = run(capsys, tmp_path, query, stream)
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert records and all(set(r) == {"t", "triples"} for r in records)
    code, nt_out, err = run(capsys, tmp_path, query, stream, "--format", "ntriples")
    code2, nq_out, _ = run(capsys, tmp_path, query, stream, "--format", "nquads")
    assert code == code2 == 0
    assert all(re.fullmatch(r'<\S+> <\S+> \S+ "\d+" \.', line) for line in nt_out.splitlines())
    # N-Quads without GRAPH blocks: the same triples, the time in the comment line
    assert {line.rsplit(" ", 2)[0] + " ." for line in nt_out.splitlines()} == \
        {line for line in nq_out.splitlines() if not line.startswith("#")}


def test_quad_templates_parse_print_and_parse_back():
    from translator.query.model import IRI, BlankNode, Var, result_variables
    from translator.query.parse import parse
    from translator.query.printer import print_query

    query = parse(QUAD_QUERY, "rspql")
    graphs = [g.graph for g in query.form.graphs]
    assert graphs == [BlankNode("b"), Var("s"), IRI(EX + "all")]
    assert [v.name for v in result_variables(query)] == ["s", "v"]
    assert parse(print_query(query), "rspql").form == query.form
