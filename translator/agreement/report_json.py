"""The JSON agreement report (schema: ``report.schema.json``; every field: ``docs/agreement-report.md``).

Answers are lists of ``{var: term}`` objects (unbound variables absent, D5), sorted by their sorted
``(var, term)`` pairs, so that the same analysis always gives byte-identical output.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from translator.evaluate.fileio import write_atomic
from translator.agreement.diagnosis import Diagnosis, IntervalDiagnosis
from translator.agreement.multisets import SETS
from translator.agreement.report import AgreementReport, ReportInputs
from translator.agreement.solutions import Solution, sorted_solutions
from translator.agreement.static_check import StaticCheck
from translator.agreement.verdicts import IntervalVerdict, Summary

SCHEMA_VERSION = 1


def answer_json(answer: Iterable[Solution]) -> list[dict[str, str]]:
    """An answer as a deterministically sorted list of ``{var: term}`` objects."""
    return [s.to_mapping() for s in sorted_solutions(answer)]


def report_to_json(report: AgreementReport) -> dict[str, Any]:
    """The report as a JSON-ready dict (see ``docs/agreement-report.md``)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "inputs": _inputs(report.inputs),
        "summary": {"range": {"from": report.result.start, "to": report.result.end}, **_summary(report.result.summary)},
        "intervals": [_interval(v) for v in report.result.intervals],
        "diagnosis": _diagnosis(report.diagnosis) if report.diagnosis is not None else None,
        "static_check": _static_check(report.static_check) if report.static_check is not None else None,
        "notes": list(report.notes),
    }


def render_json(report: AgreementReport) -> str:
    """The report as JSON text (2-space indent, keys in schema order, trailing newline)."""
    return json.dumps(report_to_json(report), indent=2, ensure_ascii=False) + "\n"


def write_json(report: AgreementReport, path: str | os.PathLike[str]) -> None:
    """Render, then write atomically (no partial file on error)."""
    write_atomic(path, render_json(report))


def _inputs(inputs: ReportInputs) -> dict[str, Any]:
    return {
        "queries": [
            {"role": q.role, "source": q.source, "dialect": q.dialect, "translation": q.translation}
            for q in inputs.queries
        ],
        "streams": [{"iri": s.iri, "file": s.file} for s in inputs.streams],
        "static": list(inputs.static),
        "period": inputs.period,
        "time_unit": inputs.time_unit,
        "window_bounds": inputs.window_bounds,
        "compare": SETS.name,  # the definition is over sets of solutions (Dao-Tran, Beck, Eiter 2015, §5)
        "mode": inputs.mode,
        "from": inputs.time_from,
        "to": inputs.time_to,
    }


def _span(v: IntervalVerdict | IntervalDiagnosis) -> dict[str, int]:
    return {"index": v.index, "start": v.start, "end": v.end}


def _summary(summary: Summary) -> dict[str, Any]:
    first = summary.first_disagreement
    return {
        "intervals": summary.intervals,
        "agreeing": summary.agreeing,
        "disagreeing": summary.disagreeing,
        "share_agreeing": summary.share_agreeing,
        "all_agree": summary.all_agree,
        "first_disagreement": _span(first) if first is not None else None,
        "unjudged_push_times": list(summary.unjudged_push_times),
    }


def _interval(v: IntervalVerdict) -> dict[str, Any]:
    return {
        **_span(v),
        "verdict": v.verdict.value,
        "pull_time": v.end,
        "pull": answer_json(v.pull),
        "push_times": list(v.push_times),
        "push": answer_json(v.push),
        "missing": answer_json(v.missing),
        "extra": answer_json(v.extra),
    }


def _diagnosis(diagnosis: Diagnosis) -> dict[str, Any]:
    return {
        "window_bounds": diagnosis.window_bounds,
        "other_window_bounds": diagnosis.other_window_bounds,
        "counts": dict(diagnosis.counts),
        "intervals": [
            {
                **_span(d),
                "causes": [c.value for c in d.sorted_causes],
                "unexplained": d.unexplained,
                "dataset": {"only_tau1": answer_json(d.dataset_only_tau1), "only_tau2": answer_json(d.dataset_only_tau2)},
                "execution_mode": {
                    "verdict": d.mode.verdict.value,
                    "missing": answer_json(d.mode.missing),
                    "extra": answer_json(d.mode.extra),
                },
                "other_bounds_verdict": d.other_bounds_verdict.value if d.other_bounds_verdict is not None else None,
            }
            for d in diagnosis.intervals
        ],
    }


def _static_check(check: StaticCheck) -> dict[str, Any]:
    return {
        "condition_ii_holds": check.condition_ii_holds,
        "overlaps": [
            {"side": o.side, "pattern": list(o.pattern), "stream": o.stream, "witness": list(o.witness), "matches": o.matches}
            for o in check.overlaps
        ],
    }
