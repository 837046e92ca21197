"""Evaluation times and blocks: which block solves which evaluation time, and which input it needs.

The sequential run (``translator.evaluate.run.answers``) evaluates a program at the times of its mode
(Dao-Tran, Beck, Eiter 2015, §4.1, D4): pull — the multiples of the period U in ``[from, to]``; push — the time points
with input; none — every time point. :class:`Timeline` restates that computation (and the stream
end the sequential run uses) from a few numbers, so that every block can find its own evaluation
times without seeing the whole stream.

A *block* is the half-open range of evaluation times ``(b·W, (b+1)·W]``; W is a multiple of every
pull period, so a block holds whole agreement intervals ``[i·U, (i+1)·U]`` (Dao-Tran, Beck, Eiter 2015, §5: the pull
answer at ``(i+1)·U`` and the push answers on ``(i·U, (i+1)·U]``). Time 0 (a pull time, D4) falls in
block −1, the range ``(−W, 0]``. A block needs its own stream elements plus the look-back of
:mod:`spark_jobs.lookback`; :func:`blocks_of_element` says which blocks need one element and is the
plain-Python statement of what :mod:`spark_jobs.frames` computes with Spark columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Iterable, Sequence

from lars.errors import RsplarsError
from spark_jobs.lookback import LookBack


class PlanError(RsplarsError):
    """Options that give no valid evaluation plan (e.g. ``--from`` before the timeline)."""


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Timeline:
    """The evaluation times of one program, as ``translator.evaluate.run.evaluation_times`` computes them.

    ``lo``: start of the timeline (0, or the first element if earlier); ``first``/``last``: the
    range of candidate evaluation times; ``end``: the end of the stream the solver gets (the last
    element, ``--to``, or the last pull time if later).
    """

    mode: str
    period: int | None
    lo: int
    first: int
    last: int
    end: int

    @classmethod
    def of(cls, mode: str, period: int | None, data_lo: int | None, data_hi: int | None,
           start: int | None = None, end: int | None = None) -> "Timeline":
        """``data_lo``/``data_hi``: the first and last element times (``None``: no elements)."""
        lo = min(0, data_lo) if data_lo is not None else 0
        hi = max(data_hi if data_hi is not None else lo, lo) if end is None else max(end, lo)
        first = lo if start is None else start
        last = hi if end is None else end
        if first < lo:
            raise PlanError(f"--from {first} lies before the start {lo} of the timeline")
        stream_end = hi
        if mode == "pull":
            if period is None or period < 1:
                raise PlanError("a pull run needs a positive period")
            if end is None:
                last = _ceil_div(last, period) * period
            first = _ceil_div(first, period) * period
            last_time = (last // period) * period
            if last_time >= first:
                stream_end = max(stream_end, last_time)
        return cls(mode, period, lo, first, last, stream_end)

    def times(self, a: int, b: int, data_times: Iterable[int] = ()) -> list[int]:
        """The evaluation times in ``[a, b]``; push mode needs the time points with input there."""
        a, b = max(a, self.first), min(b, self.last)
        if a > b:
            return []
        if self.mode == "pull":
            u = self.period
            assert u is not None
            return list(range(_ceil_div(a, u) * u, b + 1, u))
        if self.mode == "push":
            return sorted({t for t in data_times if a <= t <= b})
        return list(range(a, b + 1))


@dataclass(frozen=True)
class Blocks:
    """Blocks of width ``width`` covering the evaluation times ``[first, last]`` of every program."""

    width: int
    first: int
    last: int

    @classmethod
    def of(cls, timelines: Sequence[Timeline], count: int) -> "Blocks":
        """About ``count`` blocks over the union of the timelines; the width is a multiple of
        every pull period (so that agreement intervals never straddle two blocks)."""
        if count < 1:
            raise PlanError(f"--partitions must be >= 1, got {count}")
        first = min(t.first for t in timelines)
        last = max(max(t.last, t.first) for t in timelines)
        step = lcm(*[t.period for t in timelines if t.mode == "pull" and t.period] or [1])
        width = max(1, _ceil_div(_ceil_div(last - first + 1, count), step)) * step
        return cls(width, first, last)

    def block_of(self, t: int) -> int:
        """The block whose evaluation times ``(b·W, (b+1)·W]`` include t."""
        return (t - 1) // self.width

    def own(self, b: int) -> tuple[int, int]:
        """The evaluation times of block b: the closed range ``[b·W+1, (b+1)·W]``."""
        return b * self.width + 1, (b + 1) * self.width

    @property
    def first_block(self) -> int:
        return self.block_of(self.first)

    @property
    def last_block(self) -> int:
        return self.block_of(self.last)

    def blocks_of_element(self, t: int, look: LookBack, *, next_times: Sequence[int | None] = (),
                          first_occurrence: bool = False) -> range:
        """The blocks that need a stream element at time t (their own one, then those whose
        look-back reaches it), clipped to the blocks that evaluate something.

        ``next_times``: for each tuple need of ``look`` that the element matches, the time of the
        n-th next matching atom (``None``: fewer than n follow); ``first_occurrence``: the element
        is the first occurrence of its atom (needed by every later block when ``look`` asks for
        the prefix state of ⊞^∞)."""
        own = self.block_of(t)
        hi = own
        if look.ticks > 0:
            hi = max(hi, (t + look.ticks - 1) // self.width)
        for nxt in next_times:
            hi = max(hi, self.last_block if nxt is None else self.block_of(nxt))
        if first_occurrence and look.first_occurrences:
            hi = self.last_block
        return range(max(own, self.first_block), min(hi, self.last_block) + 1)
