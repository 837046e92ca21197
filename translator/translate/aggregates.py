"""Aggregates as clingo aggregates in the LARS program — beyond Dao-Tran, Beck, Eiter 2015, whose τ (§4.3, Fig. 1)
covers graph patterns only.

Two kinds of aggregation read the solutions of the WHERE pattern, the atoms ``ans1(X̄, default)``
of τ/τ1/τ2 (with their witness columns, one per member of SPARQL's multiset of solutions, D5):

* **SPARQL 1.1 GROUP BY / HAVING** (§11, §18.2.4.1, §18.5): the solutions are partitioned by the
  values of the group keys (an unbound key is a value of its own; without GROUP BY there is one
  group, even when there are no solutions); each group becomes *one* solution binding the keys
  and the aggregates; HAVING filters these, then the SELECT expressions are evaluated on them.
* **C-SPARQL AGGREGATE clauses** (Barbieri et al. 2010, §2.2, §3.1 rule 5): the same groups per clause, but
  aggregation is *non-reducing*: every solution is extended with the value of its group for every
  clause (``[[P AGG A]] = [[P]] ⋈ [[A]]``), then all the clauses' FILTERs apply.

Rules (``K̄`` the group keys, ``X̄`` the solution's variables, ``Z`` the aggregate's argument)::

    group_k(K̄) :- ans1(X̄, default).                      (no GROUP BY: the fact group_k.)
    agg_k(K̄, V) :- group_k(K̄), N = #count{ X̄ : ans1(X̄, default), Z != null }, V = @sparql_integer(N).
    (SUM/AVG: :func:`_sum_rules`; GROUP_CONCAT: :func:`_concat_rules`; MIN/MAX/SAMPLE: :func:`aggregate_rules`)

Exactness (D6). Values are N-Triples strings; clingo aggregates compute on 32-bit integers
and wrap around on overflow, so numbers enter them only in pieces that cannot overflow
(docs/translation.md "Exact values" has the table and the canonical result forms):

* ``COUNT`` is ``#count`` (exact), turned into an xsd:integer by ``@sparql_integer``.
* ``SUM``/``AVG`` over xsd:integer (and derived types), xsd:decimal, xsd:float, xsd:double and
  mixed groups: every value is split into signed 16-bit limbs under *part keys* ``p(S, P)`` (value
  = Σ limb·2^(16P)·10^(-S)), one ``#sum`` per part key and group, and the few part sums are folded
  exactly in Python along clingo's order of the keys (:func:`_fold_rules`), then rounded once to
  the promoted type (SPARQL 1.1 §18.5.1.3-4, XPath F&O §1.2). A non-number is an error; a group
  with more than 32767 values too (``agglimit``: a limb sum could overflow; ``rsplars run`` notes it).
* ``MIN``/``MAX``/``SAMPLE``: ``#min``/``#max`` over ``@sparql_order_key`` (SPARQL's ORDER BY order
  of terms, completed as documented); MIN/MAX/SAMPLE of no value is an error.
* ``GROUP_CONCAT``: the distinct values with their numbers of solutions, folded in clingo's order.

An error leaves the aggregate unbound (SPARQL §18.5: an aggregate error leaves the variable
unbound), never a wrong number. Unbound arguments are skipped (as rdflib, Jena and SQL do); an
argument expression is bound to a hidden variable first (BIND), so an expression error is skipped
like an unbound value.

Multisets (D5; SPARQL 1.1 §18.5.1: a group is a multiset): a group's solutions are the distinct
tuples ``X̄, W̄`` of ``ans1`` — the WHERE pattern's variables and τ's witness columns
(:meth:`translator.translate.tau.Tau.witness`) — one per member of the multiset, so ``COUNT(*)``,
``COUNT``, ``SUM``, ``AVG`` and ``GROUP_CONCAT`` see every duplicate solution (MIN, MAX and SAMPLE do
not depend on them). ``DISTINCT`` inside an aggregate aggregates distinct argument terms instead.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Iterator

from lars.errors import RsplarsError, UnsupportedError

from lars.model import (
    AggregateAssignment,
    Arith,
    AggregateElement,
    Atom,
    BodyElement,
    Call,
    Comparison,
    Constant,
    Integer,
    Literal,
    Rule,
    String,
    Term,
    Variable,
)
from translator.translate import algebra as A
from translator.translate.aggregating import select_aggregates
from translator.query import model as M
from translator.rdf import sparql_ops as ops
from translator.rdf.terms import literal_nt
from translator.translate.expressions import MAX_SUM_ROWS, check_supported
from translator.translate.normalize import condition, construct_variables, expression
from translator.translate.algebra import AllOf, Condition
from translator.translate.now import NOW_TIME, with_evaluation_time
from translator.translate.tau import DEFAULT_GRAPH, NAMED_GRAPH, NULL, STREAM_GRAPH, dnf, lars_var, test_literal, value_literal

STAGE = "translation to LARS"
FUNCTIONS = ("COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT")
CSPARQL_FUNCTIONS = ("COUNT", "SUM", "AVG", "MIN", "MAX")


class AggregationError(RsplarsError):
    """A query whose aggregation is not well-formed (SPARQL 1.1 §11.4, Barbieri et al. 2010, §2.2)."""


@dataclass(frozen=True)
class AggregateSpec:
    """One aggregate: ``var`` gets ``function`` over ``argument`` (``None``: ``COUNT(*)``)."""

    var: A.Var
    function: str
    argument: A.Var | None
    distinct: bool = False
    separator: str | None = None
    """GROUP_CONCAT's separator (None: a space, SPARQL 1.1 §18.5.1.7)."""


