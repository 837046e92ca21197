"""C-SPARQL AGGREGATE clauses (Barbieri et al. 2010, §2.2, §3.1): non-reducing aggregation, checked on
worked examples whose expected values are computed by hand from the paper's definitions
(§3.1, rule 5), through ``rsplars run`` and ``translator.evaluate.run.answers``, with
the clingo engine cross-checked against the reference semantics of LARS.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from lars import reference
from lars.model import Program
from translator.cli import main
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase
from translator.query.parse import parse
from translator.rdf.static import load_dataset, static_facts
from translator.rdf.streams import TimeSpec, read_stream
from translator.rdf.terms import from_lars, from_nt, to_nt
from translator.evaluate.run import answers, engine_input

DATA = Path(__file__).resolve().parents[1] / "data" / "aggregates"
SEEDS = Path(__file__).resolve().parents[1] / "data" / "queries" / "seeds"
TOLLS = "http://streams.org/citytollgates.trdf"
CITY = "http://linkedurbandata.org/city#"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context


def short(term: str) -> str | int:
    """``<…#Distr1>`` → ``Distr1``; an integer literal → its value; other literals → their text."""
    node = from_nt(term)
    if isinstance(node, URIRef):
        return str(node).rsplit("#", 1)[-1].rsplit("/", 1)[-1]
    assert isinstance(node, Literal)
    value = node.toPython()
    return value if isinstance(value, int) else str(node)


def cli_run(capsys, *args: str) -> dict[int, list]:
    assert main(["run", *args]) == 0
    out = {}
    for line in capsys.readouterr().out.splitlines():
        record = json.loads(line)
        key = "answers" if "answers" in record else "triples"
        out[record["t"]] = record[key]
    return out


def rows(answer_list: list[dict], names: tuple[str, ...]) -> set[tuple]:
    return {tuple(short(a[n]) if n in a else None for n in names) for a in answer_list}


def engine_and_reference(query_text: str, streams: dict[str, str], static: list[str], unit: str, bounds: str,
                         start: int, end: int, lenient: bool = False, mode: str | None = None):
    """Answers of the engine (``translator.evaluate.run.answers``), asserted equal to the reference
    semantics at every evaluation time; returns ``{t: set of short rows}``."""
    query = parse(query_text, lenient=lenient)
    compiled = compile_query(query, bounds=bounds, base=TimeBase(unit), mode=mode)
    elements = sorted((e for iri, f in streams.items() for e in read_stream(DATA / f, iri, time=TimeSpec(unit))),
                      key=lambda e: e.t)
    facts = static_facts(load_dataset([DATA / f for f in static]))
    run = engine_input(compiled, elements, facts, start=start, end=end)
    out = {}
    for ev in answers(compiled, elements, facts, start=start, end=end):
        expected = reference.answer_at(Program(run.program.rules), run.stream, ev.t, functions=FUNCTIONS)
        assert expected is not None
        ref_rows = {tuple(None if from_lars(a) is None else to_nt(from_lars(a)) for a in atom.args)
                    for atom in expected if atom.predicate == compiled.answer_predicate}
        assert set(ev.rows) == ref_rows, ev.t
        out[ev.t] = {tuple(None if x is None else short(x) for x in row) for row in ev.rows}
    return compiled, out


# ------------------------------------------------------------------------------------------ D1, D2

D1_EXPECTED = {
    100: {("Distr1", 1)},
    101: {("Distr1", 1), ("Distr2", 1)},
    102: {("Distr1", 2), ("Distr2", 1)},
    103: {("Distr1", 2), ("Distr2", 2)},
    104: {("Distr1", 2), ("Distr2", 2), ("Distr3", 1)},
    110: {("Distr1", 1), ("Distr2", 2), ("Distr3", 1)},  # τ=100 leaves the left-open window
    111: {("Distr1", 1), ("Distr2", 1), ("Distr3", 1)},
    113: {("Distr3", 1)},
    114: set(),  # no group, no COUNT = 0 row
}


def test_d1_q2_sliding_count_through_rsplars_run(capsys):
    out = cli_run(capsys, str(SEEDS / "s004_q2.rq"), "--stream", f"{TOLLS}={DATA / 'tolls_p1.nt'}", "--unit", "m",
                  "--window-bounds", "left-open", "--from", "100", "--to", "114")
    assert sorted(out) == list(range(100, 115))  # pulled every minute (STEP 1m, D4)
    for t, expected in D1_EXPECTED.items():
        assert rows(out[t], ("tollgate", "passages")) == expected, t


