"""Using ``import rsplars`` as a notebook does: each result equals what the command line
gives on the same input (``rsplars run``/``agree``/``check`` run in process)."""

from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

import rsplars
from translator.rdf.streams import read_stream
from translator.rdf.terms import to_nt

from api_helpers import CHECK, CSR_STREAM, Q1, Q2, RUNNING, S1, S2

RUNNING_CLI = ["--stream", f"{S1}={RUNNING / 'offers.nt'}", "--stream", f"{S2}={RUNNING / 'near.nt'}",
               "--static", str(RUNNING / "static.ttl"), "--unit", "m"]


def stream_frame(path, iri: str, unit: str = "m") -> pd.DataFrame:
    """A stream file as the DataFrame a researcher would hold: subject, predicate, object, time."""
    from translator.rdf.timeunits import TimeSpec

    elements = read_stream(path, iri, time=TimeSpec(unit))
    return pd.DataFrame([(*map(to_nt, e.triple), e.t) for e in elements],
                        columns=["subject", "predicate", "object", "time"])


def test_run_over_dataframes_gives_the_cli_answers(cli):
    offers, near = stream_frame(RUNNING / "offers.nt", S1), stream_frame(RUNNING / "near.nt", S2)
    query = rsplars.parse(Q1)
    result = rsplars.run(query, streams={S1: offers, S2: near}, static=RUNNING / "static.ttl",
                         options=rsplars.TranslationOptions(unit="m", period="5m"))
    frame = result.to_dataframe()

    code, out, err = cli("run", Q1, *RUNNING_CLI, "--period", "5m")
    assert code == 0, err
    assert result.write("jsonl") == out
    code, out_csv, err = cli("run", Q1, *RUNNING_CLI, "--period", "5m", "--format", "csv")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out_csv)))
    assert list(frame.columns) == rows[0] == ["t", "shop", "product", "percent"]
    assert [[str(t), *("" if x is None else x for x in rest)] for t, *rest in frame.itertuples(index=False)] == rows[1:]
    assert len(frame) > 0 and frame["t"].nunique() < len(result)  # some evaluations are empty, some answered


def test_dataframe_iterable_and_file_streams_give_the_same_run():
    options = rsplars.TranslationOptions(unit="m")
    files = rsplars.run(Q2, {S1: RUNNING / "offers.nt", S2: str(RUNNING / "near.nt")}, RUNNING / "static.ttl",
                        options=options)
    frames = {S1: stream_frame(RUNNING / "offers.nt", S1), S2: stream_frame(RUNNING / "near.nt", S2)}
    pairs = {iri: [((s, p, o), t) for s, p, o, t in f.itertuples(index=False)] for iri, f in frames.items()}
    from translator.rdf.terms import from_nt

    terms = {iri: [(tuple(map(from_nt, triple)), t) for triple, t in ps] for iri, ps in pairs.items()}
    for streams in (frames, pairs, terms):
        got = rsplars.run(Q2, streams, RUNNING / "static.ttl", options=options)
        assert got.solutions() == files.solutions()
    assert any(files.solutions().values())


def test_run_result_formats_equal_the_cli(cli, tmp_path):
    result = rsplars.run(Q2, {S1: RUNNING / "offers.nt", S2: RUNNING / "near.nt"}, RUNNING / "static.ttl",
                         options=rsplars.TranslationOptions(unit="m"))
    for fmt in ("jsonl", "csv", "sparql-json"):
        code, out, err = cli("run", Q2, *RUNNING_CLI, "--format", fmt)
        assert code == 0, err
        assert result.write(fmt) == out, fmt
    path = tmp_path / "answers.jsonl"
    assert result.write("jsonl", path) is None
    assert path.read_text() == result.write("jsonl")
    with pytest.raises(rsplars.RsplarsError, match="CONSTRUCT"):
        result.write("ntriples")


def test_agreement_in_three_calls(cli, tmp_path):
    query = rsplars.parse(str(Q1))
    streams = {S1: str(RUNNING / "offers.nt"), S2: str(RUNNING / "near.nt")}
    result = rsplars.agree(query, streams, static=str(RUNNING / "static.ttl"), unit="m", period="5m")

    report = tmp_path / "report.json"
    code, out, err = cli("agree", Q1, *RUNNING_CLI, "--period", "5m", "--report", report)
    assert code == 0, err
    assert result.to_dict() == json.loads(report.read_text())
    assert out.startswith(f"== {result.label}\n" + result.table())
    frame = result.to_dataframe()
    assert list(frame["verdict"]) == [i["verdict"] for i in result.to_dict()["intervals"]]
    assert result.all_agree == (set(frame["verdict"]) == {"agree"})


