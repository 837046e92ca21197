"""Spark DataFrames of the partitioned pipeline: elements in, blocks with look-back, R2S, verdicts.

Columns of an *elements* frame: ``seq`` (arrival order), ``t``, ``stream`` (bare IRI), ``s``,
``p``, ``o`` (N-Triples terms). :func:`with_blocks` is the Spark version of
:func:`spark_jobs.partition.partition` (the plain-Python reference): each element goes to its own
block and to the later blocks whose look-back reaches it, computed with window functions —

* time windows: the blocks up to ``⌊(t + ticks − 1)/W⌋`` (:mod:`spark_jobs.lookback`);
* tuple windows ``⊞^{#n}``: ``lead(t, n)`` over the matching atoms ordered by ``(t, seq)`` is the
  time of the n-th next one; the element is in the last n of every block that starts before it;
* ``⊞^∞ ◇``: ``row_number() = 1`` per distinct (stream, triple) marks the first occurrence, which
  every later block gets (the prefix state).

The answer rows of the blocks are *witnessed* rows (decision D5: the visible columns, then the
hidden ones that tell duplicate solutions apart), one per solution; :func:`visible` projects them on
the visible columns, so that a frame of answers is the multiset of solutions (one record each).

:func:`r2s` applies RStream/IStream/DStream (Dao-Tran, Beck, Eiter 2015, §4 step 4) relationally
over all evaluation times (``lag`` gives the previous evaluation time), over multisets (decision
D13: IStream/DStream emit a solution ``max(0, card_now − card_before)`` times); :func:`verdicts` judges
every interval ``[i·U, (i+1)·U]`` (Dao-Tran, Beck, Eiter 2015, §5) as
``translator.agreement.verdicts.judge`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

import pandas as pd

from spark_jobs.blocks import Blocks
from spark_jobs.lookback import LookBack
from spark_jobs.partition import COLUMNS, key_columns
from spark_jobs.solve_blocks import BlockJob, solve_block
from translator.rdf.streams import StreamElement

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

ELEMENTS_SCHEMA = "seq long, t long, stream string, s string, p string, o string"
BLOCK_SCHEMA = "block long, " + ELEMENTS_SCHEMA
RESULT_SCHEMA = "run string, t long, row string"
VERDICT_SCHEMA = ("index long, start long, end long, verdict string, pull_answers long, push_answers long, "
                  "missing long, extra long, push_times long")


def elements_frame(spark: "SparkSession", elements: Iterable[StreamElement]) -> "DataFrame":
    """Stream elements read by ``translator.rdf.streams`` (merged by time) as an elements frame."""
    from spark_jobs.partition import elements_table

    return table_frame(spark, elements_table(elements))


def table_frame(spark: "SparkSession", table: pd.DataFrame) -> "DataFrame":
    """An elements table (:func:`spark_jobs.partition.elements_table`) as an elements frame."""
    if table.empty:
        return spark.createDataFrame([], ELEMENTS_SCHEMA)
    return spark.createDataFrame(table, ELEMENTS_SCHEMA)


def read_elements(spark: "SparkSession", path: str, fmt: str | None = None) -> "DataFrame":
    """Parquet or CSV (with a header) of ``time, stream, s, p, o`` (terms in N-Triples form) as an
    elements frame; the arrival order is the file order (``monotonically_increasing_id`` keeps the
    order of the splits and of the rows inside each)."""
    from pyspark.sql import functions as F

    fmt = fmt or ("parquet" if path.rstrip("/").endswith(".parquet") else "csv")
    if fmt == "csv":
        # RFC 4180 quoting ("" inside quoted fields), as Python's csv module writes it
        # FAILFAST: a row that does not fit the schema stops the job (PERMISSIVE would make it
        # nulls without a word); local files are checked row by row first (spark_jobs.elements)
        raw = spark.read.csv(path, header=True, escape='"', multiLine=False, mode="FAILFAST",
                             schema="time long, stream string, s string, p string, o string")
    else:
        raw = spark.read.parquet(path)
    missing = {"time", "stream", "s", "p", "o"} - set(raw.columns)
    if missing:
        from lars.errors import RsplarsError

        raise RsplarsError(f"{path}: missing column(s) {', '.join(sorted(missing))} (expected time, stream, s, p, o)")
    return raw.select(
        F.monotonically_increasing_id().alias("seq"),
        F.col("time").cast("long").alias("t"),
        F.regexp_replace(F.trim("stream"), "^<|>$", "").alias("stream"),
        F.trim("s").alias("s"), F.trim("p").alias("p"), F.trim("o").alias("o"),
    )


def time_range(df: "DataFrame") -> tuple[int | None, int | None]:
    """The first and last element times (``None`` for an empty frame)."""
    from pyspark.sql import functions as F

    row = df.agg(F.min("t").alias("lo"), F.max("t").alias("hi")).first()
    return (None, None) if row is None or row["lo"] is None else (int(row["lo"]), int(row["hi"]))


def _floor_div(col, width: int):
    from pyspark.sql import functions as F

    return F.floor(col / F.lit(width)).cast("long")


def with_blocks(df: "DataFrame", look: LookBack, blocks: Blocks) -> "DataFrame":
    """Every element once per block that needs it, plus one marker row per block (``t`` null), so
    that blocks without input still evaluate (pull and none modes). Columns :data:`BLOCK_SCHEMA`."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    spark = df.sparkSession
    w = blocks.width
    counted = any(n.n > 0 for n in look.tuples) or look.first_occurrences
    # tuple windows count atoms and first occurrences are per atom: the same triple twice on a
    # stream at one time point is one atom (D11). Otherwise the solver's own reading of a block
    # (solve_blocks.block_points) drops such repeats, and the shuffle is saved.
    dedup = df.groupBy("t", "stream", "s", "p", "o").agg(F.min("seq").alias("seq")) if counted else df
    own = _floor_div(F.col("t") - 1, w)
    hi = own
    if look.ticks > 0:
        hi = F.greatest(hi, _floor_div(F.col("t") + (look.ticks - 1), w))
    order = ["t", "seq"]
    for k, need in enumerate(n for n in look.tuples if n.n > 0):
        fixed = key_columns(need.key)
        match = F.lit(True)
        for column, text in fixed.items():
            value = text[1:-1] if column == "stream" and text.startswith("<") else text
            match = match & (F.col(column) == F.lit(value))
        name = f"_m{k}"
        dedup = dedup.withColumn(name, match)
        nxt = F.lead("t", need.n).over(Window.partitionBy(name).orderBy(*order))
        dedup = dedup.withColumn(f"_n{k}", nxt)
        reach = F.when(F.col(f"_n{k}").isNull(), F.lit(blocks.last_block)).otherwise(
            _floor_div(F.col(f"_n{k}") - 1, w))
        hi = F.greatest(hi, F.when(F.col(name), reach).otherwise(own))
    if look.first_occurrences:
        first = F.row_number().over(Window.partitionBy("stream", "s", "p", "o").orderBy(*order)) == 1
        dedup = dedup.withColumn("_first", first)
        hi = F.when(F.col("_first"), F.lit(blocks.last_block)).otherwise(hi)
    lo_b = F.greatest(own, F.lit(blocks.first_block))
    hi_b = F.least(hi, F.lit(blocks.last_block))
    spread = dedup.withColumn("_lo", lo_b).withColumn("_hi", hi_b).filter(F.col("_lo") <= F.col("_hi"))
    exploded = spread.select(F.explode(F.sequence("_lo", "_hi")).alias("block"), *COLUMNS)
    markers = spark.range(blocks.first_block, blocks.last_block + 1).select(
        F.col("id").alias("block"),
        *(F.lit(None).cast("long" if c in ("seq", "t") else "string").alias(c) for c in COLUMNS),
    )
    return exploded.unionByName(markers)


