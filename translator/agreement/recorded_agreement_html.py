"""The HTML report of ``rsplars agree --answers A --answers B``: both outputs' inferred profiles and a
table of the intervals, each coloured by its verdict, with the cause of those that do not agree
(:mod:`translator.agreement.recorded_agreement`). One self-contained file; every text from the
inputs is HTML-escaped."""

from __future__ import annotations

import json
from html import escape

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
tr.agree td { background: #eef8ee; } tr.total td { background: #fff6e0; } tr.disagree td { background: #fbeaea; }
"""


def _rel(rel: list) -> str:
    if not rel:
        return "∅"
    return "<br>".join(escape(", ".join(f"?{k}={v}" for k, v in b.items())) for b in rel)


def _side(key: str, side: dict) -> str:
    if side["explained"]:
        choices = escape(json.dumps(side["explanation"]["choices"], ensure_ascii=False))
        profiles = escape(", ".join(side["profiles"]) or "none")
        text = (f"correct under {side['correct_settings']} of {side['searched']} settings; choices common to all: "
                f"<code>{choices}</code>; engine profiles: {profiles}")
    else:
        m = (side.get("closest") or {}).get("mismatch") or {}
        diagnosis = escape("; ".join(m.get("diagnosis", [])))
        text = (f"<b>wrong</b>: correct under no setting ({side['searched']} searched); closest setting's first "
                f"mismatch at t = {escape(str(m.get('timestamp')))}: {diagnosis}")
    return f"<tr><th>{key}</th><td>{escape(side['answers'])}</td><td>{side['relations']}</td><td>{text}</td></tr>"


def render_recorded_html(report: dict) -> str:
    a, b = report["outputs"]["a"], report["outputs"]["b"]
    rows = []
    for row in report["timeline"]:
        cls = {"agree": "agree", "agree in total": "total", "disagree": "disagree"}[row["verdict"]]
        cause = "<br>".join(escape(t) for t in row.get("explanation", []))
        rows.append(f'<tr class="{cls}"><td>[{row["start"]}, {row["end"]}]</td><td>{escape(row["verdict"])}</td>'
                    f'<td>{_rel(row["a"])}<br><small>at {escape(str(row["a_times"]))}</small></td>'
                    f'<td>{_rel(row["b"])}<br><small>at {escape(str(row["b_times"]))}</small></td><td>{cause}</td></tr>')
    difference = ""
    if report.get("profile_difference"):
        difference = "<h2>Profile difference</h2><table><tr><th>parameter</th><th>A</th><th>B</th></tr>" + "".join(
            f"<tr><td>{escape(p)}</td><td>{escape(json.dumps(v['a']))}</td><td>{escape(json.dumps(v['b']))}</td></tr>"
            for p, v in report["profile_difference"].items()) + "</table>"
    verdict = "agree" if report["agree"] else "disagree"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rsplars agree: two recorded outputs</title>
<style>{CSS}</style></head><body>
<h1>Two recorded outputs: {verdict}</h1>
<p>query {escape(str(report.get('query')))}; {report['agreeing']} of {report['intervals']} intervals of length
{report['period']} agree, {report['agreeing_in_total']} in total (Dao-Tran, Beck, Eiter 2015, §5);
relations compared as {escape(str(report.get('compare')))}</p>
<h2>The outputs</h2>
<table><tr><th></th><th>answers</th><th>relations</th><th>inferred profile</th></tr>
{_side("A", a)}
{_side("B", b)}
</table>
{difference}
<h2>Intervals</h2>
<table><tr><th>interval</th><th>verdict</th><th>A</th><th>B</th><th>cause</th></tr>
{chr(10).join(rows)}
</table></body></html>
"""
