"""Which operational parameters explain an engine's recorded output? (``rsplars check --infer``)

Dell'Aglio et al. 2014, Definition 25 calls an output correct when it equals the answer of the
query under the engine's parameters for *some* vector of window starts t0; the engine's other
parameters — report policy (Definition 23), R2S operator (Definitions 20–22), window bounds
(Definitions 12–13; D2 in docs/decisions.md), the tick and the empty-relation policy (Dell'Aglio
et al. 2013, §3) — are hidden too (Dell'Aglio et al. 2014, §5, "explaining heterogeneity"). This
module searches all of them at once: a :class:`Setting` fixes every parameter, the
:class:`Space` is the product of the values of each, and :func:`infer` judges the output under
every setting, as :func:`translator.agreement.check.check` judges it under one.

Evaluations are shared between settings (docs/check.md, "Profile inference"):

* the report times and window contents of a setting depend on t0, the report policy, the tick and
  the window bounds only (its *plan*); R2S and the empty-relation policy post-process the R2R results
  of one plan (Dell'Aglio et al. 2013, §6.1 applies them last), so one plan serves six settings;
* the content-change reading and the tick change nothing without content change, so settings
  that differ only there share their plan;
* every plan's reports are handed to the evaluator together: the R2R result of a report depends on
  t and the window contents only, so each distinct (contents, t) is solved once for all settings.

A tuple tick under content change evaluates every partial instant (one solver run per arriving
tuple); beyond ``max_tuple_evaluations`` such settings are not searched, and the report says so.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Sequence, cast

from lars.errors import RsplarsError
from lars.windows import WindowBounds
from translator.agreement.check import ActualRelation, candidates, check, contiguous_match, oracle_terms
from translator.agreement.early_stop import Judged, Progress, best_first
from translator.agreement.multisets import BAGS, View, keyed_relation, view_of
from translator.agreement.slices import judge_slices, refuse_unjudged, slicing
from translator.evaluate.operational import Evaluator, Relation, apply_r2s, grids_of, horizon
from translator.evaluate.policy_names import ALIGNMENTS, HORIZONS
from translator.evaluate.profiles import PROFILES, R2S, Operational, observation_end
from translator.rdf.bags import Bag
from translator.evaluate.report_policy import (
    CC_MODES,
    EMPTY_RELATIONS,
    WINDOW_MODELS,
    PolicyError,
    format_report,
)

#: the searched parameters, in the order reports list them
PARAMETERS = ("t0", "report", "cc_mode", "tick", "r2s", "empty_relations", "window_bounds", "window_alignment", "horizon")
#: the ticks searched: ``batch`` evaluates as ``time`` does (one evaluation per instant, docs/check.md)
SEARCHED_TICKS = ("time", "tuple")


def report_policies() -> list[frozenset[str]]:
    """Every report policy of Dell'Aglio et al. 2014, Definition 23: a non-empty combination of the
    triggering strategies (window close, content change, periodic), with or without the
    non-empty-content guard (14 policies)."""
    triggers = ("window-close", "content-change", "periodic")
    out = []
    for n in range(1, len(triggers) + 1):
        for combo in itertools.combinations(triggers, n):
            out.append(frozenset(combo))
            out.append(frozenset(combo) | {"non-empty"})
    return out


@dataclass(frozen=True)
class Setting:
    """One point of the parameter space: every operational parameter fixed."""

    t0: tuple[int, ...]
    report: frozenset[str]
    cc_mode: str
    tick: str
    r2s: str
    empty_relations: str
    window_bounds: str
    window_alignment: str = "t0"
    horizon: str | int = "none"

    def operational(self) -> Operational:
        return Operational(self.report, t0=self.t0, cc_mode=self.cc_mode, tick=self.tick, r2s=self.r2s,
                           empty_relations=self.empty_relations, window_model=WindowBounds.parse(self.window_bounds),
                           alignment=self.window_alignment, horizon=self.horizon)

    def value(self, parameter: str):
        return getattr(self, parameter)

    def plan_key(self) -> tuple:
        """What the report times and window contents depend on (module docstring)."""
        cc = "content-change" in self.report
        # content change alone at arrivals reports at element times only: no horizon cuts it
        arrivals_only = cc and self.cc_mode == "arrivals" and not self.report & {"window-close", "periodic"}
        return (self.t0, self.report, self.cc_mode if cc else None, self.tick if cc else "time", self.window_bounds,
                self.window_alignment, None if arrivals_only and self.horizon in ("none", "last") else self.horizon)

    def as_dict(self) -> dict:
        return {p: show_value(p, self.value(p)) for p in PARAMETERS}


def show_value(parameter: str, value):
    """A parameter value as the reports and the command line write it."""
    if parameter == "t0":
        return value[0] if len(value) == 1 else list(value)
    if parameter == "report":
        return format_report(value)
    return value


@dataclass(frozen=True)
class Space:
    """The values searched for each parameter (the product of them is the space). A space built by
    hand searches windows opening at t0 without an observation horizon unless it says otherwise;
    :func:`parameter_space` searches both alignments and the horizons ``none`` and ``last``."""

    t0: tuple[tuple[int, ...], ...]
    report: tuple[frozenset[str], ...]
    cc_mode: tuple[str, ...] = CC_MODES
    tick: tuple[str, ...] = SEARCHED_TICKS
    r2s: tuple[str, ...] = R2S
    empty_relations: tuple[str, ...] = EMPTY_RELATIONS
    window_bounds: tuple[str, ...] = WINDOW_MODELS
    window_alignment: tuple[str, ...] = ("t0",)
    horizon: tuple[str | int, ...] = ("none",)
    compare_end: int | None = field(default=None, compare=False)
    """the end of the comparison the t0 candidates were chosen for (:func:`parameter_space`)"""

    def values(self, parameter: str) -> tuple:
        return getattr(self, parameter)

    def settings(self) -> Iterator[Setting]:
        for combo in itertools.product(*(self.values(p) for p in PARAMETERS)):
            yield Setting(*combo)

    @property
    def size(self) -> int:
        n = 1
        for p in PARAMETERS:
            n *= len(self.values(p))
        return n

    def as_dict(self) -> dict:
        return {p: [show_value(p, v) for v in self.values(p)] for p in PARAMETERS}


def parameter_space(evaluator: Evaluator, *, registration: int = 0, t0: tuple[int, ...] | None = None,
                    report: frozenset[str] | None = None, cc_mode: str | None = None, tick: str | None = None,
                    r2s: str | None = None, empty_relations: str | None = None, window_bounds: str | None = None,
                    window_alignment: str | None = None, horizon: str | int | None = None,
                    max_candidates: int = 2000, actual: Sequence[ActualRelation] | None = None,
                    ignore_timestamps: bool = False, warm_up: int | None = None, end: int | None = None) -> Space:
    """The space of :func:`infer`: every report policy, both content-change readings, the time and
    tuple ticks, the three R2S operators, both empty-relation policies, the three window-bounds
    conventions, both window alignments and the observation horizons ``none`` and ``last``; a
    parameter given explicitly is fixed to that value (a horizon given as a time is searched with
    ``none`` and ``last``). The t0 vectors: given ``actual`` (the output to explain), one per class of
    window starts with the same output (:mod:`translator.agreement.t0_candidates`, docs/check.md);
    without it, every t0 ``check`` enumerates from ``registration`` (Dell'Aglio et al. 2014, Definition 25)."""
    n = len(evaluator.windows)

    def one(value, default):
        return (value,) if value is not None else default

    reports = one(report, tuple(report_policies()))
    cc_modes = one(cc_mode, CC_MODES)
    alignments = one(window_alignment, ALIGNMENTS)
    horizons: tuple = HORIZONS if horizon is None else (horizon,) if horizon in HORIZONS else (*HORIZONS, horizon)
    if t0 is not None:
        fixed = Operational(frozenset({"window-close"}), t0=t0)
        t0s = [tuple(fixed.t0_of(k, n) for k in range(n))]
    elif actual is not None:
        from translator.agreement.t0_candidates import policy_kinds, t0_candidates

        last = max((e.t for e in evaluator.elements), default=None)
        stamps = None
        if not ignore_timestamps:
            low = warm_up if warm_up is not None else -(10**18)
            h = end if end is not None else horizon_of(evaluator, registration)
            stamps = sorted({a.t for a in actual if a.t is not None and a.t >= low and (a.t <= h or a.bindings)})
        limits = [warm_up, end, last, horizon_of(evaluator, registration),
                  *(x for x in horizons if isinstance(x, int))]
        t0s = t0_candidates(evaluator, registration=registration, alignments=alignments,
                            kinds=policy_kinds(reports, cc_modes), stamps=stamps, limits=limits,
                            max_candidates=max_candidates)
    else:
        t0s = candidates(evaluator, Operational(frozenset({"window-close"})), registration, False)
    if len(t0s) > max_candidates:
        raise RsplarsError(f"{len(t0s)} t0 candidates (the product over the windows' ranges) exceed {max_candidates}; "
                           "fix t0 with --t0, or choose a coarser --unit")
    return Space(tuple(t0s), reports, cc_modes,
                 one("time" if tick == "batch" else tick, SEARCHED_TICKS), one(r2s, R2S),
                 one(empty_relations, EMPTY_RELATIONS), one(None if window_bounds is None else WindowBounds.parse(window_bounds), WINDOW_MODELS), alignments, horizons,
                 compare_end=None if actual is None or end is not None else horizon_of(evaluator, registration))


def horizon_of(evaluator: Evaluator, registration: int) -> int:
    """The bounded horizon :func:`infer` compares up to by default (every window holding data closed,
    for the latest t0 candidate of the range)."""
    t_max = registration + max(max(w.beta - 1, w.alpha) for w in evaluator.windows)
    return max(horizon(evaluator.elements, evaluator.windows, [t_max]), 0)


# ------------------------------------------------------------------------------- comparing


class KeyedRelations:
    """Relations of the evaluator as comparison bindings (terms as ``check`` compares them) in
    ``view`` (bags or sets, :mod:`translator.agreement.multisets`), each distinct relation keyed once
    for every setting."""

    def __init__(self, evaluator: Evaluator, view: View = BAGS) -> None:
        self.variables = evaluator.variables
        self.view = view
        self.cache: dict[Bag, Bag] = {}

    def __call__(self, rows: Bag) -> Bag:
        keyed = self.cache.get(rows)
        if keyed is None:
            keyed = self.cache[rows] = keyed_relation(self.variables, rows, self.view)
        return keyed


def merged(pairs: Iterable[tuple[int, Bag]], view: View = BAGS) -> dict[int, Bag]:
    """Relations at one timestamp merged (added up as bags, united as sets), as ``check`` compares them."""
    out: dict[int, Bag] = {}
    for t, rel in pairs:
        rel = view.of(rel)
        out[t] = view.merge(out[t], rel) if t in out else rel
    return out


class Comparison:
    """How the output is compared with an expected output (``check``'s timed comparison, or the
    CSRBench oracle's contiguous subsequence with ``ignore_timestamps``)."""

    def __init__(self, actual: Sequence[ActualRelation], ignore_timestamps: bool, warm_up: int | None,
                 horizon: int, view: View = BAGS) -> None:
        self.actual = tuple(actual)
        self.view = view
        self.ignore_timestamps = ignore_timestamps
        self.warm_up = warm_up
        self.horizon = horizon
        self.low = warm_up if warm_up is not None else -(10**18)
        timed = merged(((a.t, a.bindings) for a in self.actual if a.t is not None), view)
        # as ``check``: from the warm-up on; after the horizon only non-empty relations count
        self.timed = {t: rel for t, rel in timed.items() if t >= self.low and (t <= horizon or rel)}
        # as the oracle compares them: numbers written as strings by value (``check``)
        self.relations = [oracle_terms(view.of(a.bindings), view) for a in self.actual] if ignore_timestamps else \
            [view.of(a.bindings) for a in self.actual]

    def score(self, expected: Sequence[tuple[int, Bag]]) -> tuple[bool, int]:
        """(equal?, closeness): timed — timestamps that agree minus those that differ; oracle — the
        longest prefix of the output found in place (as ``check`` ranks its candidates)."""
        if self.ignore_timestamps:
            return contiguous_match([oracle_terms(rel, self.view) for _, rel in expected], self.relations)[:2]
        e = {t: rel for t, rel in merged(expected, self.view).items() if t >= self.low}
        times = set(e) | set(self.timed)
        differ = sum(1 for t in times if e.get(t) != self.timed.get(t))
        return differ == 0, len(times) - 2 * differ


# ---------------------------------------------------------------------------------- the search


@dataclass
class Inference:
    """The outcome of :func:`infer` (``as_dict`` is the JSON report's ``inference`` part)."""

    space: Space
    correct: list[Setting]
    searched: int
    unsearched: dict[str, int]
    """reason → number of settings not judged"""
    scores: dict[Setting, int] = field(repr=False)
    """the closeness of each searched setting (the oracle's comparison: the longest prefix of the
    output found in place; timed: timestamps that agree minus those that differ) — under the timed
    comparison exact for the settings judged to the end and an upper bound for those whose
    evaluation stopped at their first mismatch"""
    expected: dict[Setting, list[Relation]] = field(repr=False)
    """the expected relations of each searched setting, as far as it was evaluated"""
    horizon: int = 0
    plans: int = 0
    compare: str = BAGS.name
    """the view the relations were compared in (``bags`` or ``sets``)"""
    closest: list[dict] = field(default_factory=list)
    evaluation: dict = field(default_factory=dict)
    """reports planned and evaluated (docs/check.md §8: the search stops at first mismatches)"""
    _summary: dict | None = field(default=None, repr=False)

    @property
    def explained(self) -> bool:
        return bool(self.correct)

    def summary(self) -> dict:
        """The choices that explain the output (:func:`explanation`, :func:`sufficient_choices`),
        computed once."""
        if self._summary is None:
            self._summary = {**explanation(self.correct, self.space, set(self.scores)),
                             "sufficient": sufficient_choices(set(self.correct), self.scores)}
        return self._summary

    def profiles(self) -> dict[str, dict]:
        """The engine profiles (``rsplars profiles``) whose parameters are those of a correct setting:
        profile → {"t0": [the t0 values that fit]}. A profile whose tuple tick was not searched
        (``max_tuple_evaluations``) is named when its time-tick variant is correct, with a note."""
        correct = set(self.correct)
        out: dict[str, dict] = {}
        for name, profile in PROFILES.items():
            p = profile.params
            for z in self.space.t0:
                s = Setting(z, p.report, p.cc_mode, p.tick, p.r2s, p.empty_relations, p.window_model, p.alignment,
                            p.horizon)
                note = None
                if s not in self.scores and s.plan_key()[3] == "tuple":
                    s, note = replace(s, tick="time"), "its tuple tick was not searched: correct with a time tick"
                if s in correct or _same_plan_as_correct(s, correct):
                    entry = out.setdefault(name, {"t0": []})
                    entry["t0"].append(show_value("t0", z))
                    if note:
                        entry["note"] = note
        return out

    def as_dict(self) -> dict:
        return {
            "explained": self.explained,
            "compare": self.compare,
            "space": self.space.as_dict(),
            "settings": self.space.size,
            "searched": self.searched,
            "not_searched": self.unsearched,
            "plans": self.plans,
            "horizon": self.horizon,
            "correct_settings": len(self.correct),
            "correct": [s.as_dict() for s in self.correct],
            "explanation": self.summary(),
            "profiles": self.profiles(),
            **({"closest": self.closest} if self.closest else {}),
            "evaluation": self.evaluation,
        }


def _same_plan_as_correct(s: Setting, correct: set[Setting]) -> bool:
    """A profile's setting outside the space (e.g. a tuple tick without content change) that
    evaluates exactly as a correct setting does."""
    for other in correct:
        if other.plan_key() == s.plan_key() and (other.r2s, other.empty_relations) == (s.r2s, s.empty_relations):
            return True
    return False


def infer(evaluator: Evaluator, actual: Sequence[ActualRelation], space: Space, *, ignore_timestamps: bool = False,
          warm_up: int | None = None, end: int | None = None, max_tuple_evaluations: int = 1000,
          closest: int = 3, early_stop: bool = True, compare: View | str = BAGS) -> Inference:
    """Judge ``actual`` under every setting of ``space`` (module docstring). Where no setting makes it
    correct, the ``closest`` best-scoring settings are judged again by :func:`check` with their t0
    fixed, for the first differing relation and its diagnosis. ``early_stop`` (timed comparison):
    each setting is evaluated up to its first mismatch only, and the ranking of the closest ones
    as far as bounds of their closeness require (:func:`judge_in_time_order`); ``False`` evaluates
    every setting to the end (the same result but the ``evaluation`` counts). ``compare``: relations
    as ``bags`` (default) or ``sets`` (:mod:`translator.agreement.multisets`)."""
    view = view_of(compare)
    if not ignore_timestamps and any(a.t is None for a in actual):
        raise RsplarsError("the answers have relations without a timestamp; use --ignore-timestamps")
    t_max = max(max(z) for z in space.t0)
    h = end if end is not None else space.compare_end if space.compare_end is not None else \
        max(horizon(evaluator.elements, evaluator.windows, [t_max]), 0)
    comparison = Comparison(tuple(actual), ignore_timestamps, warm_up, h, view)
    settings = list(space.settings())
    refused: Counter[str] = Counter()
    if slicing(evaluator):  # LIMIT/OFFSET: slices judged under RSTREAM only (translator.agreement.slices)
        refuse_unjudged(evaluator, None, ignore_timestamps)
        refused = Counter(f"LIMIT/OFFSET under {s.r2s.upper()}: which tied rows an engine keeps is not recorded "
                          "by its deltas" for s in settings if s.r2s != "rstream")
        settings = [s for s in settings if s.r2s == "rstream"]
        if not settings:
            refuse_unjudged(evaluator, space.r2s[0], ignore_timestamps)
        # every relation has its timestamp here: a missing one is refused above, and refuse_unjudged
        # refuses --ignore-timestamps
        judge_slices(evaluator, merged(((cast(int, a.t), a.bindings) for a in actual), view))
    by_plan: dict[tuple, list[Setting]] = {}
    for s in settings:
        by_plan.setdefault(s.plan_key(), []).append(s)
    # timed with a content index: each plan is evaluated as far as its settings need (below);
    # otherwise every plan's reports at once (one solver run per window-width vector)
    staged = early_stop and not ignore_timestamps and evaluator.contents_index is not None
    plans, unsearched = plan_settings(evaluator, by_plan, h, max_tuple_evaluations, evaluate_all=not staged)
    unsearched.update(refused)
    keyed = KeyedRelations(evaluator, view)
    scores: dict[Setting, int] = {}
    expected = ExpectedRelations(evaluator, h)
    correct: list[Setting] = []
    refuted = 0
    order = {s: i for i, s in enumerate(settings)}
    judged: dict[Setting, Judged] = {}
    if ignore_timestamps:  # the oracle's comparison: no early decision (docs/check.md §8)
        for key, reports in plans.items():
            rows = [(r, evaluator.rows(r)) for r in reports]
            for s in by_plan[key]:
                rels = apply_r2s(rows, s.r2s, s.empty_relations)
                ok, score = comparison.score([(r.t, keyed(r.rows)) for r in rels])
                scores[s] = score
                expected[s] = rels
                if ok:
                    correct.append(s)
    else:
        removed = refute_by_report_times(plans, by_plan, comparison)
        refuted = sum(len(by_plan[key]) for key in removed)
        stamps = set(comparison.timed)
        for key, reports in removed.items():  # searched and incorrect: an upper bound of their closeness
            times = {r.t for r in reports if r.t >= comparison.low}
            for s in by_plan[key]:
                scores[s] = len(times | stamps) - 2 * len(stamps - times)
                expected.later.add(s)
        judged = judge_in_time_order(evaluator, plans, by_plan, comparison, keyed, early_stop)
        if removed and not any(j.finished and j.first_mismatch is None for j in judged.values()):
            # nothing explains the output: the refuted settings are ranked with the others for the closest
            judged.update(judge_in_time_order(evaluator, removed, by_plan, comparison, keyed, early_stop))
            plans.update(removed)
        for s, j in judged.items():
            scores[s] = j.upper_bound()
            expected[s] = j.relations
            if j.finished and j.first_mismatch is None:
                correct.append(s)
    correct.sort(key=order.__getitem__)
    result = Inference(space, correct, len(scores), dict(unsearched), scores, expected, h, len(plans), view.name)
    if not correct and scores:
        if judged:
            ranked: Iterable[Setting] = _ranked(judged, scores, order)
        else:
            ranked = sorted(result.scores, key=lambda s: (-result.scores[s], order[s]))
        result.closest = closest_settings(evaluator, actual, result, ranked, comparison, closest)
    progress = {id(j.progress): j.progress for j in judged.values()}.values()
    result.evaluation = {
        "early_stop": early_stop and not ignore_timestamps,
        "reports_planned": sum(len(r) for r in plans.values()),
        "reports_evaluated": sum(p.evaluated for p in progress) if judged else sum(len(r) for r in plans.values()),
        "settings_stopped_early": sum(1 for j in judged.values() if not j.finished),
        "settings_refuted_by_report_times": refuted,
    }
    return result


class ExpectedRelations(dict):
    """The expected relations of each searched setting (:attr:`Inference.expected`): those a judgement
    evaluated, and — evaluated when first asked for — those of the settings refuted by their report
    times (:func:`refute_by_report_times`)."""

    def __init__(self, evaluator: Evaluator, h: int) -> None:
        super().__init__()
        self.evaluator = evaluator
        self.h = h
        self.later: set[Setting] = set()

    def __missing__(self, s: Setting) -> list[Relation]:
        if s not in self.later:
            raise KeyError(s)
        got = self[s] = self.evaluator.relations(s.operational(), None, self.h)
        return got

    def get(self, s, default=None):
        return self[s] if s in self or s in self.later else default

    def __contains__(self, s) -> bool:
        return dict.__contains__(self, s) or s in self.later


def refute_by_report_times(plans: dict[tuple, list], by_plan: dict[tuple, list[Setting]],
                           comparison: Comparison) -> dict[tuple, list]:
    """Under the timed comparison a setting has a relation at its report times only (R2S and the
    empty-relation policy drop relations, never add them): a plan none of whose reports falls on
    some timestamp of the output is incorrect under each of its settings, found without evaluating
    a report. Such plans are moved from ``plans`` to the dictionary returned (:func:`infer` counts
    their settings as searched, with the upper bound ``|R ∪ A| − 2·|A \\ R|`` of their closeness — R
    the plan's report times from the warm-up on, A the output's timestamps — and judges them only to
    rank the closest settings when nothing explains the output)."""
    stamps = set(comparison.timed)
    removed = {}
    for key in list(plans):
        if not stamps <= {r.t for r in plans[key]}:
            removed[key] = plans.pop(key)
    return removed


def judge_in_time_order(evaluator: Evaluator, plans: dict[tuple, list], by_plan: dict[tuple, list[Setting]],
                        comparison: Comparison, keyed: KeyedRelations, early_stop: bool) -> dict[Setting, Judged]:
    """Every setting judged under the timed comparison up to its first mismatch
    (``translator.agreement.early_stop``; ``early_stop=False``: to the end): round after round,
    the next block of every plan with a setting still undecided, evaluated together (each distinct
    (contents, t) solved once for all of them); a plan whose settings all differ is not evaluated
    further."""
    progress = {key: Progress(reports, evaluator.answers, whole=not early_stop) for key, reports in plans.items()}
    judged = {s: Judged(progress[key], s.r2s, s.empty_relations, comparison.timed, comparison.low, keyed,
                        comparison.view.merge)
              for key in plans for s in by_plan[key]}

    def undecided(s: Setting) -> bool:
        j = judged[s]
        return not j.finished and (not early_stop or j.first_mismatch is None)

    while True:
        live = [key for key in plans if not progress[key].done and any(undecided(s) for s in by_plan[key])]
        if not live:
            break
        evaluator.evaluate(r for key in live for r in progress[key].next_block())
        for key in live:
            progress[key].advance()
            for s in by_plan[key]:
                judged[s].catch_up()
    for j in judged.values():  # plans without reports, or answered to the end: compare the rest
        j.catch_up()
    return judged


def _ranked(judged: dict[Setting, Judged], scores: dict[Setting, int], order: dict[Setting, int]) -> Iterator[Setting]:
    """The settings by decreasing closeness, then in the space's order (``best_first``: each judged
    to the end when given), their ``scores`` made exact as they come."""
    settings = sorted(judged, key=order.__getitem__)
    for i in best_first([judged[s] for s in settings]):
        s = settings[i]
        scores[s] = judged[s].upper_bound()
        yield s


class SharedPlans:
    """The reports of a setting's plan (:meth:`Setting.plan_key`), computed once for the settings whose
    grids open at the same offsets (the two window alignments meet there,
    :func:`translator.evaluate.profiles.opening_offset`) and cut at each observation horizon from the
    uncut plan: a horizon only ends the plan earlier (:meth:`Evaluator.plan`)."""

    def __init__(self, evaluator: Evaluator, h: int) -> None:
        self.evaluator = evaluator
        self.h = h
        self.last = max((e.t for e in evaluator.elements), default=None)
        self.cache: dict[tuple, list] = {}

    def __call__(self, s: Setting) -> list:
        op = s.operational()
        offsets = tuple(g.t0 for g in grids_of(self.evaluator.windows, op))
        cc = "content-change" in s.report
        key = (offsets, s.report, s.cc_mode if cc else None, s.tick if cc else "time", s.window_bounds)
        reports = self.cache.get(key)
        if reports is None:
            reports = self.cache[key] = self.evaluator.plan(replace(op, horizon="none"), None, self.h)
        cut = observation_end(op.horizon, self.last, "window-close" in op.report)
        return reports if cut is None else [r for r in reports if r.t <= cut]


def plan_settings(evaluator: Evaluator, by_plan: dict[tuple, list[Setting]], h: int,
                  max_tuple_evaluations: int, *, evaluate_all: bool = True) -> tuple[dict[tuple, list], Counter]:
    """The reports of every plan (:meth:`Setting.plan_key`), evaluated together (module docstring;
    not evaluated when ``evaluate_all`` is false), and the settings left out with the reason: a
    tuple tick under content change beyond ``max_tuple_evaluations`` partial instants, or windows
    that make no single LARS program (found while evaluating; with a content index no plan has
    such windows)."""
    arrivals = Counter(e.t for e in evaluator.elements)
    plans: dict[tuple, list] = {}
    unsearched: Counter = Counter()
    plan = SharedPlans(evaluator, h)
    tuple_keys = []
    for key, group in by_plan.items():
        s = group[0]
        if s.tick == "tuple" and "content-change" in s.report:
            tuple_keys.append(key)
            continue
        try:
            plans[key] = plan(s)
        except PolicyError as exc:
            unsearched[f"not expressible: {exc}"] += len(group)
    # a tuple tick: one more evaluation per arriving tuple at each content-change report (docs/check.md)
    partial_times: set[int] = set()
    for key in tuple_keys:
        try:
            reports = plan(replace(by_plan[key][0], tick="time"))
        except PolicyError:
            continue
        partial_times.update(r.t for r in reports if arrivals[r.t] > 1)
    partial = sum(arrivals[t] - 1 for t in partial_times)
    for key in tuple_keys:
        group = by_plan[key]
        if partial > max_tuple_evaluations:
            unsearched[f"tuple tick under content change: {partial} evaluations of partial instants exceed "
                       f"--max-tuple-evaluations {max_tuple_evaluations}"] += len(group)
            continue
        try:
            plans[key] = plan(group[0])
        except PolicyError as exc:
            unsearched[f"not expressible: {exc}"] += len(group)
    if not evaluate_all:
        return plans, unsearched
    try:
        evaluator.evaluate(r for reports in plans.values() for r in reports)
    except PolicyError:  # some plan's windows make no single LARS program at some t: find it, leave it out
        for key in list(plans):
            try:
                evaluator.evaluate(plans[key])
            except PolicyError as exc:
                unsearched[f"not expressible: {exc}"] += len(by_plan[key])
                del plans[key]
    return plans, unsearched


def closest_settings(evaluator: Evaluator, actual: Sequence[ActualRelation], result: Inference,
                     ranked: Iterable[Setting], comparison: Comparison, n: int) -> list[dict]:
    """The first ``n`` settings of ``ranked`` (the best closeness first, then the earliest in the
    space; each with its whole expected output in ``result.expected``) with distinct expected
    outputs, each judged by :func:`check` with its t0 fixed: its first mismatching relation and
    diagnosis."""
    out = []
    seen_outputs: set[tuple] = set()
    for s in ranked:
        signature = tuple((r.t, r.rows) for r in result.expected[s])
        if signature in seen_outputs:  # settings with the same expected output: one stands for all
            continue
        seen_outputs.add(signature)
        verdict = check(evaluator, actual, s.operational(), t0_fixed=True, ignore_timestamps=comparison.ignore_timestamps,
                        warm_up=comparison.warm_up, end=result.horizon, other_profiles=False,
                        compare=comparison.view)
        out.append({"setting": s.as_dict(), "score": result.scores[s],
                    "expected_relations": verdict.report.get("expected_relations"),
                    "mismatch": verdict.report.get("mismatch")})
        if len(out) == n:
            break
    return out


# --------------------------------------------------------------------------- the explanation


def explanation(correct: Sequence[Setting], space: Space, searched: set[Setting]) -> dict:
    """The smallest set of choices that explains the output:

    * ``choices`` — the parameters with one value in every correct setting (common to all of them);
    * ``irrelevant`` — the parameters whose every searched value keeps a correct setting correct
      (``irrelevant_where_searched``: those of them with values that were not searched);
    * ``constrained`` — the others: the values they take among the correct settings;
    * ``explanations`` — the correct settings with the irrelevant parameters left out (distinct).

    Empty when no setting is correct."""
    if not correct:
        return {"choices": {}, "irrelevant": [], "irrelevant_where_searched": [], "constrained": {}, "explanations": []}
    good = set(correct)
    choices, irrelevant, constrained, where_searched = {}, [], {}, []
    for p in PARAMETERS:
        values = [v for v in space.values(p) if any(s.value(p) == v for s in correct)]
        variations = [replace(s, **{p: v}) for s in correct for v in space.values(p)]
        free = len(space.values(p)) > 1 and all(x in good or x not in searched for x in variations)
        if free:
            irrelevant.append(p)
            if any(x not in searched for x in variations):
                where_searched.append(p)
        elif len(values) == 1:
            choices[p] = show_value(p, values[0])
        else:
            constrained[p] = [show_value(p, v) for v in values]
    relevant = [p for p in PARAMETERS if p not in irrelevant]
    explanations = list(dict.fromkeys(tuple((p, _hashable(show_value(p, s.value(p)))) for p in relevant)
                                      for s in correct))
    return {"choices": choices, "irrelevant": irrelevant, "irrelevant_where_searched": where_searched,
            "constrained": constrained, "explanations": [{p: (list(v) if isinstance(v, tuple) else v) for p, v in e} for e in explanations]}


def sufficient_choices(correct: set[Setting], searched: Iterable[Setting]) -> dict:
    """The smallest sets of choices that explain the output on their own: the fewest parameters
    whose values, once fixed, leave only correct settings among the searched ones (whatever the
    other parameters). ``{"size": k, "choices": [{parameter: value, …}, …]}``; every set of k
    parameters is tried, from k = 0 up."""
    searched = list(searched)
    if not correct:
        return {"size": None, "choices": []}
    rows = [tuple(s.value(p) for p in PARAMETERS) for s in searched]
    good_rows = [r for r, s in zip(rows, searched) if s in correct]  # in the order searched
    bad_rows = [r for r, s in zip(rows, searched) if s not in correct]
    for k in range(len(PARAMETERS) + 1):
        found = []
        for subset in itertools.combinations(range(len(PARAMETERS)), k):
            # a choice of values is sufficient when some correct setting and no incorrect one has it
            project = (lambda r: ()) if k == 0 else operator.itemgetter(*subset) if k > 1 else \
                (lambda r, i=subset[0]: (r[i],))
            bad = set(map(project, bad_rows))
            for key in dict.fromkeys(map(project, good_rows)):
                if key not in bad:
                    found.append({PARAMETERS[i]: show_value(PARAMETERS[i], v) for i, v in zip(subset, key)})
        if found:
            return {"size": k, "choices": found}
    return {"size": None, "choices": []}  # not reached: the full settings of ``correct`` are sufficient


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


def describe(inference: Inference) -> list[str]:
    """The inference in words, for the command line."""
    lines = []
    n, total = len(inference.correct), inference.searched
    not_searched = sum(inference.unsearched.values())
    head = (f"{total} settings searched" + (f" ({not_searched} not searched)" if not_searched else "")
            + f", relations compared as {inference.compare}")
    if inference.correct:
        e = inference.summary()
        lines.append(f"explained: correct under {n} of {head}")
        if e["choices"]:
            lines.append("  choices common to all: " + ", ".join(f"{p} = {v}" for p, v in e["choices"].items()))
        if e["constrained"]:
            lines.append("  constrained: " + "; ".join(f"{p} ∈ {{{', '.join(map(str, v))}}}"
                                                       for p, v in e["constrained"].items()))
        if e["irrelevant"]:
            lines.append("  irrelevant: " + ", ".join(p + (" (where searched)" if p in e["irrelevant_where_searched"] else "")
                                                       for p in e["irrelevant"]))
        lines.append(f"  {len(e['explanations'])} distinct explanation(s) without the irrelevant parameters")
        suff = e["sufficient"]
        shown = suff["choices"][:3]
        lines.append(f"  smallest sufficient choices ({suff['size']} parameters, {len(suff['choices'])} way(s)): "
                     + " | ".join(", ".join(f"{p} = {v}" for p, v in c.items()) for c in shown)
                     + (" | …" if len(suff["choices"]) > len(shown) else ""))
        profiles = inference.profiles()
        if profiles:
            lines.append("  engine profiles that explain it: " + "; ".join(
                f"{name} (t0 = {', '.join(map(str, e['t0']))}{'; ' + e['note'] if 'note' in e else ''})"
                for name, e in profiles.items()))
    else:
        lines.append(f"not explained: incorrect under every one of {head}")
        for c in inference.closest:
            m = c["mismatch"] or {}
            setting = ", ".join(f"{p} {v}" for p, v in c["setting"].items())
            lines.append(f"  closest: {setting}")
            lines.append(f"    first mismatch at t = {m.get('timestamp')}: expected "
                         f"{_short(m.get('expected'))}, actual {_short(m.get('actual'))}")
            for d in m.get("diagnosis", []):
                lines.append(f"    diagnosis: {d}")
    for reason, count in inference.unsearched.items():
        lines.append(f"  not searched ({count} settings): {reason}")
    e = inference.evaluation
    if e.get("settings_refuted_by_report_times"):
        lines.append(f"  {e['settings_refuted_by_report_times']} settings refuted by their report times (no report at "
                     "some timestamp of the output), without evaluation")
    if e.get("reports_evaluated", 0) < e.get("reports_planned", 0):
        lines.append(f"  stopped early: {e['reports_evaluated']} of {e['reports_planned']} planned reports evaluated "
                     f"({e['settings_stopped_early']} settings up to their first mismatch only)")
    return lines


def _short(rel) -> str:
    import json

    text = json.dumps(rel, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "…"


__all__ = ["PARAMETERS", "Comparison", "Inference", "KeyedRelations", "Setting", "Space", "describe",
           "explanation", "infer", "parameter_space", "report_policies", "sufficient_choices"]
