"""``rsplars run QUERY --stream IRI=FILE …``: answer a query over RDF streams and static data.

The query is translated (τ1 for C-SPARQL, τ2 for CQELS, or ``--as``), put in its execution mode
(pull with its period for C-SPARQL, push for CQELS, D4) and solved by the clingo engine at every
evaluation time (``translator.evaluate.run``). Output, one record per evaluation time, as it is computed:

* ``jsonl`` (default): ``{"t": 18, "answers": [{"shop": "<http://…>", "percent": "\\"25\\"^^<…>"}]}``
  — terms in N-Triples form, unbound variables left out, answers sorted; ASK gives
  ``{"t": 18, "answer": true}``;
* ``csv``: a header ``t,var1,…`` then one row per answer (N-Triples terms, empty = unbound);
* ``sparql-json``: one SPARQL 1.1 Query Results JSON object per line, with an extra member ``t``.

CONSTRUCT queries give triples (the template instantiated per answer, ``translator.evaluate.run.
construct_triples``): ``jsonl`` ``{"t": 400, "triples": ["<s> <p> <o> .", …]}`` (sorted
N-Triples lines); ``csv`` a header ``t,subject,predicate,object``; ``ntriples`` the timestamped
N-Triples of CSRBench, one ``<s> <p> <o> "t" .`` line per triple, stamped with the evaluation time
(C-SPARQL ``REGISTER STREAM``: all triples of one evaluation share its time, seed 004 Sect. 2.5),
which ``--stream`` reads back. ``ntriples`` is for CONSTRUCT only, ``sparql-json`` for SELECT/ASK.

``--stream IRI=-`` reads a stream from standard input while it is evaluated (a pipe that may never
end): the answers at t are written and flushed as soon as the first element after t arrives, and
memory follows the windows, not the stream (``translator.evaluate.live``). N-Triples stream files
are read the same way, lazily, unless the run needs the whole stream first (``--engine spark``,
``--print-asp-at``, ``--resume-from``, ``--as cqels-*`` of a C-SPARQL query without ``--assign``).

``--print-asp-at T`` prints, instead of answers, the program as plain clingo input together with
the external atoms true at T over the given data (``translator.translate.asp_export``): clingo on that text
(``python -m clingo --enable-python``) derives ``answer(…)`` atoms equal to the answers at T.
"""

from __future__ import annotations

import argparse
import sys

from lars.errors import EXIT_OK, RsplarsError
from spark_jobs.options import add_engine_options
from translator.evaluate.writers import FORMATS, WRITERS, check_format
from translator.cli.commands.epsparql_cmd import add_epsparql_options, run_epsparql
from translator.cli.commands.rsepql_cmd import add_rsepql_options, run_rsepql
from translator.cli.commands.longrun import add_robustness_options, write_run
from translator.cli.commands.common import (
    Progress,
    add_data_options,
    add_query_options,
    add_translation_options,
    apply_dialect_defaults,
    check_stream_iris,
    compile_variants,
    output,
    parse_query,
    read_data,
)
from translator.cli.commands.operational_options import add_operational_options, operational_requested

