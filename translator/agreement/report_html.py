"""The HTML agreement report: one self-contained file (inline CSS and SVG, no script, no network).

Content: the inputs, the summary, a plot of agreement over time — one mark per interval coloured by
its verdict, and the cumulative share of agreeing intervals as a line — and the table of disagreeing
intervals with their missing and extra answers. Every text from the inputs (file names, IRIs, RDF
terms) is HTML-escaped.
"""

from __future__ import annotations

import os
from html import escape

from translator.evaluate.fileio import write_atomic
from translator.agreement.multisets import SETS
from translator.agreement.report import AgreementReport
from translator.agreement.solutions import Solution, sorted_solutions
from translator.agreement.table import format_share
from translator.agreement.verdicts import IntervalVerdict

# plot geometry (SVG user units)
WIDTH, HEIGHT = 900, 300
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 20, 60
MARK_BAND = 18  # height of the band of verdict marks under the plot area
COLOURS = {"agree": "#2e7d32", "disagree": "#c62828"}
LINE_COLOUR = "#1565c0"

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
code, td.answers { font-family: ui-monospace, monospace; font-size: 0.9em; }
ul.answers { margin: 0; padding-left: 1.2em; }
.agree { color: #2e7d32; } .disagree { color: #c62828; }
svg text { font-size: 12px; fill: #333; }
"""


def render_html(report: AgreementReport) -> str:
    """The whole HTML document as a string."""
    summary = report.result.summary
    title = "rsplars agreement report"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        _inputs_section(report),
        _summary_section(report),
        '<section id="plot">',
        "<h2>Agreement over time</h2>",
        _plot(report.result.intervals),
        "</section>",
        _disagreements_section(report),
    ]
    if report.static_check is not None:
        parts.append(_static_check_section(report))
    if report.notes:
        parts.append('<section id="notes"><h2>Notes</h2><ul>')
        parts.extend(f"<li>{escape(note)}</li>" for note in report.notes)
        parts.append("</ul></section>")
    parts.append(f"<!-- {summary.intervals} intervals -->")
    parts.extend(["</body>", "</html>"])
    return "\n".join(parts) + "\n"


def write_html(report: AgreementReport, path: str | os.PathLike[str]) -> None:
    """Render, then write atomically (no partial file on error)."""
    write_atomic(path, render_html(report))


def _inputs_section(report: AgreementReport) -> str:
    inputs = report.inputs
    rows = [
        ("queries", "; ".join(
            f"{q.role}: {q.source}" + (f" ({q.dialect}, {q.translation})" if q.dialect or q.translation else "")
            for q in inputs.queries
        ) or "—"),
        ("streams", "; ".join(f"{s.iri} = {s.file}" for s in inputs.streams) or "—"),
        ("static data", "; ".join(inputs.static) or "—"),
        ("pull period", f"{inputs.period}" + (f" {inputs.time_unit}" if inputs.time_unit else "")),
        ("window bounds", inputs.window_bounds),
        ("mode", inputs.mode),
        ("relations compared as", f"{SETS.name} (Dao-Tran, Beck, Eiter 2015, §5)"),
        ("range", f"from {_opt(inputs.time_from)} to {_opt(inputs.time_to)}"),
    ]
    body = "\n".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    return f'<section id="inputs">\n<h2>Inputs</h2>\n<table>\n{body}\n</table>\n</section>'


def _opt(value: int | None) -> str:
    return "default" if value is None else str(value)


def _summary_section(report: AgreementReport) -> str:
    result, summary = report.result, report.result.summary
    first = summary.first_disagreement
    rows = [
        ("judged range", f"[{result.start}, {result.end}]"),
        ("intervals", str(summary.intervals)),
        ("agreeing", f"{summary.agreeing} ({format_share(summary.share_agreeing)})"),
        ("disagreeing", str(summary.disagreeing)),
        ("first disagreement", f"#{first.index} [{first.start}, {first.end}]" if first is not None else "none"),
        ("push answers judged by no interval", str(len(summary.unjudged_push_times))),
    ]
    if report.diagnosis is not None:
        rows.append(("causes", ", ".join(f"{k}: {v}" for k, v in report.diagnosis.counts.items())))
    body = "\n".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    return f'<section id="summary">\n<h2>Summary</h2>\n<table>\n{body}\n</table>\n</section>'


def _plot(verdicts: tuple[IntervalVerdict, ...]) -> str:
    """Inline SVG: one ``rect.mark`` per interval, the cumulative share of agreement as a polyline."""
    n = len(verdicts)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM - MARK_BAND
    band_y = TOP + plot_h + 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="agreement over time">',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#999"></rect>',
    ]
    for share in (0.0, 0.5, 1.0):
        y = TOP + plot_h * (1 - share)
        out.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd"></line>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">{int(share * 100)}%</text>')
    if n == 0:
        out.append(f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h / 2}" text-anchor="middle">no interval judged</text>')
    else:
        step = plot_w / n
        mark_w = max(step * 0.8, 0.5)
        points = []
        agreeing = 0
        for k, v in enumerate(verdicts):
            x = LEFT + k * step
            verdict = v.verdict.value
            out.append(
                f'<rect class="mark {verdict}" x="{x + (step - mark_w) / 2:.2f}" y="{band_y}" '
                f'width="{mark_w:.2f}" height="{MARK_BAND - 4}" fill="{COLOURS[verdict]}">'
                f"<title>#{v.index} [{v.start}, {v.end}]: {verdict}</title></rect>"
            )
            agreeing += v.agrees
            points.append(f"{x + step / 2:.2f},{TOP + plot_h * (1 - agreeing / (k + 1)):.2f}")
        out.append(
            f'<polyline class="cumulative-share" points="{" ".join(points)}" fill="none" '
            f'stroke="{LINE_COLOUR}" stroke-width="2"></polyline>'
        )
        label_y = band_y + MARK_BAND + 12
        out.append(f'<text x="{LEFT}" y="{label_y}" text-anchor="start">t = {verdicts[0].start}</text>')
        out.append(f'<text x="{LEFT + plot_w}" y="{label_y}" text-anchor="end">t = {verdicts[-1].end}</text>')
    legend_y = HEIGHT - 8
    out.extend(
        [
            f'<rect x="{LEFT}" y="{legend_y - 10}" width="10" height="10" fill="{COLOURS["agree"]}"></rect>',
            f'<text x="{LEFT + 14}" y="{legend_y}">agree</text>',
            f'<rect x="{LEFT + 70}" y="{legend_y - 10}" width="10" height="10" fill="{COLOURS["disagree"]}"></rect>',
            f'<text x="{LEFT + 84}" y="{legend_y}">disagree</text>',
            f'<line x1="{LEFT + 160}" y1="{legend_y - 4}" x2="{LEFT + 180}" y2="{legend_y - 4}" '
            f'stroke="{LINE_COLOUR}" stroke-width="2"></line>',
            f'<text x="{LEFT + 186}" y="{legend_y}">cumulative share of agreeing intervals</text>',
            "</svg>",
        ]
    )
    return "\n".join(out)


def _answers_cell(answer: frozenset[Solution]) -> str:
    if not answer:
        return '<td class="answers">—</td>'
    items = "".join(f"<li>{escape(str(s))}</li>" for s in sorted_solutions(answer))
    return f'<td class="answers"><ul class="answers">{items}</ul></td>'


def _disagreements_section(report: AgreementReport) -> str:
    diagnosis = report.diagnosis
    disagreeing = [v for v in report.result.intervals if not v.agrees]
    out = ['<section id="disagreements">', f"<h2>Disagreeing intervals ({len(disagreeing)})</h2>"]
    if not disagreeing:
        out.append("<p>None: the engines agree on every judged interval.</p>")
    else:
        head = "<tr><th>#</th><th>interval</th>" + ("<th>causes</th>" if diagnosis else "")
        out.append("<table>")
        out.append(head + "<th>missing (pull only)</th><th>extra (push only)</th></tr>")
        for v in disagreeing:
            row = f"<tr><td>{v.index}</td><td>[{v.start}, {v.end}]</td>"
            if diagnosis is not None:
                found = diagnosis.for_interval(v.index)
                causes = ", ".join(c.value for c in found.sorted_causes) if found else "?"
                row += f"<td>{escape(causes or 'UNEXPLAINED')}</td>"
            out.append(row + _answers_cell(v.missing) + _answers_cell(v.extra) + "</tr>")
        out.append("</table>")
    out.append("</section>")
    return "\n".join(out)


def _static_check_section(report: AgreementReport) -> str:
    check = report.static_check
    assert check is not None
    out = ['<section id="static-check">', "<h2>Static check of condition (ii)</h2>"]
    if check.condition_ii_holds:
        out.append("<p>Condition (ii) holds: no stream pattern matches static data, no static pattern matches stream data.</p>")
    else:
        out.append("<table><tr><th>kind</th><th>pattern</th><th>stream</th><th>matches</th><th>example</th></tr>")
        for o in check.overlaps:
            cells = (o.side, " ".join(o.pattern), o.stream, str(o.matches), " ".join(o.witness))
            out.append("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        out.append("</table>")
    out.append("</section>")
    return "\n".join(out)
