"""``rsplars check QUERY --stream IRI=FILE … --answers FILE --profile NAME``: is an engine's recorded
output correct? (Dell'Aglio et al. 2014, Defs. 25–26; the CSRBench oracle of Dell'Aglio et al. 2013, §6;
:mod:`translator.agreement.check`).

Exit code 0 when the output is correct, 1 when it is not, 2 on bad input. ``--json`` writes the
report (top-level ``"correct"``, the t0 values tried, the first mismatching relation with a
diagnosis); ``--html`` the expected vs actual timeline (docs/check.md).
"""

from __future__ import annotations

import argparse

from lars.errors import RsplarsError
from translator.exits import EXIT_FAILURE, EXIT_OK
from translator.cli.commands.cache_option import add_cache_option
from dataclasses import replace

from translator.cli.commands.common import (
    UNITS,
    add_data_options,
    add_query_options,
    add_translation_options,
    data_arguments,
    option_groups,
    parsed_query,
    print_note,
    read_text,
    translation_options,
)
from translator.cli.commands.operational_options import (
    add_operational_options,
    apply_dialect_defaults,
    profile_options,
    window_bounds_given,
)
from translator.options import ProfileOptions, TranslationOptions
from translator.translate.variants import check_stream_iris

HELP = "judge a real engine's recorded output against the query's expected outputs under an engine profile"


USAGE = "rsplars check QUERY --stream IRI=FILE … --answers FILE --profile NAME [options]"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("check", help=HELP, description=HELP + " (exit 0 correct, 1 incorrect, 2 bad input)",
                              usage=USAGE)
    g = option_groups(p, "input", "query", "semantics", "profile", "epsparql", "comparison", "output", "scale_out",
                      "robustness")
    g["input"].add_argument("query_file", metavar="QUERY", nargs="?",
                            help="query file (C-SPARQL, CQELS-QL, RSP-QL, EP-SPARQL, RSEP-QL), or - for stdin")
    add_data_options(g["input"], stream_required=False)
    g["input"].add_argument("--answers", action="append", metavar="FILE",
                            help="the engine's output (see --answers-format); repeated: one verdict per file")
    g["input"].add_argument("--batch", metavar="FILE",
                            help="one check per line of FILE (its arguments; # comments; docs/spark_jobs.md)")
    g["input"].add_argument("--answers-format", choices=["auto", "csrbench", "csrbench-2023", "sparql-json", "jsonl",
                                                         "csv", "tsv", "yasper", "csparql-console"],
                            default="auto", metavar="F",
                            help="%(choices)s (default auto: by content, said on stderr)")
    g["input"].add_argument("--answers-time-column", metavar="NAME",
                            help="CSV/TSV answers: the timestamp column (default: t, timestamp, time or ts)")
    g["input"].add_argument("--answers-time-unit", choices=UNITS, metavar="U",
                            help="unit of the answers' timestamps (default: --unit)")
    from translator.cli.commands.live_engines import add_live_engine_options

    add_live_engine_options(g["input"], several=False)
    add_query_options(g["query"], epsparql=g["epsparql"])
    add_translation_options(g["semantics"], mode=False, query=g["query"])
    add_operational_options(g["profile"])
    g["comparison"].add_argument("--registration", type=int, default=0, metavar="A",
                                 help="registration time: t0 candidates start there (Def. 25; default 0)")
    g["comparison"].add_argument("--warm-up", type=int, metavar="T",
                                 help="compare from T on only (Dell'Aglio et al. 2014, Def. 26)")
    g["comparison"].add_argument("--to", dest="end", type=int, metavar="T",
                                 help="compare up to T (default: until every window holding data has closed)")
    g["comparison"].add_argument("--ignore-timestamps", action="store_true",
                                 help="as the CSRBench oracle: the relations in order, a contiguous part of the "
                                      "expected ones, timestamps ignored")
    g["comparison"].add_argument("--compare", choices=["bags", "sets"], default="bags", metavar="V",
                                 help="relations as bags (default: counts must match) or sets (docs/check.md)")
    g["comparison"].add_argument("--max-candidates", type=int, default=2000, metavar="N",
                                 help="limit on t0 vectors (default 2000)")
    inference = p.add_argument_group("profile inference (docs/check.md)")
    inference.add_argument("--infer", action="store_true",
                           help="search t0, report policy, tick, R2S, window bounds, empty relations (options "
                                "given fix theirs; exit 0: some setting explains the output)")
    inference.add_argument("--max-tuple-evaluations", type=int, default=1000, metavar="N",
                           help="tuple tick under content change: up to N partial instants (default 1000)")
    g["output"].add_argument("--json", metavar="REPORT.json", help="write the JSON report")
    g["output"].add_argument("--html", metavar="REPORT.html", help="write the HTML report (expected vs actual timeline)")
    g["scale_out"].add_argument("--lars-engine", choices=["auto", "asp", "incremental"], default="auto",
                                metavar="ENGINE",
                                help="%(choices)s: the LARS engine of the expected outputs' runs (default auto: "
                                     "incremental for programs in its fragment, else clingo)")
    from translator.cli.commands.longrun import add_robustness_options, stop_cleanly

    add_robustness_options(g["robustness"], resume=False, memory=False)
    from translator.cli.commands.engine_options import add_engine_options

    add_engine_options(g["scale_out"], parquet=False,
                       engine_help="sequential (default) or spark: the verdicts of --answers … / --batch judged in "
                                   "parallel, one Spark task each (docs/spark_jobs.md)")
    p.set_defaults(func=stop_cleanly(run))  # SIGINT/SIGTERM: no incomplete report (docs/robustness.md)