def test_agreement_of_two_queries_equals_the_cli(cli, tmp_path):
    streams = {S1: str(RUNNING / "offers.nt"), S2: str(RUNNING / "near.nt")}
    result = rsplars.agree(pull=str(Q1), push=str(Q2), streams=streams, static=str(RUNNING / "static.ttl"),
                           unit="m", period="5m", diagnosis=False)
    report = tmp_path / "report.json"
    code, _, err = cli("agree", "--pull", Q1, "--push", Q2, *RUNNING_CLI, "--period", "5m", "--no-diagnosis",
                       "--report", report)
    assert code == 0, err
    assert result.to_dict() == json.loads(report.read_text())


LISTING1 = [str(CHECK / "listing1.rq"), "--stream", f"{CSR_STREAM}={CHECK / 'listing1.nt'}", "--stream-time-unit", "ms"]
R1 = {"type": "uri", "value": "http://ex.org/r1"}
R2 = {"type": "uri", "value": "http://ex.org/r2"}


@pytest.mark.parametrize("relations, correct", [
    ([(12000, []), (22000, [R2])], True),
    ([(5000, [R1]), (10000, [R1]), (20000, [R2])], False),
])
def test_check_in_three_calls(cli, tmp_path, relations, correct):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"relations": [{"timestamp": t, "results": {"bindings": [{"room": b} for b in bs]}}
                                                 for t, bs in relations]}))
    query = rsplars.parse(str(CHECK / "listing1.rq"))
    result = rsplars.check(query, answers=str(answers), streams={CSR_STREAM: str(CHECK / "listing1.nt")},
                           profile="csparql", stream_time_unit="ms", answers_time_unit="ms")

    report = tmp_path / "report.json"
    code, _, err = cli("check", *LISTING1, "--answers", answers, "--answers-time-unit", "ms", "--profile", "csparql",
                       "--json", report)
    assert code == (0 if correct else 1), err
    assert result.correct is correct
    assert result.report == json.loads(report.read_text())
    timeline = result.to_dataframe()
    assert list(timeline["t"]) == [row["t"] for row in result.report["timeline"]]
    assert all(timeline["equal"]) is correct

    # the same output given as {t: [solution]}: the same verdict
    mapping = {t // 1000: [{"room": f"<{b['value']}>"} for b in bs] for t, bs in relations}
    again = rsplars.check(query, mapping, {CSR_STREAM: str(CHECK / "listing1.nt")}, profile="csparql",
                          stream_time_unit="ms")
    assert again.correct is correct
    assert again.report["timeline"] == result.report["timeline"]


def test_inference_equals_the_cli(cli, tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"relations": [{"timestamp": 12000, "results": {"bindings": []}},
                                                 {"timestamp": 22000, "results": {"bindings": [{"room": R2}]}}]}))
    result = rsplars.infer(str(CHECK / "listing1.rq"), str(answers), {CSR_STREAM: str(CHECK / "listing1.nt")},
                           stream_time_unit="ms", answers_time_unit="ms",
                           fixed=rsplars.ProfileOptions("csparql"))
    report = tmp_path / "report.json"
    code, out, err = cli("check", *LISTING1, "--answers", answers, "--answers-time-unit", "ms", "--infer",
                         "--profile", "csparql", "--json", report)
    assert code == 0, err
    assert result.explained
    assert result.report == json.loads(report.read_text())
    assert out.startswith("\n".join(result.describe()))
    assert "csparql" in result.profiles


def test_run_under_a_profile_equals_the_cli_and_checks_as_correct(cli):
    streams = {CSR_STREAM: str(CHECK / "listing1.nt")}
    result = rsplars.run(str(CHECK / "listing1.rq"), streams, profile=rsplars.ProfileOptions("csparql", t0=(2,)),
                         stream_time_unit="ms")
    code, out, err = cli("run", *LISTING1, "--profile", "csparql", "--t0", "2")
    assert code == 0, err
    assert result.write("jsonl") == out
    # an engine's output that is the run's own answer stream is correct under that profile
    assert rsplars.check(str(CHECK / "listing1.rq"), result, streams, profile="csparql",
                         stream_time_unit="ms").correct


