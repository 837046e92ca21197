"""Relations and windows of the incremental engine.

A :class:`Relation` is a set of rows (tuples of canonical term texts) with hash indexes on
argument positions. A :class:`WindowRelations` keeps, for one time window ``⊞^{l,u,d}``
(Dao-Tran, Beck, Eiter 2015, §2.3), the base relations over it: for ◇ the last point of the
window each row occurs at (Laser's horizon, Bazoobi et al. AAAI 2017 §4), for □ the start of
each row's current run of occurrences (its consideration time), and the signatures read by
``@_T``.
"""

from __future__ import annotations

from itertools import compress
from typing import Iterable

from lars.incremental.joins import tuple_getter
from lars.model import TimeWindow


# ============================================================================== relations


class Relation:
    """A set of tuples with hash indexes on argument positions (built on first use)."""

    __slots__ = ("rows", "indexes")

    def __init__(self) -> None:
        self.rows: set[tuple] = set()
        self.indexes: dict[tuple[int, ...], dict[tuple, set[tuple]]] = {}

    def add(self, row: tuple) -> None:
        self.rows.add(row)
        for pos, idx in self.indexes.items():
            key = tuple([row[k] for k in pos])
            got = idx.get(key)
            if got is None:
                idx[key] = {row}
            else:
                got.add(row)

    def add_many(self, rows) -> None:
        self.rows.update(rows)
        for pos, idx in self.indexes.items():
            get = idx.get
            keys = [(row[pos[0]],) for row in rows] if len(pos) == 1 else list(map(tuple_getter(pos), rows))
            for key, row in zip(keys, rows):
                got = get(key)
                if got is None:
                    idx[key] = {row}
                else:
                    got.add(row)

    def remove_many(self, rows) -> None:
        self.rows.difference_update(rows)
        for pos, idx in self.indexes.items():
            get = idx.get
            keys = [(row[pos[0]],) for row in rows] if len(pos) == 1 else list(map(tuple_getter(pos), rows))
            for key, row in zip(keys, rows):
                got = get(key)
                if got is not None:
                    got.discard(row)
                    if not got:
                        del idx[key]

    def remove(self, row: tuple) -> None:
        self.rows.discard(row)
        for pos, idx in self.indexes.items():
            key = tuple([row[k] for k in pos])
            got = idx.get(key)
            if got is not None:
                got.discard(row)
                if not got:
                    del idx[key]

    def index(self, pos: tuple[int, ...]) -> dict[tuple, set[tuple]]:
        """The hash index on the positions ``pos`` (built on first use, then kept up to date)."""
        idx = self.indexes.get(pos)
        if idx is None:
            idx = {}
            for row in self.rows:
                idx.setdefault(tuple([row[k] for k in pos]), set()).add(row)
            self.indexes[pos] = idx
        return idx

    def lookup(self, pos: tuple[int, ...], key: tuple) -> Iterable[tuple]:
        if not pos:
            return self.rows
        if len(pos) == len(key) and pos == tuple(range(len(key))) and len(key) == self._arity():
            return (key,) if key in self.rows else ()
        idx = self.indexes.get(pos)
        if idx is None:
            idx = {}
            for row in self.rows:
                idx.setdefault(tuple([row[k] for k in pos]), set()).add(row)
            self.indexes[pos] = idx
        return idx.get(key, ())

    def _arity(self) -> int:
        for row in self.rows:
            return len(row)
        return -1


def all_one(values: list) -> bool:
    """Is every value 1 (one count in C, without a call per value)?"""
    return values.count(1) == len(values)


def last_at(rows, last: dict, u: int):
    """The rows of ``rows`` whose last point in ``last`` is u (all of them, the common case, by
    one count over their points instead of a comparison call per row)."""
    points = list(map(last.__getitem__, rows))
    if points.count(u) == len(points):
        return rows  # (read only)
    return list(compress(rows, map(u.__eq__, points)))


class WindowRelations:
    """One time window ``⊞^{l,u,d}`` and the base relations over it (◇, □, @_T per predicate)."""

    def __init__(self, window: TimeWindow, tmin: int) -> None:
        self.window = window
        self.tmin = tmin
        self.lo, self.hi = tmin, tmin - 1  # the points applied so far: [lo, hi]
        self.dia: dict[tuple, dict[tuple, int]] = {}  # sig -> row -> the last point of the window it occurs at
        self.at: set[tuple] = set()  # sigs with an @_T relation
        self.dia_run: dict[tuple, list] = {}  # sig -> [rows object, point written, end] (``Engine._dia``)
        self.box: dict[tuple, dict[tuple, int]] = {}  # sig -> row -> start of its current run
        self.box_last = tmin - 2  # last point the runs were updated for
        self.box_in: dict[tuple, set[tuple]] = {}  # sig -> rows in □ now
        self.box_src: dict[tuple, object] = {}  # sig -> the rows object the runs were last built from
        self.true = False  # does a literal read ``true`` through this window (every point counts)
