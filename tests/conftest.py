"""Shared fixtures. The Spark session is built once per test run and only when a test asks for it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # shared test helpers (window_oracle) by name

DATA = Path(__file__).parent / "data"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A user cache folder of its own (``RSPLARS_CACHE_DIR``: parsed programs and queries)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def spark():
    """One ``local[2]`` SparkSession for the whole run (STYLE.md §1.8). Needs Java: never skipped."""
    from spark_jobs.session import build_session

    session = build_session("local[2]", app_name="rsplars-tests")
    yield session
    session.stop()
