"""EP-SPARQL → LARS: event patterns over intervals (Anicic et al. 2011;
docs/epsparql.md).

The meaning of an EP-SPARQL graph pattern ``P`` on an event stream is a set of pairs ``(μ, ⟨s, e⟩)``
(Anicic et al. 2011): a stream triple on time point t is the atomic event ``⟨t, t⟩``; a join
``P1 . P2`` holds on ``⟨min(s1, s2), max(e1, e2)⟩``; ``P1 SEQ P2`` needs ``e1 < s2`` and holds on
``⟨s1, e2⟩``; ``P1 EQUALS P2`` needs the same interval; ``P1 OPTIONALSEQ P2`` /
``P1 EQUALSOPTIONAL P2`` add every result of P1 that no result of P2 extends under SEQ's / EQUALS's
condition; UNION, FILTER carry the interval along; ``getDURATION()`` is ``e − s``,
``getSTARTTIME()`` s, ``getENDTIME()`` e; ``WITHIN d`` keeps ``e − s ≤ d``. Answers at reference
time t are the results over the stream up to t (D9) whose interval ends at t: every complex event
is reported once, when it is detected, with its interval.

Answers are bags (D5): a complex event is one event per triple pattern the operators use, so the
same mapping on the same interval made of other events is another complex event, and the SELECT
projection keeps duplicates (SPARQL 1.1 §18.5 over the pairs (μ, interval)).

The LARS program (:func:`compile_epsparql`), one predicate ``ev<i>(X̄, W̄, S, E)`` per sub-pattern i
(children ``2i`` and ``2i+1`` as in τ, Dao-Tran, Beck, Eiter 2015, §4.3), X̄ the pattern's variables in lexicographic
order (``null`` when unbound, D5), W̄ its witness columns (:func:`witness`: the event time of each
triple pattern, a UNION's branch, a sub-query's hidden variables; left out below), S and E the
interval's ends as time points:

* triple pattern (s, p, o):  ``ev_i(X̄, T, T) ← ⊞^w @_T striple(s, p, o, G)`` — every stream is one
  event stream (G is free); ``w`` is ``∞`` or the query's time bound;
* join:  ``ev_i(X̄, S, E) ← ev_2i(…, S1, E1), ev_2i+1(…, S2, E2)`` with S/E the min/max (4 rules);
* SEQ:  ``… , E1 < S2``; EQUALS: the children share ``S, E``;
* OPTIONALSEQ / EQUALSOPTIONAL: the SEQ / EQUALS rules, ``ext_i(left, S1, E1)`` for the left
  results that are extended, and ``ev_i(left, null…, S1, E1) ← ev_2i(left, S1, E1), not ext_i(…)``;
* FILTER: one rule per disjunct (Lloyd–Topor as τ); a comparison of a time function with a
  duration is a built-in comparison on S and E (``E − S < 2592000``); anything else is evaluated
  exactly by ``@sparql_test`` with ``E − S``, S or E passed for the time functions (D6);
* WITHIN d:  ``ev_i(X̄, S, E) ← ev_2i(X̄, S, E), E − S ≤ d``;
* answer:  ``answer(V̄, H̄, S, E) ← ev_1(X̄, W̄, S, E), ⊞^0 @_E true`` — the complex event ends now;
  H̄ (:attr:`EventCompiled.hidden`) are the pattern's variables outside the SELECT and W̄, so each
  distinct answer atom is one complex event (none under DISTINCT/REDUCED, CONSTRUCT, ASK).

A bound at the top of the pattern (``WITHIN d`` or a top-level conjunct ``getDURATION() < d`` /
``≤ d``) becomes the time window ``⊞^d`` of every triple pattern: every event of an answer ending at
t lies in ``[t − d, t]``, and so do the events an OPTIONAL form looks for (they lie between the
answer's start and t), so the window changes nothing but the state kept. Without a bound the
windows are ``⊞^∞`` (exact, but the state grows with the stream): :attr:`EventCompiled.warnings`.

The program runs push-based (Dao-Tran, Beck, Eiter 2015, §4.1): it is evaluated whenever an event arrives.

Selection and consumption policies (Dell'Aglio et al. 2016, §4.3–4.4) are not LARS: :func:`compile_policy_operands`
gives the program of the SEQ operands, and ``translator.evaluate.epsparql_run`` applies the policy
to its answer stream (docs/epsparql.md, "Policies").
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from decimal import Decimal
from functools import reduce
from typing import Iterator, Mapping, TypeGuard, Union

from lars.errors import UnsupportedError
from lars.model import (
    ALL,
    NOW,
    TRUE,
    Arith,
    Atom,
    BodyElement,
    Call,
    Comparison,
    Integer,
    Literal,
    Program,
    Rule,
    String,
    Term,
    TimeWindow,
    Variable,
    Window,
    WindowAt,
)
from lars.windows import WindowBounds
from translator.query import model as M
from translator.query.printer import expression_text
from translator.translate import algebra as A
from translator.translate import modes
from translator.translate.expressions import check_supported
from translator.translate.normalize import TimeBase, construct_variables, triple
from translator.translate.tau import NULL, SPARQL_TEST, SPARQL_VALUE, STRIPLE, lars_var

STAGE = "translation of EP-SPARQL to LARS"
ANSWER = "answer"
XSD_DURATION = M.XSD + "duration"
NUMERIC = (M.XSD + "integer", M.XSD + "decimal", M.XSD + "double")
#: the reserved variables the time functions are rewritten into (not valid in queries: '__' prefix)
TIME_VARS = {"getDURATION": "__ep_duration", "getSTARTTIME": "__ep_start", "getENDTIME": "__ep_end"}
_COMPARISONS = ("<", "<=", ">", ">=", "=", "!=")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}

# ------------------------------------------------------------------------------------ the algebra


@dataclass(frozen=True)
class ETriple:
    """A triple pattern: each matching stream triple is an atomic event ``⟨t, t⟩``."""

    triple: A.Triple


@dataclass(frozen=True)
class EBinary:
    """``left OP right``: ``AND`` (join), ``UNION``, ``SEQ``, ``EQUALS``, ``OPTIONALSEQ``, ``EQUALSOPTIONAL``."""

    op: str
    left: "EPattern"
    right: "EPattern"


@dataclass(frozen=True)
class EFilter:
    pattern: "EPattern"
    expr: M.Expr


@dataclass(frozen=True)
class EWithin:
    """``WITHIN d`` (d in base ticks): ``end − start ≤ d``."""

    pattern: "EPattern"
    ticks: int


@dataclass(frozen=True)
class EProject:
    """A sub-query ``{ SELECT ?v (?w AS expr) … WHERE … }``: its results keep their interval."""

    pattern: "EPattern"
    items: tuple[tuple[str, M.Expr | None], ...]


EPattern = Union[ETriple, EBinary, EFilter, EWithin, EProject]
EVENT_OPS = ("SEQ", "EQUALS", "OPTIONALSEQ", "EQUALSOPTIONAL")


def variables(p: EPattern) -> frozenset[A.Var]:
    match p:
        case ETriple(t):
            return A.variables(t)
        case EBinary(_, left, right):
            return variables(left) | variables(right)
        case EFilter(inner, _) | EWithin(inner, _):
            return variables(inner)
        case EProject(_, items):
            return frozenset(A.Var(name) for name, _ in items)
    raise TypeError(p)


def certain(p: EPattern) -> frozenset[A.Var]:
    """Variables bound in every result (the others may be ``null``)."""
    match p:
        case ETriple(t):
            return A.variables(t)
        case EBinary("UNION", left, right):
            return certain(left) & certain(right)
        case EBinary("OPTIONALSEQ" | "EQUALSOPTIONAL", left, _):
            return certain(left)
        case EBinary(_, left, right):
            return certain(left) | certain(right)
        case EFilter(inner, _) | EWithin(inner, _):
            return certain(inner)
        case EProject(inner, items):
            return frozenset(A.Var(n) for n, e in items if e is None and A.Var(n) in certain(inner))
    raise TypeError(p)


def witness(i: int, p: EPattern) -> tuple[str, ...]:
    """The witness columns of sub-pattern ``i`` (its node number, as in :class:`EventTau`): the
    names of the LARS variables that, after the pattern's variables and before its interval, tell
    two of its complex events apart (decision D5 for events, docs/epsparql.md "Answers are bags"):
    a triple pattern's event time ``W<i>`` (with the mapping it fixes the event), a UNION's branch
    ``B<i>`` (1 or 2) followed by both branches' witnesses (``null`` on the branch not taken), a
    sub-query's variables outside its SELECT ``H<i>_<k>`` followed by its pattern's witnesses; the
    other operators keep their operands' witnesses, so a complex event of ``P1 SEQ P2`` (join,
    EQUALS, OPTIONAL forms: ``null`` for an unextended right side) is one pair of complex events."""
    match p:
        case ETriple():
            return (f"W{i}",)
        case EBinary("UNION", left, right):
            return (f"B{i}", *witness(2 * i, left), *witness(2 * i + 1, right))
        case EBinary(_, left, right):
            return (*witness(2 * i, left), *witness(2 * i + 1, right))
        case EFilter(inner, _) | EWithin(inner, _):
            return witness(2 * i, inner)
        case EProject(inner, items):
            hidden = (f"H{i}_{k}" for k, _ in enumerate(_hidden_inside(inner, items), start=1))
            return (*hidden, *witness(2 * i, inner))
    raise TypeError(p)


def _hidden_inside(inner: EPattern, items: tuple[tuple[str, M.Expr | None], ...]) -> tuple[A.Var, ...]:
    """The variables of a sub-query's pattern that its SELECT leaves out (ordered)."""
    projected = {A.Var(name) for name, _ in items}
    return tuple(A.ordered(variables(inner) - projected))


