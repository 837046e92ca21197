"""Fuzz tests: ``make test`` runs a few hundred inputs per reader; ``make fuzz`` (``pytest -m slow
tests/fuzz``) runs >= 10,000 per reader and prints the counts (``harness.COUNTS``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # harness, targets by name


@pytest.fixture(autouse=True)
def _cache_in_tmp(cache):
    """The CLI targets call ``main``, which keeps parsed queries in the user's cache folder: a
    folder of the test's own instead (``tests/conftest.py``), so fuzzed inputs never reach it."""
    return cache


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    from harness import COUNTS

    if not COUNTS:
        return
    tr = terminalreporter
    tr.section("fuzz: generated inputs per reader")
    tr.write_line("readers: accepted = read and round-tripped, rejected = SourceError with FILE:LINE:COLUMN; "
                  "CLI: accepted = exit 0, rejected = exit 2 with a located or named error")
    total = 0
    for name, counts in sorted(COUNTS.items()):
        n = counts["accepted"] + counts["rejected"]
        total += n
        tr.write_line(f"{name:32s} {n:7d} inputs: {counts['accepted']:6d} accepted, {counts['rejected']:6d} rejected")
    tr.write_line(f"{'total':32s} {total:7d} inputs")


def pytest_collection_modifyitems(config, items):
    """The 10,000-input runs are for ``make fuzz`` (``-m slow``); a plain ``pytest`` (``make test``)
    deselects them and runs the few-hundred-input variant of every reader."""
    if "slow" in (config.getoption("-m") or ""):
        return
    fuzz_dir = str(Path(__file__).parent)
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker("slow") and str(item.fspath).startswith(fuzz_dir) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
