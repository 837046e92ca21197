"""The readers under fuzz (``harness.Target``), each with its seeds from tests/data and its grammar's
vocabulary, and the round trip its accepted inputs must pass."""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache
from pathlib import Path

from lars.errors import SourceError

DATA = Path(__file__).resolve().parents[1] / "data"

# ------------------------------------------------------------------------------------- queries


def _query_seeds(dialect: str) -> list[str]:
    from translator.query.dialect import detect_dialect

    out = []
    for path in sorted((DATA / "queries").glob("*/*")):
        if path.suffix not in (".rq", ".txt"):
            continue
        text = path.read_text(encoding="utf-8")
        try:
            if detect_dialect(text).dialect == dialect:
                out.append(text)
        except SourceError:
            continue
    return out


def _roundtrip_failure(what: str, text: str, printed: str, detail: object) -> AssertionError:
    return AssertionError(f"{what}: accepted input does not round-trip ({detail})\ninput: {text!r}\n"
                          f"printed: {printed!r}")


def query_check(dialect: str, lenient: bool):
    from translator.query.parse import parse
    from translator.query.printer import print_query

    def check(text: str) -> bool:
        q = parse(text, dialect, source="fuzz.rq", lenient=lenient)
        printed = print_query(q)
        try:
            again = parse(printed, q.dialect, source="printed.rq", lenient=lenient)
        except SourceError as err:
            raise _roundtrip_failure(f"{dialect} query", text, printed, err) from None
        if again != q:
            raise _roundtrip_failure(f"{dialect} query", text, printed, "different model")
        return True

    return check


def query_target(dialect: str, lenient: bool = False):
    from harness import Target, lark_vocabulary
    from translator.query.parse import grammar, grammar_name

    literals, regexes = lark_vocabulary(grammar(grammar_name(dialect, lenient)))
    name = f"query {dialect}{' (lenient)' if lenient else ''}"
    return Target(name, _query_seeds(dialect), literals, query_check(dialect, lenient), regexes)


# ------------------------------------------------------------------------------------- LARS programs


def _lars_seeds() -> list[str]:
    seeds = [p.read_text(encoding="utf-8") for p in sorted((DATA / "lars" / "ticker").glob("*.lars"))]
    seeds += [p.read_text(encoding="utf-8") for p in sorted((DATA / "golden").glob("*.lars"))
              if "unicode" not in p.name]
    laser = json.loads((DATA / "lars" / "laser" / "laser_tests_shared.json").read_text(encoding="utf-8"))
    for case in laser if isinstance(laser, list) else laser.get("cases", []):
        program = case.get("program") if isinstance(case, dict) else None
        if isinstance(program, str):
            seeds.append(program)
    return seeds


def lars_check(text: str) -> bool:
    from lars.printer import format_program
    from lars.syntax import parse_program

    program = parse_program(text, source="fuzz.lars")
    printed = format_program(program)
    try:
        again = parse_program(printed, source="printed.lars")
    except SourceError as err:
        raise _roundtrip_failure("LARS program", text, printed, err) from None
    if again != program:
        raise _roundtrip_failure("LARS program", text, printed, "different program")
    return True


def lars_target():
    from harness import Target, lark_vocabulary
    from lars.syntax import _parser

    literals, regexes = lark_vocabulary(_parser())
    return Target("LARS program", _lars_seeds(), literals, lars_check, regexes)


# ------------------------------------------------------------------------------------- RDF streams


RDF_VOCAB = ["<http://ex.org/a>", "<>", "<a b>", "_:b0", "_:", '"x"', '"1000"', '"2004-08-08T06:05:00Z"',
             '"2004-13-40T99:00:00Z"', "^^<http://www.w3.org/2001/XMLSchema#long>", "@en", "@", " .", "\t",
             ":a", ":isNearby", "[3]", "[-1]", "[]", "[\"2004-08-08T06:05:00Z\"^^xsd:dateTime]", "@prefix ex: <http://e/> .",
             "PREFIX p: <http://p/>", "GRAPH", "{", "}", "a", "true", "1.5", "1e3", "'''x'''", '"""y"""', "\\u0041",
             "\\U0001F600", "\\n", "bench:hasTimestamp", "prov:generatedAtTime", "xsd:dateTime", "#",
             '"@id"', '"@graph"', '"@context"', '"@value"', '"@type"', '"@language"', ": ", ", ", "[", "]", "null",
             "<http://example.org/g1>", "<http://www.streamreasoning.org/schema/benchmark#hasTimestamp>"]


def _rdf_seeds(*patterns: str) -> list[str]:
    out = []
    for pattern in patterns:
        out += [p.read_text(encoding="utf-8") for p in sorted(DATA.glob(pattern))]
    return out


