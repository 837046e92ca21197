"""Aggregates and positive recursion in the incremental engine (``lars.incremental``).

The incremental engine keeps derived relations by the counting algorithm of view maintenance
(Gupta, Mumick, Subrahmanian, SIGMOD 1993), which is exact for non-recursive rules without
aggregates. Two kinds of rules fall outside it; this module evaluates them as *blocks*, nodes of
the engine's topological order that are recomputed whenever one of the relations they read
changed in the step, their result diffed against the previous one (a row that appears gives its
head one support, a row that vanishes takes it back: the rest of the engine keeps counting):

* **An aggregate rule** (``lars.model.AggregateAssignment``: ``#count``, ``#sum``, ``#min``,
  ``#max``, clingo's aggregates as ``lars.reference`` defines them (its module doc, §5);
  and external aggregates ``#@name``, the function of the multiset of first terms):
  the rule's other literals and the comparisons they bind (its *core*) are matched with the
  engine's join plans; for each instance, every aggregate takes the set of tuples of its elements'
  instances under the global variables (those of the elements that occur elsewhere in the body),
  computed once per group and step; ``#count``/``#sum`` of an empty set are 0, ``#min``/``#max``
  of one have no value and an assignment from it does not hold; then the comparisons that need
  the aggregates' values, then the head. The elements' predicates lie in lower strata (the block
  node comes after them in the order; a cycle through an aggregate is refused, as the reference
  refuses it).
* **A recursive component** (a strongly connected component of the predicate dependency graph of
  the intensional predicates, Apt, Blair, Walker 1988; without negation or aggregates inside it):
  its rules are evaluated to their least fixpoint over the current relations of the lower strata
  by semi-naive evaluation (Bancilhon, Ramakrishnan 1986; each new row is joined, through the
  engine's delta plans, against the rows found so far), the component's facts and stream atoms (D11)
  included. Recomputation, as DRed's rederivation does it for a whole component (Gupta et al.
  §5), is exact for any positive recursion — cyclic derivations included, where counting is not.

Blocks are exact by construction: each recomputation is the definition applied to the current
lower strata, which the engine has already brought up to date (the block node is flushed after
every relation it reads). Two refinements keep the work near the change:

* **Kept aggregates** (``_maintain``): when the groups of an aggregate can be enumerated (its
  global variables are bound by its condition, or by the rule's other literals, whose projection
  on them then guards the condition), the engine keeps the set of element tuples as a relation
  (``#e``) by the counting algorithm, and each group's count, sum and multiset of first terms
  (``_Group``) follow its changes; the block then reads a group's value in O(1) (#min/#max and
  external aggregates: computed from the multiset when the group changed, cached until it changes
  again).
* **Partitions** (``_partition``, ``_partition_aggregate``): when every rule of a block keeps a
  variable from its inputs to its head (a component: the same argument position of every
  predicate of the component in every rule; an aggregate rule: a head variable its core binds),
  the block's result is the union of independent ones per value of that variable, and only the
  values named by the changed input rows (watched row by row, ``#chg``) are recomputed, with the
  variable bound first. An input without the variable makes the step recompute everything.

Work per step is then the size of the changed partitions' inputs, nothing when no input changed.

A rule with a built-in call over two relations that blocks change is made a block as well
(``split_blocks``): the counting algorithm would evaluate it on intermediate states (the new value
of one input with the old value of the other), where a built-in may fail.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import gt, itemgetter, lt
from typing import Any, Iterator

from lars.bounds import TERM_CACHE_SIZE
from lars.model import AggregateAssignment, Atom, Call, Comparison, Constant, Integer, Literal, String, Variable
from lars.printer import format_term
from lars.evaluation import COMPARE, Undefined, clingo_order, comparison_holds, evaluate, external_aggregate, strongly_connected
from lars.incremental.planning import plan, plan_rule
from lars.incremental.relations import Relation
from lars.incremental.rules import NEG, NOW, WIN, CompiledRule, Lit, NotInFragment, called_functions, rename_wildcards, term_variables


#: ``a op b`` as ``b op' a``: the comparison with its sides swapped
_SWAPPED = {op: (lambda f: lambda x, y: f(y, x))(f) for op, f in COMPARE.items()}


@dataclass(eq=False)
class _Aggregate:
    agg: AggregateAssignment
    globals_: tuple[str, ...]
    conds: list  # one CompiledRule per element: a binding literal of the globals, the condition, the terms
    node: "tuple | None" = None  # the relation of its element tuples kept by the engine (``_maintain``)
    functions: list = field(default_factory=list)  # the node's owner: the functions of the aggregates that share it


@dataclass(eq=False)
class AggregateBlock:
    """One rule with aggregates (see the module docstring)."""

    head: tuple
    head_args: tuple
    core: CompiledRule  # the other literals and the comparisons they bind, no head
    items: list  # the aggregates and the comparisons/negated literals left after the core, in order
    head_spec: "tuple | None" = None
    core_bound: frozenset = frozenset()  # the variables the core binds
    pos: "dict | None" = None  # {head: the position of the partition variable} (``_partition_aggregate``)
    seeded: "tuple | None" = None  # the core binding the partition variable first, and its name
    input_pos: dict = field(default_factory=dict)  # as RecursiveBlock's
    steps: "list | None" = None  # the items compiled (``_compile_items``), built when first evaluated
    direct: Any = None  # ``_direct``'s evaluation of given partitions (False: none), built when first asked

    @property
    def sigs(self) -> tuple:
        return (self.head,)

    def evaluate(self, engine, keys: "set | None" = None) -> dict[tuple, set[tuple]]:
        """The head rows; with ``keys``, those whose partition variable is one of them."""
        if keys is not None:
            direct = self.direct
            if direct is None:
                direct = self.direct = _direct(self) or False
            if direct:
                return {self.head: set(direct(engine, keys).values())}
        rows: set[tuple] = set()
        cache: dict = {}
        core = self.core
        steps = self.steps
        copy = True
        if steps is None:
            steps = self.steps = _compile_items(self)
        if keys is None:
            instances = engine.instances(core, core.plans[None], 0, {}, None, None, None, ())
        else:
            seeded, var = self.seeded  # type: ignore[misc]
            plan = seeded.plans[0]
            if seeded.flat.get(0):  # the core only checks, once the partition variable is bound
                checks = engine.instance_holds
                instances = (th for th in ({var: k} for k in keys) if checks(seeded, plan, th, ("#bind",), (th[var],), 0, ()))
                copy = False  # fresh dicts, which the checks do not keep
            else:
                instances = (th for k in keys for th in engine.instances(seeded, plan, 0, {var: k}, ("#bind",), (k,), 0, ()))
        head_args, head_spec = self.head_args, self.head_spec
        for theta in instances:
            if copy:
                theta = dict(theta)  # the items extend it in place
            for step in steps:
                if not step(engine, theta, cache):
                    break
            else:
                row = _head_row(engine, head_args, head_spec, theta)
                if row is not None:
                    rows.add(row)
        return {self.head: rows}


def _direct(block: AggregateBlock):
    """``block.evaluate(engine, keys)`` for a common shape, as a function ``(engine, keys) -> {key:
    its head row}`` (a partition has one row at most: the core only checks, each item holds or
    binds once) that does the same work without the general machinery (``None`` for other shapes): the
    core, with the partition variable bound, only checks literals whose arguments are that
    variable (``group(K)``, ``trigger``: a membership test each), the items are kept aggregates
    assigned to a new variable (``V = #@sparql_avg_of{…}``, ``N = #count{…}``), comparisons of
    plain terms all bound, tests ``@f(…) op t`` of a call on plain arguments against a plain term
    (HAVING's ``@sparql_test(…) = 1``), and assignments ``X = @f(…)`` of plain arguments, and the head is plain.
    What each item binds is then known before any instance (an item holds or stops the
    instance), so each is compiled to its one case of ``_agg_step``/``_cmp_step``/``_settle``;
    the values are theirs (``_Group.value``, the cached clingo order, the engine's function
    cached by argument texts), so the rows are those of the general evaluation, as
    tests/lars/test_incremental_aggregates_direct.py checks against it."""
    if block.seeded is None or block.head_spec is None:
        return None
    seeded, var = block.seeded
    if not seeded.flat.get(0):
        return None
    checks = []  # (relation, arity): the row (k, …, k) must hold
    for step in seeded.plans[0]:
        if step[0] != "lit":
            return None
        lit = seeded.lits[step[1]]
        if lit.negated or len(step[2]) != len(lit.args) or not all(isinstance(a, Variable) and a.name == var for a in lit.args):
            return None
        if lit.rel != ("#bind",):
            checks.append((lit.rel, len(lit.args)))
    bound = {var}
    ops: list[Any] = []  # (kind, …) per item, as evaluate reads them
    for kind, item in block.items:
        if kind == "agg":
            left = item.agg.left
            if item.node is None or item.agg.op != "=" or not isinstance(left, Variable) or left.name in bound \
                    or not set(item.globals_) <= bound:
                return None
            # (the globals: None when they are the partition variable alone, the group's key is then (k,))
            ops.append(("agg", item.node, None if item.globals_ == (var,) else item.globals_, item.agg.function, left.name))
            bound.add(left.name)
        elif kind == "cmp":
            c = item
            if not (term_variables(c.left) | term_variables(c.right)) - bound:
                if _plain(c.left) and _plain(c.right):
                    ops.append(("cmp", COMPARE[c.op], _side(c.left), _side(c.right)))
                    continue
                # a test ``@f(…) op t`` (HAVING's ``@sparql_test(…) = 1``): the call's text, cached
                # per argument texts as an assignment's, compared with t in clingo's order
                for call, other, compare in ((c.left, c.right, COMPARE[c.op]), (c.right, c.left, _SWAPPED[c.op])):
                    if isinstance(call, Call) and all(map(_plain, call.args)) and _plain(other):
                        ops.append(("test", object(), call, compare, _side(other)))
                        break
                else:
                    return None
                continue
            var_, other = (c.left, c.right) if isinstance(c.left, Variable) and c.left.name not in bound else (c.right, c.left)
            if c.op != "=" or not isinstance(var_, Variable) or var_.name in bound or not isinstance(other, Call) \
                    or not all(map(_plain, other.args)) or term_variables(other) - bound:
                return None
            ops.append(("call", object(), other, var_.name))
            bound.add(var_.name)
        else:
            return None
    if any(is_var and name not in bound for is_var, name in block.head_spec):
        return None
    spec = block.head_spec
    value_of = _Group.value
    names = [v for is_var, v in spec]
    # the head row from θ: by one itemgetter when the head is two or more variables
    row_of = itemgetter(*names) if len(names) > 1 and all(is_var for is_var, _ in spec) else None

    def evaluate(engine, keys) -> dict:
        rels, blk = engine.rels, engine.blk
        tables = [(rels[rel].rows, arity) for rel, arity in checks]
        groups = {op[1]: blk.get(op[1]) or {} for op in ops if op[0] == "agg"}
        order: Any = _order_keys(engine) if any(op[0] in ("cmp", "test") for op in ops) else None
        rows = {}
        for k in keys:
            for table, arity in tables:
                if (k,) * arity not in table:
                    break
            else:
                theta = {var: k}
                for op in ops:
                    what = op[0]
                    if what == "agg":
                        _, node, globals_, function, name = op
                        got = groups[node].get((k,) if globals_ is None else tuple([theta[g] for g in globals_]))
                        value = value_of(got, function, engine)
                        if value is None:  # #min/#max of nothing assigns nothing
                            break
                        theta[name] = value
                    elif what == "cmp":
                        _, compare, (lname, lorder), (rname, rorder) = op
                        if not compare(lorder if lname is None else order(theta[lname]), rorder if rname is None else order(theta[rname])):
                            break
                    elif what == "test":
                        _, slot, call, compare, (rname, rorder) = op
                        try:
                            text = _call_text(engine, slot, call, theta)
                        except Undefined:
                            break
                        if not compare(order(text), rorder if rname is None else order(theta[rname])):
                            break
                    else:  # X = @f(…): the text cached per argument texts, as _cmp_step
                        _, slot, call, name = op
                        try:
                            theta[name] = _call_text(engine, slot, call, theta)
                        except Undefined:
                            break
                else:
                    rows[k] = row_of(theta) if row_of is not None else tuple([theta[v] if is_var else v for is_var, v in spec])
        return rows

    return evaluate


def _compile_items(block: AggregateBlock) -> list:
    """The items after the core of ``block``, in order (an aggregate's value, a comparison, a
    negated literal: each holds or binds at most once, so a core instance extends to at most one)
    as functions ``step(engine, theta, cache)`` that extend θ in place and say whether the instance goes on,
    with what can be known before any instance decided once: the kind of each item, the variables
    a comparison needs, whether its sides are plain terms (compared by their cached clingo order,
    as ``comparison_holds`` compares them) and, for a kept aggregate, where its groups are."""
    return [_agg_step(item) if kind == "agg" else _neg_step(item) if kind == "neg" else _cmp_step(item)
            for kind, item in block.items]


def _plain(term) -> bool:
    return isinstance(term, (Variable, Constant, Integer, String))


def _side(term):
    """A plain term as ``(variable name, None)`` or ``(None, its clingo order)``."""
    return (term.name, None) if isinstance(term, Variable) else (None, clingo_order(term))


def _cmp_step(c: Comparison):
    needed = tuple(sorted(term_variables(c.left) | term_variables(c.right)))
    compare = COMPARE[c.op]
    plain = _plain(c.left) and _plain(c.right)
    sides: Any = (_side(c.left), _side(c.right)) if plain else ((None, None), (None, None))
    (lname, lorder), (rname, rorder) = sides

    slot = object()  # engine.blk[slot]: for X = @f(Y, …) with plain arguments, the value's text by the arguments' texts

    def step(engine, theta: dict, cache: dict) -> bool:
        unbound = [v for v in needed if v not in theta]
        if unbound:  # an assignment X = term (X the only unbound variable, as the items are ordered)
            var, other = (c.left, c.right) if isinstance(c.left, Variable) and c.left.name in unbound else (c.right, c.left)
            if isinstance(other, Call) and all(map(_plain, other.args)):
                try:
                    theta[var.name] = _call_text(engine, slot, other, theta)  # type: ignore[union-attr]
                except Undefined:
                    return False
                return True
            try:
                theta[var.name] = engine.value(other, theta)  # type: ignore[union-attr]
            except Undefined:
                return False
            return True
        if not plain:
            return _holds(engine, c, theta)
        order = _order_keys(engine)
        return compare(lorder if lname is None else order(theta[lname]), rorder if rname is None else order(theta[rname]))

    return step


def _call_text(engine, slot: object, call: Call, theta: dict) -> str:
    """The text of ``call``'s value under θ (plain arguments), cached per argument texts in
    ``engine.blk[slot]`` (the engine's functions are cached per argument tuple, ``CachedFunction``: so is
    the text); raises ``Undefined``."""
    calls = engine.blk.get(slot)
    if calls is None:
        calls = engine.blk[slot] = {}
    key = tuple([theta[a.name] if isinstance(a, Variable) else a for a in call.args])
    got = calls.get(key)
    if got is None:
        got = engine.value(call, theta)
        if len(calls) >= _KEYS_MAX:
            calls.clear()
        calls[key] = got
    return got


def _neg_step(lit):
    args = tuple(lit.args)

    def step(engine, theta: dict, cache: dict) -> bool:
        try:
            ground = tuple([engine.value(a, theta) for a in args])
        except Undefined:
            return True
        return ground not in engine.rels[lit.rel].rows

    return step


def _agg_step(a: _Aggregate):
    if a.node is None:  # recomputed per group from its condition
        def recompute(engine, theta: dict, cache: dict) -> bool:
            return _settle(engine, a.agg, theta, _aggregate_value(engine, a, theta, cache))

        return recompute
    node, globals_, function, agg = a.node, a.globals_, a.agg.function, a.agg
    value_of = _Group.value

    def step(engine, theta: dict, cache: dict) -> bool:
        groups = engine.blk.get(node)
        group = groups.get(tuple([theta[g] for g in globals_])) if groups else None
        return _settle(engine, agg, theta, value_of(group, function, engine))

    return step


def _settle(engine, agg: AggregateAssignment, theta: dict, value: "str | None") -> bool:
    """``left op value`` under θ as ``lars.reference`` evaluates an aggregate
    (its module doc, §5; ``value`` its text, ``None`` for #min/#max of nothing): an unbound
    ``left`` is assigned in θ (nothing assigned: fails), a bound one compared in clingo's order."""
    left = agg.left
    if isinstance(left, Variable) and left.name not in theta:
        if value is None:  # #min/#max of nothing assigns nothing
            return False
        theta[left.name] = value
        return True
    try:
        bound = engine.value(left, theta)
    except Undefined:
        return False
    if value is None:  # #sup is above every term, #inf below
        return {"=": False, "!=": True}.get(agg.op, (agg.op in ("<", "<=")) == (agg.function == "min"))
    order = _order_keys(engine)
    return COMPARE[agg.op](order(bound), order(value))


def _holds(engine, c: Comparison, theta: dict) -> bool:
    return comparison_holds(c, engine.terms(theta), engine.functions)


def _aggregate_value(engine, a: _Aggregate, theta: dict, cache: dict) -> "str | None":
    """The value (text) of aggregate ``a`` in the group of θ, as ``lars.reference`` computes it
    (its module doc, §5; ``None``: #min/#max of nothing), once per group and evaluation."""
    agg = a.agg
    key = (id(a), tuple([theta[g] for g in a.globals_]))
    value = cache.get(key, _MISSING)
    if value is _MISSING and a.node is not None:  # kept per group as the element tuples change
        group = engine.blk.get(a.node, {}).get(key[1])
        value = cache[key] = _Group.value(group, agg.function, engine)
    if value is _MISSING:
        tuples: set[tuple] = set()
        start = {g: theta[g] for g in a.globals_}
        row = tuple([start[g] for g in a.globals_])
        for cond in a.conds:
            for th in engine.instances(cond, cond.plans[0], 0, start, ("#bind",), row, 0, ()):
                try:
                    tuples.add(tuple([engine.value(t, th) for t in cond.head_args]))
                except (Undefined, KeyError):
                    continue
        firsts = [tup[0] for tup in tuples]
        if agg.function[0] == "@":
            value = _external(engine, agg.function, Counter(firsts))
        elif agg.function == "count":
            value = str(len(tuples))
        elif agg.function == "sum":
            value = str(sum(x.value for x in map(engine.term, firsts) if isinstance(x, Integer)))
        elif not firsts:
            value = None  # #sup for #min, #inf for #max: no term
        else:
            pick = min if agg.function == "min" else max
            value = pick(firsts, key=_order_keys(engine))
        cache[key] = value
    return value


_MISSING = object()
_KEYS_MAX = TERM_CACHE_SIZE


def _external(engine, function: str, firsts) -> str:
    """``#@name{…}`` over the multiset of first terms (texts -> number of tuples), as
    ``lars.evaluation.external_aggregate``; the value as text."""
    term = engine.term
    return format_term(external_aggregate(function, {term(t): k for t, k in firsts.items()}, engine.aggregate_functions))


def _order_keys(engine):
    """clingo's order of a term given by its text (``lars.evaluation.clingo_order``), cached per
    engine (cleared when large, as the engine's other caches)."""
    keys = engine.blk.get("#sortkeys")
    if keys is None or len(keys) > _KEYS_MAX:
        keys = engine.blk["#sortkeys"] = {}

    def key(text: str) -> tuple:
        got = keys.get(text)
        if got is None:
            got = keys[text] = clingo_order(engine.term(text))
        return got

    return key


class _Group:
    """The element tuples of one group of a kept aggregate (of the aggregates that share its
    element relation, ``_maintain``): their number, and, when one of the functions needs them,
    the sum of their first terms that are integers (``#sum``) and the first terms' texts with
    their multiplicities (for #min/#max and external aggregates); for an external aggregate whose
    function offers it, the function's incremental state (``lars.evaluation.external_aggregate``),
    told every change. Values other than a count or a sum are cached per function until the
    group changes.

    An external aggregate that declares itself an *extreme* (``lars.evaluation.external_aggregate``:
    its value on a non-empty multiset is the first term least or greatest by an injective key) is
    read from the texts: the term it picks is the one whose text the same pick over the texts gives
    (the key is injective, the texts canonical), and its text is that text. The extreme text is
    kept with its key (``tops``) while it stays: a new text replaces it when better, its leaving
    forgets it (picked again among the texts when next asked)."""

    __slots__ = ("n", "total", "firsts", "best", "states", "full", "texts", "sums", "extremes", "tops")

    def __init__(self, states: "dict | None" = None, full: bool = True, sums: bool = True, extremes: "dict | None" = None) -> None:
        self.n = 0
        self.total = 0
        self.firsts: dict[str, int] = {}
        self.best: dict = {}
        self.states = states
        self.full = full
        self.sums = sums  # whether the integer sum is needed (#sum)
        self.extremes = extremes  # function -> (pick, key by text, better): the extremes (``_extreme_of``)
        self.tops: dict = {}  # function -> [its extreme text (None: forgotten), the text's key]
        self.texts: dict = {}  # function -> (the state's last value, its text): a #min/#max that stayed

    def change(self, first: str, sign: int, engine) -> None:
        self.n += sign
        if self.best:
            self.best.clear()
        if self.states is not None:
            term = engine.term(first)
            for state in self.states.values():
                state.change(term, sign)
        if not self.full:
            return
        if self.sums:
            term = engine.term(first)
            if isinstance(term, Integer):
                self.total += sign * term.value
        got = self.firsts.get(first, 0) + sign
        if got:
            self.firsts[first] = got
        else:
            del self.firsts[first]
        tops = self.tops
        if tops:
            if not got:  # the text left: an extreme it was is forgotten
                for top in tops.values():
                    if top[0] == first:
                        top[0] = None
            elif got == 1 and sign == 1:  # a new text: better than a known extreme?
                extremes = self.extremes
                for function, top in tops.items():
                    if top[0] is not None:
                        _, key, better = extremes[function]  # type: ignore[index]
                        k = key(first)
                        if better(k, top[1]):
                            top[0], top[1] = first, k

    @staticmethod
    def value(group: "_Group | None", function: str, engine) -> "str | None":
        if function == "count":
            return str(group.n) if group is not None else "0"
        if function == "sum":
            return str(group.total) if group is not None else "0"
        if function[0] == "@":  # an external aggregate: cached until the group changes
            if group is None:
                return _external(engine, function, {})
            if group.extremes is not None and function in group.extremes:
                top = group.tops.get(function)
                if top is None or top[0] is None:
                    pick, key, _ = group.extremes[function]
                    text = pick(group.firsts, key=key)
                    group.tops[function] = [text, key(text)]
                    return text
                return top[0]
            got = group.best.get(function, _MISSING)
            if got is _MISSING:
                state = group.states.get(function) if group.states is not None else None
                text_of = getattr(state, "text", None)
                if text_of is not None:  # the state gives the text itself (lars.evaluation.external_aggregate)
                    got = text_of()
                elif state is not None:  # the same term as last time (a #min/#max the change left): the same text
                    term = state.value()
                    last = group.texts.get(function)
                    if last is not None and last[0] is term:
                        got = last[1]
                    else:
                        got = format_term(term)
                        group.texts[function] = (term, got)
                else:
                    got = _external(engine, function, group.firsts)
                group.best[function] = got
            return got
        if group is None or not group.n:
            return None
        got = group.best.get(function, _MISSING)
        if got is _MISSING:
            pick = min if function == "min" else max
            got = group.best[function] = pick(group.firsts, key=_order_keys(engine))
        return got


def _extreme_of(engine, function: str):
    """``(pick, key, better)`` when the external aggregate ``function`` declares itself an extreme
    (``extreme = (min or max, key of a term)``, ``lars.evaluation.external_aggregate``), with the
    key read by the term's text and cached per engine and key (``_TextKeys``); ``None`` otherwise."""
    declared = getattr((engine.aggregate_functions or {}).get(function[1:]), "extreme", None)
    if declared is None:
        return None
    pick, of_term = declared
    if pick is not min and pick is not max:
        return None
    keys = engine.blk.get(("#textkeys", of_term))
    if keys is None:
        keys = engine.blk[("#textkeys", of_term)] = _TextKeys(engine.term, of_term)
    return pick, keys.__getitem__, lt if pick is min else gt


class _TextKeys(dict):
    """A term's key by the term's text, computed when first asked (cleared when large)."""

    __slots__ = ("term", "of_term")

    def __init__(self, term, of_term) -> None:
        super().__init__()
        self.term, self.of_term = term, of_term

    def __missing__(self, text: str):
        if len(self) >= _KEYS_MAX:
            self.clear()
        got = self[text] = self.of_term(self.term(text))
        return got


def _group_spec(engine, owner: _Aggregate) -> tuple:
    """For the groups of the element relation of ``owner`` (and of the aggregates sharing it):
    the makers of incremental states of the external functions that offer one, the external
    functions that are extremes (``_extreme_of``: read from the multiset of texts instead of a
    state, ``_Group``), whether the functions need the multiset (``full``) and whether one needs
    the integer sum (``sums``)."""
    makers = []
    full = sums = False
    extremes: dict = {}
    for function in owner.functions or [owner.agg.function]:
        got = _extreme_of(engine, function) if function[0] == "@" else None
        if got is not None:
            extremes[function] = got
            full = True
            continue
        make = getattr((engine.aggregate_functions or {}).get(function[1:]), "incremental", None) if function[0] == "@" else None
        if make is not None:
            makers.append((function, make))
        elif function != "count":
            full = True
            sums = sums or function == "sum"
    return tuple(makers), full, sums, extremes or None


@dataclass(eq=False)
class RecursiveBlock:
    """A recursive component: its rules (reading working relations ``("#w", k, sig)`` for the
    component's predicates), its facts, evaluated semi-naively (see the module docstring)."""

    key: int
    sigs: tuple
    rules: list
    facts: list = field(default_factory=list)
    pos: "dict | None" = None  # sig -> its partition position (``_partition``), None: no partition
    seeded: dict = field(default_factory=dict)  # rule without component literals -> (its copy binding the partition variable first)
    input_pos: dict = field(default_factory=dict)  # input relation -> the positions that hold the partition (None: all partitions)

    def evaluate(self, engine, keys: "set | None" = None) -> dict[tuple, set[tuple]]:
        """The least fixpoint; with ``keys``, only its partitions ``keys`` (the rows whose
        partition position holds one of them)."""
        work = {sig: ("#w", self.key, sig) for sig in self.sigs}
        for rel in work.values():
            engine.rels[rel] = Relation()
        users: dict[tuple, list] = {}
        for r in self.rules:
            for i, lit in enumerate(r.lits):
                if lit.rel[0] == "#w":
                    users.setdefault(lit.rel, []).append((r, i))
        delta: list[tuple[tuple, tuple]] = []

        def derive(sig: tuple, row: tuple) -> None:
            table = engine.rels[work[sig]]
            if row not in table.rows:
                table.add(row)
                delta.append((work[sig], row))

        for fact in self.facts:
            try:
                row = tuple([format_term(evaluate(a, {}, engine.functions)) for a in fact.args])
            except Undefined:
                continue
            if keys is None or row[self.pos[fact.signature]] in keys:  # type: ignore[index]
                derive(fact.signature, row)
        for r in self.rules:
            if any(lit.rel[0] == "#w" for lit in r.lits):
                continue
            if keys is None:
                instances = list(engine.instances(r, r.plans[None], 0, {}, None, None, None, ()))
            else:  # the partition variable bound first, to each key
                seeded_rule, var = self.seeded[id(r)]
                instances = [th for k in keys for th in engine.instances(seeded_rule, seeded_rule.plans[0], 0, {var: k}, ("#bind",), (k,), 0, ())]
            for theta in instances:
                head_row = _head_row(engine, r.head_args, r.head_spec, theta)
                if head_row is not None:
                    derive(r.head, head_row)
        while delta:
            todo, delta[:] = list(delta), []
            for rel, row in todo:
                for r, i in users.get(rel, ()):
                    theta = engine.bind(r.lits[i], row)
                    if theta is None:
                        continue
                    for th in list(engine.instances(r, r.plans[i], 0, theta, rel, row, i, (row,))):
                        got = _head_row(engine, r.head_args, r.head_spec, th)
                        if got is not None:
                            derive(r.head, got)
        out = {sig: set(engine.rels[work[sig]].rows) for sig in self.sigs}
        for rel in work.values():
            del engine.rels[rel]
        return out


def _partition(block: RecursiveBlock) -> None:
    """Find a partition of the component: a position per predicate such that in every rule the
    head's argument there is a variable that every component literal of the body has at its
    predicate's position. Then every row derives only from rows of its own partition (and input
    rows), so the fixpoint is the union of independent ones per partition key, and a change of
    input rows that hold the rule's partition variable at positions P touches only the partitions
    named there (an input literal without it touches all: ``input_pos`` None)."""
    from itertools import islice, product  # noqa: PLC0415

    sigs = block.sigs
    for choice in islice(product(*(range(s[1]) for s in sigs)), 256):
        pos = dict(zip(sigs, choice))
        var_of: dict = {}
        ok = True
        for r in block.rules:
            v = r.head_args[pos[r.head]]
            if not isinstance(v, Variable) or v.name.startswith("_"):
                ok = False
                break
            for lit in r.lits:
                if lit.rel[0] == "#w" and lit.args[pos[lit.rel[2]]] != v:
                    ok = False
            var_of[id(r)] = v
        if not ok:
            continue
        inputs: dict = {}
        for r in block.rules:
            v = var_of[id(r)]
            for lit in r.lits:
                if lit.rel[0] == "#w":
                    continue
                rel = (NEG, lit.rel[1]) if lit.rel[0] == NEG else lit.rel
                held = tuple(p for p, a in enumerate(lit.args) if a == v)
                if lit.negated or not held or inputs.get(rel, ()) is None:
                    inputs[rel] = None
                else:
                    inputs[rel] = tuple(sorted(set(inputs.get(rel, ())) | set(held)))
        block.pos, block.input_pos = pos, inputs
        for r in block.rules:
            if any(lit.rel[0] == "#w" for lit in r.lits):
                continue
            v = var_of[id(r)]
            seeded = CompiledRule(r.rule, r.head, r.head_args, [Lit(("#bind",), (v,), False), *r.lits], list(r.cmps))
            seeded.plans[0] = plan(seeded, 0)
            block.seeded[id(r)] = (seeded, v.name)
        return


def _partition_aggregate(block: AggregateBlock) -> None:
    """Partition an aggregate rule by a head variable v that its core binds: a head row with v = k
    comes from instances with v = k only, so a change of input rows that hold v (at positions P of
    a literal; the element tuples of an aggregate whose globals hold v) touches only the
    partitions they name, which are recomputed with v bound first. Inputs without v touch all.
    Chosen: the head variable held by the most inputs (none held: no partition)."""
    best = None
    for p, a in enumerate(block.head_args):
        if not isinstance(a, Variable) or a.name not in block.core_bound or a.name.startswith("_"):
            continue
        inputs: dict = {}
        for lit in _block_lits(block):
            held = tuple(q for q, x in enumerate(lit.args) if x == a)
            if lit.rel[0] == "#e":  # the element tuples of a kept aggregate: rows (globals…, terms…)
                item = lit.rel[2]
                held = (item.globals_.index(a.name),) if a.name in item.globals_ else ()
            if not held or inputs.get(lit.rel, ()) is None:
                inputs[lit.rel] = None
            else:
                inputs[lit.rel] = tuple(sorted(set(inputs.get(lit.rel, ())) | set(held)))
        score = sum(v is not None for v in inputs.values())
        if score and (best is None or score > best[0]):
            best = (score, p, a, inputs)
    if best is None:
        return
    _, p, var, inputs = best
    core = block.core
    seeded = CompiledRule(core.rule, core.head, (), [Lit(("#bind",), (var,), False), *core.lits], list(core.cmps))
    seeded.plans[0] = plan(seeded, 0)
    seeded.flat[0] = all(step[0] in ("cmp", "neg", "seedcheck") or (step[0] == "lit" and not step[4]) for step in seeded.plans[0])
    block.pos, block.seeded, block.input_pos = {block.head: p}, (seeded, var.name), inputs


def _head_row(engine, head_args: tuple, spec, theta: dict) -> "tuple | None":
    if spec is not None:
        return tuple([theta[v] if is_var else v for is_var, v in spec])
    try:
        return tuple([engine.value(a, theta) for a in head_args])
    except Undefined:
        return None


def _lit_vars(lit) -> set[str]:
    return set().union(set(), *(term_variables(a) for a in lit.args))


def _spec(head_args: tuple) -> "tuple | None":
    if all(isinstance(a, (Variable, Constant, Integer, String)) for a in head_args):
        return tuple((True, a.name) if isinstance(a, Variable) else (False, format_term(a)) for a in head_args)
    return None


# ============================================================================== compilation


def split_blocks(rules: list, facts: list, intensional: "set | frozenset") -> tuple[list, set]:
    """Take the rules with aggregates and the rules of recursive components out of ``rules``
    (``lars.incremental.rules.CompiledRule``s, aggregates left out of their literals) into blocks. Returns the
    rules for the engine — the others, plus for each block *watch rules* (one per relation the
    block reads: a change of it marks the block's node, ``("#blk", k, block)``, pending) and
    *order rules* (each head of the block reads the node, so it comes after it in the
    topological order) — and the block nodes. Raises ``NotInFragment`` for what blocks cannot do."""
    fresh = iter(range(1 << 40, 1 << 62))  # names of wildcards in conditions (compile_program's count from 0)
    # the dependency graph of intensional predicates (aggregate conditions included)
    deps: dict[tuple, set[tuple]] = {s: set() for s in intensional}
    negative: dict[tuple, set[tuple]] = {s: set() for s in intensional}
    for r in rules:
        if r.head not in deps:
            continue
        for lit in r.lits:
            base = lit.rel[1] if lit.rel[0] == NEG else lit.rel
            if base in intensional:
                deps[r.head].add(base)
                if lit.negated:
                    negative[r.head].add(base)
        for agg in _aggregates(r):
            for sig in _condition_sigs(agg):
                if sig in intensional:
                    deps[r.head].add(sig)
                    negative[r.head].add(sig)
    components = [c for c in strongly_connected(sorted(deps), lambda s: sorted(deps[s]))
                  if len(c) > 1 or c[0] in deps[c[0]]]
    component_of = {s: i for i, comp in enumerate(components) for s in comp}
    blocks: list = []
    kept: list = []
    aux_nodes: set = set()
    shared: dict = {}  # (globals, elements) -> the element relation kept for them (``_maintain``)
    for i, comp in enumerate(components):
        members = set(comp)
        comp_rules = [r for r in rules if r.head in members]
        for r in comp_rules:
            if _aggregates(r):
                raise NotInFragment(r.rule, "an aggregate inside recursion")
            bad = negative[r.head] & members
            if bad:
                s = sorted(bad)[0]
                raise NotInFragment(r.rule, f"negation inside recursion (through {s[0]}/{s[1]})")
        key = len(blocks)
        work = []
        for r in comp_rules:
            lits = [Lit(("#w", key, lit.rel), lit.args, False) if lit.rel in members else lit for lit in r.lits]
            copy = CompiledRule(r.rule, r.head, r.head_args, lits, list(r.cmps))
            plan_rule(copy)
            work.append(copy)
        component = RecursiveBlock(key, tuple(sorted(members)), work, [f for f in facts if f.signature in members])
        _partition(component)
        blocks.append((component, comp_rules))
    for r in rules:
        if r.head in component_of:
            continue
        aggs = _aggregates(r)
        if not aggs:
            kept.append(r)
            continue
        block = _aggregate_block(r, aggs, intensional, fresh)
        blocks.append((block, [r]))
        for kind, item in block.items:
            if kind == "agg":
                extra, more = _maintain(block, item, r.rule, shared)
                kept += extra
                aux_nodes |= more
        _partition_aggregate(block)
    # A rule with a built-in call over two relations that blocks change (AVG's and SUM's results:
    # the total and the kind of a group) would, tuple by tuple, meet the new total with the old
    # kind — a combination no answer holds, on which a built-in may fail: such a rule is a block
    # too, evaluated once its inputs are all up to date.
    downstream = {s for block, _ in blocks for s in block.sigs}
    grew = True
    while grew:
        grew = False
        for r in kept:
            if r.head not in downstream and any((lit.rel[1] if lit.rel[0] == NEG else lit.rel) in downstream for lit in r.lits):
                downstream.add(r.head)
                grew = True
    for r in list(kept):
        names: set = set()
        if r.rule is not None:
            called_functions(r.rule, names)
        if names and sum(1 for lit in r.lits if not lit.negated and lit.rel in downstream) >= 2:
            kept.remove(r)
            block = _aggregate_block(r, [], intensional, fresh)
            _partition_aggregate(block)
            blocks.append((block, [r]))
    out = list(kept)
    nodes: set = set(aux_nodes)
    for k, (block, sources) in enumerate(blocks):
        node = ("#blk", k, block)
        nodes.add(node)
        read: dict[tuple, int] = {}
        for lit in _block_lits(block):
            if lit.rel[0] != "#w":
                read.setdefault(lit.rel, len(lit.args))
        for j, (rel, arity) in enumerate(read.items()):
            args = tuple(Variable(f"_#blk{j}") for j in range(arity))
            if block.pos is not None:
                # the changed rows themselves: they name the partitions to recompute (flush_aux)
                change = ("#chg", k, j, node, rel)
                nodes.add(change)
                out.append(CompiledRule(None, change, args, [Lit(rel, args, False)], []))
                out.append(CompiledRule(None, node, (), [Lit(change, (), False)], []))
                continue
            watch = CompiledRule(None, node, (), [Lit(rel, args, False)], [])
            out.append(watch)
        heads = {block.head} if isinstance(block, AggregateBlock) else set(block.sigs)
        for head in sorted(heads):
            out.append(CompiledRule(None, head, (), [Lit(node, (), False)], []))
    return out, nodes


def _aggregates(r) -> list[AggregateAssignment]:
    if r.rule is None:
        return []
    return [b for b in r.rule.body if isinstance(b, AggregateAssignment)]


def _condition_sigs(agg: AggregateAssignment) -> Iterator[tuple]:
    for e in agg.elements:
        for c in e.condition:
            if isinstance(c, Literal):
                yield c.atom.signature  # type: ignore[union-attr]


def _block_lits(block) -> Iterator:
    if isinstance(block, AggregateBlock):
        yield from block.core.lits
        for kind, item in block.items:
            if kind == "agg" and item.node is not None:
                yield Lit(item.node, tuple(Variable(f"_#e{j}") for j in range(len(item.conds[0].head_args) + len(item.globals_))), False)
            elif kind == "agg":
                for cond in item.conds:
                    yield from cond.lits[1:]
            elif kind == "neg":
                yield item
    else:
        for r in block.rules:
            yield from r.lits


def _aggregate_block(r, aggs: list, intensional: "set | frozenset", fresh) -> AggregateBlock:
    """Compile one rule with aggregates: its core, then aggregates and what needs their values, in
    an order where each item is ready (as ``lars.reference`` decides it, its module doc §5)."""
    rule = r.rule
    # the core: positive literals, then negated literals and comparisons once bound (as the planner)
    bound: set[str] = set()
    for lit in r.lits:
        if not lit.negated:
            bound |= _lit_vars(lit)
    core_cmps: list = []
    pending = list(r.cmps)
    progress = True
    while progress:
        progress = False
        for c in list(pending):
            unbound = (term_variables(c.left) | term_variables(c.right)) - bound
            if not unbound:
                core_cmps.append(c)
            elif c.op == "=" and len(unbound) == 1 and any(
                isinstance(side, Variable) and side.name in unbound and not (term_variables(other) - bound)
                for side, other in ((c.left, c.right), (c.right, c.left))
            ):
                core_cmps.append(c)
                bound |= unbound
            else:
                continue
            pending.remove(c)
            progress = True
    core_bound = set(bound)
    core_lits = [lit for lit in r.lits if not lit.negated or not (_lit_vars(lit) - bound)]
    later_negs = [lit for lit in r.lits if lit.negated and (_lit_vars(lit) - bound)]
    core = CompiledRule(rule, r.head, (), core_lits, core_cmps)
    plan_rule(core)
    # the global variables of each aggregate: its variables that occur elsewhere in the body
    outer_of = []
    for a in aggs:
        outer = set()
        for b in rule.body:
            if b is a:
                continue
            outer |= term_variables(b.left) if isinstance(b, AggregateAssignment) else _body_vars(b)
        outer_of.append(outer)
    compiled = []
    for a, outer in zip(aggs, outer_of):
        inner: set[str] = set()
        for e in a.elements:
            for t in e.terms:
                inner |= term_variables(t)
            for c in e.condition:
                inner |= _body_vars(c)
        globals_ = tuple(sorted((inner & outer) - {"_"}))
        conds = []
        for e in a.elements:
            lits = [Lit(("#bind",), tuple(Variable(g) for g in globals_), False)]
            cmps = []
            for c in e.condition:
                if isinstance(c, Comparison):
                    cmps.append(c)
                    continue
                atom = c.atom
                if c.negated and any(v == "_" for a2 in atom.args for v in term_variables(a2)):
                    raise NotInFragment(rule, "`_` in a negated literal")
                if atom.signature == ("true", 0):
                    if c.negated:
                        raise NotInFragment(rule, "`not true`")
                    continue
                if atom.signature[0].startswith("#"):
                    raise NotInFragment(rule, "a reserved predicate")
                args = rename_wildcards(atom.args, fresh)
                rel = atom.signature if atom.signature in intensional else (WIN, "dia", NOW, atom.signature)
                lits.append(Lit((NEG, rel) if c.negated else rel, args, c.negated))
            cond = CompiledRule(rule, ("#elem",), tuple(e.terms), lits, cmps)
            cond.plans[0] = plan(cond, 0)  # raises NotInFragment if a local variable is unsafe
            conds.append(cond)
        compiled.append(_Aggregate(a, globals_, conds))
    # the items after the core, each once ready
    items: list = []
    todo: list = [("agg", x) for x in compiled] + [("neg", lit) for lit in later_negs] + [("cmp", c) for c in pending]
    while todo:
        for entry in todo:
            kind, item = entry
            if kind == "agg":
                left = term_variables(item.agg.left) - bound
                ready = not (set(item.globals_) - bound) and (not left or (item.agg.op == "=" and isinstance(item.agg.left, Variable)))
                gain = left
            elif kind == "neg":
                ready, gain = not (_lit_vars(item) - bound), set()
            else:
                unbound = (term_variables(item.left) | term_variables(item.right)) - bound
                ready = not unbound or (item.op == "=" and len(unbound) == 1 and any(
                    isinstance(side, Variable) and side.name in unbound and not (term_variables(other) - bound)
                    for side, other in ((item.left, item.right), (item.right, item.left))))
                gain = unbound
            if ready:
                items.append(entry)
                bound |= gain
                todo.remove(entry)
                break
        else:
            raise NotInFragment(rule, "unsafe: an aggregate's global variable or a comparison's variable is bound by nothing")
    head_vars = set().union(set(), *(term_variables(a) for a in r.head_args))
    if head_vars - bound:
        raise NotInFragment(rule, "unsafe: a head variable is bound by no positive body literal")
    return AggregateBlock(r.head, tuple(r.head_args), core, items, _spec(tuple(r.head_args)), frozenset(core_bound))


def _maintain(block: AggregateBlock, a: _Aggregate, rule, shared: "dict | None" = None) -> tuple[list, set]:
    """Let the engine keep the element tuples of aggregate ``a`` per group: a relation
    ``("#e", a)`` of rows (globals…, terms…) derived by one rule per element — by the counting
    algorithm, so a change of the condition's relations costs the change — whose changes update
    each group's ``_Group`` (``flush_aux``). When a global variable is bound only outside the
    condition (``R > P``, P bound by the rule's other literals), the rows are guarded by the
    projection of the rule's core on the globals, ``("#o", a)`` (the groups the rule asks for).
    Returns the rules and nodes; none (the aggregate is recomputed per group) if a global comes
    from another aggregate. Aggregates with the same elements and global variables whose element
    relation needs no guard have the same element tuples in every group: they share one relation
    (``shared``, by their elements and globals; its first aggregate keeps the functions of all),
    whatever their functions (``#count`` and ``agglimit``'s count of a SPARQL group, ``#@sparql_min_of``
    and ``#@sparql_max_of`` of the same values)."""
    gvars = tuple(Variable(g) for g in a.globals_)
    node = ("#e", id(a), a)

    def element_rules(guard: list) -> list:
        out = []
        for cond in a.conds:
            e = CompiledRule(rule, node, gvars + tuple(cond.head_args), guard + list(cond.lits[1:]), list(cond.cmps))
            plan_rule(e)
            out.append(e)
        return out

    try:
        rules = element_rules([])
        nodes = {node}
        if shared is not None:
            key = (a.globals_, a.agg.elements)
            alike = _count_key(a)
            owner = shared.get(key)
            if owner is None and a.agg.function == "count" and alike is not None:
                owner = shared.get(alike)
            if owner is not None:
                a.node = owner.node
                owner.functions.append(a.agg.function)
                return [], set()
            shared[key] = a
            if alike is not None:
                shared.setdefault(alike, a)
            a.functions.append(a.agg.function)
    except NotInFragment:
        if set(a.globals_) - block.core_bound:
            return [], set()
        outer = ("#o", id(a), a)
        core = block.core
        # the guard: the fewest positive literals of the core that bind the globals (a superset of
        # the groups the core asks for is as good, and much cheaper than the whole core's join)
        few: list = []
        need = set(a.globals_)
        for lit in core.lits:
            if need and not lit.negated and _lit_vars(lit) & need:
                few.append(lit)
                need -= _lit_vars(lit)
        candidates = ([CompiledRule(rule, outer, gvars, few, [])] if not need else []) + [CompiledRule(rule, outer, gvars, list(core.lits), list(core.cmps))]
        for guard in candidates:
            try:
                plan_rule(guard)
                rules = [guard] + element_rules([Lit(outer, gvars, False)])
                break
            except NotInFragment:
                continue
        else:
            return [], set()
        nodes = {node, outer}
    a.node = node
    return rules, nodes


def _count_key(a: _Aggregate) -> "tuple | None":
    """The key under which a ``#count`` may share the element relation of another aggregate
    (``_maintain``): an aggregate of one element whose terms are all variables has, in every
    group, one element tuple per distinct assignment of those variables that the condition
    allows, whatever their order and repetitions. So ``#count{X,Y : c}`` counts as many tuples as
    ``#f{Y,X,Y : c}`` holds (same globals, same condition, same set of variables): SPARQL's
    ``COUNT`` of a group beside its ``AVG``, whose elements put the value first. ``None`` for
    other aggregates."""
    if len(a.agg.elements) != 1:
        return None
    (element,) = a.agg.elements
    if not all(isinstance(t, Variable) for t in element.terms):
        return None
    return ("#count", a.globals_, frozenset(t.name for t in element.terms if isinstance(t, Variable)), element.condition)


def _body_vars(b) -> set[str]:
    if isinstance(b, Comparison):
        return term_variables(b.left) | term_variables(b.right)
    if isinstance(b, Literal):
        ext = b.atom
        out = set().union(set(), *(term_variables(a) for a in (ext.atom.args if not isinstance(ext, Atom) else ext.args)))
        time = getattr(ext, "time", None)
        if time is not None:
            out |= term_variables(time)
        return out
    return set()


# ============================================================================== the engine's hook


def flush_block(engine, sig: tuple) -> None:
    """The block of node ``sig``: recomputed when a relation it reads changed since the last time
    (or the first time), its rows diffed against the last result, the difference given to the
    supports of its heads. A partitioned component recomputes only the partitions its changed
    input rows name."""
    pending = engine.pending[sig]
    old = engine.blk.get(sig)
    if old is not None and not pending:
        return
    pending.clear()
    block = sig[2]
    changes = engine.blk.pop(("#rows", sig), {})
    if old is not None and block.pos is not None:
        keys: "set | None" = set()
        for rel, rows in changes.items():
            held = block.input_pos.get(rel)
            if held is None:
                keys = None
                break
            if len(held) == 1:
                p = held[0]
                keys.update([row[p] for row in rows])  # type: ignore[union-attr]
                continue
            for row in rows:
                keys.update([row[p] for p in held])  # type: ignore[union-attr]
        if keys is not None:
            index = engine.blk[("#part", sig)]  # head -> partition key -> its rows
            direct: Any = block.direct if isinstance(block, AggregateBlock) else False
            if direct is None:
                direct = block.direct = _direct(block) or False
            if direct:  # one row per partition at most: compared key by key
                _flush_direct(engine, block.head, direct(engine, keys), keys, index[block.head], old[block.head])
                return
            new_part = block.evaluate(engine, keys)
            for head in block.sigs:
                p = block.pos[head]
                parts = index[head]
                before: set = set()
                for k in keys:
                    got = parts.pop(k, None)
                    if got:
                        before |= got
                now = new_part.get(head, set())
                for row in now:
                    parts.setdefault(row[p], set()).add(row)
                rows_now = old[head]
                for row in now - before:
                    engine.support(head, row, 1)
                    rows_now.add(row)
                for row in before - now:
                    engine.support(head, row, -1)
                    rows_now.discard(row)
            return
    new = sig[2].evaluate(engine)
    old = old or {}
    support = engine.support
    for head, rows in new.items():
        before = old.get(head, set())
        for row in rows - before:
            support(head, row, 1)
        for row in before - rows:
            support(head, row, -1)
    engine.blk[sig] = new
    if block.pos is not None:
        index = {}
        for head in block.sigs:
            by_key: dict = {}
            p = block.pos[head]
            for row in new.get(head, ()):
                by_key.setdefault(row[p], set()).add(row)
            index[head] = by_key
        engine.blk[("#part", sig)] = index


def _flush_direct(engine, head: tuple, new: dict, keys, parts: dict, rows_now: set) -> None:
    """The partitions ``keys`` of a directly evaluated block (``_direct``: ``new`` their rows, one
    at most each) against the rows they had (``parts``): a row that stayed is left alone, one that
    went loses its support, one that came gains it."""
    support = engine.support
    get = new.get
    for k in keys:
        row = get(k)
        before = parts.get(k)
        if before:
            if row is not None and row in before and len(before) == 1:
                continue
            for gone in before:
                if gone != row:
                    support(head, gone, -1)
                    rows_now.discard(gone)
            if row is not None and row in before:
                parts[k] = {row}
                continue
            del parts[k]
        if row is not None:
            support(head, row, 1)
            rows_now.add(row)
            parts[k] = {row}


def flush_aux(engine, sig: tuple) -> None:
    """An auxiliary relation of a kept aggregate (``_maintain``): as ``Engine._flush`` (rows whose
    support became or stopped being 0 change the relation), not part of the answer; element
    tuples (``#e``) update their groups first."""
    pending = engine.pending[sig]
    if not pending:
        return
    if sig[0] == "#chg":  # changed input rows of a partitioned component
        engine.blk.setdefault(("#rows", sig[3]), {}).setdefault(sig[4], set()).update(pending)
        pending.clear()
        engine.pending[sig[3]].add(())
        return
    plus, minus = engine.changes(sig)
    if not plus and not minus:
        return
    if sig[0] == "#e":
        groups = engine.blk.setdefault(sig, {})
        width = len(sig[2].globals_)
        spec = engine.blk.get(("#state", sig))
        if spec is None:
            spec = engine.blk[("#state", sig)] = _group_spec(engine, sig[2])
        makers, full, sums, extremes = spec
        for sign, changed in ((1, plus), (-1, minus)):
            for row in changed:
                key = row[:width]
                group = groups.get(key)
                if group is None:
                    group = groups[key] = _Group({f: make() for f, make in makers} if makers else None, full, sums, extremes)
                if makers or full:
                    group.change(row[width], sign, engine)
                else:  # counts only
                    group.n += sign
                if not group.n:
                    del groups[key]
    engine.apply(sig, plus, minus)
