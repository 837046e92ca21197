"""Reports: stdout table (truncation with notes), JSON (schema-validated), HTML (escaped, well-formed,
one SVG mark per interval), atomic writes."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest

from agreement_oracles import schema_errors
from translator.agreement import (
    AgreementError,
    AgreementReport,
    BoundsAlternative,
    QueryInput,
    ReportInputs,
    Runs,
    Solution,
    StreamInput,
    diagnose,
    judge,
)
from translator.agreement import report_html, report_json
from translator.agreement.report_html import render_html, write_html
from translator.agreement.report_json import render_json, report_to_json, write_json
from translator.agreement.static_check import check_condition_ii
from translator.agreement.table import render_table

SCHEMA = json.loads((Path(report_json.__file__).parent / "report.schema.json").read_text(encoding="utf-8"))

NASTY = '"</td><script>alert(1)</script> & \\"q\\""'
AMP_IRI = "<http://ex/x?a=1&b=2>"


def S(**kw: str | None) -> Solution:
    return Solution.from_mapping(kw)


def inputs(period: int = 10, **kw) -> ReportInputs:
    return ReportInputs(
        queries=(QueryInput("pull", "q1 <&>.rq", "csparql", "tau1"), QueryInput("push", "q2.rq", "cqels", "tau2")),
        streams=(StreamInput("<http://ex/s?a&b>", "s<1>.trig"),),
        period=period,
        static=("static&.ttl",),
        time_unit="min",
        **kw,
    )


def sample_report(*, with_diagnosis: bool = True) -> AgreementReport:
    a, b = S(x="<http://ex/a>", y=None), S(x=AMP_IRI, y=NASTY)
    tau1 = {0: frozenset(), 10: frozenset({a}), 20: frozenset({a, b}), 30: frozenset({b})}
    tau2 = {0: frozenset(), 10: frozenset({a}), 20: frozenset({a}), 30: frozenset({b})}
    push = {0: frozenset({a}), 4: frozenset({a}), 15: frozenset({a}), 30: frozenset()}
    result = judge(tau1, push, 10)
    diagnosis = (
        diagnose(Runs(tau1, tau2, push), 10, other=BoundsAlternative("left-open", tau1, {25: frozenset({b})}))
        if with_diagnosis
        else None
    )
    check = check_condition_ii({"<http://ex/s>": [("?x", "<http://ex/p>", "?y")]}, [], [("<a>", "<http://ex/p>", NASTY)], {})
    return AgreementReport(inputs(), result, diagnosis, static_check=check if with_diagnosis else None, notes=("n<1>",))


# --- JSON ---------------------------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("with_diagnosis", [True, False])
def test_json_report_validates_against_the_schema(with_diagnosis):
    doc = json.loads(render_json(sample_report(with_diagnosis=with_diagnosis)))
    assert schema_errors(doc, SCHEMA) == []
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc)) == []


def test_json_report_content():
    doc = json.loads(render_json(sample_report()))
    assert doc["schema_version"] == 1
    assert doc["inputs"]["period"] == 10 and doc["inputs"]["time_unit"] == "min" and doc["inputs"]["from"] is None
    assert [i["verdict"] for i in doc["intervals"]] == ["agree", "disagree", "disagree"]
    second = doc["intervals"][1]
    assert second["missing"] == [{"x": AMP_IRI, "y": NASTY}] and second["extra"] == []
    assert second["pull"] == [{"x": "<http://ex/a>"}, {"x": AMP_IRI, "y": NASTY}]  # unbound y absent, sorted
    assert second["push_times"] == [15]
    s = doc["summary"]
    assert s["range"] == {"from": 0, "to": 30}
    assert (s["intervals"], s["agreeing"], s["disagreeing"], s["all_agree"]) == (3, 1, 2, False)
    assert s["first_disagreement"] == {"index": 1, "start": 10, "end": 20}
    assert s["unjudged_push_times"] == [0]
    assert s["share_agreeing"] == pytest.approx(1 / 3)
    diag = doc["diagnosis"]
    assert [(d["index"], d["causes"]) for d in diag["intervals"]] == [
        (1, ["dataset"]),
        (2, ["execution-mode", "window-bounds"]),
    ]
    assert diag["counts"] == {"dataset": 1, "execution-mode": 1, "window-bounds": 1, "unexplained": 0}
    assert doc["static_check"]["condition_ii_holds"] is False
    assert doc["notes"] == ["n<1>"]


def test_json_is_deterministic():
    one = render_json(sample_report())
    assert one == render_json(sample_report())
    sols = [S(x=f"<http://ex/{n}>") for n in "dcab"]
    r1 = judge({0: frozenset(), 10: frozenset(sols)}, {}, 10)
    r2 = judge({0: frozenset(), 10: frozenset(reversed(sols))}, {}, 10)
    assert render_json(AgreementReport(inputs(), r1)) == render_json(AgreementReport(inputs(), r2))
    assert [m["x"] for m in json.loads(render_json(AgreementReport(inputs(), r1)))["intervals"][0]["pull"]] == [
        f"<http://ex/{n}>" for n in "abcd"
    ]


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("summary"),
        lambda d: d["intervals"][0].update(verdict="maybe"),
        lambda d: d["inputs"].update(extra_field=1),
        lambda d: d["intervals"][1]["missing"].append({"x": 3}),
        lambda d: d["summary"].update(share_agreeing=1.5),
        lambda d: d["diagnosis"]["intervals"][0].update(causes=["weather"]),
        lambda d: d["static_check"]["overlaps"][0].update(pattern=["?x", "?y"]),
        lambda d: d.update(schema_version=2),
    ],
)
def test_schema_rejects_broken_reports(mutate):
    doc = json.loads(render_json(sample_report()))
    mutate(doc)
    assert schema_errors(doc, SCHEMA) != []
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(doc)) != []


def test_every_schema_field_is_documented():
    doc_text = (Path(__file__).resolve().parents[2] / "docs" / "agreement-report.md").read_text(encoding="utf-8")

    def names(schema):
        if isinstance(schema, dict):
            for key, sub in schema.get("properties", {}).items():
                yield key
                yield from names(sub)
            for key in ("items", "additionalProperties"):
                if isinstance(schema.get(key), dict):
                    yield from names(schema[key])
            for sub in schema.get("oneOf", []):
                yield from names(sub)
            for sub in schema.get("$defs", {}).values():
                yield from names(sub)

    missing = sorted({n for n in names(SCHEMA) if f"`{n}`" not in doc_text})
    assert missing == []


# --- table --------------------------------------------------------------------------------------


def test_table_rows_and_summary():
    text = render_table(sample_report())
    lines = text.splitlines()
    assert lines[0].split() == ["#", "interval", "verdict", "pull", "push", "missing", "extra", "push", "evals", "causes"]
    rows = [line.split() for line in lines[2:5]]
    assert [r[:3] for r in rows] == [["0", "[0,10]", "agree"], ["1", "[10,20]", "disagree"], ["2", "[20,30]", "disagree"]]
    assert rows[1][-1] == "dataset" and rows[2][-1] == "execution-mode,window-bounds"
    assert "intervals: 3   agreeing: 1 (33.3%)" in text and "first disagreement: #1 [10,20]" in text
    assert "causes: dataset 1, execution-mode 1, window-bounds 1, unexplained 0" in text
    assert "judged by no interval" in text and "t = 0" in text
    assert "condition (ii) violated" in text and "note: n<1>" in text
    assert all(line == line.rstrip() for line in lines)
    # fixed width: the verdict column starts at the same offset on every row
    offset = lines[0].index("verdict")
    assert all(line[offset:].split()[0] in ("agree", "disagree") for line in lines[2:5])


def test_long_tables_are_truncated_with_a_note():
    period, n = 1, 100
    pull = {t: frozenset() for t in range(n + 1)}
    push = {t: frozenset({S(x="<a>")}) for t in (7, 50, 51, 99)}  # disagreeing: #6, #49, #50 hidden, #98 shown
    report = AgreementReport(inputs(period=1), judge(pull, push, period))
    text = render_table(report, max_rows=10, max_details=2)
    body = [line for line in text.splitlines()[2:] if line.split() and line.split()[0].isdigit()]
    assert [int(line.split()[0]) for line in body] == [0, 1, 2, 3, 4, 95, 96, 97, 98, 99]
    assert "… 90 intervals not shown …" in text
    assert "note: table truncated: 90 of 100 intervals not shown (3 of them disagreeing)" in text
    assert "note: answers listed for the first 2 of 4 disagreeing intervals only" in text
    untruncated = render_table(report, max_rows=1000)
    assert "truncated" not in untruncated and len(untruncated.splitlines()) > 100


def test_table_without_intervals():
    report = AgreementReport(inputs(), judge({0: frozenset(), 10: frozenset()}, {}, 10, end=5))
    text = render_table(report)
    assert "(no complete interval inside the range)" in text and "agreeing: 0 (n/a)" in text


def test_table_lists_missing_and_extra_answers_capped():
    many = frozenset(S(x=f"<http://ex/{k}>") for k in range(8))
    report = AgreementReport(inputs(), judge({0: frozenset(), 10: many}, {}, 10))
    text = render_table(report, max_answers=3)
    assert "missing (pull only): 8" in text and "… and 5 more (see the JSON report)" in text


# --- HTML ---------------------------------------------------------------------------------------

VOID = {"meta", "br", "hr", "img", "input", "link"}


class Checker(HTMLParser):
    """Checks nesting (every non-void element closed in order) and collects what the tests need."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.marks: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.polyline_points: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        cls = dict(attrs).get("class") or ""
        if tag == "rect" and "mark" in cls.split():
            self.marks.append(cls)
        if tag == "polyline":
            self.polyline_points = (dict(attrs).get("points") or "").split()
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Checker:
    checker = Checker()
    checker.feed(html)
    checker.close()
    return checker


