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
import sys
from pathlib import Path

from lars.errors import RsplarsError
from translator.exits import EXIT_FAILURE, EXIT_OK

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
    """The hunt of :func:`rsplars.hunt`, its findings printed and written to ``--out``."""
    import rsplars
    from rsplars.hunting import default_profile
    from translator.evaluate.profiles import PROFILES

    profile = args.profile or default_profile(args.live_engine)
    if profile not in PROFILES:
        raise RsplarsError(f"--profile {profile!r}: unknown profile (expected one of {', '.join(PROFILES)})")
    if args.seconds <= 0 or args.shrink_seconds <= 0:
        raise RsplarsError("--seconds and --shrink-seconds must be positive")
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and any(out.iterdir()):
        raise RsplarsError(f"--out {out}: the folder is not empty (the findings would mix with others)")
    progress = sys.stderr.isatty()

    def on_case(n: int) -> None:
        if progress:
            print(f"\rrsplars hunt: {n} cases probed", end="", file=sys.stderr, flush=True)

    result = rsplars.hunt(rsplars.LiveEngine(args.live_engine, args.engine_command), profile=profile,
                          seconds=args.seconds, shrink_seconds=args.shrink_seconds, seed=args.seed,
                          max_findings=args.max_findings, on_case=on_case)
    if progress:
        print(file=sys.stderr)
    print(f"rsplars hunt: {result.probed} cases probed on {args.live_engine} (profile {profile}) in "
          f"{result.seconds:.0f} s; {len(result.findings)} finding(s)")
    folders = result.write(out) if out is not None else []
    for n, finding in enumerate(result.findings, start=1):
        print(f"  {n}. {finding.kind}")
        print("     " + finding.query.replace("\n", "\n     ").rstrip())
        print("     stream: " + (finding.stream.replace("\n", "\n             ").rstrip() or "(empty)"))
        if folders:
            print(f"     written to {folders[n - 1]}")
    if args.json:
        from translator.cli.commands.common import output

        with output(args.json) as fh:
            fh.write(json.dumps(result.to_dict(), indent=1) + "\n")
    return EXIT_FAILURE if result.findings else EXIT_OK
