"""τ(ω) under the window-bounds conventions of D2: the LARS window ``translator.translate.tau.lars_window``
builds for ``[RANGE L STEP D]`` holds, at every reference time, exactly the time points of the window of
length L ending at ``t' = ⌊t/D⌋·D`` as each convention defines it (written out here as comparisons),
cut to the timeline [tmin, t] (D9); bad convention names are refused naming the choices."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.errors import RsplarsError, UnsupportedError
from lars.model import Constant, TimeWindow
from lars.reference import time_window_bounds
from translator.translate.algebra import WindowSpec
from translator.translate.tau import lars_window

DEFINED = {
    "closed": lambda p, end, length: end - length <= p <= end,
    "left-open": lambda p, end, length: end - length < p <= end,
    "right-open": lambda p, end, length: end - length <= p < end,
}
STREAM = Constant("s")


@given(st.sampled_from(sorted(DEFINED)), st.integers(1, 30), st.integers(1, 6), st.integers(0, 80), st.integers(-20, 0))
def test_a_range_window_holds_the_points_its_bounds_define(bounds: str, length: int, step: int, t: int, tmin: int) -> None:
    window = lars_window(WindowSpec("range", length, step), STREAM, bounds)
    assert isinstance(window, TimeWindow)
    lo, hi = time_window_bounds(window, t, tmin)
    pivot = t // step * step
    assert set(range(lo, hi + 1)) == {p for p in range(tmin, t + 1) if DEFINED[bounds](p, pivot, length)}


def test_an_unbounded_window_keeps_the_right_end_of_its_bounds() -> None:
    assert lars_window(WindowSpec("all"), STREAM, "right-open") == TimeWindow(None, -1, 1)
    assert lars_window(WindowSpec("all"), STREAM, "left-open") == TimeWindow(None, 0, 1)


def test_an_empty_left_open_window_is_refused_by_name() -> None:
    with pytest.raises(UnsupportedError, match="a left-open window of length 0"):
        lars_window(WindowSpec("range", 0), STREAM, "left-open")


def test_an_unknown_convention_is_refused_naming_the_choices() -> None:
    with pytest.raises(RsplarsError, match="expected one of closed, left-open, right-open"):
        lars_window(WindowSpec("range", 3), STREAM, "open")
