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

from lars.errors import RsplarsError
from translator.cli.commands.engine_options import add_engine_options
from translator.exits import EXIT_OK
from translator.evaluate.writers import FORMATS
from translator.cli.commands.epsparql_cmd import add_epsparql_options
from translator.cli.commands.rsepql_cmd import add_rsepql_options
from translator.cli.commands.longrun import add_robustness_options, write_run
from translator.cli.commands.common import (
    Progress,
    add_data_options,
    add_query_options,
    add_translation_options,
    given,
    named_files,
    option_groups,
    output,
    parse_query,
    print_note,
    static_during_pieces,
    stream_files,
    translation_options,
)
from translator.cli.commands.operational_options import (
    add_operational_options,
    operational_requested,
    requested_profile_options,
)

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
    """``rsplars run``: :func:`rsplars.evaluations` of the request the options make, each evaluation
    written as it is computed (``write_run``)."""
    if args.as_ == "cqels-all":
        raise RsplarsError("--as cqels-all gives several queries; run them one by one (cqels-brave, cqels-cautious)")
    query = parse_query(args, args.query_file)
    if not args.stream:  # plain SPARQL over --static/--named, evaluated once (translator.evaluate.plain_sparql)
        return _run_plain_sparql(args, query)
    if query.dialect == "epsparql":  # one event stream, push-evaluated (docs/epsparql.md)
        _check_event_options(args, "EP-SPARQL")
    elif query.dialect == "rsepql":  # MATCH over basic event patterns on windows (docs/epsparql.md, "RSEP-QL")
        _check_event_options(args, "RSEP-QL")
    elif args.spark_state is not None and args.engine != "spark":
        raise RsplarsError("--spark-state needs --engine spark")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.end is not None and args.end < 0:  # runs start at time 0 (translator.evaluate.run.data_stream)
        raise RsplarsError(f"--to {args.end} lies before the start 0 of the timeline")
    profile = None
    if query.dialect not in ("epsparql", "rsepql"):
        from rsplars.translating import dialect_profile

        # RSP-QL: the rsp-ql profile and the registration's R2S (docs/check.md)
        profile = dialect_profile(query, translation_options(args), requested_profile_options(args), _r2s(args),
                                  on_note=print_note)
        if profile is not None:
            _check_operational_options(args)
    from translator.evaluate.memory import MemoryGuard, resolve_limit

    guard = MemoryGuard(resolve_limit(args.max_memory))  # (its program and stream once compiled)
    live = LIVE_FILES and args.print_asp_at is None and args.engine != "spark"
    evaluations = _evaluations(args, query, profile, live=live, guard=guard)
    if args.print_asp_at is not None:
        from translator.cli.commands.print_asp import print_asp

        return print_asp(args, evaluations.compiled, evaluations.data.elements, evaluations.data.facts)
    evaluations.check_format(args.format)
    if query.dialect in ("epsparql", "rsepql"):
        found = _event_answers_spark(args, evaluations) if args.engine == "spark" else evaluations
        return _write_events(args, evaluations, found)
    if profile is None:  # the memory watchdog names the windows that grow (a report policy: the memory only)
        guard.program = evaluations.compiled.program
        if evaluations.stream is not None:
            guard.stream = evaluations.stream
    found = _answers_spark(args, evaluations) if args.engine == "spark" else evaluations
    return write_run(args.output, args.resume_from, "rsplars", args.format,
                     lambda out: evaluations.writer(args.format, out), found, evaluations.accounting,
                     guard=guard, count=evaluations.count)


def _r2s(args: argparse.Namespace) -> str | None:
    """``--r2s`` when given (else the profile's, an RSP-QL registration's, or rstream)."""
    return args.r2s if given(args.r2s) else None


def _evaluations(args: argparse.Namespace, query, profile, *, live: bool, guard=None):
    """:func:`rsplars.evaluations` of the options (``profile``: the one chosen already, none other)."""
    from translator.options import EventOptions
    from rsplars.running import evaluations
    from translator.evaluate.accounting import new_accounting

    at = None
    if getattr(args, "at", None):
        try:
            at = tuple(sorted({int(x) for x in args.at.split(",") if x.strip()}))
        except ValueError:
            raise RsplarsError(f"--at {args.at}: expected time points separated by commas (e.g. --at 8,10)") from None
    events = EventOptions(selection=args.selection, consumption=args.consumption, policy_reading=args.policy_reading,
                          at=at)
    static_during = tuple(static_during_pieces(args))
    return evaluations(
        query, stream_files(args), args.static or None, named_files(args), options=translation_options(args),
        profile=profile, default_profile=False, events=events, start=args.start, end=args.end, r2s=_r2s(args),
        lars_engine=args.lars_engine, stream_time_unit=args.stream_time_unit, epoch=args.epoch,
        static_during=static_during, resume_after=args.resume_from, live=live,
        accounting=new_accounting(args.skip_bad_elements), on_note=print_note,
        on_progress=Progress("rsplars run"), on_time=guard.note_time if guard is not None else None,
        on_stream=(lambda stream: setattr(guard, "stream", stream)) if guard is not None else None)


