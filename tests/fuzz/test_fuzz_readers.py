"""Every reader under grammar-aware fuzzing (``harness``): accepted inputs round-trip, rejected ones
get a located error, nothing else happens. A few hundred inputs per reader here; ``make fuzz`` runs
the ``slow`` variant with 10,000 per reader and prints the counts."""

from __future__ import annotations

import os

import pytest

from harness import run
from targets import all_targets

TARGETS = {t.name: t for t in all_targets()}
FAST = int(os.environ.get("RSPLARS_FUZZ_FAST", "200"))
FULL = int(os.environ.get("RSPLARS_FUZZ_FULL", "10000"))


@pytest.mark.parametrize("name", list(TARGETS))
def test_fuzz_reader(name):
    counts = run(TARGETS[name], FAST, derandomize=True)
    assert counts["accepted"] + counts["rejected"] >= FAST
    assert counts["rejected"] > 0  # the mutations do reach the error paths


@pytest.mark.slow
@pytest.mark.parametrize("name", list(TARGETS))
def test_fuzz_reader_full(name):
    counts = run(TARGETS[name], FULL, derandomize=False)
    assert counts["accepted"] + counts["rejected"] >= FULL
    assert counts["accepted"] > 0 and counts["rejected"] > 0
