"""LARS programs as frozen dataclasses.

The fragment of LARS (Beck, Dao-Tran, Eiter, Fink, AAAI 2015) used by the RSP translations of
seed 000 §2.3–2.4 (see ``shared/spec/000-core.md`` §2):

* terms: constants, strings, integers, variables and arithmetic over them;
* atoms ``p(t1, …, tn)``; the predicate ``true/0`` is reserved and holds at every time point of the
  timeline (it is what the pull trigger ``⊞^0 @_T true`` of §4.1 needs);
* extended atoms ``a``, ``@_T a``, ``⊞^w ◇a``, ``⊞^w □a``, ``⊞^w @_T a``;
* window functions: time-based ``⊞^{l,u,d}`` (``l = None`` is ``⊞^∞``), tuple-based ``⊞^{#n}`` and
  partition-based tuple windows (the last n atoms of one partition of the stream);
* rules ``α ← β1,…,βj, not βj+1,…, not βn`` with head ``a`` or ``@_T a`` (or no head: a constraint),
  built-in comparisons; facts are rules with an empty body and hold at every time point (D11).

Everything here is plain data: no parsing, printing or evaluation (see ``lars.syntax``,
``lars.printer``, ``lars.reference``; ``asp`` for the clingo engine).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Literal as TypingLiteral, Mapping, Union

# --------------------------------------------------------------------------------------------- terms


@dataclass(frozen=True, order=True)
class Constant:
    """A symbolic constant such as ``tram`` or ``a`` (lower-case identifier)."""

    name: str


@dataclass(frozen=True, order=True)
class String:
    """A quoted string constant ``"…"``; ``value`` is the unescaped text."""

    value: str


@dataclass(frozen=True, order=True)
class Integer:
    """An integer constant."""

    value: int


@dataclass(frozen=True, order=True)
class Variable:
    """A variable (upper-case identifier, or ``_`` for an anonymous one)."""

    name: str


ArithOp = TypingLiteral["+", "-", "*", "/", "\\"]


@dataclass(frozen=True)
class Arith:
    """An arithmetic term ``left op right``; ``/`` is integer division, ``\\`` is modulo (clingo)."""

    op: ArithOp
    left: "Term"
    right: "Term"


@dataclass(frozen=True)
class Function:
    """A compound term ``f(t1, …, tn)`` used as an argument (clingo function symbol)."""

    name: str
    args: tuple["Term", ...]


@dataclass(frozen=True)
class Call:
    """A term computed at grounding time by a named function, clingo's ``@name(t1, …, tn)``.

    This is how exact SPARQL expression semantics enter LARS (spec D6): e.g.
    ``@sparql_test("?p >= 20", P) = 1``. The function receives the ground argument terms and
    returns a ground term; engines and the reference semantics get the functions by name.
    """

    name: str
    args: tuple["Term", ...]


Term = Union[Constant, String, Integer, Variable, Arith, Function, Call]
GroundTerm = Union[Constant, String, Integer, Function]

# --------------------------------------------------------------------------------------------- atoms


@dataclass(frozen=True)
class Atom:
    """``predicate(args…)``; a propositional atom has ``args == ()``."""

    predicate: str
    args: tuple[Term, ...] = ()

    @property
    def signature(self) -> tuple[str, int]:
        return (self.predicate, len(self.args))


TRUE = Atom("true")
"""The reserved atom that holds at every time point of the timeline."""

# ------------------------------------------------------------------------------------------- windows


@dataclass(frozen=True)
class TimeWindow:
    """Time-based window ``⊞^{l,u,d}`` (seed 000 §2.3): at reference time t, with ``t' = ⌊t/d⌋·d``,
    the window is ``[max(tmin, t'−l), min(t'+u, tmax)]``.

    ``l = None`` means unbounded (``⊞^∞``, from the start of the timeline); ``⊞^L`` is
    ``TimeWindow(L, 0, 1)``; NOW (``⊞^0``) is ``TimeWindow(0, 0, 1)``. ``unit`` keeps the unit the
    program was written in (``None``: base ticks); l, u, d are always in base ticks.

    ``u = −1`` (an extension of LARS, where u ≥ 0) ends the window one tick before t': the
    right-open window ``[t'−l, t')`` of the CSRBench/SECRET convention (spec D2).
    """

    l: int | None
    u: int = 0
    d: int = 1
    unit: str | None = None

    def __post_init__(self) -> None:
        if self.l is not None and self.l < 0:
            raise ValueError(f"window length must be >= 0, got {self.l}")
        if self.u < -1:
            raise ValueError(f"window look-ahead must be >= -1 (-1: right-open), got {self.u}")
        if self.d < 1:
            raise ValueError(f"window step must be >= 1, got {self.d}")


NOW = TimeWindow(0, 0, 1)
ALL = TimeWindow(None, 0, 1)


@dataclass(frozen=True)
class TupleWindow:
    """Tuple-based window ``⊞^{#n}``: the last n stream atoms up to t, ties at the cut broken by
    arrival order (spec D11: stream atoms only)."""

    n: int


@dataclass(frozen=True)
class PartitionWindow:
    """Partition-based tuple window: the last n stream atoms up to t *of one partition*.

    The partition is the set of stream atoms that match ``key`` (an atom pattern whose variables and
    ``_`` are wildcards and whose constants must be equal), e.g. ``striple(_,_,_,s1)`` is the
    partition of stream ``s1``: CQELS ``[TRIPLES n]`` on one stream (spec §2).
    """

    n: int
    key: Atom


Window = Union[TimeWindow, TupleWindow, PartitionWindow]

# ------------------------------------------------------------------------------------ extended atoms


@dataclass(frozen=True)
class At:
    """``@_T a`` with no window: a holds at time T of the whole timeline [tmin, t] (D9)."""

    atom: Atom
    time: Term


@dataclass(frozen=True)
class Diamond:
    """``⊞^w ◇a``: a holds at some time point of the window."""

    window: Window
    atom: Atom


@dataclass(frozen=True)
class Box:
    """``⊞^w □a``: a holds at every time point of the window."""

    window: Window
    atom: Atom


@dataclass(frozen=True)
class WindowAt:
    """``⊞^w @_T a``: a holds at time T, and T lies in the window."""

    window: Window
    atom: Atom
    time: Term


ExtendedAtom = Union[Atom, At, Diamond, Box, WindowAt]

ComparisonOp = TypingLiteral["=", "!=", "<", "<=", ">", ">="]


@dataclass(frozen=True)
class Comparison:
    """A built-in ``left op right`` over terms and time variables."""

    op: ComparisonOp
    left: Term
    right: Term


@dataclass(frozen=True)
class Literal:
    """A body element: an extended atom, possibly under default negation ``not``."""

    atom: ExtendedAtom
    negated: bool = False


AggregateFunction = str
"""``count``, ``sum``, ``min``, ``max`` (clingo's), or ``@name`` (an external aggregate)."""
_EXTERNAL = re.compile(r"@[a-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class AggregateElement:
    """One element ``t1, …, tn : c1, …, cm`` of an aggregate: the tuple of terms contributed by
    every instance of the condition. The condition holds plain literals (an atom at the reference
    time t, possibly under ``not``) and comparisons, as in clingo."""

    terms: tuple[Term, ...]
    condition: tuple["Literal | Comparison", ...] = ()


@dataclass(frozen=True)
class AggregateAssignment:
    """The body element ``left op #function{ e1; …; ek }`` (clingo's aggregates, an extension of
    LARS used by the translation of SPARQL aggregates; ``docs/lars.md``).

    Evaluated at the reference time t over the atoms that hold at t: the *set* of tuples of all
    instances of the elements (variables occurring elsewhere in the rule are global, the others
    local to the aggregate) is aggregated — ``count`` the number of tuples, ``sum`` the sum of
    their first terms that are integers, ``min``/``max`` the least/greatest first term in clingo's
    order of terms. With ``op`` ``=`` and an unbound variable on the left it assigns the value.
    The predicates of the elements must lie in lower strata than the rule's head (stratified,
    like negation). ``#min``/``#max`` of an empty set has no value (``#sup``/``#inf`` in clingo):
    an assignment from it does not hold.

    An *external aggregate* ``#@name{…}`` (``function`` ``"@name"``) is the function ``name`` —
    given by name to the engines with the ``@``-functions of ``Call`` terms — applied to the
    multiset of the first terms of the tuples (a mapping from each first term to the number of
    tuples that have it, as ``#sum`` weighs them); it returns a ground term, also for the empty
    set. The translator uses it for SPARQL's SUM/AVG/MIN/MAX/SAMPLE, which the engines of Python
    evaluate directly; clingo has no such aggregate (``asp`` refuses it: the translator gives
    clingo the same aggregates in its exact portable encoding).
    """

    left: Term
    function: AggregateFunction
    elements: tuple[AggregateElement, ...]
    op: "ComparisonOp" = "="

    def __post_init__(self) -> None:
        if self.function not in ("count", "sum", "min", "max") and not _EXTERNAL.fullmatch(self.function):
            raise ValueError(f"unknown aggregate function #{self.function}")
        for e in self.elements:
            if not e.terms:
                raise ValueError("an aggregate element needs at least one term")
            for c in e.condition:
                if isinstance(c, Literal) and not isinstance(c.atom, Atom):
                    raise ValueError("aggregate conditions hold plain atoms (no windows, no @)")


BodyElement = Union[Literal, Comparison, AggregateAssignment]
Head = Union[Atom, At, None]


@dataclass(frozen=True)
class Rule:
    """``head ← body``. ``head`` is an atom, ``@_T a``, or ``None`` for a constraint."""

    head: Head
    body: tuple[BodyElement, ...] = ()

    @property
    def is_fact(self) -> bool:
        return not self.body and isinstance(self.head, Atom)


@dataclass(frozen=True)
class Program:
    """A LARS program: a sequence of rules (facts included)."""

    rules: tuple[Rule, ...]

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    @property
    def facts(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.is_fact)

    def intensional(self) -> frozenset[tuple[str, int]]:
        """Signatures defined by some rule head (facts included)."""
        out: set[tuple[str, int]] = set()
        for r in self.rules:
            head = r.head.atom if isinstance(r.head, At) else r.head
            if head is not None:
                out.add(head.signature)
        return frozenset(out)


# -------------------------------------------------------------------------------------------- streams


@dataclass(frozen=True)
class Stream:
    """A LARS data stream ``S = (T, υ)`` with arrival order kept (spec §1).

    ``points`` maps a time point to its ground atoms in arrival order. The timeline is
    ``[start, end]``; by default it spans the first to the last time point with data.
    """

    points: Mapping[int, tuple[Atom, ...]]
    start: int | None = None
    end: int | None = None
    _sorted: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "_sorted", tuple(sorted(self.points)))

    @property
    def timeline(self) -> tuple[int, int]:
        """``(tmin, tmax)``; ``(0, 0)`` for an empty stream with no explicit bounds."""
        lo = self.start if self.start is not None else (self._sorted[0] if self._sorted else 0)
        hi = self.end if self.end is not None else (self._sorted[-1] if self._sorted else lo)
        return (lo, hi)

    def at(self, t: int) -> tuple[Atom, ...]:
        return tuple(self.points.get(t, ()))

    def items(self) -> Iterable[tuple[int, tuple[Atom, ...]]]:
        """Time points with data, ascending, each with its atoms in arrival order."""
        for t in self._sorted:
            yield t, tuple(self.points[t])