def run(args: argparse.Namespace) -> int:
    """One verdict; several (``--answers`` repeated, ``--batch``, ``--engine spark``): :func:`run_many`."""
    if args.live_engine:  # run the engine, then judge its output as a recorded one (docs/engines.md)
        from translator.cli.commands.live_engines import check_live

        return check_live(args, run_one)
    answers = args.answers or []
    if args.batch is not None or len(answers) != 1 or args.engine == "spark":
        return run_many(args)
    args.answers = answers[0]
    return run_one(args)


def run_one(args: argparse.Namespace) -> int:
    """The verdict on one answers file (``args.answers``: its path), by :func:`rsplars.check` (or
    :func:`rsplars.infer` with ``--infer``)."""
    import rsplars
    from translator.evaluate.accounting import new_accounting, print_summary

    if args.query_file is None or not args.stream:
        raise RsplarsError("check needs QUERY, --stream IRI=FILE and --answers FILE (see rsplars check --help)")
    if args.as_ == "cqels-all":
        raise RsplarsError("--as cqels-all gives several queries; check them one by one (cqels-brave, cqels-cautious)")
    query = parsed_query(args, args.query_file)
    if query.dialect in ("epsparql", "rsepql"):  # complex events, judged as bags (docs/epsparql.md)
        from translator.cli.commands.event_check import check_events

        return check_events(args, query)
    data = data_arguments(args)
    check_stream_iris(query, list(data["streams"]), [])  # a wrong --stream named first; the notes: the API's
    accounting = new_accounting(args.skip_bad_elements)
    common = dict(registration=args.registration, warm_up=args.warm_up, end=args.end,
                  ignore_timestamps=args.ignore_timestamps, max_candidates=args.max_candidates,
                  answers_format=args.answers_format, answers_time_column=args.answers_time_column,
                  answers_time_unit=args.answers_time_unit, lars_engine=args.lars_engine, compare=args.compare,
                  accounting=accounting, on_note=print_note, **data)
    if args.infer:
        inferred = rsplars.infer(query, args.answers, fixed=inference_fixed(args),
                                 options=_translation(args, window_bounds_given(args)),
                                 max_tuple_evaluations=args.max_tuple_evaluations, **common)
        inferred.write(args.json, args.html)
        print(inference_summary(inferred))
        print_summary(accounting)
        return EXIT_OK if inferred.explained else EXIT_FAILURE
    apply_dialect_defaults(args, query)  # RSP-QL: the rsp-ql profile and the registration's R2S, as `run`
    if args.profile is None and args.report_policy is None:
        raise RsplarsError("check needs the engine's profile (--profile NAME, see `rsplars profiles`) or at least "
                           "its report policy (--report …)")
    result = rsplars.check(query, args.answers, profile=profile_options(args),
                           options=_translation(args, window_bounds_given(args)), **common)
    if getattr(args, "live", None):  # the live run judged (check_live)
        result = replace(result, report={**result.report, "live_engine": args.live})
    result.write(args.json, args.html)
    print(result.summary())
    print_summary(accounting)  # nothing lost silently (docs/robustness.md)
    return EXIT_OK if result.correct else EXIT_FAILURE


def _translation(args: argparse.Namespace, window_bounds: str | None) -> TranslationOptions:
    """The translation options of a check: which query (``--as``, ``--assign``, ``--strategy``), the
    window bounds given, the unit."""
    return replace(translation_options(args), window_bounds=window_bounds)


def inference_fixed(args: argparse.Namespace) -> ProfileOptions:
    """``--infer``: the parameters given on the command line are fixed (:func:`rsplars.infer`'s
    ``fixed``); ``--profile`` fixes nothing (the report says whether it explains the output)."""
    if args.report_period is not None or args.report_window is not None:
        raise RsplarsError("--infer searches the periodic strategy with the window's slide and every window "
                           "reporting; --report-period and --report-window are not searched")
    return profile_options(args)


def inference_summary(result) -> str:
    """What ``check --infer`` prints: the settings that explain the output, and whether ``--profile`` does."""
    report = result.report
    lines = result.describe()
    if "note" in report:
        lines.append(f"note: {report['note']}")
    if "profile" in report:
        profile = report["profile"]
        lines.append(f"profile {profile}: " + (
            "explains the output" if report["profile_explains"] else
            "its time-tick variant does not explain the output (its tuple tick was not searched)"
            if result.profile_untested else "does not explain the output"))
    return "\n".join(lines)