# ------------------------------------------------------------------------------- model → algebra


def event_pattern(group: M.Group, base: TimeBase) -> EPattern:
    """The WHERE group of an EP-SPARQL query as an event-pattern tree (group elements joined left to
    right; the group's FILTERs and WITHIN bounds apply to the whole group, as SPARQL's FILTER)."""
    current: EPattern | None = None
    filters: list[M.Expr] = []
    bounds: list[int] = []
    for part in group.parts:
        match part:
            case M.Filter(expr):
                filters.append(expr)
                continue
            case M.Within(duration):
                bounds.append(base.ticks(duration, "WITHIN duration"))
                continue
            case M.BGP(triples):
                elements: list[EPattern] = [ETriple(triple(t)) for t in triples]
            case _:
                elements = [_element(part, base)]
        for e in elements:
            current = e if current is None else EBinary("AND", current, e)
    if current is None:
        raise UnsupportedError("an empty group { } in an event pattern", STAGE,
                               "an event pattern needs at least one triple pattern: its interval comes from events")
    if bounds:
        current = EWithin(current, min(bounds))
    if filters:
        current = EFilter(current, reduce(lambda a, b: M.BinaryOp("&&", a, b), filters))
    return current


def _element(p: M.Pattern, base: TimeBase) -> EPattern:
    match p:
        case M.Group():
            return event_pattern(p, base)
        case M.EventPattern(op, left, right):
            return EBinary(op, _element(left, base), _element(right, base))
        case M.Union_(left, right):
            return EBinary("UNION", _element(left, base), _element(right, base))
        case M.SubSelect(select, where, modifiers):
            if modifiers != M.Modifiers():
                raise UnsupportedError("solution modifiers (GROUP BY, ORDER BY, LIMIT …) in an EP-SPARQL sub-query", STAGE)
            inner = event_pattern(where, base)
            if select.star:
                return inner
            items: list[tuple[str, M.Expr | None]] = []
            for item in select.projection:
                if isinstance(item, M.Var):
                    items.append((item.name, None))
                else:
                    check_supported(item.expr)
                    if A.Var(item.var.name) in variables(inner):
                        raise UnsupportedError(f"?{item.var.name} AS … for a variable the pattern binds", STAGE)
                    items.append((item.var.name, item.expr))
            return EProject(inner, tuple(items))
    names = {M.Optional_: "OPTIONAL (use OPTIONALSEQ or EQUALSOPTIONAL)", M.Minus: "MINUS", M.Bind: "BIND",
             M.Values: "VALUES", M.GraphPattern: "GRAPH", M.StreamPattern: "a STREAM pattern"}
    raise UnsupportedError(f"{names.get(type(p), type(p).__name__)} in an EP-SPARQL event pattern", STAGE,
                           "events are stream triples; static data and windows are C-SPARQL/CQELS")


