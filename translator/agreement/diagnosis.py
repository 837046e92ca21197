"""Why does an interval disagree? Decomposition into the causes of Dao-Tran, Beck, Eiter 2015, §5.

The headline comparison is C-SPARQL against CQELS: ``(τ1, pull)`` against ``(τ2, push)``. It differs
from its mirror in two factors, and one more run isolates each of them:

* ``(τ1, pull)`` vs ``(τ2, pull)`` — same execution mode, different dataset construction
  (τ1 merges stream triples into the default graph, τ2 reads stream graph patterns): cause **(ii)**
  holds on ``[i·U, (i+1)·U]`` iff the two pull answers differ at ``(i+1)·U``.
* ``(τ2, pull)`` vs ``(τ2, push)`` — same translation, different execution mode: cause **(iii)**
  holds iff these two runs disagree on the interval (the agreement definition, :func:`judge`).
* the window-bounds convention (D2) as a third factor: given the headline runs under another
  convention, **window bounds** is a cause iff the headline verdict on the interval changes.

Several causes can hold at once. Since equality is transitive, a disagreement of the headline pair
implies that (ii) or (iii) holds (if ``τ1-pull = τ2-pull`` at the end and ``τ2-pull`` agrees with
``τ2-push``, the headline pair agrees); so **unexplained** cannot happen with consistent inputs. It
is still reported (never hidden) should it ever occur, e.g. if the runs given are not the ones the
headline verdict was computed from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property

from lars.windows import WindowBounds
from translator.agreement.solutions import Answers, Solution
from translator.agreement.verdicts import AgreementResult, IntervalVerdict, Verdict, judge


class Cause(str, Enum):
    """A cause of disagreement (names used in every report)."""

    DATASET = "dataset"  # (ii) τ1 and τ2 build different datasets
    EXECUTION_MODE = "execution-mode"  # (iii) push and pull see different window snapshots
    WINDOW_BOUNDS = "window-bounds"  # the verdict changes under another window-bounds convention (D2)


@dataclass(frozen=True)
class Runs:
    """The answer streams of the three runs of the decomposition, under one window-bounds convention."""

    tau1_pull: Answers
    tau2_pull: Answers
    tau2_push: Answers
    window_bounds: WindowBounds = WindowBounds.CLOSED


@dataclass(frozen=True)
class BoundsAlternative:
    """The headline runs ``(τ1, pull)`` and ``(τ2, push)`` repeated under another convention (D2)."""

    window_bounds: WindowBounds
    tau1_pull: Answers
    tau2_push: Answers


@dataclass(frozen=True)
class IntervalDiagnosis:
    """The causes of one disagreeing interval, with the evidence of each factor.

    ``dataset_only_tau1``/``dataset_only_tau2``: the pull answers at ``end`` of τ1 and τ2 minus each
    other (cause (ii) iff either is non-empty). ``mode``: the verdict of ``(τ2, pull)`` against
    ``(τ2, push)`` on the interval (cause (iii) iff it disagrees). ``other_bounds_verdict``: the
    headline verdict under the other convention, ``None`` when none was given.
    """

    index: int
    start: int
    end: int
    causes: frozenset[Cause]
    dataset_only_tau1: frozenset[Solution]
    dataset_only_tau2: frozenset[Solution]
    mode: IntervalVerdict
    other_bounds_verdict: Verdict | None

    @property
    def unexplained(self) -> bool:
        """No cause found: impossible for consistent runs (see the module docstring)."""
        return not self.causes

    @property
    def sorted_causes(self) -> list[Cause]:
        return [c for c in Cause if c in self.causes]


@dataclass(frozen=True)
class Diagnosis:
    """The headline verdicts and the diagnosis of each of its disagreeing intervals, in time order."""

    headline: AgreementResult
    intervals: tuple[IntervalDiagnosis, ...]
    window_bounds: WindowBounds
    other_window_bounds: WindowBounds | None = None
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def unexplained(self) -> int:
        return sum(1 for d in self.intervals if d.unexplained)

    @cached_property
    def _by_index(self) -> dict[int, IntervalDiagnosis]:
        return {d.index: d for d in self.intervals}

    def for_interval(self, index: int) -> IntervalDiagnosis | None:
        """The diagnosis of interval ``index``; ``None`` if it agrees (or was not judged)."""
        return self._by_index.get(index)


def diagnose(
    runs: Runs,
    period: int,
    *,
    other: BoundsAlternative | None = None,
    start: int | None = None,
    end: int | None = None,
) -> Diagnosis:
    """Attribute each disagreeing interval of ``(τ1, pull)`` vs ``(τ2, push)`` to its causes.

    ``start``/``end`` select the intervals exactly as in :func:`judge`; every run must cover them.
    """
    headline = judge(runs.tau1_pull, runs.tau2_push, period, start=start, end=end)
    start, end = headline.start, headline.end
    mode = {v.index: v for v in judge(runs.tau2_pull, runs.tau2_push, period, start=start, end=end).intervals}
    alternative = (
        {v.index: v for v in judge(other.tau1_pull, other.tau2_push, period, start=start, end=end).intervals}
        if other is not None
        else None
    )
    diagnosed: list[IntervalDiagnosis] = []
    for verdict in headline.intervals:
        if verdict.agrees:
            continue
        # judge() above already checked that (τ2, pull) answers at every interval end
        tau1 = frozenset(runs.tau1_pull[verdict.end])
        tau2 = frozenset(runs.tau2_pull[verdict.end])
        mode_verdict = mode[verdict.index]
        causes: set[Cause] = set()
        if tau1 != tau2:
            causes.add(Cause.DATASET)
        if not mode_verdict.agrees:
            causes.add(Cause.EXECUTION_MODE)
        other_verdict = alternative[verdict.index].verdict if alternative is not None else None
        if other_verdict is not None and other_verdict != verdict.verdict:
            causes.add(Cause.WINDOW_BOUNDS)
        diagnosed.append(
            IntervalDiagnosis(
                index=verdict.index,
                start=verdict.start,
                end=verdict.end,
                causes=frozenset(causes),
                dataset_only_tau1=tau1 - tau2,
                dataset_only_tau2=tau2 - tau1,
                mode=mode_verdict,
                other_bounds_verdict=other_verdict,
            )
        )
    counts = {cause.value: sum(1 for d in diagnosed if cause in d.causes) for cause in Cause}
    counts["unexplained"] = sum(1 for d in diagnosed if d.unexplained)
    return Diagnosis(
        headline=headline,
        intervals=tuple(diagnosed),
        window_bounds=runs.window_bounds,
        other_window_bounds=other.window_bounds if other is not None else None,
        counts=counts,
    )
