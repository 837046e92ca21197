"""Multisets of solution rows: SPARQL's answers are bags (W3C SPARQL 1.1, §18.1.6 "Multisets";
Angles and Gutierrez 2016, "The multiset semantics of SPARQL patterns", §2).

A row is a tuple of N-Triples texts, one per result variable (``None``: unbound). A :class:`Bag`
holds each distinct row with its cardinality ``card(μ) ≥ 1``. It iterates over every solution, a
row as many times as its cardinality (SPARQL's ``ToList``), and ``len`` is the number of solutions;
:meth:`Bag.distinct` is the set view (the cardinalities forgotten), which the papers' set-based
definitions use (e.g. the agreement of Dao-Tran, Beck, Eiter 2015, §5).

The LARS program of a query derives *witnessed* rows: the visible columns followed by hidden ones
that tell duplicate solutions apart (decision D5 in docs/decisions.md). :meth:`Bag.of_witnessed`
counts them: the cardinality of a visible row is the number of distinct witnessed rows that project
to it (SPARQL 1.1 §18.5, ``Project``).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, repeat
from operator import itemgetter
from typing import ItemsView, Iterable, Iterator, Mapping

Row = tuple[str | None, ...]
"""One solution: the N-Triples text of each result variable (``None``: unbound)."""


class Bag:
    """An immutable multiset of rows (SPARQL 1.1 §18.1.6).

    >>> b = Bag([("<a>",), ("<a>",), ("<b>",)])
    >>> len(b), b.count(("<a>",)), sorted(b.distinct())
    (3, 2, [('<a>',), ('<b>',)])
    >>> b - Bag([("<a>",)]) == Bag([("<a>",), ("<b>",)])
    True
    """

    __slots__ = ("_counts", "_size", "_hash")

    def __init__(self, rows: Iterable[Row] = ()) -> None:
        counts = Counter(rows)
        self._counts: dict[Row, int] = dict(counts)
        self._size = sum(counts.values())
        self._hash: int | None = None

    @classmethod
    def from_counts(cls, counts: Mapping[Row, int]) -> Bag:
        """The bag with these cardinalities (rows counted 0 or less are left out)."""
        bag = cls.__new__(cls)
        if counts and min(counts.values()) > 0:  # nothing to leave out: a copy, without a loop in Python
            bag._counts = dict(counts)
        else:
            bag._counts = {row: n for row, n in counts.items() if n > 0}
        bag._size = sum(bag._counts.values())
        bag._hash = None
        return bag

    @classmethod
    def of_set(cls, rows: Iterable[Row]) -> Bag:
        """Each distinct row once (a set read as a bag)."""
        bag = cls.__new__(cls)
        bag._counts = dict.fromkeys(rows, 1)
        bag._size = len(bag._counts)
        bag._hash = None
        return bag

    @classmethod
    def of_witnessed(cls, rows: Iterable[Row], width: int | None) -> Bag:
        """The bag of the visible rows of distinct witnessed rows: each row cut to its first
        ``width`` columns (``None``: all), counted once per distinct witnessed row that gives it
        (SPARQL 1.1 §18.5, ``Project``: ``card(μ) = Σ card(μ')`` over the μ' that restrict to μ)."""
        if width is None:
            return cls.of_set(rows)
        distinct = rows if isinstance(rows, (set, frozenset)) else set(rows)
        return cls.from_counts(Counter(map(itemgetter(slice(0, width)), distinct)))

    def count(self, row: Row) -> int:
        """The cardinality of ``row`` (0 if it is not a member)."""
        return self._counts.get(row, 0)

    __getitem__ = count

    def distinct(self) -> frozenset[Row]:
        """The set view: the rows, each once (SPARQL's DISTINCT)."""
        return frozenset(self._counts)

    def items(self) -> ItemsView[Row, int]:
        """``(row, cardinality)`` pairs, each distinct row once."""
        return self._counts.items()

    def __iter__(self) -> Iterator[Row]:
        counts = self._counts
        if self._size == len(counts):  # every row once
            return iter(counts)
        return chain.from_iterable(map(repeat, counts, counts.values()))

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def __contains__(self, row: object) -> bool:
        return row in self._counts

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Bag):
            return self._size == other._size and self._counts == other._counts
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._counts.items()))
        return self._hash

    def __add__(self, other: Bag) -> Bag:
        """The additive union ⊎ (SPARQL's ``Union``: cardinalities add)."""
        counts = Counter(self._counts)
        counts.update(other._counts)
        return Bag.from_counts(counts)

    def __sub__(self, other: Bag) -> Bag:
        """The multiset difference: ``card = max(0, card_self − card_other)``."""
        return Bag.from_counts({row: n - other._counts.get(row, 0) for row, n in self._counts.items()})

    def __repr__(self) -> str:
        return f"Bag({sorted(self, key=repr)!r})"
