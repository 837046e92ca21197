"""Every answer format ``rsplars check --answers-format`` reads (docs/check.md, "Formats"): the same
relations written in each format read back as the same (timestamp, bag of bindings) list, computed
here directly from the relations (not by the reader); auto-detection names the format on stderr; a
malformed file of each format is ``FILE:LINE:COLUMN``, exit 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lars.errors import SourceError
from translator.agreement.answers import read_answer_file, read_answer_text, term_key
from translator.agreement.answers.csparql_console import console_term
from translator.cli import main
from translator.rdf.bags import Bag

DATA = Path(__file__).resolve().parents[1] / "data"
QUERY = DATA / "csrbench_recorded" / "queries" / "q1.rq"
STREAM_IRI = "http://cwi.nl/SRBench/observations"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "check"
EXAMPLE_STREAM = "".join(f'<http://example.org/{s}> <http://example.org/temp> "{v}"^^<http://www.w3.org/2001/XMLSchema#integer> "{t}" .\n'
                         for s, v, t in (("s1", 31, 1000), ("s2", 25, 3000), ("s1", 33, 4000), ("s2", 35, 7000)))
E = "http://e/"
XSD = "http://www.w3.org/2001/XMLSchema#"

# two evaluations: at 1000 two bindings, at 2000 one (an IRI and a number)
RELATIONS = [(1000, [{"s": E + "a", "v": 1}, {"s": E + "b", "v": 2}]), (2000, [{"s": E + "c", "v": 3}])]


def expected(relations=RELATIONS) -> list[tuple[int, Bag]]:
    return [(t, Bag([frozenset({("s", ("iri", b["s"])), ("v", ("num", float(b["v"])))}) for b in rows]))
            for t, rows in relations]


def sparql_doc(rows) -> dict:
    return {"head": {"vars": ["s", "v"]}, "results": {"bindings": [
        {"s": {"type": "uri", "value": b["s"]},
         "v": {"type": "literal", "value": str(b["v"]), "datatype": "http://www.w3.org/2001/XMLSchema#integer"}}
        for b in rows]}}


def written(fmt: str, relations=RELATIONS) -> str:
    if fmt == "csrbench":
        return json.dumps({"relations": [{"timestamp": t, **sparql_doc(rows)} for t, rows in relations]}, indent=1)
    if fmt == "csrbench-2023":
        return json.dumps({"relations": [{**sparql_doc([b]), "timestamp": t} for t, rows in relations for b in rows]})
    if fmt == "sparql-json":
        return "".join(f"{t}\n{json.dumps(sparql_doc(rows), indent=2)}\n" for t, rows in relations)
    if fmt == "jsonl":
        return "".join(json.dumps({"t": t, "answers": [{"s": f"<{b['s']}>", "v": f'"{b["v"]}"^^<{XSD}integer>'} for b in rows]}) + "\n"
                       for t, rows in relations)
    if fmt == "jsonl-sparql":
        return "".join(json.dumps({"timestamp": t, **sparql_doc(rows)}) + "\n" for t, rows in relations)
    if fmt == "csv":
        return "s,v,timestamp\r\n" + "".join(f"{b['s']},{b['v']},{t}\r\n" for t, rows in relations for b in rows)
    if fmt == "yasper":  # as SelectResponseSysOutFormatter prints: a header line, then Jena's text table
        return "".join(f"[1700000000{t}] Result at [{t}]\n-------------\n| s | v |\n=============\n"
                       + "".join(f"| <{b['s']}> | {b['v']} |\n" for b in rows) + "-------------\n"
                       for t, rows in relations)
    assert fmt == "tsv"
    return "?s\t?v\t?t\n" + "".join(f"<{b['s']}>\t{b['v']}\t{t}\n" for t, rows in relations for b in rows)


SUFFIX = {"csv": ".csv", "tsv": ".tsv"}
DETECTED = {"jsonl-sparql": "jsonl"}


@pytest.mark.parametrize("fmt", ["csrbench", "csrbench-2023", "sparql-json", "jsonl", "jsonl-sparql", "csv", "tsv",
                                 "yasper"])
def test_each_format_reads_the_same_relations(fmt, tmp_path):
    path = tmp_path / ("answers" + SUFFIX.get(fmt, ".txt"))
    path.write_text(written(fmt))
    answers = read_answer_file(path)
    assert answers.format == DETECTED.get(fmt, fmt)
    assert [(r.t, r.bindings) for r in answers.relations] == expected()
    assert answers.grouped is (fmt in ("csrbench-2023", "csv", "tsv"))
    named = read_answer_file(path, fmt=DETECTED.get(fmt, fmt))
    assert [(r.t, r.bindings) for r in named.relations] == expected()


#: the first evaluation writes one row twice (an engine answers bags, SPARQL 1.1 §18.1.6)
DOUBLED = [(1000, [RELATIONS[0][1][0], *RELATIONS[0][1]]), RELATIONS[1]]


@pytest.mark.parametrize("fmt", ["csrbench", "csrbench-2023", "sparql-json", "jsonl", "jsonl-sparql", "csv", "tsv",
                                 "yasper"])
def test_a_row_written_twice_is_a_member_of_cardinality_two(fmt, tmp_path):
    path = tmp_path / ("answers" + SUFFIX.get(fmt, ".txt"))
    path.write_text(written(fmt, DOUBLED))
    answers = read_answer_file(path, fmt=DETECTED.get(fmt, fmt))
    got = [(r.t, r.bindings) for r in answers.relations]
    assert got == expected(DOUBLED) != expected()
    first = got[0][1]
    assert len(first) == 3 and len(first.distinct()) == 2
    assert first.count(frozenset({("s", ("iri", E + "a")), ("v", ("num", 1.0))})) == 2


def test_the_2023_harness_file_is_grouped_by_timestamp():
    answers = read_answer_file(DATA / "answer_formats" / "csrbench-2023-q1.json")
    assert answers.format == "csrbench-2023" and answers.grouped
    assert [(r.t, len(r.bindings)) for r in answers.relations] == [(30000, 3), (40000, 2)]
    assert "5 bindings grouped by timestamp into 2 relations" in answers.description
    as_written = read_answer_file(DATA / "answer_formats" / "csrbench-2023-q1.json", fmt="csrbench")
    assert len(as_written.relations) == 5 and not as_written.grouped


def test_a_time_column_by_name_and_time_units(tmp_path):
    text = "s,v,when\nhttp://e/a,1,1\nhttp://e/b,2,1\nhttp://e/c,3,2\n"
    answers = read_answer_text(text, "a.csv", fmt="csv", time_column="when", time_factor=(1000, 1))
    assert [(r.t, r.bindings) for r in answers.relations] == expected()
    assert term_key("literal", "x") in {k for r in read_answer_text("s,t\nx,0\n", "b.csv").relations
                                        for b in r.bindings for _, k in b}


def check(tmp_path, capsys, answers_text: str, name: str, *extra: str) -> tuple[int, str, str]:
    stream = tmp_path / "s.nt"
    stream.write_text(f'<{E}x> <{E}p> <{E}y> "0"\n')
    answers = tmp_path / name
    answers.write_text(answers_text)
    code = main(["check", str(QUERY), "--stream", f"{STREAM_IRI}={stream}", "--answers", str(answers),
                 "--profile", "csparql", *extra])
    out, err = capsys.readouterr()
    return code, out, err


MALFORMED = [  # (file name, text, the location, what the message says)
    ("a.json", '{"relations": [\n {"timestamp": 1, "results": {"bindings": [}}\n]}', ":2:", "not JSON"),
    ("b.json", '{"relations": [\n {"timestamp": "soon", "results": {"bindings": []}}\n]}', ":2:1:", "not an integer"),
    ("c.txt", '1000\n{"head": {}, "results": {"bindings": []}}\noops\n', ":3:1:", "timestamp line"),
    ("d.jsonl", '{"t": 0, "answers": []}\n{"t": 1, "answers": [{"s": "<x"}]}\n', ":2:1:", "answer term"),
    ("e.csv", "s,t\nhttp://e/a,0\nhttp://e/b\n", ":3:1:", "fields"),
    ("f.csv", "s,t\nhttp://e/a,later\n", ":2:12:", "not an integer"),
    ("g.tsv", "?s\t?t\n<http://e/a\t0\n", ":2:1:", "not a term"),
    ("h.csv", "s,v\nhttp://e/a,1\n", ":1:1:", "no timestamp column"),
    ("i.log", "[17] Result at [1000]\n---\n| s |\n===\n| <http://e/a> | 2 |\n", ":5:1:", "cells"),
    ("j.log", "[17] Result at [1000]\n---\n| s |\n===\n| <http://e/a |\n", ":5:3:", "not a term"),
    ("k.log", "-------1 results at SystemTime=[17]--------\nhttp://e/a\t\n", ":2:1:", "1 term(s), the query projects 2"),
    ("l.log", "-------2 results at SystemTime=[17]--------\nhttp://e/a\thttp://e/b\t\n\n-------0 results at SystemTime=[18]--------\n",
     ":1:1:", "announces 2 result(s), 1 line(s) follow"),
    ("m.log", "-------1 results at SystemTime=[17]--------\nhttp://e/a\t\"3\t\n", ":2:12:", "not a term"),
]


@pytest.mark.parametrize("name, text, where, what", MALFORMED)
def test_a_malformed_answer_file_is_located(name, text, where, what, tmp_path, capsys):
    code, _, err = check(tmp_path, capsys, text, name)
    assert code == 2 and "Traceback" not in err
    assert f"{tmp_path / name}{where}" in err and what in err


def test_check_says_what_it_read_and_the_report_says_it_grouped(tmp_path, capsys):
    report = tmp_path / "r.json"
    code, _, err = check(tmp_path, capsys, (DATA / "answer_formats" / "csrbench-2023-q1.json").read_text(),
                         "a.json", "--answers-time-unit", "ms", "--unit", "s", "--json", str(report))
    assert code in (0, 1)
    assert "answers: CSRBench 2023 JSON, one relation per binding, 5 bindings grouped by timestamp into 2 relations" \
        in err
    data = json.loads(report.read_text())
    assert data["answers_format"] == "csrbench-2023" and data["answers_grouped_by_timestamp"] is True


def test_an_n3t_stream_is_timestamped_ntriples(tmp_path, capsys):
    stream = tmp_path / "stream.n3t"
    stream.write_text(f'<{E}x> <{E}p> <{E}y> 0\n')  # the timestamp unquoted: not even recognisable by content
    code = main(["run", str(QUERY), "--stream", f"{STREAM_IRI}={stream}"])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    assert f"{stream}:1:" in err and "expected a .nt" not in err


def test_timestamps_merged_by_the_unit_do_not_make_a_2013_file_a_2023_one():
    """C-SPARQL's Q4 answers of 2013: one binding per relation at distinct ms timestamps, several in one
    second: read as written, relation by relation, even in seconds."""
    answers = read_answer_file(DATA / "csrbench_recorded" / "answers" / "csparql-answer-4.json", time_factor=(1, 1000))
    assert answers.format == "csrbench" and not answers.grouped
    assert len({r.t for r in answers.relations}) < len(answers.relations)


def console(relations, times=("1700000000123", "1700000002121")) -> str:
    """What the C-SPARQL engine's ``ConsoleFormatter`` prints: per evaluation a header with the wall
    clock, then each solution's terms as ``JenaEngine.format`` writes them, each followed by a tab."""
    return "".join(f"\n-------{len(rows)} results at SystemTime=[{stamp}]--------\n"
                   + "".join(f'{b["s"]}\t"{b["v"]}"^^{XSD}integer\t\n' for b in rows) + "\n"
                   for stamp, (_, rows) in zip(times, relations))


