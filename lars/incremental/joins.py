"""The delta rule of the incremental engine for a batch of changed rows (hash joins).

Counting view maintenance (Gupta, Mumick, Subrahmanian, SIGMOD 1993) finds the rule instances that
use a changed row by joining the row against the other literals of the rule's body (the *delta
rule*). :class:`BatchJoin` does it for a whole batch of changed rows at once, one operation per
step of the rule's plan (``lars.incremental.planning.plan``), each mapping the list of bindings to
the next in bulk.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter
from typing import Callable, Iterator, Protocol

from lars.incremental.rules import CompiledRule, term_variables
from lars.incremental.texts import CACHE_MAX
from lars.model import Comparison, Constant, Integer, String, Term, Variable
from lars.printer import format_term

#: the value of a term that clingo leaves undefined (``JoinState.assigned``)
UNDEFINED = object()
#: scans of a relation for a key of constants before it gets an index on it
CONSTANT_SCANS = 16


def tuple_getter(positions) -> Callable[[tuple], tuple]:
    """``row -> tuple(row[k] for k in positions)`` at C speed (``itemgetter``, always a tuple)."""
    positions = tuple(positions)
    if not positions:
        return lambda row: ()
    if len(positions) == 1:
        (k,) = positions
        return lambda row: (row[k],)
    return itemgetter(*positions)


def specs_getter(spec) -> Callable[[list], list]:
    """``bindings -> [tuple per binding]`` for ``spec`` (``spec`` lists (is a slot, slot or canonical text) per position), in bulk: the
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


def filterfalse_pairs(items: list, keys: list, have) -> Iterator:
    """The items whose key is not in ``have`` (C code: ``compress`` over the membership tests)."""
    return compress(items, map((False).__eq__, map(have.__contains__, keys)))


class JoinState(Protocol):
    """What a batch join reads of the engine's run (``lars.incremental.engine.Engine``)."""

    #: relation key -> its rows and indexes (``lars.incremental.relations.Relation``)
    rels: dict
    #: (relation, key positions) -> scans for a key of constants so far (``CONSTANT_SCANS``)
    const_scans: dict

    def holds(self, c: Comparison, names: tuple, vals: tuple) -> bool:
        """Does ``c`` hold when its variables ``names`` have the terms whose texts are ``vals``?"""
        ...

    def assigned(self, term: Term, names: tuple, vals: tuple) -> object:
        """The text of ``term``'s value under the same binding (``UNDEFINED``: undefined)."""
        ...


#: one step of a batch join: (run state, bindings, changed rows excluded) -> the next bindings
Operation = Callable[[JoinState, list, object], list]


def _constant_key_join(rel: tuple, keys: tuple, consts: tuple, rest_of: Callable, exclude: bool) -> Operation:
    """A literal whose bound positions hold constants only: the same key for the whole batch,
    found by one scan, or by the index once the scans add up (its index is not kept up to date at
    every change of a relation that the batch reads rarely, e.g. a 0-ary seed)."""
    key = tuple([v for _, v in consts])

    def join(state: JoinState, bs: list, excl) -> list:
        table = state.rels[rel]
        scans = state.const_scans
        n = scans[rel, keys] = scans.get((rel, keys), 0) + 1
        if n <= CONSTANT_SCANS and keys not in table.indexes:  # the rows that hold the constants
            cands = [c for c in table.rows if all(c[k] == v for k, v in consts)]
        else:
            cands = table.index(keys).get(key, ())
        if exclude:
            cands = [c for c in cands if c not in excl]
        if not cands:
            return []
        ext = list(map(rest_of, cands))
        return [b + e for b in bs for e in ext]

    return join


def _membership(rel: tuple, key_of: Callable, var_pos: tuple, exclude: bool) -> Operation:
    """A literal whose every position is bound: a membership test per binding."""
    if not var_pos and not exclude:  # a key of constants (e.g. a 0-ary literal): one test for all
        def constant(state: JoinState, bs: list, excl) -> list:
            return bs if key_of([()])[0] in state.rels[rel].rows else []

        return constant
    if exclude:
        def excluding(state: JoinState, bs: list, excl) -> list:
            have = state.rels[rel].rows
            return [b for b, key in zip(bs, key_of(bs)) if key in have and key not in excl]

        return excluding

    def member(state: JoinState, bs: list, excl) -> list:
        return list(compress(bs, map(state.rels[rel].rows.__contains__, key_of(bs))))

    return member


def _cross_product(rel: tuple, rest_of: Callable, exclude: bool) -> Operation:
    """A literal with nothing bound (e.g. a 0-ary or unrelated literal): every row of it."""
    def cross(state: JoinState, bs: list, excl) -> list:
        rows = state.rels[rel].rows
        cands = [c for c in rows if c not in excl] if exclude else rows
        if not cands:
            return []
        ext = list(map(rest_of, cands))
        return [b + e for b in bs for e in ext]

    return cross


