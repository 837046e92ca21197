"""The HTML report of ``rsplars check --infer``: the verdict, the choices that explain the output, the
correct settings, and where none is correct the closest settings with their first mismatch and
diagnosis (docs/check.md, "Profile inference"). One self-contained file; every text from the
inputs is HTML-escaped."""

from __future__ import annotations

import json
from html import escape

from translator.agreement.inference import PARAMETERS

#: rows of the table of correct settings (the JSON report has them all)
MAX_ROWS = 200

CSS = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: #f3f3f3; }
.verdict-explained { color: #070; } .verdict-unexplained { color: #b00; } .muted { color: #777; }
"""


def _value(v) -> str:
    if isinstance(v, list) and v and all(isinstance(x, (str, int, list)) for x in v):
        return escape("; ".join(x if isinstance(x, str) else json.dumps(x) for x in v))
    return escape(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))


def _choices(e: dict) -> str:
    rows = []
    for p in PARAMETERS:
        if p in e["choices"]:
            rows.append(f"<tr><td>{p}</td><td>chosen</td><td>{_value(e['choices'][p])}</td></tr>")
        elif p in e["irrelevant"]:
            where = " (where searched)" if p in e.get("irrelevant_where_searched", []) else ""
            rows.append(f"<tr><td>{p}</td><td>irrelevant{where}</td><td class=muted>any</td></tr>")
        elif p in e["constrained"]:
            values = ", ".join(_value(v) for v in e["constrained"][p])
            rows.append(f"<tr><td>{p}</td><td>one of</td><td>{values}</td></tr>")
    suff = e.get("sufficient") or {"size": None, "choices": []}
    ways = "".join("<li>" + escape(", ".join(f"{p} = {v}" for p, v in c.items()) or "(no choice: every setting)")
                   + "</li>" for c in suff["choices"][:MAX_ROWS])
    return ("<h2>The choices that explain it</h2><table><tr><th>parameter</th><th>status</th><th>value</th></tr>"
            + "".join(rows) + "</table>"
            + f"<h3>Smallest sufficient choices ({suff['size']} parameters)</h3><ul>{ways}</ul>")


def _settings_table(settings: list[dict]) -> str:
    head = "".join(f"<th>{p}</th>" for p in PARAMETERS)
    rows = "".join("<tr>" + "".join(f"<td>{_value(s[p])}</td>" for p in PARAMETERS) + "</tr>"
                   for s in settings[:MAX_ROWS])
    more = (f"<p class=muted>{len(settings) - MAX_ROWS} more in the JSON report</p>"
            if len(settings) > MAX_ROWS else "")
    return f"<table><tr>{head}</tr>{rows}</table>{more}"


def _closest(closest: list[dict]) -> str:
    parts = ["<h2>Closest settings</h2>"]
    for c in closest:
        m = c.get("mismatch") or {}
        setting = ", ".join(f"{p} {_value(v)}" for p, v in c["setting"].items())
        windows = ", ".join(f"{escape(w['interval'])} of &lt;{escape(w['stream'])}&gt;" for w in m.get("window", []))
        items = "".join(f"<li>{escape(d)}</li>" for d in m.get("diagnosis", []))
        parts.append(f"<h3>{setting}</h3><p>first mismatch at t = {escape(str(m.get('timestamp')))}, window {windows}</p>"
                     f"<table><tr><th>expected</th><td><code>{_value(m.get('expected'))}</code></td></tr>"
                     f"<tr><th>actual</th><td><code>{_value(m.get('actual'))}</code></td></tr></table><ul>{items}</ul>")
    return "".join(parts)


def render_inference_html(report: dict) -> str:
    inf = report["inference"]
    verdict = "explained" if inf["explained"] else "unexplained"
    headline = (f"correct under {inf['correct_settings']} of {inf['searched']} settings searched" if inf["explained"]
                else f"incorrect under every one of {inf['searched']} settings searched")
    profiles = "".join(f"<li>{escape(name)}: t0 = {_value(e['t0'])}{' — ' + escape(e['note']) if 'note' in e else ''}</li>"
                       for name, e in inf["profiles"].items())
    unsearched = "".join(f"<li>{count} settings: {escape(reason)}</li>" for reason, count in inf["not_searched"].items())
    body = [f'<h1 class="verdict-{verdict}">{verdict}: {headline}</h1>',
            f"<p>query {escape(str(report.get('query')))}, answers {escape(str(report.get('answers')))} "
            f"({escape(str(report.get('answers_format')))}); comparison: {escape(str(report.get('comparison')))}; "
            f"relations compared as {escape(str(inf.get('compare')))}; horizon {inf['horizon']}</p>",
            "<h2>Searched</h2><table>" + "".join(f"<tr><th>{p}</th><td>{_value(v)}</td></tr>"
                                                  for p, v in inf["space"].items()) + "</table>"]
    if unsearched:
        body.append(f"<p>Not searched:</p><ul>{unsearched}</ul>")
    if inf["explained"]:
        body.append(_choices(inf["explanation"]))
        body.append(f"<h2>Engine profiles that explain it</h2><ul>{profiles or '<li class=muted>none</li>'}</ul>")
        body.append(f"<h2>Every correct setting ({inf['correct_settings']})</h2>" + _settings_table(inf["correct"]))
    else:
        body.append(_closest(inf.get("closest", [])))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>rsplars check --infer: {verdict}</title>
<style>{CSS}</style></head><body>
{chr(10).join(body)}
</body></html>
"""
