"""EP-SPARQL answers are bags (docs/epsparql.md, "Answers are bags"; decision D5 in
docs/decisions.md): every complex event — every way of taking one event per triple pattern that the
operators allow (Anicic et al. 2011) — is one answer, and a SELECT keeps the duplicates its
projection makes (SPARQL 1.1 §18.5, ``Project``).

* the worked example of the EP-SPARQL semantics extract (SEQ and the join of two prices), the
  multiplicities computed by hand from the operator definitions;
* a hypothesis property: random event patterns (join, SEQ, EQUALS, OPTIONALSEQ, EQUALSOPTIONAL,
  UNION, FILTER, WITHIN, sub-queries) with random projections over random event streams, on both
  LARS engines, equal the independent evaluator of ``ep_oracle.py`` (nested loops over the events,
  results kept as lists) as bags at every event time;
* ``rsplars run`` writes a row once per complex event (JSON lines and CSV), and once under DISTINCT;
  the same for RSEP-QL and for a selection policy;
* ``check`` and ``agree --answers`` judge event outputs as bags (an output with the duplicate
  dropped is wrong, right in the set view), and name a malformed output with its line (exit 2).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from rdflib import Literal

from ep_oracle import Oracle, nt
from translator.cli import main
from translator.evaluate.epsparql_run import event_answers, policy_answers
from translator.query.parse import parse
from translator.translate.epsparql import compile_epsparql, compile_policy_operands
from translator.translate.normalize import TimeBase

from event_data import NS, elements, iri



def run_bags(text: str, events, engine: str = "auto") -> dict[int, Counter]:
    """``{t: bag of (row, start, end)}`` of an unrestricted run (rows of N-Triples terms)."""
    compiled = compile_epsparql(parse(text), base=TimeBase("s"))
    return {ev.t: Counter(ev.rows) for ev in event_answers(compiled, elements(events), engine=engine)}


def oracle_bags(text: str, events, times) -> dict[int, Counter]:
    query = parse(text)
    compiled = compile_epsparql(query, base=TimeBase("s"))
    oracle = Oracle(events)
    out = {}
    for t in times:
        bag: Counter = Counter()
        for mu, s, e in oracle.answers(query, t):
            d = dict(mu)
            bag[(tuple(nt(d[v]) if v in d else None for v in compiled.variables), s, e)] += 1
        out[t] = bag
    return out


# ---- the worked example ----------------------------------------------------------------------

PRICES = [(iri("company1"), iri("hasStockPrice"), Literal(1), 1), (iri("company1"), iri("hasStockPrice"), Literal(2), 2)]
C1 = f"<{NS}company1>"


@pytest.mark.parametrize("engine", ["asp", "incremental"])
def test_worked_example_seq_is_one_complex_event(engine):
    """SEQ pairs price 1 on ⟨1,1⟩ with price 2 on ⟨2,2⟩ only: one complex event ⟨1, 2⟩ at 2."""
    text = "SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }"
    assert run_bags(text, PRICES, engine) == {1: Counter(), 2: Counter({((C1,), 1, 2): 1})}


@pytest.mark.parametrize("engine", ["asp", "incremental"])
def test_worked_example_join_counts_both_pairs_on_one_interval(engine):
    """With ``.`` the pairs are (1,1) on ⟨1,1⟩ at 1, then (2,2) on ⟨2,2⟩ and (1,2), (2,1) on ⟨1,2⟩
    at 2: projected on ?company, ⟨1,2⟩ holds two complex events (the two pairs), so twice."""
    text = "SELECT ?company WHERE { ?company hasStockPrice ?price1 . ?company hasStockPrice ?price2 }"
    assert run_bags(text, PRICES, engine) == {1: Counter({((C1,), 1, 1): 1}),
                                             2: Counter({((C1,), 2, 2): 1, ((C1,), 1, 2): 2})}
    distinct = text.replace("SELECT", "SELECT DISTINCT")
    assert run_bags(distinct, PRICES, engine)[2] == Counter({((C1,), 2, 2): 1, ((C1,), 1, 2): 1})


@pytest.mark.parametrize("engine", ["asp", "incremental"])
def test_same_mapping_and_interval_through_other_events_counts_twice(engine):
    """``SELECT *`` (nothing projected away): ``{?c p 1} . ({?c q 1} SEQ {?c r 1})`` with p at 1 and
    at 3, q at 1, r at 3: both p events join the SEQ event on ⟨1, 3⟩ — one mapping, one interval,
    two complex events (SPARQL's Join sums over the pairs, SPARQL 1.1 §18.5)."""
    c, one = iri("c"), Literal(1)
    events = [(c, iri("p"), one, 1), (c, iri("q"), one, 1), (c, iri("p"), one, 3), (c, iri("r"), one, 3)]
    text = "SELECT * WHERE { { ?c p 1 } { { ?c q 1 } SEQ { ?c r 1 } } }"
    got = run_bags(text, events, engine)
    assert got[3] == Counter({((f"<{NS}c>",), 1, 3): 2}) == oracle_bags(text, events, [3])[3]


@pytest.mark.parametrize("engine", ["asp", "incremental"])
def test_union_branches_both_count(engine):
    """A UNION whose branches give the same mapping on the same interval: two answers (SPARQL's
    Union adds cardinalities); OPTIONALSEQ keeps each left result once when nothing extends it."""
    a, b = iri("a"), iri("b")
    events = [(a, iri("p"), b, 1), (a, iri("q"), b, 1)]
    text = "SELECT ?x WHERE { { ?x p ?y } UNION { ?x ?r ?y } }"
    assert run_bags(text, events, engine)[1] == Counter({((f"<{NS}a>",), 1, 1): 3})
    text = "SELECT ?x WHERE { { ?x ?r ?y } OPTIONALSEQ { ?y p ?x } }"
    assert run_bags(text, events, engine)[1] == Counter({((f"<{NS}a>",), 1, 1): 2})


# ---- random patterns against the evaluator ---------------------------------------------------

VARS = ("?x", "?y", "?z")
leaf = st.tuples(st.sampled_from(VARS * 2 + ("a",)), st.sampled_from(["p", "q"]), st.sampled_from(VARS * 2 + ("b",))).map(
    lambda t: "{ " + " ".join(t) + " }")
FILTERS = ["FILTER (bound(?z))", "FILTER (?x != ?y)", "FILTER (getDURATION() <= 2)", "WITHIN 3"]


def combine(parts):
    op, left, right, extra = parts
    inner = f"{left} {right}" if op == "." else f"{left} {op} {right}"
    return "{ " + inner + (f" {extra}" if extra else "") + " }"


OPERATORS = st.sampled_from([".", "SEQ", "EQUALS", "OPTIONALSEQ", "EQUALSOPTIONAL", "UNION"])


def binary(sub):
    return st.tuples(OPERATORS, sub, sub, st.sampled_from([""] * 4 + FILTERS)).map(combine)


def patterns():
    """An operator over two random sub-patterns (leaves, operators, sub-queries)."""
    sub = st.recursive(
        leaf,
        lambda inner: st.one_of(
            binary(inner), binary(inner), binary(inner),
            st.tuples(st.sampled_from(["?x", "?x ?y", "?y ?z"]), inner).map(lambda t: f"{{ SELECT {t[0]} WHERE {t[1]} }}"),
        ),
        max_leaves=2)
    return binary(sub)


HEADS = ["SELECT *", "SELECT ?x", "SELECT ?x", "SELECT ?y", "SELECT ?x ?z", "SELECT DISTINCT ?x",
         "SELECT ?x (getDURATION() AS ?d)", "SELECT (getSTARTTIME() AS ?s)"]
event_tuples = st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(["p", "q"]), st.sampled_from(["a", "b", "c"]),
                         st.integers(0, 4))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(head=st.sampled_from(HEADS), pattern=patterns(), raw=st.lists(event_tuples, min_size=5, max_size=10, unique=True),
       engine=st.sampled_from(["asp", "incremental"]))