def test_html_is_well_formed_with_one_mark_per_interval():
    report = sample_report()
    page = parse(render_html(report))
    assert page.errors == [] and page.stack == []
    assert page.tags[0] == "html" and "svg" in page.tags
    assert len(page.marks) == len(report.result.intervals) == 3
    assert page.marks == ["mark agree", "mark disagree", "mark disagree"]
    assert len(page.polyline_points) == 3
    # the cumulative share: 1/1, 1/2, 1/3 agreeing; higher share = smaller y
    ys = [float(p.split(",")[1]) for p in page.polyline_points]
    assert ys[0] < ys[1] < ys[2]


def test_html_escapes_every_input_text():
    html = render_html(sample_report())
    assert "<script>" not in html and "alert(1)</script>" not in html
    page = parse(html)
    assert "script" not in page.tags
    text = "".join(page.text)
    assert 'alert(1)</script> & \\"q\\"' in text  # shown literally, after unescaping
    assert AMP_IRI in text and "q1 <&>.rq" in text and "s<1>.trig" in text and "static&.ttl" in text


def test_html_is_self_contained():
    page = parse(render_html(sample_report()))
    assert not {"script", "link", "img", "iframe"} & set(page.tags)
    assert [name for name, _ in page.attrs if name in ("src", "href")] == []


