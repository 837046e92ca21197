"""Blocks of an in-memory data stream (:mod:`spark_jobs.point_blocks`) solved on Spark, one task each.

The driver cuts the evaluation times into blocks and gives each block the time points its look-back
reaches; a task runs the LARS engine of a sequential run (``translator.evaluate.engine.make_solver``)
over its block on the timeline of the whole stream, at the block's own evaluation times, and gives
back what ``BlockSolve.reader`` reads off each step (a module-level function, pickled by reference).
The results come back in block order, so the steps are in time order as a sequential run yields
them (docs/spark_jobs.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from lars.model import Program, Stream
from lars.solver import Step
from spark_jobs.lookback import LookBack
from spark_jobs.options import DEFAULT_MASTER
from spark_jobs.point_blocks import Points, PointBlock, point_blocks


@dataclass(frozen=True)
class BlockSolve:
    """How every block is solved: the program, the timeline ``[lo, end]`` of the whole stream, the
    LARS engine (``auto``/``asp``/``incremental``), the answer streams per time point (``models``),
    whether the program calls the SPARQL functions of translated queries, and what a step gives back."""

    program: Program
    lo: int
    end: int
    reader: Callable[[Step], object]
    engine: str = "auto"
    models: int = 1
    sparql_functions: bool = False


def solve_point_block(solve: BlockSolve, block: PointBlock) -> list:
    """``solve.reader(step)`` for every evaluation time the block owns, in time order (plain Python:
    what a Spark task runs, and the tests' partitioned run without Spark)."""
    from spark_jobs.solve_blocks import BlockError

    try:
        return _solve(solve, block)
    except Exception as err:  # noqa: BLE001 - named with the block's times, then re-raised
        raise BlockError(f"block {block.index} covering the evaluation times {block.times[0]}..{block.times[-1]} "
                         f"failed: {type(err).__name__}: {err}") from err


def _solve(solve: BlockSolve, block: PointBlock) -> list:
    from translator.evaluate.engine import make_solver

    functions = None
    if solve.sparql_functions:
        from translator.translate.expressions import FUNCTIONS

        functions = FUNCTIONS
    solver = make_solver(solve.program, solve.engine, models=solve.models, functions=functions)
    stream = Stream(block.points, solve.lo, max(solve.end, solve.lo))
    return [solve.reader(step) for step in solver.run(stream, list(block.times))]


def solve_blocks_locally(points: Points, times: Sequence[int], look: LookBack, solve: BlockSolve,
                         count: int) -> Iterator:
    """The partitioned run in this process, block after block (the reference the Spark run equals)."""
    for block in point_blocks(points, times, look, count):
        yield from solve_point_block(solve, block)


def solve_blocks_on_spark(points: Points, times: Sequence[int], look: LookBack, solve: BlockSolve, *,
                          master: str = DEFAULT_MASTER, partitions: int | None = None) -> Iterator:
    """The partitioned run on Spark: one task per block (``partitions`` blocks, default four per
    core of the master); worker errors come back as user errors (``spark_jobs.runs.user_errors``). A task
whose Python worker dies is run again (``spark_jobs.context.TASK_ATTEMPTS``): the blocks are pure
functions of their input, so a retried block gives the same answers."""
    from spark_jobs.runs import start_spark, user_errors
    from spark_jobs.pipeline import default_partitions

    spark = start_spark(master)
    count = partitions if partitions is not None else default_partitions(spark)
    blocks = point_blocks(points, times, look, count)
    if not blocks:
        return iter(())
    with user_errors():
        results = (spark.sparkContext.parallelize(blocks, len(blocks))
                   .map(lambda block: solve_point_block(solve, block)).collect())
    return (item for block_result in results for item in block_result)
