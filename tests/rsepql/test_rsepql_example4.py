"""RSEP-QL (Dell'Aglio, Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016): its Example 4 read and
run through the CLI on the running example's stream (Figure 1, rebuilt from the timestamps of
Examples 7–11: ``tests/data/epsparql/rsepql_figure1.stream``), at the evaluation times ET = {8, 10} of its
§2, under every selection and consumption policy the paper prints results for.

Example 4 prints ``[LND 9]`` where Example 3 — whose windows Example 4 says it uses — has the
landmark ``W^lnd[(1)]``, and every later example needs the item at 2 in w1: the results are run on
``example4_landmark1.rq`` (Example 4 with ``[LND 1]``); the text as printed is read too, and with
t0 = 9 its w1 holds nothing before 9, so nothing matches (tested below).

Named results (event mappings of E1 SEQ E2, x/y/z and the interval):
A = (a1,b1,c1; 2,6), B = (a2,b2,c2; 4,6), C = (a2,b2,c2; 4,8), D = (a1,b1,c1; 2,10).
Example 8 prints C's sibling as (a2,b2,c2; 6,8): the E1 match is at 4, so it is B = (4,6), as its
Example 10 (SEQ^c) confirms.
"""

from __future__ import annotations

import json
from pathlib import Path


from translator.cli import main
from translator.query import model as M
from translator.query.parse import parse

DATA = Path(__file__).resolve().parents[1] / "data" / "rsepql"
NS = "http://rsplars.invalid/bare#"
STREAM = f"{NS}S={DATA.parent / 'epsparql' / 'rsepql_figure1.stream'}"
A = ("a1", "c1", 2, 6)
B = ("a2", "c2", 4, 6)
C = ("a2", "c2", 4, 8)
D = ("a1", "c1", 2, 10)


def run(capsys, query: str | Path, *options: str) -> dict[int, set[tuple]]:
    code = main(["run", str(query), "--stream", STREAM, *options])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = {}
    for line in out.splitlines():
        record = json.loads(line)
        result[record["t"]] = {(a["x"][len(NS) + 1:-1], a["z"][len(NS) + 1:-1], a["@start"], a["@end"])
                               for a in record["answers"]}
    return result


def test_example_4_as_printed_is_read():
    """Example 4, verbatim: two windows over :S, two basic event patterns, MATCH { E1 SEQ E2 }."""
    query = parse((DATA / "example4.rq").read_text(), source="example4.rq")
    assert query.dialect == "rsepql"
    assert query.events is not None
    w1, w2 = query.events.windows
    assert (w1.name, w1.stream, w1.kind, w1.start) == (M.IRI(NS + "w1"), M.IRI(NS + "S"), "landmark", 9)
    assert (w2.name, w2.kind, w2.width, w2.slide) == (M.IRI(NS + "w2"), "range", 5, 1)
    e1, e2 = query.events.events
    assert (e1.name, e1.window, e2.name, e2.window) == ("E1", M.IRI(NS + "w1"), "E2", M.IRI(NS + "w2"))
    assert e1.pattern.triples == (M.TriplePattern(M.Var("x"), M.IRI(NS + "p"), M.Var("y")),)
    (match,) = query.where.parts
    assert match == M.MatchPattern(M.EventPattern("SEQ", M.EventRef("E1"), M.EventRef("E2")))
    assert query.form == M.Select((M.Var("x"), M.Var("z")))


def test_example_4_as_printed_has_nothing_before_its_landmark(capsys):
    """[LND 9]: w1 holds the items from 9 on, so no E1 match precedes an E2 match at 8 or 10."""
    assert run(capsys, DATA / "example4.rq", "--at", "8,10") == {8: set(), 10: set()}


def test_unrestricted_examples_8_9_and_section_2(capsys):
    """Example 8 (corrected) at 8: {A, B, C}; MATCH drops the intervals (Example 9: the mappings
    a1-b1-c1 and a2-b2-c2). §2: the unrestricted setting at 10 adds D (e_4)."""
    result = run(capsys, DATA / "example4_landmark1.rq", "--at", "8,10")
    assert result == {8: {A, B, C}, 10: {A, B, C, D}}
    assert {(x, z) for x, z, _, _ in result[8]} == {("a1", "c1"), ("a2", "c2")}


def test_selection_chronological_example_10(capsys):
    assert run(capsys, DATA / "example4_landmark1.rq", "--at", "8", "--selection", "chronological") == {8: {A, B}}


def test_selection_recent_example_10(capsys):
    assert run(capsys, DATA / "example4_landmark1.rq", "--at", "8", "--selection", "recent") == {8: {A, C}}


def test_chronological_consumption_example_11(capsys):
    """Example 11: SEQ^c with P^c consumes G_1, G_2, G_3 at 8; at 10 (:b1 :q :c1) finds no
    (:a1 :p :b1) left."""
    result = run(capsys, DATA / "example4_landmark1.rq", "--at", "8,10",
                 "--selection", "chronological", "--consumption", "chronological")
    assert result == {8: {A, B}, 10: set()}


def test_recent_consumption_section_2(capsys):
    """§2: the recent setting gives e_2, e_3 (A, C) at 8 and nothing at 10."""
    result = run(capsys, DATA / "example4_landmark1.rq", "--at", "8,10", "--selection", "recent",
                 "--consumption", "recent")
    assert result == {8: {A, C}, 10: set()}


def test_content_change_evaluates_on_every_item(capsys):
    """Without --at, ET is every time point with an item (content change, §3.4); A and B exist
    from 6 on."""
    result = run(capsys, DATA / "example4_landmark1.rq")
    assert result == {2: set(), 4: set(), 6: {A, B}, 8: {A, B, C}, 10: {A, B, C, D}}


def test_translate_to_lars_gives_the_windows(capsys):
    """The basic event patterns become LARS rules: W^lnd[(1)] is ⊞^∞ with T ≥ 1, W^tau[(5,1)]
    (left-open (t−5, t]) is ⊞^4."""
    from lars.model import ALL, Comparison, TimeWindow, WindowAt
    from lars.syntax import parse_program

    assert main(["translate", str(DATA / "example4_landmark1.rq"), "--to", "lars"]) == 0
    program = parse_program(capsys.readouterr().out)
    by_head = {r.head.predicate: r for r in program.rules}
    assert set(by_head) == {"bep1", "bep2"}
    w1 = [b.atom.window for b in by_head["bep1"].body if hasattr(b, "atom") and isinstance(b.atom, WindowAt)]
    w2 = [b.atom.window for b in by_head["bep2"].body if hasattr(b, "atom") and isinstance(b.atom, WindowAt)]
    assert w1 == [ALL] and w2 == [TimeWindow(4, 0, 1)]
    assert any(isinstance(b, Comparison) and b.op == ">=" for b in by_head["bep1"].body)


def test_clingo_engine_gives_the_same_answers(capsys):
    """The LARS program of the basic event patterns run by clingo (``--lars-engine asp``)."""
    result = run(capsys, DATA / "example4_landmark1.rq", "--at", "8,10", "--lars-engine", "asp")
    assert result == {8: {A, B, C}, 10: {A, B, C, D}}


def test_after_the_last_item_example_5(capsys):
    """At 12 w2 = W^tau[(5,1)] holds the items at 8 and 10 (Example 5): the E2 matches at 6 are out,
    so A and B are gone and C, D remain."""
    assert run(capsys, DATA / "example4_landmark1.rq", "--at", "12") == {12: {C, D}}
