"""``rsplars translate Q --to rsepql`` (translator.query.dialect_print) and ``--to query`` on RSEP-QL
(translator.query.printer): the printed RSEP-QL query of an EP-SPARQL query gives the same answers
under ``run``, every EP-SPARQL construct without an RSEP-QL counterpart is a named error at its
position (exit 2), and printing is a fixpoint after one round trip.

Output shapes differ between the two ``run``s: EP-SPARQL reports each complex event once, at the
time its interval ends (docs/epsparql.md §2); RSEP-QL reports the full answer at t, every event
mapping of the stream up to t (docs/epsparql.md §8). Both carry ``@start``/``@end``. The tests
compare the bindings with their intervals: the EP-SPARQL answers at t are the RSEP-QL answers at
t that end at t, and the RSEP-QL answer at t is every EP-SPARQL answer up to t.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from translator.cli import main
from translator.query.dialect_print import EVENT_STREAM
from translator.query.parse import parse
from translator.query.printer import print_query

DATA = Path(__file__).resolve().parents[1] / "data"
FIGURE1 = DATA / "epsparql" / "rsepql_figure1.stream"
STOCK = """@prefix : <http://rsplars.invalid/bare#> .
:acme :hasStockPrice 10 [1] .
:beta :hasStockPrice 20 [1] .
:acme :hasStockPrice 8 [2] .
:beta :hasStockPrice 25 [3] .
:acme :hasStockPrice 12 [4] .
:beta :hasStockPrice 5 [5] .
:acme :hasStockPrice 7 [5] .
:beta :hasStockPrice 30 [7] .
"""
PRICES = "SELECT ?c ?p1 ?p2 ?p3 WHERE { ?c hasStockPrice ?p1 } SEQ { ?c hasStockPrice ?p2 } "
#: (EP-SPARQL query, stream text or file): the expressible cases
EXPRESSIBLE = {
    "figure1_seq": ((DATA / "epsparql" / "rsepql_seq.rq").read_text(), FIGURE1.read_text()),
    "three_seq_filter": (PRICES + "SEQ { ?c hasStockPrice ?p3 } FILTER (?p2 < ?p1 && ?p3 > ?p1)", STOCK),
    "right_nested_seq": ("SELECT ?c ?p1 ?p3 WHERE { ?c hasStockPrice ?p1 } SEQ "
                         "{ { ?c hasStockPrice ?p2 } SEQ { ?c hasStockPrice ?p3 } } FILTER (?p2 != ?p3)", STOCK),
    "single_event": ("SELECT ?c WHERE { ?c hasStockPrice ?p } FILTER (?p > 9)", STOCK),
}


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def answers(out: str) -> dict[int, Counter]:
    """JSON lines of ``run`` → {t: bag of (sorted bindings, start, end)} (every duplicate counts)."""
    result = {}
    for line in out.splitlines():
        ev = json.loads(line)
        result[ev["t"]] = Counter((tuple(sorted((k, v) for k, v in a.items() if not k.startswith("@"))),
                                   a["@start"], a["@end"]) for a in ev["answers"])
    return result


def printed(capsys, tmp_path: Path, text: str) -> str:
    source = tmp_path / "ep.rq"
    source.write_text(text)
    code, out, err = cli(capsys, "translate", source, "--to", "rsepql")
    assert code == 0, err
    assert f"--stream {EVENT_STREAM}=FILE" in err
    return out


#: (case, selection policy): EP-SPARQL refuses a policy on a pattern without SEQ
RUNS = [(name, policy, consume) for name in sorted(EXPRESSIBLE)
        for policy in ("unrestricted", "chronological", "recent") for consume in (False, True)
        if (policy == "unrestricted" and not consume) or " SEQ " in EXPRESSIBLE[name][0]]


@pytest.mark.parametrize("name,policy,consume", RUNS)
def test_printed_rsepql_gives_the_epsparql_answers(capsys, tmp_path, name, policy, consume):
    text, stream_text = EXPRESSIBLE[name]
    (tmp_path / "s.stream").write_text(stream_text)
    rsep = tmp_path / "rsep.rq"
    rsep.write_text(printed(capsys, tmp_path, text))
    options = ["--selection", policy] + (["--consumption", policy] if consume else [])
    code, ep_out, err = cli(capsys, "run", tmp_path / "ep.rq", "--stream", f"http://example.org/any={tmp_path / 's.stream'}", *options)
    assert code == 0, err
    code, rs_out, err = cli(capsys, "run", rsep, "--stream", f"{EVENT_STREAM}={tmp_path / 's.stream'}", *options)
    assert code == 0, err
    ep, rs = answers(ep_out), answers(rs_out)
    assert set(ep) == set(rs)
    assert any(ep.values()) or (name == "right_nested_seq" and policy != "unrestricted"), "the case must have answers"
    if name == "right_nested_seq" and policy == "unrestricted":  # ?p2 projected away: acme 10 … 7 through 8 and 12
        assert any(n > 1 for bag in ep.values() for n in bag.values())
    for t in ep:  # as bags: a row as often as complex events give it
        assert ep[t] == Counter({a: n for a, n in rs[t].items() if a[2] == t}), t
        if policy == "unrestricted" and not consume:  # a policy keeps earlier events out of the full answer
            assert rs[t] == sum((ep[u] for u in ep if u <= t), Counter()), t


def test_printed_construct_gives_the_epsparql_triples(capsys, tmp_path):
    """CONSTRUCT prints triples without intervals: the RSEP-QL triples at t are those of every
    EP-SPARQL answer up to t."""
    (tmp_path / "s.stream").write_text(STOCK)
    rsep = tmp_path / "rsep.rq"
    rsep.write_text(printed(capsys, tmp_path, "CONSTRUCT ?c fell ?p2 WHERE { ?c hasStockPrice ?p1 } "
                                              "SEQ { ?c hasStockPrice ?p2 } FILTER (?p2 < ?p1)"))
    runs = []
    for query, stream in ((tmp_path / "ep.rq", "http://example.org/any"), (rsep, EVENT_STREAM)):
        code, out, err = cli(capsys, "run", query, "--stream", f"{stream}={tmp_path / 's.stream'}")
        assert code == 0, err
        runs.append({ev["t"]: set(ev["triples"]) for ev in map(json.loads, out.splitlines())})
    ep, rs = runs
    assert set(ep) == set(rs) and any(ep.values())
    for t in ep:
        assert rs[t] == {x for u in ep if u <= t for x in ep[u]}, t


def test_the_window_is_landmark_from_zero(capsys, tmp_path):
    """EP-SPARQL has no window: the printed query reads every event from time 0 on."""
    query = parse(printed(capsys, tmp_path, EXPRESSIBLE["figure1_seq"][0]))
    assert query.dialect == "rsepql" and query.events is not None
    [window] = query.events.windows
    assert (window.kind, window.start, window.stream.value) == ("landmark", 0, EVENT_STREAM)
    assert [e.window for e in query.events.events] == [window.name, window.name]


HEAD = "SELECT ?c\nWHERE { ?c hasStockPrice ?p1 }\n"
#: (query text, construct named in the error, line:column)
NOT_EXPRESSIBLE = [
    (HEAD + "  EQUALS { ?c hasStockPrice ?p2 }", "the EP-SPARQL event operator EQUALS", "3:3"),
    (HEAD + "  OPTIONALSEQ { ?c hasStockPrice ?p2 }", "the EP-SPARQL event operator OPTIONALSEQ", "3:3"),
    (HEAD + "  EQUALSOPTIONAL { ?c hasStockPrice ?p2 }", "the EP-SPARQL event operator EQUALSOPTIONAL", "3:3"),
    (HEAD + "  SEQ { ?c hasStockPrice ?p2 }\nFILTER (getDURATION() < 5)", "the EP-SPARQL function getDURATION()", "4:9"),
    (HEAD + "  SEQ { ?c hasStockPrice ?p2 }\nFILTER (getSTARTTIME() > 1)", "the EP-SPARQL function getSTARTTIME()", "4:9"),
    (HEAD + "  SEQ { ?c hasStockPrice ?p2 }\nWITHIN 5", "EP-SPARQL's WITHIN", "4:1"),
    (HEAD + "  UNION { ?c hasStockPrice ?p2 }", "UNION of event patterns", "3:3"),
    ("SELECT ?c\nWHERE { ?c hasStockPrice ?p1 .\n ?c hasRating ?r }\n SEQ { ?c hasStockPrice ?p2 }",
     "a group of 2 triple patterns", "3:5"),
    ("SELECT ?c\nWHERE { ?c hasStockPrice ?p1 FILTER (?p1 > 2) }\n SEQ { ?c hasStockPrice ?p2 }",
     "a FILTER inside an event operand", "2:30"),
    ("SELECT ?c\nWHERE { ?c hasStockPrice ?p1 }\n SEQ { ?c hasStock/price ?p2 }",
     "a property path (a join of events at any times)", "3:11"),
    ((DATA / "queries" / "epsparql" / "ep1.rq").read_text(), "the EP-SPARQL function getDURATION()", "8:10"),
    ((DATA / "queries" / "epsparql" / "ep2.rq").read_text(), "the EP-SPARQL event operator OPTIONALSEQ", "4:1"),
    ((DATA / "queries" / "epsparql" / "ep4.rq").read_text(), "a group of 3 triple patterns", "4:10"),
    ((DATA / "queries" / "epsparql" / "ep5.rq").read_text(), "the EP-SPARQL function getDURATION()", "14:10"),
    ("REGISTER RSTREAM <http://e/o> AS SELECT ?x FROM NAMED WINDOW <http://e/w> ON <http://e/s> [RANGE PT5S] "
     "WHERE { WINDOW <http://e/w> { ?x <http://e/p> ?y } }", "an RSP-QL query", "1:1"),
    ("SELECT ?x WHERE { STREAM <http://e/s> [RANGE 5s] { ?x <http://e/p> ?y } }", "a CQELS-QL query", "1:1"),
]


@pytest.mark.parametrize("text,construct,position", NOT_EXPRESSIBLE)
def test_constructs_without_counterpart_fail_by_name(capsys, tmp_path, text, construct, position):
    path = tmp_path / "q.rq"
    path.write_text(text)
    code, out, err = cli(capsys, "translate", path, "--to", "rsepql")
    assert code == 2 and out == ""
    assert "Traceback" not in err
    assert f"q.rq:{position}: {construct}" in err and "cannot be written in RSEP-QL" in err


def test_rsepql_to_other_dialects_is_a_named_error(capsys):
    code, _, err = cli(capsys, "translate", DATA / "rsepql" / "example4.rq", "--to", "rspql")
    assert code == 2 and "an RSEP-QL query (event patterns over windows) cannot be written in RSP-QL" in err


@pytest.mark.parametrize("path", sorted((DATA / "rsepql").glob("*.rq")), ids=lambda p: p.name)
def test_rsepql_printer_round_trips(capsys, tmp_path, path):
    query = parse(path.read_text())
    text = print_query(query)
    assert parse(text) == query
    assert print_query(parse(text)) == text
    code, out, err = cli(capsys, "translate", path, "--to", "query")
    assert code == 0 and out == text, err


def test_rsepql_printer_brackets_nested_event_expressions():
    text = ("SELECT ?x FROM NAMED <http://e/s> WIN [RANGE 5 STEP 2] AS <http://e/w>\n"
            "EVENT ON <http://e/w> { ?x <http://e/p> ?y } AS A\nEVENT ON <http://e/w> { ?y <http://e/q> ?z } AS B\n"
            "WHERE { MATCH { FIRST (A SEQ B) SEQ (LAST A SEQ B) } FILTER (?x != ?z) }")
    query = parse(text)
    printed_text = print_query(query)
    assert "MATCH { FIRST (A SEQ B) SEQ (LAST A SEQ B) }" in printed_text and "[RANGE 5 STEP 2]" in printed_text
    assert parse(printed_text) == query


@pytest.mark.parametrize("name", sorted(EXPRESSIBLE))
def test_printing_is_a_fixpoint_after_one_round_trip(capsys, tmp_path, name):
    once = printed(capsys, tmp_path, EXPRESSIBLE[name][0])
    assert print_query(parse(once)) == once
