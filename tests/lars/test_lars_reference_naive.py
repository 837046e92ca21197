"""Property: lars.reference equals a second, deliberately naive evaluator written here from the
definitions, on random stratified programs with every window kind and random streams.

The naive evaluator grounds every rule over the whole active domain (every assignment of its
variables) and checks each ground body element by the satisfaction relation, stratum by stratum,
with the strata known from how the program was generated. It shares only the window functions
with lars.reference (those are tested by hand in test_lars_reference.py), so it checks the
reference's matching, binding order, negation, ``_``, @-heads and constraints independently.
"""

from __future__ import annotations

import dataclasses
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.model import (
    ALL,
    NOW,
    TRUE,
    Arith,
    At,
    Atom,
    Box,
    Comparison,
    Diamond,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    Stream,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)
from lars.reference import answer_at, window_view

CONSTANTS = [Integer(1), Integer(2)]
EXTENSIONAL = {"p": 1, "q": 1, "r": 2}
LEVELS = {"a": 1, "b": 2, "c": 3}  # intensional predicates and their strata
ARITY = {**EXTENSIONAL, "a": 1, "b": 1, "c": 2, "f": 1}
VARS = [Variable("X"), Variable("Y")]
T = Variable("T")

# ------------------------------------------------------------------------------------ generators

windows = st.one_of(
    st.builds(TimeWindow, st.integers(0, 3), st.integers(-1, 2), st.integers(1, 3)),
    st.sampled_from([ALL, NOW]),
    st.builds(TupleWindow, st.integers(0, 4)),
    st.builds(
        PartitionWindow,
        st.integers(0, 3),
        st.sampled_from([Atom("p", (Variable("_"),)), Atom("r", (Variable("_"), Integer(1))), Atom("q", (Integer(2),))]),
    ),
)


@st.composite
def atom_of(draw, predicates: list[str], wildcard: bool = False) -> Atom:
    pred = draw(st.sampled_from(predicates))
    choices = VARS + VARS + CONSTANTS + ([Variable("_")] if wildcard else [])
    return Atom(pred, tuple(draw(st.sampled_from(choices)) for _ in range(ARITY[pred])))


@st.composite
def extended_of(draw, predicates: list[str], wildcard: bool = False):
    atom = draw(atom_of(predicates, wildcard))
    kind = draw(st.sampled_from(["atom", "at", "diamond", "box", "window_at"]))
    if kind == "atom":
        return atom
    if kind == "at":
        return At(atom, draw(st.sampled_from([T, Integer(0), Integer(2)])))
    window = draw(windows)
    if kind == "diamond":
        return Diamond(window, atom)
    if kind == "box":
        return Box(window, atom)
    return WindowAt(window, atom, draw(st.sampled_from([T, Integer(1)])))


def _positive_vars(lit: Literal) -> set[str]:
    ext = lit.atom
    atom = ext if isinstance(ext, Atom) else ext.atom
    names = {a.name for a in atom.args if isinstance(a, Variable) and a.name != "_"}
    if isinstance(ext, (At, WindowAt)) and isinstance(ext.time, Variable):
        names.add(ext.time.name)
    return names


def _vars(obj) -> set[str]:
    if isinstance(obj, Variable):
        return {obj.name} - {"_"}
    if isinstance(obj, Arith):
        return _vars(obj.left) | _vars(obj.right)
    if isinstance(obj, Comparison):
        return _vars(obj.left) | _vars(obj.right)
    if isinstance(obj, Atom):
        return set().union(*(_vars(a) for a in obj.args))
    if isinstance(obj, (At, WindowAt)):
        return _vars(obj.atom) | _vars(obj.time)
    if isinstance(obj, (Diamond, Box)):
        return _vars(obj.atom)
    if isinstance(obj, Literal):
        return _vars(obj.atom)
    return set()


@st.composite
def rules(draw, head_pred: str | None) -> Rule:
    level = LEVELS.get(head_pred, 4) if head_pred else 4
    same_or_lower = list(EXTENSIONAL) + ["f"] + [p for p, l in LEVELS.items() if l <= level]
    lower = list(EXTENSIONAL) + ["f"] + [p for p, l in LEVELS.items() if l < level]
    positives = [Literal(draw(extended_of(same_or_lower))) for _ in range(draw(st.integers(1, 2)))]
    bound = set().union(*(_positive_vars(l) for l in positives))
    body: list = list(positives)
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            lit = Literal(draw(extended_of(lower, wildcard=True)), negated=True)
            if _vars(lit) <= bound:
                body.append(lit)
        else:
            left = draw(st.sampled_from([Variable(n) for n in sorted(bound)] + CONSTANTS))
            right = draw(st.sampled_from([Variable(n) for n in sorted(bound)] + CONSTANTS))
            if draw(st.booleans()):
                right = Arith(draw(st.sampled_from(["+", "-", "*"])), right, Integer(1))
            body.append(Comparison(draw(st.sampled_from(["=", "!=", "<", "<=", ">", ">="])), left, right))
    body = draw(st.permutations(body))
    if head_pred is None:
        return Rule(None, tuple(body))
    args = tuple(draw(st.sampled_from([Variable(n) for n in sorted(bound - {"T"})] + CONSTANTS)) for _ in range(ARITY[head_pred]))
    head: Atom | At = Atom(head_pred, args)
    if draw(st.integers(0, 3)) == 0:
        time = draw(st.sampled_from(([T] if "T" in bound else []) + [Integer(1), Integer(3)]))
        head = At(head, time)
    return Rule(head, tuple(body))