def rdf_stream_check(fmt: str):
    from translator.rdf.streams import format_element, parse_stream

    source = {"ntriples": "fuzz.nt", "trig": "fuzz.trig", "nquads": "fuzz.nq", "jsonld": "fuzz.jsonld",
              "notation": "fuzz.stream"}[fmt]

    def check(text: str) -> bool:
        elements = parse_stream(text, "http://ex.org/s", fmt, source=source)
        printed = "".join(format_element(e) + "\n" for e in elements)
        try:
            again = parse_stream(printed, "http://ex.org/s", "ntriples", source="printed.nt")
        except SourceError as err:
            raise _roundtrip_failure(f"{fmt} stream", text, printed, err) from None
        if [(e.triple, e.t) for e in again] != [(e.triple, e.t) for e in elements]:
            raise _roundtrip_failure(f"{fmt} stream", text, printed, "different elements")
        return True

    return check


def rdf_stream_target(fmt: str):
    from harness import Target, lark_vocabulary

    seeds = {
        "ntriples": ("rdf/*/*.nt", "aggregates/*.nt", "spark/*.nt"),
        "trig": ("rdf/*/*.trig",),
        "nquads": ("rdf/*/*.nq",),
        "jsonld": ("rdf/*/*.jsonld",),
        "notation": ("rdf/*/*.stream",),
    }[fmt]
    literals, regexes = list(RDF_VOCAB), []
    if fmt == "notation":
        from translator.rdf.streams import notation_parser

        lits, regexes = lark_vocabulary(notation_parser())
        literals += lits
    return Target(f"RDF stream {fmt}", _rdf_seeds(*seeds), literals, rdf_stream_check(fmt), regexes)


# ------------------------------------------------------------------------------------- LARS streams


LARS_STREAM_VOCAB = ["p", "q(1)", "rec(3)", "f(g(a),\"s\")", "X", "_", "\"", "\\\"", ",", "(", ")", ":", "%",
                     "-1", "0:", "3:", '{"t": 1, "atoms": ["a"]}', '"t"', '"atoms"', "[", "]", "{", "}", "null",
                     "true", "1.5", "[\"a(1)\", \"b\"]"]


@lru_cache(maxsize=1)
def _lars_stream_seeds(kind: str) -> list[str]:
    from lars.streams import parse_stream_text

    texts = [(DATA / "lars" / "stream.txt").read_text(encoding="utf-8")] if (DATA / "lars" / "stream.txt").exists() else []
    texts += ["0: a\n1: b(1), c(\"x\")\n1: d\n\n% comment\n4:\n5: f(g(1),h)\n",
              "10: rec(1)\n11: rec(2), rec(1)\n12: rec(2)\n"]
    if kind == "text":
        return texts
    out = []
    for text in texts:
        stream = parse_stream_text(text)
        out.append("".join(json.dumps({"t": t, "atoms": [_fmt_atom(a) for a in atoms]}) + "\n"
                           for t, atoms in stream.items()))
    return out


def _fmt_atom(atom) -> str:
    from lars.printer import format_atom

    return format_atom(atom)


def lars_stream_check(kind: str):
    from lars.printer import format_stream_jsonl, format_stream_text
    from lars.streams import parse_stream_jsonl, parse_stream_text

    read = parse_stream_text if kind == "text" else parse_stream_jsonl
    write = format_stream_text if kind == "text" else format_stream_jsonl

    def check(text: str) -> bool:
        stream = read(text, f"fuzz.{kind}")
        printed = write(stream)
        try:
            again = read(printed, "printed")
        except SourceError as err:
            raise _roundtrip_failure(f"LARS stream {kind}", text, printed, err) from None
        if list(again.items()) != list(stream.items()):
            raise _roundtrip_failure(f"LARS stream {kind}", text, printed, "different stream")
        return True

    return check


def lars_stream_target(kind: str):
    from harness import Target

    from harness import json_value_swap

    return Target(f"LARS stream {kind}", _lars_stream_seeds(kind), LARS_STREAM_VOCAB, lars_stream_check(kind),
                  extra=json_value_swap if kind == "jsonl" else None)


# ------------------------------------------------------------------------------------- element tables (Spark input)


ELEMENT_VOCAB = ["time", "stream", "s", "p", "o", ",", '"', '""', "\n", "<http://ex.org/a>", "http://ex.org/s1",
                 "_:b", '"lit"', '"lit"@en', '"5"^^<http://www.w3.org/2001/XMLSchema#integer>', "<bad iri>", "-1",
                 "12", "1.5", ""]


