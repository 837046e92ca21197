"""An incremental LARS engine for stratified programs (no clingo).

Ticker (Beck, Eiter, Folie, *Ticker: A system for incremental ASP-based stream reasoning*, TPLP
2017) has two engines: an incremental one for stratified programs, whose answer stream at every
time point is unique, and a clingo one for the general case. This module is the incremental one
of rsplars (``rsplars lars --engine incremental``; ``--engine auto`` picks it when the program is
in its fragment, :func:`fragment_problem`); ``asp.solver`` is the general one. It computes what
``lars.reference`` defines (seed 000 §2.4, Definition 3 of Beck et al. AAAI 2015, decisions
D9–D11) — the intensional atoms that hold at t in the answer stream at t — and yields the same
:class:`Step` records as ``asp.solver.StreamSolver``.

How (Laser, Bazoobi et al. AAAI 2017 §4, keeps *annotated substitutions*: horizon times for ◇,
consideration times for □; here the same information is kept per window and atom):

1. Every windowed literal over a stream predicate is a *base relation* kept incrementally as the
   window slides: ◇ by the last time point of the window the atom occurs at (Laser's horizon less
   the window's length; it enters with its first point in the window and leaves with the point
   that is its last), ``@_T`` by the pairs (atom, T) of the window, □ by the start of
   the atom's current run of consecutive occurrences (its consideration time: it holds iff the run
   started at or before the window's first point). Time points enter and leave the windows once
   each, so the work per reference time is the change, not the window's content.
2. Intensional predicates are relations with a *support count* per ground atom (the number of
   rule instances deriving it, plus one for a fact, plus one while it is in the stream at t): the
   counting algorithm of view maintenance (Gupta, Mumick, Subrahmanian, SIGMOD 1993), exact for
   non-recursive programs, negation and built-ins included. The tuples of a relation that change
   at a time point are joined, as one batch, against hash indexes of the other relations of each
   rule body (the delta rule: the occurrences before the changed one in the body see the relation
   without the batch; :class:`_Batch`), changing the counts of the heads; a head atom whose count
   becomes 0 or stops being 0 is a change of its relation in turn, propagated predicate by
   predicate in topological order.
4. Given ``outputs`` (the predicates the caller reads, as ``rsplars run`` does), the answer holds
   only their atoms, and stream atoms that no output can depend on are dropped as they are read
   (:func:`stream_filters`, a demand analysis over the rules' constants).
3. Rules apply at t only (D10): derived atoms hold at t, and windows see stream atoms only (the
   fragment has no windows over intensional predicates), so the answer at t is the fixpoint above.
   Built-in calls ``@name(…)`` use the same Python functions as the clingo engine, cached per
   distinct argument tuple (the cache is cleared when it grows large: memory stays flat).

4. Rules with aggregates (``#count``, ``#sum``, ``#min``, ``#max``, external ``#@name``) and the rules of recursive
   components are *blocks* (``lars.incremental_aggregates``): nodes of the topological order
   (a component is one node) recomputed when a relation they read changed — only the partitions
   (groups) that the changed rows name, when the block has a partition variable — and diffed
   against their last result; aggregates whose groups can be enumerated keep their element tuples
   per group by the counting algorithm.

The fragment: rules whose head is an atom (or none: a constraint); stratified programs, with
positive recursion (a strongly connected component of intensional predicates without negation or
aggregates inside it) and aggregate assignments whose elements' predicates lie in lower strata
(as ``lars.reference`` requires); windows (time-based; □ only with step 1 and no right-open end)
only over predicates that no rule defines (and ``true``), no tuple or partition windows, no
``@_T`` heads, negated literals only over bound variables (no ``_``), ground facts, safe rules.
Everything else is refused with the rule and the reason (``auto`` then uses clingo).
"""

from __future__ import annotations

import re
from collections import defaultdict
from bisect import bisect_left, bisect_right, insort
from collections import deque as _consume
from itertools import compress, filterfalse
from operator import itemgetter
from json import dumps as _dumps
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping

from lars.bounds import TERM_CACHE_SIZE
from lars.errors import RsplarsError, UnsupportedError
from lars.model import (
    AggregateAssignment,
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
    Program,
    Rule,
    Stream,
    String,
    Term,
    TimeWindow,
    Variable,
    WindowAt,
)
from lars.printer import format_rule, format_term
from lars.streams import live_times, parse_ground_atom, parse_string_text
from lars.reference import _COMPARE, _Undefined, _unify, clingo_order, comparison_holds, evaluate, time_window_bounds

ALL = TimeWindow(None, 0, 1)
NOW = TimeWindow(0, 0, 1)
_FALSE = ("#false", 0)  # the head of constraints
_CACHE_MAX = TERM_CACHE_SIZE
#: the kinds of node ``lars.incremental_aggregates`` adds to the topological order (blocks, their
#: kept element tuples, guards and changed rows): relations of the engine, not of the program
_BLOCK_NODES = ("#blk", "#e", "#o", "#chg")
#: the tags of the relations of windowed literals ``(WIN, kind, window, sig)`` and of negated
#: literals ``(NEG, rel)``; a predicate's relation is its signature ``(name, arity)``, and no
#: predicate name starts with '#', so a predicate named ``w`` or ``neg`` is not taken for them
WIN = "#win"
NEG = "#neg"


@dataclass(frozen=True)
class Step:
    """As ``asp.solver.Step`` (same fields, same meaning): the answers at t and the change."""

    t: int
    answers: list[tuple[str, ...]]
    more: bool = False
    delta: "tuple[tuple[str, ...], tuple[str, ...]] | None" = field(default=None, compare=False, repr=False)
    encoded: "str | None" = field(default=None, compare=False, repr=False)  # the JSON array of answers[0], no brackets
    #: with ``delta``: the same change as rows, ``{predicate: (added rows, removed rows)}`` of the
    #: output predicates (each row the tuple of its arguments' texts, ``()`` for none), so that a
    #: caller who reads rows need not cut the atoms' texts apart again
    rows: "dict[str, tuple[list, list]] | None" = field(default=None, compare=False, repr=False)


class NotInFragment(UnsupportedError):
    """The program is outside the incremental engine's fragment (names the rule and why)."""

    def __init__(self, rule: Rule | None, why: str) -> None:
        where = f"rule `{format_rule(rule)}`" if rule is not None else "the program"
        super().__init__(f"{where}: {why}", "the incremental engine", "use --engine asp or auto")
        self.why = why


# ============================================================================== compilation


def _vars(term: object) -> set[str]:
    if isinstance(term, Variable):
        return {term.name}
    if isinstance(term, (Function, Call)):
        return set().union(set(), *(_vars(a) for a in term.args))
    if isinstance(term, Arith):
        return _vars(term.left) | _vars(term.right)
    return set()


def _has_wildcard(term: object) -> bool:
    if isinstance(term, Variable):
        return term.name == "_"
    if isinstance(term, (Function, Call)):
        return any(_has_wildcard(a) for a in term.args)
    if isinstance(term, Arith):
        return _has_wildcard(term.left) or _has_wildcard(term.right)
    return False


def _complex(term: object) -> bool:
    """Arithmetic or a call somewhere inside (must be evaluated, cannot bind)."""
    if isinstance(term, (Arith, Call)):
        return True
    if isinstance(term, Function):
        return any(_complex(a) for a in term.args)
    return False


@dataclass(eq=False)
class _Lit:
    """A body literal over one relation: ``rel`` (a key of ``_Engine.rels``), its argument
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
        self.funcs = tuple((k, a) for k, a in enumerate(self.args) if isinstance(a, Function) and not _complex(a))

    @property
    def variables(self) -> set[str]:
        return set().union(set(), *(_vars(a) for a in self.args))


@dataclass(eq=False)
class _Rule:
    rule: Rule | None
    head: tuple  # relation key of the head (a signature, or _FALSE)
    head_args: tuple[Term, ...]
    lits: list[_Lit]
    cmps: list[Comparison]
    plans: dict = field(default_factory=dict)  # seed literal index -> plan
    project: "tuple[int, ...] | bool | None" = None  # one positive literal of distinct variables: head = projection
    head_spec: "tuple | None" = None  # ((is variable, name or canonical text), …) when no argument is computed
    flat: dict = field(default_factory=dict)  # seed -> the plan only checks (no literal binds anything new)
    self_join: dict = field(default_factory=dict)  # seed -> does a literal before it read the same relation
    batch: dict = field(default_factory=dict)  # seed -> its _Batch (absent: the plan goes row by row)


def _rename_wildcards(args: tuple[Term, ...], fresh: Iterator[int]) -> tuple[Term, ...]:
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


def compile_program(program: Program, stream_predicates: "set[str] | None" = None) -> tuple[list[_Rule], list[Atom], list[tuple]]:
    """The rules in the fragment's form, the ground facts and the predicates in topological
    order; raises :class:`NotInFragment` naming the first rule outside the fragment.
    ``stream_predicates``: the only predicate names the stream may carry (``None``: any), so that
    D11's copy rules are made only for the intensional predicates among them."""
    intensional = program.intensional()
    rules: list[_Rule] = []
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
            if any(_vars(a) for a in head.args):
                raise NotInFragment(rule, "a fact with variables (it ranges over the active domain)")
            facts.append(head)
            continue
        head = rule.head
        if isinstance(head, At):
            raise NotInFragment(rule, "an @_T head (it puts atoms at other time points)")
        if head is not None and head.predicate == "true":
            raise NotInFragment(rule, "`true` is reserved")
        lits: list[_Lit] = []
        cmps: list[Comparison] = []
        for b in rule.body:
            if isinstance(b, AggregateAssignment):
                continue  # the rule becomes a block of lars.incremental_aggregates
            if isinstance(b, Comparison):
                cmps.append(b)
                continue
            assert isinstance(b, Literal)
            ext = b.atom
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
            if b.negated and any(_has_wildcard(a) for a in (*atom.args, *([time] if time is not None else []))):
                raise NotInFragment(rule, "`_` in a negated literal")
            sig = atom.signature
            args = _rename_wildcards(atom.args, fresh)
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
                    args = (*args, *_rename_wildcards((time,), fresh))
            # a negated literal reads a shadow copy of its relation, changed after the relation
            # itself (``_Engine._apply``): each change then meets one consistent state
            lits.append(_Lit((NEG, rel) if b.negated else rel, args, b.negated))
        if head is None:
            rules.append(_Rule(rule, _FALSE, (), lits, cmps))
        else:
            rules.append(_Rule(rule, head.signature, head.args, lits, cmps))
    # an atom of an intensional predicate in the stream holds at its time point (D11)
    for sig in sorted(intensional):
        if sig[0] == "true" or (stream_predicates is not None and sig[0] not in stream_predicates):
            continue
        names = tuple(Variable(f"X{i}") for i in range(sig[1]))
        rules.append(_Rule(None, sig, names, [_Lit((WIN, "dia", NOW, sig), names, False)], []))
    from lars.incremental_aggregates import split_blocks  # aggregates and recursion: blocks

    rules, nodes = split_blocks(rules, facts, intensional)
    order = _topological(rules, intensional | nodes)
    for r in rules:
        _plan_all(r)
    return rules, facts, order


