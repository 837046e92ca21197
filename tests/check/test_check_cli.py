"""``rsplars profiles``, ``rsplars run --profile …``, ``rsplars translate --to lars --profile …`` and
``rsplars check`` on the command line (exit codes 0 / 1 / 2, reports)."""

from __future__ import annotations

import json

import pytest

from check_helpers import CSR_STREAM, DATA
from lars.syntax import parse_program

LISTING1 = [str(DATA / "listing1.rq"), "--stream", f"{CSR_STREAM}={DATA / 'listing1.nt'}", "--stream-time-unit", "ms"]
R1, R2 = {"room": "<http://ex.org/r1>"}, {"room": "<http://ex.org/r2>"}


def records(out: str) -> list[tuple[int, list]]:
    return [(r["t"], r["answers"]) for r in map(json.loads, out.splitlines())]


def test_profiles_lists_parameters_and_sources(cli):
    code, out, _ = cli("profiles")
    assert code == 0
    for name in ("csparql", "cqels", "sparqlstream", "rsp-ql"):
        assert name in out
    assert "Dell'Aglio et al. 2013, Table 1" in out and "Dell'Aglio et al. 2014" in out
    code, out, _ = cli("profiles", "--json")
    data = json.loads(out)
    assert data["cqels"]["parameters"]["report"] == "content-change,non-empty"
    assert data["cqels"]["parameters"]["r2s"] == "istream"
    assert data["csparql"]["parameters"]["empty_relations"] == "emit"
    assert all(p["sources"]["report"] for p in data.values())


@pytest.mark.parametrize("options, expected", [
    (["--profile", "csparql"], [(10, [R1]), (20, [R2])]),
    (["--profile", "cqels"], [(3, [R1]), (15, [R2])]),
    (["--profile", "csparql", "--t0", "2"], [(12, []), (22, [R2])]),
    (["--profile", "csparql", "--t0", "2", "--empty-relations", "skip"], [(22, [R2])]),
    (["--profile", "cqels", "--report", "CC", "--r2s", "rstream", "--empty-relations", "emit"],
     [(1, []), (3, [R1]), (12, []), (15, [R2])]),
    (["--report", "window-close,non-empty", "--window-bounds", "right-open"], [(10, [R1]), (20, [R2])]),
    (["--profile", "csparql", "--from", "11"], [(20, [R2])]),
    (["--profile", "csparql", "--to", "15"], [(10, [R1])]),
])
def test_run_with_operational_options(cli, options, expected):
    code, out, err = cli("run", *LISTING1, *options)
    assert code == 0, err
    assert records(out) == expected


@pytest.mark.parametrize("options, message", [
    (["--profile", "csparql", "--mode", "pull"], "exclude each other"),
    (["--report", "non-empty"], "needs window-close, content-change or periodic"),
    (["--report", "sometimes"], "unknown strategy"),
    (["--t0", "1,2"], "one per window"),
    (["--t0", "x"], "expected integers"),
])
def test_run_rejects_bad_operational_options(cli, options, message):
    code, out, err = cli("run", *LISTING1, *options)
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_run_without_operational_options_is_unchanged(cli):
    code, out, _ = cli("run", *LISTING1)
    assert code == 0 and records(out) == [(0, []), (10, [R1]), (20, [R2])]


def test_translate_to_lars_shows_the_policy_as_rules(cli):
    code, out, err = cli("translate", LISTING1[0], "--to", "lars", "--profile", "csparql")
    assert code == 0, err
    assert "trigger :- true at T [now], T >= 10, (T - 10) \\ 10 = 0" in out
    assert "report window-close,non-empty" in out
    parse_program(out)  # the printed program reads back


@pytest.mark.parametrize("profile", ["csparql", "cqels", "sparqlstream", "rsp-ql"])
def test_translate_to_lars_reads_back_for_every_profile(cli, profile):
    code, out, err = cli("translate", DATA / "qex.rq", "--to", "lars", "--profile", profile, "--t0", "1,0")
    assert code == 0, err
    assert out.count("trigger :- ") >= 2  # one rule (or two, for NC between closes) per window
    parse_program(out)


def test_check_exit_codes_and_reports(cli, tmp_path):
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps({"relations": [
        {"timestamp": 12000, "results": {"bindings": []}},
        {"timestamp": 22000, "results": {"bindings": [{"room": {"type": "uri", "value": "http://ex.org/r2"}}]}}]}))
    report, html = tmp_path / "r.json", tmp_path / "r.html"
    code, out, err = cli("check", *LISTING1, "--answers", ok, "--answers-time-unit", "ms", "--profile", "csparql",
                         "--json", report, "--html", html)
    assert code == 0, err
    assert out.startswith("correct: equals the expected output for t0 = 2")
    data = json.loads(report.read_text())
    assert data["correct"] is True and data["matching_t0"] == [2] and data["t0_tried"] == [[0], [1], [2]]
    assert "Timeline" in html.read_text()

    early = tmp_path / "early.json"
    early.write_text(json.dumps({"relations": [
        {"timestamp": 5000, "results": {"bindings": [{"room": {"type": "uri", "value": "http://ex.org/r1"}}]}},
        {"timestamp": 10000, "results": {"bindings": [{"room": {"type": "uri", "value": "http://ex.org/r1"}}]}},
        {"timestamp": 20000, "results": {"bindings": [{"room": {"type": "uri", "value": "http://ex.org/r2"}}]}}]}))
    code, out, err = cli("check", *LISTING1, "--answers", early, "--answers-time-unit", "ms", "--profile", "csparql",
                         "--json", report, "--html", html)
    assert code == 1, err
    data = json.loads(report.read_text())
    assert data["correct"] is False
    assert data["mismatch"]["timestamp"] == 5 and "early report of an open window" in data["mismatch"]["diagnosis"][0]
    assert "early report" in out
    page = html.read_text()
    assert 'class="bad first"' in page and "incorrect" in page


