"""The command line and the API give the same output for the same request: ``rsplars run``,
``rsplars translate`` and ``rsplars lars`` call :func:`rsplars.evaluations`,
:func:`rsplars.translate` and :func:`rsplars.lars_run`; each case writes the API's answers as the
command line writes them and compares the texts. The running example is Dao-Tran, Beck, Eiter 2015,
Example 4; the EP-SPARQL/RSEP-QL stream is Figure 1 of Dell'Aglio et al. 2016; the LARS program is
Ticker's (Beck, Dao-Tran, Eiter 2017)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import rsplars
from api_helpers import CHECK, CSR_STREAM, DATA, Q1, Q2, RUNNING, S1, S2

STREAMS = {S1: str(RUNNING / "offers.nt"), S2: str(RUNNING / "near.nt")}
STREAM_OPTIONS = [x for iri, path in STREAMS.items() for x in ("--stream", f"{iri}={path}")]
FIGURE1 = str(DATA / "epsparql" / "rsepql_figure1.stream")
BARE = "http://rsplars.invalid/bare#"


def written(evaluations: rsplars.Evaluations, fmt: str) -> str:
    """The evaluations written one at a time, as ``rsplars run`` writes them."""
    out = io.StringIO()
    write = evaluations.writer(fmt, out)
    for evaluation in evaluations:
        write(evaluation)
    return out.getvalue()


@pytest.mark.parametrize("query, options, cli_options", [
    (Q1, rsplars.TranslationOptions(unit="m", period="5m"), ["--unit", "m", "--period", "5m"]),
    (Q2, rsplars.TranslationOptions(unit="m"), ["--unit", "m"]),
    (Q1, rsplars.TranslationOptions(unit="m", mode="push", period="5m"), ["--unit", "m", "--mode", "push", "--period", "5m"]),
    (Q2, rsplars.TranslationOptions(unit="m", as_variant="csparql", period="5m"),
     ["--unit", "m", "--as", "csparql", "--period", "5m"]),
], ids=["csparql-pull", "cqels-push", "csparql-push", "cqels-as-csparql"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_run_equals_the_cli(cli, query, options, cli_options, fmt):
    static = str(RUNNING / "static.ttl")
    code, out, err = cli("run", query, *STREAM_OPTIONS, "--static", static, *cli_options, "--format", fmt)
    assert code == 0, err
    assert written(rsplars.evaluations(query, STREAMS, static, options=options), fmt) == out
    assert written(rsplars.evaluations(query, STREAMS, static, options=options, live=True), fmt) == out
    assert rsplars.run(query, STREAMS, static, options=options).write(fmt) == out


def test_a_run_from_a_time_and_after_resuming_equals_the_cli(cli):
    static = str(RUNNING / "static.ttl")
    options = rsplars.TranslationOptions(unit="m", period="5m")
    full = list(rsplars.evaluations(Q1, STREAMS, static, options=options))
    assert len(full) > 3
    resume = full[1].t
    tail = list(rsplars.evaluations(Q1, STREAMS, static, options=options, resume_after=resume))
    assert [ev.t for ev in tail] == [ev.t for ev in full if ev.t > resume]
    assert [ev.rows for ev in tail] == [ev.rows for ev in full if ev.t > resume]
    code, out, err = cli("run", Q1, *STREAM_OPTIONS, "--static", static, "--unit", "m", "--period", "5m",
                         "--resume-from", resume)
    assert code == 0, err
    assert [json.loads(line)["t"] for line in out.splitlines()] == [ev.t for ev in tail]


def test_a_run_under_a_profile_equals_the_cli(cli):
    streams = {CSR_STREAM: str(CHECK / "listing1.nt")}
    profile = rsplars.ProfileOptions("cqels", report_policy="content-change")
    code, out, err = cli("run", CHECK / "listing1.rq", "--stream", f"{CSR_STREAM}={CHECK / 'listing1.nt'}",
                         "--stream-time-unit", "ms", "--profile", "cqels", "--report-policy", "content-change")
    assert code == 0, err
    assert written(rsplars.evaluations(CHECK / "listing1.rq", streams, profile=profile, stream_time_unit="ms"),
                   "jsonl") == out


@pytest.mark.parametrize("query, events, cli_options", [
    ("epsparql/rsepql_seq.rq", rsplars.EventOptions(), []),
    ("epsparql/rsepql_seq.rq", rsplars.EventOptions(selection="chronological", consumption="chronological"),
     ["--selection", "chronological", "--consumption", "chronological"]),
    ("rsepql/example4.rq", rsplars.EventOptions(at=(8, 10)), ["--at", "8,10"]),
], ids=["epsparql", "epsparql-policies", "rsepql"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_complex_events_equal_the_cli(cli, query, events, cli_options, fmt):
    path = DATA / query
    stream = f"{BARE}S" if query.startswith("rsepql") else "http://example.org/S"
    code, out, err = cli("run", path, "--stream", f"{stream}={FIGURE1}", *cli_options, "--format", fmt)
    assert code == 0, err
    assert out.strip(), "the case has complex events"
    assert written(rsplars.evaluations(path, {stream: FIGURE1}, events=events), fmt) == out


@pytest.mark.parametrize("fmt", ["jsonl", "sparql-json", "csv"])
def test_a_plain_sparql_run_equals_the_cli(cli, tmp_path: Path, fmt):
    query = tmp_path / "q.rq"
    query.write_text("PREFIX : <http://example.org/>\nSELECT ?s ?o WHERE { ?s :p ?o } ORDER BY ?o\n")
    data = tmp_path / "data.ttl"
    data.write_text("@prefix : <http://example.org/> .\n:a :p 1 . :b :p 2 . :c :q 3 .\n")
    code, out, err = cli("run", query, "--static", data, "--format", fmt)
    assert code == 0, err
    assert written(rsplars.evaluations(query, static=str(data)), fmt) == out
    assert rsplars.run(query, static=str(data)).write(fmt) == out


@pytest.mark.parametrize("to", ["lars", "asp", "model", "rspql", "cqels"])
def test_a_translation_equals_the_cli(cli, to):
    code, out, err = cli("translate", Q1, "--to", to, "--unit", "m", "--period", "5m")
    assert code == 0, err
    assert rsplars.translate(Q1, to, options=rsplars.TranslationOptions(unit="m", period="5m")) == out


def test_a_translation_under_a_profile_equals_the_cli(cli):
    code, out, err = cli("translate", Q1, "--to", "lars", "--unit", "m", "--profile", "csparql", "--t0", "1")
    assert code == 0, err
    assert "report policy" in out
    assert rsplars.translate(Q1, "lars", options=rsplars.TranslationOptions(unit="m"),
                             profile=rsplars.ProfileOptions("csparql", t0=(1,))) == out


def test_the_targets_of_the_cli_are_the_apis():
    from translator.cli.commands.translate import TARGETS

    assert TARGETS == rsplars.TARGETS


@pytest.mark.parametrize("engine", ["auto", "asp"])
def test_a_lars_run_equals_the_cli(cli, engine):
    program = DATA / "lars" / "ticker" / "program.lars"
    stream = DATA / "lars" / "stream.txt"
    code, out, err = cli("lars", program, "--stream", stream, "--format", "jsonl", "--engine", engine)
    assert code == 0, err
    steps = rsplars.lars_run(program, stream, engine=engine)
    assert [json.dumps({"t": s.t, "atoms": s.answers[0]}) for s in steps] == out.splitlines()


def test_the_evaluations_are_computed_as_they_are_taken():
    """Streaming: the first evaluation is given before the engine starts on the second, and an
    ``Evaluations`` is read once."""
    started: list[int] = []
    evaluations = rsplars.evaluations(Q1, STREAMS, str(RUNNING / "static.ttl"),
                                      options=rsplars.TranslationOptions(unit="m", period="5m"), on_time=started.append)
    assert started == []  # nothing is solved before it is asked for
    taken = iter(evaluations)
    first = next(taken)
    assert started == [first.t]
    second = next(taken)
    assert started == [first.t, second.t]
    with pytest.raises(rsplars.RsplarsError, match="once"):
        iter(evaluations)


def test_import_rsplars_loads_its_submodules_on_first_use():
    """PEP 562: ``import rsplars`` loads no stage; a name loads its own submodule only (the command
    line's ``rsplars run`` never loads the agreement stage)."""
    import subprocess
    import sys

    probe = ("import sys, rsplars; before = {m for m in sys.modules if m.startswith(('rsplars.', 'translator.'))}; "
             "rsplars.evaluations; after = {m for m in sys.modules if m.startswith('rsplars.')}; "
             "print(sorted(before)); print(sorted(after)); print(sorted(set(rsplars.__all__) - set(dir(rsplars))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    before, after, missing = done.stdout.splitlines()
    assert before == "[]"
    assert "rsplars.running" in after and "rsplars.agreement" not in after and "rsplars.checking" not in after
    assert missing == "[]"
