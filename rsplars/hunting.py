"""Hunting for disagreements between a live engine and the query's expected outputs under its
profile: :func:`hunt` → :class:`HuntResult`, as ``rsplars hunt`` (:mod:`translator.engines.hunt`,
docs/engines.md "Hunting"). Each random case (an RSP-QL query and a stream) is run on the engine
(:func:`rsplars.run_live`) and judged by :func:`rsplars.check` (its output is correct when some t0
of the profile gives it, Dell'Aglio et al. 2014, Def. 25); each output that no setting explains is
shrunk to a minimal case (delta debugging, Zeller and Hildebrandt 2002)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from lars.errors import RsplarsError, SourceError

from rsplars.live import LiveEngine
from translator.options import ProfileOptions, TranslationOptions

__all__ = ["CheckProbe", "HuntFinding", "HuntResult", "default_profile", "finding_kind", "hunt"]

@dataclass(frozen=True)
class HuntFinding:
    """One minimal case whose output the profile does not explain: ``kind`` (the first line of the
    diagnosis, numbers and terms left out, or the engine's failure), the ``query`` and the
    ``stream`` (timestamped N-Triples, milliseconds, on the stream ``stream_iri``), ``found_after``
    (cases probed until then, its shrinking included), ``case`` (its parts: window, patterns,
    filter, elements) and ``files`` (file name → content: the engine's output and log, the check's
    output and report, rsplars' expected output ``expected.jsonl``)."""

    kind: str
    query: str
    stream: str
    stream_iri: str
    found_after: int
    case: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, repr=False)
class HuntResult:
    """What :func:`hunt` found: ``engine`` and ``profile``, the number of cases ``probed``, the
    ``seconds`` it took and its ``findings`` (:class:`HuntFinding`, in the order found)."""

    engine: str
    profile: str
    probed: int
    seconds: float
    findings: tuple[HuntFinding, ...] = ()

    def __repr__(self) -> str:
        return (f"HuntResult({self.engine!r}, profile={self.profile!r}, probed={self.probed}, "
                f"findings={len(self.findings)})")

    def to_dict(self) -> dict[str, Any]:
        """The JSON report of ``rsplars hunt --json``: engine, profile, cases probed, seconds and,
        per finding, its kind, its case and when it was found."""
        return {"engine": self.engine, "profile": self.profile, "probed": self.probed,
                "seconds": round(self.seconds, 1),
                "findings": [{"kind": f.kind, "case": f.case, "found_after": f.found_after} for f in self.findings]}

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, one row per finding: ``kind``, ``found after (cases)``, ``stream
        elements``, ``patterns`` (triple patterns of the query) and ``query``."""
        from rsplars.running import _pandas

        columns = ["kind", "found after (cases)", "stream elements", "patterns", "query"]
        return _pandas().DataFrame([(f.kind, f.found_after, len(f.case["elements"]), len(f.case["patterns"]), f.query)
                                    for f in self.findings], columns=columns)

    def write(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write each finding to ``directory/NN-kind/`` as ``rsplars hunt --out`` does: ``query.rq``,
        ``stream.nt``, its files, ``diagnosis.txt``, ``case.json`` and a ``README.md`` with the
        commands that replay it. Returns the folders, in the order of the findings."""
        folders = []
        for n, finding in enumerate(self.findings, start=1):
            folder = Path(directory) / f"{n:02d}-{_slug(finding.kind)}"
            folder.mkdir(parents=True, exist_ok=True)
            files = {"query.rq": finding.query, "stream.nt": finding.stream, **finding.files,
                     "diagnosis.txt": finding.kind + "\n", "case.json": json.dumps(finding.case, indent=1) + "\n"}
            for name, content in files.items():
                (folder / name).write_text(content, encoding="utf-8")
            lines = ["# A disagreement found by `rsplars hunt`", "", f"Diagnosis: {finding.kind}", "",
                     "Reproduce:", "", "```sh", *self.replay_commands(folder, finding), "```", ""]
            (folder / "README.md").write_text("\n".join(lines), encoding="utf-8")
            folders.append(folder)
        return folders

    def replay_commands(self, folder: Path, finding: HuntFinding) -> list[str]:
        """The commands that replay ``finding`` written to ``folder``: the engine judged on it
        (``rsplars check --live-engine``), and rsplars' expected output (``rsplars run``)."""
        common = f"{folder}/query.rq --stream {finding.stream_iri}={folder}/stream.nt --unit ms"
        return [f"rsplars check {common} --live-engine {self.engine} --profile {self.profile}",
                f"rsplars run {common} --profile {self.profile}"]


def default_profile(engine: str) -> str:
    """The profile an engine is hunted under by default: ``rsp-js`` for RSP-JS, else ``rsp-ql``."""
    from translator.evaluate.profiles import PROFILES

    return "rsp-js" if engine == "rsp-js" and "rsp-js" in PROFILES else "rsp-ql"


def hunt(engine: str | LiveEngine = "rsp-js", *, profile: str | None = None, seconds: float = 60.0,
         shrink_seconds: float = 60.0, seed: int = 0, max_findings: int = 5,
         on_case: Callable[[int], None] | None = None) -> HuntResult:
    """Search random RSP-QL queries and streams (the fragment of :mod:`translator.engines.hunt`: one
    named window, one or two triple patterns, FILTER, projection) on which the live ``engine`` (a
    name such as ``"rsp-js"`` or a :class:`rsplars.LiveEngine`) gives an output that no t0 of
    ``profile`` explains (default :func:`default_profile`). Searches about ``seconds`` and stops
    after ``max_findings``; each finding is shrunk for at most ``shrink_seconds`` more and carries
    its material (the engine's output, the check report, rsplars' expected output as
    ``expected.jsonl``). ``on_case``: called with the number of cases probed so far. Needs
    hypothesis (``pip install 'rsplars[test]'``).

    >>> import rsplars
    >>> found = rsplars.hunt("rsplars:rsp-ql", profile="rsp-ql", seconds=1)
    >>> found.probed > 0, found.findings
    (True, ())
    """
    from translator.evaluate.profiles import PROFILES

    try:
        from translator.engines.hunt import STREAM
        from translator.engines.hunt import hunt as search
    except ImportError as error:
        raise RsplarsError(f"hunt needs hypothesis (pip install 'rsplars[test]'): {error}") from None
    spec = engine if isinstance(engine, LiveEngine) else LiveEngine(engine)
    chosen = profile if profile is not None else default_profile(spec.name)
    if chosen not in PROFILES:
        raise RsplarsError(f"profile {chosen!r}: unknown profile (expected one of {', '.join(PROFILES)})")
    if seconds <= 0 or shrink_seconds <= 0:
        raise RsplarsError("seconds and shrink_seconds must be positive")
    work = Path(tempfile.mkdtemp(prefix="rsplars-hunt-"))
    try:
        probe = CheckProbe(spec, chosen, work)
        report = search(probe, seconds=seconds, shrink_seconds=shrink_seconds, seed=seed, max_findings=max_findings,
                        on_case=on_case)
        findings = []
        for found in report.findings:
            files = dict(found.verdict.files)
            expected = probe.expected(found.case)
            if expected is not None:
                files["expected.jsonl"] = expected
            findings.append(HuntFinding(found.kind, found.case.query_text(), found.case.stream_text(), STREAM,
                                        found.found_after, asdict(found.case), files))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return HuntResult(spec.name, chosen, report.probed, report.seconds, tuple(findings))


class CheckProbe:
    """One case judged as ``rsplars check … --live-engine NAME --profile P`` judges it; the verdict's
    kind is the first line of its diagnosis (or the engine's error, :func:`finding_kind`)."""

    def __init__(self, engine: LiveEngine, profile: str, work: Path) -> None:
        self.engine, self.profile, self.work = engine, profile, work
        self.count = 0

    def __call__(self, case: Any) -> Any:
        import rsplars
        from translator.agreement.check_text import render_summary
        from translator.engines.hunt import STREAM, Verdict

        self.count += 1
        folder = self.work / f"case-{self.count}"
        folder.mkdir()
        query, stream = folder / "query.rq", folder / "stream.nt"
        query.write_text(case.query_text(), encoding="utf-8")
        stream.write_text(case.stream_text(), encoding="utf-8")
        live, streams = folder / "live", {STREAM: stream}
        said: list[str] = []
        result = None
        try:
            parsed = rsplars.parse(query)
            with rsplars.run_live(query, streams, engines=[self.engine], unit="ms", folder=live) as runs:
                (run,) = runs
                result = rsplars.check(parsed, run.answers.path, streams, profile=self.profile_of(parsed),
                                       options=TranslationOptions(unit="ms"), **run.check_options,
                                       on_note=lambda note: said.append(f"rsplars: {note}"))
                said.append(render_summary(result.report))
        except RsplarsError as error:
            said.append(str(error) if isinstance(error, SourceError) else f"rsplars: {error}")
        if result is not None and result.correct:
            shutil.rmtree(folder, ignore_errors=True)
            return Verdict(True)
        files = {"check-output.txt": "\n".join(said) + "\n"}
        for produced in sorted(live.rglob("*")):
            if produced.is_file() and produced.suffix in (".jsonl", ".json", ".csv", ".txt", ".log"):
                files[f"engine-{produced.name}"] = produced.read_text(encoding="utf-8", errors="replace")
        if result is not None:
            files["check-report.json"] = json.dumps(result.report, indent=2, ensure_ascii=False) + "\n"
        kind = finding_kind(result.report if result is not None else None, files["check-output.txt"])
        shutil.rmtree(folder, ignore_errors=True)
        return Verdict(False, kind, files)

    def profile_of(self, query: Any) -> ProfileOptions:
        """The profile, with the R2S operator an RSP-QL query's registration names (``REGISTER ISTREAM
        …``; as ``rsplars check`` and ``rsplars run`` take it)."""
        from dataclasses import replace

        from translator.evaluate.profiles import dialect_defaults

        side = ProfileOptions(self.profile)
        registration = getattr(query, "registration", None)
        if query.dialect != "rspql" or registration is None:
            return side
        _, r2s = dialect_defaults(query.dialect, registration.kind)
        return replace(side, r2s=r2s) if r2s is not None else side

    def expected(self, case: Any) -> str | None:
        """rsplars' output of the case under the profile (as ``rsplars run --profile P``), JSON lines."""
        import rsplars
        from translator.engines.hunt import STREAM

        folder = self.work / "expected"
        folder.mkdir(exist_ok=True)
        query, stream = folder / "query.rq", folder / "stream.nt"
        query.write_text(case.query_text(), encoding="utf-8")
        stream.write_text(case.stream_text(), encoding="utf-8")
        try:
            parsed = rsplars.parse(query)
            result = rsplars.run(parsed, {STREAM: stream}, options=TranslationOptions(unit="ms"),
                                 profile=self.profile_of(parsed))
        except RsplarsError:
            return None
        return result.write("jsonl")


def finding_kind(report: dict[str, Any] | None, said: str = "") -> str:
    """The kind of a finding: the first diagnosis of a check ``report`` with its numbers and terms
    left out (so that one cause is one kind whatever the data); without a report (the run failed),
    the last message ``said``'s first part and, for a parse error, the token the parser got (so that
    two causes of failure are two findings)."""
    if report is not None:
        diagnosis = (report.get("mismatch") or {}).get("diagnosis") or ["no diagnosis"]
        first = diagnosis[0] if isinstance(diagnosis, list) else str(diagnosis)
        return _normal(first)
    last = (said.strip().splitlines() or ["no message"])[-1].removeprefix("rsplars: ")
    got = re.search(r"got '([^']*)'", last)
    return "failed: " + _normal(last) + (f", the parser got {got.group(1)}" if got else "")


def _normal(text: str) -> str:
    """A message up to its first colon, its terms and numbers left out."""
    text = re.sub(r"<[^>]*>|\"[^\"]*\"|-?\d+", "…", text)
    return re.sub(r"\s+", " ", re.split(r"[:;]", text, maxsplit=1)[0]).strip()


def _slug(text: str) -> str:
    """A folder name for a finding's kind."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "finding"
