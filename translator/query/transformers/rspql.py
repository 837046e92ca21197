"""RSP-QL additions (W3C RSP community group syntax; semantics Dell'Aglio et al. 2014): the
registration with its R2S operator, ``FROM NAMED WINDOW <w> ON <s> [ω]``, ISO 8601 durations,
``[FROM NOW-a TO NOW-b STEP d]`` windows, ``WINDOW <w>|?w { … }`` patterns, and the checks that
tie the WINDOW patterns to the declared windows."""

from __future__ import annotations

import dataclasses

from lark import Token, v_args

from ..model import (
    IRI,
    Bind,
    Duration,
    Exists,
    Filter,
    GraphTemplate,
    NamedWindow,
    Query,
    Registration,
    Var,
    Window,
    WindowPattern,
    walk_patterns,
)
from .context import position_of
from .patterns import ConstructTemplate
from .streams import StreamRules


@dataclasses.dataclass(frozen=True)
class _Step:
    duration: Duration


@v_args(inline=True)
class RspqlRules(StreamRules):
    """RSP-QL: named windows declared in the dataset and read by WINDOW graph patterns."""

    @v_args(meta=True, inline=True)
    def registration(self, meta, kind: Token, name: IRI) -> Registration:
        return Registration(str(kind).upper(), name.value, None, position_of(meta))

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
        query = super().start(*items)
        self.check_windows(query)
        return query

    def check_windows(self, query: Query) -> None:
        """Window names are declared once; ``WINDOW <w>`` names a declared window; ``WINDOW ?w``
        needs at least one (Dell'Aglio et al. 2014, Def 14: the window graphs are named by the
        dataset)."""
        declared: dict[str, NamedWindow] = {}
        for w in query.dataset.windows:
            if w.name.value in declared:
                raise self.error(f"the window <{w.name.value}> is declared twice", w.position or "WINDOW",
                                 expected="one FROM NAMED WINDOW per window name")
            declared[w.name.value] = w
        for node in walk_patterns(query.where):
            self.check_window_pattern(node, declared)
        for expr_group in _exists_groups(query.where):
            for node in walk_patterns(expr_group):
                self.check_window_pattern(node, declared)

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


def _exists_groups(pattern):
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
