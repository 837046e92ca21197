"""Recorded answers judged as bags (SPARQL 1.1 §18.1.6; docs/check.md, "Bags or sets"): an output with
one row too many or too few is incorrect, and its diagnosis names the row with its counts; compared
as sets (``--compare sets``, the CSRBench oracle's HashSet) the same output is accepted, and every
report says which view it used."""

from __future__ import annotations

import json

from translator.agreement.answers import read_answer_text
from translator.agreement.check import check
from translator.agreement.multisets import BAGS, SETS, cardinality_faults
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.query.parse import parse
from translator.rdf.bags import Bag
from translator.rdf.streams import merge_streams, read_streams
from translator.rdf.timeunits import TimeSpec
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

EX = "http://example.org/"
S = EX + "s"
XSD = "http://www.w3.org/2001/XMLSchema#"
#: tumbling windows of 10 s; the reading "1" and "1.0" are one value (numbers compare by value,
#: docs/check.md), so the window [0, 10] answers ?v = 1 twice; <c> once
QUERY = f"SELECT ?v WHERE {{ STREAM <{S}> [RANGE 10s SLIDE 10s] {{ ?x <{EX}p> ?v }} }}"
STREAM = (f'<{EX}a> <{EX}p> "1"^^<{XSD}integer> "1" .\n'
          f'<{EX}b> <{EX}p> "1.0"^^<{XSD}decimal> "2" .\n'
          f'<{EX}c> <{EX}p> <{EX}c> "3" .\n')
ONE = {"v": {"type": "literal", "value": "1", "datatype": XSD + "integer"}}
C = {"v": {"type": "uri", "value": EX + "c"}}


def answers(*rows) -> str:
    return json.dumps({"relations": [{"timestamp": 10, "results": {"bindings": list(rows)}}]})


def evaluator(tmp_path) -> Evaluator:
    path = tmp_path / "s.nt"
    path.write_text(STREAM)
    compiled = compile_query(parse(QUERY, "cqels"), mode="none", base=TimeBase("s"))
    elements = merge_streams(read_streams({S: str(path)}, time=TimeSpec("s", "s", None)))
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


def judge(tmp_path, text: str, compare: str = "bags"):
    actual = read_answer_text(text, "answers.json").relations
    return check(evaluator(tmp_path), actual, PROFILES["csparql"].params, t0_fixed=True, compare=compare)


def test_the_expected_output_as_a_bag_is_correct(tmp_path):
    v = judge(tmp_path, answers(ONE, ONE, C))
    assert v.correct and v.report["comparison"]["compare"] == "bags"
    assert v.report["comparison"]["relations"] == BAGS.description


def test_one_row_too_few_is_incorrect_with_its_counts(tmp_path):
    v = judge(tmp_path, answers(ONE, C))
    assert not v.correct
    m = v.report["mismatch"]
    assert m["timestamp"] == 10 and m["missing"] == [{"v": "1"}] and m["unexpected"] == []
    assert "row (?v=1) 1 time, expected 2" in m["diagnosis"]


def test_one_row_too_many_is_incorrect_with_its_counts(tmp_path):
    v = judge(tmp_path, answers(ONE, ONE, C, C))
    assert not v.correct
    m = v.report["mismatch"]
    assert m["unexpected"] == [{"v": f"<{EX}c>"}] and m["actual"].count({"v": f"<{EX}c>"}) == 2
    assert f"row (?v=<{EX}c>) 2 times, expected 1" in m["diagnosis"]
    # a doubled row is no stale element's: no window expiry is claimed for it
    assert not any("window expiry" in d for d in m["diagnosis"])


def test_a_missing_row_is_named_missing(tmp_path):
    m = judge(tmp_path, answers(ONE, ONE)).report["mismatch"]
    assert f"row (?v=<{EX}c>) missing (expected 1, got 0)" in m["diagnosis"]


def test_the_set_view_accepts_the_same_outputs_and_says_so(tmp_path):
    for text in (answers(ONE, C), answers(ONE, ONE, C, C)):
        v = judge(tmp_path, text, "sets")
        assert v.correct and v.report["comparison"]["compare"] == "sets"
        assert v.report["comparison"]["relations"] == SETS.description
    assert not judge(tmp_path, answers(ONE), "sets").correct  # a row missing altogether is wrong either way


