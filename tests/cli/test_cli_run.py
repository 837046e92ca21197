"""``rsplars run``: R2S, evaluation ranges, output formats, time options, ``--output`` atomicity and
the user errors (exit 2, ``FILE:LINE:COLUMN`` for bad stream data, nothing left behind).

Expectations are computed by hand from the running example (Dao-Tran, Beck, Eiter 2015, Ex. 1–8): the only answer is
shop b / "rayban" / 25, present while Claire's isNear (at 18) is in the 5-minute window, i.e. at
18..23 under the closed convention (Table 1)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from cli_helpers import Q1, Q2, RTGM, RUNNING, S1, S2, SHOP_B_RAYBAN_25, XSD_INTEGER, jsonl, running_example_data
from lars.errors import RsplarsError

PULL = ("--period", "1m", "--to", "30")


def answered(out: str) -> dict[int, list[dict]]:
    return {t: a for t, a in jsonl(out).items() if a}


# ---------------------------------------------------------------------------------- R2S


@pytest.mark.parametrize("r2s, times", [
    ("rstream", set(range(18, 24))),  # all current answers
    ("istream", {18}),                # new since the previous evaluation
    ("dstream", {24}),                # dropped since the previous evaluation
])
def test_r2s(run_cli, r2s, times):
    code, out, err = run_cli("run", Q1, *running_example_data("nt"), *PULL, "--r2s", r2s)
    assert code == 0, err
    got = answered(out)
    assert set(got) == times and all(a == [SHOP_B_RAYBAN_25] for a in got.values())
    assert sorted(jsonl(out)) == list(range(0, 31))


def test_r2s_with_two_answers_changing(run_cli, tmp_path):
    """Two shops whose offers enter and leave a 2-minute window at different times."""
    stream = tmp_path / "s.stream"
    stream.write_text("@prefix : <http://example.org/rtgm#> .\n:a :offers :c1 [1] .\n:b :offers :c2 [2] .\n")
    q = tmp_path / "q.rq"
    q.write_text(f"PREFIX : <{RTGM}>\nSELECT ?shop WHERE {{ STREAM <{S1}> [RANGE 2m] {{ ?shop :offers ?c }} }}")
    base = ("run", q, "--stream", f"{S1}={stream}", "--unit", "m", "--mode", "pull", "--period", "1m", "--to", "6")
    a, b = {"shop": f"<{RTGM}a>"}, {"shop": f"<{RTGM}b>"}
    # a in [1, 3], b in [2, 4] (closed windows [t-2, t])
    expected = {
        "rstream": {0: [], 1: [a], 2: [a, b], 3: [a, b], 4: [b], 5: [], 6: []},
        "istream": {0: [], 1: [a], 2: [b], 3: [], 4: [], 5: [], 6: []},
        "dstream": {0: [], 1: [], 2: [], 3: [], 4: [a], 5: [b], 6: []},
    }
    for r2s, want in expected.items():
        code, out, err = run_cli(*base, "--r2s", r2s)
        assert code == 0, err
        assert jsonl(out) == want, r2s


# ------------------------------------------------------------------------ --from / --to


def test_from_to_pull(run_cli):
    code, out, _ = run_cli("run", Q1, *running_example_data("nt"), "--period", "1m", "--from", "20", "--to", "25")
    assert code == 0 and sorted(jsonl(out)) == [20, 21, 22, 23, 24, 25]
    assert set(answered(out)) == {20, 21, 22, 23}


def test_from_to_push_keeps_input_times_in_range(run_cli):
    code, out, _ = run_cli("run", Q2, *running_example_data("stream"), "--from", "12", "--to", "40")
    assert code == 0 and jsonl(out) == {15: [], 18: [SHOP_B_RAYBAN_25]}


def test_mode_option_on_run(run_cli):
    """A CQELS query run in pull mode evaluates at multiples of the period (Dao-Tran, Beck, Eiter 2015, §4.1)."""
    code, out, _ = run_cli("run", Q2, *running_example_data("stream"), "--mode", "pull", "--period", "6m")
    assert code == 0 and jsonl(out) == {0: [], 6: [], 12: [], 18: [SHOP_B_RAYBAN_25]}


@pytest.mark.parametrize("extra, message", [
    (("--from", "5", "--to", "2"), "--from 5 is after --to 2"),
    (("--from", "-3"), "lies before the start 0 of the timeline"),
    (("--to", "-3"), "--to -3 lies before the start 0 of the timeline"),
    (("--mode", "pull", "--period", "0m"), "period 0m: the pull period must be positive"),
])
def test_bad_ranges(run_cli, extra, message):
    code, out, err = run_cli("run", Q2, *running_example_data("stream"), *extra)
    assert code == 2 and out == "" and message in err


# ------------------------------------------------------------------------------ formats


def test_csv_parses_back(run_cli):
    code, out, _ = run_cli("run", Q1, *running_example_data("nt"), *PULL, "--format", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["t", "shop", "product", "percent"]
    body = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert [int(r["t"]) for r in body] == list(range(18, 24))  # one row per answer, times without answers have none
    assert all({k: v for k, v in r.items() if k != "t"} == SHOP_B_RAYBAN_25 for r in body)


#: W3C SPARQL 1.1 Query Results JSON Format (§3): head.vars, results.bindings of RDF terms, or boolean
SPARQL_RESULTS_SCHEMA = {
    "type": "object",
    "required": ["head"],
    "properties": {
        "head": {"type": "object", "properties": {
            "vars": {"type": "array", "items": {"type": "string"}},
            "link": {"type": "array", "items": {"type": "string"}}}},
        "results": {"type": "object", "required": ["bindings"], "properties": {
            "bindings": {"type": "array", "items": {
                "type": "object", "additionalProperties": {"$ref": "#/$defs/term"}}}}},
        "boolean": {"type": "boolean"},
        "t": {"type": "integer"},
    },
    "oneOf": [{"required": ["results"]}, {"required": ["boolean"]}],
    "$defs": {"term": {"oneOf": [
        {"type": "object", "required": ["type", "value"], "additionalProperties": False,
         "properties": {"type": {"const": "uri"}, "value": {"type": "string"}}},
        {"type": "object", "required": ["type", "value"], "additionalProperties": False,
         "properties": {"type": {"const": "bnode"}, "value": {"type": "string"}}},
        {"type": "object", "required": ["type", "value"], "additionalProperties": False,
         "properties": {"type": {"const": "literal"}, "value": {"type": "string"},
                        "datatype": {"type": "string"}}},
        {"type": "object", "required": ["type", "value", "xml:lang"], "additionalProperties": False,
         "properties": {"type": {"const": "literal"}, "value": {"type": "string"},
                        "xml:lang": {"type": "string"}}},
    ]}},
}


def test_sparql_json_is_w3c_results_format(run_cli):
    import jsonschema

    code, out, _ = run_cli("run", Q1, *running_example_data("nt"), *PULL, "--format", "sparql-json")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["t"] for r in records] == list(range(0, 31))
    for r in records:
        jsonschema.validate(r, SPARQL_RESULTS_SCHEMA)
        assert r["head"]["vars"] == ["shop", "product", "percent"]
        for b in r["results"]["bindings"]:
            assert set(b) <= set(r["head"]["vars"])
    at18 = records[18]["results"]["bindings"]
    assert at18 == [{"shop": {"type": "uri", "value": f"{RTGM}b"},
                     "product": {"type": "literal", "value": "rayban"},
                     "percent": {"type": "literal", "value": "25", "datatype": XSD_INTEGER}}]


def test_sparql_json_language_tags_and_unbound(run_cli, tmp_path):
    """An OPTIONAL left unbound is absent from a binding (SPARQL JSON §3.2.2) and empty in CSV."""
    stream = tmp_path / "s.stream"
    stream.write_text('@prefix : <http://example.org/rtgm#> .\n:a :name "Ann"@en [1] .\n:b :name "Bo" [1] .\n'
                      ':a :age 30 [1] .\n')
    q = tmp_path / "q.rq"
    q.write_text(f"PREFIX : <{RTGM}>\nSELECT ?s ?n ?age WHERE {{ STREAM <{S1}> [RANGE 2m] {{ ?s :name ?n }} "
                 f"OPTIONAL {{ ?s :age ?age }} }}")
    static = tmp_path / "static.ttl"
    static.write_text('@prefix : <http://example.org/rtgm#> .\n:a :age 30 .\n')
    args = ("run", q, "--stream", f"{S1}={stream}", "--static", static, "--unit", "m")
    code, out, err = run_cli(*args, "--format", "sparql-json")
    assert code == 0, err
    (record,) = [json.loads(line) for line in out.splitlines()]
    import jsonschema

    jsonschema.validate(record, SPARQL_RESULTS_SCHEMA)
    assert sorted(record["results"]["bindings"], key=lambda b: b["s"]["value"]) == [
        {"s": {"type": "uri", "value": f"{RTGM}a"}, "n": {"type": "literal", "value": "Ann", "xml:lang": "en"},
         "age": {"type": "literal", "value": "30", "datatype": XSD_INTEGER}},
        {"s": {"type": "uri", "value": f"{RTGM}b"}, "n": {"type": "literal", "value": "Bo"}},
    ]
    code, out, _ = run_cli(*args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert sorted((r["s"], r["age"]) for r in rows) == [(f"<{RTGM}a>", f'"30"^^<{XSD_INTEGER}>'), (f"<{RTGM}b>", "")]
    code, out, _ = run_cli(*args)
    assert jsonl(out)[1][1] == {"s": f"<{RTGM}b>", "n": '"Bo"'}  # jsonl leaves unbound variables out


def test_ask_in_every_format(run_cli, tmp_path):
    q = tmp_path / "ask.rq"
    q.write_text(f"PREFIX : <{RTGM}>\nASK WHERE {{ STREAM <{S1}> [RANGE 2m] {{ ?s :offers ?c }} }}")
    args = ("run", q, "--stream", f"{S1}={RUNNING / 'offers.stream'}", "--unit", "m",
            "--mode", "pull", "--period", "5m")
    truth = {0: False, 5: False, 10: True, 15: True}  # offers at 10 and 15, windows [t-2, t]
    code, out, _ = run_cli(*args)
    assert code == 0 and {json.loads(x)["t"]: json.loads(x)["answer"] for x in out.splitlines()} == truth
    code, out, _ = run_cli(*args, "--format", "csv")
    assert list(csv.reader(io.StringIO(out))) == [["t", "answer"], *([str(t), str(v).lower()] for t, v in truth.items())]
    code, out, _ = run_cli(*args, "--format", "sparql-json")
    import jsonschema

    for line in out.splitlines():
        r = json.loads(line)
        jsonschema.validate(r, SPARQL_RESULTS_SCHEMA)
        assert r["boolean"] == truth[r["t"]]


# ------------------------------------------------------------------------- time options


def test_stream_time_unit_and_epoch(run_cli, tmp_path):
    """D1: integer timestamps in ms against base unit m; dateTimes against --epoch — both give the
    running example's answer at 18."""
    ms = tmp_path / "near_ms.nt"
    ms.write_text(f'<{RTGM}claire> <{RTGM}isNear> <{RTGM}b> "1080000"\n')
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={RUNNING / 'offers.nt'}", "--stream", f"{S2}={ms}",
                             "--static", RUNNING / "static.ttl", "--unit", "m", "--stream-time-unit", "ms")
    assert code == 2 and "offers.nt" in err  # offers.nt has 10, 15: in ms not whole minutes
    offers_ms = tmp_path / "offers_ms.nt"
    offers_ms.write_text(f'<{RTGM}a> <{RTGM}offers> <{RTGM}c1> "600000"\n'
                         f'<{RTGM}c1> <{RTGM}on> "mbt" "600000"\n'
                         f'<{RTGM}c1> <{RTGM}reduce> "30"^^<{XSD_INTEGER}> "600000"\n'
                         f'<{RTGM}b> <{RTGM}offers> <{RTGM}c2> "900000"\n'
                         f'<{RTGM}c2> <{RTGM}on> "rayban" "900000"\n'
                         f'<{RTGM}c2> <{RTGM}reduce> "25"^^<{XSD_INTEGER}> "900000"\n')
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={offers_ms}", "--stream", f"{S2}={ms}",
                             "--static", RUNNING / "static.ttl", "--unit", "m", "--stream-time-unit", "ms")
    assert code == 0, err
    assert jsonl(out) == {10: [], 15: [], 18: [SHOP_B_RAYBAN_25]}
    dt = tmp_path / "near_dt.nt"
    dt.write_text(f'<{RTGM}claire> <{RTGM}isNear> <{RTGM}b> "2024-05-01T08:18:00Z"\n')
    offers_dt = tmp_path / "offers_dt.nt"
    offers_dt.write_text(f'<{RTGM}b> <{RTGM}offers> <{RTGM}c2> "2024-05-01T08:15:00Z"\n'
                         f'<{RTGM}c2> <{RTGM}on> "rayban" "2024-05-01T08:15:00Z"\n'
                         f'<{RTGM}c2> <{RTGM}reduce> "25"^^<{XSD_INTEGER}> "2024-05-01T08:15:00Z"\n')
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={offers_dt}", "--stream", f"{S2}={dt}",
                             "--static", RUNNING / "static.ttl", "--unit", "m", "--epoch", "2024-05-01T08:00:00Z")
    assert code == 0, err
    assert jsonl(out) == {15: [], 18: [SHOP_B_RAYBAN_25]}
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={offers_dt}", "--stream", f"{S2}={dt}",
                             "--static", RUNNING / "static.ttl", "--unit", "m")
    assert code == 0 and jsonl(out) == {0: [], 3: [SHOP_B_RAYBAN_25]}  # epoch = the first timestamp (08:15)


