"""How far back the windows of a LARS program look: the input a block of evaluation times needs.

The answer at reference time t depends only on the stream up to t (D9) and, through the
windows of the program, only on part of it (Dao-Tran, Beck, Eiter 2015, §2.3). A block of
evaluation times ``t > b`` (``b`` = the block's left edge) is therefore solved exactly from

* **time windows** ``⊞^{l,u,d}``: the window at t is ``[max(tmin, t'−l), min(t'+u, t)]`` with
  ``t' = ⌊t/d⌋·d ≥ t−(d−1)``, so it starts at ``t−(l+d−1)`` at the earliest: the block needs the
  time points ``≥ b+1−(l+d−1)`` — :attr:`LookBack.ticks` ``= max(l+d−1)``. ``u`` (≤ 0 for the
  translations, right-open windows have ``u = −1``) only cuts the window's right end;
* **tuple and partition windows** ``⊞^{#n}``: the last n stream atoms (of the partition) up to t
  (D11) are among the block's own atoms and the last n (matching) atoms up to b —
  :attr:`LookBack.tuples`;
* **unbounded windows** under ◇ (``⊞^∞ ◇a``, and the right-open ``[tmin, t)``): a holds somewhere
  in ``[tmin, t]`` (or ``[tmin, t)``) iff its *first occurrence* is there, so a prefix state of the
  first occurrence of every distinct stream atom up to b suffices — :attr:`LookBack.first_occurrences`.

Anything that needs the whole history point by point cannot be partitioned exactly this way and is
rejected with :class:`PartitionError`: ``□`` or ``@_T`` over ``⊞^∞`` (□ needs the atom at *every*
point since tmin, @ every time it held), and ``@_T a`` without a window (the whole timeline). The
translations never produce these (τ, τ1, τ2 only use ◇ over the windows of Table 1; the pull trigger
is ``⊞^0 @_T true``); general LARS programs with them must run sequentially.

The look-back is read off the compiled program's rules, not off the query text, so it follows the
window-bounds convention (D2) and every rewriting the translation applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from lars.errors import UnsupportedError
from lars.model import (
    TRUE,
    At,
    Atom,
    Box,
    Diamond,
    PartitionWindow,
    Program,
    Rule,
    TimeWindow,
    TupleWindow,
    Window,
    WindowAt,
)

STAGE = "partitioned run (spark)"


class PartitionError(UnsupportedError):
    """A program whose windows need the whole history point by point: no exact partitioning."""

    def __init__(self, feature: str, detail: str) -> None:
        super().__init__(feature, STAGE, detail + "; run it with the sequential engine (--engine sequential)")


@dataclass(frozen=True)
class TupleNeed:
    """The last ``n`` stream atoms matching ``key`` (``None``: every stream atom) before a block."""

    n: int
    key: Atom | None = None


@dataclass(frozen=True)
class LookBack:
    """The input a block needs before its left edge b (module docstring).

    ``ticks``: every stream atom at a time point ``> b − ticks`` (0: none before the block);
    ``tuples``: per tuple/partition window, the last n matching atoms at or before b;
    ``first_occurrences``: the first occurrence of every distinct stream atom at or before b.
    """

    ticks: int = 0
    tuples: tuple[TupleNeed, ...] = ()
    first_occurrences: bool = False

    def union(self, other: "LookBack") -> "LookBack":
        """What two programs solved over the same blocks need together (extra look-back never
        changes an answer: a time window does not see older points, a tuple window keeps the
        last n, and ◇ over ⊞^∞ only asks for existence)."""
        tuples = tuple(dict.fromkeys((*self.tuples, *other.tuples)))
        return LookBack(max(self.ticks, other.ticks), tuples, self.first_occurrences or other.first_occurrences)


def look_back(program: Program) -> LookBack:
    """The :class:`LookBack` of every window in ``program``'s rule bodies (heads carry no windows)."""
    ticks = 0
    tuples: dict[TupleNeed, None] = {}
    first = False
    for rule in program.rules:
        for window, kind, atom in _windowed(rule):
            if isinstance(window, TimeWindow):
                if window.l is None:
                    if kind != "diamond":
                        raise PartitionError(
                            f"{'□' if kind == 'box' else '@_T'} over an unbounded window ⊞^∞ ({atom.predicate})",
                            "it needs the atom at every time point since the start of the stream",
                        )
                    first = True
                else:
                    ticks = max(ticks, window.l + window.d - 1)
            elif isinstance(window, PartitionWindow):
                tuples[TupleNeed(window.n, window.key)] = None
            elif isinstance(window, TupleWindow):
                tuples[TupleNeed(window.n, None)] = None
    return LookBack(ticks, tuple(tuples), first)


def combined(programs: Iterable[Program]) -> LookBack:
    """The union of the look-backs of several programs solved over the same blocks."""
    out = LookBack()
    for program in programs:
        out = out.union(look_back(program))
    return out


def _windowed(rule: Rule) -> Iterable[tuple[Window, str, Atom]]:
    """(window, kind, atom) of every windowed body literal; rejects ``@_T a`` without a window."""
    # heads carry no window; an @-head places a derived atom during one evaluation only (D10)
    for element in rule.body:
        atom = getattr(element, "atom", None)
        match atom:
            case Diamond(window, a):
                yield window, "diamond", a
            case Box(window, a):
                yield window, "box", a
            case WindowAt(window, a, _):
                yield window, "at", a
            case At(a, _) if a != TRUE:
                raise PartitionError(
                    f"@_T {a.predicate} without a window",
                    "@_T over the whole timeline needs every time point since the start of the stream",
                )
