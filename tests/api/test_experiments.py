"""The API functions a study needs besides run/agree/check: generated data (the same bytes as
``rsplars gen``), stream data read back, the windows and programs of the translations, the
agreement and its causes from runs already made (the same verdicts as ``rsplars.agree``), the atoms a
program derives at each time point (Propositions 1 and 2 of Dao-Tran, Beck, Eiter 2015), and live
engines."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

import rsplars
from rsplars import TranslationOptions

from api_helpers import Q1, Q2, RUNNING, S1, S2

RUNNING_STREAMS = {S1: RUNNING / "offers.nt", S2: RUNNING / "near.nt"}
RUNNING_STATIC = RUNNING / "static.ttl"
SES = "http://www.insight-centre.org/dataset/SampleEventService#"
EX = "http://example.org/"


# ------------------------------------------------------------------------------------ generated data


def test_coupon_streams_write_the_bytes_of_rsplars_gen_coupons(cli, tmp_path):
    code, _, err = cli("gen", "coupons", "--rate", "0.5", "--duration", "60", "--seed", "3", "--shops", "3",
                       "--customers", "2", "--products", "4", "--output-dir", tmp_path / "cli")
    assert code == 0, err
    files = rsplars.coupon_streams(duration=60, rate=0.5, seed=3, shops=3, customers=2, products=4).write(tmp_path / "api")
    assert sorted(p.name for p in (tmp_path / "api").iterdir()) == ["near.nt", "offers.nt", "static.n3"]
    for name in ("near.nt", "offers.nt", "static.n3"):
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert files.streams == {f"{EX}stream/offers": tmp_path / "api" / "offers.nt",
                             f"{EX}stream/near": tmp_path / "api" / "near.nt"}
    assert files.static == [tmp_path / "api" / "static.n3"]


def test_coupon_streams_are_seeded_and_follow_the_rate():
    a, b = (rsplars.coupon_streams(duration=600, rate=0.5, seed=1) for _ in range(2))
    assert a == b
    assert a != rsplars.coupon_streams(duration=600, rate=0.5, seed=2)
    offers = a.streams[f"{EX}stream/offers"]
    coupons = len(offers) // 3  # three triples per coupon, at one time point
    assert 200 <= coupons <= 400  # Poisson, mean 300
    times = [t for _, t in offers]
    assert times == sorted(times) and 0 <= times[0] and times[-1] < 600
    dense = rsplars.coupon_streams(duration=600, rate=2.0, seed=1)
    assert dense.triples > 3 * a.triples


def test_random_and_citybench_streams_write_the_bytes_of_rsplars_gen(cli, tmp_path):
    code, _, err = cli("gen", "generic", "--rate", "2", "--duration", "30", "--seed", "5", "--subjects", "3",
                       "--output", tmp_path / "generic.nt")
    assert code == 0, err
    files = rsplars.random_stream(duration=30, rate=2, seed=5, subjects=3).write(tmp_path / "api")
    assert files.streams[f"{EX}stream/random"].read_bytes() == (tmp_path / "generic.nt").read_bytes()
    assert files.static == []

    services = [SES + "AarhusTrafficData158505", SES + "AarhusWeatherData0"]
    code, _, err = cli("gen", "citybench", *(x for s in services for x in ("--service", s)), "--duration", "10",
                       "--seed", "2", "--output-dir", tmp_path / "city-cli")
    assert code == 0, err
    written = rsplars.citybench_streams(services, duration=10, seed=2).write(tmp_path / "city-api")
    assert sorted(p.name for p in (tmp_path / "city-api").iterdir()) == sorted(p.name for p in (tmp_path / "city-cli").iterdir())
    for path in (tmp_path / "city-cli").iterdir():
        assert (tmp_path / "city-api" / path.name).read_bytes() == path.read_bytes(), path.name
    assert list(written.streams) == services


def test_random_stream_draws_from_its_pools():
    data = rsplars.random_stream(duration=200, rate=1.0, subjects=2, predicates=1, objects=3, literal_ratio=0.0, seed=4)
    ((iri, elements),) = data.streams.items()
    assert iri == f"{EX}stream/random"
    assert {s for (s, _, _), _ in elements} <= {f"<{EX}s0>", f"<{EX}s1>"}
    assert {p for (_, p, _), _ in elements} == {f"<{EX}p0>"}
    assert {o for (_, _, o), _ in elements} <= {f"<{EX}o{k}>" for k in range(3)}
    frame = data.to_dataframe()
    assert list(frame.columns) == ["stream", "subject", "predicate", "object", "time"]
    assert len(frame) == len(elements) and frame["time"].is_monotonic_increasing


@pytest.mark.parametrize("call, message", [
    (lambda: rsplars.coupon_streams(shops=0), "at least one shop"),
    (lambda: rsplars.coupon_streams(rate=-1), "rate must not be negative"),
    (lambda: rsplars.coupon_streams(duration=0), "duration must be at least 1"),
    (lambda: rsplars.random_stream(objects=0), "objects must be at least 1"),
    (lambda: rsplars.random_stream(literal_ratio=2), "literal_ratio"),
    (lambda: rsplars.citybench_streams(["http://example.org/sensor"]), "not a CityBench service IRI"),
])
def test_bad_generator_arguments_are_user_errors(call, message):
    with pytest.raises(rsplars.RsplarsError, match=message):
        call()


def test_read_streams_gives_back_what_was_written(tmp_path):
    data = rsplars.coupon_streams(duration=60, rate=0.5, seed=7)
    files = data.write(tmp_path)
    read = rsplars.read_streams(files.streams, unit="m")
    assert list(read.columns) == ["time", "stream", "subject", "predicate", "object"]
    written = data.to_dataframe()
    assert sorted(map(tuple, read[["stream", "subject", "predicate", "object", "time"]].values.tolist())) == \
        sorted(map(tuple, written.values.tolist()))
    assert read["time"].is_monotonic_increasing
    assert Counter(read["stream"]) == {iri: len(e) for iri, e in data.streams.items()}


# --------------------------------------------------------------------------- windows, programs, cs(Q)


def test_windows_follow_table_1_under_each_convention():
    q2 = rsplars.parse(Q2)  # CQELS: [RANGE 30m] on s1 with three triple patterns, [RANGE 5m] on s2 with one
    closed = rsplars.windows(q2, unit="m")
    assert [(w.stream, w.window, w.lars, w.patterns) for w in closed] == [
        (S1, "[RANGE 30m]", "⊞^30", 3), (S2, "[RANGE 5m]", "⊞^5", 1)]
    assert [w.lars for w in rsplars.windows(q2, unit="m", window_bounds="left-open")] == ["⊞^29", "⊞^4"]
    right = [w.lars for w in rsplars.windows(q2, unit="m", window_bounds="right-open")]
    assert right != [w.lars for w in closed] and all(w.startswith("⊞^") for w in right)
    assert [w.lars for w in rsplars.windows(q2, unit="s")] == ["⊞^1800", "⊞^300"]
    assert [w.patterns for w in rsplars.windows(Q1, unit="m")] == [0, 0]  # C-SPARQL: no g
    with pytest.raises(rsplars.RsplarsError, match="window_bounds"):
        rsplars.windows(q2, window_bounds="open")


def test_programs_of_tau_tau1_tau2_differ_as_section_4_3_says():
    q2 = rsplars.parse(Q2)
    tau, tau1, tau2 = (rsplars.program(q2, s, options=TranslationOptions(mode="none", unit="m"))
                       for s in rsplars.STRATEGIES)
    assert (tau.label, tau1.label, tau2.label) == ("τ(cs(Q))", "τ1(cs(Q))", "τ2(Q)")
    assert tau.windows == () and "striple" not in tau.text  # τ reads no stream
    assert tau1.windows == tau2.windows == ("⊞^30", "⊞^5")
    assert tau1.rules > tau.rules  # τ1: a second rule per triple pattern over the stream graph, import rules
    assert f'triple(S,P,O,stream) ← ⊞^30 ◇ striple(S,P,O,"<{S1}>")' in tau1.text.splitlines()
    assert ",stream)" not in tau2.text and ",stream)" not in tau.text
    for p in (tau, tau1, tau2):
        assert p.rules == p.text.count("←")
    assert rsplars.program(Q1, "tau1").label == "τ1(Q)"
    pushed = rsplars.program(q2, "tau2", options=TranslationOptions(mode="push", unit="m"))
    assert pushed.rules == tau2.rules + 1 and "⊞^0" in pushed.windows  # trigger ← ⊞^0 ◇ striple(…)
    with pytest.raises(rsplars.RsplarsError, match="strategy"):
        rsplars.program(q2, "tau3")


def test_cs_of_q2_answers_as_q1():
    q2 = rsplars.parse(Q2)
    reading = rsplars.cs(q2)
    assert reading.dialect == "csparql" and "FROM STREAM" in rsplars.translate(reading, "query")
    options = TranslationOptions(unit="m", mode="none")
    run = {name: rsplars.run(q, RUNNING_STREAMS, RUNNING_STATIC, options=options, end=50).solutions()
           for name, q in (("cs(Q2)", reading), ("Q1", Q1))}
    assert run["cs(Q2)"] == run["Q1"] and any(run["Q1"].values())
    assert rsplars.cs(Q1).dialect == "csparql"


# ------------------------------------------------------------------------------------------ diagnose


@pytest.mark.parametrize("period", [1, 3, 5, 30])
def test_diagnose_gives_the_verdicts_and_causes_of_agree(period):
    def run(query, **options):
        return rsplars.run(query, RUNNING_STREAMS, RUNNING_STATIC, options=TranslationOptions(unit="m", **options), end=50)

    found = rsplars.diagnose(run(Q1, strategy="tau1", mode="none"), run(Q2, strategy="tau2", mode="push"),
                             period=period, tau2_pull=run(Q2, strategy="tau2", mode="none"), end=50)
    agreement = rsplars.agree(pull=Q1, push=Q2, streams=RUNNING_STREAMS, static=RUNNING_STATIC, unit="m",
                              period=f"{period}m", end=50)
    ours, theirs = found.to_dataframe(), agreement.to_dataframe()
    columns = ["index", "start", "end", "verdict", "pull", "push", "missing", "extra"]
    assert ours[columns].values.tolist() == theirs[columns].values.tolist()
    counts = agreement.to_dict()["diagnosis"]["counts"]
    assert found.counts == {k: v for k, v in counts.items() if k != "window-bounds"}
    assert found.agreeing == (theirs["verdict"] == "agree").sum() and found.all_agree == agreement.all_agree
    assert (ours["causes"] != "").sum() == found.intervals - found.agreeing


def test_diagnose_reads_a_pull_run_at_its_period_and_refuses_what_it_cannot_compare():
    options = TranslationOptions(unit="m", strategy="tau1", mode="pull", period="5m")
    pulled = rsplars.run(Q1, RUNNING_STREAMS, RUNNING_STATIC, options=options, end=50)
    pushed = rsplars.run(Q2, RUNNING_STREAMS, RUNNING_STATIC, options=TranslationOptions(unit="m", mode="push"), end=50)
    found = rsplars.diagnose(pulled, pushed, period=5)
    assert found.all_agree and found.intervals == 10 and found.counts == {}
    with pytest.raises(rsplars.RsplarsError, match="period"):
        rsplars.diagnose(pulled, pushed, period=0)
    with pytest.raises(rsplars.RsplarsError, match="no pull answer"):
        rsplars.diagnose(pulled, pushed, period=3)
    with pytest.raises(rsplars.RsplarsError, match="RunResult"):
        rsplars.diagnose({}, pushed, period=5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------- answer_sets


def test_answer_sets_show_proposition_1_on_the_running_example():
    horizon, period = 50, 5
    runs = {mode: rsplars.answer_sets(Q2, RUNNING_STREAMS, RUNNING_STATIC, end=horizon,
                                      options=TranslationOptions(unit="m", mode=mode, period=f"{period}m" if mode == "pull" else None))
            for mode in ("none", "push", "pull")}
    inputs = {10, 15, 18}
    assert all(set(r) == set(range(horizon + 1)) for r in runs.values())
    for t in range(horizon + 1):
        push, pull = runs["push"][t] - {"trigger"}, runs["pull"][t] - {"trigger"}
        assert push == (runs["none"][t] if t in inputs else frozenset()), t
        assert pull == (runs["none"][t] if t % period == 0 else frozenset()), t
    answered = sorted(t for t, atoms in runs["none"].items() if any(a.startswith("answer(") for a in atoms))
    assert answered == [18, 19, 20, 21, 22, 23]  # Ex. 8: (b, "rayban", 25) from 18 while Claire is near


def test_answer_sets_without_streams_agree_for_tau_tau1_tau2(tmp_path):
    static = tmp_path / "g.nt"
    static.write_text(f"<{EX}a> <{EX}p> <{EX}b> .\n<{EX}b> <{EX}p> <{EX}c> .\n<{EX}a> <{EX}q> \"x\" .\n")
    query = f"SELECT * WHERE {{ ?x <{EX}p> ?y OPTIONAL {{ ?y <{EX}p> ?z }} }}"
    atoms = {s: {a for a in rsplars.answer_sets(query, static=static, strategy=s, times=[0])[0] if re.match(r"ans\d+\(", a)}
             for s in rsplars.STRATEGIES}  # the ans_i atoms of τ (τ alone has no answer rule)
    assert atoms["tau"] == atoms["tau1"] == atoms["tau2"] and atoms["tau"]
    answers = rsplars.answer_sets(query, static=static, times=[0])[0]
    assert len([a for a in answers if a.startswith("answer(")]) == len(rsplars.run(query, static=static).solutions()[0]) == 2
    with pytest.raises(rsplars.RsplarsError, match="time points"):
        rsplars.answer_sets(query, static=static, times=[-1])


# ---------------------------------------------------------------------------------------- live engines


def test_run_engine_output_is_judged_as_a_recorded_output(tmp_path):
    q = f"PREFIX : <{EX}> SELECT ?x WHERE {{ STREAM :s [RANGE 2s SLIDE 2s] {{ ?x :p ?y }} }}"
    data = {f"{EX}s": [((f"<{EX}a>", f"<{EX}p>", '"1"'), 1), ((f"<{EX}b>", f"<{EX}p>", '"2"'), 4)]}
    live = rsplars.run_engine("rsplars:cqels", q, data, folder=tmp_path / "live")
    answers = Path(live.answers.path)
    assert answers.is_file() and tmp_path / "live" in answers.parents and live.seconds > 0
    assert (tmp_path / "live" / "query.rq").read_text() == q  # the query text, written for the engine
    assert live.check_options == {"answers_format": live.answers.format, "answers_time_unit": live.answers.time_unit,
                                  "end": live.until}
    assert rsplars.check(q, answers, data, profile="cqels", **live.check_options).correct
    assert not rsplars.check(q, answers, data, profile="csparql", **live.check_options).correct
    # the same run through run_live's block: the same output, its folder removed after the block
    with rsplars.run_live(q, data, engines=[rsplars.LiveEngine("rsplars:cqels")]) as runs:
        (run,) = runs
        assert Path(run.answers.path).read_text() == answers.read_text()
    assert not Path(run.answers.path).exists()
    with pytest.raises(rsplars.RsplarsError, match="unknown engine"):
        rsplars.run_engine("no-such-engine", q, data, folder=tmp_path / "none")
    with pytest.raises(rsplars.RsplarsError, match="positive number of seconds"):
        rsplars.run_engine(rsplars.LiveEngine("rsplars:cqels", timeout=0), q, data, folder=tmp_path / "none")


def test_the_engine_clock_ends_the_judged_range_in_the_base_unit():
    in_ms = rsplars.LiveRun("e", rsplars.RecordedAnswers("out.jsonl", "jsonl", "ms"), 4500, 1.0, unit="s")
    assert in_ms.until == 4 and in_ms.check_options["end"] == 4 and in_ms.check_options["answers_time_unit"] == "ms"
    assert rsplars.LiveRun("e", rsplars.RecordedAnswers("out.jsonl"), None, 1.0).until is None


def test_hunt_reports_an_engine_that_always_fails(tmp_path):
    found = rsplars.hunt(rsplars.LiveEngine("command", "false"), profile="rsp-ql", seconds=5, shrink_seconds=2,
                         max_findings=1)
    assert found.probed >= 1 and len(found.findings) == 1 and found.engine == "command"
    (finding,) = found.findings
    assert finding.kind.startswith("failed: ") and "WINDOW" in finding.query
    assert list(found.to_dataframe()["kind"]) == [finding.kind]
    assert found.to_dict()["findings"] == [{"kind": finding.kind, "case": finding.case, "found_after": finding.found_after}]
    (folder,) = found.write(tmp_path)
    assert {"query.rq", "stream.nt", "diagnosis.txt", "case.json", "README.md"} <= {p.name for p in folder.iterdir()}
    assert json.loads((folder / "case.json").read_text())["patterns"]
    assert Path(folder / "query.rq").read_text() == finding.query
    assert "--live-engine command --profile rsp-ql" in (folder / "README.md").read_text()
    with pytest.raises(rsplars.RsplarsError, match="unknown profile"):
        rsplars.hunt("rsp-js", profile="nope", seconds=1)
