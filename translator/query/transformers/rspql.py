"""RSP-QL additions (W3C RSP community group syntax; semantics Dell'Aglio et al. 2014): the
registration with its R2S operator, ``FROM NAMED WINDOW <w> ON <s> [ω]``, ISO 8601 durations,
``[FROM NOW-a TO NOW-b STEP d]`` windows, ``WINDOW <w>|?w { … }`` patterns, and the checks that
tie the WINDOW patterns to the declared windows.

The group's drafts write the same query other ways, read into the same model: ``REGISTER STREAM
<name> AS`` with the R2S operator after the form (``SELECT ISTREAM …``, ``CONSTRUCT ISTREAM { … }``;
RStream when none is written), ``FROM NAMED WINDOW ON [STREAM] <s> [ω] AS <w>``, ``FROM [NAMED]
GRAPH <g>``. ``UNDER ENTAILMENT REGIME <e>`` is accepted for simple entailment only (the LARS
translation evaluates SPARQL's simple entailment)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from lark import Token, v_args

from ..model import (
    BGP,
    IRI,
    Duration,
    GraphTemplate,
    NamedWindow,
    Position,
    Query,
    Registration,
    Var,
    Window,
    WindowPattern,
    exists_groups,
    walk_patterns,
)
from .context import position_of
from .patterns import ConstructTemplate, PatternRules, QueryBody
from .streams import StreamRules


@dataclasses.dataclass(frozen=True)
class _Step:
    duration: Duration


@dataclasses.dataclass(frozen=True)
class _FormR2S:
    """The R2S operator written after SELECT or CONSTRUCT (the community group's drafts)."""

    kind: str
    position: Position | None


@dataclasses.dataclass(frozen=True)
class _StreamRegistration:
    """``REGISTER STREAM <name> [UNDER ENTAILMENT REGIME <e>] [COMPUTED EVERY d] AS``: the R2S
    operator comes from the form."""

    name: str
    every: Duration | None
    position: Position | None


#: the one entailment regime the translation implements (SPARQL 1.1 Entailment Regimes, §1)
SIMPLE_ENTAILMENT = "http://www.w3.org/ns/entailment/Simple"


@v_args(inline=True)
class RspqlRules(StreamRules, PatternRules):
    """RSP-QL: named windows declared in the dataset and read by WINDOW graph patterns; the R2S
    operator a draft writes after SELECT / CONSTRUCT (so the SPARQL forms' rules are extended)."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        #: id of a Select / Construct form -> the R2S operator written after its keyword
        self.r2s_of_form: dict[int, _FormR2S] = {}

    @v_args(meta=True, inline=True)
    def registration(self, meta, kind: Token, name: IRI, every: Duration | None = None) -> Registration:
        return Registration(str(kind).upper(), name.value, every, position_of(meta))

    @v_args(meta=True, inline=True)
    def stream_registration(self, meta, name: IRI, *rest) -> _StreamRegistration:
        regime = next((x for x in rest if isinstance(x, IRI)), None)
        if regime is not None and regime.value != SIMPLE_ENTAILMENT:
            raise self.error(f"unsupported in translation to LARS: UNDER ENTAILMENT REGIME <{regime.value}> "
                             "(rsplars evaluates SPARQL's simple entailment)", meta,
                             expected=f"no entailment regime, or <{SIMPLE_ENTAILMENT}>")
        every = next((x for x in rest if isinstance(x, Duration)), None)
        return _StreamRegistration(name.value, every, position_of(meta))

    def entailment_regime(self, regime: IRI) -> IRI:
        return regime

    def computed_every(self, duration: Duration) -> Duration:
        return duration

    @v_args(meta=True, inline=True)
    def form_r2s(self, meta, kind: Token) -> _FormR2S:
        return _FormR2S(str(kind).upper(), position_of(meta))

    def select_clause(self, *items):
        select = super().select_clause(*(x for x in items if not isinstance(x, _FormR2S)))
        return self._note_form_r2s(select, items)

    def construct_query(self, *items):
        body = super().construct_query(*(x for x in items if not isinstance(x, _FormR2S)))
        self._note_form_r2s(body.form, items)
        return body

    def construct_where(self, *items):
        body = super().construct_where(*(x for x in items if not isinstance(x, _FormR2S)))
        self._note_form_r2s(body.form, items)
        return body

    def _note_form_r2s(self, form, items):
        r2s = next((x for x in items if isinstance(x, _FormR2S)), None)
        if r2s is not None:
            self.r2s_of_form[id(form)] = r2s
        return form

    @v_args(meta=True, inline=True)
    def sub_select(self, meta, select, *items):
        if id(select) in self.r2s_of_form:
            r2s = self.r2s_of_form[id(select)]
            raise self.error(f"{r2s.kind} in a sub-query: the R2S operator applies to the whole query's answers",
                             r2s.position or r2s.kind, expected=f"SELECT {r2s.kind} on the outer query only")
        return self.make_sub_select(meta, select, *items)

    def the_registration(self, registration, form) -> Registration | None:
        """One registration from the two places a query may name its R2S operator (Dell'Aglio et
        al. 2014, Defs 20–22): ``REGISTER ISTREAM <n> AS`` (RSP4J) or the form's ``SELECT
        ISTREAM`` (the group's drafts); RStream when neither does."""
        r2s = self.r2s_of_form.get(id(form))
        if isinstance(registration, _StreamRegistration):
            return Registration(r2s.kind if r2s else "RSTREAM", registration.name, registration.every,
                                registration.position)
        if registration is None:
            return None if r2s is None else Registration(r2s.kind, None, None, r2s.position)
        if r2s is not None and r2s.kind != registration.kind:
            raise self.error(f"two R2S operators: REGISTER {registration.kind} and {r2s.kind} after the form",
                             r2s.position or r2s.kind, expected="one R2S operator (RSTREAM, ISTREAM or DSTREAM)")
        return registration

    @v_args(meta=True, inline=True)
    def named_window_as(self, meta, stream: IRI, window: Window, name: IRI) -> NamedWindow:
        """``FROM NAMED WINDOW ON <s> [ω] AS <w>`` (the group's drafts): the window named after AS."""
        return NamedWindow(name, stream, window, position_of(meta))

    @v_args(meta=True, inline=True)
    def named_window(self, meta, name: IRI, stream: IRI, window: Window) -> NamedWindow:
        return NamedWindow(name, stream, window, position_of(meta))

    @v_args(meta=True, inline=True)
    def iso_duration(self, meta, tok: Token) -> Duration:
        try:
            return Duration.from_iso8601(str(tok))
        except ValueError as exc:
            raise self.error(str(exc), tok, expected="an ISO 8601 duration in days, hours, minutes or seconds "
                                                     "(e.g. PT15S, PT1H30M, P1D)") from None

    @v_args(meta=True, inline=True)
    def bare_duration(self, meta, tok: Token) -> Duration:
        """A window duration written without a unit (``[RANGE 10000 STEP 2000]``), as RSP-JS, RSP-RS
        and Janus write it: a number in their streams' timestamps, which are milliseconds."""
        if not getattr(self, "_bare_duration_noted", False):  # one note for the query: the first such number
            self._bare_duration_noted = True
            self.note(f"note: {tok} has no time unit: window durations written as numbers are read as "
                      "milliseconds, as RSP-JS, RSP-RS and Janus read them (their timestamps are milliseconds); "
                      "write an ISO 8601 duration (PT10S) or a unit (10s) for another reading", tok)
        return Duration(Decimal(str(tok)), "ms")

    def now_offset(self, duration: Duration | None = None) -> Duration | None:
        return duration

    def window_step(self, duration: Duration) -> _Step:
        return _Step(duration)

    @v_args(meta=True, inline=True)
    def interval_window(self, meta, start: Duration, end: Duration | None, step: _Step | None = None) -> Window:
        """``[FROM NOW-a TO NOW-b STEP d]``: the content from a before now up to b before now."""
        if end is not None and end.ms >= start.ms:
            raise self.error(f"the window ends ({end.lexical or end.ms}) no later than it starts "
                             f"({start.lexical or start.ms}) before now", meta,
                             expected="FROM NOW-a TO NOW-b with a longer than b (e.g. FROM NOW-PT15M TO NOW-PT5M)")
        return Window("interval", range=start, step=step.duration if step else None, until=end)

    @v_args(meta=True, inline=True)
    def window_graph_pattern(self, meta, name, group) -> WindowPattern:
        return WindowPattern(name, group, position_of(meta))

    @v_args(inline=True)
    def template_graph(self, graph, triples=None) -> GraphTemplate:
        """``GRAPH g { triples }`` in a CONSTRUCT template: RSP4J's quad output (RSP4J's
        documented example queries construct their answers so)."""
        return GraphTemplate(graph, triples.triples if triples is not None else ())

    def construct_template(self, *items) -> ConstructTemplate:
        """The template's triples, then its ``GRAPH`` blocks in order of appearance."""
        triples = tuple(t for x in items if isinstance(x, ConstructTemplate) for t in x.triples)
        graphs = tuple(x for x in items if isinstance(x, GraphTemplate))
        return ConstructTemplate(triples, graphs)

    def start(self, *items) -> Query:
        body = next(x for x in items if isinstance(x, QueryBody))
        registration = next((x for x in items if isinstance(x, (Registration, _StreamRegistration))), None)
        registration = self.the_registration(registration, body.form)
        items = tuple(x for x in items if not isinstance(x, (Registration, _StreamRegistration)))
        query = super().start(*items)
        if registration is not None:
            query = dataclasses.replace(query, registration=registration)
        self.check_windows(query)
        return dataclasses.replace(query, notes=tuple(self.notes))

    def check_windows(self, query: Query) -> None:
        """Window names are declared once; ``WINDOW <w>`` names a declared window; ``WINDOW ?w``
        needs at least one (Dell'Aglio et al. 2014, Def 14: the window graphs are named by the
        dataset). A query that declares windows and matches triples but reads no window gets a note
        (its triple patterns read the static default graph only, the streams never)."""
        declared: dict[str, NamedWindow] = {}
        for w in query.dataset.windows:
            if w.name.value in declared:
                raise self.error(f"the window <{w.name.value}> is declared twice", w.position or "WINDOW",
                                 expected="one FROM NAMED WINDOW per window name")
            declared[w.name.value] = w
        used = reads_triples = False
        for group in (query.where, *exists_groups(query.where)):
            for node in walk_patterns(group):
                self.check_window_pattern(node, declared)
                used = used or isinstance(node, WindowPattern)
                reads_triples = reads_triples or (isinstance(node, BGP) and bool(node.triples))
        if declared and reads_triples and not used:
            first = query.dataset.windows[0]
            names = ", ".join(f"<{n}>" for n in declared)
            self.note(f"note: no WINDOW pattern reads the windows {names}: the triple patterns match the default "
                      "graph, the static data (Dell'Aglio et al. 2014, Def 14), never the streams; RSP4J's engines "
                      "match them over the windows' union: write WINDOW ?w { … } around them for that",
                      first.position)

    def check_window_pattern(self, node, declared: dict[str, NamedWindow]) -> None:
        if not isinstance(node, WindowPattern):
            return
        if isinstance(node.name, IRI) and node.name.value not in declared:
            names = ", ".join(f"<{n}>" for n in declared) or "none"
            raise self.error(f"WINDOW <{node.name.value}> names no declared window (declared: {names})",
                             node.position or "WINDOW",
                             expected=f"FROM NAMED WINDOW <{node.name.value}> ON <stream> [RANGE …] before WHERE")
        if isinstance(node.name, Var) and not declared:
            raise self.error(f"WINDOW ?{node.name.name} ranges over the named windows, but the query declares none",
                             node.position or "WINDOW", expected="FROM NAMED WINDOW <w> ON <stream> [RANGE …]")