@dataclass(frozen=True)
class Grouping:
    """One partition of the solutions by ``keys`` and the aggregates computed per group."""

    keys: tuple[A.Var, ...]
    aggregates: tuple[AggregateSpec, ...]
    implicit: bool = False
    """SPARQL without GROUP BY: one group, which exists even when there are no solutions."""


@dataclass
class Aggregation:
    """What :func:`translator.translate.compile.compile_query` needs: the WHERE pattern extended with the
    hidden BINDs (group expressions, aggregate arguments), the result form and variables, and
    :meth:`rules`, which adds the aggregation on top of τ's ``ans1``."""

    pattern: A.Pattern
    form: str
    variables: tuple[str, ...]
    groupings: tuple[Grouping, ...]
    per_row: bool
    """C-SPARQL AGGREGATE (every solution extended) rather than SPARQL GROUP BY (one per group)."""
    condition: Condition | None = None
    """HAVING / the AGGREGATE FILTERs (a :data:`translator.translate.tau.Condition`), after aggregation."""
    projections: tuple[tuple[A.Var, A.Expression], ...] = ()
    """SELECT expressions evaluated on the aggregated solutions, in order."""
    out: list[Rule] = field(default_factory=list)
    graph: Variable | None = None
    """While :meth:`rules` runs: the graph variable of a sub-query inside ``GRAPH ?g``."""

    def rules(self, solutions: Atom, native: bool = False, graph: Variable | None = None,
              witness: tuple[A.Var, ...] = ()) -> tuple[list[Rule], Atom, frozenset[A.Var]]:
        """The rules over ``solutions`` (τ's ``ans1(X̄, default)``), the atom whose instances are
        the final solutions, and the variables it binds. ``native``: the aggregates the engines of
        Python evaluate directly as external aggregates (:func:`native_rules`). ``graph``: the
        variable G of the solutions ``sqN_ans1(X̄, G)`` of a sub-query inside ``GRAPH ?g``, which
        SPARQL evaluates once per named graph (§18.6): G is a group key of every group, and without
        GROUP BY every named graph has its one group, with solutions or without. ``witness``: the
        witness columns that follow X̄ in ``solutions`` (decision D5): every aggregate counts the
        distinct (X̄, witness) tuples, so it sees every duplicate solution (SPARQL 1.1 §18.5.1, a
        group is a multiset), and C-SPARQL's extended solutions keep them."""
        self.out = []
        self.graph = graph
        where = A.ordered(A.variables(self.pattern))
        for k, grouping in enumerate(self.groupings, start=1):
            self._grouping(k, grouping, solutions, where, native, witness)
        if self.per_row:
            row_vars = (*where, *(a.var for g in self.groupings for a in g.aggregates), *witness)
            body: list[BodyElement] = [Literal(solutions)]
            for k, g in enumerate(self.groupings, start=1):
                for j, a in enumerate(g.aggregates, start=1):
                    body.append(Literal(Atom(f"agg{k}_{j}", (*self._keys(g, where), lars_var(a.var)))))
        else:
            (g,) = self.groupings
            row_vars = (*(k for k in g.keys if k in where), *(a.var for a in g.aggregates))
            body = [Literal(Atom("group1", self._keys(g, where)))]
            for j, a in enumerate(g.aggregates, start=1):
                atom = Atom(f"agg1_{j}", (*self._keys(g, where), lars_var(a.var)))
                body += self._inlined(atom, j) if native else [Literal(atom)]
        current = self._add("grouped", row_vars, body)
        scope = frozenset(row_vars)
        if self.condition is not None:  # HAVING (SPARQL) or the AGGREGATE FILTERs (C-SPARQL)
            filtered = Atom("filtered" if self.per_row else "having", current.args)
            for conj in dnf(self.condition):
                self.out.append(Rule(filtered, with_evaluation_time((Literal(current), *(test_literal(e, scope) for e in conj)))))
            current = filtered
        if self.projections:
            values: list[BodyElement] = []
            for var, expr in self.projections:
                values.append(value_literal(expr, var, scope))
                scope = scope | {var}
            current = self._add("selected", A.ordered(scope), [Literal(current), *values])
        return self.out, current, scope

    def row_identity(self, scope: frozenset[A.Var]) -> frozenset[A.Var]:
        """The variables of the final rows (``scope``, as :meth:`rules` gives it) that tell them
        apart (decision D5): a SPARQL grouping gives one row per group (§18.5 Aggregation), so its
        keys — the aggregates and SELECT expressions are functions of the group; C-SPARQL's
        aggregation extends every solution, so all of them (with the witness)."""
        if self.per_row:
            return scope
        return frozenset(k for g in self.groupings for k in g.keys) & scope

    # -- helpers

    def _inlined(self, atom: Atom, j: int) -> list[BodyElement]:
        """The native program's ``grouped`` rule reads each aggregate of a SPARQL grouping in its
        own body (one rule per group for all of them, instead of a rule per aggregate and a join):
        the body of the only rule of ``agg1_j`` after ``group1``, its value ``V`` renamed to the
        aggregate's variable and its count ``N`` to ``N<j>``; that rule is dropped. An aggregate
        with more rules (GROUP_CONCAT) stays an atom."""
        mine = [r for r in self.out if isinstance(r.head, Atom) and r.head.predicate == atom.predicate]
        if (len(mine) != 1 or not isinstance(head := mine[0].head, Atom) or head.args[-1] != Variable("V")
                or head.args[:-1] != atom.args[:-1]):
            return [Literal(atom)]
        (rule,) = mine
        self.out.remove(rule)
        names = {Variable("V"): atom.args[-1], Variable("N"): Variable(f"N{j}")}
        return [_renamed(b, names) for b in rule.body[1:]]

    def _keys(self, g: Grouping, where: tuple[A.Var, ...]) -> tuple[Term, ...]:
        return (*_key_terms(g, where), *((self.graph,) if self.graph is not None else ()))

    def _add(self, name: str, variables: tuple[A.Var, ...], body: list[BodyElement]) -> Atom:
        graph = (self.graph,) if self.graph is not None else ()
        head = Atom(name, (*(lars_var(v) for v in variables), *graph))
        self.out.append(Rule(head, with_evaluation_time(body)))
        return head

    def _grouping(self, k: int, g: Grouping, solutions: Atom, where: tuple[A.Var, ...], native: bool,
                  witness: tuple[A.Var, ...] = ()) -> None:
        group = Atom(f"group{k}", self._keys(g, where))
        if not g.implicit:
            self.out.append(Rule(group, (Literal(solutions),)))
        elif self.graph is None:
            self.out.append(Rule(group, ()))
        else:  # one group per named graph (the graphs GRAPH ?g ranges over, translator.translate.tau)
            self.out.append(Rule(group, (Literal(Atom(NAMED_GRAPH, (self.graph,))), Comparison("!=", self.graph, DEFAULT_GRAPH),
                                         Comparison("!=", self.graph, STREAM_GRAPH))))
        for j, spec in enumerate(g.aggregates, start=1):
            self.out.extend(aggregate_rules(spec, f"{k}_{j}", group, solutions, where, A.certain(self.pattern), native,
                                            witness))


