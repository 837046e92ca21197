"""``rsplars agree``: do a pull-based and a push-based run agree, interval by interval?
(Dao-Tran, Beck, Eiter 2015, §5)

Two forms::

    rsplars agree --pull QUERY_A --push QUERY_B --stream IRI=FILE … [--period U]
    rsplars agree QUERY --stream IRI=FILE … [--as cqels-brave|cqels-cautious|cqels-all]

QUERY_A (or ``cs(Q)``) is translated with τ1 and run pull-based with period U (``--period``, else
its ``COMPUTED EVERY`` or window STEP, D4); QUERY_B (or the members of ``cq(Q)`` that ``--as`` names;
a C-SPARQL QUERY_B is replaced by its brave/cautious CQELS counterpart) is translated with τ2 and run
push-based. For the diagnosis (docs/agreement-report.md) the push query also runs pull-based, and
both headline runs are repeated under a second window-bounds convention (``--other-window-bounds``).
Before running, condition (ii) is checked statically. Everything about agreement itself lives in
:mod:`translator.agreement` (:func:`translator.agreement.compare.compare` runs one comparison): this
module only parses the arguments, reads the data and prints the reports.

Exit code 0 when the analysis ran; with ``--fail-on-disagree`` 1 when an interval disagrees; 2 on
user errors.
"""

from __future__ import annotations

import argparse
import os
import sys

from lars.errors import EXIT_OK, RsplarsError
from translator.cli.commands.engine_options import add_engine_options
from translator.cli.commands.common import (
    UNITS,
    add_data_options,
    add_query_options,
    add_window_bounds,
    option_groups,
    parse_query,
    read_data,
)
from translator.cli.commands.epsparql_cmd import add_epsparql_options
from translator.cli.commands.operational_options import (
    add_profile_agreement_options,
    given,
    operational_requested,
    run_profile_agreement,
)
from translator.translate.tau import WINDOW_BOUNDS

HELP = ("compare a pull-based (C-SPARQL) and a push-based (CQELS) run interval by interval (Dao-Tran, Beck, "
        "Eiter 2015, §5)")
USAGE = "rsplars agree (QUERY | --pull QUERY_A --push QUERY_B) --stream IRI=FILE … [options]"
AS_CHOICES = ("cqels-brave", "cqels-cautious", "cqels-all")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("agree", help=HELP, description=HELP, usage=USAGE)
    g = option_groups(p, "input", "query", "semantics", "profile", "epsparql", "comparison", "output", "scale_out",
                      "robustness")
    g["input"].add_argument("query_file", nargs="?", metavar="QUERY",
                            help="one query: cs(QUERY) pulled against its CQELS counterpart pushed (--as)")
    g["input"].add_argument("--pull", metavar="QUERY_A", help="the query run pull-based with τ1 (C-SPARQL's dataset)")
    g["input"].add_argument("--push", metavar="QUERY_B",
                            help="the query run push-based with τ2 (CQELS's stream patterns)")
    add_data_options(g["input"], stream_required=True)
    g["input"].add_argument("--answers", action="append", metavar="FILE",
                            help="an engine's recorded output; twice: compare two outputs (docs/check.md)")
    from translator.cli.commands.live_engines import add_live_engine_options

    add_live_engine_options(g["input"], several=True)
    add_query_options(g["query"], epsparql=g["epsparql"])
    g["query"].add_argument("--as", dest="as_", choices=AS_CHOICES, metavar="VARIANT",
                            help="%(choices)s: the member of cq(Q) pushed (default: brave; all: one report each)")
    g["query"].add_argument("--assign", action="append", default=[], metavar="I=IRI",
                            help="for a C-SPARQL query pushed as cq(Q): triple pattern I (from 1) reads stream IRI "
                                 "(repeatable; default: read off the data)")
    g["semantics"].add_argument("--period", metavar="U",
                                help="pull period, e.g. 5m (default: the pull query's COMPUTED EVERY, else its "
                                     "window STEP)")
    add_window_bounds(g["semantics"])
    g["semantics"].add_argument("--unit", choices=UNITS, default="s", help="base time unit (D1; default: s)")
    add_profile_agreement_options(g["profile"])
    add_epsparql_options(g["epsparql"])
    g["comparison"].add_argument("--from", dest="start", type=int, metavar="T",
                                 help="judge the intervals from T (default 0)")
    g["comparison"].add_argument("--to", dest="end", type=int, metavar="T",
                                 help="judge the intervals up to T (default: the last pull time)")
    g["comparison"].add_argument("--other-window-bounds", choices=[*WINDOW_BOUNDS, "none"], metavar="B",
                                 help="repeat the runs under these bounds to tell their effect (default: left-open "
                                      "for closed, else closed; none: skip)")
    g["comparison"].add_argument("--compare", choices=["bags", "sets"], default=None, metavar="V",
                                 help="bags (default) or sets (pull vs push: sets)")
    g["comparison"].add_argument("--no-diagnosis", action="store_true",
                                 help="only the two headline runs: no cause analysis (faster)")
    g["comparison"].add_argument("--fail-on-disagree", action="store_true",
                                 help="exit 1 if any judged interval disagrees")
    g["output"].add_argument("--report", metavar="FILE.json", help="write the JSON report (docs/agreement-report.md)")
    g["output"].add_argument("--html", metavar="FILE.html", help="write the HTML report with the agreement plot")
    g["output"].add_argument("--max-rows", type=int, default=40, metavar="N",
                             help="rows of the table on stdout (default: 40)")
    add_engine_options(g["scale_out"])
    g["scale_out"].add_argument("--lars-engine", choices=["auto", "asp", "incremental"], default="auto",
                                metavar="ENGINE",
                                help="%(choices)s: the LARS engine of every run, sequential, --jobs or Spark "
                                     "(default auto: incremental for programs in its fragment, else clingo)")
    g["scale_out"].add_argument("--jobs", type=int, metavar="N",
                                help="processes solving blocks in parallel, sequential engine (default: up to 4 "
                                     "for 20,000 elements or more; 1: one process)")
    from translator.cli.commands.longrun import add_robustness_options, stop_cleanly

    add_robustness_options(g["robustness"], resume=False, memory=False)
    p.set_defaults(func=stop_cleanly(run))  # SIGINT/SIGTERM: no incomplete report (docs/robustness.md)


