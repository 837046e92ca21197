"""Nothing lost silently (docs/robustness.md): every command says on stderr how many stream
elements it read, used and rejected; a malformed or out-of-order element stops the run with a
located error unless --skip-bad-elements, which reports each skipped one and counts it;
duplicates are counted."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from lars.accounting import OUT_OF_ORDER, Accounting
from lars.errors import SourceError
from lars.streams import parse_stream_jsonl, parse_stream_text
from spark_jobs.elements import read_elements_csv
from translator.cli import main
from translator.rdf.streams import parse_stream

S = "http://example.org/stream/offers"
Q2 = Path(__file__).parents[2] / "examples" / "running_example" / "q2.rq"

GOOD = ('<http://example.org/a> <http://example.org/offers> <http://example.org/c1> "1"\n'
        '<http://example.org/c1> <http://example.org/reduce> "25"^^<http://www.w3.org/2001/XMLSchema#integer> "1"\n'
        '<http://example.org/c1> <http://example.org/on> "rayban" "1"\n')
BAD_LINE = '<http://example.org/a> <http://example.org/offers> oops "2"\n'
BACKWARDS = '<http://example.org/b> <http://example.org/offers> <http://example.org/c2> "0"\n'
DUPLICATE = '<http://example.org/a> <http://example.org/offers> <http://example.org/c1> "1"\n'


def _summary(err: str) -> dict[str, int]:
    m = re.search(r"stream elements: (\d+) read, (\d+) used, (\d+) rejected.*?, (\d+) duplicates?", err)
    assert m, err
    return dict(zip(("read", "used", "rejected", "duplicates"), map(int, m.groups())))


@pytest.fixture
def stream_file(tmp_path):
    path = tmp_path / "offers.nt"
    path.write_text(GOOD + BAD_LINE + DUPLICATE + BACKWARDS, encoding="utf-8")
    return path


def test_run_stops_at_the_first_bad_element_with_its_position(stream_file, capsys):
    code = main(["run", str(Q2), "--unit", "m", "--stream", f"{S}={stream_file}"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{stream_file}:4:52: " in err and "Traceback" not in err


def test_run_skips_and_reports_each_bad_element_and_counts(stream_file, capsys):
    code = main(["run", str(Q2), "--unit", "m", "--stream", f"{S}={stream_file}", "--skip-bad-elements"])
    captured = capsys.readouterr()
    assert code == 0
    skipped = [line for line in captured.err.splitlines() if "skipped" in line]
    assert len(skipped) == 2
    assert f"skipped malformed element at {stream_file}:4:52:" in skipped[0]
    assert f"skipped out of order element at {stream_file}:6:" in skipped[1] and "backwards" in skipped[1]
    counts = _summary(captured.err)
    # 6 element lines: 3 good, 1 malformed, 1 duplicate of the first, 1 out of order
    assert counts == {"read": 6, "used": 3, "rejected": 2, "duplicates": 1}
    assert "(1 malformed, 1 out of order)" in captured.err
    assert all(json.loads(line)["t"] >= 0 for line in captured.out.splitlines())


def test_lars_command_counts_and_skips(tmp_path, capsys):
    program = tmp_path / "p.lars"
    program.write_text("q(X) :- p(X) [2].\n")
    stream = tmp_path / "s.txt"
    stream.write_text("0: p(1), p(1)\n1: p(2)\n2: p(\n3: p(3)\n1: p(4)\n")
    assert main(["lars", str(program), "--stream", str(stream)]) == 2
    err = capsys.readouterr().err
    assert f"{stream}:3:" in err and "Traceback" not in err
    assert main(["lars", str(program), "--stream", str(stream), "--skip-bad-elements"]) == 0
    captured = capsys.readouterr()
    assert _summary(captured.err) == {"read": 6, "used": 3, "rejected": 2, "duplicates": 1}
    assert [json.loads(x)["t"] for x in captured.out.splitlines()] == [0, 1, 2, 3]


def test_agree_prints_the_summary(stream_file, capsys):
    ex = Q2.parent
    code = main(["agree", "--pull", str(ex / "q1.rq"), "--push", str(Q2), "--unit", "m", "--period", "3m",
                 "--stream", f"{S}={stream_file}", "--static", str(ex / "static.n3"), "--skip-bad-elements",
                 "--no-diagnosis", "--to", "6"])
    err = capsys.readouterr().err
    assert code == 0
    assert _summary(err) == {"read": 6, "used": 3, "rejected": 2, "duplicates": 1}


@pytest.mark.parametrize("fmt, text, bad_line", [
    ("notation", ":a :p :b [1] .\n:a :p [2] .\n:c :p :d [3] .\n", 2),
    ("notation", ":a :p :b [1] .\n:a :p :b [\"x\"] .\n:c :p :d [3] .\n", 2),
    ("trig", '@prefix : <http://e/> .\n:g1 { :a :p :b . }\n'
             ':g2 { :c :p :d . }\n:g2 <http://www.streamreasoning.org/schema/benchmark#hasTimestamp> "1" .\n', 2),
])
def test_rdf_readers_skip_bad_elements(fmt, text, bad_line):
    with pytest.raises(SourceError) as err:
        parse_stream(text, S, fmt, source="s")
    assert err.value.line == bad_line and err.value.column is not None
    acc = Accounting(skip_bad=True)
    elements = parse_stream(text, S, fmt, source="s", accounting=acc)
    assert acc.rejected_count() == 1 and acc.rejected[0][1].line == bad_line
    assert acc.read == len(elements) + 1 and len(elements) >= 1


def test_lars_stream_readers_count_duplicates_without_skipping():
    acc = Accounting()
    stream = parse_stream_text("0: a, a, b\n1: a\n", accounting=acc)
    assert (acc.read, acc.duplicates) == (4, 1) and stream.at(0) == stream.at(0)[:2]
    acc = Accounting(skip_bad=True)
    parse_stream_jsonl('{"t": 0, "atoms": ["a"]}\n{"t": "x", "atoms": []}\n{"t": 1, "atoms": ["b", "b"]}\n', accounting=acc)
    assert (acc.read, acc.rejected_count(), acc.duplicates) == (4, 1, 1)


def test_element_csv_rows_are_checked_and_located():
    text = ("time,stream,s,p,o\n0,http://e/s,<http://e/a>,<http://e/p>,<http://e/b>\n"
            "1,http://e/s,<http://e/a>,\"\"\"lit\"\"\",<http://e/b>\n0,http://e/s,<http://e/a>,<http://e/p>,<http://e/c>\n")
    with pytest.raises(SourceError) as err:
        read_elements_csv(io.StringIO(text), source="e.csv")
    assert (err.value.line, err.value.column) == (3, 27) and "cannot be the predicate" in err.value.message
    acc = Accounting(skip_bad=True)
    rows = read_elements_csv(io.StringIO(text), source="e.csv", accounting=acc, skip_bad=True)
    assert rows == [(0, "http://e/s", "<http://e/a>", "<http://e/p>", "<http://e/b>"),
                    (0, "http://e/s", "<http://e/a>", "<http://e/p>", "<http://e/c>")]
    assert acc.rejected_count() == 1


def test_element_rows_whose_time_goes_back_are_out_of_order():
    text = ("time,stream,s,p,o\n5,http://e/s,<http://e/a>,<http://e/p>,<http://e/b>\n"
            "3,http://e/s,<http://e/a>,<http://e/p>,<http://e/c>\n6,http://e/s,<http://e/a>,<http://e/p>,<http://e/d>\n")
    with pytest.raises(SourceError) as err:
        read_elements_csv(io.StringIO(text), source="e.csv")
    assert (err.value.line, err.value.column) == (3, 1) and "time goes backwards: 3 after 5" in err.value.message
    acc = Accounting(skip_bad=True)
    rows = read_elements_csv(io.StringIO(text), source="e.csv", accounting=acc, skip_bad=True)
    assert [r[0] for r in rows] == [5, 6]
    assert (acc.read, acc.rejected_count(OUT_OF_ORDER), acc.rejected_count()) == (3, 1, 1)


def test_a_timestamp_far_off_stops_the_run_with_a_message(tmp_path, capsys):
    """Found by fuzzing the run: a pull query over a stream with a timestamp of 10^20 listed every
    pull time up to it (OverflowError traceback; at 10^12 it would exhaust the memory)."""
    path = tmp_path / "far.nt"
    path.write_text(GOOD + '<http://example.org/a> <http://example.org/offers> <http://example.org/c9> '
                           '"100000000000000000000"\n')
    code = main(["run", str(Q2.parent / "q1.rq"), "--unit", "m", "--period", "3m", "--stream", f"{S}={path}"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "comes from line 4 of its stream" in err and "more than 10,000,000" in err


def test_lars_with_a_time_point_far_off_stops_with_a_message(tmp_path, capsys):
    program = tmp_path / "p.lars"
    program.write_text("q(X) :- p(X) [2].\n")
    stream = tmp_path / "s.txt"
    stream.write_text("0: p(1)\n100000000000000000000: p(2)\n")
    assert main(["lars", str(program), "--stream", str(stream)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "more than 10,000,000" in err


@pytest.mark.parametrize("text", [
    '<\\U00200000> :offers "x" [8] .\n',
    ':a :p "\\U00200000" [8] .\n',
    '@prefix e: <\\U00200000> .\n:a :p :b [1] .\n',
])
def test_notation_escape_beyond_unicode_is_a_located_error(text):
    """Found by make fuzz: a \\U escape beyond U+10FFFF raised a bare ValueError (a traceback)."""
    with pytest.raises(SourceError) as err:
        parse_stream(text, S, "notation", source="s.stream")
    assert (err.value.line, err.value.column) == (1, 1) and "not a Unicode code point" in err.value.message


def test_check_counts_and_skips_bad_elements(tmp_path, capsys):
    ex = Path(__file__).parents[2] / "examples" / "check"
    stream = tmp_path / "temps.nt"
    stream.write_text((ex / "temps.nt").read_text() + "<http://example.org/s9> <http://example.org/temp> oops \"1\"\n")
    argv = ["check", str(ex / "hot.rq"), "--stream", f"http://example.org/temps={stream}", "--stream-time-unit", "ms",
            "--answers-time-unit", "ms", "--answers", str(ex / "csparql-answers.json"), "--profile", "csparql"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{stream}:5:" in err and "Traceback" not in err
    assert main([*argv, "--skip-bad-elements"]) == 0
    err = capsys.readouterr().err
    assert f"skipped malformed element at {stream}:5:" in err
    assert _summary(err) == {"read": 5, "used": 4, "rejected": 1, "duplicates": 0}


@pytest.mark.parametrize("record", ['{"t": 1, "answers": [{"s": 5}]}', '{"t": 1, "answers": [{"s": null}]}'])
def test_check_answers_with_a_term_that_is_not_a_string_is_a_located_error(record):
    """An answer term that is a number or null crashed check's reader (AttributeError)."""
    from translator.agreement.check import read_answers

    with pytest.raises(SourceError) as err:
        read_answers('{"t": 0, "answers": []}\n' + record + "\n", "a.jsonl")
    assert (err.value.line, err.value.column) == (2, 1) and "N-Triples strings" in err.value.message
