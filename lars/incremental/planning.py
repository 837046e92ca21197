"""Join plans of the incremental engine: the order in which a rule's body is matched.

For each literal of a rule that may change (the *seed*), :func:`plan` orders the rest of the body
as a join would: filters as soon as their variables are bound, then a positive literal that shares
a variable with those bound so far (one with the most bound positions among them), and a literal
bound by constants only, or not at all, only when no literal shares a bound variable — a literal
whose bound positions are all constants would otherwise be joined as a cross product with every
binding so far (CSRBench Q6, Dell'Aglio et al. 2013, §6.3: two observation stars whose patterns
are written one star after the other). :func:`plan_rule` plans a rule for every seed and compiles the batch
form of each plan (``lars.incremental.joins.BatchJoin``).
"""

from __future__ import annotations

from operator import itemgetter

from lars.incremental.joins import BatchJoin
from lars.incremental.rules import CompiledRule, NotInFragment, is_computed, term_variables
from lars.model import Constant, Integer, String, Variable
from lars.printer import format_term


def plan(r: CompiledRule, seed: int | None) -> list[tuple]:
    """The order in which the body is matched when literal ``seed`` is bound to a changed tuple:
    filters (comparisons, negated literals) as soon as their variables are bound, then the
    positive literal that shares a bound variable and has the most bound argument positions
    (constants count), a literal sharing none only when no other is left (module docstring)."""
    bound: set[str] = set()
    steps: list[tuple] = []
    pending_lits = [i for i, lit in enumerate(r.lits) if i != seed]
    pending_cmps = list(r.cmps)
    checks: list[int] = []
    if seed is not None:
        lit = r.lits[seed]
        for a in lit.args:
            if not is_computed(a):
                bound |= term_variables(a)
        checks = [k for k, a in enumerate(lit.args) if is_computed(a)]
    while pending_lits or pending_cmps or checks:
        progress = False
        for k in list(checks):  # computed arguments of the seed, once their variables are bound
            if not (term_variables(r.lits[seed].args[k]) - bound):  # type: ignore[index]
                steps.append(("seedcheck", seed, [k]))
                checks.remove(k)
                progress = True
        for c in list(pending_cmps):
            unbound = (term_variables(c.left) | term_variables(c.right)) - bound
            if not unbound:
                steps.append(("cmp", c))
            elif c.op == "=" and len(unbound) == 1 and any(
                isinstance(side, Variable) and side.name in unbound and not (term_variables(other) - bound)
                for side, other in ((c.left, c.right), (c.right, c.left))
            ):
                var, other = (c.left, c.right) if isinstance(c.left, Variable) and c.left.name in unbound else (c.right, c.left)
                steps.append(("assign", var.name, other))  # type: ignore[union-attr]
                bound.add(var.name)  # type: ignore[union-attr]
            else:
                continue
            pending_cmps.remove(c)
            progress = True
        for i in list(pending_lits):
            lit = r.lits[i]
            if lit.negated and not (lit.variables - bound):
                steps.append(("neg", i, tuple(lit.args)))
                pending_lits.remove(i)
                progress = True
        best = None
        for i in pending_lits:
            lit = r.lits[i]
            if lit.negated:
                continue
            if any(is_computed(a) and (term_variables(a) - bound) for a in lit.args):
                continue  # arithmetic or a call over unbound variables: not yet
            keys = tuple(k for k, a in enumerate(lit.args) if not (term_variables(a) - bound))
            rank = (bool(lit.variables & bound), len(keys))
            if best is None or rank > best[2]:
                best = (i, keys, rank)
        if best is not None and not progress:
            i, keys, _ = best
            lit = r.lits[i]
            rest = tuple(k for k in range(len(lit.args)) if k not in keys)
            steps.append(("lit", i, keys, tuple(lit.args[k] for k in keys), rest))
            bound |= lit.variables
            pending_lits.remove(i)
            progress = True
        if not progress:
            raise NotInFragment(r.rule, "unsafe: some variable is bound by no positive literal or assignment")
    if head_variables(r) - bound:
        raise NotInFragment(r.rule, "unsafe: a head variable is bound by no positive body literal")
    return steps