def solve(blocked: "DataFrame", job: BlockJob) -> "DataFrame":
    """Solve every block with :func:`spark_jobs.solve_blocks.solve_block` (``applyInPandas``).

    The blocks are few and expensive, so each should be a task of its own: a range partitioning
    on the block id with one partition per block (hash partitioning would put several blocks in
    one task and leave others empty), which the grouping reuses without a second shuffle; the
    SparkSession's ``spark.sql.shuffle.partitions`` is left alone."""
    first = job.blocks.first_block if job.from_block is None else max(job.blocks.first_block, job.from_block)
    blocks = job.blocks.last_block - first + 1
    if job.from_block is not None:  # --resume-from: the blocks before are done
        from pyspark.sql import functions as F

        blocked = blocked.filter(F.col("block") >= F.lit(first))
    if job.done:  # --spark-state: the blocks saved by an earlier attempt at the same run
        from pyspark.sql import functions as F

        blocked = blocked.filter(~F.col("block").isin(sorted(job.done)))
        blocks = max(1, blocks - len([b for b in job.done if b >= first]))

    def solve_group(key: tuple, pdf: pd.DataFrame) -> pd.DataFrame:
        return solve_block(key, pdf, job)

    spread = blocked.repartitionByRange(max(1, blocks), "block")
    return spread.groupBy("block").applyInPandas(solve_group, schema=RESULT_SCHEMA)


def visible(results: "DataFrame", widths: "Mapping[str, int | None]") -> "DataFrame":
    """``results`` with each answer ``row`` of run ``label`` cut to its first ``widths[label]``
    columns (the visible ones; ``None``: all), one record per witnessed row, so one per solution
    (SPARQL 1.1 §18.5, Project). When a run is cut, every row is written again by Spark's JSON
    writer, so that the rows of all runs compare as texts (R2S, verdicts) whatever their width;
    ``results`` itself when no run is."""
    from pyspark.sql import functions as F

    if all(width is None for width in widths.values()):
        return results
    values = F.from_json("row", "array<string>")
    projected = F.to_json(values)
    for label, width in widths.items():
        if width is not None:
            projected = F.when(F.col("run") == F.lit(label), F.to_json(F.slice(values, 1, width))).otherwise(projected)
    return results.withColumn("row", F.when(F.col("row").isNull(), F.col("row")).otherwise(projected))