def test_random_event_patterns_equal_the_evaluator_as_bags(head, pattern, raw, engine):
    text = f"{head} WHERE {pattern}"
    events = [(iri(s), iri(p), iri(o), t) for s, p, o, t in raw]
    got = run_bags(text, events, engine)
    assert got == oracle_bags(text, events, sorted(got)), text
    if any(n > 1 for bag in got.values() for n in bag.values()):
        event("an answer repeated")
    elif any(got.values()):
        event("answers, each once")


# ---- the command line ------------------------------------------------------------------------

STOCK = f"""@prefix : <{NS}> .
:company1 :hasStockPrice 1 [1] .
:company1 :hasStockPrice 2 [2] .
:company1 :hasStockPrice 3 [2] .
"""


def cli(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    out = capsys.readouterr().out
    return code, out


def test_run_writes_a_row_per_complex_event(tmp_path, capsys):
    """Price 1 at 1 SEQ the prices 2 and 3 at 2: two complex events that ``SELECT ?company`` projects
    to the same row on ⟨1, 2⟩ — written twice in JSON lines and in CSV, once under DISTINCT."""
    stream = tmp_path / "s.stream"
    stream.write_text(STOCK)
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }")
    options = ["--stream", f"http://e/s={stream}"]
    code, out = cli(capsys, "run", query, *options)
    assert code == 0
    answer = {"company": C1, "@start": 1, "@end": 2}
    assert [json.loads(line) for line in out.splitlines()] == [{"t": 1, "answers": []}, {"t": 2, "answers": [answer] * 2}]
    code, out = cli(capsys, "run", query, *options, "--format", "csv")
    assert code == 0
    assert list(csv.reader(io.StringIO(out))) == [["t", "company", "@start", "@end"]] + [["2", C1, "1", "2"]] * 2
    query.write_text(query.read_text().replace("SELECT", "SELECT DISTINCT"))
    code, out = cli(capsys, "run", query, *options)
    assert code == 0 and json.loads(out.splitlines()[1])["answers"] == [answer]


