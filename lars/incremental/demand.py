"""Demand analysis of the incremental engine: which stream rows can matter to the outputs.

Given the predicates a caller reads, the values each relation's rows can have at each position
and still matter (as magic sets propagate bindings, here only constants), and from them the
filters that drop stream rows no output can depend on as they are read.
"""

from __future__ import annotations

from typing import Callable

from lars.incremental.rules import BLOCK_NODES, FALSE, NEG, WIN, CompiledRule
from lars.model import Constant, Integer, String, Variable
from lars.printer import format_term


def _demand(rules: list[CompiledRule], order: list[tuple], outputs: set[tuple]) -> dict[tuple, list]:
    """The values each relation's rows can have at each argument position and still matter for
    an atom of ``outputs`` or a constraint: relation -> one entry per position, ``None`` (any
    value) or the set of canonical texts that matter (a demand analysis, as magic sets propagate
    bindings; here only constants).

    By induction from the heads down (the program is non-recursive, ``order`` topological): a
    reader of relation q (a body literal, positive or negated) needs at position k only its
    constant there, or, for a variable V that occurs in the rule's head at position m as it is,
    only the values the head relation needs at m; anything else: every value. A row of q whose
    value at k no reader needs changes no instance whose head is needed (the instance does not
    match, or its head has a value at m that no reader of the head needs), hence no needed atom.
    Output predicates and constraints need every row, and so do the blocks of aggregates and
    recursion (``lars.incremental.aggregates``): every relation a block reads is needed whole (its
    watch rules, whose heads are block nodes, read it), and the rules that only order a block's
    heads after its node read no data."""
    need: dict[tuple, list] = {}

    def entry(rel: tuple, arity: int) -> list:
        got = need.get(rel)
        if got is None:
            got = need[rel] = [set() for _ in range(arity)]
        return got

    for sig in outputs:
        need[sig] = [None] * sig[1]
    need[FALSE] = []
    rank = {sig: i for i, sig in enumerate(order)}
    for r in sorted(rules, key=lambda r: -rank.get(r.head, -1)):
        if r.head[0] in BLOCK_NODES:  # a block reads these relations: every row of them matters
            for lit in r.lits:
                rel = lit.rel[1] if lit.rel[0] == NEG else lit.rel
                if rel[0] not in BLOCK_NODES and not (rel[0] == WIN and rel[3] == ("true", 0)):
                    need[rel] = [None] * len(lit.args)
            continue
        if any((lit.rel[1] if lit.rel[0] == NEG else lit.rel)[0] in BLOCK_NODES for lit in r.lits):
            continue  # a rule ordering a block's head after the block: it reads no data
        head = entry(r.head, len(r.head_args))
        for lit in r.lits:  # every relation read gets an entry (needing nothing, until a reader needs it)
            entry(lit.rel[1] if lit.rel[0] == NEG else lit.rel, len(lit.args))
        if any(n is not None and not n for n in head):
            continue  # no row of the head is needed: the rule's instances matter to nothing
        by_var: dict[str, set] = {}
        dead = False
        for k, a in enumerate(r.head_args):
            n = head[k]
            if n is None:
                continue
            if isinstance(a, (Constant, Integer, String)) and format_term(a) not in n:
                dead = True
            elif isinstance(a, Variable):
                by_var[a.name] = by_var[a.name] & n if a.name in by_var else set(n)
        if dead:
            continue
        for lit in r.lits:
            rel = lit.rel[1] if lit.rel[0] == NEG else lit.rel
            if rel[0] == WIN and rel[3] == ("true", 0):
                continue
            got = entry(rel, len(lit.args))
            for k, a in enumerate(lit.args):
                if got[k] is None:
                    continue
                if isinstance(a, (Constant, Integer, String)):
                    got[k].add(format_term(a))
                elif isinstance(a, Variable) and a.name in by_var:
                    got[k] |= by_var[a.name]
                else:
                    got[k] = None
    return need


def stream_filters(rules: list[CompiledRule], order: list[tuple], outputs: set[tuple]) -> dict[tuple, list]:
    """Stream signature -> the alternatives ``[((position, needed texts), …), …]`` one of which a
    row of it must meet to matter (one per window relation over it, :func:`_demand`); signatures
    whose rows all may matter are absent. A window relation keeps each row by that row's own
    occurrences (◇, □, @_T alike), so dropping rows that no window relation needs leaves the needed
    rows of every window relation, hence every needed atom, as they were."""
    need = _demand(rules, order, outputs)
    alts: dict[tuple, list] = {}
    for rel, positions in need.items():
        if not (isinstance(rel, tuple) and rel and rel[0] == WIN):
            continue
        sig = rel[3]
        if sig == ("true", 0):
            continue
        checks = tuple((k, frozenset(n)) for k, n in enumerate(positions[:sig[1]]) if n is not None)
        alts.setdefault(sig, []).append(checks)
    return {sig: a for sig, a in alts.items() if all(a)}


def row_filter(alternatives: list) -> Callable[[dict], dict]:
    """The rows (a dict used as an ordered set) that meet one of the alternatives."""
    if len(alternatives) == 1 and len(alternatives[0]) == 1:
        ((k, needed),) = alternatives[0]
        return lambda rows: {row: None for row in rows if row[k] in needed}
    if len(alternatives) == 1 and len(alternatives[0]) == 2:
        ((k, needed), (k2, needed2)) = alternatives[0]
        return lambda rows: {row: None for row in rows if row[k] in needed and row[k2] in needed2}

    def admit(rows: dict) -> dict:
        return {row: None for row in rows
                if any(all(row[k] in needed for k, needed in alt) for alt in alternatives)}

    return admit
