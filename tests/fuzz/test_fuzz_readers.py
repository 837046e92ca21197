"""Every reader under grammar-aware fuzzing (``harness``): accepted inputs round-trip, rejected ones
get a located error, nothing else happens. ``harness.EXAMPLES`` sets how many inputs per reader:
a few hundred here, 10,000 in the ``slow`` variant that ``make fuzz`` runs (it prints the counts)."""

from __future__ import annotations

import pytest

from harness import examples, run
from targets import all_targets

TARGETS = {t.name: t for t in all_targets()}
FAST = examples("test")
FULL = examples("fuzz")


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
