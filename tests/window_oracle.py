"""The test oracle for RSP time windows: ``[RANGE length STEP step]`` at t computed directly from
Dao-Tran, Beck, Eiter 2015, Table 1 (``⊞^{L,0,D}``) under the window-bounds conventions of D2, cut at t (D9), on
integer time. Shared by the differential tests against rdflib (imported by name: tests/conftest.py
puts this folder on sys.path)."""

from __future__ import annotations

from typing import Iterable, TypeVar

Item = TypeVar("Item")


def window_bounds(length: int, step: int, t: int, convention: str) -> tuple[int, int]:
    """``[lo, hi]`` of the window at t (empty when lo > hi)."""
    anchor = (t // step) * step
    lo, hi = {
        "closed": (anchor - length, anchor),
        "left-open": (anchor - length + 1, anchor),
        "right-open": (anchor - length, anchor - 1),
    }[convention]
    return lo, min(hi, t)


def window_content(elements: Iterable[tuple[int, Item]], length: int, step: int, t: int, convention: str) -> set[Item]:
    """The items of the ``(time, item)`` pairs that lie in the window at t."""
    lo, hi = window_bounds(length, step, t, convention)
    return {item for time, item in elements if lo <= time <= hi}
