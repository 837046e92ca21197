"""One entry point for ``rsplars agree``: answers in, report out (the CLI stays a thin layer).

The CLI runs the engines, then calls :func:`analyse` with the answer streams and renders the
returned :class:`AgreementReport` with :func:`translator.agreement.table.render_table`,
:func:`translator.agreement.report_json.write_json` and
:func:`translator.agreement.report_html.write_html`; its exit code is :func:`exit_code`.
"""

from __future__ import annotations

from lars.windows import WindowBounds
from translator.agreement.diagnosis import BoundsAlternative, Runs, diagnose
from translator.agreement.errors import AgreementError
from translator.agreement.report import AgreementReport, ReportInputs
from translator.agreement.solutions import Answers
from translator.agreement.static_check import StaticCheck
from translator.agreement.verdicts import judge


def analyse(
    inputs: ReportInputs,
    pull: Answers,
    push: Answers,
    *,
    tau2_pull: Answers | None = None,
    other: BoundsAlternative | None = None,
    static_check: StaticCheck | None = None,
    notes: tuple[str, ...] = (),
) -> AgreementReport:
    """Judge ``pull`` (the τ1 pull run) against ``push`` (the τ2 push run) over ``inputs``' range.

    With ``tau2_pull`` (the push query run pull-based) the disagreements are diagnosed (Dao-Tran, Beck, Eiter 2015, §5
    causes (ii) and (iii)); ``other`` adds the window-bounds factor. ``other`` needs ``tau2_pull``.
    """
    start, end = inputs.time_from, inputs.time_to
    if tau2_pull is None:
        if other is not None:
            raise AgreementError("the window-bounds factor needs the diagnosis runs (the (τ2, pull) answers)")
        result = judge(pull, push, inputs.period, start=start, end=end)
        return AgreementReport(inputs, result, None, static_check=static_check, notes=notes)
    runs = Runs(tau1_pull=pull, tau2_pull=tau2_pull, tau2_push=push,
                window_bounds=WindowBounds.parse(inputs.window_bounds))  # parsed by ReportInputs already
    diagnosis = diagnose(runs, inputs.period, other=other, start=start, end=end)
    return AgreementReport(inputs, diagnosis.headline, diagnosis, static_check=static_check, notes=notes)


def exit_code(report: AgreementReport, *, fail_on_disagree: bool = False) -> int:
    """The exit code of ``rsplars agree`` (``translator.exits``: ``EXIT_OK``, ``EXIT_FAILURE``): 0
    when the analysis ran; with ``fail_on_disagree``, 1 if any judged interval disagrees."""
    return 1 if fail_on_disagree and not report.result.summary.all_agree else 0
