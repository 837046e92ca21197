"""Running a query over streams and static data: :func:`run` → :class:`RunResult`, as ``rsplars
run`` does (translation, execution mode, the LARS program solved at every evaluation time; Dao-Tran,
Beck, Eiter 2015, §4; or, under an engine profile, the report policy of Dell'Aglio et al. 2014)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Sequence, TextIO

from lars.errors import RsplarsError
from translator.evaluate.writers import FORMATS  # the formats of RunResult.write (rsplars run --format)
from translator.query.model import Query

from translator.translate.variants import check_stream_iris, compile_variants
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from translator.options import EventOptions, ProfileOptions, TranslationOptions
from rsplars.queries import QueryInput, as_query, source_of
from rsplars.spark import SparkOptions, run_on_spark, spark_settings

__all__ = ["FORMATS", "RunResult", "run"]


@dataclass(frozen=True, repr=False)
class RunResult:
    """The answers of a run: one evaluation per evaluation time, in time order.

    ``evaluations``: objects with ``t`` (the evaluation time, base units) and ``rows`` (the
    solutions after R2S: tuples of N-Triples terms in the order of ``variables``, ``None`` for
    unbound; a bag — iterate it to see every solution, duplicates included); ``compiled``: the
    program that was run (:class:`translator.translate.compile.Compiled`); ``form``: ``select``,
    ``ask`` or ``construct``; ``notes``: what the command line would say on stderr (dialect
    remarks, streams without data, aggregate limits)."""

    query: Query
    compiled: Any
    evaluations: tuple[Any, ...]
    notes: tuple[str, ...] = field(default=())
    #: ``True`` for the complex events of an EP-SPARQL or RSEP-QL query: each row is ``(terms, start, end)``,
    #: the event's interval in base units (docs/epsparql.md)
    events: bool = False
    #: ``True`` for a query without streams, plain SPARQL evaluated once (at time 0) over the static
    #: data: :meth:`write` gives SPARQL's own result formats, as ``rsplars run`` without ``--stream``
    plain: bool = False

    @property
    def variables(self) -> tuple[str, ...]:
        """The result variables, in the order of each row's terms."""
        return tuple(self.compiled.variables)

    @property
    def form(self) -> str:
        """``select``, ``ask`` or ``construct``."""
        return str(self.compiled.form)

    @property
    def times(self) -> list[int]:
        """The evaluation times."""
        return [ev.t for ev in self.evaluations]

    def solutions(self) -> dict[int, list[dict[str, str]]]:
        """``{t: [solution, …]}``: each solution a mapping variable → N-Triples term (unbound
        variables left out), in the query's ORDER BY or a fixed order; duplicates are kept. A
        complex event (EP-SPARQL) also has ``"@start"`` and ``"@end"``, its interval."""
        if self.events:
            from translator.evaluate.epsparql_run import answer_dicts

            return {ev.t: answer_dicts(self.variables, ev.rows) for ev in self.evaluations}
        from translator.evaluate.writers import csv_rows, order_by

        ordering = order_by(self.compiled)
        return {ev.t: [{v: x for v, x in zip(self.variables, row) if x is not None}
                       for row in csv_rows(list(ev.rows), ordering)]
                for ev in self.evaluations}

    def __iter__(self) -> Iterator[Any]:
        return iter(self.evaluations)

    def __repr__(self) -> str:
        answered = sum(1 for ev in self.evaluations if ev.rows)
        return (f"RunResult({self.form}, variables={list(self.variables)}, evaluations={len(self.evaluations)}, "
                f"with answers={answered})")

    def __len__(self) -> int:
        return len(self.evaluations)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame with one row per solution and a ``t`` column first: SELECT gives the
        variables as columns (N-Triples terms, ``None`` unbound), ASK the column ``answer``
        (one row per evaluation time), CONSTRUCT the columns ``subject``, ``predicate``,
        ``object`` (one row per triple); complex events (EP-SPARQL) add the columns ``@start`` and
        ``@end``. Needs pandas (``pip install 'rsplars[spark]'``)."""
        pd = _pandas()
        if self.form == "ask":
            return pd.DataFrame([(ev.t, bool(ev.rows)) for ev in self.evaluations], columns=["t", "answer"])
        if self.form == "construct":
            from translator.evaluate.run import construct_triples
            from translator.evaluate.writers import split_triple

            records = [(ev.t, *split_triple(line)) for ev in self.evaluations
                       for line in construct_triples(self.compiled, self._rows(ev), ev.t)]
            return pd.DataFrame(records, columns=["t", "subject", "predicate", "object"])
        if self.events:
            columns = ["t", *self.variables, "@start", "@end"]
            return pd.DataFrame([(t, *(d.get(c) for c in columns[1:])) for t, ds in self.solutions().items() for d in ds],
                                columns=columns)
        from translator.evaluate.writers import csv_rows, order_by

        ordering = order_by(self.compiled)
        records = [(ev.t, *row) for ev in self.evaluations for row in csv_rows(list(ev.rows), ordering)]
        return pd.DataFrame(records, columns=["t", *self.variables])

    def _rows(self, ev: Any) -> Any:
        """An evaluation's rows of terms (a complex event's without its interval)."""
        return [row for row, _, _ in ev.rows] if self.events else ev.rows

    def write(self, fmt: str = "jsonl", file: str | os.PathLike[str] | TextIO | None = None) -> str | None:
        """Write the answers as ``rsplars run --format FMT`` does (:data:`FORMATS`,
        :mod:`translator.evaluate.writers`; complex events: ``jsonl`` or ``csv`` with their
        intervals): to ``file`` (a path, written atomically, or an open text file), or, without
        ``file``, return the text."""
        from translator.evaluate.writers import WRITERS, check_format

        if self.events:
            from translator.evaluate import epsparql_run

            epsparql_run.check_format(fmt)
        elif fmt not in WRITERS:
            raise RsplarsError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
        else:
            check_format(fmt, self.form)
        if file is None:
            buffer = io.StringIO()
            self._write_to(fmt, buffer)
            return buffer.getvalue()
        if isinstance(file, (str, os.PathLike)):
            from translator.evaluate.fileio import atomic_output

            with atomic_output(os.fspath(file)) as out:
                self._write_to(fmt, out)
            return None
        self._write_to(fmt, file)
        return None

    def _write_to(self, fmt: str, out: TextIO) -> None:
        from translator.evaluate.epsparql_run import writer
        from translator.evaluate.writers import WRITERS

        if self.plain:  # one SPARQL result (translator.evaluate.plain_sparql)
            from translator.evaluate.plain_sparql import WRITERS as PLAIN_WRITERS

            (evaluation,) = self.evaluations
            PLAIN_WRITERS[fmt](out, self.compiled, evaluation)
            return
        write = writer(fmt, out, self.compiled) if self.events else WRITERS[fmt](out, self.compiled)
        for ev in self.evaluations:
            write(ev)


def run(query: QueryInput, streams: Mapping[str, StreamInput] | None = None, static: StaticInput = None,
        named: Mapping[str, str | os.PathLike[str]] | None = None, *,
        options: TranslationOptions = TranslationOptions(), profile: ProfileOptions | None = None,
        events: EventOptions = EventOptions(), start: int | None = None, end: int | None = None, r2s: str | None = None, lars_engine: str = "auto",
        stream_time_unit: str | None = None, epoch: str | None = None,
        static_during: Sequence[StaticDuring] = (), engine: str = "sequential",
        spark: SparkOptions | None = None) -> RunResult:
    """Answer ``query`` (C-SPARQL, CQELS-QL, RSP-QL, EP-SPARQL or RSEP-QL: a :class:`Query`, a text or a file) over
    ``streams`` (IRI → file path, iterable of ``(triple, time)`` or DataFrame with the columns
    subject, predicate, object, time; :mod:`rsplars.data`), ``static`` (RDF files of the default
    graph) and ``named`` (IRI → RDF file), as ``rsplars run`` does.

    The query is translated by ``options`` (τ1 for C-SPARQL, τ2 for CQELS; pull with its period
    or push, D4) and its LARS program solved at every evaluation time in ``[start, end]`` by the
    LARS engine ``lars_engine`` (``auto``, ``incremental`` or ``asp``: clingo); ``r2s``: ``rstream``
    (default), ``istream`` or ``dstream``. With ``profile`` (and for RSP-QL queries, which run under
    the ``rsp-ql`` profile by default) the evaluations are the reports of the engine profile's
    report policy (docs/check.md). An EP-SPARQL query reads all streams as one event stream and is
    pushed: each complex event is reported once, with its interval, under the ``events``
    policies; an RSEP-QL query gives ``[[MATCH E]]^t`` at every time of ``events.at`` (else at
    every time with a stream item), each event mapping with its interval (docs/epsparql.md). Integer times are base units (``options.unit``);
    ``stream_time_unit`` and ``epoch`` say how stream files' timestamps read; ``static_during``:
    pieces ``(start, end, file)`` of a time-varying static graph. Without ``streams``, a query
    without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2), evaluated once
    at time 0 over ``static``/``named`` (or the files its FROM names), its result written in
    SPARQL's formats.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 3s SLIDE 1s] { ?x :p ?y } }'''
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1),
    ...         (("<http://example.org/b>", "<http://example.org/p>", '"2"'), 2)]
    >>> result = rsplars.run(q, streams={"http://example.org/s": data})
    >>> result.solutions()[2]
    [{'x': '<http://example.org/a>'}, {'x': '<http://example.org/b>'}]

    ``engine="spark"``: the timeline cut into blocks solved in parallel on Spark, where ``spark``
    (:class:`SparkOptions`) says (``master``, ``partitions``, ``parquet``); the same evaluations
    (:mod:`rsplars.spark`; needs ``pip install 'rsplars[spark]'`` and Java; the same example runs in
    tests/spark_jobs/test_api_on_spark.py):

    >>> on_spark = rsplars.run(q, streams={"http://example.org/s": data}, engine="spark",
    ...                        spark=rsplars.SparkOptions(master="local[2]", partitions=4))  # doctest: +SKIP
    >>> on_spark.solutions() == result.solutions()  # doctest: +SKIP
    True
    """
    from translator.evaluate.run import answers

    on_spark = spark_settings(engine, spark)  # Spark: rsplars.spark
    if on_spark is not None:
        return run_on_spark(query, streams, static, named, options=options, profile=profile, events=events,
                            start=start, end=end, r2s=r2s, lars_engine=lars_engine,
                            stream_time_unit=stream_time_unit, epoch=epoch, static_during=static_during,
                            spark=on_spark)

    parsed = as_query(query)
    notes = [f"note: {n}" for n in parsed.notes]
    if not streams:  # plain SPARQL over the static data, evaluated once (Dao-Tran, Beck, Eiter 2015, Prop. 2)
        return _run_plain(parsed, static, named, options, profile, start, end, r2s, lars_engine, static_during,
                          notes)
    if options.as_variant == "cqels-all":
        raise RsplarsError("as_variant cqels-all gives several queries; run them one by one (cqels-brave, "
                           "cqels-cautious)")
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    if end is not None and end < 0:
        raise RsplarsError(f"end {end} lies before the start 0 of the timeline")
    if parsed.dialect == "rsepql":
        return _run_rsepql(parsed, streams, static, named, options, profile, events, start, end, r2s, lars_engine,
                           stream_time_unit, epoch, notes)
    if parsed.dialect == "epsparql":
        return _run_events(parsed, streams, static, named, options, profile, events, start, end, r2s, lars_engine,
                           stream_time_unit, epoch, notes)
    parsed = _bind_now(parsed, options.unit, epoch)
    data = read_data(streams, static, named, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during)
    check_stream_iris(parsed, data.stream_iris, notes)
    from rsplars.translating import dialect_profile

    chosen = dialect_profile(parsed, options, profile, r2s)
    if chosen is not None and r2s is not None and chosen.r2s is None:  # r2s= overrides the profile's
        chosen = replace(chosen, r2s=r2s)
    if chosen is not None:
        return _run_operational(parsed, data, options, chosen, start, end, lars_engine, notes)
    ((_, compiled),) = compile_variants(parsed, options, data.elements, notes)
    evaluations = tuple(answers(compiled, data.elements, data.facts, start=start, end=end, r2s=r2s or "rstream",
                                on_note=lambda text: notes.append(f"note: {text}"), engine=lars_engine))
    return RunResult(parsed, compiled, evaluations, tuple(notes))


def _run_operational(query: Any, data: Any, options: TranslationOptions, profile: ProfileOptions,
                     start: int | None, end: int | None, lars_engine: str, notes: list[str]) -> RunResult:
    """A run under an engine profile: the relations of
    :meth:`translator.evaluate.operational.Evaluator.relations` (``rsplars run --profile``)."""
    from translator.evaluate.operational import Evaluator
    from translator.translate.normalize import TimeBase

    if options.mode or options.period:
        raise RsplarsError("mode/period and a profile exclude each other: the report policy decides when the "
                           "query is evaluated")
    from translator.evaluate.profiles import operational_parameters

    op: Any = operational_parameters(profile, window_bounds=options.window_bounds, unit=options.unit)
    plain = replace(options, window_bounds=op.window_model, mode="none")
    ((_, compiled),) = compile_variants(query, plain, data.elements, notes)
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(options.unit), data.elements, data.facts,
                          engine=lars_engine)
    return RunResult(query, compiled, tuple(evaluator.relations(op, start, end)), tuple(notes))


def _run_events(query: Any, streams: Mapping[str, StreamInput], static: StaticInput,
                named: Mapping[str, str | os.PathLike[str]] | None, options: TranslationOptions,
                profile: ProfileOptions | None, events: EventOptions, start: int | None, end: int | None,
                r2s: str | None, lars_engine: str, stream_time_unit: str | None, epoch: str | None,
                notes: list[str]) -> RunResult:
    """An EP-SPARQL run (``rsplars run`` on event patterns, docs/epsparql.md): the streams are one
    event stream, the query is pushed, each complex event reported once with its interval
    (:func:`translator.evaluate.epsparql_run.event_answers`, or ``policy_answers`` under a
    selection or consumption policy)."""
    from translator.evaluate.epsparql_run import event_answers, policy_answers
    from translator.translate.epsparql import compile_epsparql, compile_policy_operands
    from translator.translate.normalize import TimeBase

    if options.as_variant or options.strategy:
        raise RsplarsError("as_variant and strategy do not apply to EP-SPARQL queries (event patterns, pushed)")
    if options.mode not in (None, "push"):
        raise RsplarsError("EP-SPARQL queries are push-evaluated (on every event): mode pull/none does not apply")
    if profile is not None:
        raise RsplarsError("engine profiles need windows; EP-SPARQL has none (Dell'Aglio et al. 2013, §7): use "
                           "EventOptions(selection=…, consumption=…)")
    if r2s not in (None, "rstream"):
        raise RsplarsError("r2s does not apply to EP-SPARQL: each complex event is reported once, when detected")
    base = TimeBase(options.unit)
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    data = read_data(streams, None, None, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch)
    if static is not None or named:
        notes.append("note: EP-SPARQL patterns match events only; static data is not read")
    if events.restricted:
        policy = compile_policy_operands(query, base=base)
        notes.extend(f"warning: {w}" for w in policy.warnings)
        found = list(policy_answers(policy, data.elements, selection=events.selection,
                                    consumption=events.consumption, reading=events.policy_reading, start=start,
                                    end=end, engine=lars_engine))
        return RunResult(query, policy, tuple(found), tuple(notes), events=True)
    compiled = compile_epsparql(query, base=base)
    notes.extend(f"warning: {w}" for w in compiled.warnings)
    found = list(event_answers(compiled, data.elements, start=start, end=end, engine=lars_engine))
    return RunResult(query, compiled, tuple(found), tuple(notes), events=True)


def _run_rsepql(query: Any, streams: Mapping[str, StreamInput], static: StaticInput,
                named: Mapping[str, str | os.PathLike[str]] | None, options: TranslationOptions,
                profile: ProfileOptions | None, events: EventOptions, start: int | None, end: int | None,
                r2s: str | None, lars_engine: str, stream_time_unit: str | None, epoch: str | None,
                notes: list[str]) -> RunResult:
    """An RSEP-QL run (``rsplars run`` on ``MATCH``, docs/epsparql.md "RSEP-QL"): the LARS program of
    the basic event patterns on their windows, ``MATCH`` evaluated at every evaluation time
    (``events.at``, else every time point with a stream item), the full answer ``[[MATCH E]]^t``
    with every event mapping's interval (:func:`translator.evaluate.rsepql_run.rsepql_answers`)."""
    from translator.evaluate.epsparql_run import event_times
    from translator.evaluate.rsepql_run import rsepql_answers
    from translator.translate.normalize import TimeBase
    from translator.translate.rsepql import compile_rsepql

    if options.as_variant or options.strategy:
        raise RsplarsError("as_variant and strategy do not apply to RSEP-QL queries (docs/epsparql.md)")
    if options.mode not in (None, "push"):
        raise RsplarsError("RSEP-QL queries are evaluated at the times of events.at or on every item: mode does "
                           "not apply")
    if profile is not None:
        raise RsplarsError("engine profiles do not apply to RSEP-QL: give its evaluation times with "
                           "EventOptions(at=…) (docs/epsparql.md)")
    if r2s not in (None, "rstream"):
        raise RsplarsError("r2s does not apply to RSEP-QL: the answer at t is [[MATCH E]]^t (Dell'Aglio et al. "
                           "2016, Eq. 8)")
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    compiled = compile_rsepql(query, base=TimeBase(options.unit))
    data = read_data(streams, None, None, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch)
    if static is not None or named:
        notes.append("note: RSEP-QL event patterns match stream items only; static data is not read")
    if events.at is not None:
        times = [t for t in sorted(set(events.at)) if (start is None or t >= start) and (end is None or t <= end)]
    else:
        times = event_times(data.elements, start, end)
    found = rsepql_answers(compiled, data.elements, selection=events.selection, consumption=events.consumption,
                           reading=events.policy_reading, times=times, engine=lars_engine)
    return RunResult(query, compiled, tuple(found), tuple(notes), events=True)


