"""The compiled form of a program's rules in the incremental engine, and the fragment it runs.

A rule becomes a :class:`CompiledRule` of :class:`Lit` body literals over *relations*: a
predicate's relation is its signature ``(name, arity)``; a windowed literal reads the relation
``(WIN, kind, window, signature)`` (the window's content, Dao-Tran, Beck, Eiter 2015, §2.3); a
negated literal reads the shadow relation ``(NEG, relation)``; constraints have the head
:data:`FALSE`. A program outside the fragment (``lars.incremental``) raises :class:`NotInFragment`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from lars.errors import UnsupportedError
from lars.model import AggregateAssignment, Arith, At, Atom, Box, Call, Comparison, Constant, Diamond, Function, Integer, Literal, Rule, String, Term, TimeWindow, Variable, WindowAt
from lars.printer import format_rule, format_term


ALL = TimeWindow(None, 0, 1)
NOW = TimeWindow(0, 0, 1)
FALSE = ("#false", 0)  # the head of constraints
#: the kinds of node ``lars.incremental.aggregates`` adds to the topological order (blocks, their
#: kept element tuples, guards and changed rows): relations of the engine, not of the program
BLOCK_NODES = ("#blk", "#e", "#o", "#chg")
#: the tags of the relations of windowed literals ``(WIN, kind, window, sig)`` and of negated
#: literals ``(NEG, rel)``; a predicate's relation is its signature ``(name, arity)``, and no
#: predicate name starts with '#', so a predicate named ``w`` or ``neg`` is not taken for them
WIN = "#win"
NEG = "#neg"


class NotInFragment(UnsupportedError):
    """The program is outside the incremental engine's fragment (names the rule and why)."""

    def __init__(self, rule: Rule | None, why: str) -> None:
        where = f"rule `{format_rule(rule)}`" if rule is not None else "the program"
        super().__init__(f"{where}: {why}", "the incremental engine", "use --engine asp or auto")
        self.why = why


def term_variables(term: object) -> set[str]:
    if isinstance(term, Variable):
        return {term.name}
    if isinstance(term, (Function, Call)):
        return set().union(set(), *(term_variables(a) for a in term.args))
    if isinstance(term, Arith):
        return term_variables(term.left) | term_variables(term.right)
    return set()


def has_wildcard(term: object) -> bool:
    if isinstance(term, Variable):
        return term.name == "_"
    if isinstance(term, (Function, Call)):
        return any(has_wildcard(a) for a in term.args)
    if isinstance(term, Arith):
        return has_wildcard(term.left) or has_wildcard(term.right)
    return False


def is_computed(term: object) -> bool:
    """Arithmetic or a call somewhere inside (must be evaluated, cannot bind)."""
    if isinstance(term, (Arith, Call)):
        return True
    if isinstance(term, Function):
        return any(is_computed(a) for a in term.args)
    return False


@dataclass(eq=False)
class Lit:
    """A body literal over one relation: ``rel`` (a key of ``Engine.rels``), its argument
    patterns (the time term last for ``@_T``), negated or not."""

    rel: tuple
    args: tuple[Term, ...]
    negated: bool
    consts: tuple = ()  # (position, canonical text) of the constant arguments
    names: tuple = ()  # (position, name) of the variable arguments
    funcs: tuple = ()  # (position, pattern) of compound arguments with variables, no arithmetic

    def __post_init__(self) -> None:
        self.consts = tuple((k, format_term(a)) for k, a in enumerate(self.args) if isinstance(a, (Constant, Integer, String)))
        self.names = tuple((k, a.name) for k, a in enumerate(self.args) if isinstance(a, Variable))
        self.funcs = tuple((k, a) for k, a in enumerate(self.args) if isinstance(a, Function) and not is_computed(a))

    @property
    def variables(self) -> set[str]:
        return set().union(set(), *(term_variables(a) for a in self.args))


@dataclass(eq=False)
class CompiledRule:
    rule: Rule | None
    head: tuple  # relation key of the head (a signature, or FALSE)
    head_args: tuple[Term, ...]
    lits: list[Lit]
    cmps: list[Comparison]
    plans: dict = field(default_factory=dict)  # seed literal index -> plan
    project: "tuple[int, ...] | bool | None" = None  # one positive literal of distinct variables: head = projection
    head_spec: "tuple | None" = None  # ((is variable, name or canonical text), …) when no argument is computed
    flat: dict = field(default_factory=dict)  # seed -> the plan only checks (no literal binds anything new)
    self_join: dict = field(default_factory=dict)  # seed -> does a literal before it read the same relation
    batch: dict = field(default_factory=dict)  # seed -> its BatchJoin (absent: the plan goes row by row)
    star: dict = field(default_factory=dict)  # relation -> its Star in the body (lars.incremental.planning.star_of)


def rename_wildcards(args: tuple[Term, ...], fresh: Iterator[int]) -> tuple[Term, ...]:
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

    return tuple(term(a) for a in args)


def called_functions(obj: object, out: set[str]) -> None:
    if isinstance(obj, Call):
        out.add(obj.name)
    if isinstance(obj, (Call, Function, Atom)):
        for a in obj.args:
            called_functions(a, out)
    elif isinstance(obj, (Arith, Comparison)):
        called_functions(obj.left, out)
        called_functions(obj.right, out)
    elif isinstance(obj, Rule):
        called_functions(obj.head, out)
        for b in obj.body:
            called_functions(b, out)
    elif isinstance(obj, Literal):
        called_functions(obj.atom, out)
    elif isinstance(obj, (At, WindowAt)):
        called_functions(obj.atom, out)
        called_functions(obj.time, out)
    elif isinstance(obj, (Diamond, Box)):
        called_functions(obj.atom, out)
    elif isinstance(obj, AggregateAssignment):
        if obj.function[0] == "@":
            out.add(obj.function[1:])
        called_functions(obj.left, out)
        for e in obj.elements:
            for x in (*e.terms, *e.condition):
                called_functions(x, out)
