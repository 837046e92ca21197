"""Interval verdicts: do the pull-based and the push-based run agree? (Dao-Tran, Beck, Eiter 2015, §5; D4)

Definition (Dao-Tran, Beck, Eiter 2015, §5). The engines *agree on* ``[t1, t2]`` iff the union of the push answers at
every ``t ∈ (t1, t2]`` equals the pull answer at ``t2``. With pull period ``U`` they agree on a
timeline iff they agree on every ``[i·U, (i+1)·U]``, ``i ≥ 0``.

Inputs:

* ``pull``: ``t -> answer`` at the pull times, the multiples of ``U`` (time 0 included, D4). Every
  pull time that ends a judged interval must be present (an empty answer is an empty frozenset).
  A non-empty answer at a time that is not a multiple of ``U`` contradicts Proposition 1 and is an
  error; empty entries there are ignored.
* ``push``: ``t -> answer`` at the time points where the push program was evaluated (time points
  with input, Proposition 1). A time point absent from the mapping contributes nothing.

Range (decision, documented in ``docs/agreement-report.md``): intervals are always aligned to
multiples of ``U``; only the *complete* intervals inside ``[start, end]`` are judged, i.e. those with
``i·U ≥ start`` and ``(i+1)·U ≤ end``. ``start`` defaults to 0 and ``end`` to the last pull time
given. A push answer at ``i·U`` belongs to the interval *ending* at ``i·U`` (the interval is open on
the left), so a push answer at time 0, or outside the judged range, is judged by no interval: such
time points are counted in :attr:`Summary.unjudged_push_times`, never dropped silently.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from enum import Enum
from typing import Iterable

from translator.agreement.errors import AgreementError
from translator.agreement.solutions import Answers, Solution


class Verdict(str, Enum):
    """The verdict on one interval."""

    AGREE = "agree"
    DISAGREE = "disagree"


@dataclass(frozen=True)
class IntervalVerdict:
    """The verdict on ``[start, end] = [i·U, (i+1)·U]`` and what it was computed from.

    ``pull`` is the pull answer at ``end``; ``push`` the union of the push answers on
    ``(start, end]``, evaluated at ``push_times``; ``missing = pull − push``, ``extra = push − pull``.
    """

    index: int
    start: int
    end: int
    pull: frozenset[Solution]
    push: frozenset[Solution]
    push_times: tuple[int, ...]

    @property
    def missing(self) -> frozenset[Solution]:
        """Solutions in the pull answer that no push evaluation of the interval produced."""
        return self.pull - self.push

    @property
    def extra(self) -> frozenset[Solution]:
        """Solutions some push evaluation of the interval produced that the pull answer lacks."""
        return self.push - self.pull

    @property
    def verdict(self) -> Verdict:
        return Verdict.AGREE if self.pull == self.push else Verdict.DISAGREE

    @property
    def agrees(self) -> bool:
        return self.pull == self.push


@dataclass(frozen=True)
class Summary:
    """Counts over the judged intervals; ``share_agreeing`` is ``None`` when no interval was judged."""

    intervals: int
    agreeing: int
    first_disagreement: IntervalVerdict | None
    unjudged_push_times: tuple[int, ...]

    @property
    def disagreeing(self) -> int:
        return self.intervals - self.agreeing

    @property
    def share_agreeing(self) -> float | None:
        return self.agreeing / self.intervals if self.intervals else None

    @property
    def all_agree(self) -> bool:
        """True iff no judged interval disagrees (vacuously true with no interval: check ``intervals``)."""
        return self.agreeing == self.intervals


@dataclass(frozen=True)
class AgreementResult:
    """Every judged interval, in time order, with the range and period they were judged under."""

    period: int
    start: int
    end: int
    intervals: tuple[IntervalVerdict, ...]
    summary: Summary


def judged_intervals(period: int, start: int, end: int) -> list[tuple[int, int, int]]:
    """The complete aligned intervals ``(i, i·U, (i+1)·U)`` inside ``[start, end]``, in order."""
    _check_period(period)
    first = -(-start // period)  # ceil(start / U)
    last = end // period - 1  # largest i with (i+1)·U <= end
    return [(i, i * period, (i + 1) * period) for i in range(max(first, 0), last + 1)]


def agree_on(pull: Answers, push: Answers, t1: int, t2: int) -> bool:
    """The definition itself for one interval: ``⋃_{t ∈ (t1, t2]} push(t) == pull(t2)`` (Dao-Tran, Beck, Eiter 2015, §5)."""
    union: set[Solution] = set()
    for t, answer in push.items():
        if t1 < t <= t2:
            union |= answer
    return frozenset(union) == frozenset(pull.get(t2, frozenset()))


def judge(
    pull: Answers,
    push: Answers,
    period: int,
    *,
    start: int | None = None,
    end: int | None = None,
) -> AgreementResult:
    """Judge every complete interval ``[i·U, (i+1)·U]`` inside ``[start, end]`` (see module docstring)."""
    _check_period(period)
    _check_pull_times(pull, period)
    start = 0 if start is None else start
    if start < 0:
        raise AgreementError(f"--from must be a time point >= 0, got {start}")
    if end is None:
        pull_times = [t for t in pull if t % period == 0]
        if not pull_times:
            raise AgreementError("no pull answers: the pull run must give an answer at every multiple of the period")
        end = max(pull_times)
    if end < start:
        raise AgreementError(f"--to ({end}) is before --from ({start})")

    push_times = sorted(push)
    verdicts: list[IntervalVerdict] = []
    for index, lo, hi in judged_intervals(period, start, end):
        if hi not in pull:
            raise AgreementError(
                f"no pull answer at time {hi}: the pull run must answer at every multiple of the period {period} (D4)"
            )
        times = tuple(push_times[bisect.bisect_right(push_times, lo) : bisect.bisect_right(push_times, hi)])
        verdicts.append(
            IntervalVerdict(
                index=index,
                start=lo,
                end=hi,
                pull=frozenset(pull[hi]),
                push=_union(push[t] for t in times),
                push_times=times,
            )
        )
    judged_lo = verdicts[0].start if verdicts else None
    judged_hi = verdicts[-1].end if verdicts else None
    unjudged = tuple(
        t
        for t in push_times
        if push[t] and (judged_lo is None or not judged_lo < t <= judged_hi)  # type: ignore[operator]
    )
    agreeing = sum(1 for v in verdicts if v.agrees)
    first = next((v for v in verdicts if not v.agrees), None)
    summary = Summary(intervals=len(verdicts), agreeing=agreeing, first_disagreement=first, unjudged_push_times=unjudged)
    return AgreementResult(period=period, start=start, end=end, intervals=tuple(verdicts), summary=summary)


def _union(answers: Iterable[frozenset[Solution]]) -> frozenset[Solution]:
    out: set[Solution] = set()
    for answer in answers:
        out |= answer
    return frozenset(out)


def _check_period(period: int) -> None:
    if isinstance(period, bool) or not isinstance(period, int) or period <= 0:
        raise AgreementError(f"the pull period must be a positive integer number of time units, got {period!r}")


def _check_pull_times(pull: Answers, period: int) -> None:
    for t, answer in pull.items():
        if t < 0:
            raise AgreementError(f"pull answer at negative time {t}")
        if t % period and answer:
            raise AgreementError(
                f"non-empty pull answer at time {t}, which is not a multiple of the period {period} "
                "(a pull program derives nothing there, Proposition 1)"
            )
