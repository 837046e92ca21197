"""The engine options of ``rsplars run|agree|check|lars`` (docs/spark.md): ``--engine
{sequential,spark}``, ``--master``, ``--partitions``, ``--parquet DIR`` and, for ``run``,
``--spark-state DIR``; :func:`spark_options` turns them into the
:class:`spark_jobs.options.SparkOptions` the Spark jobs take. Building the command line loads
neither pyspark nor the Spark driver code (start-up, docs/performance.md)."""

from __future__ import annotations

import argparse

from spark_jobs.options import DEFAULT_MASTER, ENGINES, SparkOptions


def add_engine_options(parser, *, state: bool = False, engine: bool = True, parquet: bool = True,
                       engine_help: str | None = None) -> None:
    """``--engine``, ``--master``, ``--partitions``, ``--parquet`` (docs/spark.md); ``--spark-state``
    with ``state`` (``rsplars run``, docs/robustness.md). ``parser``: an argument group, or a parser,
    which then gets a group of its own. ``engine=False``: the command has an ``--engine`` of its own
    that takes the value ``spark`` (``rsplars lars``, docs/spark_jobs.md); ``parquet=False``: no
    ``--parquet`` (jobs whose output is not a table of answers); ``engine_help``: what ``--engine spark``
    does in that command."""
    g = parser.add_argument_group("engine") if isinstance(parser, argparse.ArgumentParser) else parser
    if engine:
        g.add_argument("--engine", choices=ENGINES, default="sequential", metavar="ENGINE",
                       help=engine_help or "sequential (default) or spark: blocks of the timeline solved in parallel")
    g.add_argument("--master", default=DEFAULT_MASTER, metavar="URL",
                   help="Spark master: local[*] (default), local[N], spark://HOST:PORT, yarn")
    g.add_argument("--partitions", type=positive, metavar="N",
                   help="blocks solved in parallel (default: four per core of the master)")
    if parquet:
        g.add_argument("--parquet", metavar="DIR",
                       help="--engine spark: also write the answers as Parquet under DIR")
    if not state:
        return
    g.add_argument("--spark-state", metavar="DIR",
                   help="--engine spark: keep solved blocks in DIR for a rerun (docs/robustness.md)")


def spark_options(args: argparse.Namespace) -> SparkOptions:
    """The :class:`~spark_jobs.options.SparkOptions` of ``--master``, ``--partitions``, ``--parquet``
    and ``--spark-state`` (the options a command does not have stay unset)."""
    return SparkOptions(master=args.master, partitions=args.partitions, parquet=getattr(args, "parquet", None),
                        state=getattr(args, "spark_state", None))


def positive(text: str) -> int:
    """An argparse type: a positive integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value
