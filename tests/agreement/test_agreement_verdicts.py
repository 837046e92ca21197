"""Interval verdicts (Dao-Tran, Beck, Eiter 2015, §5): hand-computed cases and a property test against a naive oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement_oracles import naive_verdicts
from translator.agreement import AgreementError, Solution, Verdict, agree_on, judge, judged_intervals


def sol(name: str) -> Solution:
    return Solution.from_mapping({"x": f"<http://ex/{name}>"})


def A(*names: str) -> frozenset[Solution]:
    return frozenset(sol(n) for n in names)


def pulls(period: int, end: int, answers: dict[int, frozenset[Solution]]) -> dict[int, frozenset[Solution]]:
    """A pull run: an answer at every multiple of the period up to ``end`` (empty unless given)."""
    return {t: answers.get(t, frozenset()) for t in range(0, end + 1, period)}


def table(result):
    return [(v.index, v.start, v.end, v.verdict.value, v.missing, v.extra) for v in result.intervals]


def test_agreeing_run():
    result = judge(pulls(10, 20, {10: A("a"), 20: A("a", "b")}), {3: A("a"), 15: A("a"), 18: A("b")}, 10)
    assert table(result) == [(0, 0, 10, "agree", A(), A()), (1, 10, 20, "agree", A(), A())]
    assert result.intervals[1].push == A("a", "b") and result.intervals[1].push_times == (15, 18)
    s = result.summary
    assert (s.intervals, s.agreeing, s.disagreeing, s.share_agreeing, s.all_agree) == (2, 2, 0, 1.0, True)
    assert s.first_disagreement is None


def test_disagreement_by_missing_answers():
    result = judge(pulls(10, 10, {10: A("a", "b")}), {5: A("a")}, 10)
    assert table(result) == [(0, 0, 10, "disagree", A("b"), A())]
    assert result.summary.first_disagreement.index == 0 and result.summary.share_agreeing == 0.0


def test_disagreement_by_extra_answers():
    result = judge(pulls(10, 10, {10: A("a")}), {2: A("a", "c")}, 10)
    assert table(result) == [(0, 0, 10, "disagree", A(), A("c"))]


def test_push_union_over_the_interval_not_the_last_push():
    # pull at 10 sees {a, b}; push gave a at 4 and b at 9: the union agrees, the last push alone would not
    result = judge(pulls(10, 10, {10: A("a", "b")}), {4: A("a"), 9: A("b")}, 10)
    assert result.intervals[0].verdict is Verdict.AGREE


def test_empty_intervals_agree():
    # no push evaluation in (0,10] and an empty pull answer at 10: agree; likewise an empty push evaluation
    result = judge(pulls(10, 20, {}), {14: A()}, 10)
    assert table(result) == [(0, 0, 10, "agree", A(), A()), (1, 10, 20, "agree", A(), A())]
    assert result.intervals[0].push_times == () and result.intervals[1].push_times == (14,)


def test_no_push_evaluation_against_a_non_empty_pull_answer_disagrees():
    result = judge(pulls(10, 10, {10: A("a")}), {}, 10)
    assert table(result) == [(0, 0, 10, "disagree", A("a"), A())]


def test_push_at_interval_edges():
    # push at (i+1)·U belongs to [i·U, (i+1)·U]; push at i·U to the previous interval; push at 0 to none
    pull = pulls(10, 20, {0: A("z"), 10: A("a"), 20: A("b")})
    push = {0: A("z"), 10: A("a"), 20: A("b")}
    result = judge(pull, push, 10)
    assert [v.verdict for v in result.intervals] == [Verdict.AGREE, Verdict.AGREE]
    assert [v.push_times for v in result.intervals] == [(10,), (20,)]
    assert result.summary.unjudged_push_times == (0,)


def test_push_at_the_right_edge_is_not_seen_by_the_next_interval():
    result = judge(pulls(10, 20, {20: A("a")}), {10: A("a")}, 10)
    assert table(result) == [(0, 0, 10, "disagree", A(), A("a")), (1, 10, 20, "disagree", A("a"), A())]
    assert result.summary.first_disagreement.index == 0


# --- the running example of Dao-Tran, Beck, Eiter 2015 (Ex. 1, 5, 7), answers hand-computed -------------------------
# Stream: offer(a, mbt, 30) at 10, offer(b, rayban, 25) at 15, isNear(a), isNear(b) at 18.
# ans(Sh,Pr,Pe) <- ⊞30◇offer(Sh,Pr,Pe), ⊞5◇isNear(Sh), g_classify(Pr,Ge), Pe >= 20, Ge != 1,
# g_classify(mbt, 1), g_classify(rayban, 0). isNear is in the 5-window only for t in [18, 23], and
# then only shop b's offer passes the filters: ans(b, rayban, 25) exactly on [18, 23] (closed windows).
# Push evaluates at the input time points 10, 15, 18: answers {}, {}, {b}.
B = frozenset({Solution.from_mapping({"shop": "<b>", "product": '"rayban"', "percent": '"25"'})})
EXAMPLE_PUSH = {10: frozenset(), 15: frozenset(), 18: B}


def example_pull(period: int, end: int) -> dict[int, frozenset[Solution]]:
    return {t: (B if 18 <= t <= 23 else frozenset()) for t in range(0, end + 1, period)}


@pytest.mark.parametrize("period", [5, 10])
def test_running_example_agrees_with_periods_5_and_10(period):
    result = judge(example_pull(period, 30), EXAMPLE_PUSH, period)
    assert result.summary.all_agree and result.summary.intervals == 30 // period


def test_running_example_disagrees_with_period_3():
    # pull at 21 still sees isNear (18 >= 21-5) but no push evaluation happens in (18, 21]
    result = judge(example_pull(3, 30), EXAMPLE_PUSH, 3)
    bad = [(v.start, v.end, v.missing, v.extra) for v in result.intervals if not v.agrees]
    assert bad == [(18, 21, B, frozenset())]
    assert result.summary.agreeing == 9 and result.summary.intervals == 10


# --- the range: aligned intervals, only complete ones inside [from, to] ---------------------------


def test_judged_intervals_are_aligned_and_complete():
    assert judged_intervals(10, 5, 45) == [(1, 10, 20), (2, 20, 30), (3, 30, 40)]
    assert judged_intervals(10, 10, 40) == [(1, 10, 20), (2, 20, 30), (3, 30, 40)]
    assert judged_intervals(10, 0, 9) == []
    assert judged_intervals(10, 0, 10) == [(0, 0, 10)]


def test_from_to_not_on_multiples():
    pull = pulls(10, 50, {20: A("a"), 30: A("a")})
    push = {7: A("q"), 15: A("a"), 45: A("q")}  # nothing in (20, 30]: pull's a at 30 is missing
    result = judge(pull, push, 10, start=5, end=45)
    assert [(v.start, v.end) for v in result.intervals] == [(10, 20), (20, 30), (30, 40)]
    assert (result.start, result.end) == (5, 45)
    # 7 is before the first judged interval, 45 after the last one: reported, not judged
    assert result.summary.unjudged_push_times == (7, 45)
    assert [v.verdict.value for v in result.intervals] == ["agree", "disagree", "agree"]


def test_default_end_is_the_last_pull_time():
    result = judge(pulls(10, 30, {}), {35: A("a")}, 10)
    assert result.end == 30 and len(result.intervals) == 3
    assert result.summary.unjudged_push_times == (35,)


def test_range_without_complete_interval():
    result = judge(pulls(10, 20, {}), {3: A("a")}, 10, start=0, end=9)
    assert result.intervals == () and result.summary.share_agreeing is None
    assert result.summary.all_agree and result.summary.unjudged_push_times == (3,)


def test_empty_pull_entries_off_the_period_are_ignored():
    pull = {**pulls(10, 10, {10: A("a")}), 3: A(), 7: A()}
    assert judge(pull, {5: A("a")}, 10).summary.all_agree


@pytest.mark.parametrize(
    ("pull", "push", "period", "kwargs", "message"),
    [
        ({0: A(), 10: A()}, {}, 0, {}, "positive integer"),
        ({0: A(), 10: A()}, {}, -5, {}, "positive integer"),
        ({0: A(), 10: A()}, {}, True, {}, "positive integer"),
        ({0: A(), 5: A("a"), 10: A()}, {}, 10, {}, "not a multiple"),
        ({0: A(), 20: A()}, {}, 10, {}, "no pull answer at time 10"),
        ({0: A(), 10: A()}, {}, 10, {"end": 30}, "no pull answer at time 20"),
        ({0: A(), 10: A()}, {}, 10, {"start": 20, "end": 10}, "before"),
        ({0: A(), 10: A()}, {}, 10, {"start": -1}, ">= 0"),
        ({}, {}, 10, {}, "no pull answers"),
        ({-10: A(), 0: A()}, {}, 10, {}, "negative"),
    ],
)
def test_inconsistent_inputs_are_user_errors(pull, push, period, kwargs, message):
    with pytest.raises(AgreementError, match=message):
        judge(pull, push, period, **kwargs)


def test_agree_on_is_the_definition_for_any_interval():
    push = {4: A("a"), 9: A("b"), 12: A("c")}
    assert agree_on({9: A("a", "b")}, push, 0, 9)
    assert not agree_on({12: A("a", "b")}, push, 0, 12)
    assert agree_on({12: A("c")}, push, 9, 12)


# --- property: verdicts equal a naive implementation of the definition ---------------------------

POOL = [sol(n) for n in "abc"] + [Solution.from_mapping({"x": "<http://ex/a>", "y": '"1"'}), Solution()]
answers = st.frozensets(st.sampled_from(POOL), max_size=3)


@st.composite
def runs(draw):
    period = draw(st.integers(1, 6))
    last = draw(st.integers(0, 8)) * period
    pull = {t: draw(answers) for t in range(0, last + 1, period)}
    push = draw(st.dictionaries(st.integers(0, last + period), answers, max_size=12))
    start = draw(st.integers(0, last))
    end = draw(st.one_of(st.none(), st.integers(start, last)))
    return pull, push, period, start, end


@settings(max_examples=300, deadline=None)
@given(runs())
def test_verdicts_equal_the_naive_definition(run):
    pull, push, period, start, end = run
    result = judge(pull, push, period, start=start, end=end)
    expected = naive_verdicts(pull, push, period, start, end)
    got = [(v.index, v.start, v.end, v.agrees, set(v.missing), set(v.extra)) for v in result.intervals]
    assert got == expected
    assert result.summary.agreeing == sum(1 for e in expected if e[3])
    first = next((e for e in expected if not e[3]), None)
    assert (result.summary.first_disagreement.index if result.summary.first_disagreement else None) == (
        first[0] if first else None
    )
    for v in result.intervals:
        assert v.agrees == agree_on(pull, push, v.start, v.end)
    # every non-empty push answer is either inside a judged interval or reported as unjudged
    inside = {t for v in result.intervals for t in v.push_times}
    assert {t for t, a in push.items() if a} == {t for t in inside if push[t]} | set(result.summary.unjudged_push_times)
