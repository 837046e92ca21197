"""Two engines' recorded outputs of one query on one input, compared interval by interval
(``rsplars agree QUERY --stream … --answers A --answers B``).

Intervals ``[i·U, (i+1)·U]``, i ≥ 0, as in Dao-Tran, Beck, Eiter 2015, §5 (U: ``--period``, else the
query's COMPUTED EVERY or window STEP, D4 in docs/decisions.md); a relation at t belongs to the
interval ending at or after t, ``(i·U, (i+1)·U]`` (so a relation at 0 belongs to none: it is counted
as unjudged, as in :mod:`translator.agreement.verdicts`). Two readings of each interval:

* **in total** — Dao-Tran, Beck, Eiter 2015, §5: the engines agree on ``[t1, t2]`` when their total
  outputs on ``(t1, t2]`` coincide. For a pull engine that reports at t2 only, its total is its
  answer at t2, which is the paper's definition; here both sides are the union of the relations of
  the interval (as bags the multiset union ∪, a row as often as one relation has it most), since
  either engine may report several times in an interval;
* **timed** — the report-policy-aware reading of Dell'Aglio et al. 2014 (Definitions 23–25): an
  answer is the set of pairs (μ, t) at the engine's evaluation times, so the outputs agree on the
  interval when they report the same relations at the same times (relations at one timestamp
  merged, terms compared as :func:`translator.agreement.check.check` compares them).

Relations are compared as **bags** by default (an engine answers bags, SPARQL 1.1 §18.1.6: merged
relations add up), or as **sets** (``compare="sets"``: the paper's definition is over sets of
mappings; merged relations unite), :mod:`translator.agreement.multisets`; the report names the view.

An interval *agrees* when both readings do, *agrees in total* when only the first does, and
*disagrees* otherwise. For the intervals that do not agree, profile inference on each output
(:mod:`translator.agreement.inference`) tells the cause: an output that is correct under no setting
is wrong (its closest setting's first mismatch and diagnosis are named); when both are correct under
some setting, the difference of profile is named — the parameters in which the two closest correct
settings differ, and which of them alone makes A's expected output agree with B's on the interval.
For a query with LIMIT/OFFSET, two outputs correct under the same setting that differ keep different
rows among those tied on ORDER BY where the slice cuts them: the cause is *a tie choice*
(:mod:`translator.agreement.slices`), not an engine being wrong.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from lars.errors import RsplarsError
from translator.agreement.check import ActualRelation, show_relation
from translator.agreement.multisets import BAGS, View, view_of
from translator.agreement.inference import (
    PARAMETERS,
    Inference,
    KeyedRelations,
    Setting,
    Space,
    infer,
    merged,
    show_value,
)
from translator.agreement.slices import slicing
from translator.agreement.verdicts import judged_intervals
from translator.evaluate.operational import Evaluator
from translator.rdf.bags import Bag

#: correct settings of each side compared pairwise for the closest pair (the earliest in the space)
MAX_PAIRED = 400


def timed(actual: Sequence[ActualRelation], source: str, view: View = BAGS) -> dict[int, Bag]:
    """An output as ``{t: relation}`` (relations at one timestamp merged in ``view``)."""
    if any(a.t is None for a in actual):
        raise RsplarsError(f"{source}: a relation without a timestamp; two outputs are compared interval by interval "
                           "and need their timestamps")
    return merged(((a.t, a.bindings) for a in actual if a.t is not None), view)


def interval_readings(a: dict[int, Bag], b: dict[int, Bag], t1: int, t2: int,
                      view: View = BAGS) -> tuple[bool, bool]:
    """(agree in total, agree timed) on ``[t1, t2]`` (module docstring)."""
    a_in = {t: rel for t, rel in a.items() if t1 < t <= t2}
    b_in = {t: rel for t, rel in b.items() if t1 < t <= t2}
    total = view.total(a_in.values()) == view.total(b_in.values())
    return total, a_in == b_in


def closest_pair(a: Inference, b: Inference) -> tuple[Setting, Setting] | None:
    """The correct settings of A and of B that differ in the fewest parameters (then the earliest)."""
    if not a.correct or not b.correct:
        return None
    best = None
    for sa in a.correct[:MAX_PAIRED]:
        for sb in b.correct[:MAX_PAIRED]:
            d = sum(sa.value(p) != sb.value(p) for p in PARAMETERS)
            if best is None or d < best[0]:
                best = (d, sa, sb)
    assert best is not None
    return best[1], best[2]


def profile_difference(a: Inference, b: Inference) -> dict:
    """The parameters whose values under A's correct settings and B's never meet."""
    out = {}
    for p in PARAMETERS:
        va = {s.value(p) for s in a.correct}
        vb = {s.value(p) for s in b.correct}
        if va and vb and not va & vb:
            space = a.space.values(p)
            out[p] = {"a": [show_value(p, v) for v in space if v in va], "b": [show_value(p, v) for v in space if v in vb]}
    return out


def compare_recorded(evaluator: Evaluator, actual_a: Sequence[ActualRelation], actual_b: Sequence[ActualRelation],
                     space: Space, *, period: int, start: int | None = None, end: int | None = None,
                     sources: tuple[str, str] = ("A", "B"), max_tuple_evaluations: int = 1000,
                     compare: View | str = BAGS) -> dict:
    """The interval-by-interval comparison of two recorded outputs with its causes (module docstring),
    as the JSON report of ``rsplars agree --answers A --answers B``; ``compare``: relations as
    ``bags`` (default) or ``sets``."""
    view = view_of(compare)
    if period < 1:
        raise RsplarsError(f"the period must be positive, got {period}")
    a, b = timed(actual_a, sources[0], view), timed(actual_b, sources[1], view)
    lo = 0 if start is None else start
    last = max([*a, *b, lo])
    hi = end if end is not None else -(-last // period) * period
    intervals = judged_intervals(period, lo, hi)
    inf_a = infer(evaluator, actual_a, space, end=None, max_tuple_evaluations=max_tuple_evaluations, closest=1,
                  compare=view)
    inf_b = infer(evaluator, actual_b, space, end=None, max_tuple_evaluations=max_tuple_evaluations, closest=1,
                  compare=view)
    pair = closest_pair(inf_a, inf_b)
    keyed = KeyedRelations(evaluator, view)
    rows = []
    for i, t1, t2 in intervals:
        total, same = interval_readings(a, b, t1, t2, view)
        row = {"index": i, "start": t1, "end": t2,
               "verdict": "agree" if total and same else "agree in total" if total else "disagree",
               "a_times": sorted(t for t in a if t1 < t <= t2), "b_times": sorted(t for t in b if t1 < t <= t2),
               "a": show_relation(view.total(a[t] for t in a if t1 < t <= t2)),
               "b": show_relation(view.total(b[t] for t in b if t1 < t <= t2))}
        if not (total and same):
            row.update(_cause(inf_a, inf_b, pair, b, keyed, t1, t2, total, slicing(evaluator), view))
        rows.append(row)
    judged = {t for _, t1, t2 in intervals for t in (*a, *b) if t1 < t <= t2}
    agreeing = sum(r["verdict"] == "agree" for r in rows)
    in_total = sum(r["verdict"] != "disagree" for r in rows)
    report = {
        "agree": in_total == len(rows),
        "compare": view.name,
        "period": period, "start": lo, "end": hi,
        "intervals": len(rows), "agreeing": agreeing, "agreeing_in_total": in_total,
        "first_disagreement": next((r["index"] for r in rows if r["verdict"] != "agree"), None),
        "unjudged_times": sorted({*a, *b} - judged),
        "outputs": {key: _side(src, actual, inf) for key, src, actual, inf in
                    (("a", sources[0], actual_a, inf_a), ("b", sources[1], actual_b, inf_b))},
        "timeline": rows,
    }
    if inf_a.explained and inf_b.explained:
        report["profile_difference"] = profile_difference(inf_a, inf_b)
    if pair is not None:
        report["closest_pair"] = {"a": pair[0].as_dict(), "b": pair[1].as_dict(),
                                  "differ_in": [p for p in PARAMETERS if pair[0].value(p) != pair[1].value(p)]}
    return report


def _side(source: str, actual: Sequence[ActualRelation], inf: Inference) -> dict:
    out = {"answers": source, "relations": len(actual), "explained": inf.explained,
           "correct_settings": len(inf.correct), "searched": inf.searched, "explanation": inf.summary(),
           "profiles": inf.profiles()}
    if inf.closest:
        out["closest"] = inf.closest[0]
    if inf.unsearched:
        out["not_searched"] = inf.unsearched
    return out


def _cause(inf_a: Inference, inf_b: Inference, pair, b: dict[int, Bag], keyed: KeyedRelations, t1: int, t2: int,
           total: bool, sliced: bool = False, view: View = BAGS) -> dict:
    wrong = [(src, inf) for src, inf in (("A", inf_a), ("B", inf_b)) if not inf.explained]
    if wrong:
        parts = []
        for src, inf in wrong:
            text = f"{src} is wrong: its output is correct under no setting ({inf.searched} searched)"
            m = (inf.closest[0].get("mismatch") or {}) if inf.closest else {}
            t = m.get("timestamp")
            if t is not None:
                where = "in this interval" if t1 < t <= t2 else "outside this interval"
                text += f"; its first mismatch under the closest setting is at t = {t}, {where}"
                if m.get("diagnosis"):
                    text += f": {m['diagnosis'][0]}"
            parts.append(text)
        return {"cause": "at least one engine is wrong", "explanation": parts, "explained_by": []}
    assert pair is not None
    sa, sb = pair
    differ = [p for p in PARAMETERS if sa.value(p) != sb.value(p)]
    alone = []
    b_in = {t: rel for t, rel in b.items() if t1 < t <= t2}
    for p in differ:
        s = replace(sa, **{p: sb.value(p)})
        rels = inf_a.expected.get(s)
        if rels is None:
            continue
        e_in = merged(((r.t, keyed(r.rows)) for r in rels if t1 < r.t <= t2), view)
        same = (view.total(e_in.values()) == view.total(b_in.values())) if not total else e_in == b_in
        if same:
            alone.append(p)
    if sliced and not differ:
        return {"cause": "a tie choice",
                "explanation": ["both outputs are correct under the same setting: the engines kept different rows "
                                "among those that tie on ORDER BY where LIMIT/OFFSET cuts them (SPARQL 1.1 §15.1 "
                                "leaves their order undefined, §15.4–15.5 slice it); neither engine is wrong"],
                "explained_by": []}
    names = ", ".join(f"{p} (A: {sa.as_dict()[p]}, B: {sb.as_dict()[p]})" for p in differ)
    text = (f"a difference of profile: both outputs are correct, under settings that differ in {names}"
            if differ else "both outputs are correct under the same setting (they differ in terms check "
                           "compares as equal)")
    if alone:
        text += f"; {' or '.join(alone)} alone explains this interval"
    elif len(differ) > 1:
        text += "; no one of them alone explains this interval, all of them together do"
    return {"cause": "a difference of profile", "explanation": [text], "explained_by": alone}