def _renamed(element, names: dict):
    """A body element with the variables ``names`` renamed (at the top of aggregate assignments,
    comparisons, calls and arithmetic: where :func:`aggregate_rules` puts its ``V`` and ``N``)."""
    if isinstance(element, Variable):
        return names.get(element, element)
    if isinstance(element, Call):
        return Call(element.name, tuple(_renamed(a, names) for a in element.args))
    if isinstance(element, Arith):
        return Arith(element.op, _renamed(element.left, names), _renamed(element.right, names))
    if isinstance(element, Comparison):
        return Comparison(element.op, _renamed(element.left, names), _renamed(element.right, names))
    if isinstance(element, AggregateAssignment):
        return AggregateAssignment(_renamed(element.left, names), element.function, element.elements, element.op)
    return element


def _key_terms(g: Grouping, where: tuple[A.Var, ...]) -> tuple[Term, ...]:
    """The group keys as terms: a key the WHERE pattern never binds is unbound (``null``) in
    every solution, so it is the constant ``null``."""
    return tuple(lars_var(v) if v in where else NULL for v in g.keys)


# ------------------------------------------------------------------------------- aggregate rules


def aggregate_rules(spec: AggregateSpec, suffix: str, group: Atom, solutions: Atom, where: tuple[A.Var, ...],
                    certain: frozenset[A.Var] = frozenset(), native: bool = False,
                    witness: tuple[A.Var, ...] = ()) -> list[Rule]:
    """The rules of one aggregate (module docstring): ``agg<suffix>(K̄, V)`` with V the value, or
    ``null`` when the aggregate is an error (``aggerr<suffix>(K̄)``). ``where`` are the variables
    of the solutions, ``witness`` their witness columns (an element per witnessed solution: the
    aggregate sees duplicates, D5), ``certain`` those bound in every solution (no ``!= null`` test needed).
    ``native``: SUM/AVG/MIN/MAX/SAMPLE as one external aggregate (:func:`native_rules`)."""
    keys = group.args
    value = Variable("V")
    head = Atom(f"agg{suffix}", (*keys, value))
    error = Atom(f"aggerr{suffix}", keys)
    z: Term | None = None
    if spec.argument is not None:  # an argument the pattern never binds is unbound in every solution
        z = lars_var(spec.argument) if spec.argument in where else NULL
    condition: tuple[Literal | Comparison, ...] = (Literal(solutions),)
    if z is not None and not (spec.argument in certain):  # an argument the pattern may leave unbound
        condition += (Comparison("!=", z, NULL),)
    if spec.distinct and z is not None:
        ident: tuple[Term, ...] = (z,)
    else:
        ident = tuple(lars_var(v) for v in (*where, *witness)) or (Constant("row"),)

    def count(var: str) -> AggregateAssignment:
        return AggregateAssignment(Variable(var), "count", (AggregateElement(ident, condition),))

    if spec.function == "COUNT":
        return [Rule(head, (Literal(group), count("N"), Comparison("=", value, Call("sparql_integer", (Variable("N"),)))))]
    assert z is not None
    if native and spec.function in NATIVE:
        return native_rules(spec, suffix, group, head, z, condition, ident)
    rules = [Rule(Atom(head.predicate, (*keys, NULL)), (Literal(error),))]  # an error: unbound
    ok: tuple[BodyElement, ...] = (Literal(group), Literal(error, negated=True))
    if spec.function in ("SUM", "AVG"):
        return rules + _sum_rules(spec, suffix, keys, head, error, ok, z, condition, ident, count)
    if spec.function == "GROUP_CONCAT":
        return rules + _concat_rules(spec, suffix, keys, head, error, ok, z, condition)
    # MIN / MAX / SAMPLE: no bound value at all is an error (SPARQL: the min of nothing is an error)
    rules.append(Rule(error, (Literal(group), AggregateAssignment(Integer(0), "count", (AggregateElement((z,), condition),)))))
    key = Variable("K")
    element = AggregateElement((key,), (*condition, Comparison("=", key, Call("sparql_order_key", (z,)))))
    extreme = AggregateAssignment(Variable("E"), "max" if spec.function == "MAX" else "min", (element,))
    rules.append(Rule(head, (*ok, extreme, Comparison("=", value, Call("sparql_key_term", (Variable("E"),))))))
    return rules


