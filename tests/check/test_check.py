"""``translator.agreement.check``: outputs judged by Def 25 (some t0) and the oracle's comparison,
hand-made wrong outputs judged incorrect with the right diagnosis (Dell'Aglio et al. 2013, §7, Table 2)."""

from __future__ import annotations

import json

import pytest

from check_helpers import CSR_STREAM, evaluator, listing1, rspql
from lars.errors import RsplarsError, SourceError
from translator.agreement.check import ActualRelation, check, nt_key, read_answers, term_key
from translator.evaluate.profiles import PROFILES, with_overrides

XSD = "http://www.w3.org/2001/XMLSchema#"
R1 = {"room": {"type": "uri", "value": "http://ex.org/r1"}}
R2 = {"room": {"type": "uri", "value": "http://ex.org/r2"}}


def csrbench(*relations) -> str:
    return json.dumps({"relations": [{"timestamp": t, "results": {"bindings": list(b)}} for t, b in relations]})


def actual(text: str, unit=(1, 1000)) -> list[ActualRelation]:
    return read_answers(text, "answers.json", time_factor=unit)[1]


def judge(ev, text, profile="csparql", **kw):
    op = with_overrides(PROFILES[profile].params, **kw.pop("op", {}))
    return check(ev, actual(text, kw.pop("unit", (1, 1000))), op, **kw)


def test_correct_for_some_t0_and_the_t0_tried():
    v = judge(listing1(), csrbench((12000, []), (22000, [R2])), unit=(1, 1000))
    assert v.correct
    assert v.report["matching_t0"] == [2]
    assert v.report["t0_tried"] == [[0], [1], [2]]


def test_no_t0_gives_the_output():
    v = judge(listing1(), csrbench((10000, [R2])), unit=(1, 1000))
    assert not v.correct
    assert len(v.report["t0_tried"]) == v.report["t0_candidates"] == 11  # t0 in 0..max(β−1, α) = 0..10


def test_dropped_relation():
    v = judge(listing1(), csrbench((10000, [R1])), unit=(1, 1000))
    assert not v.correct
    m = v.report["mismatch"]
    assert m["timestamp"] == 20 and m["actual"] is None and m["expected"] == [{"room": "<http://ex.org/r2>"}]
    assert m["window"] == [{"stream": CSR_STREAM, "from": 10, "to": 19, "interval": "[10, 19]"}]
    assert m["diagnosis"][0].startswith("dropped relation")


def test_early_report_of_an_open_window():
    """C-SPARQL's Q5 transient: a relation before the first window closes."""
    v = judge(listing1(), csrbench((5000, [R1]), (10000, [R1]), (20000, [R2])), unit=(1, 1000))
    assert not v.correct
    m = v.report["mismatch"]
    assert m["timestamp"] == 5 and m["expected"] is None
    assert m["diagnosis"][0].startswith("early report of an open window")


def test_wrong_binding():
    v = judge(listing1(), csrbench((10000, [R2]), (20000, [R2])), unit=(1, 1000))
    m = v.report["mismatch"]
    assert not v.correct and m["timestamp"] == 10
    assert m["missing"] == [{"room": "<http://ex.org/r1>"}] and m["unexpected"] == [{"room": "<http://ex.org/r2>"}]
    assert m["diagnosis"] == ["wrong bindings at 10: 1 missing, 1 unexpected (compared as bags)",
                              "row (?room=<http://ex.org/r1>) missing (expected 1, got 0)",
                              "row (?room=<http://ex.org/r2>) unexpected (expected 0, got 1)"]


def test_missing_empty_relation():
    """C-SPARQL emits the empty relation of a non-empty window without matches (Dell'Aglio et al. 2013, §3)."""
    ev = listing1()
    v = judge(ev, csrbench((22000, [R2])), unit=(1, 1000))
    assert not v.correct
    assert v.report["mismatch"]["diagnosis"][0].startswith("missing empty relation at 12")
    assert judge(ev, csrbench((22000, [R2])), "sparqlstream", unit=(1, 1000)).correct