# ------------------------------------------------------------------------------ time functions


def rewrite_time(e: M.Expr, base: TimeBase) -> M.Expr:
    """The FILTER expression with the time functions replaced by the reserved variables of
    :data:`TIME_VARS` and durations by integers in base ticks: an ``xsd:duration`` literal anywhere,
    a plain number where it is compared with ``getDURATION()`` (seconds, as ETALIS reads it)."""
    match e:
        case M.FunctionCall(name, ()) if name in TIME_VARS:
            return M.Var(TIME_VARS[name])
        case M.Literal(lexical, datatype, _) if datatype == XSD_DURATION:
            try:
                d = M.Duration.from_xsd(lexical)
            except ValueError as exc:
                raise UnsupportedError(f'the duration "{lexical}"^^xsd:duration', STAGE, str(exc)) from None
            return M.Literal(str(base.ticks(d, "duration")), M.XSD + "integer")
        case M.BinaryOp(op, left, right) if op in _COMPARISONS:
            if _is_duration_fn(left) and _is_number(right):
                return M.BinaryOp(op, rewrite_time(left, base), _seconds(right, base))
            if _is_duration_fn(right) and _is_number(left):
                return M.BinaryOp(op, _seconds(left, base), rewrite_time(right, base))
            return M.BinaryOp(op, rewrite_time(left, base), rewrite_time(right, base))
        case M.BinaryOp(op, left, right):
            return M.BinaryOp(op, rewrite_time(left, base), rewrite_time(right, base))
        case M.UnaryOp(op, operand):
            return M.UnaryOp(op, rewrite_time(operand, base))
        case M.In(expr, values, negated):
            return M.In(rewrite_time(expr, base), tuple(rewrite_time(v, base) for v in values), negated)
        case M.FunctionCall(_, args):
            return dataclasses.replace(e, args=tuple(rewrite_time(a, base) for a in args))
    return e