def r2s(results: "DataFrame", label: str, operator: str) -> "DataFrame":
    """``t, row`` of run ``label`` after R2S over multisets (decision D13): the answers (``row``
    non-null, a solution that occurs n times as n records) and one record with a null ``row`` per
    evaluation time. RStream at t: every answer at t; IStream at t: each answer as many times as it
    occurs at t more than at the previous evaluation time; DStream at t: as many times as it
    occurred at the previous evaluation time more than at t."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    run = results.filter(F.col("run") == label).select("t", "row")
    times = run.select("t").distinct()
    rows = run.filter(F.col("row").isNotNull())
    if operator == "rstream":
        out = rows
    else:
        counts = rows.groupBy("t", "row").agg(F.count(F.lit(1)).alias("n"))
        prev = times.withColumn("prev", F.lag("t").over(Window.orderBy("t")))
        if operator == "istream":
            now = counts.join(prev, "t")
            before = counts.select(F.col("t").alias("prev"), "row", F.col("n").alias("m"))
            diff = now.join(before, ["prev", "row"], "left")
        else:
            gone = counts.select(F.col("t").alias("prev"), "row", "n").join(prev.filter(F.col("prev").isNotNull()), "prev")
            diff = gone.join(counts.select("t", "row", F.col("n").alias("m")), ["t", "row"], "left")
        k = (F.col("n") - F.coalesce(F.col("m"), F.lit(0))).cast("int")
        out = (diff.select("t", "row", k.alias("k")).filter(F.col("k") > 0)
               .select("t", F.explode(F.expr("array_repeat(row, k)")).alias("row")))
    return out.unionByName(times.withColumn("row", F.lit(None).cast("string")))


def verdicts(results: "DataFrame", pull: str, push: str, period: int, intervals: list[tuple[int, int, int]]) -> "DataFrame":
    """One row per judged interval ``(i, i·U, (i+1)·U)``: the pull answer at ``(i+1)·U`` against
    the union of the push answers on ``(i·U, (i+1)·U]`` (Dao-Tran, Beck, Eiter 2015, §5), with the
    counts of answers, missing (pull − push) and extra (push − pull) solutions, and push evaluation
    times.

    ``results`` holds the visible rows (:func:`visible`): the agreement compares sets of solutions
    (§5), so a solution counts once however often it occurs.

    Two aggregations: per (interval, answer) whether the pull and the push run have it (and, on the
    push run's evaluation-time markers, how many there are), then per interval the counts."""
    from pyspark.sql import functions as F

    spark = results.sparkSession
    if not intervals:
        return spark.createDataFrame([], VERDICT_SCHEMA)
    judged = spark.createDataFrame([(i, lo, hi) for i, lo, hi in intervals], "index long, start long, end long")
    u = F.lit(period)
    row, t = F.col("row"), F.col("t")
    one, zero = F.lit(1), F.lit(0)
    pull_part = (results.filter((F.col("run") == pull) & row.isNotNull() & (t % u == 0))
                 .select((t / u - 1).cast("long").alias("index"), "row", one.alias("p"), zero.alias("q"), zero.alias("m")))
    push_part = results.filter(F.col("run") == push).select(
        _floor_div(t - 1, period).alias("index"), "row", zero.alias("p"),
        F.when(row.isNotNull(), one).otherwise(zero).alias("q"), F.when(row.isNull(), one).otherwise(zero).alias("m"))
    per_answer = pull_part.unionByName(push_part).groupBy("index", "row").agg(
        F.max("p").alias("p"), F.max("q").alias("q"), F.sum("m").alias("m"))
    p, q = F.col("p"), F.col("q")
    per_interval = per_answer.groupBy("index").agg(
        F.sum("p").alias("pull_answers"), F.sum("q").alias("push_answers"),
        F.sum(F.when((p == 1) & (q == 0), one).otherwise(zero)).alias("missing"),
        F.sum(F.when((q == 1) & (p == 0), one).otherwise(zero)).alias("extra"),
        F.sum("m").alias("push_times"))
    counts = ["pull_answers", "push_answers", "missing", "extra", "push_times"]
    out = judged.join(F.broadcast(per_interval), "index", "left").fillna(0, counts)
    out = out.select("index", "start", "end", *(F.col(c).cast("long").alias(c) for c in counts))
    verdict = F.when((F.col("missing") == 0) & (F.col("extra") == 0), "agree").otherwise("disagree")
    return out.withColumn("verdict", verdict).select(
        "index", "start", "end", "verdict", "pull_answers", "push_answers", "missing", "extra", "push_times"
    ).orderBy("index")
