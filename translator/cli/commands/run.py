"""``rsplars run QUERY --stream IRI=FILE …``: answer a query over RDF streams and static data.

The query is translated (τ1 for C-SPARQL, τ2 for CQELS, or ``--as``), put in its execution mode
(pull with its period for C-SPARQL, push for CQELS, D4) and its LARS program evaluated at every
evaluation time (``translator.evaluate.run``) by the incremental engine or clingo (``--lars-engine``),
in one process or block by block on Spark (``--engine spark``). Output, one record per evaluation time, as it is computed:

* ``jsonl`` (default): ``{"t": 18, "answers": [{"shop": "<http://…>", "percent": "\\"25\\"^^<…>"}]}``
  — terms in N-Triples form, unbound variables left out, answers sorted; ASK gives
  ``{"t": 18, "answer": true}``;
* ``csv``: a header ``t,var1,…`` then one row per answer (N-Triples terms, empty = unbound);
* ``sparql-json``: one SPARQL 1.1 Query Results JSON object per line, with an extra member ``t``.

CONSTRUCT queries give triples (the template instantiated per answer, ``translator.evaluate.run.
construct_triples``): ``jsonl`` ``{"t": 400, "triples": ["<s> <p> <o> .", …]}`` (sorted
N-Triples lines); ``csv`` a header ``t,subject,predicate,object``; ``ntriples`` the timestamped
N-Triples of CSRBench, one ``<s> <p> <o> "t" .`` line per triple, stamped with the evaluation time
(C-SPARQL ``REGISTER STREAM``: all triples of one evaluation share its time, Barbieri et al. 2010,
§2.5),
which ``--stream`` reads back. ``ntriples`` is for CONSTRUCT only, ``sparql-json`` for SELECT/ASK.

Without ``--stream``, a query without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015,
Proposition 2): it is evaluated once over ``--static``/``--named`` and written as one SPARQL
result (``translator.evaluate.plain_sparql``; docs/translation.md).

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

from lars.errors import RsplarsError
from translator.cli.commands.engine_options import add_engine_options
from translator.exits import EXIT_OK
from translator.evaluate.writers import FORMATS, WRITERS, check_format
from translator.cli.commands.epsparql_cmd import add_epsparql_options, run_epsparql
from translator.cli.commands.rsepql_cmd import add_rsepql_options, run_rsepql
from translator.cli.commands.longrun import add_robustness_options, write_run
from translator.cli.commands.common import (
    Progress,
    add_data_options,
    add_query_options,
    add_translation_options,
    check_stream_iris,
    compile_variants,
    option_groups,
    output,
    parse_query,
    read_data,
)
from translator.cli.commands.operational_options import (
    add_operational_options,
    apply_dialect_defaults,
    operational_requested,
)
from translator.cli.commands.print_asp import print_asp

HELP = ("answer a query over RDF streams and static data: its LARS program evaluated by the incremental "
        "engine or clingo, in one process or on Spark")
USAGE = "rsplars run QUERY [--stream IRI=FILE …] [--static FILE …] [--named IRI=FILE …] [options]"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("run", help=HELP, description=HELP, usage=USAGE)
    g = option_groups(p, "input", "query", "semantics", "profile", "epsparql", "output", "scale_out", "robustness")
    g["input"].add_argument("query_file", metavar="QUERY",
                            help="query file (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL, RSEP-QL), or - for stdin")
    add_data_options(g["input"], stream_required=False)  # none: a query without streams, evaluated once
    add_query_options(g["query"], epsparql=g["epsparql"])
    add_translation_options(g["semantics"], query=g["query"])
    g["semantics"].add_argument("--r2s", choices=["rstream", "istream", "dstream"], default="rstream", metavar="R2S",
                                help="%(choices)s (default: rstream; with --profile the profile's)")
    g["semantics"].add_argument("--from", dest="start", type=int, metavar="T",
                                help="first time point to evaluate (base units)")
    g["semantics"].add_argument("--to", dest="end", type=int, metavar="T",
                                help="last time point to evaluate (base units)")
    add_operational_options(g["profile"], r2s=False)
    add_epsparql_options(g["epsparql"])
    add_rsepql_options(g["epsparql"])
    g["output"].add_argument("--format", choices=FORMATS, default="jsonl", metavar="FORMAT",
                             help="%(choices)s (default: jsonl)")
    g["output"].add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    g["output"].add_argument("--print-asp-at", dest="print_asp_at", type=int, metavar="T",
                             help="print the ASP program and the facts true at T (for clingo), not answers")
    g["scale_out"].add_argument("--lars-engine", choices=["auto", "asp", "incremental"], default="auto",
                                metavar="ENGINE",
                                help="auto (default: incremental for programs in its fragment, else clingo), asp "
                                     "(clingo), incremental (docs/performance.md)")
    add_engine_options(g["scale_out"], state=True)
    add_robustness_options(g["robustness"])
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.rdf.streams import parse_stream_spec
    from translator.evaluate.run import answers

    if args.as_ == "cqels-all":
        raise RsplarsError("--as cqels-all gives several queries; run them one by one (cqels-brave, cqels-cautious)")
    query = parse_query(args, args.query_file)
    if not args.stream:  # plain SPARQL over --static/--named, evaluated once (translator.evaluate.plain_sparql)
        return _run_plain_sparql(args, query)
    if query.dialect not in ("epsparql", "rsepql"):  # NOW() = epoch + t (translator.translate.now)
        query = _bind_now(args, query)
    if query.dialect == "epsparql" and operational_requested(args):
        raise RsplarsError("the operational options (--profile, --t0, --report, …) need windows; EP-SPARQL has none "
                           "(Dell'Aglio et al. 2013, §7): use --selection/--consumption (docs/epsparql.md)")
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
        return print_asp(args, compiled, elements, facts)
    check_format(args.format, compiled.form)
    from translator.evaluate.memory import MemoryGuard, resolve_limit

    resume = args.resume_from
    guard = MemoryGuard(resolve_limit(args.max_memory), compiled.program, _LazyStream(elements))
    if args.engine == "spark":
        from spark_jobs.runs import run_answers_spark
        from translator.cli.commands.engine_options import spark_options

        evaluations = run_answers_spark(compiled, elements, facts, start=args.start, end=args.end, r2s=args.r2s,
                                        spark=spark_options(args),
                                        solve_from=_solve_from(compiled, elements, facts, args, resume),
                                        engine=args.lars_engine)
        if resume is not None:  # the blocks before are not solved; the evaluations up to T are dropped
            evaluations = (ev for ev in evaluations if ev.t > resume)
    else:
        evaluations = answers(compiled, elements, facts, start=args.start, end=args.end, r2s=args.r2s,
                              on_progress=Progress("rsplars run"),
                              on_note=lambda text: print(f"rsplars: note: {text}", file=sys.stderr),
                              resume_after=resume, on_time=guard.note_time, engine=args.lars_engine)
    return write_run(args, "rsplars", args.format, lambda out: WRITERS[args.format](out, compiled), evaluations,
                     accounting, guard=guard, count=lambda last: count_elements(accounting, elements, last))


def _bind_now(args: argparse.Namespace, query):
    from translator.cli.commands.common import time_spec
    from translator.rdf.timeunits import unit_ms
    from translator.translate.now import bind_now

    spec = time_spec(args)
    return bind_now(query, spec.epoch, unit_ms(spec.unit), args.query_text, args.query_source)


#: options that need a stream, refused without ``--stream`` (attribute, option, value when not given)
_STREAM_ONLY = (("start", "--from", None), ("end", "--to", None), ("period", "--period", None), ("as_", "--as", None),
                ("r2s", "--r2s", "rstream"), ("print_asp_at", "--print-asp-at", None), ("engine", "--engine", "sequential"),
                ("resume_from", "--resume-from", None), ("static_during", "--static-during", []))


def _run_plain_sparql(args: argparse.Namespace, query) -> int:
    """``rsplars run Q --static D [--named IRI=FILE]`` without ``--stream``: a query without streams
    is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2), solved once over the static data
    and written in SPARQL's result formats (``translator.evaluate.plain_sparql``)."""
    from translator.evaluate.plain_sparql import WRITERS as PLAIN_WRITERS, evaluate_once
    from translator.query.model import IRI, stream_graph_patterns
    from translator.cli.commands.common import static_data
    from translator.cli.commands.plain_dataset import from_graph_files, from_named_graphs, query_base
    from translator.query.parse import parse

    streams = sorted({f"<{p.stream.value}>" if isinstance(p.stream, IRI) else f"?{p.stream.name}"
                      for p in stream_graph_patterns(query)})
    if query.dialect == "epsparql":
        raise RsplarsError("the query was read as EP-SPARQL (see the dialect line), which reads an event stream: give "
                           "it with --stream IRI=FILE; a plain SPARQL query writes every IRI as <…> or prefix:name")
    if streams:
        raise RsplarsError(f"the query reads the streams {', '.join(streams)}: give them with --stream IRI=FILE "
                           "(without --stream, a query without streams is evaluated once, as plain SPARQL)")
    given = [option for attr, option, absent in _STREAM_ONLY if getattr(args, attr, absent) not in (absent, None)]
    if args.mode not in (None, "none"):
        given.append(f"--mode {args.mode}")
    if operational_requested(args):
        given.append("--profile/--report")
    if given:
        raise RsplarsError(f"{given[0]} needs --stream: without streams the query is evaluated once, as plain SPARQL")
    args.mode = "none"
    base = query_base(args.query_file)
    if base is not None and query.prologue.base is None:  # relative IRIs name files beside the query (plain_dataset)
        query = parse(args.query_text, query.dialect, source=args.query_source, lenient=args.lenient,
                      bare_ns=getattr(args, "bare_ns", None), base=base)
    args.static = [*args.static, *from_graph_files(query, args)]
    args.named = [*args.named, *from_named_graphs(query, args)]
    facts = static_data(args)
    from translator.translate.now import bind_query_time  # NOW() = the query time (SPARQL 1.1 §17.4.5.1)

    ((_, compiled),) = compile_variants(args, bind_query_time(query))
    check_format(args.format, compiled.form)
    evaluation = evaluate_once(compiled, facts, engine=args.lars_engine,
                               on_note=lambda text: print(f"rsplars: note: {text}", file=sys.stderr))
    with output(args.output) as out:
        PLAIN_WRITERS[args.format](out, compiled, evaluation)
    return EXIT_OK


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