def _is_duration_fn(e: M.Expr) -> bool:
    return isinstance(e, M.FunctionCall) and e.name == "getDURATION" and not e.args


def _is_number(e: M.Expr) -> TypeGuard[M.Literal]:
    return isinstance(e, M.Literal) and e.datatype in NUMERIC


def _seconds(lit: M.Literal, base: TimeBase) -> M.Literal:
    value = Decimal(lit.lexical)
    return M.Literal(str(base.ticks(M.Duration(value, "s"), "duration")), M.XSD + "integer")


def native_comparison(leaf: M.Expr, s: Term, e: Term) -> Comparison | None:
    """``?__ep_duration < 30`` (after :func:`rewrite_time`) as the LARS comparison ``E − S < 30``;
    None for anything else."""
    if not (isinstance(leaf, M.BinaryOp) and leaf.op in _COMPARISONS):
        return None
    values = {TIME_VARS["getDURATION"]: Arith("-", e, s), TIME_VARS["getSTARTTIME"]: s, TIME_VARS["getENDTIME"]: e}
    for time_side, number_side, op in ((leaf.left, leaf.right, leaf.op), (leaf.right, leaf.left, _FLIP[leaf.op])):
        if (isinstance(time_side, M.Var) and time_side.name in values and isinstance(number_side, M.Literal)
                and number_side.datatype == M.XSD + "integer"):
            return Comparison(op, values[time_side.name], Integer(int(number_side.lexical)))  # type: ignore[arg-type]
    return None


def dnf(e: M.Expr) -> list[list[M.Expr]]:
    """Lloyd–Topor on the top-level ``&&`` / ``||`` of an expression."""
    if isinstance(e, M.BinaryOp) and e.op == "||":
        return dnf(e.left) + dnf(e.right)
    if isinstance(e, M.BinaryOp) and e.op == "&&":
        return [a + b for a, b in itertools.product(dnf(e.left), dnf(e.right))]
    return [[e]]


def span(p: EPattern) -> int | None:
    """The longest interval a result of ``p`` can have, read off its structure (a triple pattern:
    0; UNION: the longer; EQUALS: the shorter; WITHIN d: at most d); None: unbounded."""
    match p:
        case ETriple():
            return 0
        case EBinary("UNION", left, right):
            a, b = span(left), span(right)
            return None if a is None or b is None else max(a, b)
        case EBinary("EQUALS", left, right):
            bounded = [x for x in (span(left), span(right)) if x is not None]
            return min(bounded) if bounded else None
        case EWithin(inner, ticks):
            inner_span = span(inner)
            return ticks if inner_span is None else min(ticks, inner_span)
        case EFilter(inner, _) | EProject(inner, _):
            return span(inner)
    return None


def duration_bound(p: EPattern, base: TimeBase) -> int | None:
    """The time bound d at the top of the pattern (module docstring): WITHIN d, a top-level
    conjunct ``getDURATION() < d`` / ``≤ d`` of a FILTER, or the pattern's :func:`span`; None if
    there is none."""
    structural = span(p)
    bounds: list[int] = [] if structural is None else [structural]
    while True:
        match p:
            case EWithin(inner, ticks):
                bounds.append(ticks)
                p = inner
            case EFilter(inner, expr):
                disjuncts = dnf(rewrite_time(expr, base))
                if len(disjuncts) == 1:
                    for leaf in disjuncts[0]:
                        c = native_comparison(leaf, Variable("S"), Variable("E"))
                        if c is not None and isinstance(c.left, Arith) and isinstance(c.right, Integer) and c.op in ("<", "<="):
                            bounds.append(c.right.value)
                p = inner
            case EProject(inner, _):
                p = inner
            case _:
                return min(bounds) if bounds else None


# ---------------------------------------------------------------------------------- translation


S1, E1, S2, E2, S, E, T = (Variable(n) for n in ("S1", "E1", "S2", "E2", "S", "E", "T"))


def ev(i: int) -> str:
    return f"ev{i}"


