"""The settings of a Spark run, as a frozen dataclass (docs/spark.md): where it runs (``master``), into
how many blocks the timeline is cut (``partitions``), where the answers are also written as Parquet
(``parquet``) and where solved blocks are kept for a rerun (``state``, docs/robustness.md). The public
API (``rsplars.run(..., engine="spark", spark=SparkOptions(...))``), the command line (``--engine spark
--master … --partitions … --parquet … --spark-state …``) and ``spark_jobs/submit.py`` build one and
pass it to :mod:`spark_jobs.runs`. Plain data: importing this module loads neither pyspark nor the
Spark driver code (start-up of the command line, docs/performance.md)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_MASTER", "ENGINES", "SparkOptions"]

#: the evaluation engines of ``rsplars run|agree`` and ``rsplars.run|agree``: one process, or Spark
ENGINES = ("sequential", "spark")
#: Spark in this process, one executor thread per core
DEFAULT_MASTER = "local[*]"


@dataclass(frozen=True)
class SparkOptions:
    """Where and how a run is solved on Spark.

    ``master``: ``local[*]`` (default), ``local[N]``, ``spark://HOST:PORT``, ``yarn``, … (under
    ``spark-submit`` the master given to spark-submit wins); ``partitions``: the blocks solved in
    parallel (default: four per core of the master); ``parquet``: a directory under which the answers,
    the evaluation times (and the agreement verdicts) are also written as Parquet datasets;
    ``state``: a directory keeping the solved blocks of a run, so that the same run started again
    reads them instead of solving them (runs of in-memory elements only).

    >>> SparkOptions(master="local[2]", partitions=8).partitions
    8
    """

    master: str = DEFAULT_MASTER
    partitions: int | None = None
    parquet: str | None = None
    state: str | None = None

    def __post_init__(self) -> None:
        from lars.errors import RsplarsError

        if not isinstance(self.master, str) or not self.master.strip():
            raise RsplarsError(f"Spark master: expected a URL such as local[*] or spark://HOST:PORT, got {self.master!r}")
        if self.partitions is not None and (isinstance(self.partitions, bool) or not isinstance(self.partitions, int)
                                            or self.partitions < 1):
            raise RsplarsError(f"Spark partitions: expected a positive integer, got {self.partitions!r}")
