"""One place that starts Spark (a ``SparkSession``) with settings safe on a small, offline machine.

Local mode with every core named explicitly, no UI, loopback binding (no dependence on the
machine's interfaces), few shuffle partitions, UTC as Spark SQL's time zone. Where the Python
workers run:

* a local master (``local``, ``local[N]``): on the driver's own interpreter (otherwise they may
  start a system python without pyarrow; docs/spark.md);
* any other master (``spark://…``, ``yarn``, ``k8s://…``): the workers do not share the driver's
  environment. With ``RSPLARS_SPARK_ENV`` naming a folder built by :mod:`spark_jobs.shipping`
  (``make spark-env``) the job ships its packed dependencies (``spark.archives``, unpacked as
  ``./environment`` on every executor, whose ``bin/python`` runs the workers) and the project's
  zip (``spark.submit.pyFiles``), as Spark documents for Python packaging; without it the workers
  run the ``PYSPARK_PYTHON`` the user exported (kept as given) or else the nodes' own ``python3``,
  which must then have the project installed.

Before a cluster's SparkSession is handed out, one tiny job checks that the workers' interpreter
imports the project (:func:`check_workers`); if not, :class:`WorkerPythonError` says so and names
the fixes, instead of a job that fails four times per task with ``No module named 'spark_jobs'``.

Tests, notebooks and the CLI all go through :func:`build_spark` so their settings match.
"""

from __future__ import annotations

import os
import sys
import types
from typing import TYPE_CHECKING, Any

from lars.errors import RsplarsError

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


def is_local(master: str) -> bool:
    """``local``, ``local[N]``, ``local[N,F]``, ``local[*]``: executors in the driver's process."""
    return master.strip() == "local" or master.strip().startswith("local[")


#: a setting of this module (not Spark's): the project's zip, added with ``addPyFile`` once the
#: context runs (a SparkSession built in Python is not started by spark-submit, which would add
#: ``spark.submit.pyFiles`` itself)
SHIPPED_CODE = "rsplars.shipped.pyFiles"

#: names the folder of :mod:`spark_jobs.shipping` whose environment a cluster job ships
SHIPPED_ENV_VARIABLE = "RSPLARS_SPARK_ENV"


#: the ``PYSPARK_PYTHON`` this module set for a local master (the user's own is never changed)
_SET_HERE: list[str] = []


def worker_python(master: str) -> dict[str, str]:
    """Settings (and the ``PYSPARK_PYTHON`` of this process, which pyspark sends to the executors
    as the workers' interpreter) for where the Python workers of ``master`` run; see the module's
    docstring."""
    if is_local(master):
        if "PYSPARK_PYTHON" not in os.environ:
            os.environ["PYSPARK_PYTHON"] = sys.executable
            _SET_HERE[:] = [sys.executable]
        return {}
    folder = os.environ.get(SHIPPED_ENV_VARIABLE)
    if not folder:
        if _SET_HERE and os.environ.get("PYSPARK_PYTHON") == _SET_HERE[0]:  # an earlier local SparkSession's
            del os.environ["PYSPARK_PYTHON"]
            _SET_HERE.clear()
        return {}
    from spark_jobs.shipping import ARCHIVE_ALIAS, WORKER_PYTHON, load

    shipped = load(folder)
    os.environ["PYSPARK_PYTHON"] = WORKER_PYTHON
    return {"spark.archives": f"{shipped.archive}#{ARCHIVE_ALIAS}",
            "spark.pyspark.python": WORKER_PYTHON,
            SHIPPED_CODE: str(shipped.py_files)}


def build_spark(master: str = "local[2]", app_name: str = "rsplars", **overrides: Any) -> "SparkSession":
    """Return a (possibly existing) SparkSession on ``master`` with :data:`DEFAULTS` and ``overrides``.

    Spark keys contain dots, so pass overrides as a mapping:
    ``build_spark(**{"spark.sql.shuffle.partitions": "8"})``.
    """
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    settings = {**DEFAULTS, **worker_python(master), **{k: str(v) for k, v in overrides.items()}}
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(with_retries(master)).appName(app_name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    code = spark.sparkContext.getConf().get(SHIPPED_CODE)
    if code and not is_local(master):
        spark.sparkContext.addPyFile(code)
    spark.sparkContext.setLogLevel("ERROR")
    if not is_local(master):
        check_workers(spark)
    return spark


class WorkerPythonError(RsplarsError):
    """The cluster's Python workers cannot import the project."""


_CHECKED: set[str] = set()  # the applications whose workers were found able to run the project


def _imports_the_project(_) -> list:
    """On a worker: its interpreter and why it cannot import the project (``None``: it can)."""
    import sys

    try:  # what the tasks run: the blocks' solver and, for check tasks, the public API's judge
        for module in ("spark_jobs.solve_blocks", "rsplars.checking"):
            __import__(module)
    except Exception as err:  # noqa: BLE001 - reported to the driver as text
        return [(sys.executable, f"{type(err).__name__}: {err}")]
    return [(sys.executable, None)]


def check_workers(spark) -> None:
    """One task on a worker of the cluster imports the project: if it cannot, stop here with
    :class:`WorkerPythonError`, naming the interpreter and the fixes (docs/spark.md, "On a
    cluster"). Once per Spark application."""
    sc = spark.sparkContext
    if sc.applicationId in _CHECKED:
        return
    # a function of no module (cloudpickle sends its code): the workers need nothing of rsplars to run it
    probe = types.FunctionType(_imports_the_project.__code__, {"__builtins__": __builtins__})
    used = os.environ.get("PYSPARK_PYTHON") or sc.getConf().get("spark.pyspark.python") or "python3"
    try:
        found = sc.parallelize([0], 1).mapPartitions(probe).collect()
        problem = found[0][1] if found else "no answer"
        where = found[0][0] if found else used
    except Exception as exc:  # noqa: BLE001 - Spark's error (py4j) carries the workers' message
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        problem = next((line for line in reversed(lines) if "Error" in line and not line.startswith("at ")),
                       lines[0] if lines else type(exc).__name__)
        where = used
    if problem is None:
        _CHECKED.add(sc.applicationId)
        return
    spark.stop()
    raise WorkerPythonError(
        f"the Python workers of {sc.master} ({where}) cannot import rsplars: {problem}. Ship the "
        f"project with the job: run `make spark-env` and `export {SHIPPED_ENV_VARIABLE}=build/spark-env` "
        f"(docs/spark.md, \"On a cluster\"), or export PYSPARK_PYTHON as an interpreter that every node "
        f"has with rsplars installed")