def test_the_csparql_engines_console_output_names_its_columns_by_the_query(tmp_path):
    """The lines name no variable: the query's projection names the columns; the header's time is the
    wall clock, so the relations have no stream timestamp (kept as written in ``raw_t``)."""
    path = tmp_path / "console.log"
    path.write_text(console(RELATIONS))
    answers = read_answer_file(path, variables=["s", "v"])
    assert answers.format == "csparql-console" and not answers.grouped
    assert [r.bindings for r in answers.relations] == [rel for _, rel in expected()]
    assert [(r.t, r.raw_t, r.line) for r in answers.relations] == [(None, "1700000000123", 2), (None, "1700000002121", 7)]
    with pytest.raises(SourceError, match="does not name its columns"):
        read_answer_file(path)
    path.write_text(console(DOUBLED))
    assert [r.bindings for r in read_answer_file(path, variables=["s", "v"]).relations] == [
        rel for _, rel in expected(DOUBLED)]


@pytest.mark.parametrize("field, key", [
    ("http://e/a", ("iri", "http://e/a")),
    (f'"7"^^{XSD}integer', ("num", 7.0)),
    (f"7^^{XSD}int", ("num", 7.0)),  # Jena's Literal.toString(), as older engines print it
    ('"x"@EN', ("lit", "x", "@en")),
    ("plain words", ("lit", "plain words", None)),
    ("-3b1f5e:18c2a:-7ffe", ("bnode",)),
    ("", None),
])
def test_console_terms_as_jena_prints_them(field, key):
    assert console_term(field) == key


