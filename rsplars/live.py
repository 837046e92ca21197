"""Real engines run live on a query and its streams (:mod:`translator.engines`, docs/engines.md):
:func:`run_live` runs one or more engines and gives each one's output as a recorded output, to judge
with :func:`rsplars.check` or :func:`rsplars.infer` (``rsplars check … --live-engine NAME``) or to
compare with :func:`rsplars.agree_recorded` (``rsplars agree … --live-engine A --live-engine B``);
:func:`run_engine` runs one engine in one call, its files kept in a folder. An output is judged as a
recorded one (Dell'Aglio et al. 2014, Defs. 25–26) up to the engine's clock (:func:`judged_end`)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, Union

from lars.errors import RsplarsError

from rsplars.data import StaticInput, StreamInput, read_data
from rsplars.queries import QueryInput, as_query, source_of
from rsplars.recorded import RecordedAnswers

__all__ = ["LiveEngine", "LiveRun", "judged_end", "run_engine", "run_live"]


@dataclass(frozen=True)
class LiveEngine:
    """An engine to run: ``name`` is ``rsp-js`` (the bundled RSP-JS runner, ``make rsp-js``),
    ``command`` (``command``: its command line, with ``{query}``, ``{stream}``, … placeholders,
    docs/engines.md; its output read as ``output_format`` with timestamps in ``time_unit``, default
    the base unit) or ``rsplars[:PROFILE]`` (``rsplars run`` in a subprocess, the reference side);
    ``timeout``: seconds before the run is stopped (default the engine's).

    >>> LiveEngine("rsplars:csparql").output_format
    'auto'
    """

    name: str
    command: str | None = None
    output_format: str = "auto"
    time_unit: str | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class LiveRun:
    """One engine's run: ``engine`` (its name as given), ``answers`` (its output, in its format and
    time unit), ``reported_until`` (its clock in ``answers.time_unit``: it can have reported up to
    this instant; ``None``: to the end), ``seconds`` (wall-clock), ``log`` (its log file, if any) and
    ``unit`` (the base unit of the run). The files live as long as :func:`run_live`'s block, or in
    its ``folder``."""

    engine: str
    answers: RecordedAnswers
    reported_until: int | None
    seconds: float
    log: str | None = None
    unit: str = "s"

    @property
    def until(self) -> int | None:
        """The engine's clock in the base ``unit`` (``None``: it reported to the end of the data):
        the judged range ends there (:func:`judged_end` of this run alone)."""
        return judged_end([self], self.unit)

    @property
    def check_options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`rsplars.check` and :func:`rsplars.infer` that read this
        output as ``rsplars check --live-engine`` reads it: its format and time unit, and ``end`` at
        the engine's clock: ``rsplars.check(query, run.answers.path, …, **run.check_options)``."""
        return {"answers_format": self.answers.format, "answers_time_unit": self.answers.time_unit,
                "end": self.until}


