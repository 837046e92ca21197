"""Compiling a LARS program into the incremental engine's rules, in topological order.

:func:`compile_program` checks the fragment (``lars.incremental``), turns each rule into a
``CompiledRule`` (windowed literals into window relations, negated literals into shadow
relations, D11's copy rules for intensional predicates in the stream), makes blocks of the rules
with aggregates and of recursive components (``lars.incremental.aggregates``), orders the
predicates topologically and plans every rule (``lars.incremental.planning``).
"""

from __future__ import annotations

from typing import Iterator

from lars.incremental.aggregates import split_blocks
from lars.incremental.planning import plan_rule
from lars.incremental.rules import ALL, FALSE, NEG, NOW, WIN, CompiledRule, Lit, NotInFragment, has_wildcard, rename_wildcards, term_variables
from lars.model import (AggregateAssignment, At, Atom, Box, Comparison, Diamond, Literal, PartitionWindow, Program, Rule, TimeWindow,
                        TupleWindow, Variable, WindowAt)


def _signatures(rule: Rule) -> Iterator[tuple[str, int]]:
    if rule.head is not None:
        yield (rule.head.atom if isinstance(rule.head, At) else rule.head).signature
    for b in rule.body:
        if isinstance(b, Literal):
            yield (b.atom if isinstance(b.atom, Atom) else b.atom.atom).signature
        elif isinstance(b, AggregateAssignment):
            for e in b.elements:
                for c in e.condition:
                    if isinstance(c, Literal):
                        yield c.atom.signature  # type: ignore[union-attr]


def compile_program(program: Program, stream_predicates: "set[str] | frozenset[str] | None" = None) -> tuple[list[CompiledRule], list[Atom], list[tuple]]:
    """The rules in the fragment's form, the ground facts and the predicates in topological
    order; raises :class:`NotInFragment` naming the first rule outside the fragment.
    ``stream_predicates``: the only predicate names the stream may carry (``None``: any), so that
    D11's copy rules are made only for the intensional predicates among them."""
    intensional = program.intensional()
    rules: list[CompiledRule] = []
    facts: list[Atom] = []
    fresh = iter(range(1 << 62))
    for rule in program.rules:
        for sig in _signatures(rule):
            if sig[0].startswith("lars_"):  # as the clingo engine: every program of auto also runs on asp
                raise NotInFragment(rule, f"predicate name {sig[0]!r} (the prefix 'lars_' is reserved for the ASP encoding)")
        if rule.is_fact:
            head = rule.head
            assert isinstance(head, Atom)
            if head.predicate == "true":
                raise NotInFragment(rule, "`true` is reserved")
            if any(term_variables(a) for a in head.args):
                raise NotInFragment(rule, "a fact with variables (it ranges over the active domain)")
            facts.append(head)
            continue
        head = rule.head
        if isinstance(head, At):
            raise NotInFragment(rule, "an @_T head (it puts atoms at other time points)")
        if head is not None and head.predicate == "true":
            raise NotInFragment(rule, "`true` is reserved")
        lits: list[Lit] = []
        cmps: list[Comparison] = []
        for b in rule.body:
            if isinstance(b, AggregateAssignment):
                continue  # the rule becomes a block of lars.incremental.aggregates
            if isinstance(b, Comparison):
                cmps.append(b)
                continue
            assert isinstance(b, Literal)
            ext = b.atom
            window: TimeWindow | TupleWindow | PartitionWindow | None
            if isinstance(ext, Atom):
                atom, window, kind, time = ext, None, "now", None
            elif isinstance(ext, At):
                atom, window, kind, time = ext.atom, ALL, "at", ext.time
            else:
                atom, window = ext.atom, ext.window
                kind = "dia" if isinstance(ext, Diamond) else "box" if isinstance(ext, Box) else "at"
                time = ext.time if isinstance(ext, WindowAt) else None
                if not isinstance(window, TimeWindow):
                    raise NotInFragment(rule, "a tuple or partition window")
            if b.negated and any(has_wildcard(a) for a in (*atom.args, *([time] if time is not None else []))):
                raise NotInFragment(rule, "`_` in a negated literal")
            sig = atom.signature
            args = rename_wildcards(atom.args, fresh)
            if window is None:  # a plain atom at t
                if sig == ("true", 0):
                    if b.negated:
                        raise NotInFragment(rule, "`not true`")
                    continue
                rel: tuple = sig if sig in intensional else (WIN, "dia", NOW, sig)
            else:
                if sig in intensional:
                    raise NotInFragment(rule, f"a window over {sig[0]}/{sig[1]}, which rules derive")
                if kind == "box" and (window.d != 1 or window.u < 0):
                    raise NotInFragment(rule, "□ over a window with a step or a right-open end")
                rel = (WIN, kind, window, sig)
                if time is not None:
                    args = (*args, *rename_wildcards((time,), fresh))
            # a negated literal reads a shadow copy of its relation, changed after the relation
            # itself (``Engine.apply``): each change then meets one consistent state
            lits.append(Lit((NEG, rel) if b.negated else rel, args, b.negated))
        if head is None:
            rules.append(CompiledRule(rule, FALSE, (), lits, cmps))
        else:
            rules.append(CompiledRule(rule, head.signature, head.args, lits, cmps))
    # an atom of an intensional predicate in the stream holds at its time point (D11)
    for sig in sorted(intensional):
        if sig[0] == "true" or (stream_predicates is not None and sig[0] not in stream_predicates):
            continue
        names = tuple(Variable(f"X{i}") for i in range(sig[1]))
        rules.append(CompiledRule(None, sig, names, [Lit((WIN, "dia", NOW, sig), names, False)], []))

    rules, nodes = split_blocks(rules, facts, intensional)
    order = _topological(rules, intensional | nodes)
    for r in rules:
        plan_rule(r)
    return rules, facts, order


def _topological(rules: list[CompiledRule], intensional) -> list[tuple]:
    deps: dict[tuple, set[tuple]] = {s: set() for s in intensional}
    deps[FALSE] = set()
    for r in rules:
        for lit in r.lits:
            base = lit.rel[1] if lit.rel[0] == NEG else lit.rel
            if base in intensional:
                deps[r.head].add(base)
    order: list[tuple] = []
    state: dict[tuple, int] = {}

    def visit(s: tuple, path: list[tuple]) -> None:
        if state.get(s) == 2:
            return
        if state.get(s) == 1:
            cycle = path[path.index(s):] + [s]
            rule = next((r.rule for r in rules if r.head == s and r.rule is not None), None)
            raise NotInFragment(rule, "recursion through " + " <- ".join(f"{p[0]}/{p[1]}" for p in cycle))
        state[s] = 1
        for d in sorted(deps[s]):
            visit(d, path + [s])
        state[s] = 2
        order.append(s)

    for s in sorted(deps):
        visit(s, [])
    return order


def fragment_problem(program: Program) -> str | None:
    """``None`` if the incremental engine can run ``program``, else why not (rule and reason)."""
    try:
        compile_program(program)
    except NotInFragment as err:
        return str(err)
    return None
