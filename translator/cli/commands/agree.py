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

from lars.errors import RsplarsError
from translator.cli.commands.engine_options import add_engine_options
from translator.exits import EXIT_OK
from translator.cli.commands.common import (
    UNITS,
    add_data_options,
    add_query_options,
    add_window_bounds,
    data_arguments,
    option_groups,
    parsed_query,
    print_note,
    translation_options,
)
from translator.cli.commands.epsparql_cmd import add_epsparql_options
from translator.cli.commands.operational_options import (
    add_profile_agreement_options,
    given,
    operational_requested,
    profile_options,
    window_bounds_given,
)
from lars.windows import WINDOW_BOUNDS

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
    """The agreements of :func:`rsplars.agreements` (one per ``--as`` member), each printed as a table
    and written as ``--report``/``--html``; recorded outputs, live engines and the operational
    options go to their own paths."""
    import rsplars
    from translator.agreement import exit_code
    from translator.evaluate.accounting import new_accounting, print_summary
    from translator.options import EventOptions

    if args.answers or args.live_engine:  # two engines' outputs (translator.cli.commands.agree_recorded)
        from translator.cli.commands.agree_recorded import run_recorded

        if args.live_engine:  # run live first (docs/engines.md)
            from translator.cli.commands.live_engines import agree_live

            return agree_live(args, run_recorded)
        return run_recorded(args)
    _check_arguments(args)
    if operational_requested(args) or given(args.r2s):  # real engines' answer streams (docs/check.md)
        return run_profile_agreement(args)
    queries = ({"query": parsed_query(args, args.query_file)} if args.query_file is not None else
               {"pull": parsed_query(args, args.pull), "push": parsed_query(args, args.push)})
    if "query" in queries and queries["query"].dialect == "epsparql":
        raise RsplarsError("an EP-SPARQL query has no CQELS counterpart: compare it with a C-SPARQL or "
                           "CQELS query, --pull QUERY_A --push EP_QUERY")
    if "pull" in queries and queries["pull"].dialect == "epsparql":
        raise RsplarsError("an EP-SPARQL query is push-evaluated (on every event): give it as --push")
    accounting = new_accounting(args.skip_bad_elements)
    results = rsplars.agreements(
        **queries, **data_arguments(args), as_variant=args.as_ or "cqels-brave",
        assign=translation_options(args).assign, period=args.period, unit=args.unit,
        window_bounds=args.window_bounds, other_window_bounds=args.other_window_bounds,
        diagnosis=not args.no_diagnosis, start=args.start, end=args.end,
        events=EventOptions(args.selection, args.consumption, args.policy_reading), lars_engine=args.lars_engine,
        solve=_solver(args), find_events=_event_finder(args, queries.get("push")), accounting=accounting, freeze_data=True,
        on_note=print_note)
    total = len(results)
    code = EXIT_OK
    for k, result in enumerate(results, start=1):
        print(f"== {k}/{total}: {result.label}" if total > 1 else f"== {result.label}")
        sys.stdout.write(result.table(max_rows=args.max_rows))
        if args.report:
            path = _numbered(args.report, k, total)
            result.write(json=path)
            print(f"JSON report: {path}")
        if args.html:
            path = _numbered(args.html, k, total)
            result.write(html=path)
            print(f"HTML report: {path}")
        code = max(code, exit_code(result.report, fail_on_disagree=args.fail_on_disagree))
        sys.stdout.flush()
    print_summary(accounting)
    return code


def run_profile_agreement(args: argparse.Namespace) -> int:
    """``agree`` under operational options: the answer streams of two profiles (``--profiles A,B``), or
    of two queries under one (``--profile X`` / the options), by :func:`rsplars.agree_profiles`."""
    import json

    import rsplars
    from translator.exits import EXIT_FAILURE
    from translator.evaluate.accounting import new_accounting, print_summary

    if getattr(args, "period", None):
        raise RsplarsError("--period and the operational options exclude each other: the report policy decides "
                           "when the query is evaluated")
    names, sides = profile_sides(args)
    query_a = parsed_query(args, args.query_file or args.pull)
    query_b = None if args.query_file else parsed_query(args, args.push)
    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    result = rsplars.agree_profiles(query_a, query_b, **data_arguments(args), profiles=sides, labels=names,
                                    window_bounds=window_bounds_given(args), unit=args.unit, start=args.start,
                                    end=args.end, compare=args.compare or "bags", lars_engine=args.lars_engine,
                                    accounting=accounting)
    report = result.report
    a, b = names
    print(f"{a} vs {b}: " + ("the answer streams are equal" if report["equal"] else
                               f"the answer streams differ, first at t = {report['first_difference']}")
          + f" (relations compared as {report['compare']})")
    for row in report["timeline"][: args.max_rows]:
        mark = "=" if row["equal"] else "≠"
        print(f"  {row['t']:>6} {mark} {a}: {json.dumps(row['a'], ensure_ascii=False)}  "
              f"{b}: {json.dumps(row['b'], ensure_ascii=False)}")
    for x, y, key in ((a, b, "a_correct_under_b"), (b, a, "b_correct_under_a")):
        if report[key] is not None:
            verdict = "is a correct" if report[key] else "is no correct"
            print(f"{x}'s output {verdict} {y} output for {'some' if report[key] else 'any'} t0 (as rsplars check judges)")
    result.write(args.report)
    sys.stdout.flush()
    print_summary(accounting)  # nothing lost silently (docs/robustness.md)
    return EXIT_FAILURE if args.fail_on_disagree and not result.equal else EXIT_OK


def profile_sides(args: argparse.Namespace) -> tuple[tuple[str, str], tuple]:
    """The two sides an ``agree`` under operational options compares: their labels and their
    :class:`~translator.options.ProfileOptions` (the profiles of ``--profiles A,B``, or ``--profile X`` /
    the defaults on both sides), each with the explicit options applied."""
    if args.profiles is not None:
        if args.profile is not None:
            raise RsplarsError("give --profiles A,B (two engines) or --profile X (one engine, two queries), not both")
        names = [n.strip() for n in args.profiles.split(",")]
        if len(names) != 2 or not all(names):
            raise RsplarsError(f"--profiles: expected two profiles A,B, got {args.profiles!r}")
        return (names[0], names[1]), tuple(profile_options(args, profile=n) for n in names)
    if args.query_file is not None:
        raise RsplarsError("with one QUERY the operational options compare two engines: give --profiles A,B "
                           "(or two queries, --pull QUERY_A --push QUERY_B, under one --profile)")
    side = profile_options(args)
    label = args.profile or "options"
    return (f"{label} (QUERY_A)", f"{label} (QUERY_B)"), (side, side)


def _event_finder(args: argparse.Namespace, push):
    """With ``--engine spark`` and an EP-SPARQL push query: its complex events found on Spark, in
    blocks with look-back (docs/spark_jobs.md); else ``None`` (in this process)."""
    if args.engine != "spark" or push is None or push.dialect != "epsparql":
        return None
    from spark_jobs.epsparql_job import event_answers_spark, refuse_policy

    refuse_policy(args.selection, args.consumption)

    def find(compiled, elements, end):
        return event_answers_spark(compiled, elements, start=None, end=end, engine=args.lars_engine,
                                   master=args.master, partitions=args.partitions)

    return find


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


def _numbered(path: str, k: int, total: int) -> str:
    """``path`` itself for one report; ``name.K.ext`` for report K of several (``--as cqels-all``)."""
    if total == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}.{k}{ext}"
