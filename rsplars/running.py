"""Running a query over streams and static data: :func:`run` → :class:`RunResult`, as ``rsplars
run`` does (translation, execution mode, the LARS program solved at every evaluation time; Dao-Tran,
Beck, Eiter 2015, §4; or, under an engine profile, the report policy of Dell'Aglio et al. 2014)."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence, TextIO

from lars.errors import RsplarsError
from translator.evaluate.writers import FORMATS  # the formats of RunResult.write (rsplars run --format)
from translator.query.model import Query

from translator.translate.variants import check_stream_iris, compile_variants
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from translator.options import EventOptions, ProfileOptions, TranslationOptions
from rsplars.queries import QueryInput, as_query, source_of
from rsplars.notes import Notes
from rsplars.run_requests import check_run_request
from rsplars.spark import SparkOptions, run_on_spark, spark_settings

if TYPE_CHECKING:
    from lars.accounting import Accounting
    from rsplars.data import Data

__all__ = ["FORMATS", "Evaluations", "RunResult", "evaluations", "run"]


class _CompiledAnswers:
    """What a run's results say of its compiled query (``compiled``: the program that answered)."""

    compiled: Any

    @property
    def variables(self) -> tuple[str, ...]:
        """The result variables, in the order of each row's terms."""
        return tuple(self.compiled.variables)

    @property
    def form(self) -> str:
        """``select``, ``ask`` or ``construct``."""
        return str(self.compiled.form)


@dataclass(frozen=True, repr=False)
class RunResult(_CompiledAnswers):
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
        if self.plain:
            from translator.evaluate.plain_sparql import WRITERS as PLAIN_WRITERS

            if fmt not in PLAIN_WRITERS:
                raise RsplarsError(f"unknown format {fmt!r} (expected one of {', '.join(PLAIN_WRITERS)})")
        else:
            check_run_format(fmt, self.form, events=self.events)
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
        write = evaluation_writer(fmt, out, self.compiled, events=self.events, plain=self.plain)
        for ev in self.evaluations:
            write(ev)


def evaluation_writer(fmt: str, out: TextIO, compiled: Any, *, events: bool = False,
                      plain: bool = False) -> Callable[[Any], None]:
    """The writer of one evaluation in ``fmt`` to ``out`` (:mod:`translator.evaluate.writers`; complex
    events: :func:`translator.evaluate.epsparql_run.writer`; plain SPARQL: the one result of
    :mod:`translator.evaluate.plain_sparql`), a header written first where the format has one."""
    if plain:  # one SPARQL result (translator.evaluate.plain_sparql)
        from translator.evaluate.plain_sparql import WRITERS as PLAIN_WRITERS

        return lambda evaluation: PLAIN_WRITERS[fmt](out, compiled, evaluation)
    if events:
        from translator.evaluate.epsparql_run import writer

        return writer(fmt, out, compiled)  # type: ignore[no-any-return]
    from translator.evaluate.writers import WRITERS

    return WRITERS[fmt](out, compiled)  # type: ignore[no-any-return]


def check_run_format(fmt: str, form: str, *, events: bool = False) -> None:
    """A :class:`RsplarsError` if ``fmt`` cannot write the answers of a ``form`` query (``ntriples``
    is for CONSTRUCT only, ``sparql-json`` for SELECT/ASK; complex events: ``jsonl`` or ``csv``)."""
    from translator.evaluate.writers import WRITERS, check_format

    if events:
        from translator.evaluate import epsparql_run

        epsparql_run.check_format(fmt)
    elif fmt not in WRITERS:
        raise RsplarsError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")
    else:
        check_format(fmt, form)


