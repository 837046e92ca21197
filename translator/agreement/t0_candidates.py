"""The t0 values ``check --infer`` searches: one per class of window starts that give the same output.

Dell'Aglio et al. 2014, Definition 25 enumerates every t0 from the registration time a over the
windows' ranges, ``t0 ∈ [a, a + L]`` with ``L = max(β − 1, α)`` (``translator.agreement.check.candidates``):
10,001 values for a 10-second window on a millisecond clock. Most of them are equivalent. For one
window ``WW(α, β)`` whose grid opens at ``w = t0 + σ`` (σ = 0 when windows open at t0, σ = β − α
when they close at multiples of the step, ``translator.evaluate.profiles.opening_offset``), every
quantity a report policy reads is a *bound* ``w + a + i·β`` (a ∈ {0, α}, i ≥ 0: an opening or a
close; Dell'Aglio et al. 2014, Definitions 13 and 23) compared with an *event* time: an element's
timestamp, or a limit of the comparison (warm-up, end, observation horizon).

**Classes.** Call t0 *quiet* when every bound is at distance ≥ 3 from every event, i.e.
``t0 ≢ t − σ − a − d (mod β)`` for every event t, a ∈ {0, α} and |d| ≤ 2. Between two quiet
values t0 and t0 + 1 (a run of quiet values) no bound reaches an event: every window holds the same
elements under each window-bounds convention (an element enters or leaves only when a bound passes
it), the present window at each arrival is the same window (its close passes no arrival), and the
contents one instant before and after each bound (strict content change reads ``t − 1``) are the
same. So along a run (for a query whose answer depends on the window contents only, the evaluator's
``contents_index``):

* reports at arrivals (content change, arrivals reading; either tick) are at the same times with
  the same contents: the output is the *same* for every t0 of the run;
* reports at bounds (window close, periodic with the slide as period, the expiries of strict
  content change) shift with t0 and see the same contents: the relations are the same, their
  timestamps move with t0.

Hence the candidates: every value that is not quiet, and the first value of each run of quiet
values (:meth:`OffsetCandidates.representative`). Under ``--ignore-timestamps`` that is exact for
every policy. Under the timed comparison the output's timestamps also fix the bound-driven policies
(the search needs the t0 that puts a bound on them):

* a policy with window close or periodic reports at bounds only; its first report at or after the
  warm-up is the output's first timestamp t₁, so ``t0 ≡ t₁ − σ − α`` (a close) or ``t0 ≡ t₁ − σ``
  (a period) mod β — two residues for each alignment;
* content change alone reports at arrivals only: if a timestamp of the output is no arrival, no t0
  explains the output under it (the class candidates are then not needed for it);
* strict content change reports at arrivals and at expiries ``c`` or ``c + 1``: a timestamp that is
  no arrival is an expiry, so t0 ≡ t − σ − α − d with d ∈ {0, 1} for every such t.

A query that reads the evaluation time (``NOW()``) or when an element arrived keeps every t0 of the
range (its answers differ along a run); so does a query with several windows under the timed
comparison's pinning, which is per window (their candidate sets are multiplied).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Sequence

from lars.errors import RsplarsError
from translator.evaluate.operational import Evaluator, TimeWindowInfo

#: how close (in base units) a bound may come to an event before t0 stops being quiet (module docstring)
REACH = 2


def shifts(w: TimeWindowInfo, alignments: Iterable[str]) -> list[int]:
    """σ of each alignment: the grid opens at t0 + σ (``translator.evaluate.profiles.opening_offset``)."""
    return sorted({w.beta - w.alpha if a == "step" else 0 for a in alignments})


@dataclass(frozen=True)
class OffsetCandidates:
    """The candidates of one window: ``values`` (sorted) and the quiet runs they stand for."""

    values: tuple[int, ...]
    first: int
    last: int
    noisy: frozenset[int]
    """the values of ``[first, last]`` that are not quiet; ``None`` when every value is a candidate"""

    def representative(self, t0: int) -> int:
        """The candidate with the same output as ``t0`` under the arrival-driven policies and the same
        contents under the others (module docstring): t0 itself when it is a candidate, else the
        first value of its quiet run."""
        if t0 in self.values or not self.first <= t0 <= self.last:
            return t0
        z = t0
        while z > self.first and z - 1 not in self.noisy:
            z -= 1
        return z


def classes(w: TimeWindowInfo, events: Iterable[int], registration: int, alignments: Iterable[str]) -> OffsetCandidates:
    """Every value of ``[a, a + L]`` that is not quiet, and the first of each quiet run (module docstring)."""
    first, last = registration, registration + max(w.beta - 1, w.alpha)
    residues = {(t - s - a - d) % w.beta for t in set(events) for s in shifts(w, alignments) for a in (0, w.alpha)
                for d in range(-REACH, REACH + 1)}
    noisy = frozenset(z for z in range(first, last + 1) if z % w.beta in residues)
    values = [z for z in range(first, last + 1) if z in noisy or z == first or z - 1 in noisy]
    return OffsetCandidates(tuple(values), first, last, noisy)


def congruent(w: TimeWindowInfo, registration: int, residues: Iterable[int]) -> set[int]:
    """The values of ``[a, a + L]`` congruent mod β to one of ``residues``."""
    first, last = registration, registration + max(w.beta - 1, w.alpha)
    out: set[int] = set()
    for r in set(x % w.beta for x in residues):
        z = first + (r - first) % w.beta
        out.update(range(z, last + 1, w.beta))
    return out


def pinned_by_bounds(w: TimeWindowInfo, t1: int, registration: int, alignments: Iterable[str]) -> set[int]:
    """t0 values whose window close or period falls on t₁ (module docstring)."""
    return congruent(w, registration, [t1 - s - a for s in shifts(w, alignments) for a in (0, w.alpha)])


def pinned_by_expiries(w: TimeWindowInfo, stamps: Sequence[int], registration: int, alignments: Iterable[str]) -> set[int]:
    """t0 values under which every one of ``stamps`` is an expiry ``c`` or ``c + 1`` (module docstring)."""
    out: set[int] = set()
    for s in shifts(w, alignments):
        common: set[int] | None = None
        for t in stamps:
            got = congruent(w, registration, [t - s - w.alpha - d for d in (0, 1)])
            common = got if common is None else common & got
        out |= common or set()
    return out


def policy_kinds(reports: Iterable[frozenset[str]], cc_modes: Iterable[str]) -> set[str]:
    """Which timings the searched policies have: ``bounds`` (window close or periodic), ``arrivals``
    (content change alone, arrivals reading), ``strict`` (content change alone, strict reading)."""
    kinds = set()
    for r in reports:
        if r & {"window-close", "periodic"}:
            kinds.add("bounds")
        elif "content-change" in r:
            kinds.update({"arrivals": "arrivals", "strict": "strict"}[m] for m in cc_modes)
    return kinds


def t0_candidates(evaluator: Evaluator, *, registration: int, alignments: Sequence[str], kinds: set[str],
                  stamps: Sequence[int] | None, limits: Iterable[int], max_candidates: int) -> list[tuple[int, ...]]:
    """The t0 vectors ``check --infer`` searches (module docstring). ``stamps``: the output's
    timestamps as the timed comparison counts them (``None`` under ``--ignore-timestamps``);
    ``limits``: the warm-up, end and observation horizons (events like the elements)."""
    windows = evaluator.windows
    limits = [x for x in limits if x is not None]
    per_window: list[list[int]] = []
    content_only = evaluator.contents_index is not None
    arrivals = {t for w in windows for t in evaluator.contents.times.get(w.stream, ())}
    for w in windows:
        first, last = registration, registration + max(w.beta - 1, w.alpha)
        if not content_only:
            per_window.append(list(range(first, last + 1)))
            continue
        events = [*evaluator.contents.times.get(w.stream, ()), *limits]
        if stamps is None or len(windows) > 1 or not stamps:
            per_window.append(list(classes(w, events, registration, alignments).values))
            continue
        off_arrival = [t for t in stamps if t not in arrivals]
        chosen: set[int] = set()
        need_classes = False
        if "bounds" in kinds:
            chosen |= pinned_by_bounds(w, stamps[0], registration, alignments)
        if "arrivals" in kinds and not off_arrival:
            need_classes = True
        if "strict" in kinds:
            if off_arrival:
                chosen |= pinned_by_expiries(w, off_arrival, registration, alignments)
            else:
                need_classes = True
        if need_classes:
            chosen |= set(classes(w, events, registration, alignments).values)
        per_window.append(sorted(chosen) or [first])
    total = 1
    for values in per_window:
        total *= len(values)
    if total > max_candidates:
        how = ("the query reads more than the window contents (NOW(), arrival times), so every t0 of the range counts"
               if not content_only else "the classes of window starts that differ in content")
        raise RsplarsError(f"{total} t0 candidates exceed --max-candidates {max_candidates} ({how}); fix t0 with --t0, "
                           "raise --max-candidates, or choose a coarser --unit")
    return list(itertools.product(*per_window))


__all__ = ["OffsetCandidates", "classes", "pinned_by_bounds", "pinned_by_expiries", "policy_kinds", "t0_candidates"]