def _hash_join(rel: tuple, var_pos: tuple, slots_of: Callable, rest_of: Callable, exclude: bool,
               one_key: int | None, one_rest: int | None, tail: tuple) -> Operation:
    """A literal with variables bound: the rows of the index on their positions (followed by those
    of the key's constants: ``triple(O, "<p>", V, s)`` bound on O reads the rows of O with that
    predicate, not every row of O), the look-up key the binding's values followed by the constants."""
    if one_key is not None and not exclude:  # the common join: one bound variable, one new one
        if tail:  # the key's constants, after the variable's value
            def one_with_constants(state: JoinState, bs: list, excl) -> list:
                get = state.rels[rel].index(var_pos).get
                out = []
                for b in bs:
                    cands = get((b[one_key], *tail))
                    if cands:
                        for c in cands:
                            out.append((*b, c[one_rest]))
                return out

            return one_with_constants

        def one(state: JoinState, bs: list, excl) -> list:
            get = state.rels[rel].index(var_pos).get
            out = []
            for b in bs:
                cands = get((b[one_key],))
                if cands:
                    for c in cands:
                        out.append((*b, c[one_rest]))
            return out

        return one
    if exclude:
        def excluding(state: JoinState, bs: list, excl) -> list:
            get = state.rels[rel].index(var_pos).get
            out = []
            for b, key in zip(bs, slots_of(bs)):
                cands = get(key)
                if cands:
                    for c in cands:
                        if c not in excl:
                            out.append(b + rest_of(c))
            return out

        return excluding

    def general(state: JoinState, bs: list, excl) -> list:
        get = state.rels[rel].index(var_pos).get
        out = []
        for b, key in zip(bs, slots_of(bs)):
            cands = get(key)
            if cands:
                for c in cands:
                    out.append(b + rest_of(c))
        return out

    return general


def _comparison(c: Comparison, vals_of: Callable, names: tuple) -> Operation:
    """A comparison: decided once per distinct tuple of its variables' texts (the built-ins are
    functions of their arguments), the results kept in a bounded memo."""
    memo: dict = {}

    def compare(state: JoinState, bs: list, excl) -> list:
        keep = []
        for b in bs:
            vals = vals_of(b)
            got = memo.get(vals)
            if got is None:
                if len(memo) >= CACHE_MAX:
                    memo.clear()
                got = memo[vals] = state.holds(c, names, vals)
            if got:
                keep.append(b)
        return keep

    return compare


def _assignment(term: Term, vals_of: Callable, names: tuple) -> Operation:
    """An assignment ``V = term``: its value computed once per distinct tuple of its variables'
    texts, appended to each binding (bindings where it is undefined are dropped)."""
    memo: dict = {}

    def assign(state: JoinState, bs: list, excl) -> list:
        out = []
        for b in bs:
            vals = vals_of(b)
            got = memo.get(vals)
            if got is None:
                if len(memo) >= CACHE_MAX:
                    memo.clear()
                got = memo[vals] = state.assigned(term, names, vals)
            if got is not UNDEFINED:
                out.append(b + (got,))
        return out

    return assign


def _negation(rel: tuple, ground_of: Callable, exclude: bool) -> Operation:
    """A negated literal (all bound): the bindings whose ground atom is not in the relation."""
    if exclude:
        def excluding(state: JoinState, bs: list, excl) -> list:
            have = state.rels[rel].rows
            return [b for b, g in zip(bs, ground_of(bs)) if g not in have and g not in excl]

        return excluding

    def absent(state: JoinState, bs: list, excl) -> list:
        return list(filterfalse_pairs(bs, ground_of(bs), state.rels[rel].rows))

    return absent


class BatchJoin:
    """The delta rule of one rule seeded at one literal, for a whole batch of changed rows at once
    (``Engine.propagate``): a binding is a tuple of canonical texts, one slot per variable in the
    order they are bound; each step of the rule's plan (``lars.incremental.planning.plan``) is
    compiled into an :data:`Operation` that maps the list of bindings to the next — a positive
    literal by a hash join on the relation's index over the bound positions, a negated one by a
    look-up, a comparison or an assignment by its value computed once per distinct tuple of its
    variables' texts — and the head rows are read off the final bindings. Plans with compound
    patterns, computed arguments of the seed, or repeated variables among newly bound positions
    are left to the row-by-row path (``compile`` gives ``None``)."""

    def __init__(self) -> None:
        self.seed_consts: tuple = ()
        self.seed_eqs: tuple = ()
        self.bind: Callable | None = None
        self.ops: list[Operation] = []
        self.head: Callable | None = None
        self.head_consts: tuple = ()

    @classmethod
    def compile(cls, r: CompiledRule, seed: int) -> "BatchJoin | None":
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
        self.bind = None if order == list(range(len(lit.args))) else tuple_getter(order)
        for step in r.plans[seed]:
            op = _operation(r, seed, step, slots)
            if op is None:
                return None
            self.ops.append(op)
        if r.head_spec is None:
            return None
        self._compile_head(r.head_spec, slots)
        return self

    def _compile_head(self, head_spec: tuple, slots: dict[str, int]) -> None:
        spec = [(True, slots[x]) if is_var else (False, x) for is_var, x in head_spec]
        if all(is_slot for is_slot, _ in spec):
            self.head = tuple_getter([x for _, x in spec])
            return
        # constants in the head: read off the binding followed by the constants
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
        self.head = None if positions == list(range(width + len(consts))) else tuple_getter(positions)

    def run(self, state: JoinState, rows, excl, columns: "dict | None" = None) -> list[tuple]:
        """The head rows of the instances whose seed literal is one of ``rows`` (with repeats).
        ``columns``: the batch's columns by position, shared by the rules seeded on the same
        batch (``Engine.propagate``), which select their rows on the constants of their seed
        (``triple(S, "<p>", O, stream)``) by one comparison per row in C, not a loop each, after
        a look-up in the set of each column's values (kept under the key ``-1 - position``)."""
        bs = self._seed_bindings(rows, columns)
        for op in self.ops:
            if not bs:
                return []
            bs = op(state, bs, excl)
        if self.head_consts:
            consts = self.head_consts
            bs = [b + consts for b in bs]
            if self.head is None:
                return bs
        return list(map(self.head, bs))  # type: ignore[arg-type]

    def _seed_bindings(self, rows, columns: "dict | None") -> list:
        """The bindings of the rows that match the seed literal (its constants, its repeated variables)."""
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
        return bs


