"""The meaning of a LARS program, computed as the definitions state it: the oracle the engines
(``asp``, ``lars.incremental``) are tested against.

Sources: Beck, Dao-Tran, Eiter, Fink, "LARS: A Logic-based Framework for Analyzing Reasoning over
Streams" (AAAI 2015, §2: streams, window functions, the entailment relation; answer streams) and
the fragment of it that Dao-Tran, Beck, Eiter 2015 use (§2.3–2.4, Definition 3), read with the
decisions D2 and D9–D11 of docs/decisions.md. The module follows them section by section, on
sets, and favours being checkable against the text over speed. It uses the syntax tree
(``lars.model``), the error types of ``lars.errors`` and the standard library only: no code of the
engines or of what they share (``lars.evaluation``), so that a mistake there shows up here as a
disagreement instead of being inherited (``tests/lars/test_engine_imports.py``).

**§1 Streams.** A stream S = (T, υ) has a timeline T, an interval of integers, and an evaluation
function υ mapping each u ∈ T to a set of ground atoms; S' = (T', υ') is a substream of S when
T' ⊆ T and υ'(u) ⊆ υ(u). At reference time t the data stream D is seen on T = [tmin, t], tmin its
start or first time point (D9: the answer at t depends on the stream up to t only). The
interpretation stream I ⊇ D adds the program's facts, which hold at every u ∈ T (D11), the atom
``true``, and the atoms the rules put.

**§2 Window functions** w(S, t) return a substream of S (:class:`Substream`):

* time-based ⊞^{l,u,d}: with t' = ⌊t/d⌋·d, the whole of S on [max(tmin, t'−l), min(t'+u, t)]
  (l = ∞: from tmin; cut at t, D9; u = −1 ends it one tick before t', the right-open bound of
  D2; empty when tmin lies past its end);
* tuple-based ⊞^{#n}: the last n data atoms up to t in order of arrival (D11: data atoms only,
  an atom counted once per time point), on [t_n, t] with t_n the time of the oldest one kept
  (tmin when fewer than n exist, t when n = 0); at t_n only the atoms kept;
* filter: the atoms of S of a given form; a partition-based window is the tuple window applied to
  the filter of its key (variables and ``_`` in the key match any term);
* a window selects data atoms only: the atoms of I that D does not provide (facts, ``true``,
  derived atoms) are in every window at each of its time points (D10, D11).

**§3 Entailment** M, S, t ⊨ α by structural recursion (:meth:`Interpretation.entails`):
a iff a ∈ υ(t); @_u a iff u ∈ T and a ∈ υ(u); ◇a iff a ∈ υ(u) for some u ∈ T; □a iff for every
u ∈ T (so always on an empty window); ⊞^w α iff M, w(S, t), t ⊨ α. A literal ``not β`` holds iff
no instance of β does. Each ``_`` is a variable of its own literal only: ``not s(X,_)`` says that
no s(X, ·) holds, ``s(_) always [2]`` that one s(c) holds at every point.

**§4 Answer streams** (Definition 3): I is an answer stream of P for D at t iff M = ⟨T, υ_I⟩ is a
minimal model of the reduct P^{M,t} = {r ∈ P | M, t ⊨ β(r)}. Rules are applied at t (D10): a head
a puts a at t, a head @_T a puts a at T. For a stratified program (no predicate depends on itself
through ``not`` or an aggregate) this minimal model is unique: the strata (:func:`strata`) are
closed one after the other, lowest first, each by applying its rules until nothing new follows;
negation then only reads strata that are complete. A program that is not stratified raises
``UnsupportedError("non-stratified negation", …)``. There is no answer stream (``None``) when the
body of a constraint holds, or the body of a rule with head @_T a holds for a T that is not a
time point of [tmin, t] (the head has no place in any interpretation).

**§5 Ground instances and built-ins.** The ground instances of a rule are found by matching its
positive literals against I; a variable that no positive literal and no ``X = term`` binds ranges
over the active domain (the terms of the program, of the data up to t, and the time points of
[tmin, t]), as grounding over the active domain would give. Arithmetic and comparisons are
clingo's: ``/`` rounds towards zero, ``\\`` keeps the sign of the dividend, an operand that is no
integer or a division by zero leaves the instance out, and terms compare in clingo's order
(integers < constants < strings < function terms). ``@f(…)`` terms and ``#@f{…}`` aggregates call
the Python function ``f`` given by name in ``functions``. Aggregates (``lars.model.AggregateAssignment``)
read the atoms holding at t: count the distinct tuples, sum their first terms that are integers,
or take the least/greatest first term; of no tuple, ``#min`` is above every term and ``#max``
below every term, so neither assigns a value.
"""