RSPQL_STREAMS = {"http://example.org/nearby": CHECK / "nearby.stream", "http://example.org/coupon": CHECK / "coupon.stream"}
RSPQL_CLI = [*(x for iri, path in RSPQL_STREAMS.items() for x in ("--stream", f"{iri}={path}")),
             "--static", CHECK / "shops.ttl"]


@pytest.mark.parametrize("kwargs, argv", [
    ({}, []),  # RSP-QL: the rsp-ql profile with its registration's R2S
    ({"r2s": "istream"}, ["--r2s", "istream"]),
    ({"profile": rsplars.ProfileOptions("cqels")}, ["--profile", "cqels"]),
    ({"options": rsplars.TranslationOptions(mode="push")}, ["--mode", "push"]),
])
def test_rspql_runs_equal_the_cli(cli, kwargs, argv):
    result = rsplars.run(CHECK / "qex.rq", RSPQL_STREAMS, CHECK / "shops.ttl", **kwargs)
    code, out, err = cli("run", CHECK / "qex.rq", *RSPQL_CLI, *argv)
    assert code == 0, err
    assert result.write("jsonl") == out
    assert any(ev.rows for ev in result)


EX = "http://example.org/"
ELEMENTS = [((f"<{EX}{s}>", f"<{EX}p>", f"<{EX}{o}>"), t) for s, o, t in
            [("a", "b", 1), ("a", "c", 2), ("b", "c", 2), ("c", "a", 5)]]


@pytest.mark.parametrize("head, columns, formats", [
    ("CONSTRUCT { ?y <http://example.org/q> ?x }", ["t", "subject", "predicate", "object"], ["jsonl", "csv", "ntriples"]),
    ("ASK", ["t", "answer"], ["jsonl", "csv", "sparql-json"]),
])
def test_construct_and_ask_results_equal_the_cli(cli, tmp_path, head, columns, formats):
    query = tmp_path / "q.rq"
    query.write_text(f"{head} WHERE {{ STREAM <{EX}s> [RANGE 2s] {{ ?x <{EX}p> ?y }} }}\n")
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'{s} {p} {o} "{t}" .\n' for (s, p, o), t in ELEMENTS))
    result = rsplars.run(query, {f"{EX}s": ELEMENTS})
    for fmt in formats:
        code, out, err = cli("run", query, "--stream", f"{EX}s={stream}", "--format", fmt)
        assert code == 0, err
        assert result.write(fmt) == out, fmt
    frame = result.to_dataframe()
    assert list(frame.columns) == columns and len(frame) >= len(result)


def test_solutions_are_bags_duplicates_kept():
    """Rows given as a bag (SPARQL 1.1 §18.1.6, ``translator.rdf.bags.Bag``) keep their duplicates in
    every view of the result; as a set, each row once."""
    from translator.evaluate.run import Evaluation
    from translator.rdf.bags import Bag

    compiled = rsplars.translations(Q2, options=rsplars.TranslationOptions(unit="m"))[0].compiled
    row = ("<http://ex.org/b>", '"rayban"', '"25"')
    bag = rsplars.RunResult(compiled.query, compiled, (Evaluation(18, Bag([row, row])),))
    assert bag.solutions() == {18: [dict(zip(bag.variables, row))] * 2}
    assert len(bag.to_dataframe()) == 2
    assert bag.write("csv").count("18,") == 2
    single = rsplars.RunResult(compiled.query, compiled, (Evaluation(18, frozenset([row])),))
    assert len(single.to_dataframe()) == 1


def test_results_show_briefly_in_a_notebook():
    streams = {CSR_STREAM: str(CHECK / "listing1.nt")}
    result = rsplars.run(str(CHECK / "listing1.rq"), streams, profile=rsplars.ProfileOptions("csparql"),
                         stream_time_unit="ms")
    assert repr(result) == "RunResult(select, variables=['room'], evaluations=2, with answers=2)"
    verdict = rsplars.check(str(CHECK / "listing1.rq"), result, streams, profile="csparql", stream_time_unit="ms")
    assert repr(verdict) == "CheckResult(correct=True, profile='csparql')"
    assert repr(rsplars.infer(str(CHECK / "listing1.rq"), result, streams, stream_time_unit="ms")).startswith(
        "InferenceResult(explained=True, profiles=[")
    agreement = rsplars.agree(str(Q1), {S1: RUNNING / "offers.nt", S2: RUNNING / "near.nt"}, RUNNING / "static.ttl",
                              unit="m", period="5m", diagnosis=False)
    summary = agreement.to_dict()["summary"]
    assert repr(agreement) == (f"AgreementResult({agreement.label!r}, intervals={summary['intervals']}, "
                               f"agreeing={summary['agreeing']}, disagreeing={summary['disagreeing']})")