def test_check_bad_input_is_located_and_writes_nothing(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"relations": [\n  {"timestamp": 1, "results": {"bindings": [}}\n]}\n')
    report = tmp_path / "r.json"
    code, out, err = cli("check", *LISTING1, "--answers", bad, "--profile", "csparql", "--json", report)
    assert code == 2
    assert any(line.startswith(f"{bad}:2:") for line in err.splitlines()) and "Traceback" not in err
    assert not report.exists()
    code, _, err = cli("check", *LISTING1, "--answers", tmp_path / "missing.json", "--profile", "csparql")
    assert code == 2 and "cannot read answers" in err


def test_check_reads_runs_own_output(cli, tmp_path):
    for profile in ("csparql", "cqels", "sparqlstream", "rsp-ql"):
        code, out, err = cli("run", *LISTING1, "--profile", profile, "--t0", "1")
        assert code == 0, err
        answers = tmp_path / f"{profile}.jsonl"
        answers.write_text(out)
        code, out, err = cli("check", *LISTING1, "--answers", answers, "--profile", profile)
        assert code == 0, (profile, out, err)
        assert out.startswith("correct")


EXAMPLE = DATA.parents[2] / "examples" / "check"


@pytest.mark.parametrize("answers, profile, code, text", [
    ("csparql-answers.json", "csparql", 0, "correct: equals the expected output for t0 = 1"),
    ("csparql-early.json", "csparql", 1, "diagnosis: early report of an open window"),
    ("cqels-answers.json", "cqels", 0, "correct"),
    ("cqels-answers.json", "csparql", 1, "correct under profile cqels"),
])
def test_the_worked_example(cli, answers, profile, code, text):
    """docs/check.md §6 and the README's example, as printed there."""
    got, out, err = cli("check", EXAMPLE / "hot.rq", "--stream", f"http://example.org/temps={EXAMPLE / 'temps.nt'}",
                        "--stream-time-unit", "ms", "--answers-time-unit", "ms", "--answers", EXAMPLE / answers,
                        "--profile", profile)
    assert got == code, err
    assert text in out


def test_agree_compares_two_profiles(cli, tmp_path):
    report = tmp_path / "agree.json"
    code, out, err = cli("agree", *LISTING1, "--profiles", "csparql,sparqlstream", "--report", report)
    assert code == 0, err
    assert out.startswith("csparql vs sparqlstream: the answer streams are equal")
    code, out, err = cli("agree", *LISTING1, "--profiles", "csparql,cqels", "--t0", "2", "--report", report,
                         "--fail-on-disagree")
    assert code == 1, err
    data = json.loads(report.read_text())
    assert data["equal"] is False and data["first_difference"] == 12  # CQELS ignores m1@1 < t0 = 2
    assert data["a_correct_under_b"] is False and data["b_correct_under_a"] is False
    assert [(r["t"], r["a"], r["b"]) for r in data["timeline"]] == [
        (12, [], None), (15, None, [R2]), (22, [R2], None)]
    code, _, err = cli("agree", *LISTING1, "--profiles", "csparql")
    assert code == 2 and "expected two profiles" in err


def test_check_needs_a_profile_or_a_policy(cli, tmp_path):
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"t": 10, "answers": []}\n')
    code, out, err = cli("check", *LISTING1, "--answers", answers)
    assert code == 2 and "--profile NAME" in err and out == ""


def test_check_a_query_without_step(cli, tmp_path):
    """[RANGE L] without STEP: no pull period exists, and none is needed under a report policy."""
    query = tmp_path / "q.rq"
    query.write_text((DATA / "listing1.rq").read_text().replace(" STEP 10s", ""))
    args = [query, "--stream", f"{CSR_STREAM}={DATA / 'listing1.nt'}", "--stream-time-unit", "ms"]
    code, out, err = cli("run", *args, "--profile", "csparql")
    assert code == 0, err
    answers = tmp_path / "a.jsonl"
    answers.write_text(out)
    code, out, err = cli("check", *args, "--profile", "csparql", "--answers", answers)
    assert code == 0, err


def test_run_refuses_operational_options_on_an_event_query(cli):
    """EP-SPARQL has no windows (Dell'Aglio et al. 2013, §4): a profile would be silently ignored otherwise."""
    example = DATA.parents[2] / "examples" / "epsparql"
    code, out, err = cli("run", example / "rise.rq", "--stream", f"http://example.org/stock={example / 'stock.stream'}",
                         "--profile", "cqels")
    assert code == 2 and "EP-SPARQL has none" in err and out == ""
