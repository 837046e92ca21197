"""Real engines, run live (docs/engines.md): :func:`run_engine` starts an engine (RSP-JS, any
command line, or ``rsplars`` under a profile) on a query and its streams and returns its output as a
recorded output that :func:`rsplars.check` and :func:`rsplars.infer` judge; :func:`hunt` searches
random RSP-QL queries and streams for outputs that no setting of the engine's profile explains
(Dell'Aglio et al. 2014, Def. 25) and shrinks each to a minimal case — what ``rsplars check
--live-engine`` and ``rsplars hunt`` do.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from lars.errors import RsplarsError

from rsplars.data import StaticInput, StreamInput, read_data
from rsplars.queries import QueryInput, as_query, source_of

__all__ = ["ENGINES", "EngineRun", "HuntResult", "hunt", "run_engine"]

#: the live engines :func:`run_engine` starts: ``rsp-js`` (the bundled RSP-JS runner, ``make rsp-js``),
#: ``command`` (``command="PROGRAM ARGS…"`` with ``{query}``, ``{stream}``, … placeholders) and
#: ``rsplars`` or ``rsplars:PROFILE`` (``rsplars run`` in a subprocess, the reference side)
ENGINES = ("rsp-js", "command", "rsplars[:PROFILE]")


@dataclass(frozen=True)
class EngineRun:
    """One live run: ``engine``; ``answers``, the file of its output; ``format`` and ``time_unit``
    of that file; ``until``: the engine's clock in the run's base unit (it can have reported up to
    that time; ``None``: to the end of the data); ``seconds``: the run's wall-clock time; ``log``:
    what it printed, if kept."""

    engine: str
    answers: Path
    format: str
    time_unit: str
    until: int | None
    seconds: float
    log: Path | None = None

    @property
    def check_options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`rsplars.check` and :func:`rsplars.infer` that read this
        output: its format and time unit, and ``end`` at the engine's clock (as ``rsplars check
        --live-engine`` judges it)."""
        return {"answers_format": self.format, "answers_time_unit": self.time_unit, "end": self.until}


def run_engine(engine: str, query: QueryInput, streams: Mapping[str, StreamInput], static: StaticInput = None, *,
               unit: str = "s", workdir: str | os.PathLike[str] | None = None, command: str | None = None,
               output_format: str = "auto", engine_time_unit: str | None = None,
               timeout: float | None = None) -> EngineRun:
    """Run the live ``engine`` (one of :data:`ENGINES`) on ``query`` over ``streams`` and
    ``static`` (as for :func:`rsplars.run`: files, ``(triple, time)`` iterables or DataFrames,
    integer times in base ``unit``). The streams are written for the engine as timestamped
    N-Triples in its time unit, with the query and its output, in ``workdir`` (default: a new
    temporary folder, left for the caller: the output is read from there). ``command``,
    ``output_format`` and ``engine_time_unit`` describe a ``command`` engine; ``timeout``: seconds
    before the engine is stopped. An engine that cannot start or fails raises
    :class:`rsplars.RsplarsError` with what it said.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }'''
    >>> data = {"http://example.org/s": [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]}
    >>> live = rsplars.run_engine("rsplars:cqels", q, data)
    >>> rsplars.check(q, live.answers, data, profile="cqels", **live.check_options).correct
    True
    """
    from translator.agreement.answers import FORMATS
    from translator.engines import engine_named
    from translator.engines.inputs import convert_time, prepare_input

    if output_format not in ("auto", *FORMATS):
        raise RsplarsError(f"output_format {output_format!r}: expected auto, {', '.join(FORMATS)}")
    if timeout is not None and timeout <= 0:
        raise RsplarsError(f"timeout {timeout}: expected a positive number of seconds")
    parsed = as_query(query)
    runner = engine_named(engine, base_unit=unit, command=command, output_format=output_format,
                          time_unit=engine_time_unit)
    if timeout is not None and hasattr(runner, "timeout"):
        runner.timeout = timeout
    data = read_data(streams, static, unit=unit)
    folder = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="rsplars-live-"))
    folder.mkdir(parents=True, exist_ok=True)
    query_file = folder / "query.rq"
    query_file.write_text(source_of(parsed).text, encoding="utf-8")
    sources = [(iri, data.stream_files.get(iri, str(folder / f"stream-{k}.nt")))  # prepare_input's file names
               for k, iri in enumerate(data.stream_iris, start=1)]
    given = prepare_input(query_file, sources,
                          data.elements, list(data.static_files), folder.resolve(), base_unit=unit,
                          engine_unit=runner.time_unit)
    out = runner.run(given)
    until = convert_time(out.reported_until, out.time_unit, unit) if out.reported_until is not None else None
    return EngineRun(engine, out.path, out.format, out.time_unit, until, round(out.seconds, 3), out.log)