def _check_event_options(args: argparse.Namespace, dialect: str) -> None:
    """The options an EP-SPARQL or RSEP-QL run refuses, named as the command line spells them."""
    if operational_requested(args):
        if dialect == "EP-SPARQL":
            raise RsplarsError("the operational options (--profile, --t0, --report, …) need windows; EP-SPARQL has "
                               "none (Dell'Aglio et al. 2013, §7): use --selection/--consumption (docs/epsparql.md)")
        raise RsplarsError("the operational options (--profile, --t0, --report, …) do not apply to RSEP-QL: "
                           "give its evaluation times with --at (docs/epsparql.md)")
    for name in ("as_", "strategy"):
        if getattr(args, name, None):
            what = "(event patterns, push-evaluated; see docs/epsparql.md)" if dialect == "EP-SPARQL" else \
                "(docs/epsparql.md)"
            raise RsplarsError(f"--{name.strip('_').replace('_', '-')} does not apply to {dialect} queries {what}")
    if dialect == "EP-SPARQL":
        if args.mode not in (None, "push"):
            raise RsplarsError("EP-SPARQL queries are push-evaluated (on every event): --mode pull/none does not "
                               "apply")
        if args.engine == "spark":
            from spark_jobs.epsparql_job import refuse_policy

            refuse_policy(args.selection, args.consumption)  # before the stream is read
            for name in ("parquet", "spark_state"):
                if getattr(args, name, None) is not None:
                    raise RsplarsError(f"--{name.replace('_', '-')} does not apply to EP-SPARQL runs on Spark "
                                       "(docs/spark_jobs.md)")
        if _r2s(args) not in (None, "rstream"):
            raise RsplarsError("--r2s does not apply to EP-SPARQL: each complex event is reported once, when "
                               "detected")
        if args.print_asp_at is not None and (args.selection != "unrestricted" or args.consumption != "unrestricted"):
            raise RsplarsError("--print-asp-at prints the LARS program of the unrestricted policy; "
                               "a selection or consumption policy is post-processing (docs/epsparql.md)")
        return
    if args.mode not in (None, "push"):
        raise RsplarsError("RSEP-QL queries are evaluated at the times of --at or on every item: --mode does not apply")
    if args.engine == "spark":
        raise RsplarsError("--engine spark does not run RSEP-QL queries")
    if _r2s(args) not in (None, "rstream"):
        raise RsplarsError("--r2s does not apply to RSEP-QL: the answer at t is [[MATCH E]]^t (Dell'Aglio et al. "
                           "2016, Eq. 8)")
    if args.print_asp_at is not None:
        raise RsplarsError("--print-asp-at does not apply to RSEP-QL: MATCH is evaluated after the LARS program "
                           "(rsplars translate --to lars prints it)")


def _check_operational_options(args: argparse.Namespace) -> None:
    """The options a run under a report policy refuses (docs/check.md)."""
    if args.mode or args.period:
        raise RsplarsError("--mode/--period and the operational options exclude each other: the report policy "
                           "decides when the query is evaluated")
    if args.print_asp_at is not None:
        raise RsplarsError("--print-asp-at is not available with operational options; "
                           "`rsplars translate --to lars --profile …` shows the program")
    if args.engine == "spark":
        raise RsplarsError("--engine spark does not run operational profiles; use the sequential engine")


def _write_events(args: argparse.Namespace, evaluations, found) -> int:
    """The complex events of an EP-SPARQL or RSEP-QL run, each evaluation written and flushed as it
    is computed; the element summary at the end (docs/robustness.md)."""
    from translator.evaluate.accounting import print_summary

    last = None
    try:
        with output(args.output) as out:
            write = evaluations.writer(args.format, out)
            for ev in found:
                write(ev)
                out.flush()
                last = ev.t
    finally:  # nothing lost silently (docs/robustness.md)
        evaluations.count(last)
        print_summary(evaluations.accounting)
    return EXIT_OK