HELP = "answer a query over RDF streams and static data with the clingo engine"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("run", help=HELP, description=HELP)
    p.add_argument("query_file", metavar="QUERY", help="query file (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL, RSEP-QL), or - for stdin")
    add_query_options(p)
    add_data_options(p, stream_required=True)
    add_translation_options(p)
    p.add_argument("--r2s", choices=["rstream", "istream", "dstream"], default="rstream",
                   help="relation-to-stream operator (default: rstream, all current answers; with --profile the "
                        "profile's, an explicit value overrides it)")
    p.add_argument("--from", dest="start", type=int, metavar="T", help="first time point to evaluate (base units)")
    p.add_argument("--to", dest="end", type=int, metavar="T", help="last time point to evaluate (base units)")
    p.add_argument("--format", choices=FORMATS, default="jsonl", help="output format (default: jsonl)")
    p.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    p.add_argument("--print-asp-at", dest="print_asp_at", type=int, metavar="T",
                   help="print the ASP program plus the stream facts true at T (for plain clingo) instead of answers")
    add_engine_options(p, state=True)
    p.add_argument("--lars-engine", choices=["auto", "asp", "incremental"], default="auto",
                   help="the LARS engine, of a sequential run and of every Spark block: auto (default: the incremental engine when the translated "
                        "program is in its fragment, clingo otherwise), asp (clingo), incremental (docs/performance.md)")
    add_epsparql_options(p)
    add_rsepql_options(p)
    add_operational_options(p, r2s=False)
    add_robustness_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.rdf.streams import parse_stream_spec
    from translator.evaluate.run import answers

    if args.as_ == "cqels-all":
        raise RsplarsError("--as cqels-all gives several queries; run them one by one (cqels-brave, cqels-cautious)")
    query = parse_query(args, args.query_file)
    if query.dialect == "epsparql" and operational_requested(args):
        raise RsplarsError("the operational options (--profile, --t0, --report, …) need windows; EP-SPARQL has none "
                           "(seed 002 §3.2): use --selection/--consumption (docs/epsparql.md)")
    if query.dialect == "epsparql":  # one event stream, push-evaluated (docs/epsparql.md)
        return run_epsparql(args, query)
    if query.dialect == "rsepql":  # MATCH over basic event patterns on windows (docs/epsparql.md, "RSEP-QL")
        if operational_requested(args):
            raise RsplarsError("the operational options (--profile, --t0, --report, …) do not apply to RSEP-QL: "
                               "give its evaluation times with --at (docs/epsparql.md)")
        return run_rsepql(args, query)
    from translator.evaluate.accounting import count_elements, new_accounting

    check_stream_iris(query, [parse_stream_spec(spec)[0] for spec in args.stream])
    apply_dialect_defaults(args, query)  # RSP-QL: the rsp-ql profile and the registration's R2S
    if operational_requested(args):  # --profile, --t0, --report, …: the report-policy run (docs/check.md)
        from translator.cli.commands.operational_options import run_operational

        return run_operational(args, query)
    if args.spark_state is not None and args.engine != "spark":
        raise RsplarsError("--spark-state needs --engine spark")
    accounting = new_accounting(args.skip_bad_elements)
    if _live_reading(args, query):  # streams read while they are evaluated (translator.evaluate.live)
        return _run_live(args, query, accounting)
    elements, facts = read_data(args, accounting)
    ((_, compiled),) = compile_variants(args, query, elements)
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.end is not None and args.end < 0:  # runs start at time 0 (translator.evaluate.run.data_stream)
        raise RsplarsError(f"--to {args.end} lies before the start 0 of the timeline")
    if args.print_asp_at is not None:
        return _print_asp(args, compiled, elements, facts)
    check_format(args.format, compiled.form)
    from translator.evaluate.memory import MemoryGuard, resolve_limit

    resume = args.resume_from
    guard = MemoryGuard(resolve_limit(args.max_memory), compiled.program, _LazyStream(elements))
    if args.engine == "spark":
        from spark_jobs.cli import run_answers_spark

        evaluations = run_answers_spark(compiled, elements, facts, args.start, args.end, args.r2s,
                                        args.master, args.partitions, parquet=args.parquet,
                                        solve_from=_solve_from(compiled, elements, facts, args, resume),
                                        state=args.spark_state, engine=args.lars_engine)
        if resume is not None:  # the blocks before are not solved; the evaluations up to T are dropped
            evaluations = (ev for ev in evaluations if ev.t > resume)
    else:
        evaluations = answers(compiled, elements, facts, start=args.start, end=args.end, r2s=args.r2s,
                              on_progress=Progress("rsplars run"),
                              on_note=lambda text: print(f"rsplars: note: {text}", file=sys.stderr),
                              resume_after=resume, on_time=guard.note_time, engine=args.lars_engine)
    return write_run(args, "rsplars", args.format, lambda out: WRITERS[args.format](out, compiled), evaluations,
                     accounting, guard=guard, count=lambda last: count_elements(accounting, elements, last))