# ------------------------------------------------------------------------ --as on run


def test_as_counterparts_on_run(run_cli):
    """cq(Q1) brave with the stream assignment read off the data gives the running example's answer
    (no static triple shares a pattern with the streams, so no cause (ii) disagreement)."""
    code, out, err = run_cli("run", Q1, *running_example_data("nt"), "--as", "cqels-brave")
    assert code == 0, err
    assert jsonl(out) == {10: [], 15: [], 18: [SHOP_B_RAYBAN_25]}  # push: CQELS
    code, out, err = run_cli("run", Q1, *running_example_data("nt"), "--as", "cqels-all")
    assert code == 2 and "run them one by one" in err


# ------------------------------------------------------------------------------- errors


def test_bad_stream_line_names_file_line_column_and_leaves_no_output(run_cli, tmp_path):
    bad = tmp_path / "bad.nt"
    bad.write_text(f'<{RTGM}a> <{RTGM}offers> <{RTGM}c1> "10"\n<{RTGM}a> <{RTGM}offers> "x" 12\n')
    target = tmp_path / "out.jsonl"
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={bad}", "--output", target)
    assert code == 2 and out == ""
    assert f"{bad}:2:" in err and "missing the timestamp" in err and "expected:" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.nt"]  # no output file, no temp file


