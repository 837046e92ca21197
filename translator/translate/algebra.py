"""The graph-pattern algebra that the RSP → LARS translations work on (Dao-Tran, Beck, Eiter 2015, §3, §4.3).

A normalised view of the pattern ``P`` and the stream graph patterns ``S`` of an RSP query
``Q = (V, P, D, S)``: binary AND / UNION / MINUS / OPT as in Polleres (WWW 2007) and Fig. 1 of
Dao-Tran, Beck, Eiter 2015, FILTER, GRAPH, BIND, VALUES, and the CQELS stream graph pattern ``(STREAM s ω g)``.

Constants are already LARS ground terms (an RDF term is a :class:`lars.model.String` holding its
N-Triples form, D7), so the translation never has to know about rdflib. Filter and bind
expressions are kept opaque here (:class:`Expression`: SPARQL text plus the variables it reads);
they are evaluated exactly at grounding time (D6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import singledispatch
from typing import Protocol, Union

from lars.model import Atom, Constant, Integer, Rule, String, Variable


@dataclass(frozen=True, order=True)
class Var:
    """A SPARQL variable ``?name`` (name without the ``?``)."""

    name: str


Constant_ = Union[String, Constant, Integer]
"""A ground LARS term standing for an RDF term."""

PatternTerm = Union[Var, Constant_]


@dataclass(frozen=True)
class Expression:
    """A SPARQL expression kept as canonical text with the variables it reads, in order of first
    occurrence (``text`` uses ``?name`` for them)."""

    text: str
    variables: tuple[Var, ...]


@dataclass(frozen=True)
class Triple:
    """A triple pattern ``(s, p, o)``."""

    s: PatternTerm
    p: PatternTerm
    o: PatternTerm


@dataclass(frozen=True)
class Join:
    """``P1 AND P2``."""

    left: "Pattern"
    right: "Pattern"


@dataclass(frozen=True)
class Union_:
    """``P1 UNION P2``."""

    left: "Pattern"
    right: "Pattern"


@dataclass(frozen=True)
class Minus:
    """SPARQL 1.1 ``P1 MINUS P2``: drop a solution of P1 that is compatible with some solution of
    P2 sharing at least one bound variable with it."""

    left: "Pattern"
    right: "Pattern"


@dataclass(frozen=True)
class Optional_:
    """``P1 OPT P2`` (SPARQL LeftJoin), with the filter of the optional group if any."""

    left: "Pattern"
    right: "Pattern"
    condition: "Condition | None" = None


@dataclass(frozen=True)
class ExistsTest:
    """A leaf ``EXISTS { P }`` (``negated``: ``NOT EXISTS``) of a FILTER condition."""

    pattern: "Pattern"
    negated: bool = False


@dataclass(frozen=True)
class AllOf:
    """Conjunction of conditions (top-level ``&&``)."""

    parts: tuple["Condition", ...]


@dataclass(frozen=True)
class AnyOf:
    """Disjunction of conditions (top-level ``||``)."""

    parts: tuple["Condition", ...]


#: a FILTER condition with its top-level ``&&`` / ``||`` made explicit (Lloyd–Topor)
Condition = Union[Expression, AllOf, AnyOf, ExistsTest]


@dataclass(frozen=True)
class Filter:
    """``P FILTER R``."""

    pattern: "Pattern"
    condition: Condition


@dataclass(frozen=True)
class Graph:
    """``GRAPH g P`` with g an IRI or a variable."""

    graph: PatternTerm
    pattern: "Pattern"


@dataclass(frozen=True)
class Bind:
    """``P BIND(expr AS ?var)``: ``var`` is unbound where ``expr`` raises an error."""

    pattern: "Pattern"
    expression: Expression
    var: Var


@dataclass(frozen=True)
class Values:
    """Inline data ``VALUES (?x …) { (… ) … }``; ``None`` is UNDEF."""

    variables: tuple[Var, ...]
    rows: tuple[tuple[Constant_ | None, ...], ...]


@dataclass(frozen=True)
class Empty:
    """The empty group ``{}``: one solution with no bindings."""


@dataclass(frozen=True)
class WindowSpec:
    """A window expression ω in base ticks (D1), before a bounds convention is applied.

    ``kind``: ``range`` (``range`` ticks, ``step`` ticks; TUMBLING has ``step == range``), ``now``,
    ``all`` (RANGE UNBOUNDED / CQELS ALL), ``triples`` (``rows`` triples of one stream) or
    ``interval`` (RSP-QL ``[FROM NOW-a TO NOW-b STEP d]``: ``range`` a, ``until`` b, ``step`` d).
    """

    kind: str
    range: int | None = None
    step: int = 1
    rows: int | None = None
    until: int = 0


@dataclass(frozen=True)
class Stream:
    """The CQELS stream graph pattern ``(STREAM s ω g)`` of Dao-Tran, Beck, Eiter 2015, §4.3 (τ2).

    Dao-Tran, Beck, Eiter 2015, §3 restricts g to a basic graph pattern; rsplars takes any graph pattern (the τ2
    extension of ``docs/translation.md``): the window ω applies to every triple pattern of g.
    """

    stream: PatternTerm
    window: WindowSpec
    pattern: "Pattern"

    @property
    def triples(self) -> tuple[Triple, ...] | None:
        """g's triple patterns when g is a basic graph pattern (a join of triple patterns, or
        ``{}``), the case of Dao-Tran, Beck, Eiter 2015, §3; ``None`` otherwise."""
        return bgp_triples(self.pattern)


@dataclass(frozen=True)
class PathLink:
    """A property path that is one IRI (SPARQL 1.1 §18.2.2.4 ``link``)."""

    iri: Constant_


@dataclass(frozen=True)
class PathOp:
    """A property path operator of SPARQL 1.1 §9.1 over sub-paths: ``seq`` and ``alt`` (two or
    more parts), ``inv``, ``?`` (ZeroOrOnePath), ``*`` (ZeroOrMorePath) and ``+`` (OneOrMorePath)
    (one part)."""

    op: str
    parts: tuple["PathExpr", ...]


@dataclass(frozen=True)
class NegatedSet:
    """A negated property set ``!(iri1|…|^irij|…)`` (§9.1): the forward members and the inverse
    members (§18.2.2.4 translates it to ``NPS(forward)``, ``inv(NPS(inverse))`` or their ``alt``)."""

    forward: tuple[Constant_, ...]
    inverse: tuple[Constant_, ...]


PathExpr = Union[PathLink, PathOp, NegatedSet]


@dataclass(frozen=True)
class PathTriple:
    """A triple pattern whose predicate is a property path that is not a single IRI (§9)."""

    s: PatternTerm
    path: PathExpr
    o: PatternTerm




class SolutionModifier(Protocol):
    """Grouping, aggregates, HAVING and SELECT expressions over the solutions of a pattern
    (:class:`translator.translate.aggregates.Aggregation`)."""

    def rules(self, solutions: Atom, native: bool = False, graph: Variable | None = None,
              witness: tuple["Var", ...] = ()) -> tuple[list[Rule], Atom, frozenset["Var"]]:
        ...

    def row_identity(self, scope: frozenset["Var"]) -> frozenset["Var"]:
        """The variables of the final rows (``scope``) that tell them apart (decision D5)."""
        ...


@dataclass(frozen=True)
class SubQuery:
    """A sub-query ``{ SELECT … WHERE P … }`` (SPARQL 1.1 §12, §18.2.1: ``ToMultiSet(eval(D, sub-select))``).

    ``pattern`` is P with the SELECT expressions of a sub-query without aggregation as BINDs,
    ``projected`` the variables it projects, in order; ``aggregation`` (``None``: none) groups and
    aggregates P's solutions, filters them by HAVING and evaluates the SELECT expressions on them.
    Only ``projected`` are in scope outside: P's other variables are local to the sub-query
    (Polleres and Wallner 2013, "From SPARQL to ASP": a sub-query is its own predicate). ``sure`` are the
    projected variables bound in every solution; ``source`` is the parsed sub-query, which tells
    two sub-queries apart (``aggregation`` takes no part in equality)."""

    pattern: "Pattern"
    projected: tuple[Var, ...]
    sure: frozenset[Var]
    source: object
    aggregation: SolutionModifier | None = field(default=None, compare=False)
    grouped: bool = False
    """The sub-query aggregates: ``aggregation`` is added after the translation to the algebra
    (:func:`translator.translate.subqueries.with_aggregation`), ``projected`` and ``sure`` with it."""


Pattern = Union[Triple, PathTriple, Join, Union_, Minus, Optional_, Filter, Graph, Bind, Values, Empty, Stream, SubQuery]


@dataclass(frozen=True)
class StreamSource:
    """A C-SPARQL ``FROM [NAMED] STREAM s [ω]`` (τ1 imports its window content)."""

    stream: Constant_
    window: WindowSpec
    named: bool = False


# ------------------------------------------------------------------------------------- variables


@singledispatch
def variables(pattern: Pattern) -> frozenset[Var]:
    """``vars(P)``: the variables a solution of P may bind (SPARQL in-scope variables)."""
    raise TypeError(f"not a pattern: {pattern!r}")


@variables.register
def _(p: Triple) -> frozenset[Var]:
    return frozenset(t for t in (p.s, p.p, p.o) if isinstance(t, Var))


@variables.register
def _(p: PathTriple) -> frozenset[Var]:
    return frozenset(t for t in (p.s, p.o) if isinstance(t, Var))


@variables.register(Join)
@variables.register(Union_)
@variables.register(Optional_)
def _(p) -> frozenset[Var]:
    return variables(p.left) | variables(p.right)


@variables.register
def _(p: Minus) -> frozenset[Var]:
    return variables(p.left)


@variables.register
def _(p: Filter) -> frozenset[Var]:
    return variables(p.pattern)


@variables.register
def _(p: Graph) -> frozenset[Var]:
    extra = {p.graph} if isinstance(p.graph, Var) else set()
    return variables(p.pattern) | extra


@variables.register
def _(p: Bind) -> frozenset[Var]:
    return variables(p.pattern) | {p.var}


@variables.register
def _(p: Values) -> frozenset[Var]:
    return frozenset(p.variables)


@variables.register
def _(p: Empty) -> frozenset[Var]:
    return frozenset()


@variables.register
def _(p: Stream) -> frozenset[Var]:
    extra = {p.stream} if isinstance(p.stream, Var) else set()
    return variables(p.pattern) | extra


@variables.register
def _(p: SubQuery) -> frozenset[Var]:
    return frozenset(p.projected)


@singledispatch
def certain(pattern: Pattern) -> frozenset[Var]:
    """The variables bound in *every* solution of P (never unbound, so never ``null``)."""
    raise TypeError(f"not a pattern: {pattern!r}")


@certain.register(Triple)
@certain.register(PathTriple)
def _(p) -> frozenset[Var]:
    return variables(p)


@certain.register
def _(p: Stream) -> frozenset[Var]:
    extra = {p.stream} if isinstance(p.stream, Var) else set()
    return certain(p.pattern) | extra


@certain.register
def _(p: Join) -> frozenset[Var]:
    return certain(p.left) | certain(p.right)


@certain.register
def _(p: Union_) -> frozenset[Var]:
    return certain(p.left) & certain(p.right)


@certain.register(Optional_)
@certain.register(Minus)
def _(p) -> frozenset[Var]:
    return certain(p.left)


@certain.register
def _(p: Filter) -> frozenset[Var]:
    return certain(p.pattern)


@certain.register
def _(p: Graph) -> frozenset[Var]:
    extra = {p.graph} if isinstance(p.graph, Var) else set()
    return certain(p.pattern) | extra


@certain.register
def _(p: Bind) -> frozenset[Var]:
    return certain(p.pattern)


@certain.register
def _(p: Values) -> frozenset[Var]:
    return frozenset(v for i, v in enumerate(p.variables) if all(r[i] is not None for r in p.rows))


@certain.register
def _(p: Empty) -> frozenset[Var]:
    return frozenset()


@certain.register
def _(p: SubQuery) -> frozenset[Var]:
    return p.sure


def bgp_triples(pattern: Pattern) -> tuple[Triple, ...] | None:
    """The triple patterns of a basic graph pattern (triple patterns joined, or ``{}``), in
    order; ``None`` if the pattern is anything else."""
    if isinstance(pattern, Triple):
        return (pattern,)
    if isinstance(pattern, Empty):
        return ()
    if isinstance(pattern, Join):
        left, right = bgp_triples(pattern.left), bgp_triples(pattern.right)
        if left is not None and right is not None:
            return left + right
    return None


def mentioned(pattern: Pattern) -> frozenset[Var]:
    """Every variable written in P, in scope or not: MINUS's right side, FILTER, BIND and OPTIONAL
    condition expressions included (what a substitution of P would touch, §18.6 exists)."""
    match pattern:
        case Triple() | PathTriple() | Values() | Empty():
            return variables(pattern)
        case Join(left, right) | Union_(left, right) | Minus(left, right):
            return mentioned(left) | mentioned(right)
        case Optional_(left, right, cond):
            return mentioned(left) | mentioned(right) | _condition_variables(cond)
        case Filter(inner, cond):
            return mentioned(inner) | _condition_variables(cond)
        case Graph(g, inner):
            return mentioned(inner) | ({g} if isinstance(g, Var) else set())
        case Bind(inner, expr, var):
            return mentioned(inner) | set(expr.variables) | {var}
        case Stream(s, _, inner):
            return mentioned(inner) | ({s} if isinstance(s, Var) else set())
        case SubQuery():  # the variables it does not project are its own (SPARQL 1.1 §12)
            return variables(pattern)
    raise TypeError(f"not a pattern: {pattern!r}")


def _condition_variables(cond) -> frozenset[Var]:
    if cond is None:
        return frozenset()
    if isinstance(cond, Expression):
        return frozenset(cond.variables)
    if isinstance(cond, ExistsTest):
        return mentioned(cond.pattern)
    return frozenset(v for part in cond.parts for v in _condition_variables(part))


def ordered(vs: frozenset[Var] | set[Var]) -> tuple[Var, ...]:
    """``V̄``: the variables ordered lexicographically (Dao-Tran, Beck, Eiter 2015, §3)."""
    return tuple(sorted(vs))