def test_time_varying_static_data_equals_the_cli(cli):
    """Dell'Aglio et al. 2014, Example 4: G_shops holds on [2, 13], g'_shops after 13."""
    nearby = {"http://example.org/nearby": CHECK / "nearby.stream"}
    during = [(2, 13, CHECK / "shops.ttl"), (14, None, str(CHECK / "shops_after13.ttl"))]
    profile = rsplars.ProfileOptions("rsp-ql", report_policy="periodic", report_period="1s")
    result = rsplars.run(CHECK / "shop_owners.rq", nearby, static_during=during, profile=profile, end=15)
    code, out, err = cli("run", CHECK / "shop_owners.rq", "--stream", f"http://example.org/nearby={CHECK / 'nearby.stream'}",
                         "--static-during", f"2..13={CHECK / 'shops.ttl'}",
                         "--static-during", f"14..={CHECK / 'shops_after13.ttl'}",
                         "--profile", "rsp-ql", "--report-policy", "periodic", "--report-period", "1s", "--to", "15")
    assert code == 0, err
    assert result.write("jsonl") == out
    assert len({frozenset(map(frozenset, (d.items() for d in ds))) for ds in result.solutions().values()}) > 1
    with pytest.raises(rsplars.RsplarsError, match="the start 14 is after the end 13"):
        rsplars.run(CHECK / "shop_owners.rq", nearby, static_during=[(14, 13, CHECK / "shops.ttl")])


def test_plain_sparql_without_streams_equals_the_cli(cli, tmp_path):
    """A query without streams is SPARQL (Dao-Tran, Beck, Eiter 2015, Prop. 2), evaluated once; FROM
    names a file beside the query (its base IRI), as on the command line."""
    (tmp_path / "static.ttl").write_text((RUNNING / "static.ttl").read_text())
    query = tmp_path / "q.rq"
    query.write_text("SELECT ?s ?p ?o FROM <static.ttl> WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 3\n")
    result = rsplars.run(query)
    for fmt in ("jsonl", "csv", "sparql-json"):
        code, out, err = cli("run", query, "--format", fmt)
        assert code == 0, err
        assert result.write(fmt) == out, fmt
    assert result.plain and result.times == [0]
    assert len(result.to_dataframe()) == len(result.solutions()[0]) == 2  # the two triples of static.ttl
    ask = tmp_path / "ask.rq"
    ask.write_text("ASK { ?s ?p ?o }\n")
    code, out, err = cli("run", ask, "--static", RUNNING / "static.ttl", "--format", "sparql-json")
    assert code == 0, err
    assert rsplars.run(ask, static=RUNNING / "static.ttl").write("sparql-json") == out
    with pytest.raises(rsplars.RsplarsError, match="reads the streams"):
        rsplars.run(Q2)
    with pytest.raises(rsplars.RsplarsError, match="FROM <http://example.org/g>: rsplars reads no data from the web"):
        rsplars.run("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }")


def test_html_reports_equal_the_cli(cli, tmp_path):
    streams = {CSR_STREAM: str(CHECK / "listing1.nt")}
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"relations": [{"timestamp": 12000, "results": {"bindings": []}}]}))
    verdict = rsplars.check(str(CHECK / "listing1.rq"), str(answers), streams, profile="csparql",
                            stream_time_unit="ms", answers_time_unit="ms")
    page = tmp_path / "check.html"
    cli("check", *LISTING1, "--answers", answers, "--answers-time-unit", "ms", "--profile", "csparql", "--html", page)
    assert verdict.html() == page.read_text(encoding="utf-8")
    agreement = rsplars.agree(str(Q1), {S1: str(RUNNING / "offers.nt"), S2: str(RUNNING / "near.nt")},
                              str(RUNNING / "static.ttl"), unit="m", period="5m", diagnosis=False)
    page = tmp_path / "agree.html"
    code, _, err = cli("agree", Q1, *RUNNING_CLI, "--period", "5m", "--no-diagnosis", "--html", page)
    assert code == 0, err
    assert agreement.html() == page.read_text(encoding="utf-8")