def run(args: argparse.Namespace) -> int:
    from translator.agreement import StreamInput, exit_code
    from translator.agreement.compare import Settings, compare, pull_period, static_default_triples
    from translator.agreement.report_html import write_html
    from translator.agreement.report_json import write_json
    from translator.agreement.table import render_table
    from translator.rdf.streams import parse_stream_spec

    from translator.evaluate.accounting import count_elements, new_accounting, print_summary

    if args.answers or args.live_engine:  # two engines' outputs (translator.cli.commands.agree_recorded)
        from translator.cli.commands.agree_recorded import run_recorded

        if args.live_engine:  # run live first (docs/engines.md)
            from translator.cli.commands.live_engines import agree_live

            return agree_live(args, run_recorded)
        return run_recorded(args)
    _check_arguments(args)
    if operational_requested(args) or given(args.r2s):  # real engines' answer streams (docs/check.md)
        return run_profile_agreement(args)
    from translator.rdf.streams import ElementList

    accounting = new_accounting(args.skip_bad_elements)
    elements, facts = read_data(args, accounting)
    import gc

    elements = ElementList(elements)  # its LARS stream and N-Triples texts are built once for every run
    comparisons = _comparisons(args, elements)
    gc.freeze()  # the data read stays to the end: the collector need not walk it again and again
    settings = Settings(
        period=pull_period(comparisons[0].pull_query, args.period, args.unit),
        unit=args.unit,
        window_bounds=args.window_bounds,
        other_window_bounds=args.other_window_bounds,
        diagnosis=not args.no_diagnosis,
        time_from=args.start,
        time_to=args.end,
        streams=tuple(StreamInput(*parse_stream_spec(s)) for s in args.stream),
        static=tuple(args.static),
        static_default_triples=static_default_triples(args.static),
        stream_triples=elements.nt_triples(),
    )
    code = EXIT_OK
    for k, comparison in enumerate(comparisons, start=1):
        push_events = None
        if comparison.push_query.dialect == "epsparql":  # complex events, pushed (docs/epsparql.md)
            push_events = _event_answers(args, comparison.push_query, elements)
        report = compare(comparison, elements, facts, settings, solve=_solver(args), push_events=push_events)
        if len(comparisons) > 1:
            print(f"== {k}/{len(comparisons)}: {comparison.label}")
        else:
            print(f"== {comparison.label}")
        sys.stdout.write(render_table(report, max_rows=args.max_rows))
        if args.report:
            path = _numbered(args.report, k, len(comparisons))
            write_json(report, path)
            print(f"JSON report: {path}")
        if args.html:
            path = _numbered(args.html, k, len(comparisons))
            write_html(report, path)
            print(f"HTML report: {path}")
        code = max(code, exit_code(report, fail_on_disagree=args.fail_on_disagree))
        sys.stdout.flush()
    last = args.end if args.end is not None else max((e.t for e in elements), default=None)
    count_elements(accounting, elements, last)
    print_summary(accounting)
    return code