def _run_plain(query: Query, static: StaticInput, named: Mapping[str, str | os.PathLike[str]] | None,
               options: TranslationOptions, profile: ProfileOptions | None, start: int | None, end: int | None,
               r2s: str | None, lars_engine: str, static_during: Sequence[StaticDuring],
               notes: list[str]) -> RunResult:
    """A query without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2): solved
    once over the static data (``rsplars run QUERY --static FILE`` without ``--stream``,
    :func:`translator.evaluate.plain_sparql.evaluate_once`). A query read from a file resolves
    relative IRIs against the file's ``file:`` IRI; without ``static``, ``FROM <g>`` and
    ``FROM NAMED <g>`` name the graphs (the ``named`` file of that IRI, else the file a ``file:``
    IRI names; docs/translation.md)."""
    from translator.evaluate.plain_sparql import evaluate_once
    from translator.query.model import IRI, stream_graph_patterns

    if query.dialect in ("epsparql", "rsepql"):
        raise RsplarsError(f"the query was read as {query.dialect.upper()}, which reads an event stream: give it "
                           "streams; a plain SPARQL query writes every IRI as <…> or prefix:name")
    streams = sorted({f"<{p.stream.value}>" if isinstance(p.stream, IRI) else f"?{p.stream.name}"
                      for p in stream_graph_patterns(query)})
    if streams:
        raise RsplarsError(f"the query reads the streams {', '.join(streams)}: give them with streams={{IRI: data}} "
                           "(without streams, a query without streams is evaluated once, as plain SPARQL)")
    given = [name for name, value in (("start", start), ("end", end), ("period", options.period),
                                      ("as_variant", options.as_variant), ("profile", profile),
                                      ("static_during", tuple(static_during) or None))
             if value is not None] + (["r2s"] if r2s not in (None, "rstream") else []) + \
        ([f"mode {options.mode}"] if options.mode not in (None, "none") else [])
    if given:
        raise RsplarsError(f"{given[0]} needs streams: without streams the query is evaluated once, as plain SPARQL")
    src = source_of(query)
    if src.source not in ("<input>", "<query>") and query.prologue.base is None:  # IRIs relative to the file
        from pathlib import Path

        from translator.query.parse import parse as parse_query

        query = parse_query(src.text, query.dialect, source=src.source, lenient=src.lenient, bare_ns=src.bare_ns,
                            base=Path(src.source).resolve().as_uri())
    named_files = {str(iri).strip("<>"): os.fspath(p) for iri, p in (named or {}).items()}
    static_files = [os.fspath(p) for p in ([static] if isinstance(static, (str, os.PathLike)) else static or [])]
    if not static_files:
        static_files = [_graph_file(iri.value, named_files, "FROM") for iri in query.dataset.default]
    for iri in query.dataset.named:
        if iri.value not in named_files:
            named_files[iri.value] = _graph_file(iri.value, named_files, "FROM NAMED")
    data = read_data(None, static_files, named_files, unit=options.unit)
    ((_, compiled),) = compile_variants(query, replace(options, mode="none"), (), notes)
    evaluation = evaluate_once(compiled, data.facts, engine=lars_engine,
                               on_note=lambda text: notes.append(f"note: {text}"))
    return RunResult(query, compiled, (evaluation,), tuple(notes), plain=True)


