"""What ``rsplars.run|agree(..., engine="spark")``, ``rsplars run|agree --engine spark`` and
``spark_jobs/submit.py`` call: typed requests only — compiled programs, stream elements, static
facts, times and the :class:`spark_jobs.options.SparkOptions` of the run.

* :func:`run_answers_spark` has the contract of ``translator.evaluate.run.answers``: one
  :class:`translator.evaluate.run.Evaluation` per evaluation time, in time order, after R2S.
* :func:`run_agreement_spark` solves several programs (the pull and push runs of ``rsplars agree``
  and its diagnosis runs) over the same blocks and returns their answer streams in the form
  ``translator.agreement.analyse`` takes, plus the interval verdicts computed by Spark.

With ``SparkOptions.parquet`` set, the answers (``run, t, bindings``; ``bindings`` maps variable → N-Triples
term, unbound variables left out), the evaluation times (``run, t, answers``) and the verdicts
(``index, start, end, verdict, pull_answers, push_answers, missing, extra, push_times``) are
written as Parquet datasets under that directory (``answers/``, ``evaluations/``, ``verdicts/``).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from lars.errors import RsplarsError, UnsupportedError
from lars.model import Rule
from spark_jobs.options import DEFAULT_MASTER, SparkOptions
from translator.translate.compile import Compiled
from translator.rdf.streams import StreamElement
from translator.evaluate.run import EMPTY, R2S, Evaluation, RunError, answer_modifiers, modified, r2s_rows
from translator.rdf.bags import Bag

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

    from translator.agreement import Solution

def start_spark(master: str = DEFAULT_MASTER) -> "SparkSession":
    """The SparkSession of a run (the settings of :mod:`spark_jobs.context`). Under ``spark-submit``
    the master given to spark-submit wins (a running SparkSession is reused)."""
    from spark_jobs.context import build_spark

    try:
        return build_spark(master)
    except RsplarsError:
        raise
    except Exception as exc:  # noqa: BLE001 - Java/py4j start-up failures carry no RsplarsError
        raise RsplarsError(f"cannot start Spark on {master}: {exc.__class__.__name__}: {str(exc).splitlines()[0]}") from None


@contextmanager
def user_errors(crashed=None) -> Iterator[None]:
    """A user error raised in a Python worker (a malformed term, a program with no answer stream)
    reaches the driver as a Spark exception: report it as an :class:`RsplarsError` with the
    worker's own message, never as a Java/Python traceback. ``crashed()``: the block whose worker
    crashed at every attempt, with its time range (``solve_blocks.crashed_block``), or ``None``."""
    try:
        yield
    except RsplarsError:
        raise
    except Exception as exc:  # noqa: BLE001
        if type(exc).__module__.split(".")[0] not in ("pyspark", "py4j"):
            raise
        text = str(exc)
        found = re.findall(r"^(?:[\w.]+\.)?(\w*Error): (.*(?:\n(?![ \t]*(?:File|at |Traceback|SQLSTATE))[^\n]*)*)", text, re.M)
        detail = found[-1][1].strip() if found else text.strip().splitlines()[0]
        named = crashed() if crashed is not None and "BlockError" not in text else None
        if named:
            spark_says = re.search(r"(Python worker exited unexpectedly[^\n.]*)", text)
            detail = named + (f" (Spark: {spark_says.group(1).strip().rstrip(':')})" if spark_says else "")
        raise RsplarsError(f"spark job failed: {detail}") from None


@contextmanager
def _progress_dir() -> Iterator[str]:
    """A temporary directory for the attempt marks of the blocks (``BlockJob.progress``)."""
    import shutil
    import tempfile

    path = tempfile.mkdtemp(prefix="rsplars-blocks-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@dataclass(frozen=True)
class _Input:
    """The elements frame of a run (on its SparkSession); ``bounds``: the first and last element times
    when known without a Spark job (in-memory elements)."""

    frame: "DataFrame"
    bounds: tuple[int | None, int | None] | None
    table: object = None  # the pandas table of in-memory elements (the --spark-state fingerprint)


def _start(master: str, elements: "Sequence[StreamElement] | DataFrame") -> _Input:
    """Start Spark and ship the elements. In-memory elements become a table on the driver while the
    JVM starts in a thread (both take seconds; on two cores they overlap), and their time range is
    read off that table, which saves a Spark job and caching the frame."""
    from concurrent.futures import ThreadPoolExecutor

    from pyspark.sql import DataFrame

    from spark_jobs.frames import table_frame
    from spark_jobs.partition import elements_table

    if isinstance(elements, DataFrame):
        start_spark(master)  # the settings of spark_jobs.context (a running SparkSession is reused)
        return _Input(elements, None)
    with ThreadPoolExecutor(max_workers=1) as pool:
        starting = pool.submit(start_spark, master)
        table = elements_table(elements)
        spark = starting.result()
    bounds = (None, None) if table.empty else (int(table["t"].min()), int(table["t"].max()))
    return _Input(table_frame(spark, table), bounds, table)


def run_answers_spark(
    compiled: Compiled,
    elements: "Sequence[StreamElement] | DataFrame",
    static_facts: Sequence[Rule] = (),
    *,
    start: int | None = None,
    end: int | None = None,
    r2s: str = "rstream",
    spark: SparkOptions = SparkOptions(),
    solve_from: int | None = None,
    engine: str = "auto",
) -> Iterator[Evaluation]:
    """``translator.evaluate.run.answers`` on Spark: the same evaluations, computed block by block
    on ``spark.master`` in ``spark.partitions`` blocks (:class:`~spark_jobs.options.SparkOptions`;
    ``spark.parquet``: the answers also written as Parquet; ``spark.state``: solved blocks kept for a
    rerun, :mod:`spark_jobs.state`, in-memory elements only). ``solve_from``: the blocks whose
    evaluation times all lie before it are not solved (``--resume-from``; the evaluations before it
    that a solved block holds are yielded too, the caller drops them); ``engine``: the LARS engine of
    every block (``--lars-engine``)."""
    from spark_jobs.solve_blocks import crashed_block

    plan: dict[str, Any] = {}
    with _progress_dir() as progress, user_errors(
            lambda: crashed_block(progress, plan["blocks"]) if "blocks" in plan else None):
        yield from _answers_spark(compiled, elements, static_facts, start, end, r2s, spark, solve_from, progress,
                                  plan, engine)


def _answers_spark(compiled: Compiled, elements: "Sequence[StreamElement] | DataFrame",
                   static_facts: Sequence[Rule], start: int | None, end: int | None, r2s: str,
                   spark: SparkOptions, solve_from: int | None, progress: str, plan_out: dict[str, Any],
                   engine: str) -> Iterator[Evaluation]:
    from spark_jobs.frames import r2s as apply_r2s
    from spark_jobs.frames import visible
    from spark_jobs.pipeline import solve_runs
    from spark_jobs.solve_blocks import decode_row

    if r2s not in R2S:
        raise RunError(f"unknown R2S operator {r2s!r} (expected one of {', '.join(R2S)})")
    modifiers = answer_modifiers(compiled)  # an ORDER BY over a variable the answers do not hold: refused here
    if modifiers is not None and modifiers.slices and spark.parquet is not None:
        raise UnsupportedError("--parquet of a query with LIMIT or OFFSET", "Spark",
                               "its table holds the relations before the slice; write the answers with --output")
    data = _start(spark.master, elements)
    if spark.state is not None and data.table is None:
        raise RsplarsError("--spark-state needs the stream elements read by rsplars (not an elements table)")
    results, plan = solve_runs(data.frame, {"run": compiled}, static_facts, start=start, end=end,
                               partitions=spark.partitions, bounds=data.bounds, solve_from=solve_from,
                               progress=progress, state=None if spark.state is None else (spark.state, data.table),
                               engine=engine)
    plan_out["blocks"] = plan.blocks
    results = results.cache()
    shown = visible(results, {"run": compiled.width})
    out = apply_r2s(shown, "run", r2s)
    if spark.parquet is not None:
        from pyspark.sql import functions as F

        write_parquet(out.withColumn("run", F.lit("run")), {"run": compiled}, spark.parquet)
    if modifiers is None:
        yield from (Evaluation(t, Bag(rows)) for t, rows in _collected(out, decode_row))
    else:  # ORDER BY, LIMIT, OFFSET read the witnessed rows (hidden columns too): then R2S, as a sequential run
        yield from _modified(compiled, _collected(apply_r2s(results, "run", "rstream"), decode_row), r2s)
    results.unpersist()


def _collected(out, decode_row) -> Iterator[tuple[int, list]]:
    """The answers of Spark's answer frame, ``(t, rows)`` per evaluation time in time order (a row
    as many times as it has records)."""
    current: int | None = None
    rows: list = []
    for record in out.orderBy("t").toLocalIterator():
        t = int(record["t"])
        if current is not None and t != current:
            yield current, rows
            rows = []
        current = t
        if record["row"] is not None:
            rows.append(decode_row(record["row"]))
    if current is not None:
        yield current, rows


def _modified(compiled: Compiled, answers: Iterator[tuple[int, list]], r2s: str) -> Iterator[Evaluation]:
    """The RStream witnessed rows ``answers`` after the query's ORDER BY, LIMIT and OFFSET and then
    the R2S operator ``r2s`` (:func:`translator.evaluate.run.modified` and ``r2s_rows``, as a
    sequential run applies them)."""
    previous: Bag = EMPTY
    for t, rows in answers:
        out = modified(compiled, frozenset(rows))
        yield Evaluation(t, r2s_rows(r2s, out, previous))
        previous = out


@dataclass(frozen=True)
class SparkAgreement:
    """The answer streams of every run (``label → {t: frozenset[Solution]}``, as
    ``translator.agreement.analyse`` takes them) and the verdicts Spark computed for the
    ``pull``/``push`` pair (dicts with the columns of :data:`spark_jobs.frames.VERDICT_SCHEMA`)."""

    answers: dict[str, dict[int, frozenset["Solution"]]]
    verdicts: list[dict]


def run_agreement_spark(
    runs: Mapping[str, Compiled],
    elements: "Sequence[StreamElement] | DataFrame",
    static_facts: Sequence[Rule] = (),
    *,
    start: int | None = None,
    end: int | None = None,
    spark: SparkOptions = SparkOptions(),
    pull: str = "tau1_pull",
    push: str = "tau2_push",
    engine: str = "auto",
) -> SparkAgreement:
    """Solve every program of ``runs`` over the same blocks (one Spark job on ``spark.master``, in
    ``spark.partitions`` blocks) and judge ``pull`` against ``push`` on every interval ``[i·U, (i+1)·U]``
    of the range (Dao-Tran, Beck, Eiter 2015, §5); ``engine``: the LARS engine of every block
    (``--lars-engine``); ``spark.parquet``: the answers and verdicts also written as Parquet. Without a
    ``push`` run (an EP-SPARQL push query, whose complex events ``spark_jobs.epsparql_job`` computes)
    only the answers, no verdicts."""
    from spark_jobs.solve_blocks import crashed_block

    if spark.state is not None:
        raise RsplarsError("SparkOptions.state (--spark-state) applies to a run, not to an agreement on Spark")
    plan: dict[str, Any] = {}
    with _progress_dir() as progress, user_errors(
            lambda: crashed_block(progress, plan["blocks"]) if "blocks" in plan else None):
        return _agreement_spark(runs, elements, static_facts, start, end, spark, pull, push, progress, plan, engine)


def _agreement_spark(runs: Mapping[str, Compiled], elements: "Sequence[StreamElement] | DataFrame",
                     static_facts: Sequence[Rule], start: int | None, end: int | None, spark: SparkOptions,
                     pull: str, push: str, progress: str, plan_out: dict[str, Any], engine: str) -> SparkAgreement:
    from translator.agreement import Solution
    from translator.agreement.verdicts import judged_intervals

    from spark_jobs.frames import verdicts, visible
    from spark_jobs.pipeline import solve_runs
    from spark_jobs.solve_blocks import decode_row

    for compiled in runs.values():
        modifiers = getattr(compiled, "modifiers", None)
        if modifiers is not None and modifiers.slices:
            raise UnsupportedError("LIMIT or OFFSET", "agreement on Spark",
                                   "compare without --engine spark, which applies them to every evaluation")
    judged = push in runs  # without it: the answers only (an EP-SPARQL push run's events come from elsewhere)
    for label in (pull, push) if judged else (pull,):
        if label not in runs:
            raise RsplarsError(f"run_agreement_spark: no run labelled {label!r} (runs: {', '.join(runs)})")
    period = runs[pull].period
    if runs[pull].mode != "pull" or period is None:
        raise RsplarsError(f"the {pull!r} run must be pull-based with a period")
    data = _start(spark.master, elements)
    results, plan = solve_runs(data.frame, runs, static_facts, start=start, end=end,
                               partitions=spark.partitions, bounds=data.bounds, progress=progress, engine=engine)
    plan_out["blocks"] = plan.blocks
    # the visible rows: the agreement compares sets of solutions (Dao-Tran, Beck, Eiter 2015, §5)
    results = visible(results, {label: getattr(c, "width", None) for label, c in runs.items()}).cache()
    answers: dict[str, dict[int, set[str]]] = {label: {} for label in runs}
    for record in results.toLocalIterator():
        at_t = answers[record["run"]].setdefault(int(record["t"]), set())
        if record["row"] is not None:
            at_t.add(record["row"])
    out: dict[str, dict[int, frozenset[Solution]]] = {}
    for label, stream in answers.items():
        variables = runs[label].variables
        out[label] = {
            t: frozenset(Solution.from_mapping(dict(zip(variables, decode_row(r)))) for r in rows)
            for t, rows in sorted(stream.items())
        }
    if not judged:
        if spark.parquet is not None:
            write_parquet(results, runs, spark.parquet)
        results.unpersist()
        return SparkAgreement(out, [])
    pull_times = [t for t in out[pull] if t % period == 0]
    lo = 0 if start is None else start
    hi = end if end is not None else (max(pull_times) if pull_times else lo)
    intervals = judged_intervals(period, lo, hi) if hi >= lo else []
    verdict_frame = verdicts(results, pull, push, period, intervals).cache()
    rows = [r.asDict() for r in verdict_frame.collect()]
    if spark.parquet is not None:
        write_parquet(results, runs, spark.parquet, verdict_frame)
    results.unpersist()
    verdict_frame.unpersist()
    return SparkAgreement(out, rows)


def write_parquet(results: "DataFrame", runs: Mapping[str, Compiled], directory: str,
                  verdict_frame: "DataFrame | None" = None) -> None:
    """``answers/``, ``evaluations/`` (and ``verdicts/``) under ``directory`` (overwritten)."""
    from functools import reduce

    from pyspark.sql import functions as F

    answers = []
    for label, compiled in runs.items():
        names = F.array(*[F.lit(v) for v in compiled.variables]) if compiled.variables else F.array().cast("array<string>")
        values = F.from_json("row", "array<string>")
        bindings = F.map_filter(F.map_from_arrays(names, values), lambda k, v: v.isNotNull())
        answers.append(results.filter((F.col("run") == label) & F.col("row").isNotNull())
                       .select("run", "t", bindings.alias("bindings")))
    reduce(lambda a, b: a.unionByName(b), answers).orderBy("run", "t").write.mode("overwrite").parquet(
        f"{directory}/answers")
    (results.groupBy("run", "t").agg(F.count("row").alias("answers")).orderBy("run", "t")
     .write.mode("overwrite").parquet(f"{directory}/evaluations"))
    if verdict_frame is not None:
        verdict_frame.write.mode("overwrite").parquet(f"{directory}/verdicts")