def _topological(rules: list[_Rule], intensional) -> list[tuple]:
    deps: dict[tuple, set[tuple]] = {s: set() for s in intensional}
    deps[_FALSE] = set()
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


# ============================================================================== join plans


def _plan(r: _Rule, seed: int | None) -> list[tuple]:
    """The order in which the body is matched when literal ``seed`` is bound to a changed tuple:
    filters (comparisons, negated literals) as soon as their variables are bound, then the
    positive literal with the most bound argument positions."""
    bound: set[str] = set()
    steps: list[tuple] = []
    pending_lits = [i for i, lit in enumerate(r.lits) if i != seed]
    pending_cmps = list(r.cmps)
    checks: list[int] = []
    if seed is not None:
        lit = r.lits[seed]
        for a in lit.args:
            if not _complex(a):
                bound |= _vars(a)
        checks = [k for k, a in enumerate(lit.args) if _complex(a)]
    while pending_lits or pending_cmps or checks:
        progress = False
        for k in list(checks):  # computed arguments of the seed, once their variables are bound
            if not (_vars(r.lits[seed].args[k]) - bound):  # type: ignore[index]
                steps.append(("seedcheck", seed, [k]))
                checks.remove(k)
                progress = True
        for c in list(pending_cmps):
            unbound = (_vars(c.left) | _vars(c.right)) - bound
            if not unbound:
                steps.append(("cmp", c))
            elif c.op == "=" and len(unbound) == 1 and any(
                isinstance(side, Variable) and side.name in unbound and not (_vars(other) - bound)
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
            if any(_complex(a) and (_vars(a) - bound) for a in lit.args):
                continue  # arithmetic or a call over unbound variables: not yet
            keys = tuple(k for k, a in enumerate(lit.args) if not (_vars(a) - bound))
            if best is None or len(keys) > len(best[1]):
                best = (i, keys)
        if best is not None and not progress:
            i, keys = best
            lit = r.lits[i]
            rest = tuple(k for k in range(len(lit.args)) if k not in keys)
            steps.append(("lit", i, keys, tuple(lit.args[k] for k in keys), rest))
            bound |= lit.variables
            pending_lits.remove(i)
            progress = True
        if not progress:
            raise NotInFragment(r.rule, "unsafe: some variable is bound by no positive literal or assignment")
    if _vars_of_head(r) - bound:
        raise NotInFragment(r.rule, "unsafe: a head variable is bound by no positive body literal")
    return steps


def _vars_of_head(r: _Rule) -> set[str]:
    return set().union(set(), *(_vars(a) for a in r.head_args))


def _plan_all(r: _Rule) -> None:
    r.plans[None] = _plan(r, None)
    for i, lit in enumerate(r.lits):
        r.plans[i] = _plan(r, i)
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
        batch = _Batch.compile(r, i)
        if batch is not None:
            r.batch[i] = batch


def _tuple_getter(positions) -> Callable[[tuple], tuple]:
    """``row -> tuple(row[k] for k in positions)`` at C speed (``itemgetter``, always a tuple)."""
    positions = tuple(positions)
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        (k,) = positions
        return lambda row: (row[k],)
    return itemgetter(*positions)


def _spec_getter(spec) -> Callable[[tuple], tuple]:
    """``binding -> tuple``: ``spec`` lists (is a slot, slot or canonical text) per position."""
    if all(is_slot for is_slot, _ in spec):
        return _tuple_getter([x for _, x in spec])
    spec = tuple(spec)
    return lambda b: tuple([b[x] if is_slot else x for is_slot, x in spec])


def _specs_getter(spec) -> Callable[[list], list]:
    """``bindings -> [tuple per binding]`` for ``spec`` (as :func:`_spec_getter`), in bulk: the
    constants appended to every binding once, then one ``itemgetter`` (C code, no call per row)."""
    spec = tuple(spec)
    if all(is_slot for is_slot, _ in spec):
        if len(spec) == 1:
            k = spec[0][1]
            return lambda bs: [(b[k],) for b in bs]
        if not spec:
            return lambda bs: [()] * len(bs)
        g = itemgetter(*(x for _, x in spec))
        return lambda bs: list(map(g, bs))
    consts = tuple(x for is_slot, x in spec if not is_slot)
    positions, c = [], 0
    for is_slot, x in spec:
        if is_slot:
            positions.append(x)
        else:
            positions.append(-len(consts) + c)  # counted from the end: the appended constants
            c += 1
    if len(positions) == 1:
        return lambda bs: [consts] * len(bs)
    g = itemgetter(*positions)
    return lambda bs: list(map(g, [b + consts for b in bs]))


_UNDEF = object()


def filterfalse_pairs(items: list, keys: list, have) -> Iterator:
    """The items whose key is not in ``have`` (C code: ``compress`` over the membership tests)."""
    return compress(items, map((False).__eq__, map(have.__contains__, keys)))
_SCANS = 16  # scans of a relation for a key of constants before it gets an index on it


class _Batch:
    """The delta rule of one rule seeded at one literal, for a whole batch of changed rows at once
    (``_Engine._propagate``): a binding is a tuple of canonical texts, one slot per variable in
    the order they are bound; each step of the rule's plan (``_plan``) maps the list of bindings
    to the next — a positive literal by a hash join on the relation's index over the bound
    positions, a negated one by a look-up, a comparison or an assignment by its value computed
    once per distinct tuple of its variables' texts (the built-ins are functions of their
    arguments) — and the head rows are read off the final bindings. Plans with compound patterns,
    computed arguments of the seed, or repeated variables among newly bound positions are left to
    the row-by-row path (``compile`` gives ``None``)."""

    def __init__(self) -> None:
        self.seed_consts: tuple = ()
        self.seed_eqs: tuple = ()
        self.bind: Callable | None = None
        self.ops: list[tuple] = []
        self.head: Callable | None = None
        self.head_consts: tuple = ()

    @classmethod
    def compile(cls, r: _Rule, seed: int) -> "_Batch | None":
        lit = r.lits[seed]
        if lit.funcs or any(not isinstance(a, (Variable, Constant, Integer, String)) for a in lit.args):
            return None
        self = cls()
        slots: dict[str, int] = {}
        order: list[int] = []
        eqs = []
        for k, a in enumerate(lit.args):
            if isinstance(a, Variable):
                if a.name in slots:
                    eqs.append((order[slots[a.name]], k))
                else:
                    slots[a.name] = len(order)
                    order.append(k)
        self.seed_consts = lit.consts
        self.seed_eqs = tuple(eqs)
        self.bind = None if order == list(range(len(lit.args))) else _tuple_getter(order)

        def spec_of(term):
            if isinstance(term, Variable):
                return (True, slots[term.name]) if term.name in slots else None
            if isinstance(term, (Constant, Integer, String)):
                return (False, format_term(term))
            return None

        for step in r.plans[seed]:
            kind = step[0]
            if kind == "lit":
                _, j, keys, key_terms, rest = step
                other = r.lits[j]
                if other.funcs or any(not isinstance(other.args[p], Variable) for p in rest):
                    return None
                names = [other.args[p].name for p in rest]  # type: ignore[union-attr]
                if len(set(names)) != len(names) or any(n in slots for n in names):
                    return None
                spec = [spec_of(a) for a in key_terms]
                if any(x is None for x in spec):
                    return None
                full = len(keys) == len(other.args)
                key_slots = tuple(x for is_slot, x in spec if is_slot)
                # a key of constants only is the same for the whole batch: one scan, or the index
                # once the scans add up (``_Engine.const_scans``); its index is not kept up to
                # date at every change of a relation that the batch reads rarely (e.g. a 0-ary seed)
                consts = None if key_slots or full else tuple(zip(keys, (x for _, x in spec)))
                # a join with variables bound: the index on their positions followed by those of
                # the key's constants (``triple(O, "<p>", V, s)`` bound on O: the rows of O with that
                # predicate, not every row of O checked), the look-up key the binding's values
                # followed by the constants
                var_pos = tuple(k for k, (is_slot, _) in zip(keys, spec) if is_slot)
                tail = tuple(x for is_slot, x in spec if not is_slot)
                if key_slots:
                    var_pos += tuple(k for k, (is_slot, _) in zip(keys, spec) if not is_slot)
                self.ops.append(("lit", other.rel, keys, _specs_getter(spec), _tuple_getter(rest), other.rel == lit.rel and j < seed, full,
                                 key_slots[0] if len(key_slots) == 1 and len(rest) == 1 else None,
                                 rest[0] if len(rest) == 1 else None, consts, var_pos,
                                 _specs_getter([(True, x) for x in key_slots] + [(False, x) for x in tail]), tail))
                for n in names:
                    slots[n] = len(slots)
            elif kind in ("cmp", "assign"):
                term = step[1] if kind == "cmp" else step[2]
                names = sorted(_vars(term) if kind == "assign" else _vars(term.left) | _vars(term.right))
                if any(n not in slots for n in names):
                    return None
                self.ops.append((kind, term, _tuple_getter([slots[n] for n in names]), tuple(names), {}))
                if kind == "assign":
                    slots[step[1]] = len(slots)
            elif kind == "neg":
                _, j, args = step
                spec = [spec_of(a) for a in args]
                if any(x is None for x in spec):
                    return None
                self.ops.append(("neg", r.lits[j].rel, _specs_getter(spec), r.lits[j].rel == lit.rel and j < seed))
            else:  # seedcheck: a computed argument of the seed
                return None
        if r.head_spec is None:
            return None
        spec = [(True, slots[x]) if is_var else (False, x) for is_var, x in r.head_spec]
        if all(is_slot for is_slot, _ in spec):
            self.head = _tuple_getter([x for _, x in spec])
        else:  # constants in the head: read off the binding followed by the constants
            consts = tuple(x for is_slot, x in spec if not is_slot)
            width = len(slots)
            positions, c = [], 0
            for is_slot, x in spec:
                if is_slot:
                    positions.append(x)
                else:
                    positions.append(width + c)
                    c += 1
            self.head_consts = consts
            # the binding followed by the constants is the head row itself (``triple(S,P,O,stream)``)
            self.head = None if positions == list(range(width + len(consts))) else _tuple_getter(positions)
        return self

    def run(self, engine: "_Engine", rows, excl, columns: "dict | None" = None) -> list[tuple]:
        """The head rows of the instances whose seed literal is one of ``rows`` (with repeats).
        ``columns``: the batch's columns by position, shared by the rules seeded on the same
        batch (``_Engine._propagate``), which select their rows on the constants of their seed
        (``triple(S, "<p>", O, stream)``) by one comparison per row in C, not a loop each, after
        a look-up in the set of each column's values (kept under the key ``-1 - position``)."""
        bs = rows
        if columns is not None and self.seed_consts:
            # a constant of the seed that no row of the batch has (e.g. the default graph's
            # rules, seeded by the stream's triples): no instance, without a pass over the rows
            for k, text in self.seed_consts:
                values = columns.get(-1 - k)
                if values is None:
                    column = columns.get(k)
                    if column is None:
                        column = columns[k] = [row[k] for row in rows]
                    values = columns[-1 - k] = set(column)
                if text not in values:
                    return []
        for k, text in self.seed_consts:
            if columns is not None and bs is rows:
                column = columns.get(k)
                if column is None:
                    column = columns[k] = [row[k] for row in rows]
                bs = list(compress(rows, map(text.__eq__, column)))
            else:
                bs = [row for row in bs if row[k] == text]
        for a, b in self.seed_eqs:
            bs = [row for row in bs if row[a] == row[b]]
        if self.bind is not None:
            bs = list(map(self.bind, bs))
        rels = engine.rels
        for op in self.ops:
            if not bs:
                return []
            kind = op[0]
            if kind == "lit":
                _, rel, keys, key_of, rest_of, exclude, full, one_key, one_rest, consts, var_pos, slots_of, tail = op
                table = rels[rel]
                if consts is not None:  # the key is the same for the whole batch
                    n = engine.const_scans[rel, keys] = engine.const_scans.get((rel, keys), 0) + 1
                    if n <= _SCANS and keys not in table.indexes:  # the rows that hold the constants
                        cands = [c for c in table.rows if all(c[k] == v for k, v in consts)]
                    else:
                        cands = table.index(keys).get(tuple([v for _, v in consts]), ())
                    if exclude:
                        cands = [c for c in cands if c not in excl]
                    if not cands:
                        return []
                    ext = list(map(rest_of, cands))
                    bs = [b + e for b in bs for e in ext]
                    continue
                if full:  # every position bound: a membership test
                    have = table.rows
                    if not var_pos and not exclude:
                        # a key of constants (e.g. a 0-ary literal): the same test for every binding
                        if key_of([()])[0] not in have:
                            return []
                        continue
                    if exclude:
                        bs = [b for b, key in zip(bs, key_of(bs)) if key in have and key not in excl]
                    else:
                        bs = list(compress(bs, map(have.__contains__, key_of(bs))))
                elif not keys:  # nothing bound: every row (e.g. a 0-ary or unrelated literal)
                    cands = [c for c in table.rows if c not in excl] if exclude else table.rows
                    if not cands:
                        return []
                    ext = list(map(rest_of, cands))
                    bs = [b + e for b in bs for e in ext]
                else:
                    get = table.index(var_pos).get
                    out = []
                    if one_key is not None and not exclude:  # the common join: one bound variable, one new one
                        if tail:  # the key's constants, after the variable's value
                            for b in bs:
                                cands = get((b[one_key], *tail))
                                if cands:
                                    for c in cands:
                                        out.append((*b, c[one_rest]))
                        else:
                            for b in bs:
                                cands = get((b[one_key],))
                                if cands:
                                    for c in cands:
                                        out.append((*b, c[one_rest]))
                    elif exclude:
                        for b, key in zip(bs, slots_of(bs)):
                            cands = get(key)
                            if cands:
                                for c in cands:
                                    if c not in excl:
                                        out.append(b + rest_of(c))
                    else:
                        for b, key in zip(bs, slots_of(bs)):
                            cands = get(key)
                            if cands:
                                for c in cands:
                                    out.append(b + rest_of(c))
                    bs = out
            elif kind == "cmp":
                _, c, vals_of, names, memo = op
                keep = []
                for b in bs:
                    vals = vals_of(b)
                    got = memo.get(vals)
                    if got is None:
                        if len(memo) >= _CACHE_MAX:
                            memo.clear()
                        got = memo[vals] = engine._holds(c, names, vals)
                    if got:
                        keep.append(b)
                bs = keep
            elif kind == "assign":
                _, term, vals_of, names, memo = op
                out = []
                for b in bs:
                    vals = vals_of(b)
                    got = memo.get(vals)
                    if got is None:
                        if len(memo) >= _CACHE_MAX:
                            memo.clear()
                        got = memo[vals] = engine._assigned(term, names, vals)
                    if got is not _UNDEF:
                        out.append(b + (got,))
                bs = out
            else:  # "neg"
                _, rel, ground_of, exclude = op
                have = rels[rel].rows
                if exclude:
                    bs = [b for b, g in zip(bs, ground_of(bs)) if g not in have and g not in excl]
                else:
                    bs = list(filterfalse_pairs(bs, ground_of(bs), have))
        if self.head_consts:
            consts = self.head_consts
            bs = [b + consts for b in bs]
            if self.head is None:
                return bs
        return list(map(self.head, bs))  # type: ignore[arg-type]


def _demand(rules: list[_Rule], order: list[tuple], outputs: set[tuple]) -> dict[tuple, list]:
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
    recursion (``lars.incremental_aggregates``): every relation a block reads is needed whole (its
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
    need[_FALSE] = []
    rank = {sig: i for i, sig in enumerate(order)}
    for r in sorted(rules, key=lambda r: -rank.get(r.head, -1)):
        if r.head[0] in _BLOCK_NODES:  # a block reads these relations: every row of them matters
            for lit in r.lits:
                rel = lit.rel[1] if lit.rel[0] == NEG else lit.rel
                if rel[0] not in _BLOCK_NODES and not (rel[0] == WIN and rel[3] == ("true", 0)):
                    need[rel] = [None] * len(lit.args)
            continue
        if any((lit.rel[1] if lit.rel[0] == NEG else lit.rel)[0] in _BLOCK_NODES for lit in r.lits):
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


def stream_filters(rules: list[_Rule], order: list[tuple], outputs: set[tuple]) -> dict[tuple, list]:
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


def _row_filter(alternatives: list) -> Callable[[dict], dict]:
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


def fragment_problem(program: Program) -> str | None:
    """``None`` if the incremental engine can run ``program``, else why not (rule and reason)."""
    try:
        compile_program(program)
    except NotInFragment as err:
        return str(err)
    return None


# ============================================================================== relations


class _Rel:
    """A set of tuples with hash indexes on argument positions (built on first use)."""

    __slots__ = ("rows", "indexes")

    def __init__(self) -> None:
        self.rows: set[tuple] = set()
        self.indexes: dict[tuple[int, ...], dict[tuple, set[tuple]]] = {}

    def add(self, row: tuple) -> None:
        self.rows.add(row)
        for pos, idx in self.indexes.items():
            key = tuple([row[k] for k in pos])
            got = idx.get(key)
            if got is None:
                idx[key] = {row}
            else:
                got.add(row)

    def add_many(self, rows) -> None:
        self.rows.update(rows)
        for pos, idx in self.indexes.items():
            get = idx.get
            keys = [(row[pos[0]],) for row in rows] if len(pos) == 1 else list(map(_tuple_getter(pos), rows))
            for key, row in zip(keys, rows):
                got = get(key)
                if got is None:
                    idx[key] = {row}
                else:
                    got.add(row)

    def remove_many(self, rows) -> None:
        self.rows.difference_update(rows)
        for pos, idx in self.indexes.items():
            get = idx.get
            keys = [(row[pos[0]],) for row in rows] if len(pos) == 1 else list(map(_tuple_getter(pos), rows))
            for key, row in zip(keys, rows):
                got = get(key)
                if got is not None:
                    got.discard(row)
                    if not got:
                        del idx[key]

    def remove(self, row: tuple) -> None:
        self.rows.discard(row)
        for pos, idx in self.indexes.items():
            key = tuple([row[k] for k in pos])
            got = idx.get(key)
            if got is not None:
                got.discard(row)
                if not got:
                    del idx[key]

    def index(self, pos: tuple[int, ...]) -> dict[tuple, set[tuple]]:
        """The hash index on the positions ``pos`` (built on first use, then kept up to date)."""
        idx = self.indexes.get(pos)
        if idx is None:
            idx = {}
            for row in self.rows:
                idx.setdefault(tuple([row[k] for k in pos]), set()).add(row)
            self.indexes[pos] = idx
        return idx

    def lookup(self, pos: tuple[int, ...], key: tuple) -> Iterable[tuple]:
        if not pos:
            return self.rows
        if len(pos) == len(key) and pos == tuple(range(len(key))) and len(key) == self._arity():
            return (key,) if key in self.rows else ()
        idx = self.indexes.get(pos)
        if idx is None:
            idx = {}
            for row in self.rows:
                idx.setdefault(tuple([row[k] for k in pos]), set()).add(row)
            self.indexes[pos] = idx
        return idx.get(key, ())

    def _arity(self) -> int:
        for row in self.rows:
            return len(row)
        return -1


def _text_test(c: Comparison, names: tuple, functions: Mapping[str, Callable]) -> Callable[[tuple], bool | None] | None:
    """For a comparison ``@f(a1, …) op k`` (k ground, each ai a variable of ``names`` or ground)
    whose function offers ``on_texts`` — the same function of the arguments' canonical texts
    (``lars.printer.format_term``), giving its value or ``None`` where it cannot decide without the
    terms — the test of the comparison on the variables' texts ``vals`` (``None``: undecided)."""
    call, other = (c.left, c.right) if isinstance(c.left, Call) else (c.right, c.left)
    if not isinstance(other, (Constant, Integer, String)):
        return None
    on_texts = _on_texts(call, names, functions)
    if on_texts is None:
        return None
    key, holds, call_left = clingo_order(other), _COMPARE[c.op], c.left is call

    def test(vals: tuple) -> bool | None:
        value = on_texts(vals)
        if value is None:
            return None
        return holds(clingo_order(value), key) if call_left else holds(key, clingo_order(value))

    return test


def _on_texts(call, names: tuple, functions: Mapping[str, Callable]) -> Callable[[tuple], Term | None] | None:
    """For a call ``@f(a1, …)`` (each ai a variable of ``names`` or ground) whose function offers
    ``on_texts`` — the same function of the arguments' canonical texts (``lars.printer.format_term``),
    giving its value or ``None`` where it cannot decide without the terms — its value from the
    variables' texts ``vals`` (``None``: undecided); ``None`` for any other term. Used by
    :func:`_text_test` (``@f(…) op k``) and for assignments ``X = @f(…)`` (``_Engine._assigned``)."""
    if not isinstance(call, Call):
        return None
    fn = functions.get(call.name)
    on_texts = getattr(getattr(fn, "fn", fn), "on_texts", None)
    if on_texts is None:
        return None
    where = {n: i for i, n in enumerate(names)}
    parts = []
    for a in call.args:
        if isinstance(a, Variable) and a.name in where:
            parts.append((True, where[a.name]))
        elif isinstance(a, (Constant, Integer, String)):
            parts.append((False, format_term(a)))
        else:
            return None
    return lambda vals: on_texts([vals[x] if is_var else x for is_var, x in parts])


class _Cached:
    """A grounding-time function with its results cached per argument tuple."""

    def __init__(self, fn: Callable[..., Term]) -> None:
        self.fn = fn
        self.cache: dict[tuple, Term] = {}

    def __call__(self, *args: Term) -> Term:
        got = self.cache.get(args)
        if got is None:
            if len(self.cache) >= _CACHE_MAX:
                self.cache.clear()
            got = self.cache[args] = self.fn(*args)
        return got


# ============================================================================== windows


def _all_one(values: list) -> bool:
    """Is every value 1 (one count in C, without a call per value)?"""
    return values.count(1) == len(values)


def _last_at(rows, last: dict, u: int):
    """The rows of ``rows`` whose last point in ``last`` is u (all of them, the common case, by
    one count over their points instead of a comparison call per row)."""
    points = list(map(last.__getitem__, rows))
    if points.count(u) == len(points):
        return rows  # (read only)
    return list(compress(rows, map(u.__eq__, points)))


class _Window:
    """One time window ``⊞^{l,u,d}`` and the base relations over it (◇, □, @_T per predicate)."""

    def __init__(self, window: TimeWindow, tmin: int) -> None:
        self.window = window
        self.tmin = tmin
        self.lo, self.hi = tmin, tmin - 1  # the points applied so far: [lo, hi]
        self.dia: dict[tuple, dict[tuple, int]] = {}  # sig -> row -> the last point of the window it occurs at
        self.at: set[tuple] = set()  # sigs with an @_T relation
        self.dia_run: dict[tuple, list] = {}  # sig -> [rows object, point written, end] (``_Engine._dia``)
        self.box: dict[tuple, dict[tuple, int]] = {}  # sig -> row -> start of its current run
        self.box_last = tmin - 2  # last point the runs were updated for
        self.box_in: dict[tuple, set[tuple]] = {}  # sig -> rows in □ now
        self.box_src: dict[tuple, object] = {}  # sig -> the rows object the runs were last built from
        self.true = False  # does a literal read ``true`` through this window (every point counts)


class IncrementalSolver:
    """The incremental engine: ``run(stream, times)`` yields :class:`Step` as
    ``asp.solver.StreamSolver.run`` does. Raises :class:`NotInFragment` for programs outside the
    fragment. ``functions`` supplies the grounding-time functions of ``@name(…)`` by name."""

    def __init__(self, program: Program, *, models: int = 1, functions: Mapping[str, Callable[..., Term]] | None = None,
                 outputs: Iterable[str] | None = None, stream_predicates: Iterable[str] | None = None,
                 unfold: bool = True) -> None:
        if models < 0:
            raise RsplarsError(f"--models must be >= 0, got {models}")
        self.program = program
        self.encode_json = False  # set by `rsplars lars` (JSON lines, full answers): Step.encoded
        # ``stream_predicates``: the only predicate names the stream may carry (``rsplars run``:
        # ``striple``); the intensional predicates outside it get no copy rule (D11), and a stream
        # atom outside it is an error (``_Engine._rows_at``)
        self.stream_predicates = None if stream_predicates is None else frozenset(stream_predicates)
        self.rules, self.facts, self.order = compile_program(program, self.stream_predicates)
        # ``outputs``: the predicate names whose atoms the caller reads (``rsplars run``: the answer
        # predicate); Step.answers then holds those atoms only, and stream atoms that cannot reach
        # them or a constraint are dropped as they are read (:func:`stream_filters`)
        names = None if outputs is None else set(outputs)
        self.outputs = {s for s in self.order if s != _FALSE and (names is None or s[0] in names)}
        self.unfolded: set[tuple] = set()  # the predicates unfolded into their one use (lars.unfold)
        if names is not None and unfold:
            from lars.unfold import unfold_rules

            self.rules, self.order, self.unfolded = unfold_rules(self.rules, self.order, self.outputs, self.facts)
        self.filters = {} if names is None else stream_filters(self.rules, self.order, self.outputs)
        self.functions = {name: _Cached(fn) for name, fn in (functions or {}).items()}
        self.aggregate_functions = dict(functions or {})  # external aggregates (``#@name{…}``): not cached
        needed = set()
        for r in program.rules:
            _calls(r, needed)
        missing = needed - self.functions.keys()
        if missing:
            raise UnsupportedError(f"grounding-time function(s) {', '.join(sorted(missing))}", "the incremental engine", "not supplied")

    def run(self, stream: Stream, times: Iterable[int] | None = None) -> Iterator[Step]:
        live = getattr(stream, "live", False)
        tmin, tmax = stream.timeline
        if times is None:
            times = live_times(stream, tmin) if live else range(tmin, tmax + 1)
        engine = _Engine(self, stream, tmin)
        for t in times:
            if t < tmin:
                raise RsplarsError(f"reference time {t} lies before the start {tmin} of the stream")
            if t < engine.t:
                engine = _Engine(self, stream, tmin)  # times went back: start again
            yield engine.step(t)


def _calls(obj: object, out: set[str]) -> None:
    if isinstance(obj, Call):
        out.add(obj.name)
    if isinstance(obj, (Call, Function, Atom)):
        for a in obj.args:
            _calls(a, out)
    elif isinstance(obj, (Arith, Comparison)):
        _calls(obj.left, out)
        _calls(obj.right, out)
    elif isinstance(obj, Rule):
        _calls(obj.head, out)
        for b in obj.body:
            _calls(b, out)
    elif isinstance(obj, Literal):
        _calls(obj.atom, out)
    elif isinstance(obj, (At, WindowAt)):
        _calls(obj.atom, out)
        _calls(obj.time, out)
    elif isinstance(obj, (Diamond, Box)):
        _calls(obj.atom, out)
    elif isinstance(obj, AggregateAssignment):
        if obj.function[0] == "@":
            out.add(obj.function[1:])
        _calls(obj.left, out)
        for e in obj.elements:
            for x in (*e.terms, *e.condition):
                _calls(x, out)


def _text_of(term) -> str:
    """``format_term`` with the flat terms of streams done inline."""
    kind = type(term)
    if kind is Constant:
        return term.name
    if kind is Integer:
        return str(term.value)
    if kind is String:  # as lars.printer prints a string (without its dispatch)
        v = term.value
        if "\\" in v or '"' in v or "\n" in v or "\t" in v:
            return format_term(term)
        return f'"{v}"'
    return format_term(term)


_IDENT = re.compile(r"[a-z][A-Za-z0-9_]*")  # NAME of lars/grammars/lars.lark


def _parse_term(text: str):
    """The ground term whose canonical text (``lars.printer.format_term``) is ``text``: strings
    (one regex, escapes undone), integers and constants directly, everything else by the LARS parser."""
    if text[:1] == '"':
        got = parse_string_text(text)  # a string (an RDF term's N-Triples text): its escapes undone
        if got is not None:
            return got
    if text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit())):
        value = int(text)
        if str(value) == text:
            return Integer(value)
    elif _IDENT.fullmatch(text):
        return Constant(text)
    return parse_ground_atom(f"x({text})").args[0]