def test_check_judges_a_console_output_in_order(tmp_path, capsys):
    """A console output of the right relations is correct compared in order (the oracle's rule), and
    the command says why a timed comparison cannot be made; the wrong one is incorrect."""
    stream = tmp_path / "s.nt"
    stream.write_text(EXAMPLE_STREAM)
    right = [(0, [{"s": "http://example.org/s1", "v": 31}, {"s": "http://example.org/s1", "v": 33}]),
             (0, [{"s": "http://example.org/s1", "v": 33}]), (0, [{"s": "http://example.org/s2", "v": 35}]),
             (0, [{"s": "http://example.org/s2", "v": 35}])]
    stamps = [str(1700000005000 + 2000 * k) for k in range(4)]
    args = ["check", str(EXAMPLES / "hot.rq"), "--stream", f"http://example.org/temps={stream}",
            "--stream-time-unit", "ms", "--profile", "csparql"]
    for rels, verdict in ((right, 0), (right[1:2] + right[:1], 1)):
        answers = tmp_path / f"out{verdict}.log"
        answers.write_text(console(rels, stamps))
        assert main([*args, "--answers", str(answers), "--ignore-timestamps"]) == verdict
        err = capsys.readouterr().err
        assert "the C-SPARQL engine's console output" in err
    assert main([*args, "--answers", str(tmp_path / "out0.log")]) == 2
    assert "relations without a timestamp; use --ignore-timestamps" in capsys.readouterr().err