class Evaluations(_CompiledAnswers):
    """The evaluations of a run, each computed as it is taken (one pass, in time order): what
    :func:`run` collects into a :class:`RunResult` and ``rsplars run`` writes as they come, so that
    memory follows the windows, not the length of the run. Its attributes are those of
    :class:`RunResult` (``query``, ``compiled``, ``variables``, ``form``, ``events``, ``plain``,
    ``notes``: a list that grows while the run goes on); :meth:`writer` writes one evaluation in a
    format of :data:`FORMATS`; :meth:`count` completes the element counts of ``accounting``
    (the evaluations used the elements up to the last time taken)."""

    def __init__(self, query: Query, compiled: Any, produce: Callable[[], Iterator[Any]], notes: list[str], *,
                 events: bool = False, plain: bool = False, data: Data | None = None,
                 count: Callable[[int | None], None] | None = None, stream: Any = None,
                 accounting: Accounting | None = None) -> None:
        self.query = query
        self.compiled = compiled
        self.notes = notes
        self.events = events
        self.plain = plain
        #: the stream elements and static facts read whole (``None`` when read while evaluated)
        self.data = data
        #: the LARS data stream the windows read (``None`` when read while evaluated: ``on_stream``)
        self.stream = stream
        #: the counts of the stream elements (``evaluations(accounting=…)``)
        self.accounting = accounting
        self._produce: Callable[[], Iterator[Any]] | None = produce
        self._count = count

    def __iter__(self) -> Iterator[Any]:
        if self._produce is None:
            raise RsplarsError("the evaluations of a run are computed once: iterate them once (rsplars.run keeps them)")
        produce, self._produce = self._produce, None
        return produce()

    def check_format(self, fmt: str) -> None:
        """A :class:`RsplarsError` if ``fmt`` cannot write these answers (before anything is run)."""
        if self.plain:
            from translator.evaluate.plain_sparql import WRITERS as PLAIN_WRITERS
            from translator.evaluate.writers import check_format

            if fmt not in PLAIN_WRITERS:
                raise RsplarsError(f"unknown format {fmt!r} (expected one of {', '.join(PLAIN_WRITERS)})")
            check_format(fmt, self.form)
            return
        check_run_format(fmt, self.form, events=self.events)

    def writer(self, fmt: str, out: TextIO) -> Callable[[Any], None]:
        """The writer of one evaluation in ``fmt`` to ``out``, as :meth:`RunResult.write` writes
        them (a header written first where the format has one)."""
        return evaluation_writer(fmt, out, self.compiled, events=self.events, plain=self.plain)

    def count(self, last: int | None) -> None:
        """Complete the counts of the run's ``accounting``: the elements used up to ``last``, the
        last evaluation time taken (``None``: none), and the duplicates (docs/robustness.md)."""
        if self._count is not None:
            self._count(last)

    def result(self) -> RunResult:
        """All evaluations, computed now, as a :class:`RunResult`."""
        found = tuple(self)
        return RunResult(self.query, self.compiled, found, tuple(self.notes), events=self.events, plain=self.plain)


