"""``analyse`` and ``exit_code``: the layer ``rsplars agree`` calls (exit codes)."""

from __future__ import annotations

import pytest

from translator.agreement import (
    AgreementError,
    BoundsAlternative,
    Cause,
    QueryInput,
    ReportInputs,
    Solution,
    StreamInput,
    analyse,
    exit_code,
)

A = frozenset({Solution.from_mapping({"x": "<a>"})})
E: frozenset[Solution] = frozenset()


def inputs(**kw) -> ReportInputs:
    return ReportInputs(queries=(QueryInput("pull", "q.rq"),), streams=(StreamInput("<s>", "s.nt"),), period=10, **kw)


def test_agreeing_analysis_exits_0_even_with_fail_on_disagree():
    report = analyse(inputs(), {0: E, 10: A}, {5: A})
    assert report.result.summary.all_agree and report.diagnosis is None
    assert exit_code(report) == 0 and exit_code(report, fail_on_disagree=True) == 0


def test_disagreement_exits_1_only_with_fail_on_disagree():
    report = analyse(inputs(), {0: E, 10: A}, {})
    assert exit_code(report) == 0 and exit_code(report, fail_on_disagree=True) == 1


def test_range_comes_from_the_inputs():
    pull = {t: (A if t == 10 else E) for t in range(0, 41, 10)}
    report = analyse(inputs(time_from=15, time_to=40), pull, {})
    assert [(v.start, v.end) for v in report.result.intervals] == [(20, 30), (30, 40)]
    assert exit_code(report, fail_on_disagree=True) == 0


def test_diagnosis_when_the_tau2_pull_run_is_given():
    report = analyse(
        inputs(window_bounds="right-open"),
        {0: E, 10: A},
        {},
        tau2_pull={0: E, 10: A},
        other=BoundsAlternative("closed", {0: E, 10: E}, {}),
    )
    assert report.diagnosis is not None and report.diagnosis.window_bounds == "right-open"
    assert report.diagnosis.intervals[0].sorted_causes == [Cause.EXECUTION_MODE, Cause.WINDOW_BOUNDS]


def test_bounds_factor_needs_the_diagnosis_runs():
    with pytest.raises(AgreementError, match="diagnosis runs"):
        analyse(inputs(), {0: E, 10: A}, {}, other=BoundsAlternative("closed", {0: E, 10: E}, {}))