from __future__ import annotations

import operator
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Callable, Iterable, Iterator, Mapping, Union

from lars.errors import UnsupportedError
from lars.model import (TRUE, AggregateAssignment, AggregateElement, Arith, At, Atom, Box, Call, Comparison,
                        Constant, Diamond, Function, Integer, Literal, PartitionWindow, Program, Rule, Stream,
                        String, Term, TimeWindow, TupleWindow, Variable, WindowAt)

#: the atoms of an answer at one time point
Answer = frozenset[Atom]
Ground = Union[Constant, Integer, String, Function]
#: an assignment of ground terms to variable names
Binding = dict[str, Ground]
#: the functions of ``@name(…)`` terms and ``#@name{…}`` aggregates, by name
Functions = Mapping[str, Callable[..., Ground]]

_STAGE = "reference semantics"

# ================================================================ §5 terms, order and arithmetic


def clingo_order(term: Ground) -> tuple:
    """A sort key placing ground terms in clingo's total order of symbols: integers by value, then
    constants by name, then strings, then function terms by arity, name and arguments."""
    match term:
        case Integer(number):
            return (0, number)
        case Constant(name):
            return (1, name)
        case String(text):
            return (2, text)
        case Function(name, args):
            return (3, len(args), name, tuple(clingo_order(arg) for arg in args))  # type: ignore[arg-type]
    raise TypeError(f"not a ground term: {term!r}")


#: the keys of clingo's #inf and #sup, below and above the key of every term
_BOTTOM, _TOP = (-1,), (4,)