def run(query: QueryInput, streams: Mapping[str, StreamInput] | None = None, static: StaticInput = None,
        named: Mapping[str, str | os.PathLike[str]] | None = None, *,
        options: TranslationOptions = TranslationOptions(), profile: ProfileOptions | None = None,
        events: EventOptions = EventOptions(), start: int | None = None, end: int | None = None,
        r2s: str | None = None, lars_engine: str = "auto", stream_time_unit: str | None = None,
        epoch: str | None = None, static_during: Sequence[StaticDuring] = (), engine: str = "sequential",
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
    on_spark = spark_settings(engine, spark)  # Spark: rsplars.spark
    if on_spark is not None:
        return run_on_spark(query, streams, static, named, options=options, profile=profile, events=events,
                            start=start, end=end, r2s=r2s, lars_engine=lars_engine,
                            stream_time_unit=stream_time_unit, epoch=epoch, static_during=static_during,
                            spark=on_spark)
    return evaluations(query, streams, static, named, options=options, profile=profile, events=events, start=start,
                       end=end, r2s=r2s, lars_engine=lars_engine, stream_time_unit=stream_time_unit, epoch=epoch,
                       static_during=static_during).result()

@dataclass(frozen=True)
class _Request:
    """The arguments of :func:`evaluations`, passed on to the run of each kind of query."""

    streams: Mapping[str, StreamInput]
    static: StaticInput
    named: Mapping[str, str | os.PathLike[str]] | None
    options: TranslationOptions
    profile: ProfileOptions | None
    events: EventOptions
    start: int | None
    end: int | None
    r2s: str | None
    lars_engine: str
    stream_time_unit: str | None
    epoch: str | None
    static_during: Sequence[StaticDuring]
    resume_after: int | None
    live: bool
    accounting: Accounting | None
    on_progress: Callable[[int, int], None] | None
    on_time: Callable[[int], None] | None
    on_stream: Callable[[Any], None] | None

    def read(self, static: bool = True) -> Data:
        """The stream elements (counted by ``accounting``) and, with ``static``, the static facts."""
        return read_data(self.streams, self.static if static else None, self.named if static else None,
                         unit=self.options.unit, stream_time_unit=self.stream_time_unit, epoch=self.epoch,
                         static_during=self.static_during if static else (), accounting=self.accounting)

    def counter(self, data: Data) -> Callable[[int | None], None] | None:
        """The count of the used elements and duplicates of ``data`` up to the last evaluation time."""
        if self.accounting is None:
            return None
        from translator.evaluate.accounting import count_elements

        accounting = self.accounting
        return lambda last: count_elements(accounting, data.elements, last)


def evaluations(query: QueryInput, streams: Mapping[str, StreamInput] | None = None, static: StaticInput = None,
                named: Mapping[str, str | os.PathLike[str]] | None = None, *,
                options: TranslationOptions = TranslationOptions(), profile: ProfileOptions | None = None,
                events: EventOptions = EventOptions(), start: int | None = None, end: int | None = None,
                r2s: str | None = None, lars_engine: str = "auto", stream_time_unit: str | None = None,
                epoch: str | None = None, static_during: Sequence[StaticDuring] = (), default_profile: bool = True,
                resume_after: int | None = None, live: bool = False, accounting: Accounting | None = None,
                on_note: Callable[[str], None] | None = None, on_progress: Callable[[int, int], None] | None = None,
                on_time: Callable[[int], None] | None = None,
                on_stream: Callable[[Any], None] | None = None) -> Evaluations:
    """The run of :func:`run` (the same arguments, the same answers), its evaluations computed one
    at a time as they are taken: :class:`Evaluations`, iterated once, in time order, each written
    or used before the next is computed (``rsplars run`` writes them so).

    For long runs (docs/robustness.md): ``resume_after``: only the evaluations after that time
    (``--resume-from``; the answers at t depend on the stream up to t only,
    :mod:`translator.evaluate.resume`); ``live``: read stream files while they are evaluated (memory
    then follows the windows, not the stream; a stream ``"-"``, standard input, is always read so,
    its answers at t given as soon as the first element after t arrives,
    :mod:`translator.evaluate.live`) where the run allows it (not with ``resume_after``, nor for
    ``as_variant`` of a C-SPARQL query without ``assign``, which reads the assignment off the whole
    stream); ``accounting`` (:class:`lars.accounting.Accounting`): counts the stream elements read,
    rejected (skipped if it says so) and, after :meth:`Evaluations.count`, used. Hooks:
    ``on_note`` hears each note as it arises (dialect remarks of the translation, streams without
    data, aggregate limits), ``on_progress(done, total)`` the evaluations done, ``on_time(t)`` each
    evaluation time as the engine starts on it, ``on_stream`` the LARS stream of a run read while
    evaluated (the memory watchdog names the windows that grow from it). ``default_profile=False``:
    without ``profile``, an RSP-QL query runs its plain translation too (the caller has decided,
    :func:`rsplars.translating.dialect_profile`).

    >>> import rsplars
    >>> q = \'\'\'PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 3s SLIDE 1s] { ?x :p ?y } }\'\'\'
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> run = rsplars.evaluations(q, streams={"http://example.org/s": data})
    >>> [(ev.t, len(ev.rows)) for ev in run]
    [(1, 1)]
    """
    parsed = as_query(query)
    notes = Notes(None)
    notes.extend(f"note: {n}" for n in parsed.notes)  # (the parser's, which parse's caller has seen)
    notes.on_note = on_note
    request = _Request(streams or {}, static, named, options, profile, events, start, end, r2s, lars_engine,
                       stream_time_unit, epoch, tuple(static_during), resume_after, live, accounting, on_progress,
                       on_time, on_stream)
    if not streams:  # plain SPARQL over the static data, evaluated once (Dao-Tran, Beck, Eiter 2015, Prop. 2)
        return _run_plain(parsed, request, notes)
    check_run_request(options, start, end)
    if parsed.dialect == "rsepql":
        return _run_rsepql(parsed, request, notes)
    if parsed.dialect == "epsparql":
        return _run_events(parsed, request, notes)
    parsed = _bind_now(parsed, options.unit, epoch)
    check_stream_iris(parsed, [str(iri).strip("<>") for iri in request.streams], notes)
    from rsplars.translating import dialect_profile

    chosen = dialect_profile(parsed, options, profile, r2s, on_note=notes.append) if default_profile or profile \
        else None
    if chosen is not None:
        return _run_operational(parsed, request, chosen, notes)
    r2s = r2s or _registration_r2s(parsed) or "rstream"
    if _reads_live(parsed, request):
        return _run_live(parsed, request, r2s, notes)
    from translator.evaluate.run import answers

    data = request.read()
    ((_, compiled),) = compile_variants(parsed, options, data.elements, notes)

    def produce() -> Iterator[Any]:
        return answers(compiled, data.elements, data.facts, start=start, end=end, r2s=r2s,
                       on_progress=request.on_progress, on_note=lambda text: notes.append(f"note: {text}"),
                       resume_after=resume_after, on_time=on_time, engine=lars_engine)

    return Evaluations(parsed, compiled, produce, notes, data=data, count=request.counter(data),
                       stream=_LazyStream(data.elements), accounting=request.accounting)


def _registration_r2s(query: Any) -> str | None:
    """The R2S operator an RSP-QL registration names (``REGISTER ISTREAM …``), else ``None``."""
    if query.dialect != "rspql":
        return None
    from translator.evaluate.profiles import dialect_defaults

    registration = getattr(query, "registration", None)
    _, r2s = dialect_defaults(query.dialect, registration.kind if registration is not None else None)
    return r2s


def _reads_live(query: Any, request: _Request) -> bool:
    """Whether the run reads its streams while it evaluates them: every stream a file, ``live``
    asked or a stream ``-`` (standard input); not with ``resume_after``, nor for ``as_variant`` of a
    C-SPARQL query without ``assign`` (the assignment is read off the whole stream)."""
    files = [value for value in request.streams.values() if isinstance(value, (str, os.PathLike))]
    if len(files) != len(request.streams) or request.resume_after is not None:
        return False
    if request.options.as_variant and query.dialect == "csparql" and not request.options.assign:
        return False
    return request.live or any(os.fspath(path) == "-" for path in files)


def _run_live(query: Any, request: _Request, r2s: str, notes: Notes) -> Evaluations:
    """A run over stream files read as they arrive (:func:`translator.evaluate.live.live_answers`):
    each evaluation given as soon as its time point is complete, memory bounded by the windows."""
    from translator.evaluate.live import ElementCounts, live_answers
    from translator.rdf.streams import StreamFiles
    from translator.rdf.timeunits import TimeSpec, parse_datetime

    files = {str(iri).strip("<>"): os.fspath(path) for iri, path in request.streams.items()}  # type: ignore[arg-type]
    if len(files) != len(request.streams):
        raise RsplarsError(f"stream <{next(iter(set(map(str, request.streams)) - set(files)))}> is given twice")
    if list(files.values()).count("-") > 1:
        raise RsplarsError("only one stream can be read from standard input (-)")
    facts = read_data(None, request.static, request.named, unit=request.options.unit,
                      static_during=request.static_during).facts
    ((_, compiled),) = compile_variants(query, request.options, (), notes)
    counts = ElementCounts()
    spec = TimeSpec(request.options.unit, request.stream_time_unit,
                    parse_datetime(request.epoch) if request.epoch else None)
    streams = StreamFiles(files, time=spec, accounting=request.accounting)
    ready = stdin_ready if "-" in files.values() else None

    def produce() -> Iterator[Any]:
        return live_answers(compiled, streams, facts, start=request.start, end=request.end, r2s=r2s, counts=counts,
                            ready=ready, on_note=lambda text: notes.append(f"note: {text}"), on_time=request.on_time,
                            engine=request.lars_engine, on_stream=request.on_stream)

    accounting = request.accounting
    count = (lambda last: counts.finish(accounting, last)) if accounting is not None else None
    return Evaluations(query, compiled, produce, notes, count=count, accounting=accounting)


def stdin_ready() -> bool:
    """Whether standard input has data waiting (a live run reads ahead only then, never waits)."""
    import select
    import sys

    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):  # not selectable (e.g. replaced in tests): read as a file
        return True