def test_d1_engine_equals_reference_and_non_distinct_variant():
    q2 = (SEEDS / "s004_q2.rq").read_text()
    _, got = engine_and_reference(q2, {TOLLS: "tolls_p1.nt"}, [], "m", "left-open", 100, 114)
    for t, expected in D1_EXPECTED.items():
        assert got[t] == expected
    variant = q2.replace("SELECT DISTINCT ?tollgate ?passages", "SELECT ?tollgate ?car ?passages")
    _, got = engine_and_reference(variant, {TOLLS: "tolls_p1.nt"}, [], "m", "left-open", 104, 104)
    # non-reducing: every WHERE solution keeps its row, extended with its group's count
    assert got[104] == {("Distr1", "156", 2), ("Distr2", "75", 2), ("Distr1", "130", 2), ("Distr2", "95", 2),
                        ("Distr3", "65", 1)}


def test_d2_range_boundary():
    q = (SEEDS / "s004_q2.rq").read_text().replace("[RANGE 10m STEP 1m]", "[RANGE 3m STEP 1m]")
    _, got = engine_and_reference(q, {TOLLS: "tolls_p1.nt"}, [], "m", "left-open", 103, 103)
    assert got[103] == {("Distr1", 1), ("Distr2", 2)}  # (100, 103]: τ=100 out, τ=103 in


# ---------------------------------------------------------------------------------------------- D5


def test_d5_q7_where_filter_before_sum(capsys):
    out = cli_run(capsys, str(SEEDS / "s004_q7.rq"), "--lenient", "--unit", "m",
                  "--stream", f"http://stockexchange.org/market.trdf={DATA / 'd5_market.nt'}",
                  "--static", str(DATA / "d5_brokers.ttl"))
    assert rows(out[1440], ("broker", "total")) == {("b1", 50), ("b2", 10)}  # 24h TUMBLING, pulled at 1440


# ---------------------------------------------------------------------------------------------- D6


def test_d6_independent_clauses_and_post_aggregation_filter(capsys):
    out = cli_run(capsys, str(DATA / "d6_two_aggregates.rq"), "--unit", "m", "--from", "3", "--to", "3",
                  "--stream", f"{TOLLS}={DATA / 'd6_tolls.nt'}")
    # before the filter (g1,c1,2,2), (g1,c2,2,1), (g2,c1,1,2); ?n for g1 stays 2 after it
    assert rows(out[3], ("tollgate", "car", "n", "m")) == {("g1", "c1", 2, 2), ("g2", "c1", 1, 2)}


# ---------------------------------------------------------------------------------------------- D9


def test_d9_q1_static_count_with_filter():
    q1 = (SEEDS / "s004_q1.rq").read_text()
    compiled, got = engine_and_reference(q1, {}, ["d9_sensors.ttl"], "s", "closed", 0, 0, lenient=True, mode="none")
    assert compiled.variables == ("street", "total-sensor")
    assert got[0] == {("st1", 6)}  # st2 has five sensors: "five or less" are filtered out
    without_distinct = q1.replace("SELECT DISTINCT", "SELECT").replace("?street ?total-sensor", "?sensor ?street ?total-sensor")
    _, got = engine_and_reference(without_distinct, {}, ["d9_sensors.ttl"], "s", "closed", 0, 0, lenient=True, mode="none")
    assert got[0] == {(f"sensor{i}", "st1", 6) for i in range(6)}


# --------------------------------------------------------------------------------------------- D10


def test_d10_construct_stream_stamped_with_the_evaluation_time(capsys):
    args = [str(DATA / "d10_q4_district.rq"), "--unit", "m", "--from", "400", "--to", "400",
            "--stream", f"{TOLLS}={DATA / 'd10_tolls.nt'}", "--static", str(DATA / "d10_static.ttl")]
    out = cli_run(capsys, *args)
    has = "<http://linkedurbandata.org/traffic#has-entering-cars>"
    integer = "^^<http://www.w3.org/2001/XMLSchema#integer>"
    assert out[400] == [f'<{CITY}d1> {has} "2"{integer} .', f'<{CITY}d2> {has} "1"{integer} .']
    assert main(["run", *args, "--format", "ntriples"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f'<{CITY}d1> {has} "2"{integer} "400" .', f'<{CITY}d2> {has} "1"{integer} "400" .']


def test_aggregate_clause_errors():
    from translator.translate.aggregates import AggregationError

    bad = "SELECT ?g ?n WHERE { ?g <http://ex.org/p> ?x } AGGREGATE { (?x, COUNT, {?g}) }"
    with pytest.raises(AggregationError, match="must be new"):
        compile_query(parse(bad, "csparql"), mode="none")
    bad = "SELECT ?g ?n WHERE { ?g <http://ex.org/p> ?x } AGGREGATE { (?n, COUNT, {?h}) }"
    with pytest.raises(AggregationError, match="not a WHERE variable"):
        compile_query(parse(bad, "csparql"), mode="none")