class Star:
    """Literals of one rule over one relation R that all hold one variable X at one position
    ``pos`` (a SPARQL subject's star: ``triple(O, "<p>", V, s)``, ``triple(O, "<q>", W, s)``, …):
    ``first`` is the first of them in the body; its key positions once X is bound are ``keys``
    (``pos`` and its constants' positions), its constants' texts ``consts``.

    Why it matters (the delta rule, ``Engine.propagate``): when R changes by a batch D, the
    instances seeded at a later literal i of the star read the first one on R without D, at the
    same X as the seed's row. If no value of X among D's rows has a row of the first literal
    outside D (every observation's triples arrive together, as in the streams of fresh IRIs),
    those seeds have no instance at all, and only the first literal's seed is run
    (``Engine.star_is_fresh``)."""

    __slots__ = ("first", "pos", "keys", "consts", "x_of")

    def __init__(self, first: int, pos: int, keys: tuple, consts: tuple) -> None:
        self.first, self.pos, self.keys, self.consts = first, pos, keys, consts
        self.x_of = itemgetter(pos)  # a row -> its value of X


def star_of(r: CompiledRule, rel: tuple) -> Star | None:
    """The :class:`Star` of ``r``'s positive literals over ``rel``, when there are two or more, each
    with a batch plan (``BatchJoin``), of variables and constants only, and one variable at one
    position in all of them; else ``None``."""
    seeds = [i for i, lit in enumerate(r.lits) if lit.rel == rel]
    if len(seeds) < 2 or any(r.lits[i].negated or i not in r.batch or r.lits[i].funcs for i in seeds):
        return None
    first = r.lits[seeds[0]]
    for pos, a in enumerate(first.args):
        if isinstance(a, Variable) and all(_is_variable(r.lits[i].args[pos], a.name) for i in seeds):
            if any(_is_variable(x, a.name) for k, x in enumerate(first.args) if k != pos):
                continue  # X twice in the first literal: its key would not be (X, constants)
            consts = tuple((k, text) for k, text in first.consts)
            return Star(seeds[0], pos, (pos, *(k for k, _ in consts)), tuple(text for _, text in consts))
    return None


def _is_variable(term, name: str) -> bool:
    return isinstance(term, Variable) and term.name == name


def head_variables(r: CompiledRule) -> set[str]:
    return set().union(set(), *(term_variables(a) for a in r.head_args))


def plan_rule(r: CompiledRule) -> None:
    r.plans[None] = plan(r, None)
    for i, lit in enumerate(r.lits):
        r.plans[i] = plan(r, i)
        r.flat[i] = all(step[0] in ("cmp", "neg", "seedcheck") or (step[0] == "lit" and not step[4]) for step in r.plans[i])
    for i, lit in enumerate(r.lits):
        r.self_join[i] = any(other.rel == lit.rel for other in r.lits[:i])
    if all(isinstance(a, (Variable, Constant, Integer, String)) for a in r.head_args):
        r.head_spec = tuple((True, a.name) if isinstance(a, Variable) else (False, format_term(a)) for a in r.head_args)
    if len(r.lits) == 1 and not r.cmps and not r.lits[0].negated:
        args = r.lits[0].args
        names = [a.name for a in args if isinstance(a, Variable)]
        if len(names) == len(args) and len(set(names)) == len(names) and all(isinstance(h, Variable) for h in r.head_args):
            proj = tuple(names.index(h.name) for h in r.head_args)  # type: ignore[union-attr]
            r.project = True if proj == tuple(range(len(args))) else proj
    for i in range(len(r.lits)):
        batch = BatchJoin.compile(r, i)
        if batch is not None:
            r.batch[i] = batch
    for rel in {lit.rel for lit in r.lits}:
        star = star_of(r, rel)
        if star is not None:
            r.star[rel] = star