NATIVE = {"SUM": "sparql_sum_of", "AVG": "sparql_avg_of", "MIN": "sparql_min_of", "MAX": "sparql_max_of",
          "SAMPLE": "sparql_min_of"}
"""The aggregates the engines of Python evaluate directly, and their external aggregate functions
(``translator.translate.expressions``)."""


def native_rules(spec: AggregateSpec, suffix: str, group: Atom, head: Atom, z: Term, condition: tuple,
                 ident: tuple[Term, ...]) -> list[Rule]:
    """SUM/AVG/MIN/MAX/SAMPLE as one external aggregate over the group's values with their numbers
    of solutions (``lars.model.AggregateAssignment``, ``#@name{…}``), for the incremental engine and
    the reference semantics; the function gives what the portable rules give clingo (the same
    value, ``null`` for an error, the same limit of SUM/AVG, whose ``agglimit`` stays for the note)::

        agg(K̄, V) :- group(K̄), V = #@sparql_avg_of{Z, X̄ : ans1(X̄), Z != null}.

    Every one of them has the elements ``Z, X̄`` (one tuple per solution: MIN/MAX do not depend
    on how many tuples have a value), so that the aggregates of one argument have the same
    elements: the incremental engine keeps them as one relation (``lars.incremental.aggregates._maintain``).
    The portable program's ``agglimit`` rule (a group with more values than SUM/AVG add exactly)
    is left out: the functions' states tell the run when it would hold
    (``expressions.functions_noting_limits``), without a rule evaluated for every changed group.
    """
    terms = (z, *ident)
    element = AggregateElement(terms, condition)
    value = AggregateAssignment(Variable("V"), "@" + NATIVE[spec.function], (element,))
    return [Rule(head, (Literal(group), value))]


