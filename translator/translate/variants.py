"""A query and its :class:`~translator.options.TranslationOptions` → the compiled programs
(:func:`translator.translate.compile.compile_query`, or the EP-SPARQL / RSEP-QL translations): the
one place where the public API, the command line and the Spark jobs compile a query."""

from __future__ import annotations

from typing import Any, Sequence

from lars.errors import RsplarsError
from translator.query.model import Query

from translator.options import TranslationOptions

__all__ = ["assignment_of", "check_stream_iris", "compile_variants"]


def compile_variants(query: Query, options: TranslationOptions, elements: Sequence[Any] = (),
                     notes: list[str] | None = None) -> list[tuple[str, Any]]:
    """``[(label, Compiled)]`` for the query, or for the counterparts ``options.as_variant`` asks
    for (Dao-Tran, Beck, Eiter 2015, §3: cs(Q), members of cq(Q)); ``elements``: the stream data an
    assignment of a C-SPARQL query's patterns to streams is read off. Warnings go to ``notes``."""
    from translator.rdf.timeunits import duration_in_base_units
    from translator.translate.compile import compile_query, counterparts
    from translator.translate.normalize import TimeBase

    base = TimeBase(options.unit)
    period = duration_in_base_units(options.period, options.unit) if options.period else None
    if period is not None and period < 1:
        raise RsplarsError(f"period {options.period}: the pull period must be positive")
    if query.dialect == "rsepql":
        from translator.translate.rsepql import compile_rsepql

        return [("Q", compile_rsepql(query, base=base))]
    if query.dialect == "epsparql":
        from translator.translate.epsparql import compile_epsparql

        if options.as_variant or options.strategy or options.mode not in (None, "push"):
            raise RsplarsError("EP-SPARQL queries are translated as event patterns and pushed: "
                               "as_variant, strategy and mode pull/none do not apply")
        compiled = compile_epsparql(query, base=base)
        if notes is not None:
            notes.extend(f"warning: {w}" for w in compiled.warnings)
        return [("Q", compiled)]
    queries: list[tuple[str, Query]] = [("Q", query)]
    if options.as_variant:
        assignment = assignment_of(query, options, elements) if query.dialect == "csparql" else None
        queries = counterparts(query, options.as_variant, assignment)
    out = []
    for label, q in queries:
        strategy = options.strategy
        if options.as_variant and strategy is None:
            strategy = "tau1" if options.as_variant == "csparql" else "tau2"
        out.append((label, compile_query(q, strategy=strategy, mode=options.mode or None, period=period,
                                         bounds=options.window_bounds or "closed", base=base)))
    return out


def assignment_of(query: Query, options: TranslationOptions, elements: Sequence[Any]) -> dict[int, str] | None:
    """``options.assign`` (numbers from 1) if given, else the assignment read off the stream data
    (:func:`translator.translate.compile.assign_by_data`)."""
    from translator.rdf.terms import to_nt
    from translator.translate.compile import assign_by_data

    if options.assign:
        out = {}
        for number, iri in options.assign.items():
            if int(number) < 1:
                raise RsplarsError(f"assign: triple patterns are numbered from 1, got {number}")
            out[int(number) - 1] = str(iri).strip().strip("<>")
        return out
    if not elements:
        return None
    triples: dict[str, set[tuple[str, str, str]]] = {}
    for e in elements:
        s, p, o = (to_nt(x) for x in e.triple)
        triples.setdefault(str(e.stream_iri), set()).add((s, p, o))
    return assign_by_data(query, triples)


def check_stream_iris(query: Query, stream_iris: Sequence[str], notes: list[str]) -> None:
    """Every stream given must be one the query reads (a typo would run the query over no data);
    a query stream without data gets a note (read as an empty stream). A query whose stream is a
    variable (CQELS ``STREAM ?s``) accepts any IRI."""
    from translator.query import model as M

    patterns = M.stream_graph_patterns(query)
    if any(not isinstance(p.stream, M.IRI) for p in patterns):
        return
    declared = {p.stream.value for p in patterns if isinstance(p.stream, M.IRI)}
    given = {str(iri) for iri in stream_iris}
    unknown = sorted(given - declared)
    if unknown:
        names = ", ".join(f"<{i}>" for i in sorted(declared)) or "none"
        raise RsplarsError(f"stream <{unknown[0]}> is not a stream of the query (its streams: {names})")
    notes.extend(f"note: no data for the stream <{iri}>: read as an empty stream" for iri in sorted(declared - given))
