"""Real engines run live on a query and its streams (:mod:`translator.engines`, docs/engines.md):
:func:`run_live` gives each engine's output as a recorded output, to judge with :func:`rsplars.check`
or to compare with :func:`rsplars.agree_recorded` (``rsplars check … --live-engine NAME``,
``rsplars agree … --live-engine A --live-engine B``)."""

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

from rsplars.data import StaticInput, read_data
from rsplars.recorded import RecordedAnswers

__all__ = ["LiveEngine", "LiveRun", "judged_end", "run_live"]


@dataclass(frozen=True)
class LiveEngine:
    """An engine to run: ``name`` is ``rsp-js``, ``command`` (``command``: its command line, with
    ``{query}``, ``{stream}``, …; its output read as ``output_format`` with timestamps in
    ``time_unit``, default the base unit) or ``rsplars[:PROFILE]``; ``timeout``: seconds before the
    run is stopped (default the engine's).

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
    this instant; ``None``: to the end), ``seconds`` (wall-clock) and ``log`` (its log file, if any).
    The files live as long as :func:`run_live`'s block, or in ``folder``."""

    engine: str
    answers: RecordedAnswers
    reported_until: int | None
    seconds: float
    log: str | None = None


@contextlib.contextmanager
def run_live(query: Union[str, "os.PathLike[str]"], streams: Mapping[str, Union[str, "os.PathLike[str]"]],
             static: StaticInput = None, *, engines: Sequence[LiveEngine], unit: str = "s",
             stream_time_unit: str | None = None, epoch: str | None = None,
             folder: Union[str, "os.PathLike[str]", None] = None, skip_bad_elements: bool = False,
             on_run: Callable[[LiveRun], None] | None = None) -> Iterator[list[LiveRun]]:
    """Run every engine in order on the query file ``query`` over the stream files ``streams`` (IRI →
    file) and ``static``; yields their :class:`LiveRun`. Each engine gets the streams in its own time
    unit (``unit``: the base unit; ``stream_time_unit``, ``epoch``: how the files' timestamps read).
    ``folder``: where the runs' files stay (default a temporary folder, removed after the block);
    ``skip_bad_elements``: leave out malformed or out-of-order stream elements (the judgement that
    follows reads the data again and says what it skipped); ``on_run``: called after each run.

    >>> import rsplars, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
    >>> _ = (folder / "q.rq").write_text(q)
    >>> _ = (folder / "s.nt").write_text('<http://example.org/a> <http://example.org/p> "1" "1" .\\n')
    >>> streams = {"http://example.org/s": folder / "s.nt"}
    >>> with rsplars.run_live(folder / "q.rq", streams, engines=[rsplars.LiveEngine("rsplars:cqels")]) as runs:
    ...     rsplars.check(folder / "q.rq", runs[0].answers.path, streams, profile="cqels",
    ...                   answers_format=runs[0].answers.format, answers_time_unit=runs[0].answers.time_unit).correct
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
    if any(os.fspath(path) == "-" for path in streams.values()):
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
    pairs = [(str(iri).strip("<>"), os.fspath(path)) for iri, path in streams.items()]
    try:
        runs = []
        for k, (spec, engine) in enumerate(zip(engines, running), start=1):
            where = root / (engine.name if len(running) == 1 else f"{k}-{engine.name}")
            given = prepare_input(os.fspath(query), pairs, data.elements, static_files, where.resolve(),
                                  base_unit=unit, engine_unit=engine.time_unit)
            out = engine.run(given)
            run = LiveRun(spec.name, RecordedAnswers(str(out.path), out.format, out.time_unit), out.reported_until,
                          out.seconds, str(out.log) if out.log else None)
            if on_run is not None:
                on_run(run)
            runs.append(run)
        yield runs
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def judged_end(runs: Sequence[LiveRun], unit: str) -> int | None:
    """The earliest engine clock among ``runs`` in the base ``unit`` (``None``: every engine reported
    to the end): the judged range ends there (RSP-JS reports a window only when a later element
    arrives)."""
    from translator.engines.inputs import convert_time

    clocks = [convert_time(r.reported_until, r.answers.time_unit or unit, unit) for r in runs
              if r.reported_until is not None]
    return min(clocks) if clocks else None
