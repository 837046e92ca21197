"""Shared fixtures. The SparkSession is built once per test run and only when a test asks for it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))  # shared test helpers (window_oracle) by name

# Property tests: under CI (``CI`` set, as CI machines set it) every run draws the same examples
# (seeded by each test), so that a red CI is a change's and can be reproduced; elsewhere every run
# draws new ones and keeps the failures it finds in .hypothesis/ (how some cases of
# tests/translator/test_propositions.py were found).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session", autouse=True)
def _user_cache_in_a_temporary_folder(tmp_path_factory):
    """Tests write only to temporary folders: the command line's cache (``translator.cache``, used by
    ``main([...])`` and the ``rsplars`` processes of the tests) is one of this run's own."""
    previous = os.environ.get("RSPLARS_CACHE_DIR")
    os.environ["RSPLARS_CACHE_DIR"] = str(tmp_path_factory.mktemp("user-cache"))
    yield
    if previous is None:
        del os.environ["RSPLARS_CACHE_DIR"]
    else:
        os.environ["RSPLARS_CACHE_DIR"] = previous


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A user cache folder of its own (``RSPLARS_CACHE_DIR``, ``translator.cache``: parsed queries and programs)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


#: the folder of the tests' Spark worker daemon (``tests/spark_workers/fault_daemon.py``)
SPARK_WORKERS = Path(__file__).parent / "spark_workers"


@pytest.fixture(scope="session")
def spark_faults_file(tmp_path_factory) -> Path:
    """The file the tests' Spark workers read their fault from (``spark_fault``)."""
    return tmp_path_factory.mktemp("spark-faults") / "fault"


@pytest.fixture(scope="session")
def spark(spark_faults_file):
    """One ``local[2]`` SparkSession for the whole run (STYLE.md §1.8). Needs Java: never skipped.
    Its Python workers are PySpark's, started through ``tests/spark_workers/fault_daemon.py`` so
    that a test can make them fail (``spark_fault``)."""
    from spark_jobs.context import build_spark

    spark = build_spark("local[2]", app_name="rsplars-tests", **{
        "spark.python.daemon.module": "fault_daemon",
        "spark.executorEnv.PYTHONPATH": str(SPARK_WORKERS),
        "spark.executorEnv.RSPLARS_TEST_FAULTS": str(spark_faults_file),
    })
    yield spark
    spark.stop()


@pytest.fixture
def spark_fault(spark, spark_faults_file):
    """``spark_fault("exit-once:MARKER")`` makes the workers of ``spark`` fail as
    ``tests/spark_workers/fault_daemon.py`` says, until the test ends."""
    conf = spark.sparkContext.getConf()
    if conf.get("spark.python.daemon.module") != "fault_daemon":
        pytest.fail("the SparkSession was built before the spark fixture: its workers cannot fail on demand")

    def inject(fault: str) -> None:
        spark_faults_file.write_text(fault + "\n", encoding="utf-8")

    yield inject
    spark_faults_file.unlink(missing_ok=True)


@pytest.fixture
def cli(capsys):
    """``cli(*argv) -> (exit code, stdout, stderr)`` of the rsplars command line, in process."""
    from translator.cli import main

    def call(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return call
