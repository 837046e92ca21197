"""RSP-QL queries through every command: ``translate --to model|lars|asp|query``, ``run`` (the
``rsp-ql`` profile by default, ``--dialect rspql``), ``check``, ``agree`` and ``profiles``; bad input
is a located error with exit code 2."""

from __future__ import annotations

import json

import pytest

from cli_helpers import DATA, cli
from translator.rdf.generators import citybench
from translator.rdf.streams import write_ntriples
from translator.rdf.terms import to_nt

Q1 = DATA / "rspql" / "citybench" / "Q1.rq"
SES = "http://www.insight-centre.org/dataset/SampleEventService#"
STREAMS = [SES + "AarhusTrafficData182955", SES + "AarhusTrafficData158505"]


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> list[str]:
    folder = tmp_path_factory.mktemp("citybench")
    generated = citybench(STREAMS, duration=8, period=2, readings=2, tick=1, seed=7)
    args = ["--unit", "s"]
    for i, (iri, elements) in enumerate(sorted(generated.streams.items())):
        file = folder / f"s{i}.nt"
        with file.open("w") as f:
            write_ntriples(elements, f)
        args += ["--stream", f"{iri}={file}"]
    file = folder / "sensors.nt"
    file.write_text("".join(" ".join(to_nt(x) for x in tr) + " .\n" for tr in sorted(generated.static["sensors"])))
    return [*args, "--static", str(file)]


def test_translate_to_model_names_the_windows(capsys):
    code, out, err = cli(capsys, "translate", Q1, "--to", "model")
    assert code == 0 and "rsplars: dialect: rspql (REGISTER RSTREAM at 7:1)" in err
    model = json.loads(out)
    assert model["dialect"] == "rspql" and model["registration"]["kind"] == "RSTREAM"
    assert [w["name"] for w in model["dataset"]["windows"]] == [
        "http://example.org/rspql/window/traffic1", "http://example.org/rspql/window/traffic2"]
    assert model["dataset"]["windows"][0]["window"]["range"] == "PT3S"
    assert [s["window_name"] for s in model["streams"]] == [w["name"] for w in model["dataset"]["windows"]]
    assert {p["type"] for p in model["pattern"]["parts"]} >= {"window"}


@pytest.mark.parametrize("target, marker", [("lars", "striple(V_obId1"), ("asp", "#show trigger/0."), ("query", "FROM NAMED WINDOW")])
def test_translate_targets(target, marker, capsys):
    code, out, err = cli(capsys, "translate", Q1, "--to", target, "--dialect", "rspql")
    assert code == 0, err
    assert marker in out


def test_run_uses_the_rspql_profile_unless_a_mode_is_given(data, capsys):
    code, profiled, err = cli(capsys, "run", Q1, *data)
    assert code == 0, err
    code, explicit, _ = cli(capsys, "run", Q1, *data, "--profile", "rsp-ql")
    assert profiled == explicit
    code, pulled, _ = cli(capsys, "run", Q1, *data, "--mode", "pull")
    assert code == 0 and pulled != profiled
    # pulled at the slide (1 s) from 0; the profile reports at window closes from t0 + α = 3 on
    assert json.loads(pulled.splitlines()[0])["t"] == 0
    assert json.loads(profiled.splitlines()[0])["t"] >= 3


def test_check_and_agree_accept_rspql(data, capsys, tmp_path):
    code, out, err = cli(capsys, "run", Q1, *data)
    answers = tmp_path / "answers.jsonl"
    answers.write_text(out)
    code, out, err = cli(capsys, "check", Q1, *data, "--answers", answers, "--profile", "rsp-ql")
    assert code == 0 and "correct: equals the expected output" in out + err
    code, out, err = cli(capsys, "agree", "--pull", DATA / "queries" / "csparql" / "Q1.txt", "--push", Q1, *data,
                         "--period", "1s")
    assert code in (0, 1), err
    assert "QUERY_A pulled (τ1) vs QUERY_B pushed (τ2)" in out + err


def test_profiles_say_which_profile_rspql_queries_use(capsys):
    code, out, _ = cli(capsys, "profiles", "--json")
    assert code == 0
    notes = json.loads(out)["rsp-ql"]["notes"]
    assert any("RSP-QL queries" in n and "REGISTER" in n for n in notes)


def test_bad_rspql_is_a_located_error(tmp_path, capsys):
    query = tmp_path / "bad.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?x\nFROM NAMED WINDOW :w ON :s [RANGE PT1S]\n"
                     "WHERE { WINDOW :v { ?x :p ?y } }\n")
    code, _, err = cli(capsys, "translate", query, "--to", "lars")
    assert code == 2 and "bad.rq:4:9: WINDOW <http://ex.org/v> names no declared window" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("bounds", ["closed", "left-open"])
