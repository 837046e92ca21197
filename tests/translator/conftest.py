from __future__ import annotations

from pathlib import Path

import pytest

QUERIES = Path(__file__).resolve().parents[1] / "data" / "queries"


@pytest.fixture(scope="session")
def queries_dir() -> Path:
    return QUERIES