@st.composite
def programs(draw) -> Program:
    out = [Rule(Atom("f", (c,)), ()) for c in draw(st.lists(st.sampled_from(CONSTANTS), max_size=2, unique=True))]
    for pred in LEVELS:
        out += [draw(rules(pred)) for _ in range(draw(st.integers(0, 2)))]
    if draw(st.integers(0, 4)) == 0:
        out.append(draw(rules(None)))
    return Program(tuple(out))


@st.composite
def streams(draw) -> Stream:
    length = draw(st.integers(1, 6))
    points = {}
    for t in range(length):
        atoms = draw(st.lists(st.builds(Atom, st.sampled_from(["p", "q", "a"]), st.tuples(st.sampled_from(CONSTANTS)))
                                   | st.builds(Atom, st.just("r"), st.tuples(st.sampled_from(CONSTANTS), st.sampled_from(CONSTANTS))), max_size=5))
        points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points)



# ------------------------------------------------------------------------------- naive evaluator


def _value(term, theta):
    if isinstance(term, Variable):
        return theta[term.name]
    if isinstance(term, Arith):
        a, b = _value(term.left, theta).value, _value(term.right, theta).value
        return Integer({"+": a + b, "-": a - b, "*": a * b}[term.op])
    return term


def _compare(op: str, a: Integer, b: Integer) -> bool:
    return {"=": a == b, "!=": a != b, "<": a.value < b.value, "<=": a.value <= b.value, ">": a.value > b.value, ">=": a.value >= b.value}[op]


def _integers(obj) -> set[Integer]:
    """Every integer constant in obj (rules, atoms, terms), window parameters and keys excepted:
    they select input, they are not data."""
    if isinstance(obj, Integer):
        return {obj}
    if isinstance(obj, (list, tuple)):
        return set().union(set(), *(_integers(x) for x in obj))
    if dataclasses.is_dataclass(obj):
        return set().union(set(), *(_integers(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name != "window"))
    return set()


def naive_answer(program: Program, stream: Stream, t: int):
    tmin = stream.timeline[0]
    timeline = range(tmin, t + 1)
    # the active domain: the constants of the program and of the stream up to t, and the time points
    # (a variable that nothing binds, e.g. of a □ over an empty window, ranges over it)
    seen = [a for u, atoms in stream.items() if tmin <= u <= t for a in atoms]
    domain = sorted(_integers(program.rules) | _integers(seen) | {Integer(u) for u in timeline}, key=lambda i: i.value)
    facts = {r.head for r in program.rules if r.is_fact} | {TRUE}
    derived: dict[int, set[Atom]] = {u: set() for u in timeline}

    def holds(u: int, atom: Atom, kept=None) -> bool:
        in_stream = atom in (stream.at(u) if kept is None else kept.get(u, ()))
        return in_stream or atom in facts or atom in derived[u]

    def ground(atom: Atom, theta) -> list[Atom]:
        """All instances of ``atom`` under theta, ``_`` ranging over the domain."""
        slots = [[_value(a, theta)] if not (isinstance(a, Variable) and a.name == "_") else domain for a in atom.args]
        return [Atom(atom.predicate, tuple(args)) for args in product(*slots)]

    def sat(ext, theta) -> bool:
        if isinstance(ext, Atom):
            return any(holds(t, g) for g in ground(ext, theta))
        if isinstance(ext, At):
            when = _value(ext.time, theta).value
            return tmin <= when <= t and any(holds(when, g) for g in ground(ext.atom, theta))
        view = window_view(ext.window, stream, t, tmin)
        points = list(view.points())
        instances = ground(ext.atom, theta)
        if isinstance(ext, Diamond):
            return any(holds(u, g, view.kept) for u in points for g in instances)
        if isinstance(ext, Box):
            return any(all(holds(u, g, view.kept) for u in points) for g in instances)
        when = _value(ext.time, theta).value
        return when in points and any(holds(when, g, view.kept) for g in instances)

    def body_holds(rule: Rule, theta) -> bool:
        for b in rule.body:
            if isinstance(b, Comparison):
                if not _compare(b.op, _value(b.left, theta), _value(b.right, theta)):
                    return False
            elif sat(b.atom, theta) == b.negated:
                return False
        return True

    def instances(rule: Rule):
        names = sorted(set().union(*(_vars(b) for b in rule.body)) | _vars(rule.head))
        for values in product(domain, repeat=len(names)):
            theta = dict(zip(names, values))
            if body_holds(rule, theta):
                yield theta

    for level in sorted(set(LEVELS.values())):
        layer = [r for r in program.rules if not r.is_fact and r.head is not None and LEVELS[(r.head.atom if isinstance(r.head, At) else r.head).predicate] == level]
        changed = True
        while changed:
            changed = False
            for rule in layer:
                for theta in list(instances(rule)):
                    if isinstance(rule.head, At):
                        when = _value(rule.head.time, theta).value
                        if not tmin <= when <= t:
                            return None
                        u, atom = when, ground(rule.head.atom, theta)[0]
                    else:
                        u, atom = t, ground(rule.head, theta)[0]
                    if atom not in derived[u]:
                        derived[u].add(atom)
                        changed = True
    for rule in program.rules:
        if rule.head is None and next(instances(rule), None) is not None:
            return None
    intensional = program.intensional()
    at_t = set(stream.at(t)) | facts | derived[t]
    return frozenset(a for a in at_t if a.signature in intensional)


@settings(max_examples=300, deadline=None)
@given(programs(), streams())
def test_reference_equals_naive_grounding(program: Program, stream: Stream) -> None:
    for t in range(stream.timeline[0], stream.timeline[1] + 1):
        assert answer_at(program, stream, t) == naive_answer(program, stream, t), t
