"""A LARS data stream cut into blocks of evaluation times, each with the look-back its windows need.

The jobs of ``rsplars lars`` and of EP-SPARQL runs on Spark (docs/spark_jobs.md) read a data stream
that is already in memory (time point → ground atoms in arrival order) and evaluate a LARS program at a
list of reference times. The answer at t depends only on the stream up to t (D9, docs/decisions.md)
and, through the windows, only on part of it (Dao-Tran, Beck, Eiter 2015, §2.3), so a block owning the
evaluation times ``[a, z]`` is solved exactly from the time points up to z that its look-back
(:class:`spark_jobs.lookback.LookBack`, read off the program's rules) reaches:

* time windows ``⊞^{l,u,d}``: every time point ``≥ a − ticks`` (``ticks = max(l+d−1)``);
* tuple and partition windows ``⊞^{#n}``: whole time points back to the latest one by which n
  matching stream atoms (``lars.windows.in_partition``) have arrived before a (more atoms than n
  change nothing: the window keeps the last n, D11);
* ``◇`` over ``⊞^∞``: the first occurrence of every atom before a (an atom held somewhere since
  the start iff its first occurrence is there).

Every block is evaluated on the timeline of the whole stream (the same ``tmin``, so windows cut at the
same place) and owns its evaluation times: each answer is computed by exactly one block. This module
does not import pyspark (:mod:`spark_jobs.point_jobs` ships the blocks).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Mapping, Sequence

from lars.model import Atom
from lars.windows import in_partition
from spark_jobs.lookback import LookBack, TupleNeed

Points = Mapping[int, tuple[Atom, ...]]


@dataclass(frozen=True)
class PointBlock:
    """One block: its index, the evaluation times it owns (ascending) and the time points it reads."""

    index: int
    times: tuple[int, ...]
    points: dict[int, tuple[Atom, ...]]


def cut(times: Sequence[int], count: int) -> list[tuple[int, ...]]:
    """``times`` (ascending) in at most ``count`` runs of consecutive times, of equal length up to one
    (blocks balanced by the number of evaluations, which is what they cost)."""
    n = len(times)
    count = max(1, min(count, n))
    if n == 0:
        return []
    size, extra = divmod(n, count)
    out, i = [], 0
    for k in range(count):
        j = i + size + (1 if k < extra else 0)
        out.append(tuple(times[i:j]))
        i = j
    return out


def _tuple_start(points: Points, ordered: Sequence[int], a: int, need: TupleNeed) -> int | None:
    """The latest time point s < a such that the points in ``[s, a)`` hold ``need.n`` matching atoms
    (``None``: fewer arrived before a, every earlier point is needed)."""
    if need.n <= 0:
        return a
    found = 0
    for i in range(bisect.bisect_left(ordered, a) - 1, -1, -1):
        t = ordered[i]
        found += sum(1 for atom in points[t] if need.key is None or in_partition(need.key, atom))
        if found >= need.n:
            return t
    return None


def point_blocks(points: Points, times: Sequence[int], look: LookBack, count: int) -> list[PointBlock]:
    """The blocks of ``times`` (ascending, about ``count`` of them), each with the time points of
    ``points`` it needs (module docstring)."""
    ordered = sorted(points)
    one: dict[Atom, Atom] = {}  # one object per distinct atom: a block pickles each atom once, then refers to it
    points = {t: tuple([one.setdefault(atom, atom) for atom in points[t]]) for t in ordered}
    first_seen: dict[Atom, int] = {}
    if look.first_occurrences:
        for t in ordered:
            for atom in points[t]:
                first_seen.setdefault(atom, t)
    out = []
    for index, owned in enumerate(cut(times, count)):
        a, z = owned[0], owned[-1]
        start = a - look.ticks
        for need in look.tuples:
            s = _tuple_start(points, ordered, a, need)
            start = min(start, ordered[0] if s is None and ordered else (a if s is None else s))
        i, j = bisect.bisect_left(ordered, start), bisect.bisect_right(ordered, z)
        block = {t: points[t] for t in ordered[i:j]}
        if look.first_occurrences:  # before the look-back only the first occurrences (prefix state)
            for t in ordered[:i]:
                firsts = tuple(atom for atom in points[t] if first_seen[atom] == t)
                if firsts:
                    block[t] = firsts
            block = dict(sorted(block.items()))
        out.append(PointBlock(index, owned, block))
    return out


