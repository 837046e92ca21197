"""Many ``rsplars check`` verdicts in parallel on Spark (docs/spark_jobs.md).

A verdict (Dell'Aglio et al. 2014, Defs. 25–26: is a recorded output one of the query's expected outputs
for some t0 under an engine profile) depends on its own query, stream, answers file and profile only.
Checking many of them — answer files of several engines, queries, profiles, fixed t0 values — is
therefore a map over independent items: each item is one ``rsplars check`` command line (parsed on the
driver), judged in a Spark task by the command's own code path (``judge``, given by the command line
module: this module never imports it), and its outcome (exit code, standard output, standard error)
comes back in item order. How one verdict is computed does not change; each outcome is the one the
sequential command gives for that item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from spark_jobs.options import DEFAULT_MASTER

#: one item to judge: plain data that pickles (what a Spark task receives)
Item = TypeVar("Item")


@dataclass(frozen=True)
class Outcome:
    """What one ``rsplars check`` printed and returned."""

    code: int
    out: str
    err: str


def judge_in_order(items: Sequence[Item], judge: Callable[[Item], Outcome]) -> list[Outcome]:
    """The items judged one after the other in this process."""
    return [judge(item) for item in items]


def judge_on_spark(items: Sequence[Item], judge: Callable[[Item], Outcome], *, master: str = DEFAULT_MASTER,
                   partitions: int | None = None) -> list[Outcome]:
    """The items judged in parallel, one Spark task per item (at most ``partitions`` tasks, default
    one per item); outcomes in item order."""
    from spark_jobs.runs import start_spark, user_errors

    if not items:
        return []
    spark = start_spark(master)
    slices = min(len(items), partitions) if partitions is not None else len(items)
    with user_errors():
        judged = (spark.sparkContext.parallelize(list(enumerate(items)), slices)
                  .map(lambda pair: (pair[0], judge(pair[1]))).collect())
    return [outcome for _, outcome in sorted(judged, key=lambda pair: pair[0])]