def test_policy_run_reports_each_selected_match(tmp_path):
    """Under the chronological selection the E2 matches at 2 (prices 2 and 3) each pair with the
    first price: two matches, one projected row on ⟨1, 2⟩, reported twice."""
    query = parse("SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }")
    compiled = compile_policy_operands(query, base=TimeBase("s"))
    events = PRICES + [(iri("company1"), iri("hasStockPrice"), Literal(3), 2)]
    got = {ev.t: Counter(ev.rows) for ev in policy_answers(compiled, elements(events), selection="chronological")}
    assert got == {1: Counter(), 2: Counter({((C1,), 1, 2): 2})}


def test_rsepql_run_writes_a_row_per_match(tmp_path, capsys):
    """RSEP-QL: ``E1 SEQ E2`` with E2 matching twice at 2 (?z = c, d): ``SELECT ?x`` gives a twice on ⟨1, 2⟩."""
    ex = "http://example.org/"
    stream = tmp_path / "s.stream"
    stream.write_text(f"@prefix : <{ex}> .\n:a :p :b [1] .\n:b :q :c [2] .\n:b :q :d [2] .\n")
    query = tmp_path / "q.rq"
    query.write_text(f"PREFIX : <{ex}>\nSELECT ?x\nFROM NAMED :S WIN [LND 0] AS :w\n"
                     "EVENT ON :w { ?x :p ?y } AS E1\nEVENT ON :w { ?y :q ?z } AS E2\nWHERE { MATCH { E1 SEQ E2 } }\n")
    code, out = cli(capsys, "run", query, "--stream", f"{ex}S={stream}")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[-1] == {"t": 2, "answers": [{"x": f"<{ex}a>", "@start": 1, "@end": 2}] * 2}
    recorded = tmp_path / "out.jsonl"
    recorded.write_text(out)
    code, report = cli(capsys, "check", query, "--stream", f"{ex}S={stream}", "--answers", recorded)
    assert code == 0 and report.startswith("correct:")
    recorded.write_text(out.replace(f', {{"x": "<{ex}a>", "@start": 1, "@end": 2}}]', "]"))
    code, report = cli(capsys, "check", query, "--stream", f"{ex}S={stream}", "--answers", recorded)
    assert code == 1 and "recorded 1 time(s), expected 2" in report


