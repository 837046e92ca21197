"""``rsplars agree`` under operational parameters: ``--profiles A,B`` or ``--profile X`` with the single
parameters of ``run``/``check`` (``--t0``, ``--report-policy``, ``--tick``, ``--r2s``,
``--empty-relations``, ``--window-bounds``), which override the profiles (docs/check.md §3).

Every expected stream is the one ``rsplars run`` gives with the same options (an independent path
through the CLI), and the streams of Dell'Aglio et al. 2013, Fig. 2 where they apply."""

from __future__ import annotations

import json
import re

import pytest

from check_helpers import CSR_STREAM, DATA
from translator.cli import main

LISTING1 = [str(DATA / "listing1.rq"), "--stream", f"{CSR_STREAM}={DATA / 'listing1.nt'}", "--stream-time-unit", "ms"]
R1, R2 = {"room": "<http://ex.org/r1>"}, {"room": "<http://ex.org/r2>"}


def run_stream(cli, *options) -> dict[int, list]:
    """``rsplars run LISTING1 OPTIONS`` as {t: answers}."""
    code, out, err = cli("run", *LISTING1, *options)
    assert code == 0, err
    return {r["t"]: r["answers"] for r in map(json.loads, out.splitlines())}


def agree_report(cli, tmp_path, *options, code: int = 0) -> dict:
    report = tmp_path / "agree.json"
    got, out, err = cli("agree", *LISTING1, *options, "--report", report)
    assert got == code, err
    return json.loads(report.read_text())


def sides(data: dict) -> tuple[dict, dict]:
    a = {r["t"]: r["a"] for r in data["timeline"] if r["a"] is not None}
    b = {r["t"]: r["b"] for r in data["timeline"] if r["b"] is not None}
    return a, b


@pytest.mark.parametrize("options, side_a, side_b", [
    # Dell'Aglio et al. 2013, Fig. 2: C-SPARQL (10,{r1}), (20,{r2}); CQELS (3,{r1}), (15,{r2})
    ([], ["--profile", "csparql"], ["--profile", "cqels"]),
    # --t0 overrides both profiles; Fig. 2 with t0 = 2: C-SPARQL (12, EMPTY), (22, {r2})
    (["--t0", "2"], ["--profile", "csparql", "--t0", "2"], ["--profile", "cqels", "--t0", "2"]),
    # --empty-relations overrides both: C-SPARQL's empty relation at 12 disappears
    (["--t0", "2", "--empty-relations", "skip"], ["--profile", "csparql", "--t0", "2", "--empty-relations", "skip"],
     ["--profile", "cqels", "--t0", "2", "--empty-relations", "skip"]),
    # --r2s overrides both: CQELS' IStream becomes RStream (still content change)
    (["--r2s", "rstream"], ["--profile", "csparql", "--r2s", "rstream"], ["--profile", "cqels", "--r2s", "rstream"]),
    # --report-policy overrides both: both report at window close
    (["--report-policy", "window-close"], ["--profile", "csparql", "--report", "window-close"],
     ["--profile", "cqels", "--report-policy", "window-close"]),
    # --tick and --window-bounds override both
    (["--tick", "tuple", "--window-bounds", "left-open"],
     ["--profile", "csparql", "--tick", "tuple", "--window-bounds", "left-open"],
     ["--profile", "cqels", "--tick", "tuple", "--window-bounds", "left-open"]),
])
def test_explicit_options_override_both_profiles(cli, tmp_path, options, side_a, side_b):
    data = agree_report(cli, tmp_path, "--profiles", "csparql,cqels", *options)
    a, b = sides(data)
    assert a == run_stream(cli, *side_a)
    assert b == run_stream(cli, *side_b)
    assert data["equal"] is (a == b)