@dataclass(frozen=True, repr=False)
class HuntResult:
    """What :func:`hunt` found: ``engine``, ``profile``, the number of cases ``probed``, the
    ``seconds`` it took, and ``findings``: for each, its ``kind`` (the first line of the diagnosis,
    numbers and terms left out), the minimal ``query`` and ``stream`` (timestamped N-Triples,
    milliseconds), ``found_after`` (cases probed until then) and the probe's ``files`` (the
    engine's output, the check report)."""

    engine: str
    profile: str
    probed: int
    seconds: float
    findings: tuple[dict[str, Any], ...] = field(default=())

    def __repr__(self) -> str:
        return f"HuntResult({self.engine!r}, profile={self.profile!r}, probed={self.probed}, findings={len(self.findings)})"

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, one row per finding: ``kind``, ``found after (cases)``, ``stream
        elements``, ``patterns`` (triple patterns of the query), ``query``."""
        from rsplars.running import _pandas

        columns = ["kind", "found after (cases)", "stream elements", "patterns", "query"]
        return _pandas().DataFrame([(f["kind"], f["found_after"], len(f["case"]["elements"]), len(f["case"]["patterns"]),
                                     f["query"]) for f in self.findings], columns=columns)

    def write(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write each finding to ``directory/NN-kind/`` (``query.rq``, ``stream.nt``, the probe's
        files, ``diagnosis.txt``, ``case.json``, ``README.md`` with the commands that replay it);
        returns the folders."""
        out, folders = Path(directory), []
        for n, finding in enumerate(self.findings, start=1):
            folder = out / f"{n:02d}-{_slug(finding['kind'])}"
            folder.mkdir(parents=True, exist_ok=True)
            files = {"query.rq": finding["query"], "stream.nt": finding["stream"], **finding["files"],
                     "diagnosis.txt": finding["kind"] + "\n", "case.json": json.dumps(finding["case"], indent=1) + "\n"}
            for name, content in files.items():
                (folder / name).write_text(content, encoding="utf-8")
            common = f"{folder}/query.rq --stream {finding['stream_iri']}={folder}/stream.nt --unit ms"
            (folder / "README.md").write_text("\n".join([
                "# A disagreement found by `rsplars.hunt`", "", f"Diagnosis: {finding['kind']}", "", "Reproduce:", "",
                "```sh", f"rsplars check {common} --live-engine {self.engine} --profile {self.profile}",
                f"rsplars run {common} --profile {self.profile}", "```", ""]), encoding="utf-8")
            folders.append(folder)
        return folders


