"""Query model → translation algebra (SPARQL 1.1 §18.2.2, Dao-Tran, Beck, Eiter 2015, §3).

:func:`pattern_algebra` turns the WHERE group of a parsed query into the binary algebra of
:mod:`translator.translate.algebra` the way SPARQL 1.1 translates group graph patterns
(`§18.2.2.6 <https://www.w3.org/TR/sparql11-query/#convertGraphPattern>`_): the elements of a
group are joined left to right, ``OPTIONAL`` becomes a LeftJoin with the filters of the optional
group as its condition, ``MINUS`` and ``BIND`` apply to everything before them, and the group's
FILTERs apply to the whole group. RDF terms become LARS ground terms (N-Triples strings, D7);
blank nodes in patterns act as variables (§4.1.4). Windows get their lengths in base ticks (D1).

A triple pattern whose predicate is a property path becomes an :class:`A.PathTriple`
(:mod:`translator.translate.paths` translates it); a sub-query becomes an :class:`A.SubQuery`
(:mod:`translator.translate.subquery_scope`, :mod:`translator.translate.subqueries`).
What the translations cannot express raises a named :class:`lars.errors.UnsupportedError`:
EXISTS other than as a FILTER conjunct, EP-SPARQL event operators, STREAM or GRAPH patterns
nested inside a STREAM pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Iterable

from lars.errors import UnsupportedError
from lars.model import String
from translator.translate import algebra as A
from translator.query import model as M
from translator.query.printer import CorePrinter, expression_text
from translator.rdf.terms import iri_nt, literal_nt
from translator.rdf.timeunits import TimeUnitError, to_base_units, unit_ms
from translator.translate.aggregating import needs_aggregation
from translator.translate.expressions import remember_expression
from translator.translate.subquery_scope import checked, projected_names
from translator.translate.algebra import AllOf, AnyOf, Condition

STAGE = "translation to LARS"


@dataclass(frozen=True)
class TimeBase:
    """The base unit of the run (D1; default seconds): query durations must be whole numbers of it."""

    unit: str = "s"

    def __post_init__(self) -> None:
        unit_ms(self.unit)  # rejects an unknown unit

    def ticks(self, d: M.Duration, what: str = "duration") -> int:
        written = d.lexical or f"{d.value}{d.unit}"
        ms = d.ms
        if ms != ms.to_integral_value():
            raise TimeUnitError(f"the {what} {written} is not a whole number of milliseconds")
        return to_base_units(int(ms), self.unit, what=f"the {what} {written}")


# ----------------------------------------------------------------------------------------- terms


def term(t: M.Term) -> A.Var | String:
    """A pattern term: variables stay variables, blank nodes are variables (§4.1.4), RDF terms
    become N-Triples strings (D7)."""
    match t:
        case M.Var(name):
            return A.Var(name)
        case M.BlankNode(label):
            return A.Var(f"_bnode_{label}")
        case M.IRI(value):
            return String(iri_nt(value))
        case M.Literal(lexical, datatype, lang):
            return String(literal_nt(lexical, datatype, lang))
    raise UnsupportedError(f"the term {t!r}", STAGE)


def triple(t: M.TriplePattern) -> A.Triple:
    if isinstance(t.predicate, M.Path):
        raise UnsupportedError(f"the property path {_printed_path(t.predicate)}", STAGE,
                               "write the path out as triple patterns")
    return A.Triple(term(t.subject), term(t.predicate), term(t.object))


def path_triple(t: M.TriplePattern) -> A.Triple | A.PathTriple:
    """A triple pattern of a basic graph pattern: a plain :class:`A.Triple`, or an
    :class:`A.PathTriple` when its predicate is a property path (SPARQL 1.1 §9)."""
    if isinstance(t.predicate, M.Path):
        return A.PathTriple(term(t.subject), path(t.predicate), term(t.object))
    return triple(t)


def path(p: M.Path | M.IRI) -> A.PathExpr:
    """A property path with its IRIs as N-Triples strings (D7); a negated property set is split
    into its forward and inverse members (§18.2.2.4)."""
    if isinstance(p, M.IRI):
        return A.PathLink(String(iri_nt(p.value)))
    if p.op == "!":
        forward: list[String] = []
        inverse: list[String] = []
        for m in p.args:
            if isinstance(m, M.IRI):
                forward.append(String(iri_nt(m.value)))
            elif isinstance(m, M.Path) and m.op == "inv" and isinstance(m.args[0], M.IRI):
                inverse.append(String(iri_nt(m.args[0].value)))
            else:
                raise UnsupportedError(f"the negated property set member {m!r}", STAGE)
        return A.NegatedSet(tuple(forward), tuple(inverse))
    if p.op not in ("seq", "alt", "inv", "?", "*", "+"):
        raise UnsupportedError(f"the property path operator {p.op!r}", STAGE)
    return A.PathOp(p.op, tuple(path(a) for a in p.args))


def _printed_path(p: M.Path) -> str:
    return CorePrinter(M.Query("csparql", M.Select(()), M.Group(()))).path(p)


# ----------------------------------------------------------------------------------- expressions


def expression(e: M.Expr) -> A.Expression:
    """An expression as canonical SPARQL text (full IRIs) with the variables it reads."""
    text = expression_text(e)
    remember_expression(text, e)
    return A.Expression(text, tuple(A.Var(v.name) for v in M.expression_variables(e)))


def condition(e: M.Expr, base: "TimeBase | None" = None) -> Condition:
    """A FILTER condition with its top-level ``&&`` / ``||`` made explicit (Lloyd–Topor); a leaf
    ``EXISTS { P }``, ``NOT EXISTS { P }`` or ``!EXISTS { P }`` becomes an :class:`A.ExistsTest`."""
    if isinstance(e, M.BinaryOp) and e.op == "&&":
        return AllOf((condition(e.left, base), condition(e.right, base)))
    if isinstance(e, M.BinaryOp) and e.op == "||":
        return AnyOf((condition(e.left, base), condition(e.right, base)))
    negated = False
    inner = e
    while isinstance(inner, M.UnaryOp) and inner.op == "!" and isinstance(_strip_not(inner), M.Exists):
        negated, inner = not negated, inner.operand
    if isinstance(inner, M.Exists):
        return A.ExistsTest(_group(inner.pattern, base or TimeBase()), negated != inner.negated)
    _reject_in_expression(e)
    return expression(e)


def _strip_not(e: M.Expr) -> M.Expr:
    while isinstance(e, M.UnaryOp) and e.op == "!":
        e = e.operand
    return e


def _reject_in_expression(e: M.Expr) -> None:
    from translator.translate.expressions import check_supported

    check_supported(e)


# --------------------------------------------------------------------------------------- windows


def window(w: M.Window, base: TimeBase) -> A.WindowSpec:
    """A window expression ω with its durations in base ticks (D1); Table 1 maps it to LARS."""
    match w.kind:
        case "now":
            return A.WindowSpec("now")
        case "all":
            return A.WindowSpec("all")
        case "triples" | "rows":
            return A.WindowSpec("triples", rows=w.rows)
        case "range" | "tumbling":
            assert w.range is not None
            length = base.ticks(w.range, "window range")
            if w.kind == "tumbling":
                step = length
            elif w.step is not None:
                step = base.ticks(w.step, "window step")
            else:
                step = 1
            if step < 1:
                raise TimeUnitError(f"a window step must be at least one {base.unit}")
            return A.WindowSpec("range", range=length, step=step)
        case "interval":  # RSP-QL [FROM NOW-a TO NOW-b STEP d]
            assert w.range is not None
            start = base.ticks(w.range, "window start")
            until = base.ticks(w.until, "window end") if w.until is not None else 0
            step = base.ticks(w.step, "window step") if w.step is not None else 1
            if step < 1:
                raise TimeUnitError(f"a window step must be at least one {base.unit}")
            return A.WindowSpec("interval", range=start, step=step, until=until)
    raise UnsupportedError(f"the window kind {w.kind}", STAGE)


# -------------------------------------------------------------------------------------- patterns


def pattern_algebra(group: M.Group, base: TimeBase = TimeBase()) -> A.Pattern:
    """``P`` of the query as a binary algebra expression (§18.2.2.6)."""
    return _group(group, base)


def _join(left: A.Pattern, right: A.Pattern) -> A.Pattern:
    if isinstance(left, A.Empty):
        return right
    if isinstance(right, A.Empty):
        return left
    return A.Join(left, right)


def _group(g: M.Group, base: TimeBase) -> A.Pattern:
    current: A.Pattern = A.Empty()
    filters: list[M.Expr] = []
    for part in g.parts:
        match part:
            case M.Filter(expr):
                filters.append(expr)
            case M.Optional_(inner):
                right = _group(inner, base)
                cond = None
                # §18.2.2.6: OPTIONAL's group translated to Filter(F, A2) gives LeftJoin(G, A2, F),
                # F seeing the bindings of G. Only the group's own FILTERs make that form: in
                # ``OPTIONAL { { P FILTER(F) } }`` the translation is Join(Z, Filter(F, P)) (Z is
                # simplified away only after the whole translation, §18.2.2.8), so F stays inside
                if isinstance(right, A.Filter) and any(isinstance(x, M.Filter) for x in inner.parts):
                    cond, right = right.condition, right.pattern
                current = A.Optional_(current, right, cond)
            case M.Minus(inner):
                current = A.Minus(current, _group(inner, base))
            case M.Bind(expr, var):
                _reject_in_expression(expr)
                current = A.Bind(current, expression(expr), A.Var(var.name))
            case _:
                current = _join(current, _element(part, base))
    if filters:
        cond = condition(reduce(lambda a, b: M.BinaryOp("&&", a, b), filters), base)
        current = A.Filter(current, cond)
    return current


def _element(p: M.Pattern, base: TimeBase) -> A.Pattern:
    match p:
        case M.BGP(triples):
            empty: A.Pattern = A.Empty()
            return reduce(_join, (path_triple(t) for t in triples), empty)
        case M.Group():
            return _group(p, base)
        case M.Union_(left, right):
            return A.Union_(_element(left, base), _element(right, base))
        case M.GraphPattern(name, inner):
            return A.Graph(term(name), _group(inner, base))
        case M.Values(vars_, rows):
            converted = tuple(tuple(None if v is None else term(v) for v in row) for row in rows)
            return A.Values(tuple(A.Var(v.name) for v in vars_), converted)  # type: ignore[arg-type]
        case M.StreamPattern(stream, w, inner):
            return A.Stream(term(stream), window(w, base), _stream_body(inner, base))
        case M.EventPattern(op, _, _):
            raise UnsupportedError(f"the EP-SPARQL event operator {op}", STAGE,
                                   "event processing has no LARS translation in Dao-Tran, Beck, Eiter 2015")
        case M.SubSelect():
            sub = checked(p)
            return _sub_query(sub, _group(sub.where, base))
    raise UnsupportedError(f"the pattern {type(p).__name__}", STAGE)


def _sub_query(sub: M.SubSelect, pattern: A.Pattern) -> A.SubQuery:
    """A sub-query (SPARQL 1.1 §12; :mod:`translator.translate.subquery_scope` has checked it and
    renamed its local variables apart) over its WHERE ``pattern``: its SELECT expressions as BINDs
    and its projected variables (``SELECT *``: those in scope of the pattern). One that aggregates
    gets its grouping after this translation (:mod:`translator.translate.subqueries`)."""
    if needs_aggregation(M.Query("csparql", sub.select, sub.where, modifiers=sub.modifiers)):
        names = tuple(A.Var(n) for n in projected_names(sub))
        return A.SubQuery(pattern, names, frozenset(), sub, grouped=True)
    names_, pattern = select_projection(sub.select, sub.where, pattern)
    projected = tuple(A.Var(v) for v in dict.fromkeys(names_))
    return A.SubQuery(pattern, projected, A.certain(pattern) & frozenset(projected), sub)


def select_projection(select: M.Select, where: M.Group, pattern: A.Pattern) -> tuple[list[str], A.Pattern]:
    """The projected names of a SELECT over the solutions of its WHERE (``pattern``, in algebra
    form) and the pattern extended by its expressions ``(expr AS ?v)`` as BINDs (SPARQL 1.1
    §18.2.4.4 Extend); ``SELECT *``: the variables in scope of WHERE in order of first occurrence
    (MINUS's right side is not in scope)."""
    names: list[str] = []
    for item in select.projection:
        if isinstance(item, M.Projection):
            _reject_in_expression(item.expr)
            pattern = A.Bind(pattern, expression(item.expr), A.Var(item.var.name))
            names.append(item.var.name)
        else:
            names.append(item.name)
    if select.star:
        scope = {v.name for v in A.variables(pattern)}
        names = [v.name for v in M.pattern_variables(where) if v.name in scope]
    return names, pattern


def _stream_body(g: M.Group, base: TimeBase) -> A.Pattern:
    """The graph pattern g of ``(STREAM s ω g)``. Dao-Tran, Beck, Eiter 2015, §3 makes g a basic graph pattern;
    rsplars takes any group (OPTIONAL, UNION, MINUS, FILTER, BIND, VALUES, nested groups: the τ2
    extension of ``docs/translation.md``) except another STREAM or a GRAPH inside it, which would
    change the graph the window's triples are matched in."""
    for node in M.walk_patterns(g):
        if isinstance(node, (M.StreamPattern, M.GraphPattern)):
            what = "STREAM" if isinstance(node, M.StreamPattern) else "GRAPH"
            where = getattr(node, "position", None) or getattr(g, "position", None)
            raise UnsupportedError(f"a {what} pattern inside a STREAM pattern", STAGE,
                                   (f"at {where}: " if where else "") + "a stream pattern's triples are matched in its window only")
    return _group(g, base)


def stream_sources(query: M.Query, base: TimeBase = TimeBase()) -> tuple[A.StreamSource, ...]:
    """C-SPARQL ``FROM [NAMED] STREAM`` clauses for τ1's import rules."""
    return tuple(
        A.StreamSource(String(iri_nt(s.iri.value)), window(s.window, base), s.named)
        for s in query.dataset.streams
    )


__all__ = ["TimeBase", "condition", "expression", "path", "path_triple", "pattern_algebra", "stream_sources", "window"]


def construct_variables(query: M.Query, scope: Iterable[A.Var]) -> tuple[str, ...]:
    """The answer variables of a CONSTRUCT query: the template's, then the other variables in
    scope. The template is instantiated once per *solution* (SPARQL 1.1 §16.2), so the answer
    keeps the whole solution: two solutions that agree on the template's variables still give two
    fresh blank nodes (answers are sets of solutions, D5)."""
    template = [v.name for v in M.result_variables(query)]
    return (*template, *sorted(v.name for v in scope if v.name not in template))