def _sum_rules(spec: AggregateSpec, suffix: str, keys: tuple[Term, ...], head: Atom, error: Atom,
               ok: tuple[BodyElement, ...], z: Term, condition: tuple, ident: tuple[Term, ...], count) -> list[Rule]:
    """SUM and AVG over every numeric type, exactly (``translator.translate.expressions``)::

        num(Z, R) :- limb(Z, 0), R = @sparql_num_kind(Z).
        aggerr(K̄) :- ans1(X̄), Z != null, num(Z, R), R < 0.          (a non-number: error)
        agglimit(K̄) :- group(K̄), N = #count{X̄ : ans1(X̄), Z != null}, N > 32767.
        limb(Z, 0) :- ans1(X̄), Z != null.
        limb(Z, I') :- limb(Z, I), I' = I + 1, I' < @sparql_nlimbs(Z).
        piece(Z, I, P, L) :- limb(Z, I), P = @sparql_part_key(Z, I), L = @sparql_part_limb(Z, I).
        key(K̄, P) :- ans1(X̄), Z != null, piece(Z, I, P, L).
        part(K̄, P, S) :- key(K̄, P), S = #sum{L, I, X̄ : ans1(X̄), Z != null, piece(Z, I, P, L)}.
        kind(K̄, T) :- some(K̄), T = #max{R, X̄ : ans1(X̄), Z != null, num(Z, R)}.
        fold of part(K̄, P, S) with @sparql_sum_add into total(K̄, A)    (:func:`_fold_rules`)
        agg(K̄, @sparql_sum_result(A, T)) :- group(K̄), not aggerr(K̄), total(K̄, A), kind(K̄, T).
        agg(K̄, "0"^^xsd:integer) :- group(K̄), not aggerr(K̄), not some(K̄).   (no value: 0)
    """
    p, i, i2, s, t, r, limb_value, a = (Variable(n) for n in ("P", "I", "I2", "S", "T", "R", "L", "A"))
    limb = lambda *args: Atom(f"agglimb{suffix}", args)  # noqa: E731
    piece = lambda *args: Atom(f"aggpiece{suffix}", args)  # noqa: E731
    numkind = lambda *args: Atom(f"aggnum{suffix}", args)  # noqa: E731
    key = lambda *args: Atom(f"aggkey{suffix}", (*keys, *args))  # noqa: E731
    part = Atom(f"aggpart{suffix}", (*keys, p, s))
    kind, total, some = Atom(f"aggkind{suffix}", (*keys, t)), Atom(f"aggtotal{suffix}", (*keys, a)), Atom(f"aggsome{suffix}", keys)
    limit = Atom(f"agglimit{suffix}", keys)
    n = Variable("N")
    rules = [
        Rule(numkind(z, r), (Literal(limb(z, Integer(0))), Comparison("=", r, Call("sparql_num_kind", (z,))))),
        Rule(error, (*condition, Literal(numkind(z, r)), Comparison("<", r, Integer(0)))),
        Rule(limit, (*ok[:1], count("N"), Comparison(">", n, Integer(MAX_SUM_ROWS)))),
        Rule(error, (Literal(limit),)),
        Rule(limb(z, Integer(0)), condition),
        Rule(limb(z, i2), (Literal(limb(z, i)), Comparison("=", i2, Arith("+", i, Integer(1))),
                           Comparison("<", i2, Call("sparql_nlimbs", (z,))))),
        Rule(piece(z, i, p, limb_value), (Literal(limb(z, i)), Comparison("=", p, Call("sparql_part_key", (z, i))),
                                          Comparison("=", limb_value, Call("sparql_part_limb", (z, i))))),
        Rule(key(p), (*condition, Literal(piece(z, i, p, limb_value)))),
        Rule(some, (Literal(key(p)),)),
    ]
    element = AggregateElement((limb_value, i, *ident), (*condition, Literal(piece(z, i, p, limb_value))))
    rules.append(Rule(part, (Literal(key(p)), AggregateAssignment(s, "sum", (element,)))))
    kinds = AggregateElement((r, *ident), (*condition, Literal(numkind(z, r))))
    rules.append(Rule(kind, (Literal(some), AggregateAssignment(t, "max", (kinds,)))))
    rules += _fold_rules(f"sum{suffix}", keys, f"aggpart{suffix}", "sparql_sum_add", (), total)
    if spec.function == "SUM":
        result = Comparison("=", Variable("V"), Call("sparql_sum_result", (a, t)))
        rules.append(Rule(head, (*ok, Literal(total), Literal(kind), result)))
    else:
        result = Comparison("=", Variable("V"), Call("sparql_avg_result", (a, t, Variable("C"))))
        rules.append(Rule(head, (*ok, Literal(total), Literal(kind), count("C"), result)))
    rules.append(Rule(Atom(head.predicate, (*keys, String(literal_nt("0", ops.KIND_TYPE[ops.INTEGER])))), (*ok, Literal(some, negated=True))))
    return rules