def test_timestamps_going_backwards(run_cli, tmp_path):
    back = tmp_path / "back.nt"
    back.write_text(f'<{RTGM}a> <{RTGM}offers> <{RTGM}c1> "10"\n<{RTGM}b> <{RTGM}offers> <{RTGM}c2> "8"\n')
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={back}")
    assert code == 2 and out == "" and f"{back}:2:" in err and "timestamp goes backwards: 8 after 10" in err


def test_unknown_stream_iri(run_cli):
    code, out, err = run_cli("run", Q2, *running_example_data("nt"), "--stream", f"http://example.org/typo={RUNNING / 'near.nt'}")
    assert code == 2 and out == "" and "<http://example.org/typo> is not a stream of the query" in err


def test_query_stream_without_data_gets_a_note(run_cli):
    code, out, err = run_cli("run", Q2, "--stream", f"{S1}={RUNNING / 'offers.nt'}", "--unit", "m")
    assert code == 0 and f"no data for the stream <{S2}>" in err and jsonl(out) == {10: [], 15: []}


def test_missing_period_and_unit_errors(run_cli):
    code, out, err = run_cli("run", Q1, *running_example_data("nt"))
    assert code == 2 and out == "" and "pull mode needs a period" in err
    code, out, err = run_cli("run", Q1, *running_example_data("nt"), "--period", "30s")
    assert code == 2 and out == "" and "not a whole multiple of the base unit m" in err


