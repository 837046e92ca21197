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
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from lars.errors import RsplarsError
from translator.cli.commands.common import UNITS, read_data

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
    """Run every ``--live-engine`` in order; yields ``[(engine, EngineOutput)]``. The runs' folder is
    removed afterwards unless it is ``--live-dir``."""
    from translator.agreement.answers import FORMATS
    from translator.engines import engine_named
    from translator.engines.inputs import prepare_input
    from translator.rdf.streams import parse_stream_spec

    if args.engine_output_format not in ("auto", *FORMATS):
        raise RsplarsError(f"--engine-output-format {args.engine_output_format!r}: expected auto, {', '.join(FORMATS)}")
    if args.query_file in (None, "-"):
        raise RsplarsError("a live engine needs QUERY as a file")
    if getattr(args, "named", None) or getattr(args, "static_during", None):
        raise RsplarsError("a live engine reads --stream and --static only (not --named or --static-during)")
    engines = [engine_named(spec, base_unit=args.unit, command=args.engine_command,
                            output_format=args.engine_output_format, time_unit=args.engine_time_unit)
               for spec in args.live_engine]
    for engine in engines:
        if args.engine_timeout is not None and hasattr(engine, "timeout"):
            engine.timeout = args.engine_timeout
    streams = [parse_stream_spec(spec) for spec in args.stream]
    if any(str(path) == "-" for _, path in streams):
        raise RsplarsError("a live engine reads its streams from files (not stdin): give --stream IRI=FILE")
    from lars.accounting import Accounting

    # the judgement reads the data again and reports what --skip-bad-elements skipped: silent here
    elements, _ = read_data(args, Accounting(skip_bad=getattr(args, "skip_bad_elements", False)))
    keep = args.live_dir is not None
    root = Path(args.live_dir) if keep else Path(tempfile.mkdtemp(prefix="rsplars-live-"))
    try:
        runs = []
        for k, engine in enumerate(engines, start=1):
            folder = root / (engine.name if len(engines) == 1 else f"{k}-{engine.name}")
            given = prepare_input(args.query_file, [(str(iri), str(path)) for iri, path in streams], elements,
                                  args.static, folder.resolve(), base_unit=args.unit, engine_unit=engine.time_unit)
            out = engine.run(given)
            where = f"output {out.path}" + (f", log {out.log}" if out.log else "") if keep else "its folder removed after"
            print(f"rsplars: live run {args.live_engine[k - 1]}: {out.seconds:.2f} s ({where})", file=sys.stderr)
            runs.append((engine, out))
        yield runs
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def judged_end(args: argparse.Namespace, outputs) -> int | None:
    """``--to``, else the earliest engine clock among ``outputs`` in the base unit (``None``: to the end)."""
    from translator.engines.inputs import convert_time

    if args.end is not None:
        return args.end
    clocks = [convert_time(o.reported_until, o.time_unit, args.unit) for o in outputs if o.reported_until is not None]
    if not clocks:
        return None
    end = min(clocks)
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
        ((engine, out),) = runs
        args.answers, args.answers_format, args.answers_time_unit = str(out.path), out.format, out.time_unit
        args.end = judged_end(args, [out])
        args.live = {"engine": args.live_engine[0], "seconds": round(out.seconds, 3)}
        return run_one(args)


def agree_live(args: argparse.Namespace, run_recorded) -> int:
    """``agree --live-engine A --live-engine B`` (or one of each, ``--answers`` and ``--live-engine``):
    two outputs compared by ``run_recorded``, each read in its engine's format and time unit."""
    given = list(args.answers or [])
    if len(given) + len(args.live_engine) != 2:
        raise RsplarsError(f"agree compares two outputs: got {len(args.live_engine)} --live-engine and "
                           f"{len(given)} --answers")
    with live_outputs(args) as runs:
        outputs = [out for _, out in runs]
        args.answers = given + [str(out.path) for out in outputs]
        args.answer_readings = {str(out.path): (out.format, out.time_unit) for out in outputs}
        args.end = judged_end(args, outputs)
        return run_recorded(args)