def _concat_rules(spec: AggregateSpec, suffix: str, keys: tuple[Term, ...], head: Atom, error: Atom,
                  ok: tuple[BodyElement, ...], z: Term, condition: tuple) -> list[Rule]:
    """GROUP_CONCAT: the distinct values with the number of solutions that have them, folded in
    clingo's term order with @sparql_concat_add (quadratic grounding in the number of distinct
    values of a group, see docs/translation.md)::

        aggerr(K̄) :- ans1(X̄), Z != null, @sparql_is_string(Z) = 0.
        val(K̄, Z) :- ans1(X̄), Z != null.
        item(K̄, Z, N) :- val(K̄, Z), N = #count{X̄ : ans1(X̄)}.     (DISTINCT: N = 1)
        fold of item(K̄, Z, N) with @sparql_concat_add into total(K̄, A)
        agg(K̄, @sparql_concat_result(A)) :- group(K̄), not aggerr(K̄), total(K̄, A).
        agg(K̄, "") :- group(K̄), not aggerr(K̄), not some(K̄).
    """
    val = Atom(f"aggval{suffix}", (*keys, z))
    item = Atom(f"aggitem{suffix}", (*keys, z, Variable("N")))
    total, some = Atom(f"aggtotal{suffix}", (*keys, Variable("A"))), Atom(f"aggsome{suffix}", keys)
    rules = [
        Rule(error, (*condition, Comparison("=", Call("sparql_is_string", (z,)), Integer(0)))),
        Rule(val, condition),
        Rule(some, (Literal(val),)),
    ]
    if spec.distinct:
        rules.append(Rule(Atom(item.predicate, (*keys, z, Integer(1))), (Literal(val),)))
    else:
        where_vars = sorted({v for lit in condition
                            if isinstance(lit, Literal) and isinstance(lit.atom, Atom) for v in _term_vars(lit.atom.args)},
                            key=lambda v: v.name)
        element = AggregateElement(tuple(where_vars) or (Constant("row"),), condition)
        rules.append(Rule(item, (Literal(val), AggregateAssignment(Variable("N"), "count", (element,)))))
    separator = String(" " if spec.separator is None else spec.separator)
    rules += _fold_rules(f"gc{suffix}", keys, item.predicate, "sparql_concat_add", (separator,), total)
    rules.append(Rule(head, (*ok, Literal(total), Comparison("=", Variable("V"), Call("sparql_concat_result", (Variable("A"),))))))
    rules.append(Rule(Atom(head.predicate, (*keys, String(literal_nt("")))), (*ok, Literal(some, negated=True))))
    return rules


def _term_vars(terms: tuple[Term, ...]) -> set[Variable]:
    return {t for t in terms if isinstance(t, Variable)}


def _fold_rules(name: str, keys: tuple[Term, ...], items: str, add: str, extra: tuple[Term, ...], total: Atom,
                weight_arity: int = 1) -> list[Rule]:
    """Fold the items ``items(K̄, P, W…)`` of every group, in clingo's order of P, with the
    grounding-time function ``@add(Acc, P, W…, extra…)`` (the first call gets the integer 0 as
    Acc), into ``total(K̄, A)``::

        first(K̄, P) :- items(K̄, P, W̄), P = #min{R : items(K̄, R, W̄')}.
        next(K̄, P, Q) :- items(K̄, P, W̄), Q = #min{R : items(K̄, R, W̄'), R > P}, items(K̄, Q, W̄'').
        acc(K̄, P, A) :- first(K̄, P), items(K̄, P, W̄), A = @add(0, P, W̄, extra).
        acc(K̄, Q, A) :- acc(K̄, P, A0), next(K̄, P, Q), items(K̄, Q, W̄), A = @add(A0, Q, W̄, extra).
        total(K̄, A) :- acc(K̄, P, A), P = #max{R : items(K̄, R, W̄')}.

    The items of a group are few (part keys) or its distinct values (GROUP_CONCAT); ``next`` grounds
    in time quadratic in their number."""
    p, q, r, a, a0 = (Variable(n) for n in ("P", "Q", "R", "A", "A0"))
    w = tuple(Variable(f"W{j}") for j in range(weight_arity))
    w1 = tuple(Variable(f"U{j}") for j in range(weight_arity))
    w2 = tuple(Variable(f"X{j}") for j in range(weight_arity))
    item = lambda x, ws: Atom(items, (*keys, x, *ws))  # noqa: E731
    first, nxt, acc = Atom(f"{name}first", (*keys, p)), Atom(f"{name}next", (*keys, p, q)), Atom(f"{name}acc", (*keys, p, a))
    least = AggregateAssignment(p, "min", (AggregateElement((r,), (Literal(item(r, w1)),)),))
    after = AggregateAssignment(q, "min", (AggregateElement((r,), (Literal(item(r, w1)), Comparison(">", r, p))),))
    greatest = AggregateAssignment(p, "max", (AggregateElement((r,), (Literal(item(r, w1)),)),))
    return [
        Rule(first, (Literal(item(p, w)), least)),
        Rule(nxt, (Literal(item(p, w)), after, Literal(item(q, w2)))),
        Rule(acc, (Literal(first), Literal(item(p, w)), Comparison("=", a, Call(add, (Integer(0), p, *w, *extra))))),
        Rule(Atom(acc.predicate, (*keys, q, a)),
             (Literal(Atom(acc.predicate, (*keys, p, a0))), Literal(nxt), Literal(item(q, w)),
              Comparison("=", a, Call(add, (a0, q, *w, *extra))))),
        Rule(total, (Literal(acc), greatest)),
    ]


