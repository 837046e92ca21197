"""``rsplars check``, ``rsplars check --infer`` and ``rsplars agree`` (pull vs push, two recorded
outputs, two profiles) give the verdict and the report the API gives for the same request: the
command line only parses its arguments, calls :mod:`rsplars` and prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rsplars
from api_helpers import CHECK, CSR_STREAM

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "check"
TEMPS = "http://example.org/temps"
HOT = [EXAMPLE / "hot.rq", "--stream", f"{TEMPS}={EXAMPLE / 'temps.nt'}", "--stream-time-unit", "ms"]
HOT_STREAMS = {TEMPS: EXAMPLE / "temps.nt"}
LISTING1 = [CHECK / "listing1.rq", "--stream", f"{CSR_STREAM}={CHECK / 'listing1.nt'}", "--stream-time-unit", "ms"]


def _query(path: Path) -> rsplars.Query:
    """The query as the command line names it (its reports name the file as given)."""
    return rsplars.parse(str(path))


@pytest.mark.parametrize("answers, profile", [
    ("csparql-answers.json", "csparql"),  # correct
    ("csparql-early.json", "csparql"),  # an early report: incorrect, with a diagnosis
    ("cqels-answers.json", "csparql"),  # another engine's output
])
def test_check_on_the_command_line_is_the_api_check(cli, tmp_path, answers, profile):
    report = tmp_path / "r.json"
    code, out, err = cli("check", *HOT, "--answers-time-unit", "ms", "--answers", EXAMPLE / answers,
                         "--profile", profile, "--json", report)
    result = rsplars.check(_query(EXAMPLE / "hot.rq"), str(EXAMPLE / answers), HOT_STREAMS, profile=profile,
                           stream_time_unit="ms", answers_time_unit="ms")
    assert code == (0 if result.correct else 1), err
    assert json.loads(report.read_text()) == result.report
    assert "rsplars: answers: " in err and any(n.startswith("answers: ") for n in result.notes)


def test_check_with_options_on_the_command_line_is_the_api_check(cli, tmp_path):
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"t": 12, "answers": []}\n{"t": 22, "answers": [{"room": "<http://ex.org/r2>"}]}\n')
    report = tmp_path / "r.json"
    code, _, err = cli("check", *LISTING1, "--answers", answers, "--profile", "csparql", "--t0", "2",
                       "--compare", "sets", "--window-bounds", "left-open", "--json", report)
    side = rsplars.ProfileOptions("csparql", t0=(2,))
    result = rsplars.check(_query(CHECK / "listing1.rq"), str(answers), {CSR_STREAM: CHECK / "listing1.nt"},
                           profile=side, options=rsplars.TranslationOptions(window_bounds="left-open"),
                           stream_time_unit="ms", compare="sets")
    assert code == (0 if result.correct else 1), err
    assert json.loads(report.read_text()) == result.report


def test_inference_on_the_command_line_is_the_api_inference(cli, tmp_path):
    report = tmp_path / "r.json"
    code, out, err = cli("check", *HOT, "--answers-time-unit", "ms", "--answers", EXAMPLE / "cqels-answers.json",
                         "--infer", "--profile", "csparql", "--json", report)
    result = rsplars.infer(_query(EXAMPLE / "hot.rq"), str(EXAMPLE / "cqels-answers.json"), HOT_STREAMS,
                           fixed=rsplars.ProfileOptions("csparql"), stream_time_unit="ms", answers_time_unit="ms")
    assert code == (0 if result.explained else 1), err
    assert json.loads(report.read_text()) == result.report
    assert out.splitlines()[: len(result.describe())] == result.describe()


def test_agree_on_the_command_line_is_the_api_agreement(cli, tmp_path):
    report = tmp_path / "r.json"
    code, out, err = cli("agree", *HOT, "--report", report, "--to", "20")
    result = rsplars.agree(_query(EXAMPLE / "hot.rq"), HOT_STREAMS, stream_time_unit="ms", end=20)
    assert code == 0, err
    assert json.loads(report.read_text()) == result.to_dict()
    assert result.table() in out


def test_every_member_on_the_command_line_is_the_api_agreements(cli, tmp_path):
    report = tmp_path / "r.json"
    code, out, err = cli("agree", *HOT, "--as", "cqels-all", "--report", report, "--to", "20", "--no-diagnosis")
    results = rsplars.agreements(_query(EXAMPLE / "hot.rq"), HOT_STREAMS, as_variant="cqels-all",
                                 stream_time_unit="ms", end=20, diagnosis=False)
    labels = results.labels
    assert len(labels) == 2 and code == 0, err
    for k, result in enumerate(results, start=1):
        assert f"== {k}/2: {labels[k - 1]}" in out
        assert json.loads((tmp_path / f"r.{k}.json").read_text()) == result.to_dict()


def test_two_recorded_outputs_on_the_command_line_are_the_api_comparison(cli, tmp_path):
    report = tmp_path / "r.json"
    a, b = EXAMPLE / "csparql-answers.json", EXAMPLE / "cqels-answers.json"
    code, out, err = cli("agree", *HOT, "--answers", a, "--answers", b, "--report", report)
    result = rsplars.agree_recorded(_query(EXAMPLE / "hot.rq"), str(a), str(b), HOT_STREAMS, stream_time_unit="ms")
    assert code == (0 if result.agree else 1), err
    assert json.loads(report.read_text()) == result.report


def test_two_profiles_on_the_command_line_are_the_api_comparison(cli, tmp_path):
    report = tmp_path / "r.json"
    code, out, err = cli("agree", *LISTING1, "--profiles", "csparql,cqels", "--t0", "2", "--report", report,
                         "--fail-on-disagree")
    sides = (rsplars.ProfileOptions("csparql", t0=(2,)), rsplars.ProfileOptions("cqels", t0=(2,)))
    result = rsplars.agree_profiles(_query(CHECK / "listing1.rq"), None, {CSR_STREAM: CHECK / "listing1.nt"},
                                    profiles=sides, stream_time_unit="ms")
    assert code == (0 if result.equal else 1), err
    assert json.loads(report.read_text()) == result.report


def test_every_member_is_asked_of_agreements_not_agree():
    with pytest.raises(rsplars.RsplarsError, match="rsplars.agreements"):
        rsplars.agree(_query(EXAMPLE / "hot.rq"), HOT_STREAMS, as_variant="cqels-all", stream_time_unit="ms")


def test_skipped_elements_are_counted_alike(cli, tmp_path):
    from lars.accounting import Accounting

    stream = tmp_path / "temps.nt"
    lines = (EXAMPLE / "temps.nt").read_text().splitlines()
    stream.write_text("\n".join([lines[0], "<http://example.org/broken> .", *lines[1:]]) + "\n")
    answers = EXAMPLE / "csparql-answers.json"
    code, _, err = cli("check", EXAMPLE / "hot.rq", "--stream", f"{TEMPS}={stream}", "--stream-time-unit", "ms",
                       "--answers-time-unit", "ms", "--answers", answers, "--profile", "csparql",
                       "--skip-bad-elements")
    accounting = Accounting(skip_bad=True)
    result = rsplars.check(_query(EXAMPLE / "hot.rq"), str(answers), {TEMPS: stream}, profile="csparql",
                           stream_time_unit="ms", answers_time_unit="ms", accounting=accounting)
    assert code == (0 if result.correct else 1), err
    assert accounting.rejected_count() == 1 and f"rsplars: {accounting.summary()}" in err.splitlines()


def test_a_live_check_on_the_command_line_is_the_api_live_run_and_check(cli, tmp_path):
    report = tmp_path / "r.json"
    code, _, err = cli("check", *HOT, "--live-engine", "rsplars:cqels", "--profile", "csparql", "--json", report)
    query = _query(EXAMPLE / "hot.rq")
    with rsplars.run_live(EXAMPLE / "hot.rq", HOT_STREAMS, engines=[rsplars.LiveEngine("rsplars:cqels")],
                          stream_time_unit="ms") as runs:
        (run,) = runs
        result = rsplars.check(query, run.answers.path, HOT_STREAMS, profile="csparql", stream_time_unit="ms",
                               answers_format=run.answers.format, answers_time_unit=run.answers.time_unit,
                               end=rsplars.judged_end(runs, "s"))
    assert code == (0 if result.correct else 1) == 1, err  # a CQELS output is no C-SPARQL output here
    got = json.loads(report.read_text())
    assert got.pop("live_engine")["engine"] == "rsplars:cqels"
    got.pop("answers"), result.report.pop("answers")  # the runs' files: two temporary folders
    assert got == result.report
