"""RSEP-QL additions (Dell'Aglio, Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016, §3.2–3.4, the
syntax of its Example 4): ``FROM NAMED <s> WIN [LND t0] AS <w>`` and ``WIN [RANGE a (STEP b)] AS <w>``
(:class:`~translator.query.model.EventWindow`), ``EVENT ON <w> { BGP } AS E``
(:class:`~translator.query.model.EventDeclaration`), ``MATCH { … }`` with ``SEQ``, ``FIRST``,
``LAST``; and the checks that tie the names together (windows and events declared once, an event
on a declared window, MATCH naming declared events).

As in EP-SPARQL (docs/epsparql.md) the undeclared prefix ``:`` of the paper's Example 4 is the
bare-name namespace (``--bare-ns``), with a note.
"""

from __future__ import annotations

from lark import Token, v_args

from ..model import (
    BGP,
    IRI,
    EventDataset,
    EventDeclaration,
    EventPattern,
    EventRef,
    EventSelect,
    EventWindow,
    MatchPattern,
    Query,
    walk_patterns,
)
from .context import position_of
from .streams import StreamRules


@v_args(inline=True)
class RsepqlRules(StreamRules):
    """RSEP-QL: event windows and basic event patterns in the dataset, MATCH in WHERE."""

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.event_windows: list[EventWindow] = []
        self.event_declarations: list[EventDeclaration] = []

    def namespace(self, prefix: str, tok: Token, bare: str | None = None) -> str:
        """The paper's Example 4 writes ``:S``, ``:p`` without declaring ``:``: it is the bare-name
        namespace, noted once (as EP-SPARQL, docs/epsparql.md)."""
        if prefix == "" and bare is None and "" not in self.prefixes and "" not in self.ctx.predeclared:
            if "" not in self.assumed_prefixes:
                self.assumed_prefixes[""] = self.ctx.bare_ns
                self.note(f"undeclared prefix ':' read as <{self.ctx.bare_ns}> (set with --bare-ns)", tok)
            return self.ctx.bare_ns
        return super().namespace(prefix, tok, bare)  # type: ignore[misc]  # TermRules.namespace, next in the MRO

    # ---- dataset --------------------------------------------------------------------------
    def landmark_window(self, start: Token) -> tuple:
        return ("landmark", int(start), None, 1)

    @v_args(meta=True, inline=True)
    def range_event_window(self, meta, width: Token, slide: Token | None = None) -> tuple:
        for value, what in ((width, "RANGE"), (slide, "STEP")):
            if value is not None and int(value) <= 0:
                raise self.error(f"the window {what} must be positive", value,
                                 expected="a number of time units greater than 0 (e.g. [RANGE 5] or [RANGE 5 STEP 1])")
        return ("range", None, int(width), int(slide) if slide is not None else 1)

    @v_args(meta=True, inline=True)
    def event_window_clause(self, meta, stream: IRI, spec: tuple, name: IRI) -> None:
        kind, start, width, slide = spec
        self.event_windows.append(EventWindow(name, stream, kind, start, width, slide, position_of(meta)))

    @v_args(meta=True, inline=True)
    def event_declaration(self, meta, window: IRI, *rest) -> None:
        *body, name = rest
        triples = body[0].triples if body else ()
        if not triples:
            raise self.error(f"the event {name} has no triple pattern", name,
                             expected="EVENT ON <w> { ?s :p ?o } AS E: a basic event pattern needs a triple pattern")
        self.event_declarations.append(EventDeclaration(str(name), window, BGP(triples), position_of(meta)))

    # ---- MATCH ----------------------------------------------------------------------------
    @v_args(meta=True, inline=True)
    def match_pattern(self, meta, expr) -> MatchPattern:
        return MatchPattern(expr, position_of(meta))

    def event_ref(self, tok: Token) -> EventRef:
        return EventRef(str(tok), position_of(tok))

    def event_select(self, kind: Token, inner) -> EventSelect:
        return EventSelect(str(kind).upper(), inner)

    def event_seq(self, left, _op: Token, right) -> EventPattern:
        return EventPattern("SEQ", left, right)

    # ---- the query ------------------------------------------------------------------------
    def start(self, *items) -> Query:
        query = super().start(*items)
        events = EventDataset(tuple(self.event_windows), tuple(self.event_declarations))
        self.check_names(query, events)
        from dataclasses import replace

        return replace(query, events=events)

    def check_names(self, query: Query, events: EventDataset) -> None:
        """Window and event names are declared once; ``EVENT ON <w>`` names a declared window; MATCH
        names declared events (Dell'Aglio et al. 2016, §3.2, Def 4: the windows are named by the dataset)."""
        windows: dict[str, EventWindow] = {}
        for w in events.windows:
            if w.name.value in windows:
                raise self.error(f"the window <{w.name.value}> is declared twice", w.position or "WIN",
                                 expected="one FROM NAMED <stream> WIN […] AS <w> per window name")
            windows[w.name.value] = w
        declared: dict[str, EventDeclaration] = {}
        for e in events.events:
            if e.name in declared:
                raise self.error(f"the event {e.name} is declared twice", e.position or "EVENT",
                                 expected="one EVENT ON <w> { … } AS E per event name")
            if e.window.value not in windows:
                names = ", ".join(f"<{n}>" for n in windows) or "none"
                raise self.error(f"EVENT ON <{e.window.value}> names no declared window (declared: {names})",
                                 e.position or "EVENT",
                                 expected=f"FROM NAMED <stream> WIN [RANGE …] AS <{e.window.value}> before it")
            declared[e.name] = e
        for node in walk_patterns(query.where):
            if isinstance(node, MatchPattern):
                for ref in _refs(node.pattern):
                    if ref.name not in declared:
                        names = ", ".join(declared) or "none"
                        raise self.error(f"MATCH names the event {ref.name}, which is not declared (declared: {names})",
                                         ref.position or "MATCH",
                                         expected=f"EVENT ON <w> {{ … }} AS {ref.name} before WHERE")


def _refs(e):
    """The :class:`EventRef` leaves of an event expression."""
    if isinstance(e, EventRef):
        yield e
    elif isinstance(e, EventSelect):
        yield from _refs(e.pattern)
    elif isinstance(e, EventPattern):
        yield from _refs(e.left)
        yield from _refs(e.right)