# ---------------------------------------------------------------------------------- the queries


def aggregation(query: M.Query, pattern: A.Pattern) -> Aggregation:
    """The aggregation of ``query`` over its WHERE pattern (already in algebra form)."""
    if query.aggregates:
        if query.modifiers.group_by or query.modifiers.having or select_aggregates(query):
            raise UnsupportedError("C-SPARQL AGGREGATE clauses together with GROUP BY/HAVING or SELECT aggregates", STAGE)
        return _csparql(query, pattern)
    return _sparql(query, pattern)


def _csparql(query: M.Query, pattern: A.Pattern) -> Aggregation:
    """Barbieri et al. 2010, §2.2/§3.1: every clause ``(?v, F[(?x)], {?g…}) [FILTER]`` groups the WHERE
    solutions by its own variables; every solution is extended with all clauses' values."""
    where = A.variables(pattern)
    groupings = []
    seen: set[A.Var] = set()
    filters = []
    for clause in query.aggregates:
        var = A.Var(clause.var.name)
        if var in where or var in seen:
            raise AggregationError(f"AGGREGATE variable ?{var.name} must be new (not in WHERE or another clause; Barbieri et al. 2010, §2.2)")
        seen.add(var)
        if clause.function not in CSPARQL_FUNCTIONS:
            raise UnsupportedError(f"the C-SPARQL aggregate {clause.function}", STAGE)
        argument = A.Var(clause.argument.name) if clause.argument is not None else None
        if argument is None and clause.function != "COUNT":
            raise AggregationError(f"{clause.function} needs an argument (Barbieri et al. 2010, §2.2)")
        for v in (*([argument] if argument else []), *(A.Var(g.name) for g in clause.group)):
            if v not in where:
                raise AggregationError(f"?{v.name} in AGGREGATE ({clause.var.name}) is not a WHERE variable (Barbieri et al. 2010, §2.2)")
        keys = tuple(A.Var(g.name) for g in clause.group)
        groupings.append(Grouping(keys, (AggregateSpec(var, clause.function, argument),)))
        if clause.filter is not None:
            filters.append(clause.filter)
    cond = _condition(filters)
    row_scope = where | seen
    form, variables, projections = _form(query, row_scope, star=A.ordered(row_scope))
    return Aggregation(pattern, form, variables, tuple(groupings), True, cond, projections)


