"""``--live-engine NAME`` of ``check`` and ``agree``: run real engines (:mod:`translator.engines`) on the
command's query and streams, and judge their outputs as recorded outputs (docs/engines.md).

``check … --live-engine rsp-js`` judges one live run as ``check --answers FILE`` judges a file (and
``--infer`` searches its settings); ``agree … --live-engine A --live-engine B`` (or one live engine and one
``--answers FILE``) compares two outputs interval by interval as ``agree --answers A --answers B`` does.
A run's output is read in its engine's format and time unit; when the engine's clock stops before the end
of the data (RSP-JS reports a window only when a later element arrives), the judged range ends there
unless ``--to`` says otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator

from lars.errors import RsplarsError
from translator.cli.commands.common import UNITS, stream_files

def add_live_engine_options(group, *, several: bool) -> None:
    """``--live-engine`` (shown in the help) and the options of its engines (documented in docs/engines.md,
    hidden from ``--help``, which stays within two screens)."""
    group.add_argument("--live-engine", action="append", metavar="NAME",
                       help="run live: rsp-js, command or rsplars[:P] (docs/engines.md)" + ("; twice" if several else ""))
    hidden = argparse.SUPPRESS
    group.add_argument("--engine-command", metavar="'PROGRAM ARGS…'", help=hidden)  # with {query}, {stream}, …
    group.add_argument("--engine-output-format", default="auto", metavar="F", help=hidden)
    group.add_argument("--engine-time-unit", choices=UNITS, metavar="U", help=hidden)
    group.add_argument("--engine-timeout", type=float, metavar="SECONDS", help=hidden)
    group.add_argument("--live-dir", metavar="DIR", help=hidden)


@contextlib.contextmanager
def live_outputs(args: argparse.Namespace) -> Iterator[list]:
    """Run every ``--live-engine`` in order (:func:`rsplars.run_live`); yields their
    :class:`rsplars.LiveRun`. The runs' folder is removed afterwards unless it is ``--live-dir``."""
    import rsplars
    from translator.agreement.answers import FORMATS

    if args.engine_output_format not in ("auto", *FORMATS):
        raise RsplarsError(f"--engine-output-format {args.engine_output_format!r}: expected auto, {', '.join(FORMATS)}")
    if args.query_file in (None, "-"):
        raise RsplarsError("a live engine needs QUERY as a file")
    if getattr(args, "named", None) or getattr(args, "static_during", None):
        raise RsplarsError("a live engine reads --stream and --static only (not --named or --static-during)")
    streams = stream_files(args)
    if any(path == "-" for path in streams.values()):
        raise RsplarsError("a live engine reads its streams from files (not stdin): give --stream IRI=FILE")
    engines = [rsplars.LiveEngine(spec, args.engine_command, args.engine_output_format, args.engine_time_unit,
                                  args.engine_timeout) for spec in args.live_engine]
    keep = args.live_dir is not None

    def said(run) -> None:
        where = f"output {run.answers.path}" + (f", log {run.log}" if run.log else "") if keep else \
            "its folder removed after"
        print(f"rsplars: live run {run.engine}: {run.seconds:.2f} s ({where})", file=sys.stderr)

    with rsplars.run_live(args.query_file, streams, args.static, engines=engines, unit=args.unit,
                          stream_time_unit=args.stream_time_unit, epoch=args.epoch, folder=args.live_dir,
                          skip_bad_elements=getattr(args, "skip_bad_elements", False), on_run=said) as runs:
        yield runs


def judged_end(args: argparse.Namespace, runs) -> int | None:
    """``--to``, else the earliest engine clock among ``runs`` in the base unit (``None``: to the end)."""
    import rsplars

    if args.end is not None:
        return args.end
    end = rsplars.judged_end(runs, args.unit)
    if end is not None:
        print(f"rsplars: judged up to t = {end} (--to): the live engine's clock stops at its last element",
              file=sys.stderr)
    return end


def check_live(args: argparse.Namespace, run_one) -> int:
    """``check --live-engine NAME``: the engine's output judged by ``run_one`` as an ``--answers`` file."""
    if args.answers or args.batch is not None:
        raise RsplarsError("give either --live-engine or --answers/--batch, not both")
    if len(args.live_engine) != 1:
        raise RsplarsError("check judges one live engine (compare two with rsplars agree --live-engine A "
                           "--live-engine B)")
    if args.engine == "spark":
        raise RsplarsError("--engine spark judges several recorded outputs; a live run is judged in this process")
    with live_outputs(args) as runs:
        ((run),) = runs
        args.answers, args.answers_format, args.answers_time_unit = run.answers.path, run.answers.format, \
            run.answers.time_unit
        args.end = judged_end(args, runs)
        args.live = {"engine": args.live_engine[0], "seconds": round(run.seconds, 3)}
        return run_one(args)


def agree_live(args: argparse.Namespace, run_recorded) -> int:
    """``agree --live-engine A --live-engine B`` (or one of each, ``--answers`` and ``--live-engine``):
    two outputs compared by ``run_recorded``, each read in its engine's format and time unit."""
    given = list(args.answers or [])
    if len(given) + len(args.live_engine) != 2:
        raise RsplarsError(f"agree compares two outputs: got {len(args.live_engine)} --live-engine and "
                           f"{len(given)} --answers")
    with live_outputs(args) as runs:
        args.answers = given + [run.answers.path for run in runs]
        args.answer_readings = {run.answers.path: (run.answers.format, run.answers.time_unit) for run in runs}
        args.end = judged_end(args, runs)
        return run_recorded(args)
