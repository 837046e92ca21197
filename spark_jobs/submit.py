"""``spark-submit`` entry point: ``rsplars run`` and an agreement run on a Spark cluster, unchanged.

    spark-submit --master spark://HOST:7077 --py-files rsplars.zip spark_jobs/submit.py \\
        run QUERY --stream IRI=FILE … [--partitions N] [--parquet DIR] [--output FILE]
    spark-submit … spark_jobs/submit.py agree PULL_QUERY PUSH_QUERY --stream IRI=FILE … \\
        [--diagnose] [--json REPORT.json] [--parquet DIR]

Locally (no ``spark-submit``): ``python -m spark_jobs.submit run …`` (``--master local[*]`` by
default). The options are those of ``rsplars run`` (built by ``translator.cli.commands.common``) plus
the engine options of :func:`spark_jobs.cli.add_engine_options` (``--engine`` defaults to ``spark``
here) and ``--elements PATH``: a Parquet or CSV dataset of ``time, stream, s, p, o`` (N-Triples
terms) read by Spark itself, for streams too large for the driver. ``agree`` judges the pull run of
the first query against the push run of the second on every interval ``[i·U, (i+1)·U]`` (Dao-Tran,
Beck, Eiter 2015, §5) and prints the agreement table; ``--json`` writes the JSON report of
``docs/agreement-report.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

if __package__ in (None, ""):  # run as a file (spark-submit spark_jobs/submit.py): the repository on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lars.errors import RsplarsError
from translator.cli.errors import EXIT_OK
from spark_jobs.options import add_engine_options
from translator.cli.commands.common import (
    add_data_options,
    add_query_options,
    add_translation_options,
    output,
    parse_query,
    read_data,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spark_jobs/submit.py",
                                     description="rsplars run / agree on Spark (partitioned by pull period)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = sub.add_parser("run", help="answer a query over RDF streams (as rsplars run)")
    run.add_argument("query_file", metavar="QUERY")
    _common(run)
    add_translation_options(run)
    run.add_argument("--r2s", choices=["rstream", "istream", "dstream"], default="rstream")
    run.add_argument("--format", choices=["jsonl", "csv", "sparql-json"], default="jsonl")
    run.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    run.set_defaults(func=run_command)

    agree = sub.add_parser("agree", help="judge the pull run of PULL_QUERY against the push run of PUSH_QUERY")
    agree.add_argument("pull_query", metavar="PULL_QUERY")
    agree.add_argument("push_query", metavar="PUSH_QUERY")
    _common(agree)
    add_translation_options(agree, mode=False)
    agree.add_argument("--period", metavar="DUR", help="pull period (default: the pull query's COMPUTED EVERY / STEP)")
    agree.add_argument("--diagnose", action="store_true",
                       help="also run the push query pull-based and tell the causes of disagreement "
                            "(Dao-Tran, Beck, Eiter 2015, §5)")
    agree.add_argument("--json", metavar="FILE", help="write the JSON agreement report to FILE")
    agree.set_defaults(func=agree_command)
    return parser


def _common(p: argparse.ArgumentParser) -> None:
    add_query_options(p)
    add_data_options(p, stream_required=False)
    p.add_argument("--elements", metavar="PATH",
                   help="Parquet or CSV dataset of time, stream, s, p, o (N-Triples terms) instead of --stream")
    p.add_argument("--from", dest="start", type=int, metavar="T")
    p.add_argument("--to", dest="end", type=int, metavar="T")
    add_engine_options(p)
    p.set_defaults(engine="spark")


def _inputs(args: argparse.Namespace, spark):
    """(elements: list or DataFrame, static facts)."""
    if bool(args.stream) == bool(args.elements):
        raise RsplarsError("give the input as --stream IRI=FILE … or as --elements PATH (one of them)")
    if args.elements:
        from spark_jobs.frames import read_elements
        from translator.rdf.static import load_dataset, static_facts
        from translator.rdf.streams import parse_stream_spec

        named = dict(parse_stream_spec(s) for s in args.named)
        facts = static_facts(load_dataset(args.static, named)) if (args.static or named) else ()
        if spark is None:
            raise RsplarsError("--elements needs --engine spark")
        from spark_jobs.elements import check_elements_file

        checked = check_elements_file(args.elements)  # a local file: every row checked, errors located
        if checked is not None:
            print(f"rsplars: stream elements: {len(checked)} read and checked in {args.elements}", file=sys.stderr)
        return read_elements(spark, args.elements), facts
    return read_data(args)


def run_command(args: argparse.Namespace) -> int:
    from spark_jobs.cli import run_answers_spark, start_spark
    from translator.cli.commands.common import compile_variants
    from translator.evaluate.writers import WRITERS
    from translator.evaluate.run import answers

    query = parse_query(args, args.query_file)
    spark = start_spark(args.master) if args.engine == "spark" else None
    elements, facts = _inputs(args, spark)
    ((_, compiled),) = compile_variants(args, query, elements if isinstance(elements, list) else ())
    if spark is None:
        evaluations = answers(compiled, elements, facts, start=args.start, end=args.end, r2s=args.r2s)
    else:
        evaluations = run_answers_spark(compiled, elements, facts, args.start, args.end, args.r2s, args.master,
                                        args.partitions, parquet=args.parquet)
    with output(args.output) as out:
        write = WRITERS[args.format](out, compiled)
        for ev in evaluations:
            write(ev)
    return EXIT_OK


def agree_command(args: argparse.Namespace) -> int:
    from spark_jobs.cli import run_agreement_spark, start_spark
    from translator.agreement import QueryInput, ReportInputs, StreamInput, analyse
    from translator.agreement.report_json import write_json
    from translator.agreement.table import render_table
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase
    from translator.rdf.streams import parse_stream_spec
    from translator.rdf.timeunits import duration_in_base_units

    if args.as_:
        raise RsplarsError("--as is not supported by submit.py agree: give the pull and the push query")
    pull_q = parse_query(args, args.pull_query)
    push_q = parse_query(args, args.push_query)
    base = TimeBase(args.unit)
    period = duration_in_base_units(args.period, args.unit) if args.period else None
    options = dict(bounds=args.window_bounds, base=base)
    pull = compile_query(pull_q, strategy=args.strategy, mode="pull", period=period, **options)
    runs = {
        "tau1_pull": pull,
        "tau2_push": compile_query(push_q, strategy=args.strategy, mode="push", **options),
    }
    if args.diagnose:
        runs["tau2_pull"] = compile_query(push_q, strategy=args.strategy, mode="pull", period=pull.period, **options)
    spark = start_spark(args.master)
    elements, facts = _inputs(args, spark)
    result = run_agreement_spark(runs, elements, facts, args.start, args.end, args.master, args.partitions,
                                 parquet=args.parquet)
    inputs = ReportInputs(
        queries=(QueryInput("pull", args.pull_query, pull_q.dialect, pull.strategy),
                 QueryInput("push", args.push_query, push_q.dialect, runs["tau2_push"].strategy)),
        streams=tuple(StreamInput(*parse_stream_spec(s)) for s in args.stream),
        period=pull.period,  # type: ignore[arg-type]
        window_bounds=args.window_bounds,
        static=tuple(args.static),
        time_from=args.start,
        time_to=args.end,
        time_unit=args.unit,
    )
    report = analyse(inputs, result.answers["tau1_pull"], result.answers["tau2_push"],
                     tau2_pull=result.answers.get("tau2_pull"))
    print(render_table(report), end="")
    if args.json:
        write_json(report, args.json)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    from spark_jobs.cli import user_errors

    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        with user_errors():
            return int(args.func(args))
    except RsplarsError as err:
        from translator.cli.errors import report_error

        return report_error(err)


if __name__ == "__main__":
    sys.exit(main())
