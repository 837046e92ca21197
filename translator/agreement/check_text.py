"""The summary ``rsplars check`` prints: the verdict, the matching t0 or the first mismatch with its
window, expected and actual relations and diagnosis (Dell'Aglio et al. 2014, Def. 25), whether the
evaluation stopped early (docs/check.md)."""

from __future__ import annotations

import json


def render_summary(report: dict) -> str:
    """The summary lines of a check report (module docstring)."""
    lines = []
    tried = len(report["t0_tried"])
    view = report["comparison"]["compare"]
    if report["correct"]:
        lines.append(f"correct: equals the expected output for t0 = {_t0(report['matching_t0'])} "
                     f"({tried} of {report['t0_candidates']} t0 candidates tried; relations compared as {view})")
    else:
        m = report["mismatch"]
        lines.append(f"incorrect: no t0 among {report['t0_candidates']} candidates gives this output "
                     f"(relations compared as {view})")
        lines.append(f"first mismatch (closest t0 = {_t0(report['closest_t0'])}) at t = {m['timestamp']}, window "
                     + ", ".join(f"{w['interval']} of <{w['stream']}>" for w in m["window"]))
        lines.append(f"  expected: {json.dumps(m['expected'], ensure_ascii=False)}")
        lines.append(f"  actual:   {json.dumps(m['actual'], ensure_ascii=False)}")
        for d in m["diagnosis"]:
            lines.append(f"  diagnosis: {d}")
    e = report.get("evaluation", {})
    if e.get("reports_evaluated", 0) < e.get("reports_planned", 0):
        lines.append(f"stopped early: {e['reports_evaluated']} of {e['reports_planned']} planned reports evaluated "
                     "(each t0 candidate up to its first mismatch)")
    if "note" in report:
        lines.append(f"note: {report['note']}")
    return "\n".join(lines)


def _t0(z) -> str:
    return str(z[0]) if len(z) == 1 else "(" + ", ".join(map(str, z)) + ")"