def test_unsupported_construct_on_run(run_cli, tmp_path):
    q = tmp_path / "q.rq"
    # SELECT DISTINCT keeps no witness: ?o, not projected, is not in its answers
    q.write_text(f"SELECT DISTINCT ?s WHERE {{ STREAM <{S1}> [NOW] {{ ?s ?p ?o }} }} ORDER BY ?o LIMIT 1")
    code, out, err = run_cli("run", q, "--stream", f"{S1}={RUNNING / 'offers.nt'}")
    assert code == 2 and out == "" and "unsupported in translation to LARS: ORDER BY over ?o" in err
    q.write_text(f"SELECT ?s WHERE {{ STREAM <{S1}> [NOW] {{ ?s ?p ?o }} }} ORDER BY ?o LIMIT 1")  # ?o is hidden
    code, out, err = run_cli("run", q, "--stream", f"{S1}={RUNNING / 'offers.nt'}")
    assert code == 0 and out


# ------------------------------------------------------------------------- stdin, output


def test_query_from_stdin(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(Q2.read_text()))
    code, out, _ = run_cli("run", "-", *running_example_data("trig"))
    assert code == 0 and jsonl(out) == {10: [], 15: [], 18: [SHOP_B_RAYBAN_25]}


def test_output_file_is_written_whole(run_cli, tmp_path):
    target = tmp_path / "answers.jsonl"
    code, out, _ = run_cli("run", Q2, *running_example_data("nt"), "--output", target)
    assert code == 0 and out == ""
    assert jsonl(target.read_text()) == {10: [], 15: [], 18: [SHOP_B_RAYBAN_25]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers.jsonl"]


def test_output_is_atomic_when_a_run_fails_midway(run_cli, tmp_path, monkeypatch):
    """An error after some answers were written leaves the previous file untouched and no temp file."""
    import translator.evaluate.live as live
    import translator.evaluate.run as engine

    def failing_after_two(real):
        def failing(*args, **kwargs):
            for i, ev in enumerate(real(*args, **kwargs)):
                if i == 2:
                    raise RsplarsError("engine failed at the third evaluation")
                yield ev

        return failing

    # the stream files read whole (answers) or while evaluated (live_answers, the default for N-Triples)
    monkeypatch.setattr(engine, "answers", failing_after_two(engine.answers))
    monkeypatch.setattr(live, "live_answers", failing_after_two(live.live_answers))
    target = tmp_path / "answers.jsonl"
    target.write_text("previous\n")
    code, out, err = run_cli("run", Q2, *running_example_data("nt"), "--output", target)
    assert code == 2 and "engine failed at the third evaluation" in err
    assert target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers.jsonl"]


def test_progress_line_on_long_runs(capsys):
    from translator.cli.commands.common import Progress

    progress = Progress("rsplars run", enabled=True)
    for i in range(1, 101):
        progress(i, 100)
    err = capsys.readouterr().err
    assert "rsplars run: 100/100 evaluations (100%)" in err and err.endswith("\n")
    quiet = Progress("rsplars run", enabled=False)
    quiet(1, 100)
    assert capsys.readouterr().err == ""


def test_computed_every_zero_is_a_user_error(run_cli, tmp_path):
    q = tmp_path / "q.rq"
    q.write_text("REGISTER QUERY q COMPUTED EVERY 0s AS SELECT ?s FROM STREAM <http://s> [RANGE 5s STEP 1s] "
                 "WHERE { ?s ?p ?o }")
    code, out, err = run_cli("translate", q, "--to", "lars")
    assert code == 2 and out == "" and "the pull period must be positive" in err and "Traceback" not in err


def test_empty_streams(run_cli, tmp_path):
    """No input: push never evaluates; pull evaluates at time 0 (D4) and finds nothing."""
    empty = tmp_path / "empty.nt"
    empty.write_text("")
    code, out, _ = run_cli("run", Q2, "--stream", f"{S1}={empty}", "--stream", f"{S2}={empty}")
    assert code == 0 and out == ""
    code, out, _ = run_cli("run", Q1, "--stream", f"{S1}={empty}", "--stream", f"{S2}={empty}", "--period", "1m",
                           "--unit", "m")
    assert code == 0 and jsonl(out) == {0: []}


@pytest.mark.parametrize("option, value, message", [
    ("--static", "/nonexistent/static.ttl", "static data file not found: /nonexistent/static.ttl"),
    ("--stream", f"{S1}=/nonexistent/s.nt", "stream file not found: /nonexistent/s.nt"),
    ("--named", "no-equals-sign", "expected IRI=FILE"),
])
def test_missing_and_malformed_data_options(run_cli, option, value, message):
    code, out, err = run_cli("run", Q2, "--stream", f"{S2}={RUNNING / 'near.nt'}", option, value)
    assert code == 2 and out == "" and message in err
