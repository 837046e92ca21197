"""The plain-text agreement table for stdout: fixed width, one row per interval, then the summary.

Long runs are cut to the first and last rows with an explicit elision row and a note; answers of
disagreeing intervals are listed below the table for the first few of them, again with a note when
cut. Nothing is ever dropped silently: the JSON and HTML reports always hold everything.
"""

from __future__ import annotations

from translator.agreement.diagnosis import Diagnosis
from translator.agreement.multisets import SETS
from translator.agreement.report import AgreementReport
from translator.agreement.solutions import Solution, sorted_solutions
from translator.agreement.static_check import render_static_check
from translator.agreement.verdicts import IntervalVerdict

HEADERS = ("#", "interval", "verdict", "pull", "push", "missing", "extra", "push evals")
CAUSES_HEADER = "causes"


def format_share(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.1f}%"


def render_table(report: AgreementReport, *, max_rows: int = 40, max_details: int = 5, max_answers: int = 5) -> str:
    """The table, the summary and the details of the first disagreeing intervals, as one string."""
    if max_rows < 2:
        raise ValueError("max_rows must be at least 2")
    verdicts = report.result.intervals
    diagnosis = report.diagnosis
    headers = HEADERS + ((CAUSES_HEADER,) if diagnosis is not None else ())
    rows_all = [_row(v, diagnosis) for v in verdicts]
    lines: list[str] = []
    notes: list[str] = []

    shown: list[tuple[str, ...] | None] = list(rows_all)
    if len(verdicts) > max_rows:
        head = max_rows // 2
        tail = max_rows - head
        hidden = verdicts[head : len(verdicts) - tail]
        hidden_disagreeing = sum(1 for v in hidden if not v.agrees)
        shown = [*rows_all[:head], None, *rows_all[len(rows_all) - tail :]]
        notes.append(
            f"table truncated: {len(hidden)} of {len(verdicts)} intervals not shown "
            f"({hidden_disagreeing} of them disagreeing); the JSON and HTML reports list every interval"
        )

    widths = [len(h) for h in headers]
    for row in shown:
        if row is not None:
            widths = [max(w, len(cell)) for w, cell in zip(widths, row)]
    lines.append(_format(headers, widths))
    lines.append(_format(tuple("-" * w for w in widths), widths))
    for row in shown:
        if row is None:
            lines.append(f"… {len(verdicts) - max_rows} intervals not shown …")
        else:
            lines.append(_format(row, widths))
    if not verdicts:
        lines.append("(no complete interval inside the range)")

    lines.append("")
    lines.extend(_summary_lines(report))
    if report.static_check is not None:
        lines.extend(render_static_check(report.static_check).rstrip("\n").split("\n"))
    lines.extend(_detail_lines(report, max_details=max_details, max_answers=max_answers, notes=notes))
    for note in (*report.notes, *notes):
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"


def _row(v: IntervalVerdict, diagnosis: Diagnosis | None) -> tuple[str, ...]:
    row = (
        str(v.index),
        f"[{v.start},{v.end}]",
        v.verdict.value,
        str(len(v.pull)),
        str(len(v.push)),
        str(len(v.missing)),
        str(len(v.extra)),
        str(len(v.push_times)),
    )
    if diagnosis is None:
        return row
    found = diagnosis.for_interval(v.index)
    if found is None:
        causes = "" if v.agrees else "?"
    else:
        causes = ",".join(c.value for c in found.sorted_causes) or "UNEXPLAINED"
    return row + (causes,)


def _format(cells: tuple[str, ...], widths: list[int]) -> str:
    # numbers right-aligned, text left-aligned; no trailing blanks
    out = []
    for i, (cell, width) in enumerate(zip(cells, widths)):
        out.append(cell.rjust(width) if i in (0, 3, 4, 5, 6, 7) else cell.ljust(width))
    return "  ".join(out).rstrip()


def _summary_lines(report: AgreementReport) -> list[str]:
    inputs, result, summary = report.inputs, report.result, report.result.summary
    unit = f" {inputs.time_unit}" if inputs.time_unit else ""
    first = summary.first_disagreement
    lines = [
        f"pull period: {result.period}{unit}   window bounds: {inputs.window_bounds}   mode: {inputs.mode}   "
        f"compared as: {SETS.name}   "
        f"range: [{result.start}, {result.end}]",
        f"intervals: {summary.intervals}   agreeing: {summary.agreeing} ({format_share(summary.share_agreeing)})   "
        f"disagreeing: {summary.disagreeing}   first disagreement: "
        + (f"#{first.index} [{first.start},{first.end}]" if first is not None else "none"),
    ]
    if report.diagnosis is not None:
        counts = report.diagnosis.counts
        lines.append("causes: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
        if report.diagnosis.unexplained:
            lines.append(
                "WARNING: unexplained disagreements: the runs given to the diagnosis are inconsistent "
                "with the verdicts (this cannot happen for consistent runs)"
            )
    if summary.unjudged_push_times:
        times = summary.unjudged_push_times
        listed = ", ".join(map(str, times[:10])) + (", …" if len(times) > 10 else "")
        lines.append(f"push answers judged by no interval (outside the complete intervals): {len(times)} at t = {listed}")
    return lines


def _detail_lines(report: AgreementReport, *, max_details: int, max_answers: int, notes: list[str]) -> list[str]:
    disagreeing = [v for v in report.result.intervals if not v.agrees]
    if not disagreeing or max_details <= 0:
        return []
    lines = ["", "disagreeing intervals:"]
    for v in disagreeing[:max_details]:
        lines.append(f"  #{v.index} [{v.start},{v.end}]")
        lines.extend(_answer_lines("missing (pull only)", v.missing, max_answers))
        lines.extend(_answer_lines("extra (push only)", v.extra, max_answers))
    if len(disagreeing) > max_details:
        notes.append(f"answers listed for the first {max_details} of {len(disagreeing)} disagreeing intervals only")
    return lines


def _answer_lines(label: str, answer: frozenset[Solution], max_answers: int) -> list[str]:
    if not answer:
        return []
    solutions = sorted_solutions(answer)
    lines = [f"    {label}: {len(solutions)}"]
    lines.extend(f"      {s}" for s in solutions[:max_answers])
    if len(solutions) > max_answers:
        lines.append(f"      … and {len(solutions) - max_answers} more (see the JSON report)")
    return lines