class _TermView(dict):
    """Variable name -> term, converted from the row's text on first access (``__getitem__``)."""

    __slots__ = ("texts", "term")

    def __init__(self, texts: dict, term) -> None:
        super().__init__()
        self.texts = texts
        self.term = term

    def __missing__(self, name: str):
        got = self[name] = self.term(self.texts[name])
        return got


class _Declared:
    """The signatures whose name is one of ``names`` (``issuperset`` of a point's signatures)."""

    __slots__ = ("names",)

    def __init__(self, names) -> None:
        self.names = names

    def __contains__(self, sig) -> bool:
        return sig[0] in self.names

    def issuperset(self, sigs) -> bool:
        names = self.names
        return all(sig[0] in names for sig in sigs)


class _Engine:
    """The state of one run (see the module docstring).

    Ground terms are their canonical text inside the engine (``lars.printer.format_term``: one
    text per term and back, so equal texts are equal terms): rows are tuples of strings, whose
    hashes Python caches, and a row is its atom's output text once joined. Nothing maps terms to
    numbers, so nothing has to be reclaimed: a term lives as long as some row refers to it, and
    memory follows the windows. ``term_of`` caches the terms that built-ins need back."""

    def __init__(self, solver: IncrementalSolver, stream: Stream, tmin: int) -> None:
        self.solver = solver
        self.functions = solver.functions
        self.text_tests: dict[tuple, Callable | bool] = {}  # (comparison, its variables) -> _text_test or False
        self.text_values: dict[tuple, Callable | bool] = {}  # (assigned term, its variables) -> _on_texts or False
        self.aggregate_functions = solver.aggregate_functions
        self.stream = stream
        self.live = getattr(stream, "live", False)
        self.row_stream = getattr(stream, "rows", False)
        self.filters = solver.filters
        self.admit = {sig: _row_filter(alts) for sig, alts in solver.filters.items()}
        self.filtered_src: object = None
        names = solver.stream_predicates
        self.declared_names = names
        # the declared predicates as signatures, for the rows a reader gives (keyed by signature)
        self.declared = None if names is None else _Declared(names)
        self.const_scans: dict = {}  # (relation, key positions) -> scans for a key of constants (_Batch)
        self.filtered_out: dict = {}
        self.tmin = tmin
        self.t = tmin - 1
        self.term_of: dict[str, object] = {}  # canonical text -> term (a cache)
        self.last_atoms: object = None  # the atoms of the last time point converted, and its rows
        self.last_rows: dict = {}
        self.point_rows: dict[int, dict] = {}  # time point -> its (sig, row)s read by windows
        self.rels: dict[tuple, _Rel] = defaultdict(_Rel)
        self.counts: dict[tuple, dict[tuple, int]] = {s: {} for s in solver.order}
        self.pending: dict[tuple, set[tuple]] = {s: set() for s in solver.order}
        self.uses: dict[tuple, list[tuple[_Rule, int]]] = defaultdict(list)
        for r in solver.rules:
            for i, lit in enumerate(r.lits):
                self.uses[lit.rel].append((r, i))
        self.windows: dict[TimeWindow, _Window] = {}
        for r in solver.rules:
            for lit in r.lits:
                base = lit.rel[1] if lit.rel[0] == NEG else lit.rel
                if base[0] == WIN:
                    _, kind, window, sig = base
                    w = self.windows.get(window)
                    if w is None:
                        w = self.windows[window] = _Window(window, tmin)
                    {"dia": w.dia, "box": w.box}.get(kind, {}).setdefault(sig, {})
                    if kind == "at":
                        w.at.add(sig)
                    if kind == "box":
                        w.box_in.setdefault(sig, set())
                    if sig == ("true", 0):
                        w.true = True
        self.read = set()  # stream signatures some window reads
        for w in self.windows.values():
            self.read |= set(w.dia) | w.at | set(w.box)
        # constants of the program: ids kept for the whole run
        self.const: dict = {}
        for r in solver.rules:
            for a in (*r.head_args, *(x for lit in r.lits for x in lit.args)):
                if isinstance(a, (Constant, Integer, String)):
                    self.const[a] = format_term(a)
        self.times: list[int] = []  # time points with data, ascending (non-live: all of them)
        if not self.live:
            self.times = sorted(u for u in stream.points if u >= tmin)
        self.intensional = set(solver.order) - {_FALSE}
        self.outputs = solver.outputs
        self.answer = _SortedAnswer()
        self.shown: dict[tuple, dict[tuple, str]] = {}  # output sig -> row of the answer -> its atom text
        self.valid = False  # is the previous step's answer a single answer (for deltas)?
        self.out: list[tuple] = []  # (sig, rows added, rows removed) of the step, for the answer
        self.blk: dict = {}  # block node -> its last result (lars.incremental_aggregates)
        # relations whose every reader projects it (one positive literal): changed in bulk
        self.bulk = {rel: all(r.project is not None for r, _ in uses) for rel, uses in self.uses.items()}
        # heads of plain copies of one relation, flushed by ``_changes``: their changes may be
        # recorded exactly (``_exact``)
        self.exact_heads = {r.head for r in solver.rules if r.project is True and r.head[0] not in _BLOCK_NODES}
        self.meta: dict[tuple, tuple] = {}  # relation -> (bulk, its rows kept, its readers, a negated reader) (``_apply``)
        self.exact: dict[tuple, tuple[dict, dict]] = {}  # head -> (rows new, rows gone) since its last flush
        # window relations whose every reader projects them into a predicate (no join, no
        # block, no negation reads their rows): their rows are not kept (``_Window`` has them)
        self.untracked = {rel for rel, uses in self.uses.items() if rel[0] == WIN and (NEG, rel) not in self.uses
                          and all(r.project is not None and r.head[0] not in _BLOCK_NODES for r, _ in uses)}
        for fact in solver.facts:
            try:
                row = tuple([format_term(evaluate(a, {}, self.functions)) for a in fact.args])
            except _Undefined:
                continue
            self._support(fact.signature, row, 1)

    # ------------------------------------------------------------------------ terms
    def _holds(self, c: Comparison, names: tuple, vals: tuple) -> bool:
        """Does ``c`` hold when its variables ``names`` have the terms whose texts are ``vals``?
        A comparison of a function call that reads texts (:func:`_text_test`) is decided on the
        texts when the function can; otherwise on the terms (``comparison_holds``)."""
        test = self.text_tests.get((c, names))
        if test is None:
            test = self.text_tests[c, names] = _text_test(c, names, self.functions) or False
        if test:
            got = test(vals)
            if got is not None:
                return got
        return comparison_holds(c, {n: self._term(v) for n, v in zip(names, vals)}, self.functions)

    def _assigned(self, term, names: tuple, vals: tuple) -> str:
        """The text of ``term``'s value when its variables ``names`` have the terms whose texts are
        ``vals`` (``_UNDEF``: undefined). A call of a function that reads texts
        (:func:`_on_texts`) is computed on the texts when the function can."""
        value = self.text_values.get((term, names))
        if value is None:
            value = self.text_values[term, names] = _on_texts(term, names, self.functions) or False
        if value:
            got = value(vals)
            if got is not None:
                return format_term(got)
        try:
            return format_term(evaluate(term, {n: self._term(v) for n, v in zip(names, vals)}, self.functions))
        except _Undefined:
            return _UNDEF

    def _term(self, text: str):
        """The term whose canonical text (``lars.printer.format_term``) is ``text``."""
        got = self.term_of.get(text)
        if got is None:
            if len(self.term_of) >= _CACHE_MAX:
                self.term_of.clear()
            got = self.term_of[text] = _parse_term(text)
        return got

    def _terms(self, theta: dict) -> dict:
        """Every bound variable's term (for ``_unify``, which copies the mapping)."""
        term = self._term
        return {k: term(v) for k, v in theta.items()}

    def _lazy(self, theta: dict) -> "_TermView":
        """The terms of ``theta`` converted on access, for ``evaluate``/``comparison_holds`` (which
        only read ``theta[name]``): a call converts its own arguments, not every bound variable."""
        return _TermView(theta, self._term)

    # ------------------------------------------------------------------------ stream access
    def _atoms(self, u: int) -> tuple[Atom, ...]:
        if u < self.tmin:
            return ()
        return self.stream.points.get(u, ())

    def _points(self, a: int, b: int) -> Iterable[int]:
        """Time points in [a, b] that carry data."""
        if b < a:
            return ()
        if b - a < 64 or self.live:
            return range(a, b + 1)
        from bisect import bisect_left, bisect_right

        return self.times[bisect_left(self.times, a):bisect_right(self.times, b)]

    @staticmethod
    def _every(a: int, b: int) -> range:
        return range(a, b + 1)

    # ------------------------------------------------------------------------ the step
    def step(self, t: int) -> Step:
        if self.live:
            self.stream.read_past(t)
            self.stream.take_arrived()
        self.out = []
        for w in self.windows.values():
            self._slide(w, t)
        if self.live:
            keep = min((w.lo for w in self.windows.values()), default=t)
            self.stream.forget_before(min(keep, t - 1))
        self.t = t
        for sig in self.solver.order:
            self._flush(sig)
        self._drop_rows(t)
        return self._answer(t)

    def _slide(self, w: _Window, t: int) -> None:
        lo, hi = time_window_bounds(w.window, t, self.tmin)
        lo = max(lo, self.tmin)
        old_lo, old_hi = w.lo, w.hi
        # entering points first (an atom of ◇ still occurring gets its new last point before its old one leaves)
        points = self._every if w.true else self._points
        for u in points(max(old_hi + 1, lo), hi):
            self._enter(w, u, +1)
        for u in points(old_lo, min(old_hi, lo - 1)):
            self._enter(w, u, -1)
        w.lo, w.hi = lo, hi
        if w.box:
            self._box(w, t, lo, hi)

    def _rows_at(self, u: int) -> dict:
        """The distinct ``(sig, row)`` of the stream atoms at u that some window reads (computed
        once per time point, dropped once every window has passed it)."""
        got = self.point_rows.get(u)
        if got is not None:
            return got
        if self.row_stream:  # the reader gave rows already (lars.streams.iter_stream_rows)
            got = self.stream.points.get(u) if u >= self.tmin else None
            if got is None:
                return {}
            if self.declared is not None and not self.declared.issuperset(got):
                self._undeclared(u, [sig for sig in got if sig not in self.declared])
            if self.filters:
                got = self._filtered(got)
                self.point_rows[u] = got
            return got
        atoms = self._atoms(u)
        if atoms is self.last_atoms:  # the reader gave the previous line's atoms again
            out = self.last_rows
        else:
            read = self.read
            declared = self.declared_names
            out = {}
            for a in atoms:
                args = a.args
                sig = (a.predicate, len(args))
                if sig in read:
                    row = tuple([x.name if type(x) is Constant else _text_of(x) for x in args])
                    got = out.get(sig)
                    if got is None:
                        out[sig] = {row: None}
                    else:
                        got[row] = None
                elif declared is not None and sig[0] not in declared:
                    self._undeclared(u, [sig])
            if self.filters:
                out = self._filtered(out)
            self.last_atoms, self.last_rows = atoms, out
        self.point_rows[u] = out
        return out

    def _undeclared(self, u: int, sigs: list) -> None:
        """A stream atom whose predicate the caller said the stream does not carry
        (``IncrementalSolver.stream_predicates``): its copy rule (D11) was left out, so it would be lost."""
        sig = sigs[0]
        raise RsplarsError(f"the stream has an atom of {sig[0]}/{sig[1]} at t={u}, a predicate outside the stream's "
                           f"declared predicates ({', '.join(sorted(self.solver.stream_predicates))})")

    def _filtered(self, rows: dict) -> dict:
        """``rows`` (sig -> rows) without the rows that matter to no output (``IncrementalSolver.filters``);
        the same object for the same rows (a repeated line keeps its identity, ``_dia``)."""
        if rows is self.filtered_src:
            return self.filtered_out
        out = {}
        for sig, got in rows.items():
            admit = self.admit.get(sig)
            out[sig] = admit(got) if admit is not None else got
        self.filtered_src, self.filtered_out = rows, out
        return out

    def _drop_rows(self, t: int) -> None:
        keep = min((w.lo for w in self.windows.values()), default=t + 1)
        keep = min(keep, t + 1)
        rows = self.point_rows
        if rows and min(rows) < keep:
            for u in [u for u in rows if u < keep]:
                del rows[u]

    def _enter(self, w: _Window, u: int, sign: int) -> None:
        """Time point u enters (sign 1) or leaves (-1) the window: ◇ counts and @_T pairs."""
        true = ("true", 0)
        if true in w.dia:
            self._dia(w, true, [()], sign, u)
        if true in w.at:
            row = (str(u),)
            self._apply((WIN, "at", w.window, true), [row] if sign > 0 else (), [row] if sign < 0 else ())
        rows = self._rows_at(u)
        if not rows:
            return
        for sig in w.dia:
            got = rows.get(sig)
            if got:
                self._dia(w, sig, got, sign, u)
        for sig in w.at:
            got = rows.get(sig)
            if got:
                tu = str(u)
                pairs = [(*row, tu) for row in got]
                self._apply((WIN, "at", w.window, sig), pairs if sign > 0 else (), pairs if sign < 0 else ())

    def _dia(self, w: _Window, sig: tuple, rows, sign: int, u: int) -> None:
        """Time point u, whose rows of ``sig`` are ``rows``, enters (sign 1) or leaves (-1) the
        window. Each row of the window keeps the last point of the window it occurs at (Laser's
        horizon, less the window's length): points enter and leave in increasing order, so a row
        leaves with the point that is its last, and rows are entered and expired in bulk.

        A point whose rows are the very object of the point entered before (the reader shares the
        rows of a line repeating the previous one) only moves that run's end (``_Window.dia_run``):
        the last points of its rows are written when the run breaks, so a repeating stream costs
        nothing per row."""
        last = w.dia[sig]  # row -> the last time point of the window it occurs at
        run = w.dia_run.get(sig)  # [rows object, the point its last points say, the run's end]
        if sign > 0:
            if run is not None:
                if rows is run[0]:
                    run[2] = u
                    return
                if run[2] != run[1]:
                    last.update(dict.fromkeys(run[0], run[2]))
                del w.dia_run[sig]
            # all new (fresh atoms): the rows object itself (read only), else the new ones
            came = rows if not last or last.keys().isdisjoint(rows) else list(filterfalse(last.__contains__, rows))
            last.update(dict.fromkeys(rows, u))
            if type(rows) is dict:
                w.dia_run[sig] = [rows, u, u]
            if came:
                self._apply((WIN, "dia", w.window, sig), came, ())
        else:
            if run is not None:
                if u < run[2]:
                    if rows is run[0]:
                        return  # its rows occur at the run's end, still in the window
                    gone = _last_at(rows, last, u)
                    if run[1] <= u:  # the run's rows may say u: their last point (not written yet) is its end
                        gone = list(filterfalse(run[0].__contains__, gone))
                    if gone:
                        _consume(map(last.__delitem__, gone), maxlen=0)
                        self._apply((WIN, "dia", w.window, sig), (), gone)
                    return
                if run[2] != run[1]:
                    last.update(dict.fromkeys(run[0], run[2]))
                del w.dia_run[sig]
            gone = _last_at(rows, last, u)
            if gone:
                if len(gone) == len(last):
                    last.clear()
                else:
                    _consume(map(last.__delitem__, gone), maxlen=0)
                self._apply((WIN, "dia", w.window, sig), (), gone)

    def _box(self, w: _Window, t: int, lo: int, hi: int) -> None:
        """□ (step 1, so the window is ``[lo, t]``, never empty): the runs of consecutive
        occurrences are brought up to t; an atom holds iff it occurs at t and its run started at
        or before ``lo`` (Laser's consideration time)."""
        true = ("true", 0)
        changed = set()
        for u in self._points(max(w.box_last + 1, self.tmin), t):
            rows = self._rows_at(u)
            cont = w.box_last == u - 1
            for sig, runs in w.box.items():
                if sig == true:
                    continue
                got = rows.get(sig, ())
                if cont and got is w.box_src.get(sig):  # the same rows again (a repeated line): runs go on
                    continue
                fresh = dict.fromkeys(got, u)
                if cont and runs and not runs.keys().isdisjoint(got):  # the runs of rows still occurring go on
                    kept = list(filter(runs.__contains__, got))
                    fresh.update(zip(kept, map(runs.__getitem__, kept)))
                w.box[sig] = fresh
                w.box_src[sig] = got
                changed.add(sig)
            w.box_last = u
        for sig, runs in w.box.items():
            key = (WIN, "box", w.window, sig)
            now = w.box_in[sig]
            if sig == true:
                new = {()}
            elif w.box_last == t and sig not in changed and len(now) == len(runs):
                continue  # every running atom holds already, and the runs did not change
            elif w.box_last == t and runs:
                starts = runs.values()
                if min(starts) > lo:
                    new = set()
                elif max(starts) <= lo:
                    new = set(runs)
                else:
                    new = {row for row, s in runs.items() if s <= lo}
            else:
                new = set()
            gone, came = now - new, new - now
            if gone or came:
                self._apply(key, came, gone)
            w.box_in[sig] = new

    # ------------------------------------------------------------------------ propagation
    def _apply(self, rel: tuple, plus, minus) -> None:
        """Relation ``rel`` gains the rows ``plus`` and loses ``minus`` (each a change): update it
        and the supports of the heads of the rules that read it. Rules that only project one
        literal take the change in bulk; the others tuple by tuple (the delta rule)."""
        table = self.rels[rel]
        meta = self.meta.get(rel)
        if meta is None:  # (the relation's key is hashed once per change, not once per look-up)
            meta = self.meta[rel] = (self.bulk.get(rel, True), rel not in self.untracked, self.uses.get(rel, ()),
                                     (NEG, rel) in self.uses)
        bulk, tracked, uses, shadow = meta
        if bulk:  # (a relation nothing reads: bulk too)
            if tracked:
                table.add_many(plus)
                table.remove_many(minus)
            counts_of, pending_of = self.counts, self.pending
            for r, _ in uses:
                counts = counts_of[r.head]
                if r.project is True and r.head in self.exact_heads and self._exact(r.head, counts, plus, minus):
                    continue
                get = counts.get
                proj = r.project
                heads_plus = plus if proj is True else [tuple([row[k] for k in proj]) for row in plus]  # type: ignore[union-attr]
                heads_minus = minus if proj is True else [tuple([row[k] for k in proj]) for row in minus]  # type: ignore[union-attr]
                if proj is True and heads_plus and (not counts or counts.keys().isdisjoint(heads_plus)):
                    counts.update(dict.fromkeys(heads_plus, 1))  # new heads (distinct rows): in bulk
                else:
                    for h in heads_plus:
                        counts[h] = get(h, 0) + 1
                if heads_minus and all(map((1).__eq__, map(counts.__getitem__, heads_minus))):
                    if proj is True:  # distinct rows, each its head's last support
                        _consume(map(counts.__delitem__, heads_minus), maxlen=0)
                    else:
                        for h in heads_minus:
                            counts.pop(h, None)
                else:
                    for h in heads_minus:
                        c = counts[h] - 1
                        if c:
                            counts[h] = c
                        else:
                            del counts[h]
                pending = pending_of[r.head]
                pending.update(heads_plus)
                pending.update(heads_minus)
        elif rel[0] == NEG:  # `not R` reads the complement: a row joins it while absent from R
            # the shadow copy without the changed rows D while they propagate: a negated
            # occurrence before the seed sees it with D, one after it without D (the delta rule)
            if plus:
                self._propagate(rel, plus, 1)
                table.add_many(plus)
            if minus:
                table.remove_many(minus)
                self._propagate(rel, minus, -1)
        else:
            # the relation with the changed rows D while they propagate: an occurrence before the
            # seed excludes D, one after it reads the relation with D (the delta rule)
            if plus:
                table.add_many(plus)
                self._propagate(rel, plus, 1)
            if minus:
                self._propagate(rel, minus, -1)
                table.remove_many(minus)
        if shadow:
            self._apply((NEG, rel), plus, minus)

    def _exact(self, head: tuple, counts: dict, plus, minus) -> bool:
        """The rows ``plus`` (distinct) each gain and the rows ``minus`` (distinct) each lose one
        support of ``head``, from a rule that is a plain copy of one relation (``_Rule.project``
        is True). When nothing else changed ``head`` since it was last flushed (no pending rows),
        its relation's rows are the rows with a support, or differ from them by the changes
        recorded here before (``exact``): if every row of ``plus`` is then neither supported nor
        in the relation (its support goes 0 -> 1, a new row) and every row of ``minus`` has its
        last support and is in the relation (1 -> 0, a row gone), the supports change in bulk and
        the rows are recorded as the relation's changes themselves, so that ``_changes`` has no
        set operations to do (the fresh-atom streams: every row that enters a window is new, every
        row that leaves it is gone). Otherwise (``False``) nothing is changed here: the caller
        takes the general path (its pending rows and the changes recorded here are then merged by
        ``_changes``; while rows are pending, nothing more is recorded)."""
        exact = self.exact
        got = exact.get(head)
        pending = self.pending[head]
        if not pending:
            rows = self.rels[head].rows
            # a row of ``plus`` without support may still be in the relation (a row recorded
            # gone, coming back through another copy: no change); a row of ``minus`` with its
            # last support is in the relation unless it was recorded new at this step, and then
            # its support came from one relation that gained it now and cannot lose it now (a
            # window loses only rows it held before the step, and a second copy holding it
            # before would have made it supported already)
            if (not plus or ((not counts or counts.keys().isdisjoint(plus))
                             and (got is None or not got[1] or rows.isdisjoint(plus)))) and (
                    not minus or _all_one(list(map(counts.get, minus)))):
                if plus:
                    counts.update(dict.fromkeys(plus, 1))
                if minus:
                    _consume(map(counts.__delitem__, minus), maxlen=0)
                # kept as dicts (ordered sets): built from a dict of rows (a time point's rows,
                # which enter whole when they are all new), and later added to the relation, with
                # the rows' hashes (a tuple's hash is not cached: computed again for a list)
                if got is None:
                    exact[head] = (dict.fromkeys(plus), dict.fromkeys(minus))
                else:
                    got[0].update(dict.fromkeys(plus))
                    got[1].update(dict.fromkeys(minus))
                return True
        return False

    def _changes(self, sig: tuple) -> tuple[list, list]:
        """The rows of ``sig`` whose support became (plus) or stopped being (minus) non-zero since
        it was last flushed, not yet applied to its relation; its pending rows are cleared."""
        pending = self.pending[sig]
        got = self.exact.pop(sig, None)
        if got is not None:  # changes known exactly (``_exact``)
            if not pending:
                return got
            pending.update(got[0])
            pending.update(got[1])
        if not pending:
            return [], []
        counts = self.counts[sig]
        rows = self.rels[sig].rows
        unsupported = pending.difference(counts)
        plus = list(pending.difference(unsupported).difference(rows))
        minus = list(unsupported.intersection(rows))
        pending.clear()
        return plus, minus

    def _flush(self, sig: tuple) -> None:
        """The rows of ``sig`` whose support became or stopped being 0 change its relation (each
        intensional predicate is flushed once per step, after everything below it)."""
        if sig[0] in _BLOCK_NODES:  # aggregates and recursion: lars.incremental_aggregates
            from lars.incremental_aggregates import flush_aux, flush_block

            return flush_block(self, sig) if sig[0] == "#blk" else flush_aux(self, sig)
        plus, minus = self._changes(sig)
        if plus or minus:
            self._apply(sig, plus, minus)
            if sig in self.outputs:
                self.out.append((sig, plus, minus))

    def _support(self, sig: tuple, row: tuple, n: int) -> None:
        counts = self.counts[sig]
        c = counts.get(row, 0) + n
        if c:
            counts[row] = c
        else:
            del counts[row]
        self.pending[sig].add(row)

    def _propagate(self, rel: tuple, rows, sign: int) -> None:
        """The rows ``rows`` (a batch D) of ``rel`` change (the relation holds them now, or held
        them): every rule instance that uses one of them, through the delta rule (the seed
        literal ranges over D, occurrences of ``rel`` before it see the relation on one side of
        the change, those after it on the other, ``_apply``), changes the support of its head by
        ``sign`` (a negated seed: by ``-sign``). Each rule's instances for the whole batch are found
        at once (:class:`_Batch`: hash joins on the batch, a comparison evaluated once per distinct
        value of its variables); rules the batch plans do not cover go row by row."""
        excl = None
        columns: dict = {}  # the batch's columns, shared by the rules' seed selections (_Batch.run)
        for r, i in self.uses.get(rel, ()):
            lit = r.lits[i]
            s = -sign if lit.negated else sign  # a negated literal: its instances are lost/gained
            if r.project is not None:
                if r.project is True:
                    self._supports(r.head, rows, s)
                else:
                    proj = r.project
                    self._supports(r.head, [tuple([row[k] for k in proj]) for row in rows], s)  # type: ignore[union-attr]
                continue
            if excl is None and r.self_join[i]:
                excl = rows if isinstance(rows, (set, dict)) else set(rows)
            batch = r.batch.get(i)
            if batch is not None:
                self._supports(r.head, batch.run(self, rows, excl, columns), s)
                continue
            heads: list = []
            for row in rows:
                theta = self._bind(lit, row)
                if theta is None:
                    continue
                if r.flat[i]:  # checks only: at most one instance
                    if self._checks(r, r.plans[i], theta, rel, row, i, excl):
                        self._head(r, theta, heads)
                    continue
                for theta in self._steps(r, r.plans[i], 0, theta, rel, row, i, excl):
                    self._head(r, theta, heads)
            self._supports(r.head, heads, s)

    def _supports(self, sig: tuple, heads, n: int) -> None:
        """The support of each head row in ``heads`` (repeated: once per instance) changes by n."""
        if not heads:
            return
        counts = self.counts[sig]
        if n == 1 and (not counts or counts.keys().isdisjoint(heads)):
            new = dict.fromkeys(heads, 1)
            if len(new) == len(heads):  # distinct new heads (the common case): in bulk
                counts.update(new)
                self.pending[sig].update(new)
                return
        elif n == -1 and all(map((1).__eq__, map(counts.get, heads))):
            gone = set(heads)
            if len(gone) == len(heads):  # distinct heads, each its last support: in bulk
                _consume(map(counts.__delitem__, gone), maxlen=0)
                self.pending[sig].update(gone)
                return
        get = counts.get
        for h in heads:
            c = get(h, 0) + n
            if c:
                counts[h] = c
            else:
                del counts[h]
        self.pending[sig].update(heads)

    def _value(self, term, theta: dict) -> int:
        """The id of a term under theta (all its variables bound); raises _Undefined."""
        if isinstance(term, Variable):
            return theta[term.name]
        got = self.const.get(term) if isinstance(term, (Constant, Integer, String)) else None
        if got is not None:
            return got
        return format_term(evaluate(term, self._lazy(theta), self.functions))

    def _head(self, r: _Rule, theta: dict, heads: list) -> None:
        spec = r.head_spec
        if spec is not None:
            heads.append(tuple([theta[v] if is_var else v for is_var, v in spec]))
            return
        try:
            row = tuple([self._value(a, theta) for a in r.head_args]) if r.head_args else ()
        except _Undefined:
            return
        heads.append(row)

    def _unify_text(self, pattern, i: str, theta: dict) -> dict | None:
        """Term-level unification of a compound pattern with the term of id i."""
        got = _unify(pattern, self._term(i), self._terms(theta), functions=self.functions)
        if got is None:
            return None
        out = dict(theta)
        for k, v in got.items():
            if k not in out:
                out[k] = format_term(v)
        return out

    def _bind(self, lit: _Lit, row: tuple) -> dict | None:
        """Bind the simple positions of ``lit`` to ``row`` (computed positions are checked by
        the plan); ``None`` if they do not match."""
        for k, text in lit.consts:
            if row[k] != text:
                return None
        out: dict = {}
        for k, name in lit.names:
            got = out.get(name)
            if got is None:
                out[name] = row[k]
            elif got != row[k]:
                return None
        for k, pattern in lit.funcs:
            got2 = self._unify_text(pattern, row[k], out)
            if got2 is None:
                return None
            out = got2
        return out

    def _checks(self, r: _Rule, plan: list, theta: dict, rel: tuple, row: tuple, seed: int, excl) -> bool:
        """A plan of checks only (``_Rule.flat``), without generators: does the instance hold?"""
        for step in plan:
            kind = step[0]
            if kind == "lit":
                lit = r.lits[step[1]]
                try:
                    key = tuple([self._value(a, theta) for a in step[3]])
                except _Undefined:
                    return False
                table = self.rels[lit.rel]
                if len(key) == len(lit.args):
                    if key not in table.rows or (lit.rel == rel and step[1] < seed and key in excl):
                        return False
                elif not table.lookup(step[2], key):
                    return False
            elif kind == "cmp":
                if not comparison_holds(step[1], self._lazy(theta), self.functions):
                    return False
            elif next(self._steps(r, [step], 0, theta, rel, row, seed, excl), None) is None:
                return False
        return True

    def _steps(self, r: _Rule, plan: list, k: int, theta: dict, rel: tuple, row: tuple, seed: int | None, excl) -> Iterator[dict]:
        """Instances of the body along ``plan`` from step k; ``seed``: the literal bound to
        ``row`` of ``rel``, one of the changed rows ``excl`` (the delta rule: earlier occurrences
        of ``rel`` exclude them, ``_Engine._apply``)."""
        if k == len(plan):
            yield theta
            return
        step = plan[k]
        kind = step[0]
        functions = self.functions
        if kind == "cmp":
            if comparison_holds(step[1], self._lazy(theta), functions):
                yield from self._steps(r, plan, k + 1, theta, rel, row, seed, excl)
        elif kind == "assign":
            try:
                value = self._value(step[2], theta)
            except _Undefined:
                return
            yield from self._steps(r, plan, k + 1, {**theta, step[1]: value}, rel, row, seed, excl)
        elif kind == "seedcheck":
            lit = r.lits[step[1]]
            for p in step[2]:
                if _unify(lit.args[p], self._term(row[p]), self._terms(theta), functions=functions) is None:
                    return
            yield from self._steps(r, plan, k + 1, theta, rel, row, seed, excl)
        elif kind == "neg":
            i = step[1]
            lit = r.lits[i]
            try:
                ground = tuple([self._value(a, theta) for a in lit.args])
            except _Undefined:
                ground = None
            if lit.rel == rel and seed is not None and i < seed and ground in excl:
                return  # the delta rule: an earlier occurrence of the changed relation holds the changed rows
            if ground is None or ground not in self.rels[lit.rel].rows:
                yield from self._steps(r, plan, k + 1, theta, rel, row, seed, excl)
        else:  # "lit"
            _, i, keys, key_terms, rest = step
            lit = r.lits[i]
            try:
                key = tuple([self._value(a, theta) for a in key_terms])
            except _Undefined:
                return
            exclude = lit.rel == rel and seed is not None and i < seed
            candidates = self.rels[lit.rel].lookup(keys, key)
            if not rest:
                if candidates and not (exclude and next(iter(candidates)) in excl):
                    yield from self._steps(r, plan, k + 1, theta, rel, row, seed, excl)
                return
            args = lit.args
            for cand in list(candidates):
                if exclude and cand in excl:
                    continue
                th = theta
                ok = True
                for p in rest:
                    a = args[p]
                    if isinstance(a, Variable):
                        got = th.get(a.name)
                        if got is None:
                            if th is theta:
                                th = dict(theta)
                            th[a.name] = cand[p]
                        elif got != cand[p]:
                            ok = False
                            break
                    else:
                        th2 = self._unify_text(a, cand[p], th)
                        if th2 is None:
                            ok = False
                            break
                        th = th2
                if ok:
                    yield from self._steps(r, plan, k + 1, th, rel, row, seed, excl)

    # ------------------------------------------------------------------------ the answer
    @staticmethod
    def _atom_text(sig: tuple, row: tuple) -> str:
        return f"{sig[0]}({','.join(row)})" if row else sig[0]

    def _answer(self, t: int) -> Step:
        added: list[str] = []
        removed: list[str] = []
        rows: dict = {}
        shown = self.shown
        for sig, plus, minus in self.out:
            name = sig[0]
            got = rows.get(name)
            if got is None:
                rows[name] = (list(plus), list(minus))
            else:  # (two arities of one name)
                got[0].extend(plus)
                got[1].extend(minus)
            if sig[1]:
                # the text of a row is built once, when it joins the answer, and kept until it
                # leaves (``shown``: the rows of the answer, no more)
                texts = shown.get(sig)
                if texts is None:
                    texts = shown[sig] = {}
                if minus:
                    removed += map(texts.pop, minus)
                if plus:
                    if sig[1] == 2:
                        new = [f"{name}({a},{b})" for a, b in plus]
                    elif sig[1] == 1:
                        new = [f"{name}({a})" for a, in plus]
                    else:
                        new = [f"{name}({x})" for x in map(",".join, plus)]
                    texts.update(zip(plus, new))
                    added += new
            else:
                removed += [name for row in minus]
                added += [name for row in plus]
        added.sort()
        removed.sort()
        answer = self.answer
        answer.update(added, removed)
        if self.counts[_FALSE]:  # a constraint holds: no answer stream at t
            self.valid = False
            return Step(t, [], delta=None)
        delta = (tuple(added), tuple(removed)) if self.valid else None
        self.valid = True
        return Step(t, [answer.atoms()], delta=delta, encoded=answer.encoded() if self.solver.encode_json else None,
                    rows=rows if delta is not None else None)


