"""``rsplars hunt --live-engine rsp-js --seconds 60 --out DIR``: hunt for disagreements between a live
engine and the query's expected outputs (:mod:`translator.engines.hunt`, docs/engines.md "Hunting").

Each random case (an RSP-QL query and a stream) is judged as ``rsplars check QUERY --stream … --live-engine
NAME --profile P`` judges it: the engine runs, and its output is correct when some t0 of the profile gives
it (Dell'Aglio et al. 2014, Def. 25). Each output that no setting explains is shrunk to a minimal case
and written to ``DIR/<n>-<kind>/`` (query, stream, the engine's output, rsplars' expected output under
the profile, the check report, the diagnosis, the commands that replay it). Exit 0 when nothing was
found, 1 when something was, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from lars.errors import EXIT_FAILURE, EXIT_OK, RsplarsError, SourceError

HELP = "search random RSP-QL queries and streams on which a live engine disagrees with its profile"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("hunt", help=HELP, description=HELP + " (exit 0 nothing found, 1 findings, 2 bad input)",
                              usage="rsplars hunt --live-engine NAME [--profile P] [--seconds S] [--out DIR]")
    p.add_argument("--live-engine", default="rsp-js", metavar="NAME",
                   help="the engine to hunt on (as check --live-engine; default rsp-js)")
    p.add_argument("--engine-command", metavar="'PROGRAM ARGS…'", help="--live-engine command: its command line")
    p.add_argument("--profile", metavar="NAME",
                   help="the engine's profile (default: rsp-js for rsp-js, else rsp-ql; `rsplars profiles`)")
    p.add_argument("--seconds", type=float, default=60.0, metavar="S",
                   help="time for the search (default 60; each shrink has --shrink-seconds more)")
    p.add_argument("--shrink-seconds", type=float, default=60.0, metavar="S",
                   help="time to shrink each finding (default 60)")
    p.add_argument("--max-findings", type=int, default=5, metavar="N", help="stop after N findings (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random search (default 0)")
    p.add_argument("--out", metavar="DIR", help="write the findings there (default: only report them)")
    p.add_argument("--json", metavar="REPORT.json", help="write the hunt's report")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.engines.hunt import hunt, write_case
    from translator.evaluate.profiles import PROFILES

    profile = args.profile or ("rsp-js" if args.live_engine == "rsp-js" and "rsp-js" in PROFILES else "rsp-ql")
    if profile not in PROFILES:
        raise RsplarsError(f"--profile {profile!r}: unknown profile (expected one of {', '.join(PROFILES)})")
    if args.seconds <= 0 or args.shrink_seconds <= 0:
        raise RsplarsError("--seconds and --shrink-seconds must be positive")
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and any(out.iterdir()):
        raise RsplarsError(f"--out {out}: the folder is not empty (the findings would mix with others)")
    work = Path(tempfile.mkdtemp(prefix="rsplars-hunt-"))
    try:
        probe = CheckProbe(args, profile, work)
        progress = sys.stderr.isatty()

        def on_case(n: int) -> None:
            if progress:
                print(f"\rrsplars hunt: {n} cases probed", end="", file=sys.stderr, flush=True)

        report = hunt(probe, seconds=args.seconds, shrink_seconds=args.shrink_seconds, seed=args.seed,
                      max_findings=args.max_findings, on_case=on_case)
        for finding in report.findings:
            expected = probe.expected(finding.case)
            if expected is not None:
                finding.verdict.files["expected.jsonl"] = expected
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if progress:
        print(file=sys.stderr)
    print(f"rsplars hunt: {report.probed} cases probed on {args.live_engine} (profile {profile}) in "
          f"{report.seconds:.0f} s; {len(report.findings)} finding(s)")
    for n, finding in enumerate(report.findings, start=1):
        print(f"  {n}. {finding.kind}")
        print("     " + finding.case.query_text().replace("\n", "\n     ").rstrip())
        print("     stream: " + (finding.case.stream_text().replace("\n", "\n             ").rstrip() or "(empty)"))
        if out is not None:
            folder = out / f"{n:02d}-{_slug(finding.kind)}"
            write_case(finding, folder, lambda f: replay_commands(f, args.live_engine, profile))
            print(f"     written to {folder}")
    if args.json:
        from translator.cli.commands.common import output

        with output(args.json) as fh:
            fh.write(json.dumps({"engine": args.live_engine, "profile": profile, **report.as_dict()}, indent=1) + "\n")
    return EXIT_FAILURE if report.findings else EXIT_OK


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "finding"


def replay_commands(folder: Path, engine: str, profile: str) -> list[str]:
    from translator.engines.hunt import STREAM

    common = f"{folder}/query.rq --stream {STREAM}={folder}/stream.nt --unit ms"
    return [f"rsplars check {common} --live-engine {engine} --profile {profile}",
            f"rsplars run {common} --profile {profile}"]


class CheckProbe:
    """One case judged as ``rsplars check … --live-engine NAME --profile P`` judges it, by the API
    (:func:`rsplars.run_live`, :func:`rsplars.check`); the verdict's kind is the first line of its
    diagnosis (or the engine's error)."""

    def __init__(self, args: argparse.Namespace, profile: str, work: Path) -> None:
        self.engine, self.command, self.profile, self.work = args.live_engine, args.engine_command, profile, work
        self.count = 0

    def __call__(self, case):
        import rsplars
        from translator.cli.commands.check import summary
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
            with rsplars.run_live(query, streams, engines=[rsplars.LiveEngine(self.engine, self.command)], unit="ms",
                                  folder=live) as runs:
                (run,) = runs
                result = rsplars.check(parsed, run.answers.path, streams, profile=self._profile(parsed),
                                       options=rsplars.TranslationOptions(unit="ms"),
                                       answers_format=run.answers.format, answers_time_unit=run.answers.time_unit,
                                       end=rsplars.judged_end(runs, "ms"),
                                       on_note=lambda note: said.append(f"rsplars: {note}"))
                said.append(summary(result.report))
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
            kind = _kind(result.report)
        else:
            kind = _failure_kind(files["check-output.txt"])
        shutil.rmtree(folder, ignore_errors=True)
        return Verdict(False, kind, files)

    def _profile(self, query):
        """The profile, with the R2S operator an RSP-QL query's registration names (as ``rsplars check``
        and ``rsplars run`` take it)."""
        from translator.cli.commands.operational_options import with_registration_r2s
        from translator.options import ProfileOptions

        return with_registration_r2s(query, ProfileOptions(self.profile))

    def expected(self, case) -> str | None:
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
            result = rsplars.run(parsed, {STREAM: stream}, options=rsplars.TranslationOptions(unit="ms"),
                                 profile=self._profile(parsed))
        except RsplarsError:
            return None
        return result.write("jsonl")


def _kind(report: dict) -> str:
    """The first diagnosis of a check report, its numbers and terms left out (so that one cause is one
    kind whatever the data)."""
    diagnosis = (report.get("mismatch") or {}).get("diagnosis") or ["no diagnosis"]
    first = diagnosis[0] if isinstance(diagnosis, list) else str(diagnosis)
    return _normal(first)


def _failure_kind(said: str) -> str:
    """The kind of a failed run: the message's first part and, for a parse error, the token the
    parser got (so that two causes of failure are two findings)."""
    last = (said.strip().splitlines() or ["no message"])[-1].removeprefix("rsplars: ")
    got = re.search(r"got '([^']*)'", last)
    return "failed: " + _normal(last) + (f", the parser got {got.group(1)}" if got else "")


def _normal(text: str) -> str:
    """A message up to its first colon, its terms and numbers left out."""
    text = re.sub(r"<[^>]*>|\"[^\"]*\"|-?\d+", "…", text)
    return re.sub(r"\s+", " ", re.split(r"[:;]", text, maxsplit=1)[0]).strip()