def _solver(args: argparse.Namespace):
    """Sequential runs (in ``--jobs`` processes, block by block, when that pays off), or all
    programs in one Spark job with ``--engine spark`` (same answers); each run's LARS engine is
    ``--lars-engine``."""
    from translator.agreement.compare import solve_sequentially

    if args.engine != "spark":
        from spark_jobs.local import can_run_locally, default_jobs

        jobs = default_jobs() if args.jobs is None else args.jobs

        def solve_clingo(programs, elements, facts, end):
            if not can_run_locally(programs, elements, jobs):
                return solve_sequentially(programs, elements, facts, end, engine=args.lars_engine)
            from spark_jobs.local import solve_local
            from translator.agreement.compare import as_solutions

            rows = solve_local(programs, elements, facts, end=end, jobs=jobs, engine=args.lars_engine)
            return {label: as_solutions(programs[label].variables, rows[label].items()) for label in programs}

        return solve_clingo

    def solve(programs, elements, facts, end):
        from spark_jobs.runs import run_agreement_spark
        from translator.cli.commands.engine_options import spark_options

        return run_agreement_spark(programs, elements, facts, end=end, spark=spark_options(args),
                                   engine=args.lars_engine).answers

    return solve


# ----------------------------------------------------------------------------------- the queries


def _check_arguments(args: argparse.Namespace) -> None:
    if args.query_file is not None and (args.pull or args.push):
        raise RsplarsError("give either one QUERY or --pull QUERY_A --push QUERY_B, not both")
    if args.query_file is None and not (args.pull and args.push):
        raise RsplarsError("give one QUERY, or both --pull QUERY_A and --push QUERY_B")
    if args.start is not None and args.start < 0:
        raise RsplarsError(f"--from {args.start} is negative")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.max_rows < 1:
        raise RsplarsError("--max-rows must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise RsplarsError(f"--jobs must be at least 1, got {args.jobs}")
    if args.compare == "bags" and not (operational_requested(args) or given(args.r2s)):
        raise RsplarsError("--compare bags: the agreement of a pull and a push run is defined over sets of solutions "
                           "(Dao-Tran, Beck, Eiter 2015, §5: the union of the push answers in an interval against the "
                           "pull answer, a solution reported at several times counting once); compare multiplicities "
                           "with --answers A --answers B, with the operational options, or with rsplars check")


def _comparisons(args: argparse.Namespace, elements) -> list:
    """The headline pairs: (QUERY_A, QUERY_B) or (cs(Q), member of cq(Q)) for each ``--as`` variant."""
    from translator.agreement.compare import Comparison

    if args.query_file is not None:
        query = parse_query(args, args.query_file)
        if query.dialect == "epsparql":
            raise RsplarsError("an EP-SPARQL query has no CQELS counterpart: compare it with a C-SPARQL or "
                               "CQELS query, --pull QUERY_A --push EP_QUERY")
        as_ = args.as_ or "cqels-brave"
        return [
            Comparison(f"cs(Q) pulled (τ1) vs {label} pushed (τ2)", query, member, args.query_file,
                       args.query_file, as_)
            for label, member in _cq_members(args, query, as_, elements)
        ]
    pull_query = parse_query(args, args.pull)
    push_query = parse_query(args, args.push)
    if pull_query.dialect == "epsparql":
        raise RsplarsError("an EP-SPARQL query is push-evaluated (on every event): give it as --push")
    if push_query.dialect == "epsparql":
        return [Comparison("QUERY_A pulled (τ1) vs EP-SPARQL QUERY_B pushed (complex events)", pull_query,
                           push_query, args.pull, args.push, "two-queries")]
    if push_query.dataset.streams:  # C-SPARQL: τ2 needs its CQELS counterpart
        as_ = args.as_ or "cqels-brave"
        members = _cq_members(args, push_query, as_, elements)
        return [Comparison(f"QUERY_A pulled (τ1) vs {label} of QUERY_B pushed (τ2)", pull_query, member,
                           args.pull, args.push, "two-queries") for label, member in members]
    if args.as_ not in (None, "cqels-brave"):
        from translator.translate.compile import counterparts

        return [Comparison(f"QUERY_A pulled (τ1) vs {label} of QUERY_B pushed (τ2)", pull_query, member,
                           args.pull, args.push, "two-queries")
                for label, member in counterparts(push_query, args.as_)]
    return [Comparison("QUERY_A pulled (τ1) vs QUERY_B pushed (τ2)", pull_query, push_query, args.pull, args.push,
                       "two-queries")]


def _cq_members(args: argparse.Namespace, query, as_: str, elements):
    from translator.cli.commands.common import assignment_from
    from translator.translate.compile import counterparts

    assignment = assignment_from(args, query, elements) if query.dialect == "csparql" else None
    return counterparts(query, as_, assignment)


def _event_answers(args: argparse.Namespace, query, elements) -> dict:
    """The complex events of an EP-SPARQL push query at every event time, as agreement solutions
    (``translator.cli.commands.epsparql_cmd.push_answers``)."""
    from translator.cli.commands.epsparql_cmd import push_answers

    return push_answers(args, query, elements, end=args.end)


def _numbered(path: str, k: int, total: int) -> str:
    """``path`` itself for one report; ``name.K.ext`` for report K of several (``--as cqels-all``)."""
    if total == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}.{k}{ext}"