def test_html_for_many_and_for_no_intervals():
    n = 500
    pull = {t: frozenset() for t in range(0, 2 * n + 1, 2)}
    push = {t: frozenset({S(x="<a>")}) for t in range(3, 2 * n, 10)}
    report = AgreementReport(inputs(period=2), judge(pull, push, 2))
    page = parse(render_html(report))
    assert page.errors == [] and len(page.marks) == n
    assert page.marks.count("mark disagree") == report.result.summary.disagreeing
    empty = parse(render_html(AgreementReport(inputs(), judge({0: frozenset(), 10: frozenset()}, {}, 10, end=5))))
    assert empty.errors == [] and empty.marks == [] and "no interval judged" in "".join(empty.text)


# --- files --------------------------------------------------------------------------------------


def test_write_reports(tmp_path):
    report = sample_report()
    write_json(report, tmp_path / "r.json")
    write_html(report, tmp_path / "r.html")
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == render_json(report)
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == render_html(report)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json"]


def test_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    target.write_text("previous", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_json(sample_report(), target)
    assert target.read_text(encoding="utf-8") == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_render_error_creates_no_file(tmp_path, monkeypatch):
    def broken(report):
        raise RuntimeError("render failed")

    monkeypatch.setattr(report_html, "render_html", broken)
    with pytest.raises(RuntimeError):
        report_html.write_html(sample_report(), tmp_path / "r.html")
    assert list(tmp_path.iterdir()) == []


# --- report inputs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{"mode": "cqels-sometimes"}, {"window_bounds": "half-open"}],
)
def test_bad_report_inputs(kwargs):
    with pytest.raises(AgreementError):
        inputs(**kwargs)


def test_bad_query_role():
    with pytest.raises(AgreementError):
        ReportInputs(queries=(QueryInput("both", "q"),), streams=(), period=1)


def test_report_period_must_match_the_verdicts():
    with pytest.raises(AgreementError, match="period"):
        AgreementReport(inputs(period=5), judge({0: frozenset(), 10: frozenset()}, {}, 10))


def test_report_json_dict_matches_text():
    report = sample_report()
    assert json.loads(render_json(report)) == json.loads(json.dumps(report_to_json(report)))
