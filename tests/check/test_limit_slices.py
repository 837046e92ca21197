"""Recorded answers of a query with LIMIT/OFFSET judged as slices (SPARQL 1.1 §15.1, §15.4–15.5;
docs/check.md, "LIMIT and OFFSET"): a recorded relation is correct when it is the slice of *some*
order of the whole relation consistent with the ORDER BY keys, so an engine may keep any of the
rows that tie where the slice cuts.

The oracle of the property test is the definition itself, computed here from the integer values of
``?v`` (the only key): the tie groups of the whole relation of the query without LIMIT/OFFSET; a
recorded relation that keeps other rows of a tie group is correct, one whose count of rows of some
group differs from the slice's is not.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import Literal, URIRef

from translator.agreement.answers import ActualRelation
from translator.agreement.check import as_actual, check
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

EX = "http://example.org/"
S = EX + "s"
INT = "<http://www.w3.org/2001/XMLSchema#integer>"
VALUES = {"a": 5, "b": 4, "c": 3, "d": 3, "e": 1}  # c and d tie on ?v
TOP3 = "ORDER BY DESC(?v) LIMIT 3"


def query(tmp_path, modifiers: str):
    q = tmp_path / "q.rq"
    q.write_text(f"REGISTER QUERY top AS SELECT ?o ?v FROM STREAM <{S}> [RANGE 10s STEP 10s] "
                 f"WHERE {{ ?o <{EX}value> ?v }} {modifiers}")
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'<{EX}{o}> <{EX}value> "{v}"^^{INT} "{i + 1}" .\n' for i, (o, v) in enumerate(VALUES.items())))
    return [str(q), "--stream", f"{S}={stream}", "--stream-time-unit", "s"]


def recorded(tmp_path, name: str, objects: str) -> str:
    path = tmp_path / f"{name}.jsonl"
    path.write_text(json.dumps({"t": 10, "answers": [{"o": f"<{EX}{o}>", "v": f'"{VALUES[o]}"^^{INT}'}
                                                     for o in objects]}) + "\n")
    return str(path)


def test_the_run_output_and_the_other_tie_choice_are_correct(cli, tmp_path):
    args = query(tmp_path, TOP3)
    code, out, err = cli("run", *args, "--profile", "csparql")
    assert code == 0, err
    (line,) = out.splitlines()
    assert sorted(a["o"] for a in json.loads(line)["answers"]) == [f"<{EX}a>", f"<{EX}b>", f"<{EX}c>"]
    run = tmp_path / "run.jsonl"
    run.write_text(out)
    for answers in (str(run), recorded(tmp_path, "other", "abd")):
        code, out, err = cli("check", *args, "--profile", "csparql", "--answers", answers)
        assert code == 0 and out.startswith("correct"), (out, err)


@pytest.mark.parametrize("objects, reason", [
    ("abe", "a row outside the top-3: ?o=<http://example.org/e> ?v=1 ranks after the rows it keeps"),
    ("ac", "a missing row: ?o=<http://example.org/b> ?v=4 ranks inside the top-3 and must be in it"),
    ("ac", "wrong number of rows: 2 recorded, the slice holds 3 of the 5 answers (LIMIT 3)"),
    ("abcd", "wrong number of rows: 4 recorded, the slice holds 3 of the 5 answers (LIMIT 3)"),
    ("ab", "too few of the 2 rows tied at the boundary of the top-3: 0 recorded, the slice keeps 1 of them"),
])
def test_a_wrong_slice_is_incorrect_with_the_reason(cli, tmp_path, objects, reason):
    code, out, err = cli("check", *query(tmp_path, TOP3), "--profile", "csparql",
                         "--answers", recorded(tmp_path, objects, objects))
    assert code == 1, err
    assert out.startswith("incorrect") and f"diagnosis: {reason}" in out, out


@pytest.mark.parametrize("objects, reasons", [
    ("abcc", ["wrong number of rows: 4 recorded, the slice holds 3 of the 5 answers (LIMIT 3)",
              "row (?o=<http://example.org/c> ?v=3) 2 times, expected 1"]),
    ("abb", ["too few of the 2 rows tied at the boundary of the top-3: 0 recorded, the slice keeps 1 of them",
             "row (?o=<http://example.org/b> ?v=4) 2 times, expected 1"]),
])
def test_a_slice_counts_its_duplicates(cli, tmp_path, objects, reasons):
    """A slice of a bag counts duplicates (SPARQL 1.1 §18.5, Slice over the sequence): a row written
    twice fills two places; compared as sets, the doubled row is one."""
    args = [*query(tmp_path, TOP3), "--profile", "csparql", "--answers", recorded(tmp_path, objects, objects)]
    code, out, err = cli("check", *args)
    assert code == 1, err
    for reason in reasons:
        assert f"diagnosis: {reason}" in out, out
    code, out, err = cli("check", *args, "--compare", "sets")
    assert code == (0 if objects == "abcc" else 1) and "relations compared as sets" in out, (out, err)


def test_offset_keeps_any_tied_row_after_the_offset(cli, tmp_path):
    args = query(tmp_path, "ORDER BY DESC(?v) OFFSET 1 LIMIT 2")
    for objects in ("bc", "bd"):
        code, out, _ = cli("check", *args, "--profile", "csparql", "--answers", recorded(tmp_path, objects, objects))
        assert code == 0, out
    code, out, _ = cli("check", *args, "--profile", "csparql", "--answers", recorded(tmp_path, "ab", "ab"))
    assert code == 1 and "a row outside the slice: ?o=<http://example.org/a> ?v=5 ranks before the rows it keeps" in out


def test_without_order_by_any_rows_of_the_right_number_are_correct(cli, tmp_path):
    args = query(tmp_path, "LIMIT 2")
    for objects in ("ab", "ce", "de", "ae"):
        code, out, _ = cli("check", *args, "--profile", "csparql", "--answers", recorded(tmp_path, objects, objects))
        assert code == 0, (objects, out)
    code, out, _ = cli("check", *args, "--profile", "csparql", "--answers", recorded(tmp_path, "abc", "abc"))
    assert code == 1 and "wrong number of rows: 3 recorded, the slice holds 2 of the 5 answers (LIMIT 2)" in out


def test_infer_finds_the_profile_of_another_tie_choice(cli, tmp_path):
    report = tmp_path / "infer.json"
    code, out, err = cli("check", *query(tmp_path, TOP3), "--infer", "--answers", recorded(tmp_path, "abd", "abd"),
                         "--json", report)
    assert code == 0, err
    assert out.startswith("explained") and "csparql (t0 = 0)" in out
    assert "LIMIT/OFFSET under ISTREAM: which tied rows an engine keeps is not recorded by its deltas" in out


def test_agree_names_two_tie_choices_as_such(cli, tmp_path):
    report = tmp_path / "agree.json"
    code, out, err = cli("agree", *query(tmp_path, TOP3), "--answers", recorded(tmp_path, "abc", "abc"),
                         "--answers", recorded(tmp_path, "abd", "abd"), "--report", report)
    assert code == 1, err  # the outputs differ (as under a difference of profile); neither is wrong
    (row,) = json.loads(report.read_text())["timeline"]
    assert row["verdict"] == "disagree" and row["cause"] == "a tie choice"
    assert "neither engine is wrong" in out
    # every window closes (no observation horizon): a horizon at the last element explains B's relation
    # at 10 as badly, by a report that is not due
    code, out, err = cli("agree", *query(tmp_path, TOP3), "--answers", recorded(tmp_path, "abc", "abc"),
                         "--answers", recorded(tmp_path, "abe", "abe"), "--report", report, "--horizon", "none")
    (row,) = json.loads(report.read_text())["timeline"]
    assert row["cause"] == "at least one engine is wrong" and "B is wrong" in out and "a row outside the top-3" in out


@pytest.mark.parametrize("options, name", [(["--profile", "cqels"], "LIMIT/OFFSET under ISTREAM"),
                                           (["--profile", "csparql", "--r2s", "dstream"], "LIMIT/OFFSET under DSTREAM"),
                                           (["--profile", "csparql", "--ignore-timestamps"],
                                            "LIMIT/OFFSET with --ignore-timestamps")])
def test_what_stays_unjudged_is_refused_by_name(cli, tmp_path, options, name):
    code, out, err = cli("check", *query(tmp_path, TOP3), *options, "--answers", recorded(tmp_path, "abc", "abc"))
    assert code == 2 and name in err and "Traceback" not in err and out == ""


# ------------------------------------------------------------------------------------ property test

OBJECTS = [f"{EX}o{i}" for i in range(6)]


def evaluator(stream, modifiers: str) -> Evaluator:
    q = parse(f"SELECT ?o ?v WHERE {{ STREAM <{S}> [RANGE 3s SLIDE 2s] {{ ?o <{EX}value> ?v }} }} {modifiers}",
              "cqels")
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    elements = [StreamElement((URIRef(o), URIRef(EX + "value"), Literal(v)), t, URIRef(S)) for o, v, t in stream]
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


def value(binding: frozenset) -> int:
    return int(float(dict(binding)["v"][1]))


def groups(full: frozenset, descending: bool) -> list[list]:
    """The whole relation's rows grouped by ?v, in ORDER BY order (the oracle's tie groups)."""
    by: dict[int, list] = {}
    for b in full:
        by.setdefault(value(b), []).append(b)
    return [sorted(by[v], key=repr) for v in sorted(by, reverse=descending)]


def needed(full: frozenset, descending: bool, offset: int, limit: int) -> list[tuple[list, int]]:
    """Each tie group with the number of its rows the slice [offset, offset + limit) keeps."""
    out, position = [], 0
    for g in groups(full, descending):
        first, position = position, position + len(g)
        out.append((g, max(0, min(offset + limit, position) - max(offset, first))))
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(OBJECTS), st.integers(0, 3), st.integers(0, 6)), min_size=1, max_size=10),
       st.booleans(), st.integers(0, 2), st.integers(1, 3), st.randoms(use_true_random=False),
       st.sampled_from(["swap", "drop", "add"]))
def test_run_output_permuted_within_ties_is_correct_and_a_corruption_is_not(stream, descending, offset, limit, rng,
                                                                             corruption):
    order = f"ORDER BY {'DESC(?v)' if descending else '?v'} OFFSET {offset} LIMIT {limit}"
    op = PROFILES["csparql"].params
    ev = evaluator(stream, order)
    run = ev.relations(op)
    whole = {r.t: frozenset(b for a in as_actual([r], ev.variables) for b in a.bindings)
             for r in evaluator(stream, "").relations(op)}
    permuted, corrupted, corruptible = [], [], False
    for a in as_actual(run, ev.variables):
        full = whole[a.t]
        parts = needed(full, descending, offset, limit)
        assert all(sum(1 for b in a.bindings if b in g) == k for g, k in parts)  # the run's slice is one allowed
        # the engine's choice: any k rows of each tie group
        chosen = frozenset(b for g, k in parts for b in rng.sample(g, k))
        permuted.append(ActualRelation(a.t, a.t, chosen, 0))
        kept, dropped = sorted(chosen, key=repr), sorted(full - chosen, key=repr)
        bad = chosen
        if not corruptible and corruption == "swap":
            pairs = [(x, y) for x in kept for y in dropped if value(x) != value(y)]
            if pairs:
                x, y = rng.choice(pairs)
                bad, corruptible = (chosen - {x}) | {y}, True
        elif not corruptible and corruption == "drop" and kept:
            bad, corruptible = chosen - {rng.choice(kept)}, True
        elif not corruptible and corruption == "add" and dropped:
            bad, corruptible = chosen | {rng.choice(dropped)}, True
        corrupted.append(ActualRelation(a.t, a.t, bad, 0))
    for early_stop in (True, False):  # the early stop judges as the whole evaluation does
        verdict = check(evaluator(stream, order), permuted, op, t0_fixed=True, other_profiles=False,
                        early_stop=early_stop)
        assert verdict.correct, verdict.report.get("mismatch")
    if corruptible:
        verdict = check(evaluator(stream, order), corrupted, op, t0_fixed=True, other_profiles=False)
        assert not verdict.correct
        assert not check(evaluator(stream, order), corrupted, op, t0_fixed=True, other_profiles=False,
                         early_stop=False).correct
        diagnosis = " ".join(verdict.report["mismatch"]["diagnosis"])
        assert re.search(r"wrong number of rows|a row outside|a missing row|too few of the", diagnosis), diagnosis
