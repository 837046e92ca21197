"""The generic adapter (`--live-engine command --engine-command '…'`) with a tiny fake engine
(tests/data/engines/fake_engine.py, a tumbling 2-second window of subjects): its output judged live by
check, read from stdout or from {output}, in another time unit, and the errors of a bad command."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from translator.engines import EngineError
from translator.engines.command import command_words
from translator.engines.inputs import prepare_input
from translator.rdf.streams import read_stream

DATA = Path(__file__).resolve().parents[1] / "data" / "engines"
QUERY = DATA / "tumbling_subjects.rq"
STREAM = "http://example.org/stream"
FAKE = f"{shlex.quote(sys.executable)} {shlex.quote(str(DATA / 'fake_engine.py'))}"


def check(cli, command: str, *more):
    return cli("check", QUERY, "--stream", f"{STREAM}={DATA / 'tumbling.nt'}", "--live-engine", "command",
               "--engine-command", command, "--profile", "rsp-ql", *more)


def test_a_correct_engine_is_judged_correct(cli, tmp_path):
    code, out, err = check(cli, FAKE + " {stream_nt}", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    assert out.startswith("correct")
    assert json.loads((tmp_path / "r.json").read_text())["live_engine"]["engine"] == "command"


def test_a_faulty_engine_is_judged_incorrect_where_it_drops_a_window(cli):
    code, out, err = check(cli, FAKE + " {stream_nt} --drop-last --output {output}")
    assert code == 1, out + err
    assert "first mismatch (closest t0 = 0) at t = 8" in out and "dropped relation" in out


def test_the_engine_reads_and_writes_its_own_time_unit(cli, tmp_path):
    """The stream is handed over in ms (the fake engine's windows become 2 ms wide); its output times are
    read back in ms: with the query's window in ms too, the verdict is the same as in seconds."""
    query = tmp_path / "q.rq"
    query.write_text(QUERY.read_text().replace("[RANGE PT2S STEP PT2S]", "[RANGE 2 STEP 2]"))
    stream = tmp_path / "s.nt"
    stream.write_text((DATA / "tumbling.nt").read_text())
    code, out, err = cli("check", query, "--stream", f"{STREAM}={stream}", "--unit", "ms", "--live-engine", "command",
                         "--engine-command", FAKE + " {stream_nt}", "--engine-time-unit", "ms", "--profile", "rsp-ql")
    assert code == 0, out + err
    code, out, err = check(cli, FAKE + " {stream_nt}", "--engine-time-unit", "ms")
    assert code == 1, "in ms the fake engine's windows are 2 ms wide: one relation per element, not the query's 2 s"


def test_placeholders_are_filled_as_whole_words(tmp_path):
    elements = read_stream(DATA / "tumbling.nt", STREAM)
    given = prepare_input(QUERY, [(STREAM, str(DATA / "tumbling.nt"))], elements, [str(QUERY)], tmp_path,
                          base_unit="s", engine_unit="ms")
    words = command_words("engine --q={query} {stream} {stream_iri} {streams} {static} -o {output}", given,
                          tmp_path / "o")
    assert words == ["engine", f"--q={QUERY}", str(DATA / "tumbling.nt"), STREAM, f"{STREAM}={tmp_path / 'stream-1.nt'}",
                     str(QUERY), "-o", str(tmp_path / "o")]
    assert (tmp_path / "stream-1.nt").read_text().splitlines()[0].endswith('"1000" .'), "seconds written as ms"
    with pytest.raises(EngineError, match=r"unknown placeholder \{stream_file\}"):
        command_words("engine {stream_file}", given, tmp_path / "o")


@pytest.mark.parametrize("command, message", [
    ("no-such-engine-program {query}", "cannot start 'no-such-engine-program': no such program"),
    (FAKE + " {stream_nt} --fail", "the engine failed (exit 3): fake engine: cannot open the stream"),
    ("engine {nope}", "unknown placeholder {nope}"),
])
def test_a_bad_command_is_an_error(cli, command, message):
    code, out, err = check(cli, command)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_command_needs_its_command_line(cli):
    code, out, err = cli("check", QUERY, "--stream", f"{STREAM}={DATA / 'tumbling.nt'}", "--live-engine", "command",
                         "--profile", "rsp-ql")
    assert code == 2 and "--engine-command" in err


def test_live_engine_and_answers_exclude_each_other(cli, tmp_path):
    answers = tmp_path / "a.jsonl"
    answers.write_text("")
    code, _, err = check(cli, FAKE + " {stream_nt}", "--answers", answers)
    assert code == 2 and "not both" in err


def test_a_stream_from_stdin_and_an_unknown_engine_or_profile_are_errors(cli):
    code, _, err = cli("check", QUERY, "--stream", f"{STREAM}=-", "--live-engine", "command", "--engine-command",
                       FAKE + " {stream_nt}", "--profile", "rsp-ql")
    assert code == 2 and "not stdin" in err
    for name, message in (("yasper", "unknown engine"), ("rsplars:no-such-profile", "unknown profile")):
        code, _, err = cli("agree", QUERY, "--stream", f"{STREAM}={DATA / 'tumbling.nt'}", "--live-engine", name,
                           "--live-engine", "rsplars")
        assert code == 2 and message in err, err


def test_agree_compares_a_live_run_with_a_recorded_output(cli, tmp_path):
    """One --live-engine and one --answers FILE: the live output is read in its engine's time unit (ms),
    the file in the base unit; the same relations agree in every interval."""
    recorded = tmp_path / "recorded.jsonl"
    recorded.write_text("".join(json.dumps({"t": t, "answers": [{"s": f"<http://example.org/{s}>"} for s in subjects]})
                                + "\n" for t, subjects in ((2, "ab"), (4, "c"), (6, "d"), (8, "e"))))
    code, out, err = cli("agree", QUERY, "--stream", f"{STREAM}={DATA / 'tumbling.nt'}", "--answers", recorded,
                         "--live-engine", "command", "--engine-command", FAKE + " {stream_nt} --scale 1000",
                         "--engine-time-unit", "ms")
    assert code == 0, out + err
    assert "4 of 4 intervals of 2 agree" in out