class _LazyStream:
    """The LARS data stream of the elements, built only when it is read (the memory guard names
    the windows from it)."""

    def __init__(self, elements: Sequence[Any]) -> None:
        self.elements = elements
        self._stream: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            from translator.evaluate.run import data_stream

            self._stream = data_stream(self.elements)
        return getattr(self._stream, name)


def _run_operational(query: Any, request: _Request, profile: ProfileOptions, notes: Notes) -> Evaluations:
    """A run under an engine profile: the relations of
    :meth:`translator.evaluate.operational.Evaluator.relations` (``rsplars run --profile``)."""
    from translator.evaluate.operational import Evaluator
    from translator.translate.normalize import TimeBase

    options = request.options
    if options.mode or options.period:
        raise RsplarsError("mode/period and a profile exclude each other: the report policy decides when the "
                           "query is evaluated")
    from translator.evaluate.profiles import operational_parameters

    op: Any = operational_parameters(profile, window_bounds=options.window_bounds, unit=options.unit)
    plain = replace(options, window_bounds=op.window_model, mode="none")
    data = request.read()
    ((_, compiled),) = compile_variants(query, plain, data.elements, notes)

    def produce() -> Iterator[Any]:
        evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(options.unit), data.elements, data.facts,
                              engine=request.lars_engine)
        relations = evaluator.relations(op, request.start, request.end)
        resume = request.resume_after
        if resume is None:
            return iter(relations)
        # the answers at t depend on the stream up to t only (translator.evaluate.resume)
        return (rel for rel in relations if rel.t > resume)

    return Evaluations(query, compiled, produce, notes, data=data, count=request.counter(data),
                       accounting=request.accounting)