def _graph_file(iri: str, named: Mapping[str, str], keyword: str) -> str:
    """The file of the graph ``iri`` of a plain SPARQL query: the ``named`` file of that IRI, else
    the file a ``file:`` IRI names (rsplars reads no data from the web)."""
    from urllib.parse import unquote, urlparse

    if iri in named:
        return named[iri]
    if urlparse(iri).scheme == "file":
        return unquote(urlparse(iri).path)
    give = "the default graph with static=FILE (or named={IRI: FILE})" if keyword == "FROM" else \
        f"the graph with named={{{iri!r}: FILE}}"
    raise RsplarsError(f"{keyword} <{iri}>: rsplars reads no data from the web; give {give}")


def _bind_now(query: Any, unit: str, epoch: str | None) -> Any:
    """``NOW()`` bound to epoch + t (:func:`translator.translate.now.bind_now`)."""
    from translator.rdf.timeunits import parse_datetime, unit_ms
    from translator.translate.now import bind_now

    src = source_of(query)
    return bind_now(query, parse_datetime(epoch) if epoch else None, unit_ms(unit), src.text, src.source)


def _pandas() -> Any:
    import importlib

    try:
        return importlib.import_module("pandas")
    except ImportError:
        raise RsplarsError("to_dataframe needs pandas: pip install 'rsplars[spark]' (or pandas)") from None
