"""``spark-submit`` entry point: ``rsplars run`` and an agreement run on a Spark cluster, unchanged.

    spark-submit --master spark://HOST:7077 --py-files rsplars.zip spark_jobs/submit.py \\
        run QUERY --stream IRI=FILE … [--partitions N] [--parquet DIR] [--output FILE]
    spark-submit … spark_jobs/submit.py agree PULL_QUERY PUSH_QUERY --stream IRI=FILE … \\
        [--diagnose] [--json REPORT.json] [--parquet DIR]

Locally (no ``spark-submit``): ``python -m spark_jobs.submit run …`` (``--master local[*]`` by
default). The options are those of ``rsplars run`` for the query, the data and the translation, plus
the engine options (``--engine`` defaults to ``spark`` here, ``--master``, ``--partitions``,
``--parquet``) and ``--elements PATH``: a Parquet or CSV dataset of ``time, stream, s, p, o``
(N-Triples terms) read by Spark itself, for streams too large for the driver. ``agree`` judges the
pull run of the first query against the push run of the second on every interval ``[i·U, (i+1)·U]``
(Dao-Tran, Beck, Eiter 2015, §5) and prints the agreement table; ``--json`` writes the JSON report of
``docs/agreement-report.md``. ``spark-env --build-dir DIR`` builds what a cluster's workers need
(:mod:`spark_jobs.shipping`, ``make spark-env``).

:func:`main` only reads the command line: it builds the typed requests (:class:`QueryFile`,
:class:`DataFiles`, :class:`~translator.options.TranslationOptions`,
:class:`~spark_jobs.options.SparkOptions`) and calls :func:`run_job` or :func:`agree_job`, which
call :func:`spark_jobs.runs.run_answers_spark` and :func:`spark_jobs.runs.run_agreement_spark`, as
``rsplars run|agree --engine spark`` and ``rsplars.run|agree(..., engine="spark")`` do.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if __package__ in (None, ""):  # run as a file (spark-submit spark_jobs/submit.py): the repository on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lars.errors import RsplarsError
from translator.exits import EXIT_OK
from spark_jobs.options import DEFAULT_MASTER, ENGINES, SparkOptions
from translator.options import TranslationOptions

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from pyspark.sql import DataFrame

    from translator.query.model import Query
    from translator.rdf.streams import StreamElement

UNITS = ("ms", "s", "m", "h", "d")
R2S_OPERATORS = ("rstream", "istream", "dstream")
FORMATS = ("jsonl", "csv", "sparql-json")


@dataclass(frozen=True)
class QueryFile:
    """A query file (``-``: standard input) and how it is read: ``dialect`` (``auto``: detected),
    ``lenient`` (the papers' printed quirks), ``bare_ns`` (EP-SPARQL: the namespace of bare names)."""

    path: str
    dialect: str = "auto"
    lenient: bool = False
    bare_ns: str | None = None


@dataclass(frozen=True)
class DataFiles:
    """The data of a job: stream files (IRI → file), or ``elements``, a Parquet or CSV dataset of
    ``time, stream, s, p, o`` read by Spark; static RDF files of the default graph, named graphs (IRI →
    file) and ``static_during`` pieces ``(start, end, file)`` of a time-varying static graph;
    ``stream_time_unit`` and ``epoch``: how stream files' timestamps read (docs/rdf-io.md)."""

    streams: Mapping[str, str] = field(default_factory=dict)
    elements: str | None = None
    static: tuple[str, ...] = ()
    named: Mapping[str, str] = field(default_factory=dict)
    static_during: tuple[tuple[int | None, int | None, str], ...] = ()
    stream_time_unit: str | None = None
    epoch: str | None = None


def read_query(query: QueryFile) -> "Query":
    """The parsed query; the detected dialect and the parser's notes go to stderr."""
    from translator.query.parse import detect, parse

    text, source = _read_text(query.path)
    dialect = query.dialect
    if dialect == "auto":
        dialect, reason = detect(text, source)
        print(f"rsplars: dialect: {dialect} ({reason})", file=sys.stderr)
    parsed = parse(text, dialect, source=source, lenient=query.lenient, bare_ns=query.bare_ns)
    for note in parsed.notes:
        print(f"rsplars: {note}", file=sys.stderr)
    return parsed


def _read_text(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except OSError as exc:
        raise RsplarsError(f"cannot read query {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RsplarsError(f"cannot read query {path}: not UTF-8 text ({exc.reason})") from None


def static_facts(data: DataFiles) -> tuple[Any, ...]:
    """The LARS facts of the static files, the named graphs and the ``static_during`` pieces
    (:mod:`translator.rdf.static`)."""
    facts: tuple[Any, ...] = ()
    if not (data.static or data.named or data.static_during):
        return facts
    from translator.rdf.static import hold_during, load_static_facts

    if data.static or data.named:
        facts = tuple(load_static_facts(list(data.static), dict(data.named)))
    for start, end, path in data.static_during:
        facts = (*facts, *hold_during(load_static_facts([path]), start, end))
    return facts


def read_inputs(data: DataFiles, unit: str,
                spark: SparkOptions | None) -> "tuple[list[StreamElement] | DataFrame, tuple[Any, ...]]":
    """(stream elements merged by time, or the elements frame of ``data.elements`` read by Spark on
    ``spark.master``; static facts)."""
    if bool(data.streams) == bool(data.elements):
        raise RsplarsError("give the input as --stream IRI=FILE … or as --elements PATH (one of them)")
    facts = static_facts(data)
    if data.elements is not None:
        if spark is None:
            raise RsplarsError("--elements needs --engine spark")
        from spark_jobs.elements import check_elements_file
        from spark_jobs.frames import read_elements
        from spark_jobs.runs import start_spark

        started = start_spark(spark.master)
        checked = check_elements_file(data.elements)  # a local file: every row checked, errors located
        if checked is not None:
            print(f"rsplars: stream elements: {len(checked)} read and checked in {data.elements}", file=sys.stderr)
        return read_elements(started, data.elements), facts
    from translator.rdf.streams import merge_streams, read_streams
    from translator.rdf.timeunits import TimeSpec, parse_datetime

    time = TimeSpec(unit, data.stream_time_unit, parse_datetime(data.epoch) if data.epoch else None)
    streams: dict[object, Sequence[StreamElement]] = {
        iri: elements for iri, elements in read_streams(dict(data.streams), time=time).items()}
    return merge_streams(streams), facts


def run_job(query: QueryFile, data: DataFiles, *, options: TranslationOptions = TranslationOptions(),
            spark: SparkOptions | None = SparkOptions(), start: int | None = None, end: int | None = None,
            r2s: str = "rstream", fmt: str = "jsonl", output: str | None = None) -> int:
    """``rsplars run`` of ``query`` over ``data`` on Spark (``spark=None``: in this process), the answers
    written in ``fmt`` to ``output`` (atomically) or stdout."""
    from spark_jobs.runs import run_answers_spark
    from translator.evaluate.fileio import atomic_output
    from translator.evaluate.run import answers
    from translator.evaluate.writers import WRITERS
    from translator.translate.variants import compile_variants

    parsed = read_query(query)
    elements, facts = read_inputs(data, options.unit, spark)
    notes: list[str] = []
    ((_, compiled),) = compile_variants(parsed, options, elements if isinstance(elements, list) else (), notes)
    for note in notes:
        print(f"rsplars: {note}", file=sys.stderr)
    if spark is None:
        assert isinstance(elements, list)
        evaluations = answers(compiled, elements, facts, start=start, end=end, r2s=r2s)
    else:
        evaluations = run_answers_spark(compiled, elements, facts, start=start, end=end, r2s=r2s, spark=spark)
    with atomic_output(output) as out:
        write = WRITERS[fmt](out, compiled)
        for ev in evaluations:
            write(ev)
    return EXIT_OK


def agree_job(pull: QueryFile, push: QueryFile, data: DataFiles, *,
              options: TranslationOptions = TranslationOptions(), spark: SparkOptions = SparkOptions(),
              start: int | None = None, end: int | None = None, diagnose: bool = False,
              json_report: str | None = None) -> int:
    """The agreement of the pull run of ``pull`` (period ``options.period``, else its own) and the
    push run of ``push`` on Spark; the table to stdout, the JSON report to ``json_report``."""
    from spark_jobs.runs import run_agreement_spark
    from translator.agreement import QueryInput, ReportInputs, StreamInput, analyse
    from translator.agreement.report_json import write_json
    from translator.agreement.table import render_table
    from translator.translate.variants import compile_variants

    if options.as_variant:
        raise RsplarsError("--as is not supported by submit.py agree: give the pull and the push query")
    pull_q, push_q = read_query(pull), read_query(push)
    ((_, pulled),) = compile_variants(pull_q, replace(options, mode="pull"))
    runs = {"tau1_pull": pulled,
            "tau2_push": compile_variants(push_q, replace(options, mode="push", period=None))[0][1]}
    if diagnose:
        runs["tau2_pull"] = compile_variants(push_q, replace(options, mode="pull", period=f"{pulled.period}{options.unit}"))[0][1]
    elements, facts = read_inputs(data, options.unit, spark)
    result = run_agreement_spark(runs, elements, facts, start=start, end=end, spark=spark)
    inputs = ReportInputs(
        queries=(QueryInput("pull", pull.path, pull_q.dialect, pulled.strategy),
                 QueryInput("push", push.path, push_q.dialect, runs["tau2_push"].strategy)),
        streams=tuple(StreamInput(iri, path) for iri, path in data.streams.items()),
        period=pulled.period,
        window_bounds=options.window_bounds or "closed",
        static=data.static,
        time_from=start,
        time_to=end,
        time_unit=options.unit,
    )
    report = analyse(inputs, result.answers["tau1_pull"], result.answers["tau2_push"],
                     tau2_pull=result.answers.get("tau2_pull"))
    print(render_table(report), end="")
    if json_report:
        write_json(report, json_report)
    return EXIT_OK


def spark_env(build_dir: str) -> int:
    """Build what a cluster's workers need under ``build_dir`` (:func:`spark_jobs.shipping.build`) and
    print the ``export RSPLARS_SPARK_ENV=…`` line that makes a job ship it."""
    from spark_jobs.shipping import build

    shipped = build(build_dir)
    print(f"dependencies: {shipped.archive}\nproject:      {shipped.py_files}")
    print(f"export RSPLARS_SPARK_ENV={Path(build_dir).resolve()}")
    return EXIT_OK


# ----------------------------------------------------------------------------------- the command line


def build_parser() -> "argparse.ArgumentParser":
    """The command line of ``spark_jobs/submit.py`` (the options of ``rsplars run`` it takes)."""
    import argparse

    parser = argparse.ArgumentParser(prog="spark_jobs/submit.py",
                                     description="rsplars run / agree on Spark (partitioned by pull period)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = sub.add_parser("run", help="answer a query over RDF streams (as rsplars run)")
    run.add_argument("query_file", metavar="QUERY")
    _common(run, mode=True)
    run.add_argument("--r2s", choices=R2S_OPERATORS, default="rstream")
    run.add_argument("--format", choices=FORMATS, default="jsonl")
    run.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")

    agree = sub.add_parser("agree", help="judge the pull run of PULL_QUERY against the push run of PUSH_QUERY")
    agree.add_argument("pull_query", metavar="PULL_QUERY")
    agree.add_argument("push_query", metavar="PUSH_QUERY")
    _common(agree, mode=False)
    agree.add_argument("--period", metavar="DUR", help="pull period (default: the pull query's COMPUTED EVERY / STEP)")
    agree.add_argument("--diagnose", action="store_true",
                       help="also run the push query pull-based and tell the causes of disagreement "
                            "(Dao-Tran, Beck, Eiter 2015, §5)")
    agree.add_argument("--json", metavar="FILE", help="write the JSON agreement report to FILE")

    ship = sub.add_parser("spark-env", help="build the packed environment and zip a Spark cluster's workers need "
                                            "(spark_jobs.shipping)")
    ship.add_argument("--build-dir", default="build/spark-env", help="where to build (default: build/spark-env)")
    return parser


def _common(p: "argparse.ArgumentParser", *, mode: bool) -> None:
    """The query, data, translation and engine options of both commands (as ``rsplars run`` names them)."""
    from lars.windows import WINDOW_BOUNDS

    p.add_argument("--dialect", choices=["auto", "csparql", "cqels", "epsparql", "rspql", "rsepql"], default="auto")
    p.add_argument("--lenient", action="store_true", help="accept the quirks of the papers' printed queries")
    p.add_argument("--bare-ns", dest="bare_ns", metavar="IRI", help="EP-SPARQL: namespace of bare names")
    p.add_argument("--stream", action="append", default=[], metavar="IRI=FILE", help="an input stream (repeatable)")
    p.add_argument("--elements", metavar="PATH",
                   help="Parquet or CSV dataset of time, stream, s, p, o (N-Triples terms) instead of --stream")
    p.add_argument("--stream-time-unit", choices=UNITS, metavar="U", help="unit of integer timestamps")
    p.add_argument("--epoch", metavar="DATETIME", help="time 0 for xsd:dateTime timestamps")
    p.add_argument("--static", action="append", default=[], metavar="FILE", help="static data (repeatable)")
    p.add_argument("--named", action="append", default=[], metavar="IRI=FILE", help="a named static graph")
    p.add_argument("--static-during", action="append", default=[], metavar="FROM..TO=FILE",
                   help="static data that holds only from FROM to TO (base units; repeatable)")
    if mode:
        p.add_argument("--mode", choices=["push", "pull", "none"])
        p.add_argument("--period", metavar="DUR", help="pull period, e.g. 5m")
    p.add_argument("--strategy", choices=["tau1", "tau2"])
    p.add_argument("--as", dest="as_", choices=["csparql", "cqels-brave", "cqels-cautious", "cqels-all"],
                   metavar="VARIANT", help="run cs(Q) or a member of cq(Q) instead")
    p.add_argument("--assign", action="append", default=[], metavar="I=IRI",
                   help="for --as cqels-*: triple pattern I (from 1) reads stream IRI")
    p.add_argument("--window-bounds", choices=list(WINDOW_BOUNDS), default="closed")
    p.add_argument("--unit", choices=UNITS, default="s", help="base time unit (D1; default: s)")
    p.add_argument("--from", dest="start", type=int, metavar="T")
    p.add_argument("--to", dest="end", type=int, metavar="T")
    p.add_argument("--engine", choices=ENGINES, default="spark", help="spark (default) or sequential")
    p.add_argument("--master", default=DEFAULT_MASTER, metavar="URL")
    p.add_argument("--partitions", type=int, metavar="N", help="blocks solved in parallel")
    p.add_argument("--parquet", metavar="DIR", help="also write the answers as Parquet under DIR")


def _pairs(specs: Sequence[str], option: str) -> dict[str, str]:
    """``IRI=FILE`` options as IRI → FILE (an IRI given twice is an error)."""
    from translator.rdf.streams import parse_stream_spec

    out: dict[str, str] = {}
    for spec in specs:
        iri, path = parse_stream_spec(spec)
        if iri in out:
            raise RsplarsError(f"{option} {iri} is given twice")
        out[iri] = path
    return out


def _assign(specs: Sequence[str]) -> dict[int, str]:
    out: dict[int, str] = {}
    for spec in specs:
        number, sep, iri = spec.partition("=")
        if not sep or not number.strip().isdigit() or int(number) < 1:
            raise RsplarsError(f"--assign: expected I=IRI with I a triple pattern number from 1, got {spec!r}")
        out[int(number)] = iri
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Read spark-submit's arguments, build the typed requests and run the job; user errors are
    printed (exit code 2), as by ``rsplars``."""
    from translator.exits import report_error
    from spark_jobs.runs import user_errors
    from translator.rdf.streams import parse_static_during_spec

    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.command == "spark-env":
        return spark_env(args.build_dir)
    try:
        with user_errors():
            data = DataFiles(streams=_pairs(args.stream, "--stream"), elements=args.elements,
                             static=tuple(args.static), named=_pairs(args.named, "--named"),
                             static_during=tuple(parse_static_during_spec(s) for s in args.static_during),
                             stream_time_unit=args.stream_time_unit, epoch=args.epoch)
            options = TranslationOptions(mode=getattr(args, "mode", None), period=args.period, strategy=args.strategy,
                                         window_bounds=args.window_bounds, unit=args.unit, as_variant=args.as_,
                                         assign=_assign(args.assign))
            spark = SparkOptions(master=args.master, partitions=args.partitions, parquet=args.parquet)

            def query(path: str) -> QueryFile:
                return QueryFile(path, args.dialect, args.lenient, args.bare_ns)

            if args.command == "run":
                if args.as_ == "cqels-all":
                    raise RsplarsError("--as cqels-all gives several queries; run them one by one")
                return run_job(query(args.query_file), data, options=options,
                               spark=spark if args.engine == "spark" else None, start=args.start, end=args.end,
                               r2s=args.r2s, fmt=args.format, output=args.output)
            return agree_job(query(args.pull_query), query(args.push_query), data, options=options, spark=spark,
                             start=args.start, end=args.end, diagnose=args.diagnose, json_report=args.json)
    except RsplarsError as err:
        return report_error(err)


if __name__ == "__main__":
    sys.exit(main())
