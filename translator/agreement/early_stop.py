"""Judging an output in time order and stopping at its first decisive difference (docs/check.md §8).

Under the timed comparison (Dell'Aglio et al. 2014, Definition 25: the sequence of timestamped
relations must be equal) the expected relations at times up to T depend only on the reports at times
up to T: R2R of a report reads its window contents at its own t, and R2S (Dell'Aglio et al. 2014,
Definitions 20–22) reads the previous report's answer only. So the reports of a candidate (a t0
vector of ``check``, a setting of ``check --infer``) are evaluated in blocks of growing size, in time
order; after each block the relations up to its last time are final and are compared with the
recorded ones up to that time. The first differing timestamp found is the candidate's first
mismatch, the same as a comparison of the whole timeline finds, and the candidate needs no more
evaluation. A block ends after every report of its last instant (a tuple tick reports several
times at one instant, and their relations are merged per timestamp before comparing).

* :func:`block_ends` — where the blocks of a time-ordered list of reports end;
* :class:`R2SStream` — R2S applied block after block, giving the relations
  :func:`translator.evaluate.operational.apply_r2s` gives on the whole list;
* :class:`TimedJudge` — the comparison of the relations so far with the recorded ones, with the
  closeness so far and an upper bound of the closeness over the whole timeline;
* :class:`Progress`, :class:`Judged` — a plan's reports answered block by block, and a candidate
  judged as far as they go;
* :func:`best_first` — the candidates in the order of their closeness over the whole timeline
  (``check``'s ranking of incorrect candidates), evaluating each only as far as the bounds require.

The verdict needs every candidate up to its first mismatch only; the ranking of the closest
candidates needs more, and gets it from the bounds: when one candidate agrees on most timestamps,
the others stop soon after their first mismatch (each differing timestamp lowers the bound by
two); when every candidate differs almost everywhere, the ranking evaluates them almost to the end.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from typing import Callable, Iterable, Sequence

from translator.agreement.multisets import BAGS
from translator.evaluate.operational import Relation, apply_r2s
from translator.evaluate.report_policy import Report
from translator.rdf.bags import Bag

#: reports (or instants) in the first block; each next block is twice as large, so a candidate
#: judged to the end costs about log2(n / FIRST_BLOCK) more evaluation calls than one call
FIRST_BLOCK = 64


def block_ends(times: Sequence[int], first: int | None = None) -> list[int]:
    """The end indexes (exclusive) of growing blocks of ``times`` (sorted): about ``first``
    (default :data:`FIRST_BLOCK`, read when called),
    ``2·first``, … items each, every block extended past the items equal to its last one; the last
    end is ``len(times)`` (no block for an empty list)."""
    ends: list[int] = []
    i, size, n = 0, first or FIRST_BLOCK, len(times)
    while i < n:
        j = min(i + size, n)
        while j < n and times[j] == times[j - 1]:
            j += 1
        ends.append(j)
        i, size = j, size * 2
    return ends


class R2SStream:
    """R2S and the empty-relation policy applied to answered reports block after block: the
    relations of every block together are those of ``apply_r2s`` on all the reports (the last
    answered report of the previous block is the state carried over)."""

    def __init__(self, r2s: str, empty_relations: str) -> None:
        self.r2s, self.empty = r2s, empty_relations
        self.last: tuple[Report, Bag] | None = None

    def extend(self, answered: list[tuple[Report, Bag]]) -> list[Relation]:
        if not answered:
            return []
        head = [self.last] if self.last is not None else []
        rels = apply_r2s(head + answered, self.r2s, self.empty)
        if head and rels and rels[0].report is head[0][0]:
            rels = rels[1:]  # the carried-over report's own relation was given with its block
        self.last = answered[-1]
        return rels


class TimedJudge:
    """The timed comparison of ``check`` (``_equal_timed``) made block by block: expected relations
    merged per timestamp (``merge``: the comparison's view, :mod:`translator.agreement.multisets`),
    from ``low`` on, against ``actual`` (merged per timestamp and filtered as
    ``check`` filters them: from ``low`` on, after the horizon only non-empty relations).

    Besides the first mismatch it counts the closeness ``check`` ranks candidates by (timestamps
    that agree minus those that differ) over the times compared, and bounds it from above for the
    whole timeline, over the times not compared yet: a recorded timestamp that is a report time of
    the plan (``report_times``) adds at most one; a recorded timestamp that is none differs (no
    expected relation there: it subtracts one); a report time without a recorded relation adds at
    most zero (it differs, or the profile emits nothing there)."""

    def __init__(self, actual: dict[int, Bag], low: int, report_times: Iterable[int] = (),
                 merge: Callable[[Bag, Bag], Bag] = BAGS.merge) -> None:
        self.actual = actual
        self.merge = merge
        self.actual_times = sorted(actual)
        self.low = low
        self.expected: dict[int, Bag] = {}
        self.done_until = -(10**19)  # every time up to it has been compared
        self.first_mismatch: int | None = None
        self.finished = False
        self.score = 0
        reported = {t for t in report_times if t >= low}
        self.may_agree = sorted(reported.intersection(self.actual_times))
        self.must_differ = sorted(set(self.actual_times) - reported)

    def add(self, relations: Iterable[tuple[int, Bag]], until: int | None) -> int | None:
        """Take the expected relations of the next block, knowing that every expected relation at a
        time ≤ ``until`` is now in (``None``: all of them); compare the times of this block, and
        return the first mismatching timestamp found so far (``None``: none)."""
        new: set[int] = set()
        for t, rel in relations:
            if t < self.low:
                continue
            self.expected[t] = self.merge(self.expected[t], rel) if t in self.expected else rel
            new.add(t)
        lo = bisect_right(self.actual_times, self.done_until)
        hi = len(self.actual_times) if until is None else bisect_right(self.actual_times, until)
        times = new.union(self.actual_times[lo:hi])
        bad = [t for t in times if self.expected.get(t) != self.actual.get(t)]
        self.score += len(times) - 2 * len(bad)
        if bad and self.first_mismatch is None:
            self.first_mismatch = min(bad)
        self.finished = until is None
        self.done_until = until if until is not None else 10**19
        return self.first_mismatch

    def upper_bound(self) -> int:
        """The closeness over the whole timeline is at most this (equal to it once finished)."""
        if self.finished:
            return self.score
        later = len(self.may_agree) - bisect_right(self.may_agree, self.done_until)
        return self.score + later - (len(self.must_differ) - bisect_right(self.must_differ, self.done_until))


class Progress:
    """The reports of one plan answered block after block (:func:`block_ends`); ``answer`` gives the
    R2R answers of a block (the evaluator's). ``whole`` makes one block of all of them."""

    def __init__(self, reports: Sequence[Report], answer: Callable[[Sequence[Report]], Sequence[Bag]],
                 whole: bool = False) -> None:
        self.reports = reports
        self.answer = answer
        self.ends = ([len(reports)] if reports else []) if whole else block_ends([r.t for r in reports])
        self.blocks = 0
        self.answered: list[tuple[Report, Bag]] = []

    @property
    def done(self) -> bool:
        return self.blocks == len(self.ends)

    @property
    def evaluated(self) -> int:
        """Reports answered so far."""
        return len(self.answered)

    def next_block(self) -> Sequence[Report]:
        start = self.ends[self.blocks - 1] if self.blocks else 0
        return self.reports[start:self.ends[self.blocks]]

    def advance(self) -> None:
        block = self.next_block()
        self.answered += zip(block, self.answer(block))
        self.blocks += 1

    @property
    def until(self) -> int | None:
        """Every report at a time ≤ this is answered (``None``: every report)."""
        if self.done:
            return None
        return self.reports[self.ends[self.blocks - 1] - 1].t if self.blocks else -(10**19)


class Judged:
    """One candidate (a t0 vector, a setting) judged under the timed comparison as far as its
    plan's :class:`Progress` goes: R2S applied, relations keyed (``key_rows``) and compared."""

    def __init__(self, progress: Progress, r2s: str, empty_relations: str, actual: dict[int, Bag], low: int,
                 key_rows: Callable[[Bag], Bag], merge: Callable[[Bag, Bag], Bag] = BAGS.merge) -> None:
        self.progress = progress
        self.stream = R2SStream(r2s, empty_relations)
        self.judge = TimedJudge(actual, low, (r.t for r in progress.reports), merge)
        self.key_rows = key_rows
        self.seen = 0
        self.relations: list[Relation] = []
        self.keyed: list[Bag] = []

    def catch_up(self) -> None:
        """Judge the reports the plan has answered since the last call."""
        if self.judge.finished:
            return
        new = self.progress.answered[self.seen:]
        self.seen += len(new)
        rels = self.stream.extend(new)
        keyed = [self.key_rows(r.rows) for r in rels]
        self.relations += rels
        self.keyed += keyed
        self.judge.add(((r.t, k) for r, k in zip(rels, keyed)), self.progress.until)

    def step(self) -> None:
        """One more block of the plan (answered unless another candidate of the plan did), judged."""
        if self.seen == self.progress.evaluated and not self.progress.done:
            self.progress.advance()
        self.catch_up()

    def run(self, early_stop: bool = True) -> None:
        """Judge block after block up to the first mismatch (``early_stop``) or the end."""
        self.catch_up()
        while not self.finished and not (early_stop and self.first_mismatch is not None):
            self.step()

    @property
    def finished(self) -> bool:
        return self.judge.finished

    @property
    def first_mismatch(self) -> int | None:
        return self.judge.first_mismatch

    @property
    def stopped_at(self) -> int | None:
        """The time up to which the candidate was judged when it was not judged to the end."""
        return None if self.finished else self.judge.done_until

    def upper_bound(self) -> int:
        return self.judge.upper_bound()


def best_first(judged: Sequence[Judged], order: Callable[[int], object] = lambda i: i) -> Iterable[int]:
    """The indexes of ``judged`` by decreasing closeness over the whole timeline (ties: by ``order``),
    each judged to the end when it is given, the others only as far as their upper bounds require
    (a best-first search: a finished candidate whose score is at least every other's upper bound
    comes next)."""
    heap = [(-j.upper_bound(), order(i), i) for i, j in enumerate(judged)]
    heapq.heapify(heap)
    while heap:
        _, key, i = heapq.heappop(heap)
        j = judged[i]
        if j.finished:
            yield i
            continue
        j.step()
        heapq.heappush(heap, (-j.upper_bound(), key, i))