def _solve_from(compiled, elements, facts, args: argparse.Namespace, resume: int | None) -> int | None:
    """``--resume-from T`` on Spark: the first evaluation time to solve — T+1 for RStream; for
    IStream/DStream the last evaluation time up to T, whose answers the next one is compared with."""
    if resume is None:
        return None
    if args.r2s == "rstream":
        return resume + 1
    from translator.evaluate.run import engine_input

    before = [t for t in engine_input(compiled, elements, facts, start=args.start, end=args.end).times if t <= resume]
    return before[-1] if before else None


#: read stream files lazily too (not only ``-``) when the run allows it: memory then follows the
#: windows, not the length of the stream
LIVE_FILES = True


def _live_reading(args: argparse.Namespace, query) -> bool:
    """Whether the run reads its streams while it evaluates them (``--stream IRI=-`` always does if
    it can): not with Spark, ``--print-asp-at``, ``--resume-from``, or ``--as cqels-*`` of a C-SPARQL
    query without ``--assign`` (which reads the assignment off the whole stream)."""
    from translator.rdf.streams import parse_stream_spec

    if args.engine == "spark" or args.print_asp_at is not None or args.resume_from is not None:
        return False
    if args.as_ and query.dialect == "csparql" and not args.assign:
        return False
    piped = any(parse_stream_spec(spec)[1] == "-" for spec in args.stream)
    return piped or LIVE_FILES


def _run_live(args: argparse.Namespace, query, accounting) -> int:
    """``rsplars run`` over streams read as they arrive (``translator.evaluate.live``): answers
    written and flushed per evaluation time, memory bounded by the windows; the element summary
    is printed at the end."""
    from translator.cli.commands.common import static_data, stream_files, time_spec
    from translator.evaluate.live import ElementCounts, live_answers
    from translator.evaluate.memory import MemoryGuard, resolve_limit
    from translator.rdf.streams import StreamFiles

    files = stream_files(args)
    if list(files.values()).count("-") > 1:
        raise RsplarsError("only one --stream can be read from standard input (-)")
    facts = static_data(args)
    ((_, compiled),) = compile_variants(args, query)
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.end is not None and args.end < 0:
        raise RsplarsError(f"--to {args.end} lies before the start 0 of the timeline")
    check_format(args.format, compiled.form)
    counts = ElementCounts()
    ready = _stdin_ready if "-" in files.values() else None
    streams = StreamFiles(files, time=time_spec(args), accounting=accounting)
    guard = MemoryGuard(resolve_limit(args.max_memory), compiled.program, None)
    evaluations = live_answers(compiled, streams, facts, start=args.start, end=args.end, r2s=args.r2s,
                               counts=counts, ready=ready,
                               on_note=lambda text: print(f"rsplars: note: {text}", file=sys.stderr),
                               on_time=guard.note_time, engine=args.lars_engine,
                               on_stream=lambda stream: setattr(guard, "stream", stream))
    return write_run(args, "rsplars", args.format, lambda out: WRITERS[args.format](out, compiled), evaluations,
                     accounting, guard=guard, count=lambda last: counts.finish(accounting, last))


def _stdin_ready() -> bool:
    """Whether standard input has data waiting (the engine reads ahead only then, never waits)."""
    import select

    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):  # not selectable (e.g. replaced in tests): read as a file
        return True


class _LazyStream:
    """The data stream of the elements, built only when the memory guard names the windows."""

    def __init__(self, elements) -> None:
        self.elements = elements
        self._stream = None

    def __getattr__(self, name):
        if self._stream is None:
            from translator.evaluate.run import data_stream

            self._stream = data_stream(self.elements)
        return getattr(self._stream, name)


def _print_asp(args: argparse.Namespace, compiled, elements, facts) -> int:
    """``--print-asp-at T``: the run's program, static facts and the externals true at T."""
    from lars.model import Stream
    from translator.translate.asp_export import program_text
    from translator.evaluate.run import engine_input

    t = args.print_asp_at
    run = engine_input(compiled, elements, facts, start=args.start, end=args.end)
    lo, hi = run.stream.timeline
    if t < lo:
        raise RsplarsError(f"--print-asp-at {t} lies before the start {lo} of the timeline")
    stream = run.stream if t <= hi else Stream(run.stream.points, lo, t)
    text = program_text(run.program, stream, t)
    with output(args.output) as out:
        out.write(text)
    return EXIT_OK
