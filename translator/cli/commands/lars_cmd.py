"""``rsplars lars PROGRAM --stream FILE``: run a LARS program over a stream (``--engine``: the incremental
engine of ``lars.incremental`` for programs in its fragment, clingo otherwise).

For every reference time t (default: from the stream's first to its last time point) it prints the
intensional atoms that hold at t in the answer stream at t (Dao-Tran, Beck, Eiter 2015, §2.4; ``asp.solver``), as
soon as they are computed:

* ``--format jsonl`` (default): ``{"t": t, "atoms": [sorted strings]}``. When the program has no
  answer stream at t: ``{"t": t, "atoms": null, "answers": []}``; several:
  ``{"t": t, "atoms": null, "answers": [[…], […]], "more": false}`` (``more``: further answer
  streams exist beyond ``--models``). Both cases also print a note on stderr.
* ``--format text``: ``t: a, b`` per line (the stream text syntax); ``t: ⊥ (no answer stream)``;
  several answer streams as ``t [i/n]: …`` lines.

``--emit delta`` prints, instead of the whole answer at every t, what changed since the previous
line: ``{"t": t, "added": [...], "removed": [...]}`` (text: ``t: +a, -b``), as IStream/DStream do
for relations; the first line, and any line after a time point with no or several answer streams,
is a full record as above. A stream from a pipe (``--stream -``) is read while it is evaluated:
memory follows the windows, not the stream's length, and each answer is flushed as soon as its
time point is complete (the next time point, or the end, has arrived). A stream file in the text
format is read while it is evaluated, each line checked by the pass that reads it (memory follows
the windows; for the incremental engine straight into rows of term texts,
``lars.streams.iter_stream_rows``; the atoms of a signature read only by □ windows that occur at
neither neighbouring time point are dropped as read, ``lars.streams.isolated_box_signatures``),
and read to its end after the last evaluation time. A bad line stops the run with its located
error FILE:LINE:COLUMN (exit 2): ``--output FILE`` is then not written (nothing left, not even a
temporary file); on stdout the answers of the time points before the bad line stand, and stderr
says up to which time point they are complete. ``--check-first`` checks the whole file before the
first answer instead (one more pass over the file: no answer printed before an error anywhere).
Other files (JSON lines, ``--skip-bad-elements``) are read whole. The parsed program is kept in
the user's cache folder for the next run of the same program (``translator.cache``). Its elements are counted (stderr: read, used, rejected, duplicates), and
SIGINT/SIGTERM, ``--resume-from`` and ``--max-memory`` apply (docs/robustness.md); so they do for
``--stream -`` with ``--skip-bad-elements`` or ``--resume-from``, read whole. A live stream is
counted as it arrives (the summary at the end) and stops cleanly on SIGINT/SIGTERM and
``--max-memory`` too.

``--engine`` (``translator.evaluate.engine``): ``auto`` (default) runs the incremental engine of
``lars.incremental`` when the program is in its fragment (non-recursive stratified programs,
docs/performance.md) and clingo otherwise; ``asp`` always clingo; ``incremental`` refuses a
program outside the fragment (exit 2, naming the rule and why); ``spark`` reads the stream whole and
solves blocks of reference times in parallel (``--master``, ``--partitions``), each with the look-back
of the program's widest window and by ``auto``: the same lines (``spark_jobs.lars_job``,
docs/spark_jobs.md).

``--print-asp`` prints the ASP encoding instead (``docs/asp-encoding.md``); with a single reference
time (``--times T..T``) it adds the facts of the external atoms true at T, so that plain
``clingo`` computes the same answer. ``--output FILE`` writes atomically (temp file + rename).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable, Iterator, Sequence, TextIO

from lars.errors import RsplarsError
from translator.exits import EXIT_OK

HELP = "run a LARS program over a stream (incremental engine or clingo)"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("lars", help=HELP, description=HELP)
    p.add_argument("program", metavar="PROGRAM", help="LARS program file (Ticker-compatible syntax, docs/lars.md)")
    p.add_argument("--stream", required=True, metavar="FILE", help="stream: text (T: a, b) or JSON lines; - for stdin")
    p.add_argument("--stream-format", choices=["auto", "text", "jsonl"], default="auto", help="stream syntax (default: auto)")
    p.add_argument("--times", metavar="A..B", help="reference times (default: the stream's first to last time point)")
    p.add_argument("--format", choices=["jsonl", "text"], default="jsonl", help="output format (default: jsonl)")
    p.add_argument("--emit", choices=["full", "delta"], default="full",
                   help="full: the answer at every time point (default); delta: the atoms added and removed since the previous line")
    p.add_argument("--engine", choices=["auto", "asp", "incremental", "spark"], default="auto",
                   help="auto (default): the incremental engine when the program is in its fragment (lars.incremental), "
                        "clingo otherwise; asp: always clingo; incremental: refuse programs outside the fragment; "
                        "spark: blocks of reference times solved in parallel, each by auto (docs/spark_jobs.md)")
    p.add_argument("--models", type=int, default=1, metavar="N", help="answer streams to list per time point (0: all; default 1)")
    p.add_argument("--print-asp", action="store_true", help="print the ASP encoding (plus the facts at T for --times T..T)")
    p.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    p.add_argument("--check-first", action="store_true",
                   help="check the whole stream file before the first answer (by default each line is checked as "
                        "it is read: on stdout, answers before a bad line are printed; --output is written only "
                        "on success either way)")
    from translator.cli.commands.engine_options import add_engine_options
    from translator.cli.commands.longrun import add_robustness_options

    add_engine_options(p.add_argument_group("spark (--engine spark, docs/spark_jobs.md)"), engine=False,
                       parquet=False)
    add_robustness_options(p)
    p.set_defaults(func=run)


def parse_times(text: str, timeline: tuple[int, int]) -> range:
    """``A..B`` (either end may be left out: the stream's), or a single ``T``."""
    lo, hi = timeline
    try:
        if ".." in text:
            a, b = text.split("..", 1)
            start = int(a) if a.strip() else lo
            end = int(b) if b.strip() else hi
        else:
            start = end = int(text)
    except ValueError:
        raise RsplarsError(f"--times: expected A..B with integers A <= B, got {text!r}") from None
    if start > end:
        raise RsplarsError(f"--times: empty range {text!r} (A must be <= B)")
    if start < lo:
        raise RsplarsError(f"--times: {start} lies before the start {lo} of the stream")
    return range(start, end + 1)


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as err:
        raise RsplarsError(f"cannot read {path}: {err.strerror}") from None


def _lines(steps, fmt: str, delta: bool = False) -> Iterator[str]:
    for step in steps:
        answers = step.answers
        if delta and step.delta is not None:
            added, removed = step.delta
            if fmt == "jsonl":
                yield json.dumps({"t": step.t, "added": list(added), "removed": list(removed)}, ensure_ascii=False)
            else:
                yield f"{step.t}: {', '.join([*('+' + a for a in added), *('-' + a for a in removed)])}".rstrip()
            continue
        if fmt == "jsonl":
            if len(answers) == 1 and not step.more:
                encoded = step.encoded  # the engine's cached JSON of the atoms (lars.solver.Step), or None
                if encoded is not None:
                    yield f'{{"t": {step.t}, "atoms": [{encoded}]}}'
                else:
                    yield json.dumps({"t": step.t, "atoms": answers[0]}, ensure_ascii=False)  # a tuple: a JSON array
            else:
                record = {"t": step.t, "atoms": None, "answers": [list(a) for a in answers]}
                if answers:
                    record["more"] = step.more
                yield json.dumps(record, ensure_ascii=False)
        else:
            if not answers:
                yield f"{step.t}: ⊥ (no answer stream)"
            elif len(answers) == 1 and not step.more:
                yield f"{step.t}: {', '.join(answers[0])}".rstrip()
            else:
                n = f"{len(answers)}+" if step.more else str(len(answers))
                for i, a in enumerate(answers, 1):
                    yield f"{step.t} [{i}/{n}]: {', '.join(a)}".rstrip()


class _Notes:
    """stderr notes for time points with no or several answer streams, and progress on a tty."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.tty = sys.stderr.isatty()
        self.done = 0

    def __call__(self, steps):
        for step in steps:
            self.done += 1
            if not step.answers:
                self._note(f"rsplars: no answer stream at t={step.t}")
            elif len(step.answers) > 1 or step.more:
                more = " (and more)" if step.more else ""
                self._note(f"rsplars: {len(step.answers)} answer streams at t={step.t}{more}")
            if self.tty and self.done % 50 == 0:
                print(f"\r[{self.done}/{self.total}] t={step.t}", end="", file=sys.stderr, flush=True)
            yield step
        if self.tty and self.total >= 50:
            print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)

    def _note(self, text: str) -> None:
        if self.tty:
            print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
        print(text, file=sys.stderr)


def _write(out: TextIO, lines: Iterator[str]) -> None:
    for line in lines:
        out.write(line + "\n")
        if out is sys.stdout:
            out.flush()


def run(args: argparse.Namespace) -> int:
    from rsplars.programs import lars_engine, parse_program

    # parsed once, then taken from the user's cache (lars.cache): a run again loads no parser
    program = parse_program(_read(args.program), source=args.program, cached=True)
    if args.models < 0:
        raise RsplarsError(f"--models must be >= 0, got {args.models}")
    if args.engine == "spark":  # blocks with look-back (spark_jobs.lars_job)
        return _run_spark(args, program)
    # Step.encoded where the engine keeps it: full answers written as JSON lines
    solver = lars_engine(program, args.engine, models=args.models, asp=args.print_asp,
                         json_lines=args.format == "jsonl" and args.emit == "full")
    live = args.stream == "-" and not (args.print_asp or args.skip_bad_elements or args.resume_from is not None)
    return _run_live(args, program, solver) if live else _run_counted(args, program, solver)


def _run_live(args: argparse.Namespace, program, solver) -> int:
    """A stream from a pipe, evaluated as it arrives (``translator.evaluate.lars_input.read_stream_live``): memory
    follows the windows, each answer is flushed as soon as its time point is complete. The atoms
    are counted as they arrive (the summary on stderr at the end); SIGINT/SIGTERM and
    ``--max-memory`` stop it cleanly (docs/robustness.md)."""
    from lars.streams import live_times
    from rsplars.programs import lars_run
    from translator.evaluate.lars_input import read_stream_live
    from translator.cli.commands.longrun import write_run
    from translator.evaluate.accounting import count_live, new_accounting
    from translator.evaluate.engine import announced
    from translator.evaluate.memory import MemoryGuard, resolve_limit

    accounting = new_accounting()
    # a stream read as it arrives: the memory guard reads its time points as it reads a Stream's
    live: Any = read_stream_live(args.stream, args.stream_format, accounting)
    steps_at: Iterable[int]
    if args.times and not args.times.rstrip().endswith(".."):
        steps_at = parse_times(args.times, live.timeline)
        total = len(steps_at)
    else:
        first = args.times.split("..", 1)[0].strip() if args.times else ""
        start = parse_times(f"{first}..{first}", live.timeline).start if first else live.timeline[0]
        steps_at = live_times(live, start)  # until the stream ends
        total = 0
    guard = MemoryGuard(resolve_limit(args.max_memory), program, live)
    steps = _Notes(total)(lars_run(program, live, times=announced(steps_at, guard.note_time), engine=solver))
    return write_run(args.output, args.resume_from, "rsplars", f"lars-{args.format}", _writer(args), steps, accounting, guard=guard,
                     count=lambda last: count_live(accounting, live, last), at_once=lambda: live.waiting, pieces=True)


def _run_counted(args: argparse.Namespace, program, solver) -> int:
    """A stream file (checked, then read lazily; or read whole), its elements counted (read, used, rejected, duplicates), with a clean
    stop on SIGINT/SIGTERM, ``--resume-from`` and the memory limit (docs/robustness.md)."""
    from rsplars.programs import lars_run
    from translator.evaluate.lars_input import read_stream
    from translator.cli.commands.longrun import write_run
    from translator.evaluate.accounting import count_stream, new_accounting
    from translator.evaluate.fileio import atomic_output
    from translator.evaluate.memory import MemoryGuard, resolve_limit
    from translator.evaluate.engine import MAX_EVALUATION_TIMES, announced

    accounting = new_accounting(args.skip_bad_elements)
    lazy = None
    if args.stream != "-" and args.stream_format != "jsonl" and not (args.skip_bad_elements or args.print_asp):
        from lars.streams import read_stream_counted

        rows = solver.reads_rows  # it reads rows of term texts, no atom objects (lars.solver.Solver)
        # read as evaluated, each line checked as it is read (--check-first: the whole file first)
        drop: frozenset[tuple[str, int]] = frozenset()
        if rows:  # atoms read only by □ windows that occur at neither neighbouring time point cannot hold
            from lars.streams import isolated_box_signatures

            drop = isolated_box_signatures(program)
        lazy = read_stream_counted(args.stream, accounting, rows, check=args.check_first, drop=drop)
    stream: Any  # a LARS stream read whole, or one read while it is evaluated
    if lazy is not None:
        stream, (first, last), sizes = lazy
        times = parse_times(args.times, (first, last)) if args.times else range(first, last + 1)
    else:
        stream = read_stream(args.stream, args.stream_format, accounting)
        timeline = stream.timeline
        times = parse_times(args.times, timeline) if args.times else range(timeline[0], timeline[1] + 1)
    if times.stop - times.start > MAX_EVALUATION_TIMES:  # len() overflows on a far-off time point
        if lazy is not None:  # an error in the stream before its far-off last time point comes first
            from lars.streams import scan_stream_text_file

            scan_stream_text_file(args.stream)
        raise RsplarsError(f"the run would evaluate {times.stop - times.start:,} time points ({times.start} to "
                           f"{times.stop - 1}), more than {MAX_EVALUATION_TIMES:,}: check the stream's time points, "
                           "or give --times A..B")
    if args.print_asp:
        text = solver.asp_text(stream, times[0] if args.times and len(times) == 1 else None)
        with atomic_output(args.output) as out:
            _write(out, iter(text.rstrip("\n").split("\n")))
        return EXIT_OK
    evaluated: Sequence[int] = times
    if args.resume_from is not None:
        evaluated = [t for t in times if t > args.resume_from]
    guard = MemoryGuard(resolve_limit(args.max_memory), program, stream)
    steps = lars_run(program, stream, times=announced(evaluated, guard.note_time), engine=solver)
    if lazy is not None:
        steps = _stop_at_bad_input(steps, stream, args.output)
    return write_run(args.output, args.resume_from, "rsplars", f"lars-{args.format}", _writer(args), _Notes(len(evaluated))(steps),
                     accounting, guard=guard,
                     count=lambda last: count_stream(accounting, stream if lazy is None else _Sizes(sizes), last),
                     pieces=True)


def _run_spark(args: argparse.Namespace, program) -> int:
    """``--engine spark``: the stream read whole, the reference times cut into blocks with the look-back
    of the program's windows and solved on Spark (``spark_jobs.lars_job``); the same lines as a
    sequential run."""
    from translator.evaluate.lars_input import read_stream
    from spark_jobs.lars_job import check_listed_models, lars_steps_spark, program_look_back
    from translator.cli.commands.longrun import write_run
    from translator.evaluate.accounting import count_stream, new_accounting
    from translator.evaluate.engine import MAX_EVALUATION_TIMES

    for name, given in (("--print-asp", args.print_asp), ("--max-memory", args.max_memory is not None)):
        if given:
            raise RsplarsError(f"{name} does not apply to --engine spark (docs/spark_jobs.md)")
    if args.emit == "delta" and args.models != 1:  # whether a line is a change depends on the engine's inner steps
        raise RsplarsError(f"--engine spark prints --emit delta with --models 1 only, not with --models {args.models} "
                           "(docs/spark_jobs.md)")
    program_look_back(program)  # a program that cannot be cut into blocks fails before the stream is read
    check_listed_models(program, args.models)
    accounting = new_accounting(args.skip_bad_elements)
    stream = read_stream(args.stream, args.stream_format, accounting)
    timeline = stream.timeline
    times = parse_times(args.times, timeline) if args.times else range(timeline[0], timeline[1] + 1)
    if times.stop - times.start > MAX_EVALUATION_TIMES:
        raise RsplarsError(f"the run would evaluate {times.stop - times.start:,} time points ({times.start} to "
                           f"{times.stop - 1}), more than {MAX_EVALUATION_TIMES:,}: check the stream's time points, "
                           "or give --times A..B")
    chosen = [t for t in times if args.resume_from is None or t > args.resume_from]
    steps = lars_steps_spark(program, stream, chosen, models=args.models, master=args.master,
                             partitions=args.partitions)
    return write_run(args.output, args.resume_from, "rsplars", f"lars-{args.format}", _writer(args), _Notes(len(chosen))(steps), accounting,
                     count=lambda last: count_stream(accounting, stream, last), pieces=True)


class BadStreamInput(RsplarsError):
    """The stream file read while evaluated has an error (reported on stderr already, located):
    says what of the output stands (exit code 2)."""


def _stop_at_bad_input(steps, stream, output: str | None):
    """The steps of a stream file read while evaluated; the rest of the file is read after the last
    one (every line is checked). A bad line stops the run: its located error is printed at once
    (before the element summary), and :class:`BadStreamInput` says what was written: with
    ``--output`` nothing (the temporary file is removed), on stdout the answers up to the time
    point before the error (complete; the rest was not evaluated)."""
    from lars.errors import SourceError

    last = None
    evaluated = False
    try:
        for step in steps:
            yield step
            last = step.t
        evaluated = True
        stream.drain()
    except SourceError as err:
        print(err, file=sys.stderr, flush=True)
        if output not in (None, "-"):
            what = f"nothing written to {output}"
        elif last is None:
            what = "no answers printed"
        elif evaluated:
            what = f"the answers printed (up to t={last}) are complete, the error lies after the last evaluation time"
        else:
            what = (f"the answers printed are complete up to t={last}, later ones were not evaluated "
                    "(--check-first checks the whole stream before the first answer)")
        raise BadStreamInput(f"stopped at the error in the stream above: {what}") from None


def _writer(args: argparse.Namespace):
    """The writer of one step (``write_run``'s ``make_writer``)."""

    def make(out: TextIO):
        def write(step) -> None:
            for line in _lines([step], args.format, args.emit == "delta"):
                out.write(line)
                out.write("\n")

        return write

    return make


class _Sizes:
    """The atoms per time point of a stream read lazily, as ``count_stream`` reads a stream."""

    def __init__(self, sizes: dict[int, int]) -> None:
        self.sizes = sizes

    def items(self):
        return ((t, range(n)) for t, n in sorted(self.sizes.items()))
