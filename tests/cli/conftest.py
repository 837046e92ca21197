"""Fixtures of the CLI tests (helpers: ``cli_helpers.py``)."""

from __future__ import annotations

import pytest

from cli_helpers import cli


@pytest.fixture
def run_cli(capsys):
    def call(*argv: str) -> tuple[int, str, str]:
        return cli(capsys, *argv)

    return call
