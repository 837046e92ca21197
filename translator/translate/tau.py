"""RSP → LARS: the translations τ, τ1 and τ2 of Dao-Tran, Beck, Eiter 2015, §4.3 (Fig. 1) and the windows of Table 1.

``τ(V, P, D, S, i)`` (Polleres, WWW 2007, extended with input streams) turns a graph pattern into
rules over predicates ``ans_i`` indexed by the position of the sub-pattern in the pattern tree
(children of ``i`` are ``2i`` and ``2i+1``). An atom ``ans_i(x̄, D)`` says that the solution x̄ (the
values of ``V̄ = vars(P)`` in lexicographic order, ``null`` for unbound, D5) matches sub-pattern i
in graph D. The stream parameter S of the paper is constant for a query, so it is left out of
``ans_i`` (which makes ``chop`` the identity).

Differences from Fig. 1, all needed for SPARQL's exact semantics (Dao-Tran, Beck, Eiter 2015 take τ
from Polleres 2007 without restating these cases; tested against rdflib):

* AND joins *compatible* solutions: a variable that may be unbound on one side joins with any
  value of the other (three cases per such variable; variables bound in every solution, see
  :func:`translator.translate.algebra.certain`, join by equality as in Fig. 1).
* OPT is AND ∪ "no compatible right solution" (the LeftJoin), checked with an auxiliary
  ``compat_i``; SPARQL 1.1 MINUS additionally requires a shared bound variable (``minus_i``).
  Fig. 1's ``ans'_2i(vars(P1) ∩ vars(P2))`` is the special case where the shared variables are
  always bound.
* FILTER: Lloyd–Topor on the top-level ``&&``/``||`` (one rule per disjunct of the DNF, one body
  test per conjunct); each leaf is evaluated exactly with SPARQL's operator semantics at grounding
  time (D6) through the external function ``@sparql_test`` (true only if the expression's effective
  boolean value is true: an error or an unbound operand is false). ``!`` stays inside a leaf, since
  ``not`` of an erroneous test would be true.
* τ1's extra base case ``ans_i ← triple(S,P,O,S)`` is added in the default graph only: C-SPARQL
  merges window contents into the default graph; ``FROM NAMED STREAM s`` imports them into the
  named graph ``s`` instead.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Iterable, Iterator, Mapping, Sequence, TypeVar

from lars.errors import UnsupportedError
from lars.model import (
    NOW,
    Atom,
    BodyElement,
    Call,
    Comparison,
    Constant,
    Diamond,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    String,
    Term,
    TimeWindow,
    Variable,
    Window,
)
from lars.windows import WindowBounds, reach
from translator.translate import algebra as A
from translator.translate.algebra import AllOf, AnyOf, Condition
from translator.translate.fresh import reads_fresh, solution_variables
from translator.translate.now import NOW_TIME, with_evaluation_time
from translator.translate.paths import PathRules

from translator.rdf.predicates import DEFAULT_GRAPH, NAMED_GRAPH, STRIPLE, TRIPLE  # noqa: F401 (re-exported)
from translator.rdf.terms import NULL  # noqa: F401 (re-exported: the reserved constant for unbound, D5)

STREAM_GRAPH = Constant("stream")
"""τ1: the graph id into which C-SPARQL merges the window contents of ``FROM STREAM`` (the paper's S)."""

_T = TypeVar("_T")

SPARQL_TEST = "sparql_test"
SPARQL_VALUE = "sparql_value"


def ans(i: int) -> str:
    return f"ans{i}"


WITNESS_MARK = "_."
"""The start of the name of a witness column (:func:`witness_var`): no SPARQL variable name holds a
dot at its start, so a witness never meets a variable of the query."""


def lars_var(v: A.Var) -> Variable:
    """The LARS variable for SPARQL ``?name``: ``V_name``; characters ASP does not allow in a
    variable name are written ``_uXXXX`` so that distinct SPARQL names stay distinct. A witness
    column ``_.tag`` (:func:`witness_var`) is ``W_tag``."""
    if v.name.startswith(WITNESS_MARK):
        return Variable("W_" + re.sub(r"[^A-Za-z0-9_]", lambda m: f"_u{ord(m.group()):04X}", v.name[2:]))
    safe = re.sub(r"[^A-Za-z0-9]", lambda m: f"_u{ord(m.group()):04X}", v.name)
    return Variable(f"V_{safe}")


def witness_var(tag: str) -> A.Var:
    """A witness column (decision D5): a hidden argument of the ``ans_i`` atoms that tells apart
    solutions SPARQL counts separately (a branch of a UNION, a row of VALUES, a side's own value of
    a shared variable, a projected-away variable of a sub-query or a path)."""
    return A.Var(WITNESS_MARK + tag)


def lars_term(t: A.PatternTerm) -> Term:
    return lars_var(t) if isinstance(t, A.Var) else t


# ------------------------------------------------------------------------------------------ windows


def lars_window(spec: A.WindowSpec, stream: Term, bounds: WindowBounds | str = WindowBounds.CLOSED) -> Window:
    """τ(ω) of Table 1 (Dao-Tran, Beck, Eiter 2015, §4.2) under a window-bounds convention (D2).

    ``closed`` is Table 1 literally: ``[RANGE L STEP D]`` ↦ ``⊞^{L,0,D}``, the window
    ``[t'−L, t']``. ``left-open`` ``(t'−L, t']`` is ``⊞^{L−1,0,D}`` in integer time.
    ``right-open`` ``[t'−L, t')`` is ``⊞^{L,−1,D}`` (the window ends one tick before t').
    NOW is ``⊞^0`` and UNBOUNDED/ALL is ``⊞^∞`` whatever the convention (right-open: ``[tmin, t)``).
    ``[TRIPLES n]`` is a partition-based tuple window on the stream's own triples.
    RSP-QL's ``[FROM NOW-a TO NOW-b STEP d]`` (kind ``interval``) is ``⊞^{a,−b,d}``, the window
    ``[t'−a, t'−b]`` (left-open ``⊞^{a−1,−b,d}``, right-open ``⊞^{a,−b−1,d}``); LARS time windows
    end at most one tick before t' (``lars.model.TimeWindow``, u ≥ −1), so b is at most one tick
    (closed and left-open) or zero (right-open), else a named error. The ``(l, u)`` of every
    convention is ``lars.windows.reach``; ``bounds`` may be the option string (parsed here, a
    ``lars.windows.WindowBoundsError`` naming the choices for any other).
    """
    bounds = WindowBounds.parse(bounds)
    if spec.kind == "now":
        return NOW
    if spec.kind == "all":
        return TimeWindow(*reach(bounds, None), 1)
    if spec.kind == "triples":
        if not isinstance(stream, (String, Constant)):
            raise UnsupportedError("[TRIPLES n] on a stream variable", "translation to LARS",
                                   "a tuple window needs a fixed stream to count its triples")
        wildcard = Variable("_")
        return PartitionWindow(spec.rows or 0, Atom(STRIPLE, (wildcard, wildcard, wildcard, stream)))
    if spec.kind == "range":
        length = spec.range or 0
        l, u = reach(bounds, length)
        assert l is not None
        if l < 0:
            raise UnsupportedError(f"a {bounds} window of length 0", "translation to LARS", "(t−0, t] is empty")
        return TimeWindow(l, u, spec.step)
    if spec.kind == "interval":
        start, end = reach(bounds, spec.range or 0, spec.until)
        assert start is not None
        if end < -1:
            raise UnsupportedError(f"a window ending {spec.until} ticks before now ([FROM NOW-… TO NOW-…], "
                                   f"{bounds} bounds)", "translation to LARS",
                                   "LARS time windows ⊞^{l,u,d} end at most one tick before now (u ≥ −1)")
        if start < -end:
            raise UnsupportedError("an empty [FROM NOW-a TO NOW-b] window", "translation to LARS")
        return TimeWindow(start, end, spec.step)
    raise UnsupportedError(f"window kind {spec.kind!r}", "translation to LARS")


# -------------------------------------------------------------------------------------- conditions


def dnf(cond: Condition) -> list[list[A.Expression | A.ExistsTest]]:
    """Lloyd–Topor: the condition as a disjunction of conjunctions of leaf expressions."""
    if isinstance(cond, (A.Expression, A.ExistsTest)):
        return [[cond]]
    if isinstance(cond, AnyOf):
        return [conj for part in cond.parts for conj in dnf(part)]
    products = itertools.product(*(dnf(p) for p in cond.parts))
    return [[e for conj in combo for e in conj] for combo in products]


def expression_call(function: str, expr: A.Expression, scope: frozenset[A.Var], target: str = "filter",
                    pattern: A.Pattern | None = None) -> Call:
    """``@function("expr", X1, …, Xn)``; a variable out of scope is passed as ``null`` (unbound),
    the evaluation time of a bound ``NOW`` as itself (``translator.translate.now``). An expression
    calling RAND, UUID, STRUUID or BNODE also gets ``"target"`` and the solution (the variables of
    ``scope`` that no BIND of ``pattern`` computes): its values are functions of them
    (:mod:`translator.translate.fresh`)."""
    args: list[Term] = [lars_var(v) if v in scope or v.name == NOW_TIME.name else NULL for v in expr.variables]
    if reads_fresh(expr.text):
        solution = solution_variables(pattern, scope) if pattern is not None else A.ordered(scope)
        args += [String(target), *(lars_var(v) for v in solution)]
    return Call(function, (String(expr.text), *args))


def test_literal(expr: A.Expression | A.ExistsTest, scope: frozenset[A.Var], pattern: A.Pattern | None = None) -> Comparison:
    """``@sparql_test("expr", X1, …, Xn) = 1``: true iff the expression's EBV is true (D6)."""
    if isinstance(expr, A.ExistsTest):
        raise UnsupportedError("EXISTS / NOT EXISTS", "translation to LARS",
                               "supported only as a conjunct of a group's FILTER")
    return Comparison("=", expression_call(SPARQL_TEST, expr, scope, "filter", pattern), Integer(1))


def value_literal(expr: A.Expression, var: A.Var, scope: frozenset[A.Var], pattern: A.Pattern | None = None) -> Comparison:
    """``V = @sparql_value("expr", X1, …, Xn)``: the expression's value, ``null`` on error."""
    return Comparison("=", lars_var(var), expression_call(SPARQL_VALUE, expr, scope, f"bind ?{var.name}", pattern))


# ------------------------------------------------------------------------------------- translation


@dataclass
class Tau:
    """Builds ``τ`` (strategy ``tau``), ``τ1`` (``tau1``) or ``τ2`` (``tau2``) of a pattern.

    ``stream_sources`` are the C-SPARQL ``FROM [NAMED] STREAM`` clauses (τ1 imports them),
    ``bounds`` the window-bounds convention (D2).
    """

    strategy: str = "tau"
    stream_sources: Sequence[A.StreamSource] = ()
    bounds: WindowBounds | str = WindowBounds.CLOSED
    rules: list[Rule] = field(default_factory=list)
    in_stream: tuple[Term, Window] | None = None
    """While translating the body of a non-BGP ``STREAM s ω { g }``: (s, τ(ω))."""
    prefix: str = ""
    """Prepended to the predicates ``ans_i``, ``compat_i``, ``minus_i`` (the pattern of an EXISTS)."""
    exists_count: list[int] = field(default_factory=lambda: [0])
    subquery_count: list[int] = field(default_factory=lambda: [0])
    """Numbers the EXISTS patterns and the sub-queries of the whole query (their predicates)."""
    bags: bool = True
    """Derive SPARQL's multisets (decision D5): every ``ans_i`` atom carries, after the pattern's
    variables, the witness columns of node i (:meth:`witness`), so that distinct atoms are distinct
    members of the multiset ``eval(D, P_i)`` (SPARQL 1.1 §18.5; Angles and Gutierrez 2016).
    ``False``: sets of solutions (DISTINCT, CONSTRUCT, ASK, the pattern of an EXISTS)."""
    witnesses: dict[int, tuple[A.Var, ...]] = field(default_factory=dict)
    """The witness columns of each node translated so far (none: the node's variables suffice)."""

    def __post_init__(self) -> None:
        if self.strategy not in ("tau", "tau1", "tau2"):
            raise ValueError(f"unknown strategy {self.strategy!r}")

    # -- entry point

    def program(self, pattern: A.Pattern) -> Program:
        """``τ_k(vars(P), P, default, S, 1)`` plus, for τ1, the import rules ``τ'(S)``."""
        self.translate(pattern, DEFAULT_GRAPH, 1)
        if self.strategy == "tau1":
            self.rules.extend(self.import_rules())
        return Program(tuple(self.rules))

    def import_rules(self) -> list[Rule]:
        """τ'(S) of §4.3: ``triple(S,P,O,g) ← τ(ω) ◇ striple(S,P,O,s)`` for every stream source,
        g being the merged stream graph (FROM STREAM) or s itself (FROM NAMED STREAM)."""
        s, p, o = Variable("S"), Variable("P"), Variable("O")
        out = []
        for src in self.stream_sources:
            graph = src.stream if src.named else STREAM_GRAPH
            window = lars_window(src.window, src.stream, self.bounds)
            body = (Literal(Diamond(window, Atom(STRIPLE, (s, p, o, src.stream)))),)
            out.append(Rule(Atom(TRIPLE, (s, p, o, graph)), body))
        return out

    # -- recursion

    def translate(self, pattern: A.Pattern, graph: Term, i: int) -> None:
        method = getattr(self, f"_t_{type(pattern).__name__.rstrip('_').lower()}")
        method(pattern, graph, i)

    def witness(self, i: int) -> tuple[A.Var, ...]:
        """The witness columns of node i (after its children are translated)."""
        return self.witnesses.get(i, ())

    def head(self, i: int, pattern: A.Pattern, graph: Term, values: Mapping[A.Var, Term] | None = None) -> Atom:
        """``ans_i(V̄, W̄, D)``: the pattern's variables V̄, node i's witness columns W̄, the graph."""
        values = values or {}
        args = tuple(values.get(v, lars_var(v)) for v in (*A.ordered(A.variables(pattern)), *self.witness(i)))
        return Atom(self.prefix + ans(i), (*args, graph))

    def solutions(self, i: int, pattern: A.Pattern, graph: Term, name: str) -> Atom:
        """``name_i(V̄, D)``: the solutions of node i's pattern without their witness (what
        ``compat_i`` and ``minus_i`` test: whether a *mapping* is compatible with another)."""
        return Atom(f"{self.prefix}{name}{i}", (*(lars_var(v) for v in A.ordered(A.variables(pattern))), graph))

    def tag(self, kind: str, i: int, rest: str = "") -> A.Var:
        """A witness column of node i of this translation (unique in the whole program)."""
        return witness_var(f"{self.prefix}{kind}{i}" + (f"_{rest}" if rest else ""))

    def merge_witness(self, i: int, left: A.Pattern, right: A.Pattern) -> tuple[A.Var, ...]:
        """The witness of a join (or the join part of OPTIONAL) at node i: both sides' witnesses and,
        for a shared variable that a side may leave unbound, that side's own value (``jl``/``jr``):
        SPARQL's ``Join`` counts the *pairs* (μ1, μ2) that merge to a mapping (§18.5), and
        (x, unbound), (unbound, x), (x, x) all merge to x."""
        if not self.bags:
            return ()
        own: list[A.Var] = []
        sure_l, sure_r = A.certain(left), A.certain(right)
        for v in A.ordered(A.variables(left) & A.variables(right)):
            if v not in sure_l:
                own.append(self.tag("jl", i, v.name))
            if v not in sure_r:
                own.append(self.tag("jr", i, v.name))
        return (*self.witness(2 * i), *self.witness(2 * i + 1), *own)

    def side_values(self, i: int, left: A.Pattern, right: A.Pattern, left_vals: Mapping[A.Var, Term],
                    right_vals: Mapping[A.Var, Term] | None) -> dict[A.Var, Term]:
        """The values of the ``jl``/``jr`` columns of :meth:`merge_witness` in one case of
        :func:`compatible_cases` (``right_vals`` ``None``: no right solution, OPTIONAL's
        left-only rule, where the right side's columns are ``null``)."""
        out: dict[A.Var, Term] = {}
        if not self.bags:
            return out
        sure_l, sure_r = A.certain(left), A.certain(right)
        for v in A.ordered(A.variables(left) & A.variables(right)):
            if v not in sure_l:
                out[self.tag("jl", i, v.name)] = left_vals.get(v, lars_var(v))
            if v not in sure_r:
                out[self.tag("jr", i, v.name)] = NULL if right_vals is None else right_vals.get(v, lars_var(v))
        return out

    def child(self, i: int, pattern: A.Pattern, graph: Term, values: dict[A.Var, Term] | None = None) -> Literal:
        return Literal(self.head(i, pattern, graph, values))

    def add(self, head: Atom, body: Iterable[BodyElement]) -> None:
        self.rules.append(Rule(head, with_evaluation_time(body)))

    def edges(self, s: Term, p: Term, o: Term, graph: Term) -> list[tuple[BodyElement, ...]]:
        """The ways a triple (s, p, o) is matched in the active graph ``graph``: inside
        ``STREAM s ω { … }`` the window's triples; in the default graph of τ1 with stream sources
        the static triples and the merged stream graph (C-SPARQL); elsewhere ``triple(s,p,o,graph)``."""
        if self.in_stream is not None:  # inside STREAM s ω { … } (τ2 extension): the window's triples
            stream, window = self.in_stream
            return [(Literal(Diamond(window, Atom(STRIPLE, (s, p, o, stream)))),)]
        out: list[tuple[BodyElement, ...]] = [(Literal(Atom(TRIPLE, (s, p, o, graph))),)]
        if self.strategy == "tau1" and graph == DEFAULT_GRAPH and self.stream_sources:
            out.append((Literal(Atom(TRIPLE, (s, p, o, STREAM_GRAPH))),))
        return out

    def _t_triple(self, p: A.Triple, graph: Term, i: int) -> None:
        for body in self.edges(lars_term(p.s), lars_term(p.p), lars_term(p.o), graph):
            self.add(self.head(i, p, graph), body)

    def _t_pathtriple(self, p: A.PathTriple, graph: Term, i: int) -> None:
        """``ans_i(V̄, D) ← path(s, o, D)`` for the rules of the property path
        (:mod:`translator.translate.paths`, Polleres and Wallner 2013, §4)."""
        binding: tuple[BodyElement, ...] | None = ()
        if isinstance(graph, Variable):  # GRAPH ?g: a constant end of a zero-length path is in every named graph
            binding = None if self.in_stream is not None else (Literal(Atom(NAMED_GRAPH, (graph,))),)
        rules = PathRules(f"{self.prefix}path{i}", graph, lambda s, q, o: self.edges(s, q, o, graph), self.add, binding,
                          bags=self.bags)
        atom = rules.define(p.path, lars_term(p.s), lars_term(p.o))
        witness = atom.args[2:-1]  # the path's own witness (PathRules): middle nodes, branches, predicates
        if witness:
            columns = tuple(self.tag("p", i, str(k)) for k in range(1, len(witness) + 1))
            self.witnesses[i] = columns
            atom = Atom(atom.predicate, (*atom.args[:2], *(lars_var(c) for c in columns), atom.args[-1]))
        self.add(self.head(i, p, graph), [Literal(atom)])

    def _t_join(self, p: A.Join, graph: Term, i: int) -> None:
        self.translate(p.left, graph, 2 * i)
        self.translate(p.right, graph, 2 * i + 1)
        self.witnesses[i] = self.merge_witness(i, p.left, p.right)
        for left_vals, right_vals, guards in compatible_cases(p.left, p.right):
            body = [self.child(2 * i, p.left, graph, left_vals), self.child(2 * i + 1, p.right, graph, right_vals)]
            sides = self.side_values(i, p.left, p.right, left_vals, right_vals)
            self.add(self.head(i, p, graph, sides), [*body, *guards])

    def _t_union(self, p: A.Union_, graph: Term, i: int) -> None:
        """SPARQL's ``Union`` adds the cardinalities of the two sides (§18.5): with bags, a branch
        column ``u_i`` (1 or 2) keeps a mapping that both sides give twice — unless a variable
        bound in every solution of one side is not a variable of the other, which already tells
        the sides apart. The other side's witness columns are ``null``."""
        self.translate(p.left, graph, 2 * i)
        self.translate(p.right, graph, 2 * i + 1)
        left_w, right_w = self.witness(2 * i), self.witness(2 * i + 1)
        apart = (A.certain(p.left) - A.variables(p.right)) or (A.certain(p.right) - A.variables(p.left))
        branch = (self.tag("u", i),) if self.bags and not apart else ()
        self.witnesses[i] = (*branch, *left_w, *right_w)
        for k, side, other_w in ((2 * i, p.left, right_w), (2 * i + 1, p.right, left_w)):
            missing: dict[A.Var, Term] = {v: NULL for v in (*(A.variables(p) - A.variables(side)), *other_w)}
            missing.update({b: Integer(1 if k == 2 * i else 2) for b in branch})
            self.add(self.head(i, p, graph, missing), [self.child(k, side, graph)])

    def _t_minus(self, p: A.Minus, graph: Term, i: int) -> None:
        self.translate(p.left, graph, 2 * i)
        self.translate(p.right, graph, 2 * i + 1)
        shared = A.variables(p.left) & A.variables(p.right)
        self.witnesses[i] = self.witness(2 * i)  # Minus keeps the cardinalities of the left side (§18.5)
        if not shared:  # SPARQL 1.1: disjoint domains never remove anything
            self.add(self.head(i, p, graph), [self.child(2 * i, p.left, graph)])
            return
        removed = self.solutions(i, p.left, graph, "minus")
        for left_vals, right_vals, guards in compatible_cases(p.left, p.right, need_shared=True):
            body = [self.child(2 * i, p.left, graph, left_vals), self.child(2 * i + 1, p.right, graph, right_vals)]
            self.add(substitute(removed, left_vals), [*body, *guards])
        self.add(self.head(i, p, graph), [self.child(2 * i, p.left, graph), Literal(removed, negated=True)])

    def _t_optional(self, p: A.Optional_, graph: Term, i: int) -> None:
        self.translate(p.left, graph, 2 * i)
        self.translate(p.right, graph, 2 * i + 1)
        conjunctions = dnf(p.condition) if p.condition is not None else [[]]
        compat = self.solutions(i, p.left, graph, "compat")
        self.witnesses[i] = self.merge_witness(i, p.left, p.right)
        for left_vals, right_vals, guards in compatible_cases(p.left, p.right):
            body = [self.child(2 * i, p.left, graph, left_vals), self.child(2 * i + 1, p.right, graph, right_vals)]
            sides = self.side_values(i, p.left, p.right, left_vals, right_vals)
            for conj in conjunctions:
                tests = [test_literal(e, A.variables(p)) for e in conj]  # EXISTS here: a named error
                self.add(self.head(i, p, graph, sides), [*body, *guards, *tests])
                self.add(substitute(compat, left_vals), [*body, *guards, *tests])
        # LeftJoin's Diff part (§18.5): a left solution with no compatible right one, once per left member
        missing: dict[A.Var, Term] = {v: NULL for v in (*(A.variables(p) - A.variables(p.left)), *self.witness(2 * i + 1))}
        missing.update(self.side_values(i, p.left, p.right, {}, None))
        self.add(self.head(i, p, graph, missing), [self.child(2 * i, p.left, graph), Literal(compat, negated=True)])

    def _t_filter(self, p: A.Filter, graph: Term, i: int) -> None:
        self.translate(p.pattern, graph, 2 * i)
        self.witnesses[i] = self.witness(2 * i)  # Filter keeps the cardinalities (§18.5)
        exists: dict[A.ExistsTest, Atom] = {}
        for conj in dnf(p.condition):
            tests: list[BodyElement] = []
            for e in conj:
                if isinstance(e, A.ExistsTest):
                    if e not in exists:
                        exists[e] = self.exists_atom(e, p.pattern, graph)
                    tests.append(Literal(exists[e], negated=e.negated))
                else:
                    tests.append(test_literal(e, A.variables(p), p.pattern))
            self.add(self.head(i, p, graph), [self.child(2 * i, p.pattern, graph), *tests])

    def exists_atom(self, test: A.ExistsTest, outer: A.Pattern, graph: Term) -> Atom:
        """``EXISTS { P }`` as a semi-join (SPARQL 1.1 §18.6 exists(μ, P), substitution): P is
        translated with its own predicates ``exN_ans_i`` in the same graph (and window), and
        ``existsN(S̄, D) ← exN_ans1(vars(P), D)`` projects it on the variables S̄ it shares with the
        filtered pattern; the filter rule tests ``existsN(S̄, D)`` or ``not existsN(S̄, D)``.

        Substituting μ into P and joining P's solutions with μ agree when every variable of the
        filtered pattern that P mentions is bound in every solution of P and in every solution of
        the filtered pattern (and is not a BIND target in P); other shapes raise a named error."""
        if _has_minus(test.pattern):
            # substitute(P, μ) of §18.6 leaves a MINUS whose right side does not mention the shared
            # variables untouched, while engines (pyoxigraph, rdflib, Jena) bind them there too and
            # so remove more: the two readings differ, so neither is chosen
            raise UnsupportedError("MINUS inside EXISTS", "translation to LARS",
                                   "SPARQL 1.1's substitution is read differently by SPARQL engines there")
        outer_scope, sure = A.variables(outer), A.certain(outer)
        shared = A.ordered(A.mentioned(test.pattern) & outer_scope)
        for v in shared:
            if v not in A.certain(test.pattern) or v not in sure or _binds(test.pattern, v):
                raise UnsupportedError(f"EXISTS reading ?{v.name}, which may be unbound", "translation to LARS",
                                       "supported when every variable shared with the filtered pattern is bound "
                                       "by triple patterns on both sides")
        self.exists_count[0] += 1
        n = self.exists_count[0]
        sub = Tau(self.strategy, self.stream_sources, self.bounds, self.rules, self.in_stream, f"ex{n}_",
                  self.exists_count, self.subquery_count, bags=False)  # EXISTS asks for one solution only
        sub.translate(test.pattern, graph, 1)
        atom = Atom(f"exists{n}", (*(lars_var(v) for v in shared), graph))
        self.add(atom, [Literal(sub.head(1, test.pattern, graph))])
        return atom

    def _t_graph(self, p: A.Graph, graph: Term, i: int) -> None:
        inner = lars_term(p.graph)
        self.translate(p.pattern, inner, 2 * i)
        self.witnesses[i] = self.witness(2 * i)
        guards: list[BodyElement] = []
        if isinstance(p.graph, A.Var):  # a named graph: not the default graph, not the merged streams
            # named_graph(G) binds G even when the body does not (GRAPH ?g { GRAPH <g1> { … } }):
            # SPARQL ranges ?g over the dataset's named graphs (§18.6 eval(D(G), Graph(var, P)))
            guards = [Literal(Atom(NAMED_GRAPH, (inner,))),
                      Comparison("!=", inner, DEFAULT_GRAPH), Comparison("!=", inner, STREAM_GRAPH)]
            self.define_named_graphs()
        self.add(self.head(i, p, graph), [self.child(2 * i, p.pattern, inner), *guards])

    def _t_bind(self, p: A.Bind, graph: Term, i: int) -> None:
        if p.var in A.variables(p.pattern):
            raise UnsupportedError(f"BIND to ?{p.var.name}, already in scope", "translation to LARS",
                                   "SPARQL forbids binding a variable that the group already binds")
        self.translate(p.pattern, graph, 2 * i)
        self.witnesses[i] = self.witness(2 * i)
        self.add(self.head(i, p, graph), [self.child(2 * i, p.pattern, graph),
                                          value_literal(p.expression, p.var, A.variables(p.pattern), p.pattern)])

    def _t_values(self, p: A.Values, graph: Term, i: int) -> None:
        """One fact per row of the data block. SPARQL's ``ToMultiSet`` counts a row written twice
        twice (§18.2.4.3): with bags and a repeated row, a column ``v_i`` holds the row's number."""
        self.require_ground_graph(graph, "VALUES")
        order = A.ordered(A.variables(p))
        numbered = self.bags and len(set(p.rows)) < len(p.rows)
        self.witnesses[i] = (self.tag("v", i),) if numbered else ()
        for k, row in enumerate(p.rows, start=1):
            by_var = dict(zip(p.variables, row))
            number = (Integer(k),) if numbered else ()
            self.add(Atom(self.prefix + ans(i), (*(NULL if (value := by_var[v]) is None else value for v in order), *number, graph)), [])

    def _t_empty(self, p: A.Empty, graph: Term, i: int) -> None:
        """``{}``: one solution with no bindings (§18.2.1), in the default graph and in a stream's
        window; directly inside ``GRAPH ?g`` / ``GRAPH <g>`` one per named graph of the dataset
        (§18.6 eval(D(G), Graph(var, P)); an IRI that names no graph: none)."""
        if self.in_stream is None and graph not in (DEFAULT_GRAPH, STREAM_GRAPH):
            self.define_named_graphs()
            body: list[BodyElement] = [Literal(Atom(NAMED_GRAPH, (graph,)))]
            if isinstance(graph, Variable):
                body += [Comparison("!=", graph, DEFAULT_GRAPH), Comparison("!=", graph, STREAM_GRAPH)]
            self.add(Atom(self.prefix + ans(i), (graph,)), body)
            return
        self.require_ground_graph(graph, "an empty group {}")
        self.add(Atom(self.prefix + ans(i), (graph,)), [])

    def define_named_graphs(self) -> None:
        """``named_graph(G) ← triple(S, P, O, G), G ≠ default, G ≠ stream`` (once): the graphs of
        the dataset other than the default graph."""
        g = Variable("G")
        if not any(r.head == Atom(NAMED_GRAPH, (g,)) for r in self.rules):
            self.add(Atom(NAMED_GRAPH, (g,)), [Literal(Atom(TRIPLE, (Variable("S"), Variable("P"), Variable("O"), g))),
                                              Comparison("!=", g, DEFAULT_GRAPH), Comparison("!=", g, STREAM_GRAPH)])

    def _t_stream(self, p: A.Stream, graph: Term, i: int) -> None:
        """τ2: ``ans_i(V̄, D) ← τ(ω)(⋀_{(S,P,O)∈g} ◇ striple(S,P,O,s))`` when g is a basic graph
        pattern (Dao-Tran, Beck, Eiter 2015, §4.3); ``⊞(◇a ∧ ◇b)`` is written as ``⊞◇a ∧ ⊞◇b`` (same window).

        The τ2 extension (``docs/translation.md``): any other g is translated by τ like the body
        of a GRAPH pattern whose graph is the window — every triple pattern ``(S,P,O)`` of g
        becomes ``ans_k(V̄_k, s) ← τ(ω) ◇ striple(S,P,O,s)`` (the window applied to every triple
        pattern, as CQELS does), OPTIONAL / UNION / MINUS / FILTER / BIND / VALUES combine them
        as everywhere else, and ``ans_i(V̄, D) ← ans_2i(V̄, s)``. The graph argument ``s`` (the
        stream IRI, or the stream variable) keeps the solutions of g apart per stream. With a BGP
        both readings give the same answers. τ and τ1 never see this node."""
        if self.strategy != "tau2":
            raise UnsupportedError("a STREAM graph pattern", f"translation {self.strategy}",
                                   "stream graph patterns are CQELS: use strategy tau2")
        stream = lars_term(p.stream)
        window = lars_window(p.window, stream, self.bounds)
        triples = p.triples
        if triples is not None:
            body = [Literal(Diamond(window, Atom(STRIPLE, (lars_term(t.s), lars_term(t.p), lars_term(t.o), stream))))
                    for t in triples]
            self.add(self.head(i, p, graph), body)
            return
        if self.in_stream is not None:
            raise UnsupportedError("a STREAM pattern inside a STREAM pattern", "translation to LARS")
        self.in_stream = (stream, window)
        try:
            self.translate(p.pattern, stream, 2 * i)
        finally:
            self.in_stream = None
        self.witnesses[i] = self.witness(2 * i)
        self.add(self.head(i, p, graph), [self.child(2 * i, p.pattern, stream)])

    def _t_subquery(self, p: A.SubQuery, graph: Term, i: int) -> None:
        """A sub-query (SPARQL 1.1 §12) as a predicate of its own (Polleres and Wallner 2013, "From
        SPARQL to ASP"; :mod:`translator.translate.subqueries`): its pattern P is translated with
        the predicates ``sqN_ans_k`` in the same graph (and window), its grouping and aggregates
        (if any) over ``sqN_ans1`` with predicates ending in ``_sqN``, and
        ``ans_i(V̄, D) ← sqN_ans1(X̄, D)`` (or the final atom of the aggregation) projects the
        solutions on the projected variables V̄, ``null`` for one that P never binds. A variable
        of X̄ outside V̄ occurs in that rule's body only: it is the sub-query's own.

        Multisets (decision D5): the sub-query's projected multiset joins the outer pattern
        (§18.2.1 ``ToMultiSet``), so with bags the rule keeps the sub-query's witness — its
        variables outside V̄, renamed apart as columns ``s<N>_name``, and P's own witness columns —
        unless the sub-query is DISTINCT or REDUCED (a set, REDUCED read as DISTINCT). A grouping
        sub-query's rows are one per group (a set over its keys and aggregates): its keys outside
        V̄ are its witness."""
        if p.grouped and p.aggregation is None:
            raise ValueError("a sub-query that aggregates needs translator.translate.subqueries.with_aggregation first")
        self.subquery_count[0] += 1
        n = self.subquery_count[0]
        distinct = _distinct(p)
        sub = Tau(self.strategy, self.stream_sources, self.bounds, self.rules, self.in_stream, f"sq{n}_",
                  self.exists_count, self.subquery_count,
                  bags=p.aggregation is not None or (self.bags and not distinct))  # aggregates see duplicates
        sub.translate(p.pattern, graph, 1)
        solutions = sub.head(1, p.pattern, graph)
        scope = identity = A.variables(p.pattern)
        inner_witness = sub.witness(1)
        if p.aggregation is not None:
            if isinstance(graph, Variable) and self.in_stream is not None:
                raise UnsupportedError("a sub-query with GROUP BY or aggregates inside STREAM ?var",
                                       "translation to LARS", "its groups would have to be formed per stream")
            extra, final, scope = p.aggregation.rules(solutions, graph=graph if isinstance(graph, Variable) else None,
                                                      witness=inner_witness)
            identity = p.aggregation.row_identity(scope)
            inner_witness = ()
            names = {r.head.predicate: f"{r.head.predicate}_sq{n}" for r in extra if isinstance(r.head, Atom)}
            self.rules.extend(renamed_predicates(r, names) for r in extra)
            solutions = renamed_predicates(final, names)
        if self.bags and not distinct:
            local = {v: self.tag("s", n, v.name) for v in A.ordered(identity - frozenset(p.projected))}
            solutions = substitute(solutions, local)
            self.witnesses[i] = (*local.values(), *inner_witness)
        args = tuple(lars_var(v) if v in scope else NULL for v in A.ordered(A.variables(p)))
        self.add(Atom(self.prefix + ans(i), (*args, *(lars_var(w) for w in self.witness(i)), graph)), [Literal(solutions)])

    @staticmethod
    def require_ground_graph(graph: Term, what: str) -> None:
        if isinstance(graph, Variable):
            raise UnsupportedError(f"{what} directly inside GRAPH ?var or STREAM ?var", "translation to LARS",
                                   "the graph variable would be unbound")


# ---------------------------------------------------------------------------------- compatibility


def compatible_cases(
    left: A.Pattern, right: A.Pattern, need_shared: bool = False
) -> Iterator[tuple[dict[A.Var, Term], dict[A.Var, Term], list[BodyElement]]]:
    """The ways a solution of ``left`` and one of ``right`` are compatible (SPARQL §18.3).

    Yields ``(left_values, right_values, guards)``: ``null`` substitutions for the shared
    variables on each side, and the comparisons that go with them. A shared variable joins by
    equality (both bound to the same term, or both unbound); one that may be unbound on a side also
    matches when that side is ``null``, and the merged solution takes the other side's value (the
    rule's head uses the variable, which the other side binds). With ``need_shared`` (MINUS) at least one shared variable must be bound on both sides.
    """
    shared = A.ordered(A.variables(left) & A.variables(right))
    sure_l, sure_r = A.certain(left), A.certain(right)
    options: list[list[str]] = []
    for v in shared:
        opts = ["equal"]
        if v not in sure_l:
            opts.append("left-null")
        if v not in sure_r:
            opts.append("right-null")
        options.append(opts)
    for combo in itertools.product(*options):
        left_vals: dict[A.Var, Term] = {}
        right_vals: dict[A.Var, Term] = {}
        for v, case in zip(shared, combo):
            if case == "left-null":
                left_vals[v] = NULL
            elif case == "right-null":
                right_vals[v] = NULL
        equal = [v for v, case in zip(shared, combo) if case == "equal"]
        if not need_shared:
            yield left_vals, right_vals, []
            continue
        for v in equal:  # one rule per shared variable that is bound on both sides
            guard: list[BodyElement] = [] if (v in sure_l and v in sure_r) else [Comparison("!=", lars_var(v), NULL)]
            yield left_vals, right_vals, guard


def _distinct(p: A.SubQuery) -> bool:
    """Whether the sub-query says DISTINCT or REDUCED (its answers are then a set)."""
    select = getattr(p.source, "select", None)
    return getattr(select, "modifier", None) in ("DISTINCT", "REDUCED")


def _has_minus(pattern: A.Pattern) -> bool:
    match pattern:
        case A.Minus():
            return True
        case A.Join(left, right) | A.Union_(left, right) | A.Optional_(left, right, _):
            return _has_minus(left) or _has_minus(right)
        case A.Filter(inner, _) | A.Graph(_, inner) | A.Stream(_, _, inner) | A.Bind(inner, _, _):
            return _has_minus(inner)
        case A.SubQuery(inner):
            return _has_minus(inner)
    return False


def _binds(pattern: A.Pattern, v: A.Var) -> bool:
    """Whether ``BIND(… AS ?v)`` occurs in the pattern."""
    match pattern:
        case A.Bind(inner, _, var):
            return var == v or _binds(inner, v)
        case A.Join(left, right) | A.Union_(left, right) | A.Minus(left, right) | A.Optional_(left, right, _):
            return _binds(left, v) or _binds(right, v)
        case A.Filter(inner, _) | A.Graph(_, inner) | A.Stream(_, _, inner):
            return _binds(inner, v)
        case A.SubQuery(inner, projected):  # a projected expression or aggregate binds like BIND
            return v in projected and (pattern.grouped or _binds(inner, v))
    return False


def renamed_predicates(x: _T, names: Mapping[str, str]) -> _T:
    """A rule, atom or body element with the predicates ``names`` renamed, at every depth (windows,
    aggregate elements and their conditions)."""
    if isinstance(x, tuple):
        return tuple(renamed_predicates(y, names) for y in x)  # type: ignore[return-value]
    if isinstance(x, Atom):
        return Atom(names.get(x.predicate, x.predicate), x.args)  # type: ignore[return-value]
    if is_dataclass(x) and not isinstance(x, type):
        changed = {f.name: renamed_predicates(getattr(x, f.name), names) for f in fields(x) if f.init}
        return replace(x, **changed)
    return x


def substitute(atom: Atom, values: Mapping[A.Var, Term | A.Var]) -> Atom:
    """``atom`` with the LARS variables of ``values``' keys replaced (a value that is a SPARQL
    variable or witness column by its LARS variable)."""
    by_name: dict[Term, Term] = {lars_var(v): lars_var(t) if isinstance(t, A.Var) else t for v, t in values.items()}
    return Atom(atom.predicate, tuple(by_name.get(a, a) for a in atom.args))


def translate(pattern: A.Pattern, strategy: str = "tau", *, stream_sources: Sequence[A.StreamSource] = (),
              bounds: WindowBounds | str = WindowBounds.CLOSED) -> Program:
    """``τ(Q)``, ``τ1(Q)`` or ``τ2(Q)`` for the pattern of a query (Dao-Tran, Beck, Eiter 2015, §4.3)."""
    return Tau(strategy, stream_sources, bounds).program(pattern)


__all__ = [
    "AllOf", "AnyOf", "Condition", "DEFAULT_GRAPH", "NULL", "STREAM_GRAPH", "Tau", "dnf", "lars_var",
    "lars_window", "translate",
]
