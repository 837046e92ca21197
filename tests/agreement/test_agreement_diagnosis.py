"""Diagnosis by decomposition (Dao-Tran, Beck, Eiter 2015, §5 causes (ii) and (iii), D2 bounds)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement_oracles import naive_verdicts
from translator.agreement import AgreementError, BoundsAlternative, Cause, Runs, Solution, Verdict, diagnose


def A(*names: str) -> frozenset[Solution]:
    return frozenset(Solution.from_mapping({"x": f"<http://ex/{n}>"}) for n in names)


def at10(answer: frozenset[Solution]) -> dict[int, frozenset[Solution]]:
    """A pull run with period 10 on [0, 10]: empty at 0, ``answer`` at 10."""
    return {0: A(), 10: answer}


def only_interval(diagnosis):
    assert len(diagnosis.intervals) == 1
    return diagnosis.intervals[0]


def test_cause_ii_dataset_only():
    # τ1 also answers s from a static triple matching a stream pattern; τ2 pull and push agree
    d = diagnose(Runs(tau1_pull=at10(A("a", "s")), tau2_pull=at10(A("a")), tau2_push={5: A("a")}), 10)
    one = only_interval(d)
    assert one.causes == {Cause.DATASET} and not one.unexplained
    assert one.dataset_only_tau1 == A("s") and one.dataset_only_tau2 == A()
    assert one.mode.verdict is Verdict.AGREE and one.other_bounds_verdict is None
    assert d.counts == {"dataset": 1, "execution-mode": 0, "window-bounds": 0, "unexplained": 0}


def test_cause_ii_when_tau2_has_more():
    d = diagnose(Runs(tau1_pull=at10(A()), tau2_pull=at10(A("a")), tau2_push={5: A("a")}), 10)
    assert only_interval(d).causes == {Cause.DATASET} and only_interval(d).dataset_only_tau2 == A("a")


def test_cause_iii_execution_mode_only():
    # same dataset construction; the pull snapshot at 10 still holds a, no push evaluation produced it
    d = diagnose(Runs(tau1_pull=at10(A("a")), tau2_pull=at10(A("a")), tau2_push={}), 10)
    one = only_interval(d)
    assert one.causes == {Cause.EXECUTION_MODE}
    assert one.mode.missing == A("a") and one.mode.extra == A()
    assert one.dataset_only_tau1 == A() == one.dataset_only_tau2


def test_causes_ii_and_iii_together():
    d = diagnose(Runs(tau1_pull=at10(A("a", "s")), tau2_pull=at10(A("a")), tau2_push={3: A("b")}), 10)
    one = only_interval(d)
    assert one.causes == {Cause.DATASET, Cause.EXECUTION_MODE}
    assert one.sorted_causes == [Cause.DATASET, Cause.EXECUTION_MODE]
    assert d.counts == {"dataset": 1, "execution-mode": 1, "window-bounds": 0, "unexplained": 0}


def test_window_bounds_changes_the_verdict():
    # closed bounds: pull at 10 still sees an item from time 0 that push never re-derived (cause iii);
    # under left-open bounds the item has left the pull window at 10 and the runs agree
    runs = Runs(tau1_pull=at10(A("a")), tau2_pull=at10(A("a")), tau2_push={}, window_bounds="closed")
    other = BoundsAlternative("left-open", tau1_pull=at10(A()), tau2_push={})
    d = diagnose(runs, 10, other=other)
    one = only_interval(d)
    assert one.causes == {Cause.EXECUTION_MODE, Cause.WINDOW_BOUNDS}
    assert one.other_bounds_verdict is Verdict.AGREE
    assert (d.window_bounds, d.other_window_bounds) == ("closed", "left-open")


def test_window_bounds_not_a_cause_when_the_verdict_stays():
    runs = Runs(tau1_pull=at10(A("a")), tau2_pull=at10(A("a")), tau2_push={})
    other = BoundsAlternative("right-open", tau1_pull=at10(A("a")), tau2_push={4: A("b")})
    one = only_interval(diagnose(runs, 10, other=other))
    assert one.causes == {Cause.EXECUTION_MODE} and one.other_bounds_verdict is Verdict.DISAGREE


def test_all_three_causes():
    runs = Runs(tau1_pull=at10(A("a", "s")), tau2_pull=at10(A("a")), tau2_push={})
    other = BoundsAlternative("left-open", tau1_pull=at10(A("b")), tau2_push={10: A("b")})
    one = only_interval(diagnose(runs, 10, other=other))
    assert one.sorted_causes == [Cause.DATASET, Cause.EXECUTION_MODE, Cause.WINDOW_BOUNDS]


def test_only_disagreeing_intervals_are_diagnosed():
    tau1 = {0: A(), 10: A("a"), 20: A("s"), 30: A()}
    tau2 = {0: A(), 10: A("a"), 20: A(), 30: A("c")}
    push = {7: A("a"), 25: A("c")}
    d = diagnose(Runs(tau1, tau2, push), 10)
    assert [v.verdict.value for v in d.headline.intervals] == ["agree", "disagree", "disagree"]
    assert [(x.index, x.sorted_causes) for x in d.intervals] == [
        (1, [Cause.DATASET]),
        (2, [Cause.DATASET]),  # τ2 pull and push agree on [20,30]; τ1 lacks c at 30
    ]
    assert d.for_interval(0) is None and d.for_interval(2).dataset_only_tau2 == A("c")


def test_range_is_applied_to_every_run():
    tau1 = {t: A() for t in range(0, 41, 10)} | {20: A("a")}
    d = diagnose(Runs(tau1, dict(tau1), {}), 10, start=15, end=40)
    assert [(v.start, v.end) for v in d.headline.intervals] == [(20, 30), (30, 40)]
    assert d.intervals == ()


def test_a_run_not_covering_the_range_is_an_error():
    with pytest.raises(AgreementError, match="no pull answer at time 20"):
        diagnose(Runs({0: A(), 10: A(), 20: A()}, {0: A(), 10: A()}, {}), 10)


# --- property: with consistent runs, every disagreement is explained, and each cause is exactly its
# --- definition (computed here with the naive oracle)

POOL = [Solution.from_mapping({"x": f"<http://ex/{n}>"}) for n in "abc"]
answers = st.frozensets(st.sampled_from(POOL), max_size=3)


@st.composite
def decompositions(draw):
    period = draw(st.integers(1, 5))
    last = draw(st.integers(1, 6)) * period
    pull = lambda: {t: draw(answers) for t in range(0, last + 1, period)}  # noqa: E731
    push = lambda: draw(st.dictionaries(st.integers(0, last), answers, max_size=10))  # noqa: E731
    runs = Runs(pull(), pull(), push())
    other = draw(st.one_of(st.none(), st.builds(lambda a, b: BoundsAlternative("left-open", a, b), st.just(pull()), st.just(push()))))
    return runs, period, other


@settings(max_examples=200, deadline=None)
@given(decompositions())
def test_every_disagreement_has_a_cause_and_causes_follow_their_definitions(case):
    runs, period, other = case
    d = diagnose(runs, period, other=other)
    headline = naive_verdicts(runs.tau1_pull, runs.tau2_push, period)
    mode = {i: ok for i, _, _, ok, _, _ in naive_verdicts(runs.tau2_pull, runs.tau2_push, period)}
    alt = (
        {i: ok for i, _, _, ok, _, _ in naive_verdicts(other.tau1_pull, other.tau2_push, period)} if other else None
    )
    assert [x.index for x in d.intervals] == [i for i, _, _, ok, _, _ in headline if not ok]
    for x in d.intervals:
        assert not x.unexplained
        assert (Cause.DATASET in x.causes) == (runs.tau1_pull[x.end] != runs.tau2_pull[x.end])
        assert (Cause.EXECUTION_MODE in x.causes) == (not mode[x.index])
        assert (Cause.WINDOW_BOUNDS in x.causes) == (alt is not None and alt[x.index])
    assert d.counts["unexplained"] == 0 == d.unexplained