def run_many(args: argparse.Namespace) -> int:
    """Several verdicts: one per ``--answers`` file, or per line of ``--batch FILE``; judged in this
    process or in parallel on Spark (``spark_jobs.check_job``). Each item's output is what ``rsplars
    check`` prints for it alone, after a line ``== check K/N: …`` when there are several; ``--json`` and
    ``--html`` of the command line get the item's number (``r.json`` → ``r.2.json``). Exit code: the
    highest of the items' (0 correct, 1 incorrect, 2 bad input)."""
    import sys

    from spark_jobs.check_job import judge_in_order, judge_on_spark

    if args.batch is not None and (args.query_file is not None or args.answers):
        raise RsplarsError("give either QUERY --answers FILE … or --batch FILE, not both")
    items = batch_items(args.batch) if args.batch is not None else []
    if args.batch is None:
        if args.query_file is None or not args.answers:
            raise RsplarsError("check needs QUERY and --answers FILE (repeat --answers for several), or --batch FILE")
        items = expand_answers(args)
    if args.engine == "spark":
        outcomes = judge_on_spark(items, judge_item, master=args.master, partitions=args.partitions)
    else:
        outcomes = judge_in_order(items, judge_item)
    for k, (item, outcome) in enumerate(zip(items, outcomes), start=1):
        if len(items) > 1:
            print(f"== check {k}/{len(items)}: {item_label(item)}", flush=True)
        sys.stdout.write(outcome.out)
        sys.stdout.flush()
        sys.stderr.write(outcome.err)
    return max((o.code for o in outcomes), default=EXIT_OK)


def expand_answers(args: argparse.Namespace) -> list[argparse.Namespace]:
    """One item per ``--answers`` file, judged sequentially (``--json``/``--html`` numbered)."""
    import copy

    out = []
    for k, path in enumerate(args.answers, start=1):
        item = copy.copy(args)
        item.answers, item.batch, item.engine = [path], None, "sequential"
        item.json, item.html = (_numbered(x, k, len(args.answers)) for x in (args.json, args.html))
        vars(item).pop("func", None)  # the command's wrapper: items are judged by judge_item
        out.append(item)
    return out


def batch_items(path: str) -> list[argparse.Namespace]:
    """The items of a batch file: each non-empty line not starting with ``#`` holds the arguments of
    one ``rsplars check`` (shell quoting, paths as from the current directory); a line that is not
    is a located error FILE:LINE:1."""
    import contextlib
    import io
    import shlex

    from lars.errors import SourceError
    text, source = read_text(path, "batch")
    parser = argparse.ArgumentParser(prog="rsplars")
    commands = parser.add_subparsers(dest="command")
    add_parser(commands)
    add_cache_option(commands.choices["check"])
    items: list[argparse.Namespace] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(line)
        except ValueError as err:
            raise SourceError(f"not a command line: {err}", source=source, line=number, column=1, text=text) from None
        said = io.StringIO()
        try:
            with contextlib.redirect_stderr(said):
                item = parser.parse_args(["check", *words])
        except SystemExit:
            message = said.getvalue().strip().splitlines()[-1] if said.getvalue().strip() else "bad arguments"
            raise SourceError(f"not the arguments of rsplars check: {message.split(': error: ')[-1]}",
                              source=source, line=number, column=1, text=text) from None
        if item.batch is not None or item.engine != "sequential":
            raise SourceError("a batch line is one check: no --batch or --engine in it", source=source, line=number,
                              column=1, text=text)
        if item.query_file is None or not item.answers:
            raise SourceError("a batch line needs QUERY and --answers FILE", source=source, line=number, column=1,
                              text=text)
        items.extend(expand_answers(item))
    return items


def item_label(item: argparse.Namespace) -> str:
    answers = item.answers[0] if isinstance(item.answers, list) else item.answers
    profile = f" --profile {item.profile}" if item.profile else ""
    t0 = f" --t0 {item.t0}" if getattr(item, "t0", None) is not None else ""
    return f"{item.query_file} --answers {answers}{profile}{t0}"


def judge_item(item: argparse.Namespace):
    """One item's ``rsplars check``, its output captured (``spark_jobs.check_job.Outcome``): what a
    Spark task runs, and the sequential loop. User errors print and return as in ``rsplars`` itself."""
    import contextlib
    import copy
    import io

    from translator import cache
    from spark_jobs.check_job import Outcome
    from translator.exits import report_error

    item = copy.copy(item)
    item.answers = item.answers[0] if isinstance(item.answers, list) else item.answers
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            with cache.enabled(not item.no_cache):
                code = int(run_one(item))
        except RsplarsError as error:
            code = report_error(error)
    return Outcome(code, out.getvalue(), err.getvalue())


def _numbered(path: str | None, k: int, total: int) -> str | None:
    """``path`` itself for one item; ``name.K.ext`` for item K of several."""
    import os

    if path is None or total == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}.{k}{ext}"


def summary(report: dict) -> str:
    """The lines ``rsplars check`` prints (:func:`translator.agreement.check_text.render_summary`)."""
    from translator.agreement.check_text import render_summary

    return render_summary(report)