# ---- check and agree --answers on event outputs ----------------------------------------------

def stock_files(tmp_path):
    stream = tmp_path / "s.stream"
    stream.write_text(STOCK)
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?company WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }")
    return query, ["--stream", f"http://e/s={stream}"]


def test_check_judges_an_event_output_as_a_bag(tmp_path, capsys):
    """rsplars's own output (JSON lines and CSV) is correct; the same output with the duplicate
    dropped — what a run with set answers writes — is wrong as a bag (the row named with both
    counts) and right in the set view."""
    query, options = stock_files(tmp_path)
    for fmt in ("jsonl", "csv"):
        code, out = cli(capsys, "run", query, *options, "--format", fmt)
        recorded = tmp_path / f"out.{fmt}"
        recorded.write_text(out)
        code, out = cli(capsys, "check", query, *options, "--answers", recorded)
        assert code == 0 and out.startswith("correct:") and "compared as bags" in out
    once = tmp_path / "once.jsonl"
    once.write_text('{"t": 1, "answers": []}\n'
                    f'{{"t": 2, "answers": [{{"company": "{C1}", "@start": 1, "@end": 2}}]}}\n')
    code, out = cli(capsys, "check", query, *options, "--answers", once, "--json", tmp_path / "r.json")
    assert code == 1
    assert f"t=2: ?company = {C1} on [1, 2]: recorded 1 time(s), expected 2" in out
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["correct"] is False and report["first_mismatches"][0]["expected"] == 2
    code, out = cli(capsys, "check", query, *options, "--answers", once, "--compare", "sets")
    assert code == 0 and "compared as sets" in out


def test_agree_compares_two_event_outputs_as_bags(tmp_path, capsys):
    query, options = stock_files(tmp_path)
    code, out = cli(capsys, "run", query, *options)
    both = tmp_path / "both.jsonl"
    both.write_text(out)
    once = tmp_path / "once.csv"
    once.write_text(f"t,company,@start,@end\n2,{C1},1,2\n")
    code, out = cli(capsys, "agree", query, *options, "--answers", both, "--answers", once)
    assert code == 1 and f"t=2: ?company = {C1} on [1, 2]: A 2 time(s), B 1" in out
    code, out = cli(capsys, "agree", query, *options, "--answers", both, "--answers", once, "--compare", "sets")
    assert code == 0 and "agree:" in out


@pytest.mark.parametrize("content, message", [
    ('{"t": 2, "answers": [{"company": "<bad", "@start": 1, "@end": 2}]}\n', "out.jsonl:1: ?company = '<bad'"),
    ('{"t": 2, "answers": [{"price": "<a>", "@start": 1, "@end": 2}]}\n', "out.jsonl:1: price is not a result variable"),
    ('{"t": 2, "answers": [{"company": "<a>"}]}\n', "out.jsonl:1: an answer without @start and @end"),
    ('{"t": 2}\n', 'out.jsonl:1: expected {"t": T, "answers": [...]}'),
])
def test_check_names_a_bad_event_output(tmp_path, capsys, content, message):
    query, options = stock_files(tmp_path)
    recorded = tmp_path / "out.jsonl"
    recorded.write_text(content)
    code = main([str(a) for a in ("check", query, *options, "--answers", recorded)])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