@dataclass
class EventTau:
    """Builds the rules of an event pattern (module docstring); ``window`` is the triple patterns'."""

    base: TimeBase
    window: Window = ALL
    rules: list[Rule] = field(default_factory=list)

    def head(self, i: int, p: EPattern, s: Term = S, e: Term = E, values: Mapping[A.Var, Term] | None = None,
             witnesses: Mapping[str, Term] | None = None) -> Atom:
        """``ev_i(X̄, W̄, S, E)``: the pattern's variables (``values`` replace some), its witness
        columns (:func:`witness`, each the variable of its name unless ``witnesses`` gives a term),
        the interval."""
        values, witnesses = values or {}, witnesses or {}
        return Atom(ev(i), (*(values.get(v, lars_var(v)) for v in A.ordered(variables(p))),
                            *(witnesses.get(w, Variable(w)) for w in witness(i, p)), s, e))

    def add(self, head: Atom, body: list[BodyElement]) -> None:
        self.rules.append(Rule(head, tuple(body)))

    def translate(self, p: EPattern, i: int) -> None:
        match p:
            case ETriple(t):
                terms = tuple(lars_var(x) if isinstance(x, A.Var) else x for x in (t.s, t.p, t.o))
                at = WindowAt(self.window, Atom(STRIPLE, (*terms, Variable("G"))), T)
                self.add(self.head(i, p, T, T, witnesses={witness(i, p)[0]: T}), [Literal(at)])
            case EBinary(op, left, right):
                self.translate(left, 2 * i)
                self.translate(right, 2 * i + 1)
                getattr(self, f"_{op.lower()}")(p, i)
            case EFilter(inner, expr):
                self.translate(inner, 2 * i)
                rewritten = rewrite_time(expr, self.base)
                for conj in dnf(rewritten):
                    tests = [self.test(leaf, variables(inner)) for leaf in conj]
                    self.add(self.head(i, p), [Literal(self.head(2 * i, inner)), *tests])
            case EWithin(inner, ticks):
                self.translate(inner, 2 * i)
                self.add(self.head(i, p), [Literal(self.head(2 * i, inner)),
                                           Comparison("<=", Arith("-", E, S), Integer(ticks))])
            case EProject(inner, items):
                self.translate(inner, 2 * i)
                scope = variables(inner)
                values = [self.value(expr, A.Var(name), scope) for name, expr in items if expr is not None]
                head_values = {A.Var(n): NULL for n, e in items if e is None and A.Var(n) not in scope}
                kept = dict(zip(witness(i, p), (lars_var(v) for v in _hidden_inside(inner, items))))
                self.add(self.head(i, p, values=head_values, witnesses=kept), [Literal(self.head(2 * i, inner)), *values])
            case _:
                raise TypeError(p)

    # -- operators

    def _pairs(self, p: EBinary, i: int) -> Iterator[tuple[dict, dict, list[BodyElement]]]:
        """(left values, right values, body) for every way a left and a right result are compatible
        (SPARQL §18.3, as τ's ``compatible_cases``: a shared variable that may be unbound joins
        with anything when it is)."""
        shared = A.ordered(variables(p.left) & variables(p.right))
        sure_l, sure_r = certain(p.left), certain(p.right)
        options = [["equal"] + (["left-null"] if v not in sure_l else []) + (["right-null"] if v not in sure_r else [])
                   for v in shared]
        for combo in itertools.product(*options):
            lv = {v: NULL for v, c in zip(shared, combo) if c == "left-null"}
            rv = {v: NULL for v, c in zip(shared, combo) if c == "right-null"}
            yield lv, rv, []

    def _and(self, p: EBinary, i: int) -> None:
        for lv, rv, _ in self._pairs(p, i):
            body = [Literal(self.head(2 * i, p.left, S1, E1, lv)), Literal(self.head(2 * i + 1, p.right, S2, E2, rv))]
            for start_test, start in ((Comparison("<=", S1, S2), S1), (Comparison(">", S1, S2), S2)):
                for end_test, end in ((Comparison(">=", E1, E2), E1), (Comparison("<", E1, E2), E2)):
                    self.add(self.head(i, p, start, end), [*body, start_test, end_test])

    def _union(self, p: EBinary, i: int) -> None:
        for branch, (k, side, other) in enumerate(((2 * i, p.left, (2 * i + 1, p.right)),
                                                   (2 * i + 1, p.right, (2 * i, p.left))), start=1):
            missing = {v: NULL for v in variables(p) - variables(side)}
            tags: dict[str, Term] = {f"B{i}": Integer(branch), **{w: NULL for w in witness(*other)}}
            self.add(self.head(i, p, values=missing, witnesses=tags), [Literal(self.head(k, side))])

    def _event_body(self, p: EBinary, i: int, op: str, lv: dict, rv: dict) -> tuple[list[BodyElement], Term, Term]:
        body: list[BodyElement]
        if op == "SEQ":
            body = [Literal(self.head(2 * i, p.left, S1, E1, lv)), Literal(self.head(2 * i + 1, p.right, S2, E2, rv)),
                    Comparison("<", E1, S2)]
            return body, S1, E2
        body = [Literal(self.head(2 * i, p.left, S1, E1, lv)), Literal(self.head(2 * i + 1, p.right, S1, E1, rv))]
        return body, S1, E1

    def _seq(self, p: EBinary, i: int) -> None:
        for lv, rv, _ in self._pairs(p, i):
            body, s, e = self._event_body(p, i, "SEQ", lv, rv)
            self.add(self.head(i, p, s, e), body)

    def _equals(self, p: EBinary, i: int) -> None:
        for lv, rv, _ in self._pairs(p, i):
            body, s, e = self._event_body(p, i, "EQUALS", lv, rv)
            self.add(self.head(i, p, s, e), body)

    def _optional(self, p: EBinary, i: int, op: str) -> None:
        # whether a left result is extended depends on its mapping and interval, not on its witness
        extended = Atom(f"ext{i}", (*(lars_var(v) for v in A.ordered(variables(p.left))), S1, E1))
        for lv, rv, _ in self._pairs(p, i):
            body, s, e = self._event_body(p, i, op, lv, rv)
            self.add(self.head(i, p, s, e), body)
            self.add(Atom(extended.predicate, tuple(lv.get(v, lars_var(v)) for v in A.ordered(variables(p.left))) + (S1, E1)),
                     body)
        missing = {v: NULL for v in variables(p) - variables(p.left)}
        unmatched = {w: NULL for w in witness(2 * i + 1, p.right)}
        self.add(self.head(i, p, S1, E1, missing, unmatched),
                 [Literal(self.head(2 * i, p.left, S1, E1)), Literal(extended, negated=True)])

    def _optionalseq(self, p: EBinary, i: int) -> None:
        self._optional(p, i, "SEQ")

    def _equalsoptional(self, p: EBinary, i: int) -> None:
        self._optional(p, i, "EQUALS")

    # -- expressions

    def test(self, leaf: M.Expr, scope: frozenset[A.Var], s: Term = S, e: Term = E) -> Comparison:
        native = native_comparison(leaf, s, e)
        if native is not None:
            return native
        check_supported(leaf)
        return Comparison("=", self.call(SPARQL_TEST, leaf, scope, s, e), Integer(1))

    def value(self, expr: M.Expr, var: A.Var, scope: frozenset[A.Var]) -> Comparison:
        rewritten = rewrite_time(expr, self.base)
        check_supported(rewritten)
        return Comparison("=", lars_var(var), self.call(SPARQL_VALUE, rewritten, scope, S, E))

    @staticmethod
    def call(function: str, leaf: M.Expr, scope: frozenset[A.Var], s: Term, e: Term) -> Call:
        """``@function("expr", X1, …)`` with ``E − S``, S, E for the time variables (D6)."""
        times = {TIME_VARS["getDURATION"]: Arith("-", e, s), TIME_VARS["getSTARTTIME"]: s, TIME_VARS["getENDTIME"]: e}
        args: list[Term] = []
        for v in M.expression_variables(leaf):
            if v.name in times:
                args.append(times[v.name])
            else:
                args.append(lars_var(A.Var(v.name)) if A.Var(v.name) in scope else NULL)
        return Call(function, (String(expression_text(leaf)), *args))


