"""Reference semantics of LARS: the oracle the clingo engine (``asp``) is tested against.

A direct, readable implementation of the definitions of Beck, Dao-Tran, Eiter, Fink (AAAI 2015),
as summarised in seed 000 §2.3–2.4 and ``shared/spec/000-core.md`` §2 with decisions D9–D11. It
favours clarity over speed: no incremental evaluation, no indexes beyond predicate signatures.

Evaluation at reference time t (``answer_stream_at``):

1. **Timeline** ``[tmin, t]`` with ``tmin`` the stream's explicit start or its first time point
   (D9: the answer at t depends only on the stream up to t; windows are cut at t).
2. **Interpretation** ``M(u)`` for u in the timeline: the stream atoms at u, the program's facts
   (they hold at every time point, D11), and the intensional atoms derived so far. Rules apply at
   t only (D10): a rule with head ``a`` puts a at t; a rule with head ``@_T a`` puts a at T.
   An atom may be both in the stream and in a head: it holds where either puts it.
3. **Window functions** (:func:`window_view`): the time window ``⊞^{l,u,d}`` at t is
   ``[max(tmin, t'−l), min(t'+u, t)]`` with ``t' = ⌊t/d⌋·d`` (empty if ``tmin`` lies past its
   end; ``u = −1``, the right-open extension of ``lars.model.TimeWindow``, ends it before t'); the tuple window ``⊞^{#n}`` keeps the last n *stream* atoms up to t in arrival order
   (D11), its timeline is ``[t_n, t]`` with t_n the time of the oldest atom kept (``tmin`` if
   fewer than n atoms exist), and at ``t_n`` only the atoms kept; the partition window does the
   same with the stream atoms that match its key pattern only (other stream atoms are not in the
   window). Non-stream atoms (facts, derived atoms) of the window's time points are always in it.
4. **Satisfaction** ``M, t ⊨ β`` (:meth:`_Evaluation.matches`): ``a`` holds if a ∈ M(t);
   ``@_T a`` if T ∈ [tmin, t] and a ∈ M(T); ``⊞^w ◇a`` if a holds at some point of the window;
   ``⊞^w □a`` if at every point of it (so an empty window satisfies every □); ``⊞^w @_T a`` if T is
   a point of the window and a holds there. ``not β`` holds if no instance of β does; each ``_``
   is a fresh variable local to its literal (``not p(X,_)``: no p(X,·) at all).
5. **Answer stream** = the minimal model of the reduct (Definition 3). For a stratified program
   it is unique and computed stratum by stratum (:func:`strata`): each stratum's rules are applied
   until nothing changes; negation only looks at lower strata, where nothing changes any more.
   Non-stratified programs raise ``UnsupportedError("non-stratified negation", "reference semantics")``.
6. **No answer stream** (returned as ``None``): a constraint ``:- body`` whose body holds, or an
   ``@_T`` head whose body holds with T outside the timeline ``[tmin, t]`` (such a head cannot be
   put anywhere, so the rule acts as a constraint; also when T is not an integer).

Grounding is by matching the body against M (the same instances as grounding over the active
domain, for safe rules); a variable that no positive literal or ``=`` can bind ranges over the
active domain (all constants of the program, the stream and the timeline's time points).
Built-ins follow clingo: ``/`` truncates towards zero, ``\\`` is the remainder with the sign of
the dividend, arithmetic on non-integers or division by zero makes the instance inapplicable, and
comparisons use clingo's total order (integers < constants < strings < compound terms).
A ``Call`` term ``@name(…)`` is evaluated by the function of that name passed as ``functions=``
(as clingo calls its grounding context); its arguments must be bound.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import count
from typing import Callable, Iterable, Iterator, Mapping

from lars.errors import UnsupportedError
from lars.model import (
    AggregateAssignment,
    AggregateElement,
    Arith,
    At,
    Atom,
    Box,
    Call,
    Comparison,
    Constant,
    Diamond,
    Function,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    Stream,
    String,
    TRUE,
    Term,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)

Answer = frozenset[Atom]
Theta = Mapping[str, "GroundTerm"]
GroundTerm = Constant | Integer | String | Function

# ======================================================================================= windows


@dataclass(frozen=True)
class WindowSelection:
    """What a window function keeps of the stream at reference time t: the window's timeline
    ``[lo, hi]`` (empty if ``lo > hi``) and, per time point, the stream atoms kept (``None``: all
    stream atoms of that time point)."""

    lo: int
    hi: int
    kept: Mapping[int, frozenset[Atom]] | None = None

    def points(self) -> range:
        return range(self.lo, self.hi + 1)


def time_window_bounds(window: TimeWindow, t: int, tmin: int, tmax: int | None = None) -> tuple[int, int]:
    """``⊞^{l,u,d}`` at t on the timeline [tmin, tmax] (seed 000 §2.3): ``t' = ⌊t/d⌋·d``,
    ``[max(tmin, t'−l), min(t'+u, tmax)]``; ``l = None`` is ``⊞^∞``. The online semantics (D9)
    evaluates at t on the timeline [tmin, t], so ``tmax`` defaults to t (the window is cut at t)."""
    pivot = (t // window.d) * window.d
    lo = tmin if window.l is None else max(tmin, pivot - window.l)
    return lo, min(pivot + window.u, t if tmax is None else tmax)


def _last_n(atoms_by_time: Iterable[tuple[int, tuple[Atom, ...]]], n: int, t: int, tmin: int) -> WindowSelection:
    """The last n atoms (in arrival order) of ``atoms_by_time`` up to t (D11); an atom repeated
    at one time point counts once, at its first arrival (υ(u) is a set)."""
    timed = [(u, a) for u, atoms in atoms_by_time if tmin <= u <= t for a in dict.fromkeys(atoms)]
    chosen = timed[max(0, len(timed) - n) :] if n > 0 else []
    if n == 0:
        lo = t
    elif len(timed) < n:
        lo = tmin
    else:
        lo = chosen[0][0]
    kept: dict[int, set[Atom]] = {u: set() for u in range(lo, t + 1)}
    for u, a in chosen:
        kept[u].add(a)
    return WindowSelection(lo, t, {u: frozenset(s) for u, s in kept.items()})


def window_view(window: TimeWindow | TupleWindow | PartitionWindow, stream: Stream, t: int, tmin: int) -> WindowSelection:
    """The window function of ``window`` applied at reference time t to ``stream`` (module doc, 3)."""
    if isinstance(window, TimeWindow):
        lo, hi = time_window_bounds(window, t, tmin)
        return WindowSelection(lo, hi, None)
    if isinstance(window, TupleWindow):
        return _last_n(stream.items(), window.n, t, tmin)
    if isinstance(window, PartitionWindow):
        partition = ((u, tuple(a for a in atoms if _matches_pattern(window.key, a))) for u, atoms in stream.items())
        return _last_n(partition, window.n, t, tmin)
    raise TypeError(f"not a window: {window!r}")


def _matches_pattern(pattern: Atom, atom: Atom) -> bool:
    """Partition keys: variables and ``_`` are wildcards (each on its own), constants must be equal."""
    if pattern.signature != atom.signature:
        return False
    return all(_unify(p, g, {}, wildcards=True) is not None for p, g in zip(pattern.args, atom.args))


# ================================================================================ terms & built-ins


def clingo_order(term: GroundTerm) -> tuple:
    """clingo's total order on symbols: integers < constants < strings < compound terms
    (those by arity, then name, then arguments)."""
    if isinstance(term, Integer):
        return (0, term.value)
    if isinstance(term, Constant):
        return (1, term.name)
    if isinstance(term, String):
        return (2, term.value)
    return (3, len(term.args), term.name, tuple(clingo_order(a) for a in term.args))


class _Undefined(Exception):
    """Arithmetic clingo leaves undefined (non-integer operand, division by zero)."""


def _truncating_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


Functions = Mapping[str, Callable[..., "GroundTerm"]]
"""Grounding-time functions for ``Call`` terms (clingo's ``@name(…)``), by name."""


def evaluate(term: Term, theta: Theta, functions: Functions | None = None) -> GroundTerm:
    """The value of a term under a substitution (all its variables bound). A ``Call`` applies the
    function of that name from ``functions`` to its evaluated arguments (as clingo's context)."""
    if isinstance(term, Variable):
        return theta[term.name]
    if isinstance(term, (Constant, Integer, String)):
        return term
    if isinstance(term, Function):
        return Function(term.name, tuple(evaluate(a, theta, functions) for a in term.args))
    if isinstance(term, Call):
        if functions is None or term.name not in functions:
            raise UnsupportedError(f"function @{term.name}", "reference semantics", "no such function was given")
        return functions[term.name](*(evaluate(a, theta, functions) for a in term.args))
    left, right = evaluate(term.left, theta, functions), evaluate(term.right, theta, functions)
    if not isinstance(left, Integer) or not isinstance(right, Integer):
        raise _Undefined
    a, b = left.value, right.value
    if term.op == "+":
        return Integer(a + b)
    if term.op == "-":
        return Integer(a - b)
    if term.op == "*":
        return Integer(a * b)
    if b == 0:
        raise _Undefined
    if term.op == "/":
        return Integer(_truncating_div(a, b))
    return Integer(a - b * _truncating_div(a, b))  # "\": remainder with the dividend's sign


_COMPARE: dict[str, Callable[[tuple, tuple], bool]] = {
    "=": lambda x, y: x == y,
    "!=": lambda x, y: x != y,
    "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
}


def external_aggregate(function: str, firsts: Mapping[GroundTerm, int], functions: Functions | None) -> GroundTerm:
    """``#@name{…}`` (``lars.model.AggregateAssignment``): the function ``name`` of ``functions``
    applied to the multiset of first terms (term -> number of tuples with it).

    A function may also offer its value *incrementally*: an attribute ``incremental``, called
    with no argument, gives a state for the empty multiset with ``change(term, times)`` (``times``
    more tuples with the first term ``term``; fewer if negative, never below none) and ``value()``,
    which must be the function applied to the multiset the changes so far have made; it may also
    offer ``text()``, ``lars.printer.format_term(value())`` without building the term. The
    incremental engine keeps one per group of a kept aggregate (``lars.incremental_aggregates``).
    A function whose value on a non-empty multiset is always its first term least (or greatest)
    by a key of terms that is injective (distinct terms: distinct keys) may declare so: an attribute
    ``extreme = (min, key)`` (or ``(max, key)``); the incremental engine then picks that term among
    its groups' terms itself (the function is still called on the empty multiset)."""
    name = function[1:]
    if functions is None or name not in functions:
        raise UnsupportedError(f"the external aggregate #{function}", "reference semantics", "no such function was given")
    return functions[name](firsts)


def comparison_holds(c: Comparison, theta: Theta, functions: Functions | None = None) -> bool:
    """Does the comparison hold under ``theta`` (all its variables bound)? Undefined arithmetic
    (division by zero, a non-integer operand) makes it false, as in clingo; terms compare in
    clingo's order of symbols."""
    try:
        left, right = evaluate(c.left, theta, functions), evaluate(c.right, theta, functions)
    except _Undefined:
        return False
    return _COMPARE[c.op](clingo_order(left), clingo_order(right))


def _variables(obj: object) -> set[str]:
    """Names of the variables in a term, atom, extended atom or comparison."""
    if isinstance(obj, Variable):
        return {obj.name}
    if isinstance(obj, (Constant, Integer, String)) or obj is None:
        return set()
    if isinstance(obj, (Function, Call, Atom)):
        return set().union(*(_variables(a) for a in obj.args))
    if isinstance(obj, Arith):
        return _variables(obj.left) | _variables(obj.right)
    if isinstance(obj, Comparison):
        return _variables(obj.left) | _variables(obj.right)
    if isinstance(obj, (At, WindowAt)):
        return _variables(obj.atom) | _variables(obj.time)
    if isinstance(obj, (Diamond, Box)):
        return _variables(obj.atom)
    if isinstance(obj, Literal):
        return _variables(obj.atom)
    if isinstance(obj, AggregateElement):
        return set().union(*(_variables(t) for t in obj.terms), *(_variables(c) for c in obj.condition))
    if isinstance(obj, AggregateAssignment):
        return _variables(obj.left).union(*(_variables(e) for e in obj.elements))
    raise TypeError(f"unexpected {obj!r}")


def _unify(
    pattern: Term, ground: GroundTerm, theta: dict[str, GroundTerm], *, wildcards: bool = False, functions: Functions | None = None
) -> dict[str, GroundTerm] | None:
    """Extend ``theta`` so that ``pattern`` equals ``ground`` (``None`` if impossible). Arithmetic
    and calls in a pattern must be fully bound (callers ensure it)."""
    if isinstance(pattern, Variable):
        if wildcards or pattern.name == "_":
            return theta
        bound = theta.get(pattern.name)
        if bound is None:
            out = dict(theta)
            out[pattern.name] = ground
            return out
        return theta if bound == ground else None
    if isinstance(pattern, Function):
        if not isinstance(ground, Function) or ground.name != pattern.name or len(ground.args) != len(pattern.args):
            return None
        for p, g in zip(pattern.args, ground.args):
            theta = _unify(p, g, theta, wildcards=wildcards, functions=functions)  # type: ignore[assignment]
            if theta is None:
                return None
        return theta
    if isinstance(pattern, (Arith, Call)):
        try:
            return theta if evaluate(pattern, theta, functions) == ground else None
        except _Undefined:
            return None
    return theta if pattern == ground else None


def _unify_atom(pattern: Atom, ground: Atom, theta: dict[str, GroundTerm], functions: Functions | None = None) -> dict[str, GroundTerm] | None:
    if pattern.signature != ground.signature:
        return None
    for p, g in zip(pattern.args, ground.args):
        theta = _unify(p, g, theta, functions=functions)  # type: ignore[assignment]
        if theta is None:
            return None
    return theta


def _arith_variables(obj: object) -> set[str]:
    """Variables that occur inside arithmetic or calls (they must be bound before matching)."""
    if isinstance(obj, (Arith, Call)):
        return _variables(obj)
    if isinstance(obj, Function):
        return set().union(*(_arith_variables(a) for a in obj.args))
    if isinstance(obj, Atom):
        return set().union(*(_arith_variables(a) for a in obj.args))
    if isinstance(obj, (At, WindowAt)):
        return _arith_variables(obj.atom) | _arith_variables(obj.time)
    if isinstance(obj, (Diamond, Box)):
        return _arith_variables(obj.atom)
    return set()


# ====================================================================================== program


def _fresh_wildcards(rule: Rule, fresh: Iterator[int]) -> Rule:
    """Rename every ``_`` of the body to a fresh variable ``_#k`` local to its literal."""

    def term(t: Term) -> Term:
        if isinstance(t, Variable) and t.name == "_":
            return Variable(f"_#{next(fresh)}")
        if isinstance(t, Function):
            return Function(t.name, tuple(term(a) for a in t.args))
        if isinstance(t, Arith):
            return Arith(t.op, term(t.left), term(t.right))
        if isinstance(t, Call):
            return Call(t.name, tuple(term(a) for a in t.args))
        return t

    def atom(a: Atom) -> Atom:
        return Atom(a.predicate, tuple(term(x) for x in a.args))

    def ext(e: object) -> object:
        if isinstance(e, Atom):
            return atom(e)
        if isinstance(e, At):
            return At(atom(e.atom), term(e.time))
        if isinstance(e, WindowAt):
            return WindowAt(e.window, atom(e.atom), term(e.time))
        if isinstance(e, Diamond):
            return Diamond(e.window, atom(e.atom))
        if isinstance(e, Box):
            return Box(e.window, atom(e.atom))
        raise TypeError(e)

    body = tuple(Literal(ext(b.atom), b.negated) if isinstance(b, Literal) else b for b in rule.body)  # type: ignore[arg-type]
    return Rule(rule.head, body)


def _head_signature(rule: Rule) -> tuple[str, int] | None:
    if rule.head is None:
        return None
    return (rule.head.atom if isinstance(rule.head, At) else rule.head).signature


def strata(program: Program) -> list[list[Rule]]:
    """The rules (facts and constraints excluded) grouped by stratum, lowest first: the strongly
    connected components of the predicate dependency graph in topological order. A negative
    dependency inside a component means the program is not stratified."""
    intensional = program.intensional()
    rules = [r for r in program.rules if r.head is not None and not r.is_fact]
    depends: dict[tuple[str, int], set[tuple[tuple[str, int], bool]]] = {s: set() for s in intensional}
    for r in rules:
        head = _head_signature(r)
        assert head is not None
        for b in r.body:
            if isinstance(b, Literal):
                sig = b.atom.signature if isinstance(b.atom, Atom) else b.atom.atom.signature
                if sig in intensional:
                    depends[head].add((sig, b.negated))
            elif isinstance(b, AggregateAssignment):  # aggregates are non-monotone: like negation
                for e in b.elements:
                    for c in e.condition:
                        if isinstance(c, Literal) and c.atom.signature in intensional:  # type: ignore[union-attr]
                            depends[head].add((c.atom.signature, True))  # type: ignore[union-attr]
    components = _strongly_connected(sorted(intensional), lambda s: [d for d, _ in depends[s]])
    component_of = {s: i for i, comp in enumerate(components) for s in comp}
    for s, edges in depends.items():
        for d, negated in edges:
            if negated and component_of[d] == component_of[s]:
                raise UnsupportedError(
                    "non-stratified negation", "reference semantics", f"{s[0]}/{s[1]} depends negatively on {d[0]}/{d[1]} in a cycle"
                )
    grouped: list[list[Rule]] = [[] for _ in components]
    for r in rules:
        head = _head_signature(r)
        grouped[component_of[head]].append(r)  # type: ignore[index]
    return [g for g in grouped if g]


def _strongly_connected(nodes: list, successors: Callable[[object], list]) -> list[list]:
    """Tarjan's algorithm; components come out dependencies first (reverse topological order of
    the "depends on" edges), which is the evaluation order of strata."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    out: list[list] = []
    counter = count()

    def visit(v: object) -> None:
        index[v] = low[v] = next(counter)
        stack.append(v)
        on_stack.add(v)
        for w in successors(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in nodes:
        if v not in index:
            visit(v)
    return out


# =================================================================================== evaluation


class _NoAnswer(Exception):
    """The program has no answer stream at t (a constraint fired, or an @-head left the timeline)."""


class _Evaluation:
    """One evaluation at reference time t: the interpretation M over ``[tmin, t]`` and satisfaction."""

    def __init__(self, program: Program, stream: Stream, t: int, functions: Functions | None = None) -> None:
        self.program = program
        self.functions = functions
        self.stream = stream
        self.tmin = stream.timeline[0]
        self.t = t
        if t < self.tmin:
            raise ValueError(f"reference time {t} lies before the start {self.tmin} of the stream")
        self.stream_atoms: dict[int, frozenset[Atom]] = {
            u: frozenset(atoms) for u, atoms in stream.items() if self.tmin <= u <= t
        }
        self.facts: set[Atom] = {TRUE}  # ``true`` holds at every time point of the timeline
        for rule in program.rules:
            if rule.is_fact:
                for theta in self._free_instances(_variables(rule.head), {}):
                    try:
                        self.facts.add(self._ground_atom(rule.head, theta))  # type: ignore[arg-type]
                    except _Undefined:
                        pass
        self.derived: dict[int, set[Atom]] = {}
        self._views: dict[object, WindowSelection] = {}

    # ------------------------------------------------------------------------ interpretation
    @property
    def timeline(self) -> range:
        return range(self.tmin, self.t + 1)

    def holds_at(self, u: int, kept: Mapping[int, frozenset[Atom]] | None = None) -> set[Atom]:
        """M(u), or the window's view of it when ``kept`` restricts the stream atoms."""
        stream = self.stream_atoms.get(u, frozenset()) if kept is None else kept.get(u, frozenset())
        return set(stream) | self.facts | self.derived.get(u, set())

    def view(self, window: TimeWindow | TupleWindow | PartitionWindow) -> WindowSelection:
        if window not in self._views:
            self._views[window] = window_view(window, self.stream, self.t, self.tmin)
        return self._views[window]

    @cached_property
    def active_domain(self) -> list[GroundTerm]:
        """Constants of the program, the stream and the timeline (for variables nothing binds)."""
        found: set[GroundTerm] = {Integer(u) for u in self.timeline}

        def collect(obj: object) -> None:
            if isinstance(obj, (Constant, Integer, String)):
                found.add(obj)
            elif isinstance(obj, (Function, Atom, Call)):
                for a in obj.args:
                    collect(a)
                if isinstance(obj, Function) and not _variables(obj):
                    found.add(obj)
            elif isinstance(obj, (Arith, Comparison)):
                collect(obj.left)
                collect(obj.right)
            elif isinstance(obj, (At, WindowAt)):
                collect(obj.atom)
                collect(obj.time)
            elif isinstance(obj, (Diamond, Box)):
                collect(obj.atom)
            elif isinstance(obj, Literal):
                collect(obj.atom)
            elif isinstance(obj, AggregateAssignment):
                collect(obj.left)
                for e in obj.elements:
                    for x in (*e.terms, *e.condition):
                        collect(x)

        for atoms in self.stream_atoms.values():
            for a in atoms:
                collect(a)
        for rule in self.program.rules:
            if rule.head is not None:
                collect(rule.head)
            for b in rule.body:
                collect(b)
        return sorted(found, key=clingo_order)

    def _free_instances(self, names: set[str], theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        """All extensions of theta binding ``names`` over the active domain."""
        unbound = sorted(n for n in names if n not in theta)
        if not unbound:
            yield theta
            return
        first, rest = unbound[0], set(unbound[1:])
        for value in self.active_domain:
            yield from self._free_instances(rest, {**theta, first: value})

    def _ground_atom(self, atom: Atom, theta: Theta) -> Atom:
        return Atom(atom.predicate, tuple(evaluate(a, theta, self.functions) for a in atom.args))

    # ------------------------------------------------------------------------ satisfaction
    def _match_at(self, atom: Atom, atoms: set[Atom], theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        for ground in atoms:
            out = _unify_atom(atom, ground, theta, self.functions)
            if out is not None:
                yield out

    def _time_points(self, time: Term, lo: int, hi: int, theta: dict[str, GroundTerm]) -> Iterator[tuple[int, dict[str, GroundTerm]]]:
        """The points u of [lo, hi] that the time term can denote, with the binding."""
        if isinstance(time, Variable) and time.name not in theta:
            for u in range(lo, hi + 1):
                yield u, {**theta, time.name: Integer(u)}
            return
        try:
            value = evaluate(time, theta, self.functions)
        except _Undefined:
            return
        if isinstance(value, Integer) and lo <= value.value <= hi:
            yield value.value, theta

    def matches(self, ext: object, theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        """All extensions θ' of θ with ``M, t ⊨ ext θ'`` (module doc, 4)."""
        if isinstance(ext, Atom):
            yield from self._match_at(ext, self.holds_at(self.t), theta)
        elif isinstance(ext, At):
            for u, th in self._time_points(ext.time, self.tmin, self.t, theta):
                yield from self._match_at(ext.atom, self.holds_at(u), th)
        elif isinstance(ext, WindowAt):
            view = self.view(ext.window)
            for u, th in self._time_points(ext.time, view.lo, view.hi, theta):
                yield from self._match_at(ext.atom, self.holds_at(u, view.kept), th)
        elif isinstance(ext, Diamond):
            view = self.view(ext.window)
            for u in view.points():
                yield from self._match_at(ext.atom, self.holds_at(u, view.kept), theta)
        elif isinstance(ext, Box):
            view = self.view(ext.window)
            points = list(view.points())
            if not points:  # every □ holds on an empty window (_ready: the variables are bound)
                yield theta
                return
            for candidate in self._match_at(ext.atom, self.holds_at(points[0], view.kept), theta):
                ground = self._ground_atom(ext.atom, candidate)
                if all(ground in self.holds_at(u, view.kept) for u in points[1:]):
                    yield candidate
        else:
            raise TypeError(f"not an extended atom: {ext!r}")

    def _ready(self, element: object, theta: Mapping[str, GroundTerm]) -> bool:
        """Can ``element`` be evaluated now (every variable it cannot bind itself is bound)?"""
        if isinstance(element, Comparison):
            unbound = _variables(element) - theta.keys()
            if not unbound:
                return True
            if element.op == "=" and len(unbound) == 1:
                for side, other in ((element.left, element.right), (element.right, element.left)):
                    if isinstance(side, Variable) and side.name in unbound and not (_variables(other) - theta.keys()):
                        return True
            return False
        assert isinstance(element, Literal)
        if element.negated:
            return not {v for v in _variables(element) if not v.startswith("_#")} - theta.keys()
        if _arith_variables(element.atom) - theta.keys():
            return False
        if isinstance(element.atom, Box) and not list(self.view(element.atom.window).points()):
            return not {v for v in _variables(element.atom) if not v.startswith("_#")} - theta.keys()
        return True

    def _compare(self, c: Comparison, theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        unbound = _variables(c) - theta.keys()
        try:
            if unbound:  # X = term: assignment
                var, other = (c.left, c.right) if isinstance(c.left, Variable) and c.left.name in unbound else (c.right, c.left)
                yield {**theta, var.name: evaluate(other, theta, self.functions)}  # type: ignore[union-attr]
                return
        except _Undefined:
            return
        if comparison_holds(c, theta, self.functions):
            yield theta

    def body_instances(self, body: tuple, theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        """All substitutions that satisfy every element of ``body`` (order-independent)."""
        if not body:
            yield theta
            return
        ready = [
            i for i, b in enumerate(body)
            if (self._aggregate_ready(b, body[:i] + body[i + 1 :], theta) if isinstance(b, AggregateAssignment) else self._ready(b, theta))
        ]
        if not ready:
            # nothing can bind the remaining variables: range them over the active domain (never
            # the local variables of an aggregate)
            names = set().union(*(self._outer_variables(b) for b in body)) - theta.keys()
            name = sorted(n for n in names if not n.startswith("_#"))[0]
            for value in self.active_domain:
                yield from self.body_instances(body, {**theta, name: value})
            return
        # comparisons and negations first (they only filter), then the first positive literal
        def rank(i: int) -> int:
            b = body[i]
            return 0 if isinstance(b, Comparison) else 1 if isinstance(b, AggregateAssignment) or b.negated else 2

        i = min(ready, key=lambda j: (rank(j), j))
        element, rest = body[i], body[:i] + body[i + 1 :]
        if isinstance(element, AggregateAssignment):
            for th in self._aggregate(element, rest, theta):
                yield from self.body_instances(rest, th)
        elif isinstance(element, Comparison):
            for th in self._compare(element, theta):
                yield from self.body_instances(rest, th)
        elif element.negated:
            if next(self.matches(element.atom, theta), None) is None:
                yield from self.body_instances(rest, theta)
        else:
            seen: set[frozenset] = set()
            for th in self.matches(element.atom, theta):
                th = {k: v for k, v in th.items() if not k.startswith("_#")}
                key = frozenset(th.items())
                if key not in seen:
                    seen.add(key)
                    yield from self.body_instances(rest, th)

    # ------------------------------------------------------------------------ aggregates
    @staticmethod
    def _outer_variables(element: object) -> set[str]:
        """The variables of a body element seen from the rest of the rule (an aggregate: its left
        term only; its other variables are global only if they occur elsewhere)."""
        if isinstance(element, AggregateAssignment):
            return _variables(element.left)
        return _variables(element)

    def _aggregate_ready(self, agg: AggregateAssignment, rest: tuple, theta: Mapping[str, GroundTerm]) -> bool:
        """An aggregate can be evaluated once its global variables (those the rest of the body
        also mentions) are bound; an unbound variable on the left of ``=`` is assigned."""
        outside = set().union(*(self._outer_variables(b) for b in rest)) if rest else set()
        inner = set().union(set(), *(_variables(e) for e in agg.elements))
        pending = (inner & outside) - theta.keys()
        left = _variables(agg.left) - theta.keys()
        if left and not (agg.op == "=" and isinstance(agg.left, Variable)):
            return False
        return not pending

    def _aggregate(self, agg: AggregateAssignment, rest: tuple, theta: dict[str, GroundTerm]) -> Iterator[dict[str, GroundTerm]]:
        """``left op #f{…}`` under θ: the set of element tuples over the atoms holding at t, then
        the function (``lars.model.AggregateAssignment``), then the comparison or assignment."""
        # every variable bound so far was bound outside the aggregate: it is global (_aggregate_ready
        # waits for the global variables of the rest of the body)
        tuples: set[tuple[GroundTerm, ...]] = set()
        for element in agg.elements:
            for th in self.body_instances(element.condition, dict(theta)):
                try:
                    tuples.add(tuple(evaluate(term, th, self.functions) for term in element.terms))
                except (_Undefined, KeyError):
                    continue
        firsts = [tup[0] for tup in tuples]
        value: GroundTerm | str
        if agg.function[0] == "@":  # an external aggregate: the function of the first terms' multiset
            value = external_aggregate(agg.function, Counter(firsts), self.functions)
        elif agg.function == "count":
            value = Integer(len(tuples))
        elif agg.function == "sum":
            value = Integer(sum(x.value for x in firsts if isinstance(x, Integer)))
        elif not firsts:
            value = "#sup" if agg.function == "min" else "#inf"
        else:
            pick = min if agg.function == "min" else max
            value = pick(firsts, key=clingo_order)
        if isinstance(agg.left, Variable) and agg.left.name not in theta:
            if not isinstance(value, str):  # #min/#max of nothing assigns nothing
                yield {**theta, agg.left.name: value}
            return
        try:
            left = evaluate(agg.left, theta, self.functions)
        except _Undefined:
            return
        if isinstance(value, str):  # #sup is above every term, #inf below
            holds = {"=": False, "!=": True}.get(agg.op, (agg.op in ("<", "<=")) == (value == "#sup"))
        else:
            holds = _COMPARE[agg.op](clingo_order(left), clingo_order(value))
        if holds:
            yield theta

    # ------------------------------------------------------------------------ fixpoint
    def _fire(self, rule: Rule) -> bool:
        """Apply one rule at t for every body instance; True if something new was derived."""
        new = False
        for body_theta in list(self.body_instances(rule.body, {})):
            # head variables no body element binds range over the active domain (unsafe rules)
            for theta in self._free_instances(_variables(rule.head), body_theta):
                head = rule.head
                try:
                    if isinstance(head, At):
                        when = evaluate(head.time, theta, self.functions)
                        if not isinstance(when, Integer) or not self.tmin <= when.value <= self.t:
                            raise _NoAnswer(f"@-head at {when} outside the timeline [{self.tmin}, {self.t}]")
                        u, ground = when.value, self._ground_atom(head.atom, theta)
                    else:
                        u, ground = self.t, self._ground_atom(head, theta)  # type: ignore[arg-type]
                except _Undefined:
                    continue
                target = self.derived.setdefault(u, set())
                if ground not in target:
                    target.add(ground)
                    new = True
        return new

    def run(self, rule_strata: list[list[Rule]]) -> dict[int, set[Atom]]:
        for stratum in rule_strata:
            while any([self._fire(rule) for rule in stratum]):
                pass
        for rule in self.program.rules:
            if rule.head is None and next(self.body_instances(rule.body, {}), None) is not None:
                raise _NoAnswer("a constraint is violated")
        return {u: self.holds_at(u) for u in self.timeline}


def _prepare(program: Program) -> tuple[list[list[Rule]], Program]:
    fresh = count()
    renamed = Program(tuple(_fresh_wildcards(r, fresh) for r in program.rules))
    return strata(renamed), renamed


def answer_stream_at(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> dict[int, Answer] | None:
    """The answer stream at t restricted to intensional atoms: time point → atoms (time points
    with none left out); ``None`` if there is no answer stream at t. ``functions`` supplies the
    grounding-time functions of ``Call`` terms by name."""
    rule_strata, prepared = _prepare(program)
    intensional = program.intensional()
    try:
        model = _Evaluation(prepared, stream, t, functions).run(rule_strata)
    except _NoAnswer:
        return None
    out = {u: frozenset(a for a in atoms if a.signature in intensional) for u, atoms in model.items()}
    return {u: atoms for u, atoms in out.items() if atoms}


def answer_at(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> Answer | None:
    """The intensional atoms that hold at t in the answer stream at t (``None``: no answer stream)."""
    answer = answer_stream_at(program, stream, t, functions=functions)
    return None if answer is None else answer.get(t, frozenset())


def run(program: Program, stream: Stream, times: Iterable[int], *, functions: Functions | None = None) -> dict[int, Answer | None]:
    """``answer_at`` for every reference time in ``times``."""
    return {t: answer_at(program, stream, t, functions=functions) for t in times}


def expected_answers(program: Program, stream: Stream, t: int, *, functions: Functions | None = None) -> list[tuple[str, ...]]:
    """``answer_at`` in the form of ``asp.solver.Step.answers``: ``[]`` for no answer stream, else
    one sorted tuple of atom strings as ``lars.printer.format_atom`` prints them."""
    from lars.printer import format_atom

    answer = answer_at(program, stream, t, functions=functions)
    return [] if answer is None else [tuple(sorted(format_atom(a) for a in answer))]
