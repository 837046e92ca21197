"""Fixtures of the live engine tests (docs/engines.md)."""

from __future__ import annotations

import pytest

from translator.cli import main


@pytest.fixture
def cli(capsys):
    """``cli(*argv) -> (exit code, stdout, stderr)`` of the rsplars command line, in process."""
    def call(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return call
