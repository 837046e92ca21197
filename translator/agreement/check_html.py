"""The HTML report of ``rsplars check``: the verdict, the parameters, and the timeline of expected
vs actual relations per timestamp, the first mismatch highlighted (docs/check.md)."""

from __future__ import annotations

import json
from html import escape


def _rel(rel) -> str:
    if rel is None:
        return '<span class="none">—</span>'
    if not rel:
        return '<span class="empty">∅ (empty relation)</span>'
    return "<br>".join(escape(", ".join(f"?{k}={v}" for k, v in b.items())) for b in rel)


def render_html(report: dict) -> str:
    verdict = "correct" if report["correct"] else "incorrect"
    params = escape(json.dumps(report.get("parameters", {}), ensure_ascii=False))
    mismatch = report.get("mismatch")
    first_t = mismatch["timestamp"] if mismatch else None
    rows = []
    for row in report.get("timeline", []):
        t = row.get("t")
        same = row.get("equal", row.get("expected") == row.get("actual"))
        cls = "bad first" if (mismatch and t == first_t) else ("ok" if same else "bad")
        label = escape(str(t)) if "index" not in row else f"#{row['index']} (expected t={escape(str(t))})"
        rows.append(f'<tr class="{cls}"><td>{label}</td><td>{_rel(row.get("expected"))}</td>'
                    f'<td>{_rel(row.get("actual"))}</td></tr>')
    diag = ""
    if mismatch:
        windows = ", ".join(f"{escape(w['interval'])} of &lt;{escape(w['stream'])}&gt;" for w in mismatch["window"])
        items = "".join(f"<li>{escape(d)}</li>" for d in mismatch["diagnosis"])
        diag = (f"<h2>First mismatch</h2><p>t = {escape(str(first_t))}, closest t0 = "
                f"{escape(str(report.get('closest_t0')))}, window {windows}</p><ul>{items}</ul>")
    t0 = report.get("matching_t0") or report.get("closest_t0")
    note = f"<p class=note>{escape(report['note'])}</p>" if "note" in report else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rsplars check: {verdict}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }}
tr.ok td {{ background: #eef8ee; }} tr.bad td {{ background: #fbeaea; }} tr.first td {{ border: 2px solid #c00; }}
.verdict-correct {{ color: #070; }} .verdict-incorrect {{ color: #b00; }} .none, .empty {{ color: #777; }}
</style></head><body>
<h1 class="verdict-{verdict}">{verdict}</h1>
<p>query {escape(str(report.get('query')))}, answers {escape(str(report.get('answers')))}
({escape(str(report.get('answers_format')))}{', bindings grouped by timestamp' if report.get('answers_grouped_by_timestamp') else ''}), profile {escape(str(report.get('profile')))}</p>
<p>parameters: <code>{params}</code></p>
<p>t0 candidates: {report.get('t0_candidates')}, tried: {len(report.get('t0_tried', []))};
t0 shown: {escape(str(t0))}; comparison: {escape(report['comparison']['mode'])};
relations compared as {escape(str(report['comparison'].get('compare')))}</p>
{note}{diag}
<h2>Timeline: expected vs actual relations</h2>
<table><tr><th>t</th><th>expected</th><th>actual</th></tr>
{chr(10).join(rows)}
</table></body></html>
"""
