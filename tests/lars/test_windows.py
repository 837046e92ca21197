"""``lars.windows``: the one definition of window bounds (D2) and partition keys every engine uses.

The membership function is checked against the three intervals written out as comparisons
(closed ``t−L ≤ p ≤ t``, left-open ``t−L < p ≤ t``, right-open ``t−L ≤ p < t``), the LARS window it
stands for against the time window function of ``lars.reference`` (the engines' oracle), and the
partition matcher against the reference's partition window."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lars.errors import RsplarsError
from lars.model import Arith, Atom, Constant, Function, Integer, PartitionWindow, Stream, TimeWindow, Variable
from lars.reference import time_window_bounds as reference_bounds
from lars.reference import window_view
from lars.windows import (
    WINDOW_BOUNDS,
    WindowBounds,
    WindowBoundsError,
    first_point,
    in_partition,
    in_window,
    last_point,
    reach,
    time_window_bounds,
)

DEFINITIONS = {
    WindowBounds.CLOSED: lambda p, t, length: t - length <= p <= t,
    WindowBounds.LEFT_OPEN: lambda p, t, length: t - length < p <= t,
    WindowBounds.RIGHT_OPEN: lambda p, t, length: t - length <= p < t,
}

times = st.integers(-50, 200)
lengths = st.integers(0, 60)


@given(times, lengths, st.integers(-70, 210), st.sampled_from(list(WindowBounds)))
def test_membership_follows_the_definition_of_each_bounds(t: int, length: int, point: int, bounds: WindowBounds) -> None:
    assert in_window(point, t, length, bounds) == DEFINITIONS[bounds](point, t, length)
    assert in_window(point, t, length, bounds.value) == DEFINITIONS[bounds](point, t, length)


@given(times, lengths, st.sampled_from(list(WindowBounds)))
def test_first_and_last_points_are_the_ends_of_the_defined_interval(t: int, length: int, bounds: WindowBounds) -> None:
    inside = [p for p in range(t - length - 2, t + 3) if DEFINITIONS[bounds](p, t, length)]
    if inside:
        assert (first_point(t, length, bounds), last_point(t, length, bounds)) == (inside[0], inside[-1])
    else:  # left-open and right-open windows of length 0 are empty
        assert length == 0 and bounds is not WindowBounds.CLOSED
        assert first_point(t, length, bounds) > last_point(t, length, bounds)


@given(times, st.integers(1, 60), st.integers(1, 7), st.integers(-60, 0), st.sampled_from(list(WindowBounds)))
def test_the_lars_window_of_the_bounds_holds_the_defined_points(t: int, length: int, step: int, tmin: int,
                                                                  bounds: WindowBounds) -> None:
    """``⊞^{l,u,d}`` with ``(l, u) = reach(bounds, L)`` at t holds the points of the window of length L
    ending at ``t' = ⌊t/d⌋·d``, cut to the timeline [tmin, t] (D9), as the reference computes it."""
    l, u = reach(bounds, length)
    window = TimeWindow(l, u, step)
    pivot = t // step * step
    lo, hi = time_window_bounds(window, t, tmin)
    assert (lo, hi) == reference_bounds(window, t, tmin)
    got = {p for p in range(lo, hi + 1)}
    assert got == {p for p in range(tmin, t + 1) if DEFINITIONS[bounds](p, pivot, length)}


def test_reach_of_an_interval_ending_before_now_and_of_an_unbounded_window() -> None:
    """``[t−a, t−b]`` and its open variants (RSP-QL ``[FROM NOW-a TO NOW-b]``); ``⊞^∞`` keeps no left end."""
    assert reach(WindowBounds.CLOSED, 10, 2) == (10, -2)
    assert reach(WindowBounds.LEFT_OPEN, 10, 2) == (9, -2)
    assert reach(WindowBounds.RIGHT_OPEN, 10, 2) == (10, -3)
    assert reach(WindowBounds.RIGHT_OPEN, None) == (None, -1)
    assert reach(WindowBounds.LEFT_OPEN, None) == (None, 0)


def test_user_strings_parse_into_the_enum_and_equal_it() -> None:
    assert WindowBounds.parse("closed") is WindowBounds.CLOSED
    assert WindowBounds.parse("left-open") is WindowBounds.LEFT_OPEN
    assert WindowBounds.parse("right-open") is WindowBounds.RIGHT_OPEN
    assert WindowBounds.parse(WindowBounds.LEFT_OPEN) is WindowBounds.LEFT_OPEN
    assert WindowBounds.LEFT_OPEN == "left-open" and f"{WindowBounds.RIGHT_OPEN}" == "right-open"
    assert WINDOW_BOUNDS == ("closed", "left-open", "right-open")


@pytest.mark.parametrize("text", ["open", "Closed", "left_open", "", "[t-L, t]"])
def test_a_bad_bounds_string_is_refused_naming_the_choices(text: str) -> None:
    with pytest.raises(WindowBoundsError) as caught:
        WindowBounds.parse(text)
    message = str(caught.value)
    assert repr(text) in message and "closed, left-open, right-open" in message
    assert isinstance(caught.value, RsplarsError) and isinstance(caught.value, ValueError)
    with pytest.raises(WindowBoundsError):
        in_window(0, 0, 1, text)


_ = Variable("_")


def test_a_compound_key_with_wildcards_inside_matches_its_instances() -> None:
    """Beck, Dao-Tran, Eiter, Fink 2015, partition-based windows: the partition of ``p(f(_), b)`` is the
    atoms ``p(f(x), b)`` for every x. A matcher that compares a compound key argument by equality
    (``spark_jobs.point_blocks`` did) finds none of them; the partition must be the one the
    reference's window function takes."""
    key = Atom("p", (Function("f", (_,)), Constant("b")))
    inside = [Atom("p", (Function("f", (Integer(1),)), Constant("b"))),
              Atom("p", (Function("f", (Function("g", (Constant("c"),)),)), Constant("b")))]
    outside = [Atom("p", (Function("g", (Integer(1),)), Constant("b"))),
               Atom("p", (Function("f", (Integer(1), Integer(2))), Constant("b"))),
               Atom("p", (Function("f", (Integer(1),)), Constant("c"))),
               Atom("p", (Constant("f"), Constant("b"))),
               Atom("q", (Function("f", (Integer(1),)), Constant("b"))),
               Atom("p", (Function("f", (Integer(1),)),))]
    assert all(in_partition(key, a) for a in inside)
    assert not any(in_partition(key, a) for a in outside)
    # the old equality of arguments (a compound key argument equal to the atom's) misses every instance
    assert not any(all(isinstance(k, Variable) or k == g for k, g in zip(key.args, a.args)) for a in inside)
    stream = Stream({u: (a,) for u, a in enumerate(inside + outside)})
    kept = window_view(PartitionWindow(len(inside), key), stream, len(inside) + len(outside), 0).kept
    assert kept is not None
    assert {a for atoms in kept.values() for a in atoms} == set(inside)


def test_wildcards_of_a_key_are_independent() -> None:
    key = Atom("p", (Variable("X"), Variable("X")))
    assert in_partition(key, Atom("p", (Integer(1), Integer(2))))


def test_arithmetic_in_a_key_is_refused_by_name() -> None:
    key = Atom("p", (Arith("+", Integer(1), Integer(1)),))
    with pytest.raises(RsplarsError, match="partition key"):
        in_partition(key, Atom("p", (Integer(2),)))
