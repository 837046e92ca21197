"""Hunting for disagreements between a live engine and the query's expected outputs under its
profile: :func:`hunt`, as ``rsplars hunt`` (:mod:`translator.engines.hunt`, docs/engines.md
"Hunting"). Each random case (an RSP-QL query and a stream) is run on the engine
(:func:`rsplars.run_live`) and judged by :func:`rsplars.check` (its output is correct when some t0
of the profile gives it, Dell'Aglio et al. 2014, Def. 25); each output that no setting explains is
shrunk to a minimal case."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from lars.errors import RsplarsError, SourceError

from translator.options import ProfileOptions, TranslationOptions

__all__ = ["CheckProbe", "finding_kind", "hunt"]


def hunt(engine: Any, *, profile: str, seconds: float = 60.0, shrink_seconds: float = 60.0, seed: int = 0,
         max_findings: int = 5, on_case: Callable[[int], None] | None = None) -> Any:
    """Probe random cases on ``engine`` (a :class:`rsplars.LiveEngine`) for about ``seconds``, each
    judged under ``profile``; each finding is shrunk for at most ``shrink_seconds`` more and carries
    its material (the engine's output, the check report, rsplars' expected output as
    ``expected.jsonl``). ``on_case``: called with the number of cases probed so far. Returns the
    :class:`translator.engines.hunt.HuntReport` (``probed``, ``seconds``, ``findings``).

    >>> import rsplars
    >>> report = rsplars.hunt(rsplars.LiveEngine("rsplars:rsp-ql"), profile="rsp-ql", seconds=1)
    >>> report.probed > 0 and report.findings
    []
    """
    from translator.engines.hunt import hunt as search
    from translator.evaluate.profiles import PROFILES

    if profile not in PROFILES:
        raise RsplarsError(f"profile {profile!r}: unknown profile (expected one of {', '.join(PROFILES)})")
    if seconds <= 0 or shrink_seconds <= 0:
        raise RsplarsError("seconds and shrink_seconds must be positive")
    work = Path(tempfile.mkdtemp(prefix="rsplars-hunt-"))
    try:
        probe = CheckProbe(engine, profile, work)
        report = search(probe, seconds=seconds, shrink_seconds=shrink_seconds, seed=seed, max_findings=max_findings,
                        on_case=on_case)
        for finding in report.findings:
            expected = probe.expected(finding.case)
            if expected is not None:
                finding.verdict.files["expected.jsonl"] = expected
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report


class CheckProbe:
    """One case judged as ``rsplars check … --live-engine NAME --profile P`` judges it; the verdict's
    kind is the first line of its diagnosis (or the engine's error, :func:`finding_kind`)."""

    def __init__(self, engine: Any, profile: str, work: Path) -> None:
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
                                       options=TranslationOptions(unit="ms"), answers_format=run.answers.format,
                                       answers_time_unit=run.answers.time_unit, end=rsplars.judged_end(runs, "ms"),
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
