"""``check`` and ``check --infer`` stop evaluating a candidate at its first mismatch
(``translator.agreement.early_stop``, docs/check.md §8).

* for random queries, streams and outputs (a profile's own output, the same with one relation
  dropped, added, changed or moved), the verdict and the whole report of ``check`` — and the
  correct settings, explanation and closest settings of ``infer`` — are those of the evaluation of
  every candidate to the end (``early_stop=False``, the oracle here), with blocks of one report or
  of a few, so that many block ends are crossed;
* for an output that differs early, the evaluator answers far fewer reports than the full
  evaluation does (counted through the evaluator);
* the pieces: blocks end after every report of an instant; R2S block by block equals R2S at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import URIRef

from test_check_property import NODES, make_evaluator
from translator.agreement import early_stop
from translator.agreement.check import as_actual, check
from translator.agreement.early_stop import R2SStream, block_ends
from translator.agreement.inference import infer, parameter_space
from translator.cli.commands.check import summary
from translator.evaluate.operational import Evaluator, apply_r2s
from translator.evaluate.profiles import PROFILES
from translator.evaluate.report_policy import Report
from translator.rdf.bags import Bag
from translator.rdf.streams import StreamElement

EX = "http://example.org/"


def without_counts(report: dict) -> dict:
    """A report without what early stopping changes on purpose: the evaluation counts."""
    return {k: v for k, v in report.items() if k not in ("evaluation", "solver_runs")}


@st.composite
def cases(draw):
    n = draw(st.integers(1, 14))
    stream = [(draw(st.sampled_from(NODES)), draw(st.sampled_from([f"<{EX}p>", f"<{EX}q>"])),
               draw(st.sampled_from(NODES)), draw(st.integers(0, draw(st.sampled_from([8, 24]))))) for _ in range(n)]
    stream.sort(key=lambda e: e[3])
    alpha = draw(st.integers(1, 4))
    beta = draw(st.integers(1, alpha))
    query = draw(st.sampled_from(["pattern", "join"]))
    producer = draw(st.sampled_from(sorted(PROFILES)))
    judge = draw(st.sampled_from(sorted(PROFILES)))
    t0 = draw(st.integers(0, max(beta - 1, alpha)))
    change = draw(st.sampled_from(["none", "drop", "add", "move", "empty", "double"]))
    where = draw(st.integers(0, 50))
    block = draw(st.sampled_from([1, 2, 3]))
    indexed = draw(st.booleans())
    return stream, alpha, beta, query, producer, judge, t0, change, where, block, indexed


def evaluators(stream, alpha, beta, query, indexed: bool):
    """Two evaluators of the case (one for each run), keyed by window content or — ``indexed`` false —
    solved per window-width vector (the way of queries without a content index)."""
    out = []
    for _ in range(2):
        ev, variables = make_evaluator(stream, alpha, beta, query)
        if not indexed:
            ev.contents_index = None
        out.append(ev)
    return out[0], out[1], variables


def changed(output, change: str, where: int):
    """The output with one relation dropped, added (a copy of another one, later), moved one instant
    later, emptied, or with each of its rows written twice (a bag)."""
    out = list(output)
    if change == "none" or not out:
        return out
    i = where % len(out)
    a = out[i]
    if change == "drop":
        del out[i]
    elif change == "add":
        out.append(replace(a, t=a.t + 1 + where % 3))
    elif change == "move":
        out[i] = replace(a, t=a.t + 1)
    elif change == "double":
        out[i] = replace(a, bindings=a.bindings + a.bindings)
    else:
        out[i] = replace(a, bindings=Bag())
    return sorted(out, key=lambda r: r.t)


def judged_output(case):
    """The evaluators of a case (early stop and full) and the output to judge: the producing
    profile's own output, changed as the case says."""
    stream, alpha, beta, query, producer, _, t0, change, where, _, indexed = case
    ev, full_ev, variables = evaluators(stream, alpha, beta, query, indexed)
    output = changed(as_actual(ev.relations(replace(PROFILES[producer].params, t0=(t0,))), variables), change, where)
    return ev, full_ev, variables, output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_check_with_early_stop_reports_what_the_full_evaluation_reports(case):
    ev, full_ev, variables, output = judged_output(case)
    judge, block = case[5], case[9]
    op = PROFILES[judge].params
    full = check(full_ev, output, op, early_stop=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(early_stop, "FIRST_BLOCK", block)
        early = check(ev, output, op)
    assert early.correct == full.correct
    assert without_counts(early.report) == without_counts(full.report)
    assert early.report["evaluation"]["reports_evaluated"] <= full.report["evaluation"]["reports_evaluated"]
    if not early.correct:  # the closest t0: the most timestamps that agree minus those that differ, then the smallest
        def merged(actual):  # relations at one timestamp added up, as check compares bags
            out: dict[int, Counter] = {}
            for a in actual:
                out[a.t] = out.get(a.t, Counter()) + Counter(iter(a.bindings))
            return out

        h = early.report["comparison"]["horizon"]
        recorded = {t: rel for t, rel in merged(output).items() if t <= h or rel}

        def closeness(z):
            rels = as_actual(ev.relations(replace(op, t0=tuple(z)), None, h), variables)
            expected = merged(rels)
            times = set(expected) | set(recorded)
            return sum(1 if expected.get(t) == recorded.get(t) else -1 for t in times)

        tried = early.report["t0_tried"]
        assert early.report["closest_t0"] == max(tried, key=lambda z: (closeness(z), [-x for x in z]))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_inference_with_early_stop_finds_what_the_full_evaluation_finds(case):
    ev, full_ev, _, output = judged_output(case)
    block = case[9]
    full = infer(full_ev, output, parameter_space(full_ev, cc_mode="arrivals"), early_stop=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(early_stop, "FIRST_BLOCK", block)
        early = infer(ev, output, parameter_space(ev, cc_mode="arrivals"))
    assert early.correct == full.correct
    assert {k: v for k, v in early.as_dict().items() if k != "evaluation"} == \
        {k: v for k, v in full.as_dict().items() if k != "evaluation"}
    assert early.evaluation["reports_evaluated"] <= full.evaluation["reports_evaluated"]


# ------------------------------------------------------------------ evaluations really skipped


class CountingEvaluator(Evaluator):
    """Counts the reports whose R2R answers ``check`` asks for."""

    answered = 0

    def answers(self, reports):
        self.answered += len(reports)
        return super().answers(reports)


def long_stream_evaluator(n: int = 400) -> CountingEvaluator:
    ev, _ = make_evaluator([], 3, 1, "pattern")  # the compiled query of a window of 3 s sliding by 1 s
    p = URIRef(EX + "p")
    elements = [StreamElement((URIRef(EX + f"s{t % 7}"), p, URIRef(EX + "o")), t, URIRef(EX + "s")) for t in range(n)]
    return CountingEvaluator(ev.query, ev.strategy, ev.base, elements)


def test_an_output_that_differs_early_is_judged_without_evaluating_every_report():
    op = replace(PROFILES["csparql"].params, t0=(0,))
    ev = long_stream_evaluator()
    output = as_actual(ev.relations(op), ev.variables)
    wrong = output[:5] + [replace(output[5], bindings=frozenset())] + output[6:]  # t0 = 0's, its 6th relation emptied
    ev_full, ev_early = long_stream_evaluator(), long_stream_evaluator()
    full = check(ev_full, wrong, PROFILES["csparql"].params, other_profiles=False, early_stop=False)
    early = check(ev_early, wrong, PROFILES["csparql"].params, other_profiles=False)
    assert not early.correct and without_counts(early.report) == without_counts(full.report)
    assert early.report["mismatch"]["timestamp"] == output[5].t and early.report["closest_t0"] == [0]
    planned = full.report["evaluation"]["reports_planned"]
    assert full.report["evaluation"]["reports_evaluated"] == planned
    # t0 = 0 (the closest) to the end; the other candidates differ almost everywhere and stop after
    # their first block (the diagnosis then evaluates t0 = 0's reports once more in both runs)
    assert early.report["evaluation"]["reports_evaluated"] < planned / 2
    assert ev_early.answered < ev_full.answered / 2
    assert all(t is not None for t in early.report["evaluation"]["stopped_at"][1:])


def test_inference_of_an_output_that_differs_early_skips_most_reports():
    ev = long_stream_evaluator(200)
    output = as_actual(ev.relations(replace(PROFILES["csparql"].params, t0=(0,))), ev.variables)
    wrong = output[:5] + [replace(output[5], bindings=frozenset())] + output[6:]
    space = parameter_space(ev, report=frozenset({"window-close"}), cc_mode="arrivals", tick="time")
    early = infer(ev, wrong, space)
    assert not early.explained
    assert early.evaluation["reports_evaluated"] < early.evaluation["reports_planned"] / 2
    assert early.evaluation["settings_stopped_early"] > 0


def test_a_verdict_only_judgement_is_the_verdict_without_ranking_or_diagnosis():
    """The probes of other profiles ask for the verdict only; a user's judgement gets the whole report."""
    ev = long_stream_evaluator(100)
    output = as_actual(ev.relations(replace(PROFILES["csparql"].params, t0=(0,))), ev.variables)
    wrong = output[:5] + [replace(output[5], bindings=frozenset())] + output[6:]
    op = PROFILES["csparql"].params
    quick = check(ev, wrong, op, other_profiles=False, verdict_only=True)
    whole = check(ev, wrong, op, other_profiles=False)
    assert not quick.correct and not whole.correct
    assert "mismatch" not in quick.report and "closest_t0" not in quick.report and "mismatch" in whole.report
    assert check(ev, output, op, other_profiles=False, verdict_only=True).correct


def test_the_summary_says_how_many_reports_were_evaluated():
    ev = long_stream_evaluator(200)
    output = as_actual(ev.relations(replace(PROFILES["csparql"].params, t0=(0,))), ev.variables)
    wrong = output[:5] + [replace(output[5], bindings=frozenset())] + output[6:]
    report = check(ev, wrong, PROFILES["csparql"].params, other_profiles=False).report
    e = report["evaluation"]
    assert f"stopped early: {e['reports_evaluated']} of {e['reports_planned']} planned reports evaluated" in summary(report)
    full = check(long_stream_evaluator(200), wrong, PROFILES["csparql"].params, other_profiles=False, early_stop=False)
    assert "stopped early" not in summary(full.report)


# ------------------------------------------------------------------------------------ pieces


def test_blocks_end_after_every_report_of_their_last_instant():
    times = [0, 1, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10]
    ends = block_ends(times, 2)
    assert ends[-1] == len(times) and ends == sorted(ends)
    for e in ends[:-1]:
        assert times[e - 1] != times[e]
    assert block_ends([], 2) == []
    assert block_ends([5, 5, 5], 1) == [3]


@pytest.mark.parametrize("r2s", ["rstream", "istream", "dstream"])
@pytest.mark.parametrize("empty", ["emit", "skip"])
def test_r2s_block_by_block_equals_r2s_at_once(r2s, empty):
    rows = [frozenset(), frozenset({("a",)}), frozenset({("a",)}), frozenset({("b",)}), frozenset(), frozenset({("b",)})]
    answered = [(Report(t, ((0, t),), True), r) for t, r in enumerate(rows)]
    whole = apply_r2s(answered, r2s, empty)
    for size in (1, 2, 4):
        stream = R2SStream(r2s, empty)
        parts = []
        for i in range(0, len(answered), size):
            parts += stream.extend(answered[i:i + size])
        assert [(r.t, r.rows) for r in parts] == [(r.t, r.rows) for r in whole]