def test_relations_at_one_timestamp_add_up_as_bags(tmp_path):
    """An output that writes one evaluation as several relations (the CSRBench 2023 harness writes
    one per binding) counts each binding as often as it is written."""
    split = json.dumps({"relations": [{"timestamp": 10, "results": {"bindings": [b]}} for b in (ONE, C, ONE)]})
    assert judge(tmp_path, split).correct
    doubled = json.dumps({"relations": [{"timestamp": 10, "results": {"bindings": [ONE, C]}},
                                        {"timestamp": 10, "results": {"bindings": [ONE, C]}}]})
    assert not judge(tmp_path, doubled).correct and judge(tmp_path, doubled, "sets").correct


def test_the_oracle_comparison_counts_rows_too(tmp_path):
    actual = read_answer_text(answers(ONE, C), "answers.json").relations
    ev = evaluator(tmp_path)
    op = PROFILES["csparql"].params
    assert not check(ev, actual, op, t0_fixed=True, ignore_timestamps=True).correct
    assert check(ev, actual, op, t0_fixed=True, ignore_timestamps=True, compare="sets").correct


def test_cardinality_faults_in_words():
    a, b, c = (frozenset({("x", ("iri", EX + n))}) for n in "abc")
    assert cardinality_faults(Bag([a, a, b]), Bag([a, c, c]), lambda r: dict(r)["x"][1]) == [
        f"row ({EX}a) 1 time, expected 2", f"row ({EX}b) missing (expected 1, got 0)",
        f"row ({EX}c) unexpected (expected 0, got 2)"]
    many = Bag([frozenset({("x", ("num", float(i)))}) for i in range(9)])
    faults = cardinality_faults(many, Bag(), str, limit=5)
    assert len(faults) == 6 and faults[-1] == "… and 4 more rows whose counts differ"


def test_the_command_line_names_the_view_in_every_report(tmp_path, cli):
    query, stream, recorded = tmp_path / "q.rq", tmp_path / "s.nt", tmp_path / "a.json"
    query.write_text(QUERY)
    stream.write_text(STREAM)
    recorded.write_text(answers(ONE, C))
    common = ["check", query, "--stream", f"{S}={stream}", "--answers", recorded, "--profile", "csparql", "--t0", "0"]
    code, out, _ = cli(*common, "--json", tmp_path / "r.json", "--html", tmp_path / "r.html")
    assert code == 1 and "relations compared as bags" in out and "row (?v=1) 1 time, expected 2" in out
    assert json.loads((tmp_path / "r.json").read_text())["comparison"]["compare"] == "bags"
    assert "relations compared as bags" in (tmp_path / "r.html").read_text()
    code, out, _ = cli(*common, "--compare", "sets", "--json", tmp_path / "s.json")
    assert code == 0 and "relations compared as sets" in out
    assert json.loads((tmp_path / "s.json").read_text())["comparison"]["compare"] == "sets"
    code, out, _ = cli(*common, "--infer", "--json", tmp_path / "i.json", "--html", tmp_path / "i.html")
    assert code == 1 and "relations compared as bags" in out
    assert json.loads((tmp_path / "i.json").read_text())["inference"]["compare"] == "bags"
    assert "relations compared as bags" in (tmp_path / "i.html").read_text()
    code, out, _ = cli(*common, "--infer", "--compare", "sets")
    assert code == 0 and "relations compared as sets" in out


def test_the_views_read_merge_and_total_relations():
    a, b = (frozenset({("x", ("iri", EX + n))}) for n in "ab")
    doubled = Bag([a, a, b])
    assert BAGS.of(doubled) is doubled and SETS.of(doubled) == Bag([a, b])
    assert BAGS.of(frozenset({a, b})) == SETS.of(frozenset({a, b})) == Bag([a, b])  # an evaluator answering sets
    assert BAGS.merge(doubled, Bag([a])) == Bag([a, a, a, b]) and SETS.merge(doubled, Bag([a])) == Bag([a, b])
    assert BAGS.total([doubled, Bag([a, b, b])]) == Bag([a, a, b, b])  # the most each one has
    assert SETS.total([doubled, Bag([b])]) == Bag([a, b])
    assert BAGS.relation([a, a]).count(a) == 2 and SETS.relation([a, a]).count(a) == 1