def _sparql(query: M.Query, pattern: A.Pattern) -> Aggregation:
    """SPARQL 1.1 §11: group keys (BIND for ``GROUP BY (expr AS ?v)`` and key expressions),
    aggregates of SELECT and HAVING (arguments that are expressions are BIND to hidden variables),
    HAVING, then the SELECT expressions."""
    names = _Names({v.name for v in A.variables(pattern)} | {v.name for v in M.result_variables(query)})
    keys: list[A.Var] = []
    for gc in query.modifiers.group_by:
        if isinstance(gc.expr, M.Var) and gc.var is None:
            keys.append(A.Var(gc.expr.name))
            continue
        check_supported(gc.expr)
        key = A.Var(gc.var.name) if gc.var is not None else A.Var(names.fresh("key"))
        pattern = A.Bind(pattern, expression(gc.expr), key)
        keys.append(key)
    specs: dict[tuple, AggregateSpec] = {}

    def replace_aggregates(e: M.Expr, preferred: M.Var | None = None) -> M.Expr:
        nonlocal pattern
        match e:
            case M.Aggregate(name, arg, distinct, separator):
                if name not in FUNCTIONS:
                    raise UnsupportedError(f"the aggregate {name}", STAGE, f"supported: {', '.join(FUNCTIONS)}")
                if arg is None and name != "COUNT":
                    raise AggregationError(f"{name}(*) is not SPARQL")
                if isinstance(arg, M.Var):
                    argument: A.Var | None = A.Var(arg.name)
                elif arg is None:
                    argument = None
                else:
                    check_supported(arg)
                    argument = A.Var(names.fresh("arg"))
                    pattern = A.Bind(pattern, expression(arg), argument)
                key = (name, arg, distinct and name in ("COUNT", "SUM", "AVG", "GROUP_CONCAT"), separator)
                if key not in specs:
                    var = A.Var(preferred.name) if preferred is not None else A.Var(names.fresh("agg"))
                    specs[key] = AggregateSpec(var, name, argument, key[2], separator)
                return M.Var(specs[key].var.name)
            case M.BinaryOp(op, left, right):
                return M.BinaryOp(op, replace_aggregates(left), replace_aggregates(right))
            case M.UnaryOp(op, operand):
                return M.UnaryOp(op, replace_aggregates(operand))
            case M.In(inner, values, negated):
                return M.In(replace_aggregates(inner), tuple(replace_aggregates(v) for v in values), negated)
            case M.FunctionCall(_, args):
                return dataclasses.replace(e, args=tuple(replace_aggregates(a) for a in args))
        return e

    form = query.form
    projections: list[tuple[A.Var, A.Expression]] = []
    if isinstance(form, M.Select):
        if form.star:
            raise AggregationError("SELECT * with GROUP BY or aggregates is not SPARQL (§11.4): name the grouped variables")
        for item in form.projection:
            if isinstance(item, M.Projection):
                bare = isinstance(item.expr, M.Aggregate)
                replaced = replace_aggregates(item.expr, item.var if bare else None)
                if not (bare and isinstance(replaced, M.Var) and replaced.name == item.var.name):
                    check_supported(replaced)
                    projections.append((A.Var(item.var.name), expression(replaced)))
    having = []
    for h in query.modifiers.having:
        replaced = replace_aggregates(h)
        having.append(replaced)
    aggregates = tuple(specs.values())
    grouped = frozenset(keys) | {a.var for a in aggregates}
    # SPARQL 1.1 §11.4: outside aggregates, only the group keys (and earlier SELECT aliases)
    scope = set(grouped)
    computed = dict(projections)
    if isinstance(form, M.Select):
        for item in form.projection:
            if isinstance(item, M.Var):
                _check_grouped(A.Var(item.name), scope)
                continue
            var = A.Var(item.var.name)
            if var in computed:
                for v in computed[var].variables:
                    _check_grouped(v, scope)
            scope.add(var)
    for h in having:
        for used in M.expression_variables(h):
            _check_grouped(A.Var(used.name), set(grouped))
    result_form, variables, _ = _form(query, scope, star=())
    grouping = Grouping(tuple(keys), aggregates, implicit=not keys)
    return Aggregation(pattern, result_form, variables, (grouping,), False, _condition(having), tuple(projections))


def _check_grouped(v: A.Var, scope: set[A.Var]) -> None:
    if v.name == NOW_TIME.name:  # NOW()'s evaluation time: one value for every group (translator.translate.now)
        return
    if v not in scope:
        raise AggregationError(f"?{v.name} is neither a GROUP BY key nor inside an aggregate (SPARQL 1.1 §11.4)")


def _condition(exprs: list[M.Expr]):
    conditions = [condition(e) for e in exprs]
    if not conditions:
        return None
    return conditions[0] if len(conditions) == 1 else AllOf(tuple(conditions))


def _form(query: M.Query, scope, star: tuple[A.Var, ...]) -> tuple[str, tuple[str, ...], tuple]:
    """(form, answer variables, SELECT expressions of a per-row query)."""
    form = query.form
    if isinstance(form, M.Select):
        if form.star:
            return "select", tuple(v.name for v in star), ()
        names = []
        projections = []
        for item in form.projection:
            if isinstance(item, M.Projection):
                names.append(item.var.name)
                if query.aggregates:  # C-SPARQL: SELECT expressions over the extended solutions
                    check_supported(item.expr)
                    projections.append((A.Var(item.var.name), expression(item.expr)))
            else:
                names.append(item.name)
        return "select", tuple(names), tuple(projections)
    if isinstance(form, M.Construct):
        return "construct", construct_variables(query, scope), ()
    if isinstance(form, M.Ask):
        return "ask", (), ()
    raise UnsupportedError(type(form).__name__.upper(), STAGE)


class _Names:
    """Fresh hidden variable names (``agg1``, ``key1``, ``arg1``, …) that no query variable uses."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)
        self.counter: Iterator[int] = itertools.count(1)

    def fresh(self, stem: str) -> str:
        while True:
            name = f"{stem}{next(self.counter)}"
            if name not in self.taken:
                self.taken.add(name)
                return name