@contextlib.contextmanager
def run_live(query: QueryInput, streams: Mapping[str, StreamInput], static: StaticInput = None, *,
             engines: Sequence[LiveEngine], unit: str = "s", stream_time_unit: str | None = None,
             epoch: str | None = None, folder: Union[str, "os.PathLike[str]", None] = None,
             skip_bad_elements: bool = False,
             on_run: Callable[[LiveRun], None] | None = None) -> Iterator[list[LiveRun]]:
    """Run every engine in order on ``query`` (a query file, a query text or a parsed query) over
    ``streams`` (IRI → a file, ``(triple, time)`` pairs or a DataFrame, as for :func:`rsplars.run`)
    and ``static``; yields their :class:`LiveRun`. Each engine gets the query as a file and the
    streams as timestamped N-Triples in its own time unit (``unit``: the base unit;
    ``stream_time_unit``, ``epoch``: how the files' timestamps read). ``folder``: where the runs'
    files stay (default a temporary folder, removed after the block); ``skip_bad_elements``: leave
    out malformed or out-of-order stream elements (the judgement that follows reads the data again
    and says what it skipped); ``on_run``: called after each run. An engine that cannot start or
    fails raises :class:`rsplars.RsplarsError` with what it said.

    >>> import rsplars, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
    >>> _ = (folder / "q.rq").write_text(q)
    >>> _ = (folder / "s.nt").write_text('<http://example.org/a> <http://example.org/p> "1" "1" .\\n')
    >>> streams = {"http://example.org/s": folder / "s.nt"}
    >>> with rsplars.run_live(folder / "q.rq", streams, engines=[rsplars.LiveEngine("rsplars:cqels")]) as runs:
    ...     rsplars.check(folder / "q.rq", runs[0].answers.path, streams, profile="cqels",
    ...                   **runs[0].check_options).correct
    True
    """
    from translator.agreement.answers import FORMATS
    from translator.engines import engine_named
    from translator.engines.inputs import prepare_input

    if not engines:
        raise RsplarsError("run_live needs at least one engine")
    for spec in engines:
        if spec.output_format not in ("auto", *FORMATS):
            raise RsplarsError(f"output format {spec.output_format!r} of {spec.name}: expected auto, "
                               f"{', '.join(FORMATS)}")
        if spec.timeout is not None and spec.timeout <= 0:
            raise RsplarsError(f"timeout {spec.timeout} of {spec.name}: expected a positive number of seconds")
    if any(isinstance(path, (str, os.PathLike)) and os.fspath(path) == "-" for path in streams.values()):
        raise RsplarsError("a live engine reads its streams from files (not stdin)")
    running: list[Any] = [engine_named(spec.name, base_unit=unit, command=spec.command,
                                       output_format=spec.output_format, time_unit=spec.time_unit)
                          for spec in engines]
    for spec, engine in zip(engines, running):
        if spec.timeout is not None and hasattr(engine, "timeout"):
            engine.timeout = spec.timeout
    from lars.accounting import Accounting

    data = read_data(streams, static, unit=unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     accounting=Accounting(skip_bad=skip_bad_elements))
    keep = folder is not None
    root = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="rsplars-live-"))
    static_files = list(data.static_files)
    try:
        query_file = _query_file(query, root)
        runs = []
        for k, (spec, engine) in enumerate(zip(engines, running), start=1):
            where = root / (engine.name if len(running) == 1 else f"{k}-{engine.name}")
            sources = [(iri, data.stream_files.get(iri, str(where / f"stream-{n}.nt")))  # as prepare_input names them
                       for n, iri in enumerate(data.stream_iris, start=1)]
            given = prepare_input(query_file, sources, data.elements, static_files, where.resolve(),
                                  base_unit=unit, engine_unit=engine.time_unit)
            out = engine.run(given)
            run = LiveRun(spec.name, RecordedAnswers(str(out.path), out.format, out.time_unit), out.reported_until,
                          out.seconds, str(out.log) if out.log else None, unit)
            if on_run is not None:
                on_run(run)
            runs.append(run)
        yield runs
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def _query_file(query: QueryInput, root: Path) -> str:
    """The file an engine reads the query from: ``query`` itself when it names a file, else its text
    written to ``root/query.rq``."""
    if isinstance(query, os.PathLike) or (isinstance(query, str) and "{" not in query):
        return os.fspath(query)
    root.mkdir(parents=True, exist_ok=True)
    path = root / "query.rq"
    path.write_text(source_of(as_query(query)).text, encoding="utf-8")
    return str(path)


def run_engine(engine: str | LiveEngine, query: QueryInput, streams: Mapping[str, StreamInput],
               static: StaticInput = None, *, folder: Union[str, "os.PathLike[str]"], unit: str = "s",
               stream_time_unit: str | None = None, epoch: str | None = None) -> LiveRun:
    """One live run in one call (:func:`run_live` with one engine): ``engine`` (a name such as
    ``"rsp-js"`` or ``"rsplars:cqels"``, or a :class:`LiveEngine`) on ``query`` over ``streams`` and
    ``static``; the engine's query, streams, output and log stay in ``folder``. Returns its
    :class:`LiveRun`, whose ``check_options`` judge it.

    >>> import rsplars, tempfile
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }'''
    >>> data = {"http://example.org/s": [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]}
    >>> live = rsplars.run_engine("rsplars:cqels", q, data, folder=tempfile.mkdtemp())
    >>> rsplars.check(q, live.answers.path, data, profile="cqels", **live.check_options).correct
    True
    """
    spec = engine if isinstance(engine, LiveEngine) else LiveEngine(engine)
    with run_live(query, streams, static, engines=[spec], unit=unit, stream_time_unit=stream_time_unit,
                  epoch=epoch, folder=folder) as runs:
        (run,) = runs
    return run


def judged_end(runs: Sequence[LiveRun], unit: str) -> int | None:
    """The earliest engine clock among ``runs`` in the base ``unit`` (``None``: every engine reported
    to the end): the judged range ends there (RSP-JS reports a window only when a later element
    arrives)."""
    from translator.engines.inputs import convert_time

    clocks = [convert_time(r.reported_until, r.answers.time_unit or unit, unit) for r in runs
              if r.reported_until is not None]
    return min(clocks) if clocks else None