# ------------------------------------------------------------------------------------ compilation


@dataclass(frozen=True)
class EventCompiled:
    """An EP-SPARQL query translated into LARS (the attributes ``rsplars`` prints and reads back as
    for :class:`translator.translate.compile.Compiled`); ``answer(V̄, S, E)`` atoms carry each
    complex event's interval after the result variables."""

    query: M.Query
    program: Program
    variables: tuple[str, ...]
    form: str
    bound: int | None
    """The time bound of the pattern in base ticks (None: unbounded, windows ``⊞^∞``)."""
    warnings: tuple[str, ...] = ()
    strategy: str = "epsparql"
    mode: str = "push"
    period: int | None = None
    bounds: WindowBounds = WindowBounds.CLOSED
    answer_predicate: str = ANSWER
    interval: bool = True
    hidden: tuple[str, ...] = ()
    """Names of the hidden columns between the result variables and the interval of the ``answer``
    atoms: the pattern's other variables, then its witness columns (``_w4``, ``_b2``, …; D5)."""

    @property
    def width(self) -> int | None:
        """The number of visible columns when the answers carry hidden ones (None: every answer
        atom is a distinct answer, as after DISTINCT, in CONSTRUCT and ASK)."""
        return len(self.variables) if self.hidden else None


def reject_unsupported(query: M.Query) -> None:
    from translator.query.errors import reject_property_paths

    reject_property_paths(query, STAGE)
    from translator.translate.fresh import reject_fresh  # no solution reaches its expressions

    reject_fresh(query, STAGE)
    mods = query.modifiers
    for name, present in (("ORDER BY", mods.order_by), ("LIMIT", mods.limit is not None),
                          ("OFFSET", mods.offset is not None), ("GROUP BY / HAVING", mods.group_by or mods.having)):
        if present:
            raise UnsupportedError(name, STAGE, "complex events are reported one by one, when detected")
    if isinstance(query.form, M.Describe):
        raise UnsupportedError("DESCRIBE", STAGE)
    if query.dataset != M.Dataset():
        raise UnsupportedError("FROM clauses", STAGE, "EP-SPARQL queries read the event stream only")