def _operation(r: CompiledRule, seed: int, step: tuple, slots: dict[str, int]) -> Operation | None:
    """The batch operation of one step of the plan of ``r`` seeded at ``seed`` (``None``: the step
    needs the row-by-row path); ``slots`` (variable -> slot of the binding) grows by the variables
    the step binds."""
    kind = step[0]
    if kind == "lit":
        return _literal_operation(r, seed, step, slots)
    if kind in ("cmp", "assign"):
        term = step[1] if kind == "cmp" else step[2]
        names = sorted(term_variables(term) if kind == "assign" else term_variables(term.left) | term_variables(term.right))
        if any(n not in slots for n in names):
            return None
        vals_of = tuple_getter([slots[n] for n in names])
        if kind == "cmp":
            return _comparison(term, vals_of, tuple(names))
        slots[step[1]] = len(slots)
        return _assignment(term, vals_of, tuple(names))
    if kind == "neg":
        _, j, args = step
        spec = [_slot_spec(a, slots) for a in args]
        if any(x is None for x in spec):
            return None
        rel = r.lits[j].rel
        return _negation(rel, specs_getter(spec), rel == r.lits[seed].rel and j < seed)
    return None  # seedcheck: a computed argument of the seed


def _slot_spec(term, slots: dict[str, int]) -> tuple | None:
    """``(True, slot)`` of a bound variable, ``(False, text)`` of a constant, else ``None``."""
    if isinstance(term, Variable):
        return (True, slots[term.name]) if term.name in slots else None
    if isinstance(term, (Constant, Integer, String)):
        return (False, format_term(term))
    return None


def _literal_operation(r: CompiledRule, seed: int, step: tuple, slots: dict[str, int]) -> Operation | None:
    """The join of a positive literal of the plan (see :func:`_operation`)."""
    _, j, keys, key_terms, rest = step
    other = r.lits[j]
    if other.funcs or any(not isinstance(other.args[p], Variable) for p in rest):
        return None
    names = [other.args[p].name for p in rest]
    if len(set(names)) != len(names) or any(n in slots for n in names):
        return None
    spec = [_slot_spec(a, slots) for a in key_terms]
    if any(x is None for x in spec):
        return None
    rel = other.rel
    exclude = rel == r.lits[seed].rel and j < seed
    full = len(keys) == len(other.args)
    key_slots = tuple(x for is_slot, x in spec if is_slot)  # type: ignore[misc]
    rest_of = tuple_getter(rest)
    for n in names:
        slots[n] = len(slots)
    if not key_slots and not full and keys:  # constants only: the same key for the whole batch (no key: _cross_product)
        return _constant_key_join(rel, keys, tuple(zip(keys, (x for _, x in spec))), rest_of, exclude)  # type: ignore[misc]
    var_pos = tuple(k for k, (is_slot, _) in zip(keys, spec) if is_slot)  # type: ignore[misc]
    if full:
        return _membership(rel, specs_getter(spec), var_pos, exclude)
    if not keys:
        return _cross_product(rel, rest_of, exclude)
    tail = tuple(x for is_slot, x in spec if not is_slot)  # type: ignore[misc]
    if key_slots:
        var_pos += tuple(k for k, (is_slot, _) in zip(keys, spec) if not is_slot)  # type: ignore[misc]
    return _hash_join(rel, var_pos, specs_getter([(True, x) for x in key_slots] + [(False, x) for x in tail]), rest_of,
                      exclude, key_slots[0] if len(key_slots) == 1 and len(rest) == 1 else None,
                      rest[0] if len(rest) == 1 else None, tail)
