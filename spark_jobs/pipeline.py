"""The partitioned run: plan the blocks, give each its look-back, solve them in parallel on Spark.

``solve_runs`` is what ``rsplars run|agree --engine spark`` and ``spark_jobs/submit.py`` call: for
a mapping ``label → Compiled`` (one program for ``run``; the pull, push and diagnosis programs for
``agree``) it returns a DataFrame ``run, t, row`` of the rstream answers of every program at every
evaluation time (``row`` null: the evaluation-time marker), equal to what the sequential
``translator.evaluate.run.answers`` computes program by program (the tests compare them).

Steps (docs/spark.md): the timeline of every program (:class:`spark_jobs.blocks.Timeline`); blocks
of a width that is a multiple of every pull period (:class:`spark_jobs.blocks.Blocks`); the union
of the programs' look-backs read off their rules (:func:`spark_jobs.lookback.combined`); each
element copied to the blocks that need it (:func:`spark_jobs.frames.with_blocks`); one clingo run
per block and program through ``applyInPandas`` (:func:`spark_jobs.solve_blocks.solve_block`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from lars.model import Rule
from spark_jobs.blocks import Blocks, Timeline
from spark_jobs.lookback import LookBack, combined
from spark_jobs.solve_blocks import BlockJob, BlockRun
from translator.translate.compile import Compiled

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame


@dataclass(frozen=True)
class Plan:
    """The blocks, the look-back and each program's timeline of one partitioned run."""

    runs: tuple[BlockRun, ...]
    blocks: Blocks
    look: LookBack

    def timeline(self, label: str) -> Timeline:
        return next(r.timeline for r in self.runs if r.label == label)


def make_plan(runs: Mapping[str, Compiled], data_lo: int | None, data_hi: int | None,
              start: int | None, end: int | None, partitions: int) -> Plan:
    """Plan ``partitions`` blocks (about) for the programs over data in ``[data_lo, data_hi]``."""
    block_runs = tuple(
        BlockRun(label, c, Timeline.of(c.mode, c.period, data_lo, data_hi, start, end)) for label, c in runs.items()
    )
    blocks = Blocks.of([r.timeline for r in block_runs], partitions)
    return Plan(block_runs, blocks, combined(c.program for c in runs.values()))


def default_partitions(spark) -> int:
    """Four blocks per core: blocks differ in cost (and the last one is shorter), so a few per
    core balance the cores; each costs only a solver set-up and its look-back."""
    return 4 * max(1, spark.sparkContext.defaultParallelism)


def solve_runs(elements: "DataFrame", runs: Mapping[str, Compiled], static: Sequence[Rule] = (), *,
               start: int | None = None, end: int | None = None,
               partitions: int | None = None,
               bounds: tuple[int | None, int | None] | None = None,
               solve_from: int | None = None, progress: str | None = None,
               state: tuple[str, "object"] | None = None, engine: str = "auto") -> tuple["DataFrame", Plan]:
    """(``run, t, row`` DataFrame, plan) of the partitioned run of ``runs`` over ``elements``
    (an elements frame, :mod:`spark_jobs.frames`). ``bounds``: the first and last element times
    when the caller knows them (otherwise a Spark job reads them off the cached frame). Raises the
    same user errors as the sequential run for bad ``--from``/``--to`` and
    :class:`spark_jobs.lookback.PartitionError` for programs that cannot be partitioned exactly.
    ``solve_from``: only the blocks holding evaluation times from there on are solved (the others
    are not computed at all: ``--resume-from``); ``progress``: see ``BlockJob.progress``; ``state``:
    ``(DIR, elements table)`` of ``--spark-state`` (:mod:`spark_jobs.state`): the blocks saved in
    DIR for this run are read, not solved, and every block solved is saved there; ``engine``: the LARS
    engine of every block (``translator.evaluate.engine.ENGINES``)."""
    from spark_jobs.frames import solve, time_range, with_blocks

    spark = elements.sparkSession
    n = partitions if partitions is not None else default_partitions(spark)
    if bounds is None:
        elements = elements.cache()
        lo, hi = time_range(elements)
    else:
        lo, hi = bounds
    plan = make_plan(runs, lo, hi, start, end, n)

    from_block = None if solve_from is None else plan.blocks.block_of(solve_from)
    directory, done = None, []
    if state is not None:
        from spark_jobs.state import fingerprint, prepare

        directory = state[0]
        done = prepare(directory, fingerprint(plan.runs, static, plan.blocks, state[1]))
        done = [b for b in done if from_block is None or b >= from_block]
    job = BlockJob(plan.runs, tuple(static), plan.blocks, from_block=from_block, progress=progress, state=directory,
                   done=frozenset(done), engine=engine)
    results = solve(with_blocks(elements, plan.look, plan.blocks), job)
    if done:
        from spark_jobs.frames import RESULT_SCHEMA
        from spark_jobs.state import load

        assert directory is not None  # blocks are done only in a state directory
        results = results.unionByName(spark.createDataFrame(load(directory, done), schema=RESULT_SCHEMA))
    return results, plan