def unbounded_warning(bound: int | None) -> tuple[str, ...]:
    if bound is not None:
        return ()
    return ("the event pattern has no time bound (WITHIN d, or FILTER (getDURATION() < d)): the answers are "
            "exact, but every event is kept, so the state grows with the stream; add WITHIN d to bound it",)


def compile_epsparql(query: M.Query, *, base: TimeBase = TimeBase()) -> EventCompiled:
    """Translate an EP-SPARQL query into its push-evaluated LARS program (module docstring)."""
    reject_unsupported(query)
    pattern = event_pattern(query.where, base)
    bound = duration_bound(pattern, base)
    window = ALL if bound is None else TimeWindow(bound, 0, 1)
    tau = EventTau(base, window)
    tau.translate(pattern, 1)
    scope = variables(pattern)
    form, names, extra = result_form(query, scope, tau)
    body: list[BodyElement] = [Literal(tau.head(1, pattern)), *extra, Literal(WindowAt(NOW, TRUE, E))]
    bound_vars = scope | {A.Var(n) for n in names if any(isinstance(x, Comparison) and x.left == lars_var(A.Var(n))
                                                           for x in extra)}
    hidden_vars: tuple[A.Var, ...] = ()
    hidden_witness: tuple[str, ...] = ()
    if form == "select" and getattr(query.form, "modifier", None) not in ("DISTINCT", "REDUCED"):
        hidden_vars = tuple(v for v in A.ordered(scope) if v.name not in names)
        hidden_witness = witness(1, pattern)
    head = Atom(ANSWER, (*(lars_var(A.Var(n)) if A.Var(n) in bound_vars else NULL for n in names),
                         *(lars_var(v) for v in hidden_vars), *(Variable(w) for w in hidden_witness), S, E))
    program = modes.push(Program((*tau.rules, Rule(head, tuple(body)))))
    hidden = (*(v.name for v in hidden_vars), *("_" + w.lower() for w in hidden_witness))
    return EventCompiled(query, program, names, form, bound, unbounded_warning(bound), hidden=hidden)


def result_form(query: M.Query, scope: frozenset[A.Var], tau: EventTau) -> tuple[str, tuple[str, ...], list]:
    """(form, answer variables, extra body elements for SELECT expressions)."""
    form = query.form
    if isinstance(form, M.Select):
        if form.star:
            return "select", tuple(v.name for v in M.result_variables(query) if A.Var(v.name) in scope), []
        names, extra = [], []
        for item in form.projection:
            if isinstance(item, M.Projection):
                extra.append(tau.value(item.expr, A.Var(item.var.name), scope))
                names.append(item.var.name)
            else:
                names.append(item.name)
        return "select", tuple(names), extra
    if isinstance(form, M.Construct):
        return "construct", construct_variables(query, scope), []
    if isinstance(form, M.Ask):
        return "ask", (), []
    raise UnsupportedError(type(form).__name__.upper(), STAGE)


# ------------------------------------------------------------------------- policies (operands)


@dataclass(frozen=True)
class Operand:
    """A SEQ operand of a policy run: a conjunction of triple patterns, answered by
    ``opnd<k>(X̄, L1, …, Ln)`` (Lj: the time of the event matching triple pattern j)."""

    k: int
    variables: tuple[str, ...]
    triples: tuple[A.Triple, ...]


@dataclass(frozen=True)
class PolicySeq:
    left: "PolicyNode"
    right: "PolicyNode"


PolicyNode = Union[Operand, PolicySeq]