_BLOCK = 1000  # atoms per block of a _SortedAnswer (split at twice that)
#: the characters that ``json.dumps(…, ensure_ascii=False)`` escapes in a string
#: (``json.encoder.ESCAPE``: the controls, the quote and the backslash), as bytes
_JSON_ESCAPED = bytes(range(32)) + b'"\\'
_QUOTES = '", "'


class _SortedAnswer:
    """The answer's atom texts, sorted, kept in blocks (as ``sortedcontainers.SortedList`` does):
    a change of k atoms touches the blocks they fall in (bisect on the blocks' last texts), so
    keeping the answer sorted costs the change, not the answer's size. Each block caches its JSON
    encoding (``json.dumps`` of the list without its brackets), so the JSON line of the whole
    answer is a join of cached pieces (``Step.encoded``), byte for byte what ``json.dumps`` of the
    sorted list prints."""

    __slots__ = ("blocks", "maxes", "enc", "flat", "plain")

    def __init__(self) -> None:
        self.blocks: list[list[str]] = []
        self.maxes: list[str] = []  # the last text of each block
        self.enc: list[str | None] = []  # each block's JSON encoding (None: not computed yet)
        self.flat: tuple[str, ...] | None = ()  # the atoms as one tuple (None: not computed yet)
        # no text added so far has a character that JSON escapes: a block's encoding is then its
        # texts in quotes joined by '", "' (``encoded``)
        self.plain = True

    def update(self, added: list[str], removed: list[str]) -> None:
        """Remove the sorted texts ``removed`` (present) and add the sorted texts ``added`` (absent)."""
        if not added and not removed:
            return
        blocks, maxes, enc = self.blocks, self.maxes, self.enc
        self.flat = None
        if self.plain and added:
            # UTF-8 (surrogates passed) keeps every character below 128 as its byte, and writes
            # the others as bytes of 128 and more: deleting the escaped bytes changes the length
            # iff some text has a character to escape
            text = "".join(added).encode("utf-8", "surrogatepass")
            if len(text.translate(None, _JSON_ESCAPED)) != len(text):
                self.plain = False
        dirty = set()
        i, n = 0, len(removed)
        while i < n:
            j = bisect_left(maxes, removed[i])
            hi = bisect_right(removed, maxes[j], i)
            block = blocks[j]
            if hi - i == 1:
                del block[bisect_left(block, removed[i])]
            else:
                lo, run = bisect_left(block, removed[i]), removed[i:hi]
                if block[lo:lo + len(run)] == run:  # consecutive in the block (e.g. one time point's atoms)
                    del block[lo:lo + len(run)]
                else:
                    blocks[j] = list(filterfalse(set(run).__contains__, block))
            dirty.add(j)
            i = hi
        i, n = 0, len(added)
        if n and not blocks:
            blocks.append([])
            maxes.append(added[-1])
            enc.append(None)
        last = len(blocks) - 1
        while i < n:
            j = min(bisect_left(maxes, added[i]), last)
            hi = n if j == last else bisect_right(added, maxes[j], i)
            block = blocks[j]
            if hi - i == 1:
                insort(block, added[i])
            else:
                lo = bisect_left(block, added[i])
                if lo == len(block) or added[hi - 1] < block[lo]:  # all between two neighbours
                    block[lo:lo] = added[i:hi]
                else:
                    block += added[i:hi]
                    block.sort()  # two sorted runs: one merge
            dirty.add(j)
            i = hi
        if not dirty:
            return
        new_blocks: list[list[str]] = []
        new_enc: list[str | None] = []
        for j, block in enumerate(blocks):
            if j not in dirty:
                new_blocks.append(block)
                new_enc.append(enc[j])
            elif len(block) > 2 * _BLOCK:
                for k in range(0, len(block), _BLOCK):
                    new_blocks.append(block[k:k + _BLOCK])
                    new_enc.append(None)
            elif block:
                new_blocks.append(block)
                new_enc.append(None)
        self.blocks, self.enc = new_blocks, new_enc
        self.maxes = [b[-1] for b in new_blocks]

    def atoms(self) -> tuple[str, ...]:
        if self.flat is None:
            out: list[str] = []
            for block in self.blocks:
                out += block
            self.flat = tuple(out)
        return self.flat

    def encoded(self) -> str:
        """The JSON array of the atoms without its brackets (``json.dumps(…, ensure_ascii=False)``)."""
        enc = self.enc
        plain = self.plain
        for j, e in enumerate(enc):
            if e is None:
                if plain:  # what json.dumps writes for strings without a character to escape
                    enc[j] = f'"{_QUOTES.join(self.blocks[j])}"'
                else:
                    enc[j] = _dumps(self.blocks[j], ensure_ascii=False)[1:-1]
        return ", ".join(enc)  # type: ignore[arg-type]
