"""EP-SPARQL as ETALIS writes it, end to end through the CLI: detection, bare names and
``--bare-ns``, CONSTRUCT without braces, WITHIN (plain numbers are seconds whatever ``--unit``),
the Prolog extensions named at their position, ``translate --to lars`` (read back by the LARS
parser), ``run`` (JSON lines with ``@start``/``@end``, CONSTRUCT triples, policies), ``agree``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from lars.model import TimeWindow, WindowAt
from lars.syntax import parse_program
from translator.cli import main
from translator.query import model as M
from translator.query.dialect import detect_dialect
from translator.query.parse import parse

DATA = Path(__file__).resolve().parents[1] / "data"
QUERIES = DATA / "queries" / "epsparql"
NS = "http://rsplars.invalid/bare#"
INT = "http://www.w3.org/2001/XMLSchema#integer"


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


STOCK = """@prefix : <http://rsplars.invalid/bare#> .
:company1 :hasStockPrice 1 [1] .
:company1 :hasStockPrice 2 [2] .
"""
EPSPARQL_QUERIES = [
    "SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }",
    "CONSTRUCT ?company hasPrice ?price1 WHERE { ?company hasStockPrice ?price1 }",
    "SELECT ?company ?price1 WHERE { ?company hasStockPrice ?price1 }",
]


@pytest.mark.parametrize("text", EPSPARQL_QUERIES)
def test_example_queries_are_epsparql_and_parse_as_written(text):
    detection = detect_dialect(text)
    assert detection.dialect == "epsparql"
    query = parse(text)
    preds = {t.predicate for n in M.walk_patterns(query.where) if isinstance(n, M.BGP) for t in n.triples}
    assert preds == {M.IRI(NS + "hasStockPrice")}
    assert any(f"<{NS}>" in note and "--bare-ns" in note for note in query.notes)


def test_plain_sparql_and_other_dialects_are_not_taken_for_epsparql():
    assert detect_dialect("PREFIX : <http://e/> SELECT ?x WHERE { ?x :p ?y . ?x a ?t }").dialect == "csparql"
    assert detect_dialect("SELECT ?x WHERE { ?x ?p \"lit\"@en . FILTER(?x > 1e5) }").dialect == "csparql"
    # a bare name next to a CQELS keyword: the keyword decides
    assert detect_dialect("SELECT ?x WHERE { STREAM <s> [RANGE 5s] { ?x p ?y } }").dialect == "cqels"


def test_bare_ns_option_and_forced_dialect(tmp_path, capsys):
    q = write(tmp_path, "q.rq", EPSPARQL_QUERIES[2])
    code, out, err = cli(capsys, "translate", q, "--to", "model", "--bare-ns", "http://stock.example/#")
    assert code == 0 and "http://stock.example/#hasStockPrice" in out
    assert err.count("read as IRIs in <http://stock.example/#>") == 1
    code, _, err = cli(capsys, "translate", q, "--to", "model", "--dialect", "csparql")
    assert code == 2 and "unexpected 'hasStockPrice' (C-SPARQL syntax)" in err


def test_within_plain_number_is_seconds_whatever_the_unit(capsys, tmp_path):
    q = write(tmp_path, "w.rq", "SELECT ?c WHERE { ?c p ?x } SEQ { ?c q ?y } WITHIN 1")
    query = parse(q.read_text())
    assert M.Within(M.Duration(1, "s")) in query.where.parts
    code, out, _ = cli(capsys, "translate", q, "--to", "lars", "--unit", "ms")
    assert code == 0
    windows = {lit.atom.window for r in parse_program(out).rules for lit in r.body
               if hasattr(lit, "atom") and isinstance(lit.atom, WindowAt) and lit.atom.atom.predicate == "striple"}
    assert windows == {TimeWindow(1000, 0, 1, "ms")} or {(w.l, w.u, w.d) for w in windows} == {(1000, 0, 1)}
    code, _, err = cli(capsys, "translate", q, "--to", "lars", "--unit", "m")
    assert code == 2 and "WITHIN duration" in err and "Traceback" not in err


@pytest.mark.parametrize("text,word,column", [
    ("SELECT ?c WHERE { ?c p ?x } DO write(?c)", "DO", 29),
    ("SELECT ?c WHERE { ?c p ?x . ?y is ?x + 1 }", "is", 32),
    ("SELECT ?c WHERE { ?c p ?x } FILTER (aggregate(sum, ?x, ?s))", "aggregate", 37),
    ("SELECT ?c WHERE { ?c p ?x . rdf_store(?c) }", "rdf_store", 29),
])
def test_prolog_extensions_are_named_unsupported_at_their_position(tmp_path, capsys, text, word, column):
    code, out, err = cli(capsys, "translate", write(tmp_path, "p.rq", text), "--to", "model")
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"p.rq:1:{column}: unsupported in EP-SPARQL" in err and "ETALIS Prolog extension" in err


def test_translate_lars_reads_back_and_warns_when_unbounded(capsys):
    code, out, err = cli(capsys, "translate", QUERIES / "ep2.rq", "--to", "lars")
    assert code == 0 and "no time bound" in err and "WITHIN" in err
    program = parse_program(out)
    heads = {r.head.predicate for r in program.rules if r.head is not None}
    assert {"answer", "ext2", "trigger"} <= heads
    assert "answers: answer(?company, ?ratingagency, start, end)" in out
    code, out, err = cli(capsys, "translate", QUERIES / "ep1.rq", "--to", "lars")  # getDURATION() < P30D bounds it
    assert code == 0 and "no time bound" not in err and "[2592000]" in out and "E - S < 2592000" in out


def test_run_reports_each_complex_event_once_with_its_interval(tmp_path, capsys):
    q = write(tmp_path, "q.rq", EPSPARQL_QUERIES[0])
    s = write(tmp_path, "s.stream", STOCK)
    code, out, err = cli(capsys, "run", q, "--stream", f"http://example.org/s={s}")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert records == [{"t": 1, "answers": []},
                       {"t": 2, "answers": [{"company": f"<{NS}company1>", "@start": 1, "@end": 2}]}]


def test_run_construct_gives_triples_and_csv_has_the_interval(tmp_path, capsys):
    q = write(tmp_path, "c.rq", EPSPARQL_QUERIES[1])
    s = write(tmp_path, "s.stream", STOCK)
    code, out, _ = cli(capsys, "run", q, "--stream", f"http://example.org/s={s}")
    assert code == 0
    assert json.loads(out.splitlines()[1]) == {
        "t": 2, "triples": [f'<{NS}company1> <{NS}hasPrice> "2"^^<{INT}> .']}
    q2 = write(tmp_path, "q.rq", EPSPARQL_QUERIES[2])
    code, out, _ = cli(capsys, "run", q2, "--stream", f"http://example.org/s={s}", "--format", "csv")
    assert list(csv.reader(out.splitlines())) == [
        ["t", "company", "price1", "@start", "@end"], ["1", f"<{NS}company1>", f'"1"^^<{INT}>', "1", "1"],
        ["2", f"<{NS}company1>", f'"2"^^<{INT}>', "2", "2"]]


def test_run_with_rsepql_policies(capsys):
    stream = f"http://example.org/S={DATA / 'epsparql' / 'rsepql_figure1.stream'}"
    q = DATA / "epsparql" / "rsepql_seq.rq"

    def intervals(*opts):
        code, out, err = cli(capsys, "run", q, "--stream", stream, *opts)
        assert code == 0, err
        return {r["t"]: sorted((a["@start"], a["@end"]) for a in r["answers"]) for r in map(json.loads, out.splitlines())}

    assert intervals() == {2: [], 4: [], 6: [(2, 6), (4, 6)], 8: [(4, 8)], 10: [(2, 10)]}
    chrono = intervals("--selection", "chronological", "--consumption", "chronological")
    assert chrono == {2: [], 4: [], 6: [(2, 6), (4, 6)], 8: [], 10: []}
    assert intervals("--selection", "recent") == {2: [], 4: [], 6: [(2, 6), (4, 6)], 8: [(4, 8)], 10: [(2, 10)]}


def test_policy_on_a_pattern_rsepql_does_not_define_is_named(tmp_path, capsys):
    q = write(tmp_path, "o.rq", "SELECT * WHERE { ?x p ?y } OPTIONALSEQ { ?y q ?z }")
    s = write(tmp_path, "s.stream", STOCK)
    code, out, err = cli(capsys, "run", q, "--stream", f"http://e/s={s}", "--selection", "recent")
    assert code == 2 and out == "" and "unsupported" in err and "Dell'Aglio et al. 2016" in err


def test_agree_epsparql_with_csparql(tmp_path, capsys):
    ep = write(tmp_path, "ep.rq", "SELECT ?company ?price WHERE { ?company hasStockPrice ?price }")
    cs = write(tmp_path, "cs.rq", f"PREFIX : <{NS}>\nSELECT ?company ?price\n"
                                  "FROM STREAM <http://example.org/s> [RANGE 5s STEP 5s]\n"
                                  "WHERE { ?company :hasStockPrice ?price }\n")
    s = write(tmp_path, "s.stream", STOCK + ":company2 :hasStockPrice 3 [5] .\n")
    report = tmp_path / "r.json"
    args = ["agree", "--pull", cs, "--push", ep, "--stream", f"http://example.org/s={s}", "--to", "10",
            "--report", report]
    code, out, err = cli(capsys, *args, "--window-bounds", "left-open", "--fail-on-disagree")
    assert code == 0, err
    verdicts = [i["verdict"] for i in json.loads(report.read_text())["intervals"]]
    assert verdicts == ["agree", "agree"]
    code, out, err = cli(capsys, *args, "--window-bounds", "closed", "--fail-on-disagree")
    assert code == 1  # [0,5] and [5,10] overlap at 5 under closed bounds: the pull side sees more
    code, _, err = cli(capsys, "agree", "--pull", ep, "--push", cs, "--stream", f"http://example.org/s={s}")
    assert code == 2 and "give it as --push" in err


@pytest.mark.parametrize("text", [
    *EPSPARQL_QUERIES,
    "SELECT ?c WHERE { ?c p ?x } SEQ { ?c q ?y } WITHIN 1 FILTER (getDURATION() < \"PT10S\"^^xsd:duration)",
    "SELECT ?c WHERE { { ?c p ?x } EQUALSOPTIONAL { ?c q ?y WITHIN 2m } } WITHIN \"PT1H\"^^xsd:duration",
])
def test_printed_query_reads_back_to_the_same_model(text):
    from translator.query.printer import print_query

    query = parse(text)
    again = parse(print_query(query), "epsparql")
    assert again == query and any(isinstance(p, M.Within) for p in M.walk_patterns(query.where)) == ("WITHIN" in text)


def test_print_asp_at_gives_clingo_the_answers_at_t(tmp_path, capsys):
    """``--print-asp-at T`` on an EP-SPARQL query: plain clingo derives the complex events ending at T."""
    import subprocess
    import sys

    s = write(tmp_path, "s.stream", STOCK)
    code, out, _ = cli(capsys, "run", write(tmp_path, "q.rq", EPSPARQL_QUERIES[0]), "--stream", f"http://e/s={s}",
                       "--print-asp-at", "2")
    assert code == 0
    program = write(tmp_path, "p.lp", out)
    solved = subprocess.run([sys.executable, "-m", "clingo", "--enable-python", str(program)], capture_output=True,
                            text=True, timeout=120)
    # the projected company, the hidden prices and event times (witness columns, D5), the interval
    price = '"\\"{}\\"^^<http://www.w3.org/2001/XMLSchema#integer>"'.format
    assert f'answer("<{NS}company1>",{price(1)},{price(2)},1,2,1,2)' in solved.stdout


def test_documented_example_equals_the_evaluator(capsys):
    """The EP-SPARQL example of docs/epsparql.md (examples/epsparql) against the independent evaluator."""
    from ep_oracle import Oracle, nt
    from translator.rdf.streams import read_stream

    examples = Path(__file__).resolve().parents[2] / "examples" / "epsparql"
    code, out, _ = cli(capsys, "run", examples / "rise.rq", "--stream",
                       f"http://example.org/stock={examples / 'stock.stream'}")
    assert code == 0
    got = {r["t"]: sorted((a["company"], a["price1"], a["price2"], a["@start"], a["@end"]) for a in r["answers"])
           for r in map(json.loads, out.splitlines())}
    query = parse((examples / "rise.rq").read_text())
    events = [(*e.triple, e.t) for e in read_stream(examples / "stock.stream", "http://example.org/stock")]
    oracle = Oracle(events)
    expected = {t: sorted((nt(dict(mu)["company"]), nt(dict(mu)["price1"]), nt(dict(mu)["price2"]), s, e)
                          for mu, s, e in oracle.answers(query, t)) for t in got}
    assert got == expected and sum(map(len, got.values())) == 4
