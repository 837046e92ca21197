"""Ground terms, built-ins and strata as both LARS engines compute them (no engine, no oracle).

The clingo engine (``asp``) and the incremental engine (``lars.incremental``) share these small
definitions: clingo's built-ins and its total order of symbols (integers < constants < strings <
compound terms; ``/`` truncates towards zero, ``\\`` keeps the dividend's sign, undefined
arithmetic makes an instance inapplicable), unification of a term pattern with a ground term, the external
aggregates' calling convention, and the strata of a stratified program (Apt, Blair, Walker 1988).
The window functions' arithmetic (window bounds, the time window function, partition keys) is
``lars.windows``.

``lars.reference``, the oracle the engines are tested against, computes these definitions itself
from the papers and imports nothing from here, so that a mistake here shows up as a disagreement
with it (``tests/lars/test_engine_imports.py`` checks the import rules).
"""

from __future__ import annotations

from itertools import count
from typing import Any, Callable, Mapping

from lars.errors import UnsupportedError
from lars.model import (
    AggregateAssignment,
    Arith,
    At,
    Atom,
    Call,
    Comparison,
    Constant,
    Function,
    Integer,
    Literal,
    Program,
    Rule,
    String,
    Term,
    Variable,
)

GroundTerm = Constant | Integer | String | Function
Theta = Mapping[str, GroundTerm]


def clingo_order(term: Term) -> tuple:
    """clingo's total order on symbols: integers < constants < strings < compound terms
    (those by arity, then name, then arguments)."""
    if isinstance(term, Integer):
        return (0, term.value)
    if isinstance(term, Constant):
        return (1, term.name)
    if isinstance(term, String):
        return (2, term.value)
    assert isinstance(term, Function)
    return (3, len(term.args), term.name, tuple(clingo_order(a) for a in term.args))


class Undefined(Exception):
    """Arithmetic clingo leaves undefined (non-integer operand, division by zero)."""


def truncating_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


Functions = Mapping[str, Callable[..., Any]]  # each returns a ground term
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
        raise Undefined
    a, b = left.value, right.value
    if term.op == "+":
        return Integer(a + b)
    if term.op == "-":
        return Integer(a - b)
    if term.op == "*":
        return Integer(a * b)
    if b == 0:
        raise Undefined
    if term.op == "/":
        return Integer(truncating_div(a, b))
    return Integer(a - b * truncating_div(a, b))  # "\": remainder with the dividend's sign


COMPARE: dict[str, Callable[[tuple, tuple], bool]] = {
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
    incremental engine keeps one per group of a kept aggregate (``lars.incremental.aggregates``).
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
    except Undefined:
        return False
    return COMPARE[c.op](clingo_order(left), clingo_order(right))


def unify(
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
            got = unify(p, g, theta, wildcards=wildcards, functions=functions)  # type: ignore[arg-type]
            if got is None:
                return None
            theta = got
        return theta
    if isinstance(pattern, (Arith, Call)):
        try:
            return theta if evaluate(pattern, theta, functions) == ground else None
        except Undefined:
            return None
    return theta if pattern == ground else None


def head_signature(rule: Rule) -> tuple[str, int] | None:
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
        head = head_signature(r)
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
    components = strongly_connected(sorted(intensional), lambda s: [d for d, _ in depends[s]])
    component_of = {s: i for i, comp in enumerate(components) for s in comp}
    for s, edges in depends.items():
        for d, negated in edges:
            if negated and component_of[d] == component_of[s]:
                raise UnsupportedError(
                    "non-stratified negation", "reference semantics", f"{s[0]}/{s[1]} depends negatively on {d[0]}/{d[1]} in a cycle"
                )
    grouped: list[list[Rule]] = [[] for _ in components]
    for r in rules:
        head = head_signature(r)
        grouped[component_of[head]].append(r)
    return [g for g in grouped if g]


def strongly_connected(nodes: list, successors: Callable[[Any], list]) -> list[list]:
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
