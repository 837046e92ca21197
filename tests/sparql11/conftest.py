"""The ``rsplars`` fixture: ``rsplars(query, data="", named={IRI: turtle}, *options)`` → :class:`Run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from sparql11_cli import Run, run_query

__all__ = ["Run"]


@pytest.fixture
def rsplars(tmp_path: Path):
    def run(query: str, data: str = "", named: dict[str, str] | None = None, *options: str) -> Run:
        return run_query(tmp_path, query, data, named, *options)

    return run