def _event_answers_spark(args: argparse.Namespace, evaluations):
    """``--engine spark`` on an EP-SPARQL query: blocks with look-back (docs/spark_jobs.md)."""
    from spark_jobs.epsparql_job import event_answers_spark

    return event_answers_spark(evaluations.compiled, evaluations.data.elements, start=args.start, end=args.end,
                               engine=args.lars_engine, master=args.master, partitions=args.partitions)


def _answers_spark(args: argparse.Namespace, evaluations):
    """``--engine spark``: the query compiled and its data read by :func:`rsplars.evaluations`,
    solved block by block on Spark (``spark_jobs.runs``)."""
    from spark_jobs.runs import run_answers_spark
    from translator.cli.commands.engine_options import spark_options

    compiled, data, resume = evaluations.compiled, evaluations.data, args.resume_from
    r2s = _r2s(args) or "rstream"
    found = run_answers_spark(compiled, data.elements, data.facts, start=args.start, end=args.end, r2s=r2s,
                              spark=spark_options(args),
                              solve_from=_solve_from(compiled, data.elements, data.facts, args, r2s, resume),
                              engine=args.lars_engine)
    if resume is not None:  # the blocks before are not solved; the evaluations up to T are dropped
        found = (ev for ev in found if ev.t > resume)
    return found


#: options that need a stream, refused without ``--stream`` (attribute, option, value when not given)
_STREAM_ONLY: tuple[tuple[str, str, object], ...] = (("start", "--from", None), ("end", "--to", None), ("period", "--period", None), ("as_", "--as", None),
                ("r2s", "--r2s", "rstream"), ("print_asp_at", "--print-asp-at", None), ("engine", "--engine", "sequential"),
                ("resume_from", "--resume-from", None), ("static_during", "--static-during", []))


def _run_plain_sparql(args: argparse.Namespace, query) -> int:
    """``rsplars run Q --static D [--named IRI=FILE]`` without ``--stream``: a query without streams
    is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2), solved once over the static data
    by :func:`rsplars.evaluations` and written in SPARQL's result formats."""
    from rsplars.running import GraphNotGiven
    from translator.query.model import IRI, stream_graph_patterns

    streams = sorted({f"<{p.stream.value}>" if isinstance(p.stream, IRI) else f"?{p.stream.name}"
                      for p in stream_graph_patterns(query)})
    if query.dialect == "epsparql":
        raise RsplarsError("the query was read as EP-SPARQL (see the dialect line), which reads an event stream: give "
                           "it with --stream IRI=FILE; a plain SPARQL query writes every IRI as <…> or prefix:name")
    if streams:
        raise RsplarsError(f"the query reads the streams {', '.join(streams)}: give them with --stream IRI=FILE "
                           "(without --stream, a query without streams is evaluated once, as plain SPARQL)")
    given_options = [option for attr, option, absent in _STREAM_ONLY if getattr(args, attr, absent) not in (absent, None)]
    if args.mode not in (None, "none"):
        given_options.append(f"--mode {args.mode}")
    if operational_requested(args):
        given_options.append("--profile/--report")
    if given_options:
        raise RsplarsError(f"{given_options[0]} needs --stream: without streams the query is evaluated once, as plain "
                           "SPARQL")
    try:
        evaluations = _evaluations(args, query, None, live=False)
    except GraphNotGiven as err:  # said with the options that give the graph
        give = ("the default graph with --static FILE (or --named IRI=FILE with that IRI)" if err.keyword == "FROM"
                else f"the graph with --named {err.iri}=FILE")
        raise RsplarsError(f"{err.keyword} <{err.iri}>: rsplars reads no data from the web; give {give}") from None
    evaluations.check_format(args.format)
    with output(args.output) as out:
        write = evaluations.writer(args.format, out)
        for evaluation in evaluations:
            write(evaluation)
    return EXIT_OK


def _solve_from(compiled, elements, facts, args: argparse.Namespace, r2s: str, resume: int | None) -> int | None:
    """``--resume-from T`` on Spark: the first evaluation time to solve — T+1 for RStream; for
    IStream/DStream the last evaluation time up to T, whose answers the next one is compared with."""
    if resume is None:
        return None
    if r2s == "rstream":
        return resume + 1
    from translator.evaluate.run import engine_input

    before = [t for t in engine_input(compiled, elements, facts, start=args.start, end=args.end).times if t <= resume]
    return before[-1] if before else None


#: read stream files lazily too (not only ``-``) when the run allows it: memory then follows the
#: windows, not the length of the stream
LIVE_FILES = True