@dataclass(frozen=True)
class PolicyCompiled:
    """What a policy run needs (``translator.evaluate.epsparql_run``): the LARS program of the
    operands, the SEQ tree over them, the conditions on the whole pattern (FILTER, in base ticks
    after :func:`rewrite_time`; WITHIN), and the result form."""

    query: M.Query
    program: Program
    tree: PolicyNode
    filters: tuple[M.Expr, ...]
    within: int | None
    variables: tuple[str, ...]
    form: str
    projections: tuple[tuple[str, M.Expr], ...] = ()
    warnings: tuple[str, ...] = ()
    bound: int | None = None


def compile_policy_operands(query: M.Query, *, base: TimeBase = TimeBase()) -> PolicyCompiled:
    """The operand program of a run under a selection or consumption policy (Dell'Aglio et al. 2016, §4.3–4.4).

    Dell'Aglio et al. 2016 define the policies for SEQ over basic event patterns; so the pattern must be a tree
    of SEQ whose operands are conjunctions of triple patterns (each triple an event), with FILTER
    and WITHIN only on the whole pattern. Anything else is a named unsupported error.
    """
    reject_unsupported(query)
    pattern = event_pattern(query.where, base)
    filters: list[M.Expr] = []
    within: list[int] = []
    while isinstance(pattern, (EFilter, EWithin)):
        if isinstance(pattern, EFilter):
            filters.append(rewrite_time(pattern.expr, base))
        else:
            within.append(pattern.ticks)
        pattern = pattern.pattern
    counter = itertools.count(1)
    rules: list[Rule] = []

    def conj(p: EPattern) -> list[A.Triple] | None:
        match p:
            case ETriple(t):
                return [t]
            case EBinary("AND", left, right):
                a, b = conj(left), conj(right)
                return None if a is None or b is None else a + b
        return None

    def tree(p: EPattern) -> PolicyNode:
        if isinstance(p, EBinary) and p.op == "SEQ":
            return PolicySeq(tree(p.left), tree(p.right))
        triples = conj(p)
        if triples is None:
            raise UnsupportedError("a selection or consumption policy on this pattern", STAGE,
                                   "Dell'Aglio et al. 2016 define the policies for SEQ over triple patterns: write the "
                                   "pattern as {…} SEQ {…} SEQ … with triple patterns in the groups, FILTER and "
                                   "WITHIN at the end")
        k = next(counter)
        names = tuple(v.name for v in A.ordered(reduce(frozenset.union, (A.variables(t) for t in triples))))
        times = [Variable(f"L{j}") for j in range(1, len(triples) + 1)]
        body = []
        for t, time in zip(triples, times):
            terms = tuple(lars_var(x) if isinstance(x, A.Var) else x for x in (t.s, t.p, t.o))
            body.append(Literal(WindowAt(ALL, Atom(STRIPLE, (*terms, Variable("G"))), time)))
        rules.append(Rule(Atom(f"opnd{k}", (*(lars_var(A.Var(n)) for n in names), *times)), tuple(body)))
        return Operand(k, names, tuple(triples))

    root = tree(pattern)
    if not isinstance(root, PolicySeq):
        raise UnsupportedError("a selection or consumption policy on a pattern without SEQ", STAGE,
                               "the policies of Dell'Aglio et al. 2016 select among SEQ matches")
    scope = variables(pattern)
    form = query.form
    projections: list[tuple[str, M.Expr]] = []
    if isinstance(form, M.Select) and not form.star:
        names = []
        for item in form.projection:
            if isinstance(item, M.Projection):
                check_supported(rewrite_time(item.expr, base))
                projections.append((item.var.name, rewrite_time(item.expr, base)))
                names.append(item.var.name)
            else:
                names.append(item.name)
        kind = "select"
    elif isinstance(form, M.Select):
        names, kind = [v.name for v in M.result_variables(query) if A.Var(v.name) in scope], "select"
    elif isinstance(form, M.Construct):
        names, kind = list(construct_variables(query, scope)), "construct"
    else:
        names, kind = [], "ask"
    for f in filters:
        for leaf in (x for c in dnf(f) for x in c):
            check_supported(leaf)
    bound = min(within) if within else None
    warning = ("a selection or consumption policy selects among all matches since the start of the stream (seed "
               "003: a landmark window), so every event is kept and the state grows with the stream",)
    return PolicyCompiled(query, modes.push(Program(tuple(rules))), root, tuple(filters), bound, tuple(names), kind,
                          tuple(projections), warning, bound)


__all__ = ["EventCompiled", "PolicyCompiled", "compile_epsparql", "compile_policy_operands", "event_pattern",
           "rewrite_time", "TIME_VARS"]
