"""Agreement between a pull-based and a push-based run (Dao-Tran, Beck, Eiter 2015, §5).

A pure analysis of answers: given the per-time-point answers of the runs, decide interval by
interval whether the engines agree (:mod:`.verdicts`), attribute each disagreement to its cause
(:mod:`.diagnosis`), check condition (ii) statically (:mod:`.static_check`), and render the result
as a fixed-width table (:mod:`.table`), a JSON report (:mod:`.report_json`, schema in
``report.schema.json``, documented in ``docs/agreement-report.md``) and a self-contained HTML report
(:mod:`.report_html`); :func:`.analysis.analyse` ties them together for ``rsplars agree``. Nothing here runs an engine or reads query files.
"""

from __future__ import annotations

from translator.agreement.analysis import analyse, exit_code
from translator.agreement.diagnosis import BoundsAlternative, Cause, Diagnosis, IntervalDiagnosis, Runs, diagnose
from translator.agreement.errors import AgreementError
from translator.agreement.report import AgreementReport, QueryInput, ReportInputs, StreamInput
from translator.agreement.solutions import Answers, Solution, answers_from_mappings, sorted_solutions
from translator.agreement.verdicts import (
    AgreementResult,
    IntervalVerdict,
    Summary,
    Verdict,
    agree_on,
    judge,
    judged_intervals,
)

__all__ = [
    "AgreementError",
    "AgreementReport",
    "AgreementResult",
    "Answers",
    "BoundsAlternative",
    "Cause",
    "Diagnosis",
    "IntervalDiagnosis",
    "IntervalVerdict",
    "QueryInput",
    "ReportInputs",
    "Runs",
    "Solution",
    "StreamInput",
    "Summary",
    "Verdict",
    "agree_on",
    "analyse",
    "answers_from_mappings",
    "diagnose",
    "exit_code",
    "judge",
    "judged_intervals",
    "sorted_solutions",
]