_RELATION: dict[str, Callable[[tuple, tuple], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


class _NoValue(Exception):
    """A term clingo gives no value: arithmetic on a term that is no integer, or division by zero."""


def _quotient(a: int, b: int) -> int:
    """clingo's ``a / b``: the quotient rounded towards zero."""
    magnitude = abs(a) // abs(b)
    return magnitude if a * b >= 0 else -magnitude


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _quotient,
    "\\": lambda a, b: a - b * _quotient(a, b),
}


def _value(term: Term, binding: Mapping[str, Ground], functions: Functions | None) -> Ground:
    """The ground term ``term`` denotes under ``binding`` (which binds all its variables)."""
    match term:
        case Variable(name):
            return binding[name]
        case Constant() | Integer() | String():
            return term
        case Function(name, args):
            return Function(name, tuple(_value(arg, binding, functions) for arg in args))
        case Call(name, args):
            if functions is None or name not in functions:
                raise UnsupportedError(f"function @{name}", _STAGE, "no such function was given")
            return functions[name](*(_value(arg, binding, functions) for arg in args))
        case Arith(op, left, right):
            x, y = _value(left, binding, functions), _value(right, binding, functions)
            if not (isinstance(x, Integer) and isinstance(y, Integer)) or (op in ("/", "\\") and y.value == 0):
                raise _NoValue
            return Integer(_ARITHMETIC[op](x.value, y.value))
    raise TypeError(f"not a term: {term!r}")


def _text(term: Ground) -> str:
    """A ground term as clingo prints it."""
    match term:
        case Integer(number):
            return str(number)
        case Constant(name):
            return name
        case String(text):
            escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
            return f'"{escaped}"'
        case Function(name, args):
            return f"{name}({','.join(_text(arg) for arg in args)})"  # type: ignore[arg-type]
    raise TypeError(f"not a ground term: {term!r}")


def _atom_text(atom: Atom) -> str:
    return atom.predicate + (f"({','.join(_text(arg) for arg in atom.args)})" if atom.args else "")  # type: ignore[arg-type]


# ============================================================================ variables of a rule

#: the names given to the ``_`` of a body: no variable written in a program starts so
_LOCAL = "_'"


def _is_local(name: str) -> bool:
    return name.startswith(_LOCAL)


_NONE: frozenset[str] = frozenset()


@lru_cache(maxsize=None)
def _variables(node: object) -> frozenset[str]:
    """The names of the variables occurring in a term, atom, extended atom or body element (not in
    a window's partition key, whose variables only say "any term")."""
    match node:
        case Variable(name):
            return frozenset((name,))
        case Function(_, args) | Call(_, args) | Atom(_, args):
            return _NONE.union(*map(_variables, args))
        case Arith(_, left, right) | Comparison(_, left, right):
            return _variables(left) | _variables(right)
        case At(atom, time) | WindowAt(_, atom, time):
            return _variables(atom) | _variables(time)
        case Diamond(_, atom) | Box(_, atom) | Literal(atom, _):
            return _variables(atom)
        case AggregateElement(terms, condition):
            return _NONE.union(*map(_variables, terms), *map(_variables, condition))
        case AggregateAssignment(left, _, elements, _):
            return _variables(left).union(*map(_variables, elements))
    return _NONE


@lru_cache(maxsize=None)
def _computed_variables(node: object) -> frozenset[str]:
    """The variables under arithmetic or a function call: a match cannot bind them, they must be
    bound before."""
    match node:
        case Arith() | Call():
            return _variables(node)
        case Function(_, args) | Atom(_, args):
            return _NONE.union(*map(_computed_variables, args))
        case At(atom, time) | WindowAt(_, atom, time):
            return _computed_variables(atom) | _computed_variables(time)
        case Diamond(_, atom) | Box(_, atom):
            return _computed_variables(atom)
    return _NONE


@lru_cache(maxsize=None)
def _visible_variables(element: object) -> frozenset[str]:
    """The variables of a body element that the rest of the rule sees: an aggregate shows only its
    left term (the variables of its elements are its own unless the rule uses them elsewhere)."""
    if isinstance(element, AggregateAssignment):
        return _variables(element.left)
    return frozenset(name for name in _variables(element) if not _is_local(name))


class _Locals:
    """Gives each ``_`` of a rule's body a variable of its own (§3)."""

    def __init__(self) -> None:
        self.used = 0

    def term(self, term: Term) -> Term:
        match term:
            case Variable("_"):
                self.used += 1
                return Variable(f"{_LOCAL}{self.used}")
            case Function(name, args):
                return Function(name, tuple(map(self.term, args)))
            case Call(name, args):
                return Call(name, tuple(map(self.term, args)))
            case Arith(op, left, right):
                return Arith(op, self.term(left), self.term(right))
        return term

    def atom(self, atom: Atom) -> Atom:
        return Atom(atom.predicate, tuple(map(self.term, atom.args)))

    def element(self, element: object) -> object:
        match element:
            case Literal(Atom() as atom, negated):
                return Literal(self.atom(atom), negated)
            case Literal(At(atom, time), negated):
                return Literal(At(self.atom(atom), self.term(time)), negated)
            case Literal(WindowAt(window, atom, time), negated):
                return Literal(WindowAt(window, self.atom(atom), self.term(time)), negated)
            case Literal(Diamond(window, atom), negated):
                return Literal(Diamond(window, self.atom(atom)), negated)
            case Literal(Box(window, atom), negated):
                return Literal(Box(window, self.atom(atom)), negated)
            case AggregateAssignment(left, function, elements, op):
                own = tuple(AggregateElement(e.terms, tuple(self.element(c) for c in e.condition))  # type: ignore[misc]
                            for e in elements)
                return AggregateAssignment(left, function, own, op)
        return element


def _with_local_wildcards(program: Program) -> Program:
    rules = []
    for rule in program.rules:
        names = _Locals()
        rules.append(Rule(rule.head, tuple(names.element(b) for b in rule.body)))  # type: ignore[misc]
    return Program(tuple(rules))


# ==================================================================================== §4 strata

Signature = tuple[str, int]


def _head_signature(rule: Rule) -> Signature:
    head = rule.head
    assert head is not None
    return (head.atom if isinstance(head, At) else head).signature


def _dependencies(rule: Rule, defined: frozenset[Signature]) -> Iterator[tuple[Signature, bool]]:
    """The defined predicates the body of ``rule`` reads, each with whether it reads them through
    ``not`` or an aggregate (whose value may drop when an atom is added)."""
    for element in rule.body:
        if isinstance(element, Literal):
            atom = element.atom if isinstance(element.atom, Atom) else element.atom.atom
            if atom.signature in defined:
                yield atom.signature, element.negated
        elif isinstance(element, AggregateAssignment):
            for aggregated in element.elements:
                for condition in aggregated.condition:
                    if isinstance(condition, Literal) and isinstance(condition.atom, Atom):
                        if condition.atom.signature in defined:
                            yield condition.atom.signature, True


def strata(program: Program) -> list[list[Rule]]:
    """The rules of ``program`` (not its facts or constraints) in strata, the stratum a rule needs
    first: a stratum is a set of predicates that depend on each other (each reaches the other in
    the graph "the head's predicate depends on a body's predicate"), ordered so that a stratum
    comes after every stratum it depends on. A predicate that depends on its own stratum through
    ``not`` or an aggregate makes the program non-stratified (``UnsupportedError``)."""
    defined = program.intensional()
    rules = [r for r in program.rules if r.head is not None and not r.is_fact]
    edges: dict[Signature, set[tuple[Signature, bool]]] = {s: set() for s in defined}
    for rule in rules:
        edges[_head_signature(rule)].update(_dependencies(rule, defined))

    reach: dict[Signature, set[Signature]] = {}
    for start in defined:
        seen, frontier = {start}, [start]
        while frontier:
            for target, _ in edges[frontier.pop()]:
                if target not in seen:
                    seen.add(target)
                    frontier.append(target)
        reach[start] = seen
    stratum_of = {s: frozenset(q for q in reach[s] if s in reach[q]) for s in defined}

    for s in sorted(defined):
        for target, through_negation in sorted(edges[s]):
            if through_negation and target in stratum_of[s]:
                raise UnsupportedError("non-stratified negation", _STAGE,
                                       f"{s[0]}/{s[1]} depends through not or an aggregate on "
                                       f"{target[0]}/{target[1]}, which depends on it")

    ordered: list[frozenset[Signature]] = []
    waiting = sorted(set(stratum_of.values()), key=sorted)
    while waiting:
        done = set().union(*ordered)
        ready = next(c for c in waiting if all(target in done or target in c
                                              for s in c for target, _ in edges[s]))
        ordered.append(ready)
        waiting.remove(ready)
    by_stratum: dict[frozenset[Signature], list[Rule]] = {c: [] for c in ordered}
    for rule in rules:
        by_stratum[stratum_of[_head_signature(rule)]].append(rule)
    return [group for group in by_stratum.values() if group]


# ========================================================================== §2 window functions


@dataclass(frozen=True)
class Substream:
    """What a window function keeps of the stream at reference time t: its timeline [lo, hi]
    (empty when lo > hi) and, per time point, the data atoms kept (``kept`` ``None``: every data
    atom of its time points, as a time-based window keeps them)."""

    lo: int
    hi: int
    kept: Mapping[int, frozenset[Atom]] | None = None

    def points(self) -> range:
        return range(self.lo, self.hi + 1)


def time_window_bounds(window: TimeWindow, t: int, tmin: int, tmax: int | None = None) -> tuple[int, int]:
    """The timeline [lo, hi] of ⊞^{l,u,d} at t on [tmin, tmax] (Dao-Tran, Beck, Eiter 2015, §2.3):
    t' = ⌊t/d⌋·d, lo = max(tmin, t'−l) (tmin for l = ∞), hi = min(t'+u, tmax), tmax = t by default
    (D9). ⊞^L is ⊞^{L,0,1} = [t−L, t], both ends in (D2, closed); u = −1 gives [t'−l, t'−1] (D2,
    right-open); a left-open window (t−L, t] is written ⊞^{L−1}."""
    pivot = t - t % window.d  # Python's % is never negative for d > 0: this is ⌊t/d⌋·d for every t
    lo = tmin if window.l is None else max(tmin, pivot - window.l)
    hi = min(pivot + window.u, t if tmax is None else tmax)
    return lo, hi


def _arrivals(stream: Stream, tmin: int, t: int) -> list[tuple[int, Atom]]:
    """The data atoms of [tmin, t] as they arrived, each once per time point (υ(u) is a set)."""
    return [(u, atom) for u, atoms in stream.items() if tmin <= u <= t for atom in dict.fromkeys(atoms)]


def _last(arrivals: list[tuple[int, Atom]], n: int, t: int, tmin: int) -> Substream:
    """⊞^{#n}: the last n of ``arrivals``, on [t_n, t]."""
    if n == 0:
        chosen: list[tuple[int, Atom]] = []
        lo = t
    elif len(arrivals) < n:
        chosen, lo = arrivals, tmin
    else:
        chosen = arrivals[len(arrivals) - n:]
        lo = chosen[0][0]
    kept: dict[int, set[Atom]] = {u: set() for u in range(lo, t + 1)}
    for u, atom in chosen:
        kept[u].add(atom)
    return Substream(lo, t, {u: frozenset(atoms) for u, atoms in kept.items()})


def _fits(pattern: Term, term: Term) -> bool:
    """Whether a data term has the form of a partition key's term (a variable fits anything)."""
    match pattern:
        case Variable():
            return True
        case Function(name, args):
            return (isinstance(term, Function) and term.name == name and len(term.args) == len(args)
                    and all(map(_fits, args, term.args)))
    return pattern == term


def _filtered(arrivals: list[tuple[int, Atom]], key: Atom) -> list[tuple[int, Atom]]:
    """The filter window of the key: the atoms of its predicate whose arguments fit its arguments."""
    return [(u, atom) for u, atom in arrivals
            if atom.signature == key.signature and all(map(_fits, key.args, atom.args))]


def window_view(window: TimeWindow | TupleWindow | PartitionWindow, stream: Stream, t: int, tmin: int) -> Substream:
    """w(S, t) for the data stream S cut at t (module doc, §2)."""
    match window:
        case TimeWindow():
            lo, hi = time_window_bounds(window, t, tmin)
            return Substream(lo, hi)
        case TupleWindow(n):
            return _last(_arrivals(stream, tmin, t), n, t, tmin)
        case PartitionWindow(n, key):
            return _last(_filtered(_arrivals(stream, tmin, t), key), n, t, tmin)
    raise TypeError(f"not a window: {window!r}")


# ========================================================================== §3 entailment


@dataclass(frozen=True)
class _Sometime:
    """◇a, inside a window."""

    atom: Atom


@dataclass(frozen=True)
class _Always:
    """□a, inside a window."""

    atom: Atom


@dataclass(frozen=True)
class _Windowed:
    """⊞^w α."""

    window: TimeWindow | TupleWindow | PartitionWindow
    formula: object


def _formula(extended: object) -> object:
    """An extended atom of ``lars.model`` as the formula of the definitions: ``⊞^w ◇a`` is the
    window operator applied to ◇a, and so on; ``a`` and ``@_T a`` stay as they are."""
    match extended:
        case Diamond(window, atom):
            return _Windowed(window, _Sometime(atom))
        case Box(window, atom):
            return _Windowed(window, _Always(atom))
        case WindowAt(window, atom, time):
            return _Windowed(window, At(atom, time))
    return extended


class _NoAnswerStream(Exception):
    """The program has no answer stream at t (§4)."""


class Interpretation:
    """The interpretation stream I at reference time t over [tmin, t] (§1), the entailment relation
    on it (§3) and the ground instances of rules (§5); :meth:`close` makes it the answer stream."""

    def __init__(self, program: Program, data: Stream, t: int, functions: Functions | None) -> None:
        self.tmin = data.timeline[0]
        if t < self.tmin:
            raise ValueError(f"reference time {t} lies before the start {self.tmin} of the stream")
        self.t = t
        self.program = program
        self.data_stream = data
        self.functions = functions
        self.whole = Substream(self.tmin, t)
        # υ of the data, of the background (every time point) and of the derived atoms, by predicate
        self.data: dict[int, dict[Signature, set[Atom]]] = {}
        for u, atoms in data.items():
            if self.tmin <= u <= t:
                for atom in atoms:
                    self.data.setdefault(u, {}).setdefault(atom.signature, set()).add(atom)
        self.background: dict[Signature, set[Atom]] = {TRUE.signature: {TRUE}}
        self.derived: dict[int, dict[Signature, set[Atom]]] = {}
        self.windows: dict[object, Substream] = {}
        self.plans: dict[tuple, list[tuple[bool, object]]] = {}
        self._domain: list[Ground] | None = None
        for rule in program.rules:
            if rule.is_fact:
                for binding in self._spread(_variables(rule.head), [{}]):
                    try:
                        fact = self._ground(rule.head, binding)  # type: ignore[arg-type]
                    except _NoValue:
                        continue
                    self.background.setdefault(fact.signature, set()).add(fact)

    # ------------------------------------------------------------------ υ and the windows
    def window(self, window: TimeWindow | TupleWindow | PartitionWindow) -> Substream:
        if window not in self.windows:
            self.windows[window] = window_view(window, self.data_stream, self.t, self.tmin)
        return self.windows[window]

    def holding(self, signature: Signature, u: int, scope: Substream) -> Iterable[Atom]:
        """The atoms of ``signature`` in υ(u) of the substream ``scope`` of I."""
        if scope.kept is None:
            data: Iterable[Atom] = self.data.get(u, {}).get(signature, ())
        else:
            data = [atom for atom in scope.kept.get(u, ()) if atom.signature == signature]
        return chain(data, self.background.get(signature, ()), self.derived.get(u, {}).get(signature, ()))

    def stream(self) -> dict[int, set[Atom]]:
        """υ_I on [tmin, t]."""
        out = {}
        for u in self.whole.points():
            parts = chain(self.data.get(u, {}).values(), self.background.values(), self.derived.get(u, {}).values())
            out[u] = set().union(*parts)
        return out

    @property
    def domain(self) -> list[Ground]:
        """The active domain (§5): the ground terms of the program and of the data up to t, and the
        time points of [tmin, t]."""
        if self._domain is None:
            found: set[Ground] = {Integer(u) for u in self.whole.points()}
            nodes: list[object] = [atom for by_signature in self.data.values() for atoms in by_signature.values()
                                   for atom in atoms]
            for rule in self.program.rules:
                nodes.append(rule.head)
                nodes.extend(rule.body)
            while nodes:
                node = nodes.pop()
                match node:
                    case Constant() | Integer() | String():
                        found.add(node)
                    case Function(_, args):
                        if not _variables(node) and not _computed_variables(node):
                            found.add(node)
                        nodes.extend(args)
                    case Atom(_, args) | Call(_, args):
                        nodes.extend(args)
                    case Arith(_, left, right) | Comparison(_, left, right):
                        nodes += [left, right]
                    case At(atom, time) | WindowAt(_, atom, time):
                        nodes += [atom, time]
                    case Diamond(_, atom) | Box(_, atom) | Literal(atom, _):
                        nodes.append(atom)
                    case AggregateAssignment(left, _, elements, _):
                        nodes.append(left)
                        for element in elements:
                            nodes.extend(element.terms)
                            nodes.extend(element.condition)
            self._domain = sorted(found, key=clingo_order)
        return self._domain

    # ------------------------------------------------------------------ M, S, t ⊨ α
    def _match(self, pattern: Term, term: Term, binding: Binding) -> Binding | None:
        """``binding`` extended so that ``pattern`` denotes the ground ``term`` (``None``: impossible)."""
        match pattern:
            case Variable(name):
                if name not in binding:
                    return {**binding, name: term}  # type: ignore[dict-item]
                return binding if binding[name] == term else None
            case Function(name, args):
                if not (isinstance(term, Function) and term.name == name and len(term.args) == len(args)):
                    return None
                extended = binding
                for own, other in zip(args, term.args):
                    narrower = self._match(own, other, extended)
                    if narrower is None:
                        return None
                    extended = narrower
                return extended
            case Arith() | Call():
                try:
                    return binding if _value(pattern, binding, self.functions) == term else None
                except _NoValue:
                    return None
        return binding if pattern == term else None

    def _fit(self, atom: Atom, candidate: Atom, binding: Binding) -> Binding | None:
        """``binding`` extended so that ``atom`` denotes the ground ``candidate`` (same predicate)."""
        extended = binding
        for own, other in zip(atom.args, candidate.args):
            narrower = self._match(own, other, extended)
            if narrower is None:
                return None
            extended = narrower
        return extended

    def _instances(self, atom: Atom, u: int, scope: Substream, binding: Binding) -> Iterator[Binding]:
        """The extensions of ``binding`` that make ``atom`` an atom of υ(u) in ``scope``."""
        for candidate in self.holding(atom.signature, u, scope):
            found = self._fit(atom, candidate, binding)
            if found is not None:
                yield found

    def _times(self, time: Term, scope: Substream, binding: Binding) -> Iterator[tuple[int, Binding]]:
        """The time points of ``scope`` that ``time`` can denote, each with the binding that says so."""
        if isinstance(time, Variable) and time.name not in binding:
            for u in scope.points():
                yield u, {**binding, time.name: Integer(u)}
            return
        try:
            when = _value(time, binding, self.functions)
        except _NoValue:
            return
        if isinstance(when, Integer) and scope.lo <= when.value <= scope.hi:
            yield when.value, binding

    def entails(self, formula: object, binding: Binding, scope: Substream | None = None) -> Iterator[Binding]:
        """The extensions θ of ``binding`` with M, S, t ⊨ formula·θ, S the substream ``scope`` of
        I (all of it by default), by recursion on the formula (module doc, §3)."""
        scope = self.whole if scope is None else scope
        match formula:
            case Atom():
                yield from self._instances(formula, self.t, scope, binding)
            case At(atom, time):
                for u, at_u in self._times(time, scope, binding):
                    yield from self._instances(atom, u, scope, at_u)
            case _Sometime(atom):
                for u in scope.points():
                    yield from self._instances(atom, u, scope, binding)
            case _Always(atom):
                points = scope.points()
                if not points:
                    yield binding  # □ holds on an empty timeline
                    return
                everywhere = set.intersection(*(set(self.holding(atom.signature, u, scope)) for u in points))
                for candidate in everywhere:
                    found = self._fit(atom, candidate, binding)
                    if found is not None:
                        yield found
            case _Windowed(window, inner):
                yield from self.entails(inner, binding, self.window(window))
            case Diamond() | Box() | WindowAt():
                yield from self.entails(_formula(formula), binding, scope)
            case _:
                raise TypeError(f"not an extended atom: {formula!r}")

    # ------------------------------------------------------------------ §5 ground instances
    def _spread(self, names: Iterable[str], bindings: list[Binding]) -> list[Binding]:
        """Every binding extended by each value of the active domain for each of ``names`` it lacks."""
        for name in sorted(names):
            spread: list[Binding] = []
            for binding in bindings:
                if name in binding:
                    spread.append(binding)
                else:
                    spread.extend({**binding, name: value} for value in self.domain)
            bindings = spread
        return bindings

    def _ground(self, atom: Atom, binding: Binding) -> Atom:
        return Atom(atom.predicate, tuple(_value(arg, binding, self.functions) for arg in atom.args))

    def _can_evaluate(self, element: object, others: list, bound: set[str]) -> bool:
        """Whether ``element`` can be decided (or can bind its variables) once ``bound`` are bound."""
        match element:
            case Comparison(op, left, right):
                free = _variables(element) - bound
                if not free:
                    return True
                return op == "=" and len(free) == 1 and any(
                    isinstance(side, Variable) and side.name in free and not _variables(other) - bound
                    for side, other in ((left, right), (right, left)))
            case AggregateAssignment(left, _, elements, op):
                outside = set().union(*map(_visible_variables, others))
                shared = set().union(*map(_variables, elements)) & outside
                if shared - bound:
                    return False
                return not _variables(left) - bound or (op == "=" and isinstance(left, Variable))
            case Literal(atom, True):
                return not _visible_variables(element) - bound
            case Literal(atom, False):
                if _computed_variables(atom) - bound:
                    return False
                if isinstance(atom, Box) and not self.window(atom.window).points():
                    return not _visible_variables(element) - bound  # □ on an empty window binds nothing
                return True
        raise TypeError(f"not a body element: {element!r}")

    def _plan(self, body: tuple, bound: frozenset[str]) -> list[tuple[bool, object]]:
        """The order in which :meth:`satisfying` takes the elements of ``body`` when ``bound`` are
        bound at the start: tests first (comparisons, ``not``, aggregates), then matches, each as
        soon as it can be evaluated; ``(True, name)``: no element can, the variable ``name`` takes
        each value of the active domain."""
        key = (body, bound)
        if key not in self.plans:
            todo, known = list(body), set(bound)
            steps: list[tuple[bool, object]] = []
            while todo:
                ready = [i for i, e in enumerate(todo) if self._can_evaluate(e, todo[:i] + todo[i + 1:], known)]
                if not ready:
                    name = min(_NONE.union(*map(_visible_variables, todo)) - known)
                    steps.append((True, name))
                    known.add(name)
                    continue

                def rank(i: int) -> tuple[int, int]:
                    e = todo[i]
                    return (0 if isinstance(e, Comparison) else 2 if isinstance(e, Literal) and not e.negated else 1, i)

                element = todo.pop(min(ready, key=rank))
                steps.append((False, element))
                if not (isinstance(element, Literal) and element.negated):
                    known |= _visible_variables(element)
            self.plans[key] = steps
        return self.plans[key]

    def satisfying(self, body: Iterable[object], binding: Binding) -> list[Binding]:
        """Every extension of ``binding`` to the variables of ``body`` under which each element of
        ``body`` holds at t, built element by element (:meth:`_plan`)."""
        bindings = [binding]
        for spread, step in self._plan(tuple(body), frozenset(binding)):
            if not bindings:
                break
            bindings = self._spread([step], bindings) if spread else self._apply(step, bindings)  # type: ignore[list-item]
        return bindings

    def _apply(self, element: object, bindings: list[Binding]) -> list[Binding]:
        match element:
            case Comparison(op, left, right):
                return [b for given in bindings for b in self._compare(op, left, right, given)]
            case AggregateAssignment():
                return [b for given in bindings for b in self._aggregate(element, given)]
            case Literal(atom, True):
                return [b for b in bindings if next(self.entails(atom, b), None) is None]
            case Literal(atom, False):
                unique: dict[frozenset, Binding] = {}
                for given in bindings:
                    for found in self.entails(atom, given):
                        kept = {name: term for name, term in found.items() if not _is_local(name)}
                        unique.setdefault(frozenset(kept.items()), kept)
                return list(unique.values())
        raise TypeError(f"not a body element: {element!r}")

    def _compare(self, op: str, left: Term, right: Term, binding: Binding) -> Iterator[Binding]:
        try:
            for side, other in ((left, right), (right, left)):
                if isinstance(side, Variable) and side.name not in binding:  # X = term assigns X
                    yield {**binding, side.name: _value(other, binding, self.functions)}
                    return
            if _RELATION[op](clingo_order(_value(left, binding, self.functions)),
                             clingo_order(_value(right, binding, self.functions))):
                yield binding
        except _NoValue:
            return

    def _aggregate(self, aggregate: AggregateAssignment, binding: Binding) -> Iterator[Binding]:
        """``left op #f{…}`` under ``binding`` (module doc, §5)."""
        tuples: set[tuple[Ground, ...]] = set()
        for element in aggregate.elements:
            for instance in self.satisfying(element.condition, binding):
                try:
                    tuples.add(tuple(_value(term, instance, self.functions) for term in element.terms))
                except (_NoValue, KeyError):  # undefined arithmetic, or a term the condition leaves unbound
                    pass
        firsts = [values[0] for values in tuples]
        function = aggregate.function
        result: Ground | None = None
        key: tuple
        if function.startswith("@"):
            if self.functions is None or function[1:] not in self.functions:
                raise UnsupportedError(f"the external aggregate #{function}", _STAGE, "no such function was given")
            result = self.functions[function[1:]](Counter(firsts))
        elif function == "count":
            result = Integer(len(tuples))
        elif function == "sum":
            result = Integer(sum(first.value for first in firsts if isinstance(first, Integer)))
        elif firsts:
            result = (min if function == "min" else max)(firsts, key=clingo_order)
        if result is None:
            key = _TOP if function == "min" else _BOTTOM
        else:
            key = clingo_order(result)
        left = aggregate.left
        if isinstance(left, Variable) and left.name not in binding:
            if result is not None:
                yield {**binding, left.name: result}
            return
        try:
            if _RELATION[aggregate.op](clingo_order(_value(left, binding, self.functions)), key):
                yield binding
        except _NoValue:
            return

    # ------------------------------------------------------------------ §4 the answer stream
    def _placed(self, rule: Rule) -> list[tuple[int, Atom]]:
        """Where the ground instances of ``rule`` whose body holds put their head atoms."""
        head = rule.head
        out = []
        for binding in self._spread(_variables(head), self.satisfying(rule.body, {})):
            try:
                if isinstance(head, At):
                    when = _value(head.time, binding, self.functions)
                    if not (isinstance(when, Integer) and self.tmin <= when.value <= self.t):
                        raise _NoAnswerStream(f"@{_text(when)} lies outside [{self.tmin}, {self.t}]")
                    out.append((when.value, self._ground(head.atom, binding)))
                else:
                    out.append((self.t, self._ground(head, binding)))  # type: ignore[arg-type]
            except _NoValue:
                continue
        return out

    def close(self, layers: list[list[Rule]]) -> None:
        """Apply the rules of each stratum until nothing new follows, lowest stratum first; then
        check the constraints (raises :class:`_NoAnswerStream`)."""
        for layer in layers:
            grown = True
            while grown:
                grown = False
                for rule in layer:
                    for u, atom in self._placed(rule):
                        atoms = self.derived.setdefault(u, {}).setdefault(atom.signature, set())
                        if atom not in atoms:
                            atoms.add(atom)
                            grown = True
        for rule in self.program.rules:
            if rule.head is None and self.satisfying(rule.body, {}):
                raise _NoAnswerStream("the body of a constraint holds")


def answer_stream_at(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> dict[int, Answer] | None:
    """The answer stream of ``program`` for ``stream`` at t, restricted to the predicates the program
    defines (rule heads and facts): time point → atoms, time points without any left out; ``None``
    when there is no answer stream. ``functions``: the functions of ``@name`` terms and aggregates."""
    program = _with_local_wildcards(program)
    layers = strata(program)
    interpretation = Interpretation(program, stream, t, functions)
    try:
        interpretation.close(layers)
    except _NoAnswerStream:
        return None
    defined = program.intensional()
    answer = {u: frozenset(a for a in atoms if a.signature in defined) for u, atoms in interpretation.stream().items()}
    return {u: atoms for u, atoms in answer.items() if atoms}


def answer_at(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> Answer | None:
    """The atoms of the program's predicates holding at t in its answer stream at t (``None``: none)."""
    found = answer_stream_at(program, stream, t, functions=functions)
    return None if found is None else found.get(t, frozenset())


def run(program: Program, stream: Stream, times: Iterable[int], *, functions: Functions | None = None) -> dict[int, Answer | None]:
    """:func:`answer_at` at each reference time of ``times``."""
    return {t: answer_at(program, stream, t, functions=functions) for t in times}


def expected_answers(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> list[tuple[str, ...]]:
    """:func:`answer_at` as the engines report a step (``lars.solver.Step.answers``): ``[]`` when
    there is no answer stream, else one sorted tuple of the atoms as clingo prints them."""
    found = answer_at(program, stream, t, functions=functions)
    return [] if found is None else [tuple(sorted(map(_atom_text, found)))]