def test_profile_parameters_reach_the_report(cli, tmp_path):
    data = agree_report(cli, tmp_path, "--profiles", "csparql,cqels", "--t0", "3", "--r2s", "dstream",
                        "--empty-relations", "skip", "--tick", "time", "--report-policy", "WC,NC",
                        "--window-bounds", "left-open")
    pa, pb = data["parameters"]
    for p in (pa, pb):
        assert (p["t0"], p["r2s"], p["empty_relations"], p["tick"], p["report"], p["window_bounds"]) == (
            3, "dstream", "skip", "time", "window-close,non-empty", "left-open")
    plain = agree_report(cli, tmp_path, "--profiles", "csparql,cqels")
    assert [p["report"] for p in plain["parameters"]] == ["window-close,non-empty", "content-change,non-empty"]
    assert [p["r2s"] for p in plain["parameters"]] == ["rstream", "istream"]
    assert [p["window_bounds"] for p in plain["parameters"]] == ["right-open", "right-open"]
    assert plain["compare"] == "bags"
    assert agree_report(cli, tmp_path, "--profiles", "csparql,cqels", "--compare", "sets")["compare"] == "sets"


def test_g3_streams_and_their_difference(cli, tmp_path):
    data = agree_report(cli, tmp_path, "--profiles", "csparql,cqels")
    a, b = sides(data)
    assert a == {10: [R1], 20: [R2]} and b == {3: [R1], 15: [R2]}
    assert data["equal"] is False


def test_one_profile_two_queries(cli, tmp_path):
    """``--profile X`` with --pull/--push compares two queries under one engine; a query and itself agree,
    and an override changes both sides alike."""
    query = str(DATA / "listing1.rq")
    stream = ["--stream", f"{CSR_STREAM}={DATA / 'listing1.nt'}", "--stream-time-unit", "ms"]
    report = tmp_path / "agree.json"
    for options in (["--profile", "cqels"], ["--profile", "csparql", "--t0", "2"], ["--report-policy", "CC"]):
        code, out, err = cli("agree", "--pull", query, "--push", query, *stream, *options, "--report", report,
                             "--fail-on-disagree")
        assert code == 0, err
        data = json.loads(report.read_text())
        a, b = sides(data)
        assert data["equal"] is True and a == b
        assert a == run_stream(cli, *options)


@pytest.mark.parametrize("argv, message", [
    (["--profiles", "csparql"], "expected two profiles"),
    (["--profiles", "csparql,nosuch"], "unknown profile 'nosuch'"),
    (["--profiles", "csparql,cqels", "--profile", "cqels"], "not both"),
    (["--profile", "cqels"], "with one QUERY"),
    (["--t0", "2"], "with one QUERY"),
    (["--profiles", "csparql,cqels", "--report-policy", "sometimes"], "unknown strategy"),
    (["--profiles", "csparql,cqels", "--period", "5s"], "exclude each other"),
])
def test_bad_operational_options_of_agree(cli, argv, message):
    code, out, err = cli("agree", *LISTING1, *argv)
    assert code == 2, err
    assert message in err and "Traceback" not in err


def test_report_keeps_its_meaning_on_agree(cli, tmp_path):
    """On ``agree`` ``--report`` is the JSON report file; the policy is ``--report-policy``."""
    report = tmp_path / "r.json"
    code, _, err = cli("agree", *LISTING1, "--profiles", "csparql,sparqlstream", "--report", report)
    assert code == 0, err
    assert json.loads(report.read_text())["profiles"] == ["csparql", "sparqlstream"]


@pytest.mark.parametrize("command", ["run", "check", "translate"])
def test_report_policy_spelling_on_run_check_translate(capsys, command):
    """``--report-policy`` is the name everywhere; ``--report`` (the first spelling) still works on
    ``run``, ``check`` and ``translate`` (the same option)."""
    # Python 3.13's argparse names the metavar once ("--report-policy, --report STRATEGIES")
    assert re.search(r"--report-policy( STRATEGIES)?, --report STRATEGIES", help_text(capsys, command))


def help_text(capsys, command: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_run_help_says_the_profile_decides_the_window_bounds(capsys):
    text = " ".join(help_text(capsys, "run").split())
    assert "with --profile or any operational option the profile decides" in text
    assert "with --profile the profile's" in text  # --r2s
