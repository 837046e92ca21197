"""The RSP query model shared by C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL and RSEP-QL (Dao-Tran, Beck, Eiter 2015, §3).

A query is ``Q = (V, P, D, S)``: result form V (:class:`Select`, :class:`Construct`, :class:`Ask`,
:class:`Describe`), graph pattern P (:class:`Group` and the SPARQL 1.1 algebra nodes), dataset D
(:class:`Dataset`, including C-SPARQL's ``FROM [NAMED] STREAM`` sources) and the set S of stream
graph patterns ``(s, ω, g)`` — computed by :func:`stream_graph_patterns`:

* C-SPARQL ``FROM [NAMED] STREAM <s> [ω]`` is a :class:`StreamSource` of the dataset; its ``g`` is
  empty (``cs(Q)`` in 000-core §3: stream triples are merged into the default graph).
* CQELS ``STREAM <s> [ω] {g}`` inside WHERE is a :class:`StreamPattern` node of P *and* an element
  of S.
* RSP-QL ``FROM NAMED WINDOW <w> ON <s> [ω]`` is a :class:`NamedWindow` of the dataset (Dell'Aglio
  et al. 2014, Def 14: the named window graphs of the RSP-QL dataset), an element of S with the
  window's IRI; ``WINDOW <w> { g }`` / ``WINDOW ?w { g }`` inside WHERE is a :class:`WindowPattern`.

The model also carries what the dialects add: C-SPARQL registration and AGGREGATE clauses
(Barbieri et al. 2010, §2.2–2.5), EP-SPARQL event operators (:class:`EventPattern`), RSEP-QL event
windows, basic event patterns and MATCH (:class:`EventDataset`, :class:`MatchPattern`). Every node is a frozen
dataclass; IRIs are stored fully expanded (the prologue is kept so that printers can abbreviate).
Source positions never take part in equality (``compare=False``), so printing and re-parsing a
query gives an equal model.
"""

from __future__ import annotations

import re
import dataclasses
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Iterator, Union

# ---------------------------------------------------------------------------------------------
# positions and terms


