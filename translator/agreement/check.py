"""Is an engine's recorded output correct? (Dell'Aglio et al. 2014, Definitions 25–26; the CSRBench oracle,
Dell'Aglio et al. 2013, §6). ``rsplars check`` is argument parsing around :func:`check`.

An engine's output ``Ans_C(q)`` is **correct** iff it equals ``Ans(Q_z)`` for *some* vector z of
window starts t0 (Def 25): ``Q_z`` is q under the engine's profile (report policy, R2S, empty
relations, window model) with window k starting at ``z_k``. The candidates for ``z_k`` are
``{a, …, a + max(β_k − 1, α_k)}`` (a = ``registration``): Def 25's bounded set ``{a, …, a+β_k−1}``
(Theorem 1) together with the oracle's ``{a, …, a+α_k}`` (Dell'Aglio et al. 2013, §6.1), so that an output
correct under either is correct here. ``t0`` given explicitly fixes the candidates.

Choices (docs/check.md lists them with their reasons):

* relations are **bags** of bindings (SPARQL 1.1 §18.1.6: an engine that drops or doubles a row is
  wrong), or **sets** with ``compare="sets"`` (Dell'Aglio et al. 2014 assume no duplicates; the oracle
  keeps a HashSet), :mod:`translator.agreement.multisets`; relations that an engine emits at the same
  timestamp are merged (added up as bags, united as sets: a tuple-driven engine may report several
  times per instant, Dell'Aglio et al. 2013, §3);
* terms: IRIs by value, literals by lexical form and datatype/language, except **numeric literals,
  compared by value as doubles** (the oracle's ``doubleValue()``: ``"83"^^xsd:integer`` =
  ``"83.0e0"^^xsd:double``); blank nodes match any blank node (labels are the engine's own);
* ``timed`` comparison (default, Def 25): the sequence of (timestamp, relation) must be equal on
  ``[warm_up, horizon]`` (Def 26's cut-off is ``warm_up``, default: none, so that early reports of
  the transient phase are seen, as the oracle sees them: C-SPARQL's transient phase of
  Dell'Aglio et al. 2013, §7); the answers'
  timestamps are converted from ``answers_unit`` to the base unit (rounded down);
  ``oracle`` comparison (``--ignore-timestamps``): the output's relations, in order and timestamps
  ignored, must be a contiguous subsequence of the expected ones (Dell'Aglio et al. 2013, §6.2, ``contains``); an
  empty output then matches, as in the oracle, and the report says so; a plain or ``xsd:string``
  literal whose label is a number compares as that number (the oracle's ``doubleValue()``).

Speed (docs/check.md §8): the R2R answers are keyed by window content and shared by all t0
candidates, report policies and ticks (``translator.evaluate.window_contents``); candidates are
solved as they are tried and the first match ends the search.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence, cast

from lars.errors import RsplarsError
from translator.agreement.answers import ActualRelation, nt_key, read_answers, term_key  # noqa: F401  (re-exported)
from translator.agreement.early_stop import Judged, Progress, best_first
from translator.agreement.multisets import BAGS, View, cardinality_faults, keyed_relation, view_of
from translator.agreement.slices import judge_slices, refuse_unjudged, slice_faults, slicing
from translator.evaluate.operational import Evaluator, Relation, apply_r2s, grids_of, horizon
from translator.evaluate.profiles import PROFILES, R2S, Operational
from translator.evaluate.report_policy import Report
from translator.rdf.bags import Bag
from translator.rdf.timeunits import unit_ms

Term = tuple

#: the lexical space of xsd:double (and of the decimals and integers in it), as Java's
#: ``Double.parseDouble`` reads it in Sesame's ``XMLDatatypeUtil.parseDouble``
_DOUBLE_LEXICAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN")
Binding = frozenset  # of (variable, Term)


# ------------------------------------------------------------------------------------ terms


def show_term(key: Term) -> str:
    if key[0] == "iri":
        return f"<{key[1]}>"
    if key[0] == "bnode":
        return "_:b"
    if key[0] == "num":
        v = key[1]
        return str(int(v)) if v == int(v) else repr(v)
    if key[0] == "null":
        return "null"
    value, suffix = key[1], key[2]
    quoted = json.dumps(value, ensure_ascii=False)
    if suffix is None:
        return quoted
    return quoted + (suffix if suffix.startswith("@") else f"^^<{suffix}>")


def show_binding(b: Binding) -> dict[str, str]:
    return {v: show_term(k) for v, k in sorted(b)}


def show_row(b: Binding) -> str:
    """A binding on one line: ``?v=term …``."""
    return " ".join(f"?{v}={x}" for v, x in show_binding(b).items())


def show_relation(rel) -> list[dict[str, str]]:
    """The bindings of a relation, sorted; a binding of a bag as often as it counts."""
    return sorted((show_binding(b) for b in rel), key=lambda d: sorted(d.items()))
@dataclass
class Verdict:
    correct: bool
    report: dict


def candidates(evaluator: Evaluator, op: Operational, registration: int, fixed: bool) -> list[tuple[int, ...]]:
    if fixed:
        n = len(evaluator.windows)
        return [tuple(op.t0_of(k, n) for k in range(n))]
    ranges = [range(registration, registration + max(w.beta - 1, w.alpha) + 1) for w in evaluator.windows]
    return list(itertools.product(*ranges))


def _key_rows(evaluator: Evaluator, rows, view: View = BAGS) -> Bag:
    """Rows of the engine (N-Triples per result variable) as a relation of comparison bindings in
    ``view``, kept on the evaluator (the relations of t0 candidates and report policies share their rows)."""
    key = (view.name, rows)
    got = evaluator.judged_rows.get(key)
    if got is None:
        got = evaluator.judged_rows[key] = keyed_relation(evaluator.variables, rows, view)
    return got


def oracle_terms(relation: Bag, view: View = BAGS) -> Bag:
    """A relation with the terms as the CSRBench oracle compares them: a plain or ``xsd:string``
    literal whose label is a number is that number (the oracle's ``Literal.doubleValue()`` reads the
    label whatever the datatype; SPARQLstream writes its values as ``"43.0"^^xsd:string``)."""
    def term(k: Term) -> Term:
        if k[0] == "lit" and k[2] is None and _DOUBLE_LEXICAL.fullmatch(k[1].strip()):
            return ("num", float(k[1]))
        return k

    # translator.rdf.bags types a Bag's members as rows of an evaluation; a relation holds bindings
    return view.relation(frozenset((v, term(k)) for v, k in b) for b in cast("Iterable[Binding]", relation))


def _timed(actual: list[ActualRelation], view: View = BAGS) -> dict[int, Bag]:
    """The recorded relations merged per timestamp, in ``view``."""
    merged: dict[int, Bag] = {}
    for a in actual:
        assert a.t is not None
        rel = view.of(a.bindings)
        merged[a.t] = view.merge(merged[a.t], rel) if a.t in merged else rel
    return merged


def check(evaluator: Evaluator, actual: Sequence[ActualRelation], op: Operational, *, registration: int = 0,
          t0_fixed: bool = False, ignore_timestamps: bool = False, warm_up: int | None = None,
          max_candidates: int = 2000, end: int | None = None, other_profiles: bool = True,
          early_stop: bool = True, verdict_only: bool = False, compare: View | str = BAGS) -> Verdict:
    """Judge ``actual`` against every candidate t0 vector (module docstring). For an incorrect
    output, ``other_profiles`` also tries the other engine profiles (each with its own parameters)
    and names those under which it is correct. ``early_stop`` (timed comparison): a candidate is
    evaluated in time order up to its first mismatching timestamp only
    (``translator.agreement.early_stop``); ``False`` evaluates every candidate tried to the end
    (the same verdict and report but the ``evaluation`` counts). ``verdict_only``: an incorrect
    output's report has no closest candidate, mismatch, diagnosis or timeline (nothing is evaluated
    for them: the probes of other profiles need the verdict only). ``compare``: relations as ``bags``
    (default) or ``sets`` (:mod:`translator.agreement.multisets`)."""
    view = view_of(compare)
    if not ignore_timestamps and any(a.t is None for a in actual):
        raise RsplarsError("the answers have relations without a timestamp; use --ignore-timestamps")
    if slicing(evaluator):  # LIMIT/OFFSET: judged as slices (translator.agreement.slices)
        refuse_unjudged(evaluator, op.r2s, ignore_timestamps)
        judge_slices(evaluator, _timed(list(actual), view))
    zs = candidates(evaluator, op, registration, t0_fixed)
    h = end if end is not None else max(horizon(evaluator.elements, evaluator.windows, zs[-1]), 0)
    if len(zs) > max_candidates:  # one t0 per class of window starts (translator.agreement.t0_candidates)
        from translator.agreement.t0_candidates import check_candidates

        zs = check_candidates(evaluator, op, actual, registration=registration, ignore_timestamps=ignore_timestamps,
                              warm_up=warm_up, h=h, max_candidates=max_candidates) or zs
    if len(zs) > max_candidates:
        raise RsplarsError(f"{len(zs)} t0 candidates (the product over the windows' ranges) exceed "
                           f"{max_candidates}; fix t0 with --t0, or choose a coarser --unit")
    last_answer = max([a.t for a in actual if a.t is not None], default=0)
    plans = _Plans(evaluator, op, h)
    if evaluator.contents_index is None:  # solve every candidate's reports at once: one solver run per width vector
        evaluator.evaluate(r for z in zs for r in plans[z])
    found = None
    scored = []
    oracle_actual = [oracle_terms(view.of(a.bindings), view) for a in actual] if ignore_timestamps else []
    timed_actual = {} if ignore_timestamps else _timed_filtered(actual, warm_up, h, view)
    low = warm_up if warm_up is not None else -(10**18)
    judged: dict[tuple[int, ...], Judged] = {}
    for z in zs:
        # keyed by content, a candidate is solved when it is tried (its contents shared with those
        # tried before it), and the first match ends the search
        if ignore_timestamps:  # no early decision (docs/check.md §8): the whole expected output
            rels = apply_r2s(zip(plans[z], evaluator.answers(plans[z])), op.r2s, op.empty_relations)
            exp = [(r.t, _key_rows(evaluator, r.rows, view), r) for r in rels]
            ok, first = _contains([oracle_terms(e[1], view) for e in exp], oracle_actual)
            scored.append((first, z, exp))
        else:
            # in time order, in growing blocks, up to the first mismatching timestamp
            j = judged[z] = Judged(Progress(plans[z], evaluator.answers, whole=not early_stop), op.r2s,
                                   op.empty_relations, timed_actual, low, lambda rows: _key_rows(evaluator, rows, view),
                                   merge=view.merge)
            j.run(early_stop)
            ok = j.finished and j.first_mismatch is None
        if ok:
            found = z
            break
    tried = zs[: zs.index(found) + 1] if found is not None else zs
    if found is None and not ignore_timestamps and not verdict_only:
        # the closest candidate (most agreeing timestamps, then the smallest t0), judged beyond its first
        # mismatch only as far as the bounds of the others' closeness require (``best_first``)
        ranked = list(judged)
        z = ranked[next(iter(best_first([judged[z] for z in ranked])))]
        scored = [(judged[z].judge.score, z, _expected(judged[z]))]
    report: dict = {
        "correct": found is not None,
        "parameters": op.as_dict(),
        "comparison": {
            "mode": ("oracle (contiguous subsequence, timestamps ignored, numbers in strings by value)"
                     if ignore_timestamps else "timed (Def 25)"),
            "compare": view.name,
            "relations": view.description,
            "numeric_literals": "compared by value as doubles (CSRBench oracle)",
            "blank_nodes": "any blank node matches any blank node",
            "warm_up": warm_up,
            "horizon": h,
        },
        "t0_tried": [list(z) for z in tried],
        "t0_candidates": len(zs),
        "solver_runs": evaluator.solver_runs,
        "actual_relations": len(actual),
        "evaluation": {
            "early_stop": early_stop and not ignore_timestamps,
            "reports_planned": sum(len(plans[z]) for z in tried),
            "reports_evaluated": sum(judged[z].progress.evaluated if z in judged else len(plans[z]) for z in tried),
            "stopped_at": [judged[z].stopped_at if z in judged else None for z in tried],
        },
    }
    if slicing(evaluator):
        report["comparison"]["slices"] = ("LIMIT/OFFSET: each relation is judged against the slice of the whole "
                                          "relation that keeps its tied rows (SPARQL 1.1 §15.1, §15.4–15.5)")
    if ignore_timestamps and not actual:
        report["note"] = "an empty output is contained in every expected output (as in the CSRBench oracle)"
    if found is None and verdict_only:
        return Verdict(False, report)
    if found is not None:
        z, exp = found, (scored[-1][2] if ignore_timestamps else _expected(judged[found]))
        report["matching_t0"] = list(z)
        report["expected_relations"] = len(exp)
        report["timeline"] = _timeline(exp, actual, ignore_timestamps, view)
        return Verdict(True, report)
    # the closest candidate explains the verdict: timed, the latest first mismatch (above); oracle,
    # the longest prefix of the output found in place; then the smallest t0
    first, z, exp = max(scored, key=lambda s: (s[0] if s[0] is not None else -1, [-x for x in s[1]]))
    report["closest_t0"] = list(z)
    report["expected_relations"] = len(exp)
    report["mismatch"] = _mismatch(evaluator, op, z, exp, actual, first, ignore_timestamps, h, warm_up, view)
    report["timeline"] = _timeline(exp, actual, ignore_timestamps, view)
    if other_profiles:
        fits = _other_profiles(evaluator, actual, op, registration=registration, t0_fixed=t0_fixed,
                               ignore_timestamps=ignore_timestamps, warm_up=warm_up, max_candidates=max_candidates,
                               end=end, compare=view)
        if fits:
            report["fits_profiles"] = fits
            report["mismatch"]["diagnosis"].append(
                "different report policy: the output is correct under " + "; ".join(
                    f"profile {name} (report {PROFILES[name].params.as_dict()['report']}, t0 = {t0})"
                    for name, t0 in fits.items()))
    if last_answer > h and not ignore_timestamps:
        report["note"] = f"the answers go on after the horizon {h} (every window holding data has closed)"
    return Verdict(False, report)


class _Plans(dict):
    """The reports of each t0 candidate, planned when first asked for."""

    def __init__(self, evaluator: Evaluator, op: Operational, end: int) -> None:
        super().__init__()
        self.evaluator, self.op, self.end = evaluator, op, end

    def __missing__(self, z: tuple[int, ...]) -> list[Report]:
        got = self[z] = self.evaluator.plan(replace(self.op, t0=z), None, self.end)
        return got


def _other_profiles(evaluator: Evaluator, actual, op: Operational, **kw) -> dict[str, list[int]]:
    out = {}
    for name, profile in PROFILES.items():
        # the probe runs with a time tick: it asks about the report policy, and a tuple tick under content
        # change costs one solver run per arriving tuple (docs/check.md §4)
        other = replace(profile.params, t0=op.t0, window_model=profile.params.window_model, tick="time")
        if other.report == op.report and other.window_model == op.window_model and other.cc_mode == op.cc_mode:
            continue
        try:
            v = check(evaluator, actual, other, other_profiles=False, verdict_only=True, **kw)
        except RsplarsError:
            continue
        if v.correct:
            out[name] = v.report["matching_t0"]
    return out


def _timed_filtered(actual: Sequence[ActualRelation], warm_up: int | None, h: int,
                    view: View = BAGS) -> dict[int, Bag]:
    """The recorded relations as the timed comparison sees them (:func:`_equal_timed`): merged per
    timestamp, from the warm-up on, after the horizon only non-empty ones."""
    lo = warm_up if warm_up is not None else -(10**18)
    return {t: rel for t, rel in _timed(list(actual), view).items() if t >= lo and (t <= h or rel)}


def _expected(judged: Judged) -> list:
    """The expected relations of a candidate judged to the end, as ``(t, keyed, relation)``."""
    return [(r.t, k, r) for r, k in zip(judged.relations, judged.keyed)]


def _equal_timed(exp, actual: dict[int, Bag], warm_up: int | None, h: int,
                 view: View = BAGS) -> tuple[bool, int | None]:
    """(equal?, a closeness score: timestamps that agree minus timestamps that differ)."""
    lo = warm_up if warm_up is not None else -(10**18)
    e = {t: rel for t, (rel, _) in _merged(exp, view).items() if t >= lo}
    a = {t: rel for t, rel in actual.items() if t >= lo and (t <= h or rel)}
    times = set(e) | set(a)
    differ = sum(1 for t in times if e.get(t) != a.get(t))
    return differ == 0, (len(times) - differ) - differ


def _merged(exp, view: View = BAGS) -> dict[int, tuple[Bag, Relation]]:
    """Expected relations merged per timestamp in ``view`` (a tuple tick evaluates one instant several
    times), with the last relation at each timestamp."""
    out: dict[int, tuple[Bag, Relation]] = {}
    for t, rel, r in exp:
        out[t] = (view.merge(out[t][0], rel) if t in out else rel, r)
    return out


def contiguous_match(expected: Sequence[Bag], actual: Sequence[Bag]) -> tuple[bool, int, int]:
    """The CSRBench oracle's ``contains`` (Dell'Aglio et al. 2013, §6.2): whether ``actual``, in
    order, is a contiguous part of ``expected`` (an empty output is); with the longest prefix of
    ``actual`` found in place (``len(actual)`` when it is) and the position in ``expected`` where
    that prefix starts (a prefix may run to the end of ``expected``)."""
    if not actual:
        return True, 0, 0
    best, at = 0, 0
    for i in range(len(expected)):
        n = 0
        while n < len(actual) and i + n < len(expected) and expected[i + n] == actual[n]:
            n += 1
        if n == len(actual):
            return True, n, i
        if n > best:
            best, at = n, i
    return False, best, at


def _contains(expected: list[Bag], actual: list[Bag]) -> tuple[bool, int | None]:
    """:func:`contiguous_match` with ``None`` for the prefix of a match (the report's ``first``)."""
    ok, best, _ = contiguous_match(expected, actual)
    return (True, None) if ok else (False, best)


def _window_of(evaluator: Evaluator, report: Report | None) -> list[dict]:
    if report is None:
        return []
    return [{"stream": w.stream, "from": lo, "to": hi,
             "interval": f"[{lo}, {hi}]" if lo <= hi else f"empty (the window has not started at {report.t})"}
            for w, (lo, hi) in zip(evaluator.windows, report.scopes)]


def _mismatch(evaluator: Evaluator, op: Operational, z, exp, actual, first, ignore_timestamps: bool, h: int,
              warm_up: int | None, view: View = BAGS) -> dict:
    by_t = {t: (rel, r.report) for t, (rel, r) in _merged(exp, view).items()}
    if ignore_timestamps:
        # align the actual relations with the expected ones where the longest prefix is found: the
        # first relation after it is the mismatch (the expected ones may have run out there)
        _, k, at = contiguous_match([oracle_terms(e[1], view) for e in exp],
                                    [oracle_terms(view.of(a.bindings), view) for a in actual])
        a = actual[k] if k < len(actual) else None
        e_rel, e_rep = (exp[at + k][1], exp[at + k][2].report) if at + k < len(exp) else (None, None)
        t = e_rep.t if e_rep is not None else None
        a_rel = view.of(a.bindings) if a is not None else None
    else:
        timed = _timed(list(actual), view)
        lo = warm_up if warm_up is not None else -(10**18)
        times = sorted(set(by_t) | {t for t, rel in timed.items() if t <= h or rel})
        t = next(t for t in times if t >= lo and by_t.get(t, (None,))[0] != timed.get(t))
        e_rel, e_rep = by_t.get(t, (None, None))
        a_rel = timed.get(t)
    grids = grids_of(evaluator.windows, replace(op, t0=z))
    window_report = e_rep
    if window_report is None and t is not None:
        window_report = Report(t, tuple(g.scope(t, op.window_model, "window-close" in op.report) or (t + 1, t)
                                        for g in grids), "window-close" in op.report)
    out = {
        "timestamp": t,
        "t0": list(z),
        "window": _window_of(evaluator, window_report),
        "expected": None if e_rel is None else show_relation(e_rel),
        "actual": None if a_rel is None else show_relation(a_rel),
    }
    if e_rel is not None and a_rel is not None:
        out["missing"] = show_relation(e_rel - a_rel)
        out["unexpected"] = show_relation(a_rel - e_rel)
    out["diagnosis"] = diagnose(evaluator, op, z, grids, t, e_rel, e_rep, a_rel, exp, actual, ignore_timestamps,
                                window_report=window_report, view=view)
    return out


def diagnose(evaluator: Evaluator, op: Operational, z, grids, t, e_rel, e_rep, a_rel, exp, actual,
             ignore_timestamps: bool, window_report: Report | None = None, view: View = BAGS) -> list[str]:
    """Known causes (Dell'Aglio et al. 2013, §7, Table 2) that fit the first mismatch, in words. ``window_report``
    is the report of the windows at t when the expected stream has no relation there (an IStream
    step with nothing new): stale elements can still explain an unexpected relation. Then the rows
    whose counts differ (:func:`translator.agreement.multisets.cardinality_faults`)."""
    causes: list[str] = []
    if e_rel is None and a_rel is not None:
        if "window-close" in op.report and t is not None and not any(g.closes(t) for g in grids):
            causes.append(f"early report of an open window: the output has a relation at {t}, where no window "
                          "closes; a window-close engine reports only when the window closes (C-SPARQL's transient "
                          "phase on sliding windows, Q5 of Dell'Aglio et al. 2013, §7)")
        elif not a_rel and op.empty_relations == "skip":
            causes.append("unexpected empty relation: the profile emits no empty relations (Dell'Aglio et al. 2013, §3)")
        elif "non-empty" in op.report and t is not None and all(
                evaluator.contents.span(g.stream, *(g.scope(t, op.window_model, "window-close" in op.report) or (1, 0)))
                == (0, 0) for g in grids):
            causes.append(f"report of an empty window at {t}: the non-empty-content guard suppresses it "
                          "(Dell'Aglio et al. 2013, §3)")
        elif a_rel and window_report is not None and _expired(evaluator, op, window_report, z, a_rel, a_rel, view):
            causes.append(f"window expiry: the unexpected binding(s) at {t} come from elements that left the window "
                          "before it; they were not removed from the active window (CQELS's "
                          "Q4/Q6/Q7 of Dell'Aglio et al. 2013, §7)")
        else:
            causes.append(f"unexpected relation at {t}: no report is due then under {op.as_dict()['report']}")
    elif e_rel is not None and a_rel is None:
        if not e_rel:
            causes.append(f"missing empty relation at {t}: the window reported and the result is empty; the profile "
                          "emits empty relations (Dell'Aglio et al. 2013, §3, C-SPARQL)")
        else:
            causes.append(f"dropped relation: no output at {t}, where the window reports {len(e_rel)} binding(s)")
    elif e_rel is not None and a_rel is not None:
        extra, missing = a_rel - e_rel, e_rel - a_rel
        if e_rep is not None:
            causes += slice_faults(evaluator, e_rep, a_rel, show_row)
        nulls = _null_instead_of_zero(missing, extra)
        if nulls:
            causes.append(f"null instead of 0: {nulls} is unbound or null where SPARQL 1.1 gives 0 for an empty "
                          "group (SPARQLstream's Q4 of Dell'Aglio et al. 2013, §7)")
        if extra and e_rep is not None and _expired(evaluator, op, e_rep, z, extra, a_rel, view):
            causes.append(f"window expiry: the unexpected binding(s) at {t} come from elements that left the window "
                          "before it; they were not removed from the active window (CQELS's "
                          "Q4/Q6/Q7 of Dell'Aglio et al. 2013, §7)")
        if not causes:
            causes.append(f"wrong bindings at {t}: {len(missing)} missing, {len(extra)} unexpected "
                          f"(compared as {view.name})")
        causes += cardinality_faults(e_rel, a_rel, show_row)
    causes += _wrong_r2s(evaluator, op, z, exp, actual, ignore_timestamps, view)
    return causes


def _wrong_r2s(evaluator: Evaluator, op: Operational, z, exp, actual, ignore_timestamps: bool,
               view: View = BAGS) -> list[str]:
    """The whole output is another operator's stream over the same reports (and is not just the
    profile's operator with the other empty-relation policy)."""
    plan = evaluator.plan(replace(op, t0=z), None, max([r.t for _, _, r in exp], default=0))
    timed = None if ignore_timestamps else _timed(list(actual), view)
    answered = list(zip(plan, evaluator.answers(plan)))  # R2R once for the up to five operators tried

    def matches(r2s: str, empty: str) -> bool:
        rels = apply_r2s(answered, r2s, empty)
        keyed = [(r.t, _key_rows(evaluator, r.rows, view), r) for r in rels]
        if timed is None:
            return contiguous_match([oracle_terms(k[1], view) for k in keyed],
                                    [oracle_terms(view.of(a.bindings), view) for a in actual])[0]
        return _equal_timed(keyed, timed, None, 10**18, view)[0]

    if matches(op.r2s, "skip" if op.empty_relations == "emit" else "emit"):
        return []
    for other in R2S:
        if other != op.r2s and (matches(other, "emit") or matches(other, "skip")):
            return [f"wrong R2S: the output is the {other.upper()} of the answers, the profile's operator is "
                    f"{op.r2s.upper()} (Dell'Aglio et al. 2014, Definitions 20–22, Dell'Aglio et al. 2013, §3)"]
    return []


def _null_instead_of_zero(missing: Bag, extra: Bag) -> str:
    # translator.rdf.bags types a Bag's members as rows of an evaluation; a relation holds bindings
    for m in cast("Iterable[Binding]", missing):
        zeros = [v for v, k in m if k[0] == "num" and k[1] == 0]
        for v in zeros:
            rest = frozenset((x, k) for x, k in m if x != v)
            for e in cast("Iterable[Binding]", extra):
                if frozenset((x, k) for x, k in e if x != v) == rest and dict(e).get(v, ("null",))[0] == "null":
                    return f"?{v}"
    return ""


def _expired(evaluator: Evaluator, op: Operational, report: Report, z, extra: Bag, actual: Bag,
             view: View = BAGS) -> bool:
    """The extra bindings appear when the windows also hold the elements since the first window start:
    each of them at least as often as the output has it (a row the output merely doubles is no stale
    element's)."""
    start = min(z)
    wide = Report(report.t, tuple((min(lo, start), hi) for lo, hi in report.scopes), report.closing)
    evaluator.evaluate([wide])
    rows = _key_rows(evaluator, evaluator.rows(wide), view)
    return bool(extra) and all(rows.count(b) >= actual.count(b) for b in extra.distinct())


def _timeline(exp, actual, ignore_timestamps: bool, view: View = BAGS) -> list[dict]:
    """Expected vs actual relations per timestamp (the HTML report's table)."""
    if ignore_timestamps:
        n = max(len(exp), len(actual))
        return [{"index": i,
                 "t": exp[i][0] if i < len(exp) else None,
                 "expected": show_relation(exp[i][1]) if i < len(exp) else None,
                 "actual": show_relation(view.of(actual[i].bindings)) if i < len(actual) else None}
                for i in range(n)]
    e = {t: rel for t, (rel, _) in _merged(exp, view).items()}
    a = _timed(list(actual), view)
    out = []
    for t in sorted(set(e) | set(a)):
        out.append({"t": t,
                    "expected": show_relation(e[t]) if t in e else None,
                    "actual": show_relation(a[t]) if t in a else None,
                    "equal": e.get(t) == a.get(t)})
    return out


def time_factor(answers_unit: str, base_unit: str) -> tuple[int, int]:
    """(num, den) converting a timestamp in ``answers_unit`` to ``base_unit``."""
    return unit_ms(answers_unit), unit_ms(base_unit)


# ----------------------------------------------------------------- two engines, one stream


def as_actual(relations: Sequence[Relation], variables: Sequence[str]) -> list[ActualRelation]:
    """An engine run's relations as a recorded output (to judge one profile's output under another)."""
    return [ActualRelation(r.t, r.t, keyed_relation(variables, r.rows, BAGS), 0) for r in relations]


def compare_profiles(ev_a: Evaluator, op_a: Operational, ev_b: Evaluator, op_b: Operational,
                     start: int | None = None, end: int | None = None, compare: View | str = BAGS) -> dict:
    """Do two engines (a query under a profile each) give the same answer stream on the same data?
    The streams are compared per timestamp (relations merged, terms as in :func:`check`); each
    output is also judged under the other profile (is A's output a correct output of B for some
    t0?), which separates a difference of t0 from one of report policy, R2S or empty relations
    (raw outputs of different engines are not expected to be equal: Dell'Aglio et al. 2013, §2)."""
    view = view_of(compare)
    rel_a, rel_b = ev_a.relations(op_a, start, end), ev_b.relations(op_b, start, end)
    out_a, out_b = as_actual(rel_a, ev_a.variables), as_actual(rel_b, ev_b.variables)
    ka, kb = _timed(out_a, view), _timed(out_b, view)
    times = sorted(set(ka) | set(kb))
    first = next((t for t in times if ka.get(t) != kb.get(t)), None)
    same_vars = set(ev_a.variables) == set(ev_b.variables)
    return {
        "equal": first is None,
        "first_difference": first,
        "a": {"parameters": op_a.as_dict(), "relations": len(rel_a)},
        "b": {"parameters": op_b.as_dict(), "relations": len(rel_b)},
        "compare": view.name,
        "a_correct_under_b": check(ev_b, out_a, op_b, other_profiles=False, verdict_only=True, compare=view).correct
        if same_vars else None,
        "b_correct_under_a": check(ev_a, out_b, op_a, other_profiles=False, verdict_only=True, compare=view).correct
        if same_vars else None,
        "timeline": [{"t": t, "a": show_relation(ka[t]) if t in ka else None,
                      "b": show_relation(kb[t]) if t in kb else None, "equal": ka.get(t) == kb.get(t)}
                     for t in times],
    }