def hunt(engine: str = "rsp-js", *, profile: str | None = None, seconds: float = 60.0, shrink_seconds: float = 60.0,
         max_findings: int = 5, seed: int = 0, command: str | None = None) -> HuntResult:
    """Search random RSP-QL queries and streams (the fragment of :mod:`translator.engines.hunt`:
    one named window, one or two triple patterns, FILTER, projection) on which the live ``engine``
    gives an output that no t0 of ``profile`` explains (default: ``rsp-js`` for RSP-JS, else
    ``rsp-ql``): each case runs the engine (:func:`run_engine`) and judges its output
    (:func:`rsplars.check`); each unexplained output of a new kind is shrunk to a minimal case, for
    at most ``shrink_seconds``. Searches about ``seconds``, stops after ``max_findings``. Needs
    hypothesis (``pip install 'rsplars[test]'``).

    >>> import rsplars
    >>> found = rsplars.hunt("rsplars:rsp-ql", profile="rsp-ql", seconds=3, shrink_seconds=1)
    >>> found.probed > 0, found.findings
    (True, ())
    """
    from translator.evaluate.profiles import PROFILES

    try:
        from translator.engines.hunt import STREAM
        from translator.engines.hunt import hunt as search
    except ImportError as error:
        raise RsplarsError(f"hunt needs hypothesis (pip install 'rsplars[test]'): {error}") from None
    chosen = profile or ("rsp-js" if engine == "rsp-js" and "rsp-js" in PROFILES else "rsp-ql")
    if chosen not in PROFILES:
        raise RsplarsError(f"profile {chosen!r}: unknown profile (expected one of {', '.join(PROFILES)})")
    if seconds <= 0 or shrink_seconds <= 0:
        raise RsplarsError("seconds and shrink_seconds must be positive")
    work = Path(tempfile.mkdtemp(prefix="rsplars-hunt-"))
    try:
        probe = _CheckProbe(engine, chosen, command, work, STREAM)
        report = search(probe, seconds=seconds, shrink_seconds=shrink_seconds, seed=seed, max_findings=max_findings)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    found = report.as_dict()
    findings = tuple({**summary, "query": f.case.query_text(), "stream": f.case.stream_text(), "stream_iri": STREAM,
                      "files": dict(f.verdict.files)} for summary, f in zip(found["findings"], report.findings))
    return HuntResult(engine, chosen, report.probed, round(report.seconds, 1), findings)


class _CheckProbe:
    """One case judged as ``rsplars check QUERY --stream … --live-engine E --profile P`` judges it:
    the verdict's kind is the first line of the check's diagnosis, or the engine's error."""

    def __init__(self, engine: str, profile: str, command: str | None, work: Path, stream: str) -> None:
        self.engine, self.profile, self.command, self.work, self.stream = engine, profile, command, work, stream
        self.count = 0

    def __call__(self, case: Any) -> Any:
        from rsplars.checking import check
        from translator.engines.hunt import Verdict
        from translator.options import TranslationOptions

        self.count += 1
        folder = self.work / f"case-{self.count}"
        folder.mkdir()
        try:
            query, stream = folder / "query.rq", folder / "stream.nt"
            query.write_text(case.query_text(), encoding="utf-8")
            stream.write_text(case.stream_text(), encoding="utf-8")
            streams = {self.stream: stream}
            try:
                live = run_engine(self.engine, query, streams, unit="ms", workdir=folder / "live", command=self.command)
                verdict = check(query, live.answers, streams, profile=self.profile,
                                options=TranslationOptions(unit="ms"), **live.check_options)
            except RsplarsError as error:
                return Verdict(False, _failure_kind(str(error)), {"error.txt": str(error) + "\n", **_outputs(folder)})
            if verdict.correct:
                return Verdict(True)
            files = {"check-report.json": json.dumps(verdict.report, indent=1, default=str) + "\n", **_outputs(folder)}
            return Verdict(False, _kind(verdict.report), files)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def _outputs(folder: Path) -> dict[str, str]:
    """What the engine wrote in ``folder/live`` (its output and log)."""
    return {f"engine-{p.name}": p.read_text(encoding="utf-8", errors="replace")
            for p in sorted((folder / "live").glob("*"))
            if p.is_file() and p.suffix in (".jsonl", ".json", ".csv", ".txt", ".log") and p.name != "query.rq"}


def _kind(report: Mapping[str, Any]) -> str:
    """The first diagnosis of a check report, its numbers and terms left out (one cause, one kind)."""
    diagnosis = (report.get("mismatch") or {}).get("diagnosis") or ["no diagnosis"]
    return _normal(diagnosis[0] if isinstance(diagnosis, list) else str(diagnosis))


def _failure_kind(message: str) -> str:
    """The kind of a failed run: its message's last line and, for a parse error, the token the parser got."""
    last = (message.strip().splitlines() or ["no message"])[-1]
    got = re.search(r"got '([^']*)'", last)
    return "failed: " + _normal(last) + (f", the parser got {got.group(1)}" if got else "")


def _normal(text: str) -> str:
    """A message up to its first colon, its terms and numbers left out."""
    text = re.sub(r"<[^>]*>|\"[^\"]*\"|-?\d+", "…", text)
    return re.sub(r"\s+", " ", re.split(r"[:;]", text, maxsplit=1)[0]).strip()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "finding"
