"""The standalone Spark cluster of the cluster tests (``tests/spark_jobs/standalone.py``): started
once per test run, only when a test asks for it, and stopped with everything it started."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def shipped_env() -> Path:
    """The workers' packed environment and the project's zip (``make spark-env``), built in the
    repository's (untracked) ``build/spark-env`` and reused while the dependencies stay the same."""
    from spark_jobs.shipping import build

    folder = ROOT / "build" / "spark-env"
    build(folder)
    return folder


@pytest.fixture(scope="session")
def standalone_cluster(tmp_path_factory):
    """A master and two workers (one core each) on 127.0.0.1; see ``standalone.Cluster``."""
    from standalone import Cluster

    cluster = Cluster(tmp_path_factory.mktemp("spark-cluster"))
    try:
        yield cluster.start(workers=2)
    finally:
        cluster.stop()