@dataclass(frozen=True)
class Position:
    """1-based line and column of a construct in the query text."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


@dataclass(frozen=True)
class IRI:
    value: str


@dataclass(frozen=True)
class Literal:
    """An RDF literal: lexical form as written (unescaped), datatype IRI or language tag."""

    lexical: str
    datatype: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class BlankNode:
    label: str


@dataclass(frozen=True)
class Var:
    name: str  # without the leading ? or $


Term = Union[IRI, Literal, BlankNode, Var]


@dataclass(frozen=True)
class Path:
    """A SPARQL 1.1 property path (§9): ``op`` is ``seq``, ``alt``, ``inv``, ``?``, ``*``, ``+`` or
    ``!`` (a negated property set of IRIs and inverse IRIs).

    The translation to LARS turns them into rules (``translator.translate.paths``); EP-SPARQL's
    translation and the printers of dialects without paths reject them with an UnsupportedError
    naming the path.
    """

    op: str
    args: tuple[Union[IRI, "Path"], ...]


# ---------------------------------------------------------------------------------------------
# expressions (SPARQL 1.1 §17)


@dataclass(frozen=True)
class BinaryOp:
    """``op`` is one of ``|| && = != < > <= >= + - * /``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp:
    """``op`` is ``!``, ``-`` or ``+``."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class In:
    expr: Expr
    values: tuple[Expr, ...]
    negated: bool = False


@dataclass(frozen=True)
class FunctionCall:
    """A built-in call by canonical name (``BOUND``, ``REGEX``, C-SPARQL ``timestamp``,
    EP-SPARQL ``getDURATION`` …, see :data:`BUILTINS`). ``base`` is the base IRI in force where
    ``IRI``/``URI`` is written: IRI(str) resolves a relative IRI against it (SPARQL 1.1 §17.4.2.8);
    it is not printed (the prologue's BASE gives it back when the query is read again)."""

    name: str
    args: tuple[Expr, ...]
    base: str | None = None


@dataclass(frozen=True)
class IRICall:
    """A call of a function named by an IRI (``ex:f(?x)``)."""

    iri: IRI
    args: tuple[Expr, ...]
    distinct: bool = False


@dataclass(frozen=True)
class Aggregate:
    """A SPARQL 1.1 aggregate (§18.5); ``arg`` None means ``*`` (COUNT(*))."""

    name: str  # COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT
    arg: Expr | None
    distinct: bool = False
    separator: str | None = None


@dataclass(frozen=True)
class Exists:
    pattern: Group
    negated: bool = False


Expr = Union[BinaryOp, UnaryOp, In, FunctionCall, IRICall, Aggregate, Exists, IRI, Literal, Var]

#: canonical spelling of built-in function names (upper-case key → printed name)
BUILTINS: dict[str, str] = {
    name.upper(): name
    for name in (
        "STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND ABS CEIL FLOOR ROUND CONCAT SUBSTR "
        "STRLEN REPLACE UCASE LCASE ENCODE_FOR_URI CONTAINS STRSTARTS STRENDS STRBEFORE STRAFTER "
        "YEAR MONTH DAY HOURS MINUTES SECONDS TIMEZONE TZ NOW UUID STRUUID MD5 SHA1 SHA256 SHA384 "
        "SHA512 COALESCE IF STRLANG STRDT sameTerm isIRI isURI isBLANK isLITERAL isNUMERIC REGEX "
        "timestamp getDURATION getSTARTTIME getENDTIME"
    ).split()
}
#: built-ins that belong to one dialect only
DIALECT_BUILTINS: dict[str, str] = {
    "timestamp": "csparql",
    "getDURATION": "epsparql",
    "getSTARTTIME": "epsparql",
    "getENDTIME": "epsparql",
}

# ---------------------------------------------------------------------------------------------
# windows (Dao-Tran, Beck, Eiter 2015, Table 1; Barbieri et al. 2010, §2.3; CQELS)

_UNIT_MS: dict[str, int] = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


@lru_cache(maxsize=None)
def _xsd_duration() -> re.Pattern:
    """The xsd:duration pattern, compiled on first use (start-up: most queries have none)."""
    return re.compile(
        r"^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?"
        r"(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$"
    )


@dataclass(frozen=True)
class Duration:
    """A duration as written: ``value`` and ``unit`` (``ms s m h d``), or an xsd:duration literal
    (``unit == "xsd:duration"``, ``lexical`` = the ISO 8601 text, ``value`` = its milliseconds)."""

    value: Decimal
    unit: str
    lexical: str | None = None

    @property
    def ms(self) -> Decimal:
        """The duration in milliseconds (exact)."""
        if self.unit == "xsd:duration":
            return self.value
        return self.value * _UNIT_MS[self.unit]

    @staticmethod
    def unit_ms(unit: str) -> int:
        return _UNIT_MS[unit]

    @classmethod
    def from_xsd(cls, lexical: str) -> "Duration":
        """Parse an xsd:duration such as ``P30D`` or ``PT1H30M``; raises ValueError for years,
        months or negative values (no fixed length in milliseconds)."""
        m = _xsd_duration().match(lexical)
        if not m or lexical in ("P", "PT") or lexical.endswith("T"):
            raise ValueError(f"{lexical!r} is not an xsd:duration")
        neg, years, months, weeks, days, hours, minutes, seconds = m.groups()
        if neg:
            raise ValueError(f"negative duration {lexical!r}")
        if years or months:
            raise ValueError(f"{lexical!r} has years or months, which have no fixed length")
        ms = Decimal(0)
        for amount, unit_ms in ((weeks, 7 * 86_400_000), (days, 86_400_000), (hours, 3_600_000),
                                (minutes, 60_000), (seconds, 1000)):
            if amount:
                ms += Decimal(amount) * unit_ms
        return cls(ms, "xsd:duration", lexical)

    @classmethod
    def from_iso8601(cls, lexical: str) -> "Duration":
        """An ISO 8601 duration as RSP-QL writes it without quotes (``PT15S``, ``PT1.5S``, ``PT5M``,
        ``P1D``, ``PT1H30M``; W3C RSP community group syntax); a decimal fraction may stand on any
        component. Raises ValueError for years or months (no fixed length in milliseconds) and for
        a text that is not such a duration."""
        m = _iso_duration().match(lexical.upper())
        if not m or lexical.upper() in ("P", "PT") or lexical.upper().endswith("T"):
            raise ValueError(f"{lexical!r} is not an ISO 8601 duration (e.g. PT15S, PT5M, P1D)")
        years, months, weeks, days, hours, minutes, seconds = m.groups()
        if years or months:
            raise ValueError(f"{lexical!r} has years or months, which have no fixed length")
        ms = Decimal(0)
        for amount, unit_ms in ((weeks, 7 * 86_400_000), (days, 86_400_000), (hours, 3_600_000),
                                (minutes, 60_000), (seconds, 1000)):
            if amount:
                ms += Decimal(amount.replace(",", ".")) * unit_ms
        if ms <= 0:
            raise ValueError(f"{lexical!r} is not a positive duration")
        return cls(ms, "xsd:duration", lexical)


@lru_cache(maxsize=None)
def _iso_duration() -> re.Pattern:
    number = r"(\d+(?:[.,]\d+)?)"
    return re.compile(rf"^P(?:{number}Y)?(?:{number}M)?(?:{number}W)?(?:{number}D)?"
                      rf"(?:T(?:{number}H)?(?:{number}M)?(?:{number}S)?)?$")


WINDOW_KINDS = ("range", "tumbling", "now", "all", "triples", "rows", "interval")


@dataclass(frozen=True)
class Window:
    """A window expression ω. ``kind``: ``range`` (sliding, ``step`` = STEP/SLIDE or None when not
    written), ``tumbling`` (RANGE d TUMBLING), ``now`` ([NOW]), ``all`` ([ALL], [RANGE UNBOUNDED]),
    ``triples`` ([TRIPLES n], C-SPARQL [RANGE TRIPLES n]), ``rows`` ([ROWS n], RSP-QL [ELEMENTS n])
    or ``interval`` (RSP-QL ``[FROM NOW-a TO NOW-b STEP d]``: ``range`` is a, ``until`` is b, the
    content from a before now to b before now)."""

    kind: str
    range: Duration | None = None
    step: Duration | None = None
    rows: int | None = None
    position: Position | None = field(default=None, compare=False)
    until: Duration | None = None


# ---------------------------------------------------------------------------------------------
# graph patterns (SPARQL 1.1 §18.2 algebra, before translation)


@dataclass(frozen=True)
class TriplePattern:
    subject: Term
    predicate: Union[IRI, Var, Path]
    object: Term


@dataclass(frozen=True)
class BGP:
    triples: tuple[TriplePattern, ...]


@dataclass(frozen=True)
class Group:
    """A group graph pattern ``{ … }``: its elements in written order (BGPs, FILTERs, …)."""

    parts: tuple[Pattern, ...]


@dataclass(frozen=True)
class Union_:
    left: Pattern
    right: Pattern


@dataclass(frozen=True)
class Optional_:
    pattern: Group


@dataclass(frozen=True)
class Minus:
    pattern: Group


@dataclass(frozen=True)
class Filter:
    expr: Expr


@dataclass(frozen=True)
class GraphPattern:
    """``GRAPH g { … }``."""

    name: Union[IRI, Var]
    pattern: Group


@dataclass(frozen=True)
class Bind:
    expr: Expr
    var: Var


@dataclass(frozen=True)
class Values:
    """Inline data; ``None`` in a row is UNDEF."""

    vars: tuple[Var, ...]
    rows: tuple[tuple[Union[IRI, Literal, None], ...], ...]


@dataclass(frozen=True)
class StreamPattern:
    """CQELS stream graph pattern ``STREAM s [ω] { g }`` (Dao-Tran, Beck, Eiter 2015, §2.2 (B2), §4.3 (T2))."""

    stream: Union[IRI, Var]
    window: Window
    pattern: Group
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class WindowPattern:
    """RSP-QL ``WINDOW <w> { g }`` or ``WINDOW ?w { g }`` (W3C RSP community group syntax): g
    matched in the content of the named window w (Dell'Aglio et al. 2014, Def 14 and §5, a named
    window graph of the RSP-QL dataset); with a variable, in each named window with ?w bound to
    its IRI (as ``GRAPH ?g`` ranges over the named graphs)."""

    name: Union[IRI, Var]
    pattern: Group
    position: Position | None = field(default=None, compare=False)


EVENT_OPERATORS = ("SEQ", "EQUALS", "OPTIONALSEQ", "EQUALSOPTIONAL")


@dataclass(frozen=True)
class EventPattern:
    """EP-SPARQL binary event operator (Anicic et al. WWW 2011): ``left OP right``."""

    op: str
    left: Pattern
    right: Pattern


@dataclass(frozen=True)
class Within:
    """EP-SPARQL (ETALIS) ``WITHIN d``: an element of a group that bounds the interval of the
    group's results, ``end − start ≤ d`` (docs/epsparql.md); like FILTER it applies to the whole
    group. A plain number ``WITHIN 1`` is read as seconds, as ETALIS reads it."""

    duration: Duration
    position: Position | None = field(default=None, compare=False)


# RSEP-QL (Dell'Aglio, Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016, §3.2–3.4): windows declared
# over streams, basic event patterns declared on windows, and MATCH over event patterns.

RSEP_WINDOW_KINDS = ("landmark", "range")


@dataclass(frozen=True)
class EventWindow:
    """RSEP-QL ``FROM NAMED <s> WIN [LND t0] AS <w>`` (the landmark window ``W^lnd[(t0)]``: the items
    with ``t0 ≤ t_i ≤ t``) or ``FROM NAMED <s> WIN [RANGE a] AS <w>`` / ``[RANGE a STEP b]`` (the
    time-based window ``W^tau[(a, b)]``: the items with ``t' − a < t_i ≤ t'``, ``t' = ⌊t/b⌋·b``, b = 1
    when not written), Dell'Aglio et al. 2016, §3.2, Def 3. The parameters are time points of the
    paper's integer timeline, in the base unit of the run."""

    name: IRI
    stream: IRI
    kind: str  # landmark | range
    start: int | None = None  # landmark: t0
    width: int | None = None  # range: a
    slide: int = 1  # range: b
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EventDeclaration:
    """RSEP-QL ``EVENT ON <w> { BGP } AS E``: the basic event pattern ``(EVENT w P)`` named E
    (Dell'Aglio et al. 2016, §3.3, Eq. 4: P matched in each stream item of the window)."""

    name: str
    window: IRI
    pattern: BGP
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EventRef:
    """A declared basic event pattern used in MATCH (``E1``)."""

    name: str
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EventSelect:
    """RSEP-QL ``FIRST E`` / ``LAST E`` (Dell'Aglio et al. 2016, §4.2, Eqs. 5, 6)."""

    kind: str  # FIRST | LAST
    pattern: Union["EventRef", "EventSelect", "EventPattern"]


@dataclass(frozen=True)
class MatchPattern:
    """RSEP-QL ``MATCH { E }``: the event graph pattern (Dell'Aglio et al. 2016, §3.3, Eq. 8); E is
    built from :class:`EventRef`, :class:`EventSelect` and ``EventPattern("SEQ", …)``."""

    pattern: Union[EventRef, EventSelect, "EventPattern"]
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class EventDataset:
    """The RSEP-QL part of the dataset (Dell'Aglio et al. 2016, Def 4): its named windows and the
    basic event patterns declared on them."""

    windows: tuple[EventWindow, ...] = ()
    events: tuple[EventDeclaration, ...] = ()


#: the default namespace of EP-SPARQL bare names (``hasStockPrice``), changed with ``--bare-ns``
DEFAULT_BARE_NAMESPACE = "http://rsplars.invalid/bare#"


@dataclass(frozen=True)
class SubSelect:
    """A sub-query ``{ SELECT … WHERE … }`` (SPARQL 1.1 §12): only its projected variables are
    visible outside it; ``position`` is that of its ``SELECT``."""

    select: Select
    where: Group
    modifiers: Modifiers
    position: Position | None = field(default=None, compare=False)


Pattern = Union[
    BGP, Group, Union_, Optional_, Minus, Filter, GraphPattern, Bind, Values, StreamPattern,
    EventPattern, SubSelect, Within, WindowPattern, MatchPattern, EventRef, EventSelect,
]

# ---------------------------------------------------------------------------------------------
# result forms, dataset, modifiers, registration


@dataclass(frozen=True)
class Projection:
    """``(expr AS ?var)`` (EP-SPARQL also writes ``?var AS expr``)."""

    expr: Expr
    var: Var


@dataclass(frozen=True)
class Select:
    projection: tuple[Union[Var, Projection], ...]  # empty means *
    modifier: str | None = None  # DISTINCT | REDUCED

    @property
    def star(self) -> bool:
        return not self.projection


@dataclass(frozen=True)
class GraphTemplate:
    """``GRAPH g { triples }`` in an RSP-QL CONSTRUCT template (RSP4J's quad output): the triples
    instantiated into the named graph g, an IRI, a variable or a blank node (fresh per solution,
    as the template's other blank nodes; SPARQL 1.1 §16.2)."""

    graph: Term
    triples: tuple[TriplePattern, ...]


@dataclass(frozen=True)
class Construct:
    template: tuple[TriplePattern, ...]
    graphs: tuple[GraphTemplate, ...] = ()
    """The template's ``GRAPH g { … }`` blocks (RSP-QL only); empty: a triples-only template."""


@dataclass(frozen=True)
class Ask:
    pass


@dataclass(frozen=True)
class Describe:
    terms: tuple[Union[IRI, Var], ...]  # empty means *


Form = Union[Select, Construct, Ask, Describe]


@dataclass(frozen=True)
class StreamSource:
    """C-SPARQL ``FROM [NAMED] STREAM <iri> [ω]`` (Barbieri et al. 2010, §2.3)."""

    iri: IRI
    window: Window
    named: bool = False
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class NamedWindow:
    """RSP-QL ``FROM NAMED WINDOW <name> ON <stream> [ω]``: a window operator over a stream whose
    content is the named graph ``name`` of the dataset (Dell'Aglio et al. 2014, Def 14)."""

    name: IRI
    stream: IRI
    window: Window
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Dataset:
    default: tuple[IRI, ...] = ()
    named: tuple[IRI, ...] = ()
    streams: tuple[StreamSource, ...] = ()
    windows: tuple[NamedWindow, ...] = ()


@dataclass(frozen=True)
class OrderCondition:
    expr: Expr
    descending: bool = False
    explicit: bool = False  # written with ASC(…)/DESC(…)


@dataclass(frozen=True)
class GroupCondition:
    expr: Expr
    var: Var | None = None  # GROUP BY (expr AS ?v)


@dataclass(frozen=True)
class Modifiers:
    group_by: tuple[GroupCondition, ...] = ()
    having: tuple[Expr, ...] = ()
    order_by: tuple[OrderCondition, ...] = ()
    limit: int | None = None
    offset: int | None = None


@dataclass(frozen=True)
class Registration:
    """C-SPARQL ``REGISTER QUERY|STREAM name [COMPUTED EVERY d] AS`` (Barbieri et al. 2010, §2.4, 2.5), or
    RSP-QL ``REGISTER RSTREAM|ISTREAM|DSTREAM <name> AS`` (the R2S operator, Dell'Aglio et al.
    2014, Defs 20–22; ``name`` is then the IRI of the output stream)."""

    kind: str  # QUERY | STREAM | RSTREAM | ISTREAM | DSTREAM
    #: None: RSP-QL without REGISTER, the R2S operator written after the form (``SELECT ISTREAM``)
    name: str | None
    computed_every: Duration | None = None
    position: Position | None = field(default=None, compare=False)


@dataclass(frozen=True)
class AggregateClause:
    """C-SPARQL ``AGGREGATE { (?v, FUNC[(?x)], {groups}) [FILTER] }`` (Barbieri et al. 2010, §2.2)."""

    var: Var
    function: str  # COUNT SUM AVG MIN MAX
    argument: Var | None
    group: tuple[Var, ...]
    filter: Expr | None = None
    braced_group: bool = True  # written {?x} rather than ?x


@dataclass(frozen=True)
class Prologue:
    base: str | None = None
    prefixes: tuple[tuple[str, str], ...] = ()  # (prefix without ':', namespace IRI)


DIALECTS = ("csparql", "cqels", "epsparql", "rspql", "rsepql")
#: the R2S operators an RSP-QL registration names
R2S_KINDS = ("RSTREAM", "ISTREAM", "DSTREAM")


@dataclass(frozen=True)
class Query:
    """``Q = (V, P, D, S)`` of Dao-Tran, Beck, Eiter 2015, §3 plus the dialect additions."""

    dialect: str
    form: Form
    where: Group
    prologue: Prologue = Prologue()
    dataset: Dataset = Dataset()
    modifiers: Modifiers = Modifiers()
    registration: Registration | None = None
    aggregates: tuple[AggregateClause, ...] = ()
    #: lenient-mode remarks (assumed prefixes, accepted paper quirks); not part of the query
    notes: tuple[str, ...] = field(default=(), compare=False)
    #: RSEP-QL: the event windows and basic event patterns (None for the other dialects)
    events: EventDataset | None = None


# ---------------------------------------------------------------------------------------------
# derived views


@dataclass(frozen=True)
class StreamGraphPattern:
    """An element ``(s, ω, g)`` of S; ``pattern`` is None for C-SPARQL (g = ∅, Dao-Tran, Beck, Eiter 2015, §3)."""

    stream: Union[IRI, Var]
    window: Window
    pattern: Group | None
    named: bool = False
    position: Position | None = field(default=None, compare=False)


def child_patterns(node: Pattern) -> Iterator[Pattern]:
    """The direct sub-patterns of a pattern node (not those inside expressions)."""
    match node:
        case Group(parts):
            yield from parts
        case Union_(left, right) | EventPattern(_, left, right):
            yield left
            yield right
        case Optional_(p) | Minus(p) | GraphPattern(_, p) | StreamPattern(_, _, p) | WindowPattern(_, p):
            yield p
        case SubSelect(_, where, _):
            yield where
        case MatchPattern(p) | EventSelect(_, p):
            yield p
        case _:
            return


def walk_patterns(node: Pattern) -> Iterator[Pattern]:
    """All pattern nodes below and including ``node``, pre-order."""
    yield node
    for child in child_patterns(node):
        yield from walk_patterns(child)


def exists_groups(pattern: Pattern) -> Iterator[Group]:
    """The groups of EXISTS / NOT EXISTS inside the FILTERs and BINDs below ``pattern``."""

    def in_expr(e):
        if isinstance(e, Exists):
            yield e.pattern
            for node in walk_patterns(e.pattern):
                yield from in_node(node)
        elif dataclasses.is_dataclass(e):
            for f in dataclasses.fields(e):
                value = getattr(e, f.name)
                for v in value if isinstance(value, tuple) else (value,):
                    if dataclasses.is_dataclass(v):
                        yield from in_expr(v)

    def in_node(node):
        if isinstance(node, Filter):
            yield from in_expr(node.expr)
        elif isinstance(node, Bind):
            yield from in_expr(node.expr)

    for node in walk_patterns(pattern):
        yield from in_node(node)


def stream_graph_patterns(query: Query) -> tuple[StreamGraphPattern, ...]:
    """S of ``Q = (V, P, D, S)``: C-SPARQL stream sources first, then RSP-QL named windows (their
    stream and window; ``named``, the pattern left to the WINDOW patterns), then CQELS stream
    patterns in written order."""
    out = [StreamGraphPattern(s.iri, s.window, None, s.named, s.position) for s in query.dataset.streams]
    out += [StreamGraphPattern(w.stream, w.window, None, True, w.position) for w in query.dataset.windows]
    out += [
        StreamGraphPattern(n.stream, n.window, n.pattern, False, n.position)
        for group in (query.where, *exists_groups(query.where))
        for n in walk_patterns(group)
        if isinstance(n, StreamPattern)
    ]
    return tuple(out)


def result_variables(query: Query) -> tuple[Var, ...]:
    """V: the projected variables (for ``SELECT *`` the in-scope variables of WHERE in order of
    first occurrence; for CONSTRUCT/ASK/DESCRIBE the variables of the template/terms)."""
    form = query.form
    if isinstance(form, Select):
        if form.star:
            return pattern_variables(query.where)
        return tuple(p if isinstance(p, Var) else p.var for p in form.projection)
    if isinstance(form, Construct):
        quads = [v for g in form.graphs for v in ((g.graph,) if isinstance(g.graph, Var) else ())
                 + tuple(x for t in g.triples for x in _triple_vars(t))]
        return _unique([*(v for t in form.template for v in _triple_vars(t)), *quads])
    if isinstance(form, Describe):
        return tuple(t for t in form.terms if isinstance(t, Var))
    return ()


def _triple_vars(t: TriplePattern) -> Iterator[Var]:
    for term in (t.subject, t.predicate, t.object):
        if isinstance(term, Var):
            yield term


def _unique(items) -> tuple:
    seen: dict = {}
    for item in items:
        seen.setdefault(item, None)
    return tuple(seen)


def expression_variables(expr: Expr) -> tuple[Var, ...]:
    """Variables an expression reads, in order of first occurrence (not those inside EXISTS)."""

    def gen(e) -> Iterator[Var]:
        match e:
            case Var():
                yield e
            case BinaryOp(_, left, right):
                yield from gen(left)
                yield from gen(right)
            case UnaryOp(_, operand):
                yield from gen(operand)
            case In(inner, values, _):
                yield from gen(inner)
                for v in values:
                    yield from gen(v)
            case FunctionCall(_, args) | IRICall(_, args, _):
                for a in args:
                    yield from gen(a)
            case Aggregate(_, arg, _, _) if arg is not None:
                yield from gen(arg)
            case _:
                return

    return _unique(gen(expr))


def pattern_variables(node: Pattern) -> tuple[Var, ...]:
    """Variables mentioned in triple patterns, BIND, VALUES, GRAPH/STREAM names below ``node``."""

    def gen() -> Iterator[Var]:
        for n in _walk_in_scope(node):
            match n:
                case BGP(triples):
                    for t in triples:
                        yield from _triple_vars(t)
                case Bind(_, var):
                    yield var
                case Values(vs, _):
                    yield from vs
                case GraphPattern(Var() as v, _) | StreamPattern(Var() as v, _, _) | WindowPattern(Var() as v, _):
                    yield v
                case SubSelect(select, where, _):
                    if select.star:
                        yield from pattern_variables(where)
                    else:
                        yield from (p if isinstance(p, Var) else p.var for p in select.projection)
                case _:
                    pass

    return _unique(gen())


def _walk_in_scope(node: Pattern) -> Iterator[Pattern]:
    """:func:`walk_patterns` without going into sub-queries, whose variables other than the
    projected ones are not in scope outside them (SPARQL 1.1 §12, §18.2.1)."""
    yield node
    if not isinstance(node, SubSelect):
        for child in child_patterns(node):
            yield from _walk_in_scope(child)