def _run_events(query: Any, request: _Request, notes: Notes) -> Evaluations:
    """An EP-SPARQL run (``rsplars run`` on event patterns, docs/epsparql.md): the streams are one
    event stream, the query is pushed, each complex event reported once with its interval
    (:func:`translator.evaluate.epsparql_run.event_answers`, or ``policy_answers`` under a
    selection or consumption policy)."""
    from translator.evaluate.epsparql_run import event_answers, policy_answers
    from translator.translate.epsparql import compile_epsparql, compile_policy_operands
    from translator.translate.normalize import TimeBase

    options, events, start, end = request.options, request.events, request.start, request.end
    if options.as_variant or options.strategy:
        raise RsplarsError("as_variant and strategy do not apply to EP-SPARQL queries (event patterns, pushed)")
    if options.mode not in (None, "push"):
        raise RsplarsError("EP-SPARQL queries are push-evaluated (on every event): mode pull/none does not apply")
    if request.profile is not None:
        raise RsplarsError("engine profiles need windows; EP-SPARQL has none (Dell'Aglio et al. 2013, §7): use "
                           "EventOptions(selection=…, consumption=…)")
    if request.r2s not in (None, "rstream"):
        raise RsplarsError("r2s does not apply to EP-SPARQL: each complex event is reported once, when detected")
    base = TimeBase(options.unit)
    compiled: Any = compile_policy_operands(query, base=base) if events.restricted else compile_epsparql(query, base=base)
    notes.extend(f"warning: {w}" for w in compiled.warnings)
    data = request.read(static=False)
    if request.static is not None or request.named:
        notes.append("note: EP-SPARQL patterns match events only; static data is not read")
    resume = request.resume_after

    def produce() -> Iterator[Any]:
        if events.restricted:
            found = policy_answers(compiled, data.elements, selection=events.selection,
                                   consumption=events.consumption, reading=events.policy_reading, start=start,
                                   end=end, engine=request.lars_engine)
        else:
            found = event_answers(compiled, data.elements, start=start, end=end, on_progress=request.on_progress,
                                  engine=request.lars_engine)
        return iter(found) if resume is None else (ev for ev in found if ev.t > resume)

    return Evaluations(query, compiled, produce, notes, events=True, data=data, count=request.counter(data),
                       accounting=request.accounting)