def elements_check(text: str) -> bool:
    from spark_jobs.elements import format_elements_csv, read_elements_csv

    rows = read_elements_csv(io.StringIO(text), source="fuzz.csv")
    printed = format_elements_csv(rows)
    try:
        again = read_elements_csv(io.StringIO(printed), source="printed.csv")
    except SourceError as err:
        raise _roundtrip_failure("elements CSV", text, printed, err) from None
    if again != rows:
        raise _roundtrip_failure("elements CSV", text, printed, "different rows")
    return True


def elements_target():
    from harness import Target

    seeds = [(DATA / "spark" / "elements.csv").read_text(encoding="utf-8")]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["time", "stream", "s", "p", "o"])
    writer.writerow([5, "<http://ex.org/s2>", "_:x", "<http://ex.org/p>", '"a ""quoted"", comma"@en'])
    writer.writerow([7, "http://ex.org/s2", "<http://ex.org/a>", "<http://ex.org/p>",
                     '"7"^^<http://www.w3.org/2001/XMLSchema#integer>'])
    seeds.append(buf.getvalue())
    return Target("elements CSV (Spark input)", seeds, ELEMENT_VOCAB, elements_check)


def _parquet_of(rows: list[list], path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {}
    for k, name in enumerate(("time", "stream", "s", "p", "o")):
        values = [row[k] if k < len(row) else None for row in rows]
        if name == "time":
            ints = []
            for v in values:
                try:
                    ints.append(None if v is None else int(v))
                except ValueError:
                    ints = None
                    break
            if ints is not None and all(i is None or -2**63 <= i < 2**63 for i in ints):
                columns[name] = pa.array(ints, type=pa.int64())
                continue
        columns[name] = pa.array([None if v is None else str(v) for v in values], type=pa.string())
    pq.write_table(pa.table(columns), path)


def elements_parquet_check(text: str) -> bool:
    """A mutated CSV cut into cells at commas, written as Parquet (``time`` an int64 column when
    every cell is an integer, else strings; missing cells null), read by the Parquet reader."""
    import tempfile

    from spark_jobs.elements import read_elements_parquet

    try:  # RFC 4180 cells where the mutated text still is CSV, else cut at commas
        cells = list(csv.reader(io.StringIO(text, newline="")))[1:]
    except csv.Error:
        cells = [line.split(",") for line in text.split("\n")[1:] if line]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.parquet"
        _parquet_of(cells, path)
        rows = read_elements_parquet(str(path))
        again_path = Path(tmp) / "printed.parquet"
        _parquet_of([list(r) for r in rows], again_path)
        try:
            again = read_elements_parquet(str(again_path))
        except SourceError as err:
            raise _roundtrip_failure("elements Parquet", text, str(rows), err) from None
    if again != rows:
        raise _roundtrip_failure("elements Parquet", text, str(rows), "different rows")
    return True


def elements_parquet_target():
    from harness import Target

    return Target("elements Parquet (Spark input)", elements_target().seeds, ELEMENT_VOCAB, elements_parquet_check)


# ------------------------------------------------------------------------------------- check's answers

CHECK_VOCAB = ['"relations"', '"timestamp"', '"results"', '"bindings"', '"binding"', '"answers"', '"t"', '"type"',
               '"value"', '"uri"', '"literal"', '"typed-literal"', '"bnode"', '"datatype"', '"xml:lang"', '"answer"',
               '"<http://e/a>"', '"\\"5\\"^^<http://www.w3.org/2001/XMLSchema#integer>"', 'null', 'true', '1.5',
               '"1e400"', '"NaN"', '{', '}', '[', ']', ',', ':', '"http://www.w3.org/2001/XMLSchema#double"']


def _check_seeds() -> list[str]:
    root = DATA.parent.parent / "examples" / "check"
    seeds = [p.read_text(encoding="utf-8") for p in sorted(root.glob("*.json"))]
    seeds.append('{"t": 3, "answers": [{"s": "<http://e/a>", "v": "\\"21\\"^^<http://www.w3.org/2001/XMLSchema#integer>"}]}\n'
                 '{"t": 6, "answers": []}\n{"t": 9, "answers": [{"s": "_:b1", "v": "\\"x\\"@en"}]}\n')
    return seeds


def _json_term_of(key) -> dict:
    """A comparison key of translator.agreement.check as a SPARQL 1.1 JSON term that reads back to it."""
    kind = key[0]
    if kind == "iri":
        return {"type": "uri", "value": key[1]}
    if kind == "bnode":
        return {"type": "bnode", "value": "b"}
    if kind == "null":
        return {"type": "literal", "value": "null"}
    if kind == "num":
        return {"type": "typed-literal", "value": repr(key[1]), "datatype": "http://www.w3.org/2001/XMLSchema#double"}
    value, suffix = key[1], key[2]
    if suffix is None:
        return {"type": "literal", "value": value}
    if suffix.startswith("@"):
        return {"type": "literal", "value": value, "xml:lang": suffix[1:]}
    return {"type": "typed-literal", "value": value, "datatype": suffix}


def _comparable(relations) -> list:
    def key(k):
        return ("num", "nan") if k[0] == "num" and k[1] != k[1] else k

    return [(r.t, frozenset(frozenset((v, key(k)) for v, k in b) for b in r.bindings)) for r in relations]


def check_answers_check(text: str, fmt: str = "auto") -> bool:
    from translator.agreement.answers import read_answers

    _, relations = read_answers(text, "fuzz.json", fmt=fmt, variables=["s", "v"] if fmt == "csparql-console" else None)
    printed = json.dumps({"relations": [
        {**({"timestamp": r.t} if r.t is not None else {}),
         "results": {"bindings": [{v: _json_term_of(k) for v, k in sorted(b)} for b in sorted(r.bindings, key=repr)]}}
        for r in relations]})
    try:
        _, again = read_answers(printed, "printed.json", fmt="csrbench")
    except SourceError as err:
        raise _roundtrip_failure("check answers", text, printed, err) from None
    if _comparable(again) != _comparable(relations):
        raise _roundtrip_failure("check answers", text, printed, "different relations")
    return True


def check_answers_target():
    from harness import Target

    from harness import json_value_swap

    return Target("check answers (rsplars check)", _check_seeds(), CHECK_VOCAB, check_answers_check,
                  extra=json_value_swap)


TABLE_VOCAB = ["Result at [", "] ", "results at SystemTime=[", "-------", "|", "---", "===", "s", "v", "t", "timestamp", ",", "\t", "\n", "\r\n", '"', '""', "http://e/a", "<http://e/a>", "_:b",
               "1.5", "-3", "1e400", '"x"@en', '"5"^^<http://www.w3.org/2001/XMLSchema#integer>', "?s", "?t"]
TABLE_SEEDS = {
    "csv": ['s,v,t\r\nhttp://e/a,1.5,0\r\n_:b,"x, y",0\r\nhttp://e/c,,3\r\n', "timestamp,s\n7,plain\n"],
    "tsv": ['?s\t?v\t?t\n<http://e/a>\t"x"@en\t0\n_:b\t"5"^^<http://www.w3.org/2001/XMLSchema#integer>\t2\n'],
    "yasper": ["[1700000001000] Result at [1000]\n------\n| s | v |\n======\n| <http://e/a> | 1.5 |\n| _:b0 | \"x\"@en |\n"
               "------\n[1700000002000] Result at [2000]\n------\n| s | v |\n======\n------\n"],
    "csparql-console": ['\n-------2 results at SystemTime=[1700000001000]--------\nhttp://e/a\t"1.5"^^http://www.w3.org/2001/'
                        'XMLSchema#double\t\n-3b1f:18c2:-7ffe\t\t\n\n-------0 results at SystemTime=[1700000002000]--------\n'],
    "sparql-json": ['1000\n{"head": {"vars": ["s"]}, "results": {"bindings": [{"s": {"type": "uri", "value": "http://e/a"}}]}}\n'
                    '2000\n{"head": {"vars": ["s"]},\n "results": {"bindings": []}}\n'],
}


def answer_format_target(fmt: str):
    """The readers of CSV/TSV with a timestamp column and of SPARQL JSON documents after timestamp lines:
    accepted texts round-trip through the CSRBench form."""
    from harness import Target, json_value_swap

    return Target(f"check answers {fmt}", TABLE_SEEDS[fmt], TABLE_VOCAB + (CHECK_VOCAB if fmt == "sparql-json" else []),
                  lambda text: check_answers_check(text, fmt), extra=json_value_swap if fmt == "sparql-json" else None)


def all_targets():
    return [
        query_target("csparql"),
        query_target("csparql", lenient=True),
        query_target("cqels"),
        query_target("epsparql"),
        lars_target(),
        rdf_stream_target("ntriples"),
        rdf_stream_target("trig"),
        rdf_stream_target("nquads"),
        rdf_stream_target("jsonld"),
        rdf_stream_target("notation"),
        lars_stream_target("text"),
        lars_stream_target("jsonl"),
        elements_target(),
        elements_parquet_target(),
        check_answers_target(),
        answer_format_target("csv"),
        answer_format_target("tsv"),
        answer_format_target("sparql-json"),
        answer_format_target("yasper"),
        answer_format_target("csparql-console"),
    ]
