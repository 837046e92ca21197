"""``rsplars hunt`` (translator.engines.hunt, docs/engines.md "Hunting"): random cases searched and
shrunk within their time bounds, findings written as cases that replay; against a faulty engine (a
wrapper of rsplars that drops the rows binding ``:a``), against rsplars itself (nothing to find), and
against the real RSP-JS."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from translator.engines.hunt import Case, Verdict, cases, hunt, iter_cases
from translator.query.parse import parse
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

DATA = Path(__file__).resolve().parents[1] / "data" / "engines"
FAULTY = f"{shlex.quote(sys.executable)} {shlex.quote(str(DATA / 'faulty_rsplars.py'))} {{query}} {{streams}} {{output}}"


@settings(max_examples=60, deadline=None)
@given(cases())
def test_every_generated_case_is_an_rspql_query_rsplars_translates(case: Case) -> None:
    query = parse(case.query_text(), "rspql")
    compile_query(query, base=TimeBase("ms"))
    times = [t for t, *_ in case.elements]
    assert times == sorted(times)
    assert case.stream_text().count("\n") == len(case.elements)


def test_the_search_finds_a_fault_and_shrinks_it_to_a_minimal_case() -> None:
    def probe(case: Case) -> Verdict:
        bad = len(case.elements) >= 2 and case.filter is not None
        return Verdict(not bad, "two elements and a FILTER" if bad else "")

    report = hunt(probe, seconds=10, shrink_seconds=10)
    assert [f.kind for f in report.findings] == ["two elements and a FILTER"]
    (finding,) = report.findings
    assert len(finding.case.elements) == 2 and finding.case.filter is not None
    assert len(finding.case.patterns) == 1 and finding.case.projection is None


def test_two_causes_are_two_findings_and_the_time_bound_holds() -> None:
    def probe(case: Case) -> Verdict:
        if len(case.elements) >= 3:
            return Verdict(False, "three elements")
        if case.projection is not None:
            return Verdict(False, "a projection")
        return Verdict(True)

    start = time.monotonic()
    report = hunt(probe, seconds=4, shrink_seconds=3)
    assert time.monotonic() - start < 4 + 2 * 3 + 2
    assert sorted(f.kind for f in report.findings) == ["a projection", "three elements"]


def test_nothing_is_found_where_every_output_is_explained() -> None:
    report = hunt(lambda case: Verdict(True), seconds=2)
    assert report.findings == [] and report.probed > 10


def test_generated_cases_are_reproducible_by_seed() -> None:
    assert iter_cases(10, 3) == iter_cases(10, 3)
    assert iter_cases(10, 3) != iter_cases(10, 4)


def test_hunt_on_a_faulty_engine_writes_a_minimal_case_that_replays(cli, tmp_path) -> None:
    out = tmp_path / "found"
    code, said, err = cli("hunt", "--live-engine", "command", "--engine-command", FAULTY, "--profile", "rsp-ql",
                          "--seconds", "60", "--shrink-seconds", "20", "--max-findings", "1", "--out", out,
                          "--json", tmp_path / "hunt.json")
    assert code == 1, said + err
    (folder,) = sorted(out.iterdir())
    case = json.loads((folder / "case.json").read_text())
    assert any("a" in (s, o) for _, s, _, o in case["elements"]), case  # the fault needs an a in the data
    assert (folder / "expected.jsonl").read_text().count("/a>") >= 1
    report = json.loads((tmp_path / "hunt.json").read_text())
    assert report["findings"][0]["kind"] in (folder / "diagnosis.txt").read_text()
    # the case replays: the faulty engine is judged incorrect on it, rsplars itself correct
    stream = f"http://hunt.example/s={folder / 'stream.nt'}"
    code, said, err = cli("check", folder / "query.rq", "--stream", stream, "--unit", "ms", "--live-engine", "command",
                          "--engine-command", FAULTY, "--profile", "rsp-ql")
    assert code == 1, said + err
    code, said, err = cli("check", folder / "query.rq", "--stream", stream, "--unit", "ms",
                          "--live-engine", "rsplars:rsp-ql", "--profile", "rsp-ql")
    assert code == 0, said + err


def test_hunt_on_rsplars_itself_finds_nothing(cli) -> None:
    code, said, err = cli("hunt", "--live-engine", "rsplars:rsp-ql", "--profile", "rsp-ql", "--seconds", "15")
    assert code == 0, said + err
    assert "0 finding(s)" in said


def test_hunt_refuses_a_folder_that_holds_files_and_an_unknown_profile(cli, tmp_path) -> None:
    (tmp_path / "x").write_text("")
    code, said, err = cli("hunt", "--out", tmp_path, "--seconds", "1")
    assert code == 2 and "not empty" in err
    code, said, err = cli("hunt", "--profile", "nope", "--seconds", "1")
    assert code == 2 and "unknown profile" in err


@settings(max_examples=1, deadline=None)
@given(st.just(None))
def test_kinds_ignore_terms_and_numbers(_) -> None:
    from rsplars.hunting import finding_kind

    a = finding_kind({"mismatch": {"diagnosis": ['dropped relation at t = 8: <http://x/a> "3": more']}})
    b = finding_kind({"mismatch": {"diagnosis": ['dropped relation at t = 12: <http://x/b> "4": other']}})
    assert a == b == "dropped relation at t = …"


FOUND = DATA / "hunt-rsp-js"
HUNT_STREAM = "http://hunt.example/s"


def test_hunt_on_rsp_js_runs_in_its_time_and_writes_a_case(cli, tmp_path) -> None:
    out = tmp_path / "found"
    start = time.monotonic()
    code, said, err = cli("hunt", "--live-engine", "rsp-js", "--seconds", "25", "--shrink-seconds", "20",
                          "--max-findings", "1", "--out", out)
    assert time.monotonic() - start < 25 + 20 + 30  # a probe started before the deadline may finish after it
    assert code == 1, said + err  # RSP-JS 1.3.5 has findings within seconds (the two below)
    (folder,) = sorted(out.iterdir())
    assert {"query.rq", "stream.nt", "diagnosis.txt", "README.md", "case.json"} <= {p.name for p in folder.iterdir()}


def test_finding_a_window_clause_on_the_where_line_fails_in_rsp_js(cli, tmp_path) -> None:
    """RSP-JS reads a WINDOW clause only at the start of a line (RSPQLParser turns a line that starts with
    WINDOW into GRAPH): the same query with its WINDOW on a line of its own runs and is correct."""
    case = FOUND / "window-on-the-where-line"
    query = (case / "query.rq").read_text()
    assert "WHERE { WINDOW" in query
    args = ("--stream", f"{HUNT_STREAM}={case / 'stream.nt'}", "--unit", "ms", "--live-engine", "rsp-js",
            "--profile", "rsp-js")
    code, said, err = cli("check", case / "query.rq", *args)
    assert code == 2 and "RSP-JS failed" in err, said + err
    relaid = tmp_path / "q.rq"
    relaid.write_text(query.replace("WHERE { WINDOW", "WHERE {\nWINDOW"))
    code, said, err = cli("check", relaid, *args)
    assert code == 0, said + err


def test_finding_a_window_lost_after_a_gap_in_rsp_js(cli, tmp_path) -> None:
    """Two windows hold the element at 13 ([12, 14) and [13, 15)); the next element comes at 20, and RSP-JS
    reports only the latest closed window, [13, 15): the relation at 14 is lost."""
    case = FOUND / "window-lost-after-a-gap"
    code, said, err = cli("check", case / "query.rq", "--stream", f"{HUNT_STREAM}={case / 'stream.nt'}", "--unit", "ms",
                          "--live-engine", "rsp-js", "--profile", "rsp-js", "--json", tmp_path / "r.json")
    assert code == 1, said + err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["mismatch"]["timestamp"] == 14 and report["mismatch"]["actual"] is None
    assert "dropped relation" in " ".join(report["mismatch"]["diagnosis"])
    recorded = [json.loads(line)["t"] for line in (case / "rsp-js-output.jsonl").read_text().splitlines()]
    expected = [json.loads(line)["t"] for line in (case / "expected.jsonl").read_text().splitlines()]
    assert recorded == [15] and expected == [14, 15]