def _run_rsepql(query: Any, request: _Request, notes: Notes) -> Evaluations:
    """An RSEP-QL run (``rsplars run`` on ``MATCH``, docs/epsparql.md "RSEP-QL"): the LARS program of
    the basic event patterns on their windows, ``MATCH`` evaluated at every evaluation time
    (``events.at``, else every time point with a stream item), the full answer ``[[MATCH E]]^t``
    with every event mapping's interval (:func:`translator.evaluate.rsepql_run.rsepql_answers`)."""
    from translator.evaluate.epsparql_run import event_times
    from translator.evaluate.rsepql_run import rsepql_answers
    from translator.translate.normalize import TimeBase
    from translator.translate.rsepql import compile_rsepql

    options, events, start, end = request.options, request.events, request.start, request.end
    if options.as_variant or options.strategy:
        raise RsplarsError("as_variant and strategy do not apply to RSEP-QL queries (docs/epsparql.md)")
    if options.mode not in (None, "push"):
        raise RsplarsError("RSEP-QL queries are evaluated at the times of events.at or on every item: mode does "
                           "not apply")
    if request.profile is not None:
        raise RsplarsError("engine profiles do not apply to RSEP-QL: give its evaluation times with "
                           "EventOptions(at=…) (docs/epsparql.md)")
    if request.r2s not in (None, "rstream"):
        raise RsplarsError("r2s does not apply to RSEP-QL: the answer at t is [[MATCH E]]^t (Dell'Aglio et al. "
                           "2016, Eq. 8)")
    compiled = compile_rsepql(query, base=TimeBase(options.unit))
    data = request.read(static=False)
    if request.static is not None or request.named:
        notes.append("note: RSEP-QL event patterns match stream items only; static data is not read")
    if events.at is not None:
        times = [t for t in sorted(set(events.at)) if (start is None or t >= start) and (end is None or t <= end)]
    else:
        times = event_times(data.elements, start, end)
    if request.resume_after is not None:
        times = [t for t in times if t > request.resume_after]

    def produce() -> Iterator[Any]:
        return iter(rsepql_answers(compiled, data.elements, selection=events.selection,
                                   consumption=events.consumption, reading=events.policy_reading, times=times,
                                   engine=request.lars_engine))

    return Evaluations(query, compiled, produce, notes, events=True, data=data, count=request.counter(data),
                       accounting=request.accounting)


class GraphNotGiven(RsplarsError):
    """A graph of a plain SPARQL query's ``FROM <g>`` / ``FROM NAMED <g>`` (``keyword``) with an
    IRI rsplars does not read (no ``file:`` IRI, and no ``named`` file for it): rsplars reads no
    data from the web."""

    def __init__(self, message: str, iri: str, keyword: str) -> None:
        super().__init__(message)
        self.iri = iri
        self.keyword = keyword


def _run_plain(query: Query, request: _Request, notes: Notes) -> Evaluations:
    """A query without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2): solved
    once over the static data (``rsplars run QUERY --static FILE`` without ``--stream``,
    :func:`translator.evaluate.plain_sparql.evaluate_once`), ``NOW()`` the query time (SPARQL 1.1
    §17.4.5.1). A query read from a file resolves relative IRIs against the file's ``file:`` IRI;
    without ``static``, ``FROM <g>`` and ``FROM NAMED <g>`` name the graphs (the ``named`` file of
    that IRI, else the file a ``file:`` IRI names; docs/translation.md)."""
    from translator.evaluate.plain_sparql import evaluate_once
    from translator.query.model import IRI, stream_graph_patterns
    from translator.translate.now import bind_query_time

    options, static, named = request.options, request.static, request.named
    if query.dialect in ("epsparql", "rsepql"):
        raise RsplarsError(f"the query was read as {query.dialect.upper()}, which reads an event stream: give it "
                           "streams; a plain SPARQL query writes every IRI as <…> or prefix:name")
    streams = sorted({f"<{p.stream.value}>" if isinstance(p.stream, IRI) else f"?{p.stream.name}"
                      for p in stream_graph_patterns(query)})
    if streams:
        raise RsplarsError(f"the query reads the streams {', '.join(streams)}: give them with streams={{IRI: data}} "
                           "(without streams, a query without streams is evaluated once, as plain SPARQL)")
    given = [name for name, value in (("start", request.start), ("end", request.end), ("period", options.period),
                                      ("as_variant", options.as_variant), ("profile", request.profile),
                                      ("static_during", tuple(request.static_during) or None),
                                      ("resume_after", request.resume_after))
             if value is not None] + (["r2s"] if request.r2s not in (None, "rstream") else []) + \
        ([f"mode {options.mode}"] if options.mode not in (None, "none") else [])
    if given:
        raise RsplarsError(f"{given[0]} needs streams: without streams the query is evaluated once, as plain SPARQL")
    src = source_of(query)
    if src.source not in ("<input>", "<query>", "<stdin>") and query.prologue.base is None:  # relative to the file
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
    ((_, compiled),) = compile_variants(bind_query_time(query), replace(options, mode="none"), (), notes)

    def produce() -> Iterator[Any]:
        yield evaluate_once(compiled, data.facts, engine=request.lars_engine,
                            on_note=lambda text: notes.append(f"note: {text}"))

    return Evaluations(query, compiled, produce, notes, plain=True, data=data, accounting=request.accounting)


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
    raise GraphNotGiven(f"{keyword} <{iri}>: rsplars reads no data from the web; give {give}", iri, keyword)


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