def test_interval_window_runs_pulled_with_the_content_from_a_to_b_before_now(bounds, tmp_path, capsys):
    """``[FROM NOW-PT4S TO NOW-PT1S STEP PT1S]``: at t the triples stamped in [t−4, t−1] (closed)
    or (t−4, t−1] (left-open); the rsp-ql profile has no report policy for such windows, so the
    run is pulled at the slide, with a note."""
    times = [0, 1, 3, 4, 7, 8, 12]
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'<http://ex.org/e{t}> <http://ex.org/p> <http://ex.org/o> "{t}" .\n' for t in times))
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?x FROM NAMED WINDOW :w ON :s [FROM NOW-PT4S TO NOW-PT1S STEP PT1S]\n"
                     "WHERE { WINDOW :w { ?x :p :o } }\n")
    code, out, err = cli(capsys, "run", query, "--stream", f"http://ex.org/s={stream}", "--window-bounds", bounds)
    assert code == 0, err
    assert "runs its plain translation" in err
    answers = {r["t"]: {a["x"] for a in r["answers"]} for r in map(json.loads, out.splitlines())}
    assert sorted(answers) == list(range(0, 13))
    low = 4 if bounds == "closed" else 3
    for t, have in answers.items():
        assert have == {f"<http://ex.org/e{s}>" for s in times if t - low <= s <= t - 1}, t


def test_rows_window_is_pushed_with_the_last_triples_of_its_stream(tmp_path, capsys):
    """``[ROWS 2]``: at each arrival, the last two triples of the stream (the tuple window of
    Table 1); a query whose windows all count triples is pushed."""
    times = [0, 1, 1, 3, 6]
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'<http://ex.org/e{k}> <http://ex.org/p> <http://ex.org/o> "{t}" .\n'
                              for k, t in enumerate(times)))
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://ex.org/>\nSELECT ?x FROM NAMED WINDOW :w ON :s [ROWS 2]\n"
                     "WHERE { WINDOW :w { ?x :p :o } }\n")
    code, out, err = cli(capsys, "run", query, "--stream", f"http://ex.org/s={stream}")
    assert code == 0, err
    answers = {r["t"]: {a["x"] for a in r["answers"]} for r in map(json.loads, out.splitlines())}
    assert sorted(answers) == sorted(set(times))
    for t, have in answers.items():
        arrived = [k for k, s in enumerate(times) if s <= t]
        assert have == {f"<http://ex.org/e{k}>" for k in arrived[-2:]}, t


def test_profile_options_override_the_rspql_profile(data, capsys):
    """``--t0 1``: the first windows close at t0 + α = 4 instead of 3; the run is the rsp-ql
    profile's with that one parameter changed."""
    code, shifted, err = cli(capsys, "run", Q1, *data, "--t0", "1")
    assert code == 0, err
    code, explicit, _ = cli(capsys, "run", Q1, *data, "--profile", "rsp-ql", "--t0", "1")
    _, default, _ = cli(capsys, "run", Q1, *data)
    assert shifted == explicit != default
    assert json.loads(shifted.splitlines()[0])["t"] >= 4


def test_window_durations_as_numbers_run_as_milliseconds(data, tmp_path, capsys):
    """RSP-JS / RSP-RS / Janus write ``[RANGE 3000 STEP 1000]``: the same answers as ``PT3S`` /
    ``PT1S``, and the note that says how the numbers were read."""
    text = Q1.read_text()
    assert "[RANGE PT3S STEP PT1S]" in text
    numbers = tmp_path / "numbers.rq"
    numbers.write_text(text.replace("[RANGE PT3S STEP PT1S]", "[RANGE 3000 STEP 1000]"))
    code, expected, err = cli(capsys, "run", Q1, *data)
    assert code == 0, err
    code, out, err = cli(capsys, "run", numbers, *data)
    assert code == 0, err
    assert out == expected and out.count("\n") > 3
    assert "numbers.rq:" in err and "read as milliseconds" in err


def test_a_duration_finer_than_the_base_unit_is_named_once_with_the_unit_to_choose(data, tmp_path, capsys):
    """``[RANGE 10 STEP 5]`` (RSP-JS' milliseconds) under the default base unit of seconds: exit 2,
    the window range as written, its milliseconds said once, and the option that fixes it."""
    text = Q1.read_text().replace("[RANGE PT3S STEP PT1S]", "[RANGE 10 STEP 5]")
    short = tmp_path / "short.rq"
    short.write_text(text)
    code, out, err = cli(capsys, "run", short, *[a for a in data if a not in ("--unit", "s")])
    assert code == 2 and out == ""
    assert "the window range 10ms is not a whole multiple of the base unit s (1000 ms)" in err
    assert "of 10 ms" not in err and "--unit" in err and "Traceback" not in err
