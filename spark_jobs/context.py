"""One place that starts Spark (a ``SparkSession``) with settings safe on a small, offline machine.

Local mode with every core named explicitly, no UI, loopback binding (no dependence on the
machine's interfaces), few shuffle partitions, UTC as Spark SQL's time zone, and the Python
workers on the driver's own interpreter (otherwise they may start a system python without
pyarrow; docs/spark.md). Tests, notebooks and the CLI all go through :func:`build_spark` so their
settings match.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

DEFAULTS: dict[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.python.worker.faulthandler.enabled": "true",
}


#: attempts per task: a task whose Python worker died or raised is run again (docs/robustness.md)
TASK_ATTEMPTS = 4


def with_retries(master: str) -> str:
    """``local[N]`` / ``local[*]`` never retry a failed task (Spark's local mode); ``local[N,F]``
    allows F attempts. Other masters retry by ``spark.task.maxFailures`` (4 by default)."""
    import re

    m = re.fullmatch(r"local\[(\d+|\*)\]", master.strip())
    if m:
        return f"local[{m.group(1)},{TASK_ATTEMPTS}]"
    if master.strip() == "local":
        return f"local[1,{TASK_ATTEMPTS}]"
    return master


def build_spark(master: str = "local[2]", app_name: str = "rsplars", **overrides: Any) -> "SparkSession":
    """Return a (possibly existing) SparkSession on ``master`` with :data:`DEFAULTS` and ``overrides``.

    Spark keys contain dots, so pass overrides as a mapping:
    ``build_spark(**{"spark.sql.shuffle.partitions": "8"})``.
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(with_retries(master)).appName(app_name)
    for key, value in {**DEFAULTS, **{k: str(v) for k, v in overrides.items()}}.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