def test_wrong_r2s():
    """Q^ex under T13's policy: the DStream output judged under an RStream profile."""
    ev = rspql()
    out = [{"t": 10, "answers": [
        {"shopper": "<http://example.org/carl>", "shop": "<http://example.org/a>",
         "shop_owner": "<http://example.org/alice>", "coupon": '"10% discount on ..."'},
        {"shopper": "<http://example.org/eve>", "shop": "<http://example.org/a>",
         "shop_owner": "<http://example.org/alice>", "coupon": '"10% discount on ..."'}]}]
    text = "\n".join(json.dumps(r) for r in out)
    op = {"t0": (1, 0), "empty_relations": "skip"}
    v = judge(ev, text, "rsp-ql", unit=(1, 1), op=op, t0_fixed=True)
    assert not v.correct
    assert any(d.startswith("wrong R2S: the output is the DSTREAM") for d in v.report["mismatch"]["diagnosis"])
    assert judge(ev, text, "rsp-ql", unit=(1, 1), op={**op, "r2s": "dstream"}, t0_fixed=True).correct


COUNT_QUERY = """PREFIX : <http://example.org/>
SELECT (COUNT(?x) AS ?n)
WHERE { STREAM <http://example.org/s> [RANGE 2s SLIDE 2s] { ?x :p :hit } }
"""
COUNT_STREAM = """<http://example.org/a> <http://example.org/p> <http://example.org/hit> "1" .
<http://example.org/b> <http://example.org/p> <http://example.org/miss> "3" .
<http://example.org/c> <http://example.org/p> <http://example.org/hit> "5" .
"""


@pytest.fixture
def count_ev(tmp_path):
    q = tmp_path / "count.rq"
    q.write_text(COUNT_QUERY)
    s = tmp_path / "s.nt"
    s.write_text(COUNT_STREAM)
    return evaluator(str(q), {"http://example.org/s": s})


def count(n):
    return {"n": {"type": "typed-literal", "value": str(n), "datatype": XSD + "integer"}}


def test_null_instead_of_zero(count_ev):
    """SPARQLstream's Q4: the window [2, 4) holds only a miss; COUNT over no match is 0, not null."""
    op = {"t0": (0,)}
    good = csrbench((2000, [count(1)]), (4000, [count(0)]), (6000, [count(1)]))
    assert judge(count_ev, good, "sparqlstream", op=op, t0_fixed=True).correct
    for null in ({}, {"n": {"type": "literal", "value": "null"}}):
        bad = csrbench((2000, [count(1)]), (4000, [null]), (6000, [count(1)]))
        v = judge(count_ev, bad, "sparqlstream", op=op, t0_fixed=True)
        assert not v.correct
        assert v.report["mismatch"]["diagnosis"][0].startswith("null instead of 0: ?n")


def test_window_expiry(count_ev):
    """CQELS's Q4/Q6/Q7: a count that still includes the element of an earlier window."""
    op = {"t0": (0,), "report": frozenset({"window-close", "non-empty"}), "r2s": "rstream"}
    bad = csrbench((2000, [count(1)]), (4000, [count(1)]), (6000, [count(2)]))
    v = judge(count_ev, bad, "cqels", op=op, t0_fixed=True)
    assert not v.correct
    m = v.report["mismatch"]
    assert m["timestamp"] == 4  # [2, 4) holds no hit: the count 1 is a@1, which left the window
    assert m["diagnosis"][0].startswith("window expiry")


def test_numeric_literals_compare_by_value(count_ev):
    doubles = csrbench(*[(t * 1000, [{"n": {"type": "literal", "value": v, "datatype": XSD + "double"}}])
                         for t, v in ((2, "1.0e0"), (4, "0.0"), (6, "1"))])
    assert judge(count_ev, doubles, "sparqlstream", op={"t0": (0,)}, t0_fixed=True).correct
    assert term_key("literal", "83", XSD + "integer") == term_key("literal", "83.0e0", XSD + "double")
    assert term_key("literal", "83", XSD + "string") != term_key("literal", "83", XSD + "integer")
    assert nt_key('"83"^^<http://www.w3.org/2001/XMLSchema#long>') == ("num", 83.0)


