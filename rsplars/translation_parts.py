"""The parts of a translation a reader compares: the windows of a query with their LARS windows
(Table 1 of Dao-Tran, Beck, Eiter 2015, §4.2, under the window-bounds conventions of D2) and a
query's program under Polleres' τ, τ1 or τ2 (§4.3, Fig. 1) with its size and windows
(docs/translation.md). :func:`rsplars.translate` gives the whole text; these give the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from lars.errors import RsplarsError
from lars.windows import WINDOW_BOUNDS

from rsplars.queries import Query, QueryInput, as_query
from translator.options import TranslationOptions

__all__ = ["BOUNDS", "STRATEGIES", "ProgramSummary", "StreamWindow", "cs", "program", "windows"]

#: the window-bounds conventions (D2): Table 1's closed ``[t−L, t]``, C-SPARQL's and RSP-QL's
#: ``(t−L, t]``, SECRET's and CSRBench's ``[t−L, t)``
BOUNDS = WINDOW_BOUNDS

#: the translations of :func:`program`: Polleres' τ of the SPARQL part alone, τ1 (C-SPARQL), τ2 (CQELS)
STRATEGIES = ("tau", "tau1", "tau2")


@dataclass(frozen=True)
class StreamWindow:
    """One stream graph pattern ``(s, ω, g)`` of ``Q = (V, P, D, S)`` (§3): ``stream`` (its IRI, or
    ``?var``), ``window`` (ω as written, ``[RANGE 30m]``), ``lars`` (τ(ω) in the paper's notation,
    ``⊞^30``) and ``patterns``, the number of triple patterns of g (0 for C-SPARQL, whose stream
    sources have no g)."""

    stream: str
    window: str
    lars: str
    patterns: int


@dataclass(frozen=True)
class ProgramSummary:
    """A query's LARS program under one translation: ``label`` (``τ(cs(Q))``, ``τ1(Q)``,
    ``τ2(Q)``, ``τ1(cs(Q))``), ``strategy``, the number of ``rules``, the distinct ``windows`` its
    rule bodies read (paper notation, in order of appearance) and its ``text`` (paper notation,
    as ``rsplars translate --to lars --unicode`` prints it)."""

    label: str
    strategy: str
    rules: int
    windows: tuple[str, ...]
    text: str


def windows(query: QueryInput, *, unit: str = "s", window_bounds: str = "closed") -> list[StreamWindow]:
    """The stream graph patterns of ``query`` with τ(ω) under ``window_bounds`` (one of
    :data:`BOUNDS`) in the base time ``unit``.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 4s] { ?x :p ?y } }'''
    >>> [(w.window, w.lars) for w in rsplars.windows(q)]
    [('[RANGE 4s]', '⊞^4')]
    >>> rsplars.windows(q, window_bounds="left-open")[0].lars
    '⊞^3'
    """
    from lars.model import String
    from lars.printer import format_window
    from translator.query import model as M
    from translator.translate.normalize import TimeBase
    from translator.translate.normalize import window as normal_window
    from translator.translate.tau import lars_window

    if window_bounds not in BOUNDS:
        raise RsplarsError(f"window_bounds {window_bounds!r}: expected one of {', '.join(BOUNDS)}")
    base = TimeBase(unit)
    out = []
    for s in M.stream_graph_patterns(as_query(query)):
        stream = s.stream.value if isinstance(s.stream, M.IRI) else f"?{s.stream.name}"
        tau = lars_window(normal_window(s.window, base), String(stream), window_bounds)  # the stream names a tuple window
        bgps = [node for node in M.walk_patterns(s.pattern) if isinstance(node, M.BGP)] if s.pattern else []
        out.append(StreamWindow(str(stream), _written(s.window), format_window(tau, unicode=True, base_unit=unit),
                                sum(len(b.triples) for b in bgps)))
    return out


def program(query: QueryInput, strategy: str = "tau2", *,
            options: TranslationOptions = TranslationOptions(mode="none")) -> ProgramSummary:
    """The LARS program of ``query`` under ``strategy`` (one of :data:`STRATEGIES`):

    * ``tau``: Polleres' translation τ of the SPARQL pattern of cs(Q) alone (Fig. 1), without the
      rules that read streams — what τ1 and τ2 extend;
    * ``tau1``: τ1 (§4.3 (T1)) of the query, of cs(Q) for a CQELS query: the window contents
      imported into the default graph;
    * ``tau2``: τ2 (§4.3 (T2)): each stream graph pattern read through its window.

    ``options``: the mode (default ``none``: no push/pull rules, §4.1), window bounds and unit of
    ``tau1``/``tau2`` (``options.strategy`` is ``strategy``); ``tau`` reads only ``unit``.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 10s] { ?x :p ?y } }'''
    >>> [(p.label, p.windows) for p in (rsplars.program(q, s) for s in rsplars.STRATEGIES)]
    [('τ(cs(Q))', ()), ('τ1(cs(Q))', ('⊞^10',)), ('τ2(Q)', ('⊞^10',))]
    """
    from lars.printer import format_program

    label, compiled_program = lars_program(as_query(query), strategy, options)
    text = format_program(compiled_program, True, base_unit=options.unit)
    return ProgramSummary(label, strategy, len(compiled_program.rules), _body_windows(compiled_program, options.unit),
                          text)


def cs(query: QueryInput) -> Query:
    """cs(Q) (Dao-Tran, Beck, Eiter 2015, §3): the C-SPARQL reading of a query — every stream graph
    pattern ``(STREAM s ω g)`` becomes ``FROM STREAM s [ω]``, g stays where it was, matched against
    the default graph into which C-SPARQL merges the window contents. Print it with
    ``rsplars.translate(cs(q), "query")``; a C-SPARQL query is its own cs(Q).

    >>> import rsplars
    >>> q = rsplars.parse('''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 10s] { ?x :p ?y } }''')
    >>> (q.dialect, rsplars.cs(q).dialect)
    ('cqels', 'csparql')
    """
    from translator.translate.compile import cs as c_sparql_reading

    parsed = as_query(query)
    if parsed.dialect in ("epsparql", "rsepql"):
        raise RsplarsError(f"{parsed.dialect.upper()} queries are event patterns: cs(Q) does not apply")
    return c_sparql_reading(parsed)


def lars_program(parsed: Query, strategy: str, options: TranslationOptions) -> tuple[str, Any]:
    """(label, :class:`lars.model.Program`) of a parsed query under ``strategy`` (:func:`program`)."""
    if strategy not in STRATEGIES:
        raise RsplarsError(f"strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}")
    if parsed.dialect in ("epsparql", "rsepql"):
        raise RsplarsError(f"{parsed.dialect.upper()} queries are event patterns: τ, τ1 and τ2 do not apply")
    if strategy == "tau":
        from translator.translate.compile import cs as c_sparql_reading
        from translator.translate.normalize import TimeBase, pattern_algebra
        from translator.translate.tau import translate

        return "τ(cs(Q))", translate(pattern_algebra(c_sparql_reading(parsed).where, TimeBase(options.unit)), "tau")
    from translator.translate.variants import compile_variants

    ((_, compiled),) = compile_variants(parsed, replace(options, strategy=strategy, as_variant=None))
    reads_cs = strategy == "tau1" and parsed.dialect != "csparql"
    return ("τ1(cs(Q))" if reads_cs else "τ1(Q)") if strategy == "tau1" else "τ2(Q)", compiled.program


def _body_windows(lars_program: Any, unit: str) -> tuple[str, ...]:
    """The distinct windows the rule bodies read, in the paper's notation, in order of appearance."""
    from lars.printer import format_window

    found: list[str] = []
    for rule in lars_program.rules:
        for literal in rule.body:
            window = getattr(getattr(literal, "atom", None), "window", None)
            if window is not None:
                text = format_window(window, unicode=True, base_unit=unit)
                if text not in found:
                    found.append(text)
    return tuple(found)


def _written(window: Any) -> str:
    """A window expression ω as a query writes it (``[RANGE 30m STEP 5m]``, ``[NOW]``, ``[TRIPLES 5]``)."""
    def duration(d: Any) -> str:
        return str(d.lexical) if d.lexical else f"{d.value}{d.unit}"

    if window.kind in ("range", "tumbling", "interval") and window.range is not None:
        if window.kind == "interval":
            until = duration(window.until) if window.until is not None else "0"
            text = f"FROM NOW-{duration(window.range)} TO NOW-{until}"
        else:
            text = f"RANGE {duration(window.range)}" + (" TUMBLING" if window.kind == "tumbling" else "")
        return f"[{text}" + (f" STEP {duration(window.step)}" if window.step is not None else "") + "]"
    if window.kind in ("triples", "rows"):
        return f"[{window.kind.upper()} {window.rows}]"
    return f"[{window.kind.upper()}]"
