"""The window functions' arithmetic, decided once for every engine: window bounds and partition keys.

* **Window bounds (D2, docs/decisions.md).** A time-based window of length L ending at t is, in
  integer time, one of three intervals: ``closed`` ``[t−L, t]`` (Table 1 of Dao-Tran, Beck, Eiter
  2015, §4.2, read literally: ``⊞^L``), ``left-open`` ``(t−L, t]`` (C-SPARQL, Barbieri et al. 2010;
  RSP-QL, Dell'Aglio et al. 2014, Definitions 12–13) and ``right-open`` ``[t−L, t)`` (SECRET and the
  CSRBench oracle, Dell'Aglio et al. 2013, §3, §6.1). :class:`WindowBounds` names them (its values
  are the option strings users write); :func:`reach` gives the LARS window ``⊞^{l,u}`` that holds
  exactly the same time points, and :func:`in_window`, :func:`first_point`, :func:`last_point`
  answer from it.
* **The time window function** ``⊞^{l,u,d}`` (Dao-Tran, Beck, Eiter 2015, §2.3) at reference time
  t on the timeline ``[tmin, tmax]``: :func:`time_window_bounds`.
* **Partition keys.** A partition-based window (Beck, Dao-Tran, Eiter, Fink AAAI 2015, §"Window
  functions": ``idx`` maps every atom to the index of its partition; the window applies a tuple
  window to the substream ``S_i`` of the atoms with ``idx(a) = i``) is written with a key pattern
  (``lars.model.PartitionWindow``): the atoms of the partition are the instances of the key, each
  variable and ``_`` a wildcard on its own, compound terms matched argument by argument
  (:func:`in_partition`).

``lars.reference`` keeps its own copies of these definitions (it is the oracle the engines are
tested against); every engine and the translator use this module.
"""

from __future__ import annotations

from enum import StrEnum

from lars.errors import RsplarsError, UnsupportedError
from lars.model import Arith, Atom, Call, Function, Term, TimeWindow, Variable


class WindowBoundsError(RsplarsError, ValueError):
    """A window-bounds convention that is none of :class:`WindowBounds` (exit code 2)."""


class WindowBounds(StrEnum):
    """Which ends a time-based window of length L ending at t includes (D2). The values are the
    strings of ``--window-bounds`` and of the API's options, so a member equals its string."""

    CLOSED = "closed"  # [t−L, t]
    LEFT_OPEN = "left-open"  # (t−L, t]
    RIGHT_OPEN = "right-open"  # [t−L, t)

    @classmethod
    def parse(cls, text: str | WindowBounds) -> WindowBounds:
        """The convention named ``text`` (a member is returned as it is); a :class:`WindowBoundsError`
        naming the choices otherwise."""
        if isinstance(text, WindowBounds):
            return text
        try:
            return cls(text)
        except ValueError:
            raise WindowBoundsError(
                f"unknown window bounds {text!r}; expected one of {', '.join(b.value for b in cls)}"
            ) from None


_EXCLUDED: dict[str, tuple[int, int]] = {WindowBounds.CLOSED: (0, 0), WindowBounds.LEFT_OPEN: (1, 0),
                                         WindowBounds.RIGHT_OPEN: (0, 1)}
"""Per convention, whether its left end and its right end are left out (one tick each in integer time)."""

WINDOW_BOUNDS: tuple[str, ...] = tuple(b.value for b in WindowBounds)
"""The option strings of the conventions, the default first (``choices=`` of a command line)."""


def reach(bounds: WindowBounds | str, start: int | None, end: int = 0) -> tuple[int | None, int]:
    """``(l, u)`` of the LARS window ``⊞^{l,u}`` that holds the time points from ``start`` ticks
    before t to ``end`` ticks before t under ``bounds``, in integer time:

    * ``closed`` ``[t−start, t−end]`` is ``(start, −end)``;
    * ``left-open`` ``(t−start, t−end]`` is ``(start−1, −end)``;
    * ``right-open`` ``[t−start, t−end)`` is ``(start, −end−1)``.

    ``start = None`` is unbounded (``⊞^∞``: l is ``None``; the open left end of an unbounded
    window is no end). A length-L window ending at t is ``reach(bounds, L)``. The interval may be
    empty (``l < −u``), e.g. a left-open window of length 0."""
    try:
        left, right = _EXCLUDED[bounds]  # a member or its option string (a StrEnum member hashes as its value)
    except (KeyError, TypeError):
        WindowBounds.parse(bounds)  # raises WindowBoundsError naming the choices
        raise
    return (None if start is None else start - left), -end - right


def first_point(t: int, length: int, bounds: WindowBounds | str) -> int:
    """The earliest time point of the window of ``length`` ending at t under ``bounds``."""
    l, _ = reach(bounds, length)
    assert l is not None
    return t - l


def last_point(t: int, length: int, bounds: WindowBounds | str) -> int:
    """The latest time point of the window of ``length`` ending at t under ``bounds``."""
    return t + reach(bounds, length)[1]


def in_window(point: int, t: int, length: int, bounds: WindowBounds | str) -> bool:
    """Whether ``point`` lies in the time-based window of ``length`` ending at t under ``bounds`` (D2)."""
    return first_point(t, length, bounds) <= point <= last_point(t, length, bounds)


def time_window_bounds(window: TimeWindow, t: int, tmin: int, tmax: int | None = None) -> tuple[int, int]:
    """``⊞^{l,u,d}`` at t on the timeline [tmin, tmax] (Dao-Tran, Beck, Eiter 2015, §2.3): ``t' = ⌊t/d⌋·d``,
    ``[max(tmin, t'−l), min(t'+u, tmax)]``; ``l = None`` is ``⊞^∞``, ``u = −1`` ends the window one tick
    before t' (right-open, D2). The online semantics (D9) evaluates at t on the timeline [tmin, t], so
    ``tmax`` defaults to t (the window is cut at t). Empty when the first end exceeds the second."""
    pivot = (t // window.d) * window.d
    lo = tmin if window.l is None else max(tmin, pivot - window.l)
    return lo, min(pivot + window.u, t if tmax is None else tmax)


def _instance(pattern: Term, ground: Term) -> bool:
    if isinstance(pattern, Variable):
        return True
    if isinstance(pattern, Function):
        return (
            isinstance(ground, Function)
            and pattern.name == ground.name
            and len(pattern.args) == len(ground.args)
            and all(_instance(p, g) for p, g in zip(pattern.args, ground.args))
        )
    if isinstance(pattern, (Arith, Call)):
        raise UnsupportedError("arithmetic or a function call in a partition key", "partition windows",
                               "a key holds constants, compound terms and wildcards only")
    return pattern == ground


def in_partition(key: Atom, atom: Atom) -> bool:
    """Whether the stream atom ``atom`` is in the partition of ``key`` (module doc): the same predicate
    and arity, and every argument an instance of the key's (variables and ``_`` match any term, each
    on its own; a compound term matches a compound term of the same name and arity whose arguments
    match; anything else must be equal)."""
    return (
        key.predicate == atom.predicate
        and len(key.args) == len(atom.args)
        and all(_instance(p, g) for p, g in zip(key.args, atom.args))
    )