def test_oracle_comparison_ignores_timestamps():
    ev = listing1()
    text = json.dumps({"relations": [{"results": {"bindings": [R2]}}]})
    v = check(ev, actual(text), PROFILES["csparql"].params, ignore_timestamps=True)
    assert v.correct  # {r2} is a contiguous part of t0 = 0's ({r1}, {r2})
    v = check(ev, actual(json.dumps({"relations": [{"results": {"bindings": [R2]}},
                                                  {"results": {"bindings": [R1]}}]})),
              PROFILES["csparql"].params, ignore_timestamps=True)
    assert not v.correct
    assert check(ev, [], PROFILES["csparql"].params, ignore_timestamps=True).report["note"].startswith("an empty output")
    with pytest.raises(RsplarsError, match="without a timestamp"):
        check(ev, actual(text), PROFILES["csparql"].params)


def test_relations_at_one_timestamp_are_merged():
    """A tuple-driven engine may emit several relations at one instant: their union is compared."""
    text = csrbench((10000, []), (10000, [R1]), (20000, [R2]))
    assert judge(listing1(), text, unit=(1, 1000)).correct


def test_rsplars_run_jsonl_is_read():
    text = '{"t": 10, "answers": [{"room": "<http://ex.org/r1>"}]}\n{"t": 20, "answers": [{"room": "<http://ex.org/r2>"}]}\n'
    fmt, rels = read_answers(text, "out.jsonl")
    assert fmt == "jsonl" and [r.t for r in rels] == [10, 20]
    assert judge(listing1(), text, unit=(1, 1)).correct


@pytest.mark.parametrize("text, line, message", [
    ('{"relations": [\n {"timestamp": 1, "results": {"bindings": [}}\n]}', 2, "not JSON"),
    ('{"relations": [\n {"timestamp": "x", "results": {"bindings": []}}\n]}', 2, "not an integer"),
    ('{"relations": [\n {"timestamp": 1, "results": {"bindings": [{"v": {"value": "a"}}]}}\n]}', 2, "SPARQL 1.1 JSON term"),
    ('{"t": 1, "answers": []}\n{"t": 2, "answers": [\n', 2, "not a JSON object"),
    ('{"t": 1}\n', 1, 'needs "results"'),
])
def test_bad_answers_are_located(text, line, message):
    with pytest.raises(SourceError) as info:
        read_answers(text, "answers.json")
    assert info.value.line == line and message in str(info.value)
    assert str(info.value).startswith(f"answers.json:{line}:")



def test_another_profiles_output_is_named():
    """CQELS's output judged under C-SPARQL: incorrect, and correct under the cqels profile."""
    ev = listing1()
    v = judge(ev, csrbench((3000, [R1]), (15000, [R2])), "csparql")
    assert not v.correct
    assert v.report["fits_profiles"] == {"cqels": [0]}
    assert v.report["mismatch"]["diagnosis"][-1].startswith("different report policy: the output is correct under "
                                                            "profile cqels")


def test_the_oracle_repositorys_recorded_answers_are_read():
    """The CSRBench oracle's own answer files wrap each binding as {"timestamp": t, "binding": {...}};
    bindings repeat: read as a bag (a row written twice counts twice), whose set view is the oracle's
    HashSet."""
    from check_helpers import DATA

    path = DATA / "csrbench-oracle" / "csparql-answer-1.json"
    fmt, rels = read_answers(path.read_text(), str(path), time_factor=(1, 1000))
    assert fmt == "csrbench"
    assert [(r.t, len(r.bindings)) for r in rels] == [(10, 0), (20, 5), (30, 2)]
    sensors = {dict(b)["sensor"] for b in rels[2].bindings}
    assert sensors == {("iri", "http://knoesis.wright.edu/ssw/System_C0837"),
                       ("iri", "http://knoesis.wright.edu/ssw/System_C1192")}
    path = DATA / "csrbench-oracle" / "sparqlstream-answer-4.head.json"
    _, rels = read_answers(path.read_text(), str(path))
    assert [sorted(dict(b)["avg"][1] for b in r.bindings.distinct()) for r in rels] == [
        [83.0, 87.66666666666667, 90.0], [87.66666666666667, 90.0, 92.33333333333333]]
    assert sorted(dict(b)["avg"][1] for b in rels[0].bindings) == [83.0, 87.66666666666667, 90.0, 90.0]
