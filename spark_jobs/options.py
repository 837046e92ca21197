"""The engine options of ``rsplars run|agree`` and ``spark_jobs/submit.py`` (docs/spark.md):
``--engine {sequential,spark}``, ``--master``, ``--partitions``, ``--parquet DIR`` and, for ``run``,
``--spark-state DIR``. Apart from :mod:`spark_jobs.cli` (which re-exports them) so that building
the command line loads neither the Spark driver code nor pyspark (start-up, docs/performance.md)."""

from __future__ import annotations

import argparse

ENGINES = ("sequential", "spark")
DEFAULT_MASTER = "local[*]"


def add_engine_options(parser: argparse.ArgumentParser, *, state: bool = False) -> None:
    """``--engine``, ``--master``, ``--partitions``, ``--parquet`` (docs/spark.md); ``--spark-state``
    with ``state`` (``rsplars run``, docs/robustness.md)."""
    g = parser.add_argument_group("engine")
    g.add_argument("--engine", choices=ENGINES, default="sequential",
                   help="sequential: one clingo run over the whole stream (default); spark: the timeline cut "
                        "into blocks of whole pull intervals, solved in parallel (identical answers)")
    g.add_argument("--master", default=DEFAULT_MASTER, metavar="URL",
                   help="Spark master for --engine spark: local[*] (default), local[N], spark://HOST:PORT, yarn")
    g.add_argument("--partitions", type=_positive, metavar="N",
                   help="number of blocks solved in parallel (default: four per core of the master)")
    g.add_argument("--parquet", metavar="DIR",
                   help="with --engine spark: also write answers, evaluation times (and verdicts) as Parquet under DIR")
    if not state:
        return
    g.add_argument("--spark-state", metavar="DIR",
                   help="with rsplars run --engine spark: keep each solved block's answers in DIR; a later run of "
                        "the same query over the same data reads them instead of solving them again (docs/robustness.md)")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value
