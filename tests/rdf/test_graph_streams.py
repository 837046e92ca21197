"""Streams of timestamped named graphs (the RDF-graph stream model of Dell'Aglio et al. 2014, §3,
and of the W3C RSP Community Group's abstract model; RSP4J, TripleWave and RSP-JS publish such
streams): one stream written in TriG, N-Quads and JSON-LD reads to the same elements, and runs to
the same answers as its timestamped N-Triples form; malformed inputs get located errors.

The writers below are written independently of the reader (plain string building, ``json.dumps``
for JSON-LD); the element lists of the three formats are compared with each other and with the
timestamped N-Triples reader's, an independent code path (regular expressions, no rdflib parser)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD

from lars.accounting import Accounting
from lars.errors import SourceError
from translator.cli import main
from translator.rdf.streams import detect_format, iter_streams, parse_stream, read_stream
from translator.rdf.terms import to_nt

HAS_TIMESTAMP = "http://www.streamreasoning.org/schema/benchmark#hasTimestamp"
GENERATED_AT = "http://www.w3.org/ns/prov#generatedAtTime"
S = URIRef("http://ex.org/stream")
RUNNING = Path(__file__).resolve().parents[1] / "data" / "runs" / "running_example"
SEEDS = Path(__file__).resolve().parents[1] / "data" / "queries" / "seeds"
S1, S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"

Graphs = list[tuple[int, list[tuple]]]  # (time, triples of rdflib terms), one named graph each

FORMATS = {"trig": ".trig", "nquads": ".nq", "jsonld": ".jsonld"}


# ------------------------------------------------------------------------------------- writers


def graph_name(k: int) -> str:
    return f"http://ex.org/graph/{k}"


def write_nt(graphs: Graphs) -> str:
    """Timestamped N-Triples: each graph's triples at its time, in N-Triples order (a graph is a
    set: the graph readers give its triples so)."""
    lines = []
    for t, triples in graphs:
        for triple in sorted(set(triples), key=lambda tr: tuple(map(to_nt, tr))):
            lines.append(" ".join(map(to_nt, triple)) + f' "{t}" .')
    return "\n".join(lines) + "\n"


def write_trig(graphs: Graphs) -> str:
    """TriG: the graphs, then a metadata graph with their times (the CSRBench oracle's layout)."""
    out = ["@prefix bench: <http://www.streamreasoning.org/schema/benchmark#> ."]
    for k, (_, triples) in enumerate(graphs):
        body = " ".join(" ".join(map(to_nt, tr)) + " ." for tr in triples)
        out.append(f"<{graph_name(k)}> {{ {body} }}")
    meta = " ".join(f'<{graph_name(k)}> bench:hasTimestamp "{t}"^^<{XSD.long}> .' for k, (t, _) in enumerate(graphs))
    out.append(f"<http://ex.org/graphsList> {{ {meta} }}")
    return "\n".join(out) + "\n"


def write_nquads(graphs: Graphs) -> str:
    """N-Quads: the times first, in the default graph, then the graphs' statements."""
    out = [f'<{graph_name(k)}> <{HAS_TIMESTAMP}> "{t}" .' for k, (t, _) in enumerate(graphs)]
    for k, (_, triples) in enumerate(graphs):
        out += [" ".join(map(to_nt, tr)) + f" <{graph_name(k)}> ." for tr in triples]
    return "\n".join(out) + "\n"


def jsonld_object(term) -> dict:
    if isinstance(term, URIRef):
        return {"@id": str(term)}
    if isinstance(term, BNode):
        return {"@id": f"_:{term}"}
    if term.language:
        return {"@value": str(term), "@language": term.language}
    if term.datatype and term.datatype != XSD.string:
        return {"@value": str(term), "@type": str(term.datatype)}
    return {"@value": str(term)}


def write_jsonld(graphs: Graphs) -> str:
    """JSON-LD as TripleWave / RSP-JS emit it: an array of graph objects, each with its ``@id``,
    its time and its ``@graph``; a context on the first maps ``prov:``."""
    items = []
    for k, (t, triples) in enumerate(graphs):
        item: dict = {"@id": graph_name(k), HAS_TIMESTAMP: t,
                      "@graph": [{"@id": jsonld_object(s)["@id"], str(p): jsonld_object(o)} for s, p, o in triples]}
        items.append(item)
    return json.dumps(items, indent=1, ensure_ascii=False) + "\n"


WRITERS = {"trig": write_trig, "nquads": write_nquads, "jsonld": write_jsonld}


def elements(text: str, fmt: str) -> list[tuple]:
    return [(e.triple, e.t) for e in parse_stream(text, S, fmt)]


# ---------------------------------------------------------------------------- one stream, three formats

EX = "http://ex.org/"
EXAMPLE: Graphs = [
    (1000, [(URIRef(EX + "a"), URIRef(EX + "p"), URIRef(EX + "b")),
            (URIRef(EX + "a"), URIRef(EX + "q"), Literal("01", datatype=XSD.integer)),
            (URIRef(EX + "a"), URIRef(EX + "r"), Literal("chat", lang="fr"))]),
    (1000, [(URIRef(EX + "c"), URIRef(EX + "p"), Literal('say "hi"\n\\ é'))]),
    (3000, [(URIRef(EX + "d"), URIRef(EX + "p"), URIRef(EX + "e"))]),
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_to_the_elements_of_the_timestamped_ntriples(fmt):
    expected = elements(write_nt(EXAMPLE), "ntriples")
    assert len(expected) == 5
    text = WRITERS[fmt](EXAMPLE)
    assert elements(text, fmt) == expected
    assert detect_format(None, text) == fmt  # by content, as for standard input
    assert elements(text, "auto") == expected


@pytest.mark.parametrize("fmt, ext", FORMATS.items())
def test_files_are_read_by_extension_with_the_lines_of_their_graphs(fmt, ext, tmp_path):
    path = tmp_path / f"s{ext}"
    path.write_text(WRITERS[fmt](EXAMPLE), encoding="utf-8")
    got = read_stream(path, S)
    assert [(e.triple, e.t) for e in got] == elements(write_nt(EXAMPLE), "ntriples")
    lines = path.read_text(encoding="utf-8").split("\n")
    for e in got:  # each element's line is where its graph opens (its name, or in JSON-LD its object's '{')
        assert e.source_line > 0 and "ex.org/graph/" in "".join(lines[e.source_line - 1:e.source_line + 1])


@pytest.mark.parametrize("fmt", FORMATS)
def test_standard_input_and_unknown_extensions_are_told_by_content(fmt, tmp_path, monkeypatch):
    """``--stream IRI=-`` and a ``.txt`` file: the lazy reader of a run (``iter_streams``) tells
    the format from the first statements (N-Quads here starts with the graphs' times, plain
    triples, before its first quad)."""
    text = WRITERS[fmt](EXAMPLE)
    expected = elements(write_nt(EXAMPLE), "ntriples")
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert [(e.triple, e.t) for e in iter_streams({str(S): "-"})] == expected
    path = tmp_path / "stream.txt"
    path.write_text(text, encoding="utf-8")
    assert [(e.triple, e.t) for e in iter_streams({str(S): path})] == expected
    assert [(e.triple, e.t) for e in read_stream(path, S)] == expected


def test_timestamped_ntriples_are_still_told_from_nquads():
    """A plain triple first, then timestamped lines: not N-Quads (no quad follows)."""
    text = '<http://e/a> <http://e/p> "1" .\n<http://e/a> <http://e/p> <http://e/b> "2" .\n'
    assert detect_format(None, text) == "ntriples"
    assert detect_format(None, '<http://e/a> <http://e/p> <http://e/b> "2" .\n') == "ntriples"
    assert detect_format(None, '<http://e/a> <http://e/p> <http://e/b> _:g .\n') == "nquads"


def test_the_timestamp_rules_are_those_of_trig_in_every_format():
    """``prov:generatedAtTime`` with a dateTime, as a property of the graph object in JSON-LD
    (TripleWave's shape, with a @context), and in the default graph in N-Quads."""
    prov = "http://www.w3.org/ns/prov#"
    jsonld = json.dumps([
        {"@context": {"prov": prov, "xsd": str(XSD)}, "@id": "http://ex.org/g1",
         "prov:generatedAtTime": {"@value": "2004-08-08T06:05:00Z", "@type": "xsd:dateTime"},
         "@graph": [{"@id": "http://ex.org/a", "http://ex.org/p": {"@id": "http://ex.org/b"}}]},
        {"@context": {"prov": prov}, "@id": "http://ex.org/g2", "prov:generatedAtTime": "2004-08-08T06:05:02Z",
         "@graph": {"@id": "http://ex.org/c", "http://ex.org/p": {"@id": "http://ex.org/d"}}},
    ])
    nquads = (f'<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> <http://ex.org/g1> .\n'
              f'<http://ex.org/g1> <{GENERATED_AT}> "2004-08-08T06:05:00Z"^^<{XSD.dateTime}> .\n'
              f'<http://ex.org/c> <http://ex.org/p> <http://ex.org/d> _:g2 .\n'
              f'_:g2 <{GENERATED_AT}> "2004-08-08T06:05:02Z" .\n')
    trig = (f'<http://ex.org/g1> <{GENERATED_AT}> "2004-08-08T06:05:00Z"^^<{XSD.dateTime}> .\n'
            f'<http://ex.org/g1> {{ <http://ex.org/a> <http://ex.org/p> <http://ex.org/b> . }}\n'
            f'_:g2 {{ <http://ex.org/c> <http://ex.org/p> <http://ex.org/d> . }}\n'
            f'_:g2 <{GENERATED_AT}> "2004-08-08T06:05:02Z" .\n')
    want = [((URIRef(EX + "a"), URIRef(EX + "p"), URIRef(EX + "b")), 0),
            ((URIRef(EX + "c"), URIRef(EX + "p"), URIRef(EX + "d")), 2)]
    for text, fmt in ((jsonld, "jsonld"), (nquads, "nquads"), (trig, "trig")):
        assert elements(text, fmt) == want, fmt
        assert detect_format(None, text) == fmt


def test_blank_nodes_are_kept_within_the_document_in_every_format():
    x = BNode("x")
    graphs: Graphs = [(1, [(x, URIRef(EX + "p"), URIRef(EX + "b"))]), (2, [(URIRef(EX + "c"), URIRef(EX + "q"), x)])]
    for fmt, write in WRITERS.items():
        got = elements(write(graphs), fmt)
        assert [t for _, t in got] == [1, 2]
        first, second = got[0][0][0], got[1][0][2]
        assert isinstance(first, BNode) and first == second, fmt  # one blank node in both graphs


# ------------------------------------------------------------------------------ runs over each format

RSPQL = """PREFIX : <http://example.org/rtgm#>
SELECT ?shop ?product ?percent
FROM NAMED WINDOW :w1 ON <http://example.org/rtgm/s1> [RANGE PT30M STEP PT3M]
FROM NAMED WINDOW :w2 ON <http://example.org/rtgm/s2> [RANGE PT5M STEP PT3M]
WHERE { WINDOW :w1 { ?shop :offers ?coupon . ?coupon :reduce ?percent . ?coupon :on ?product . }
        WINDOW :w2 { ?user :isNear ?shop . } }
"""


def nt_graphs(path: Path) -> Graphs:
    """The graphs (one per time point) of a timestamped N-Triples file, read by the N-Triples reader."""
    by_time: dict[int, list] = {}
    for e in read_stream(path, S, "ntriples"):
        by_time.setdefault(e.t, []).append(e.triple)
    return sorted(by_time.items())


def run(capsys, query: Path, offers: Path, near: Path, *extra: str) -> tuple[int, str, str]:
    code = main(["run", str(query), "--stream", f"{S1}={offers}", "--stream", f"{S2}={near}",
                 "--static", str(RUNNING / "static.ttl"), "--unit", "m", *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", FORMATS)
def test_csparql_and_rspql_runs_answer_byte_for_byte_as_over_timestamped_ntriples(fmt, tmp_path, capsys):
    rspql = tmp_path / "q.rq"
    rspql.write_text(RSPQL)
    files = {}
    for name in ("offers", "near"):
        files[name] = tmp_path / f"{name}{FORMATS[fmt]}"
        files[name].write_text(WRITERS[fmt](nt_graphs(RUNNING / f"{name}.nt")), encoding="utf-8")
    for query, extra in ((SEEDS / "s000_ex4_q1.rq", ("--period", "3m")), (rspql, ())):
        code, expected, err = run(capsys, query, RUNNING / "offers.nt", RUNNING / "near.nt", *extra)
        assert code == 0, err
        assert "rayban" in expected  # the paper's answer at 18 (Dao-Tran, Beck, Eiter 2015, Ex. 8)
        code, got, err = run(capsys, query, files["offers"], files["near"], *extra)
        assert code == 0, err
        assert got == expected


# ------------------------------------------------------------------------------------ located errors

BAD = [
    # (format, text, line, column, words of the message)
    ("nquads", '<http://e/g> <http://www.streamreasoning.org/schema/benchmark#hasTimestamp> "1" .\n'
               '<http://e/a> <http://e/p> <http://e/b> <http://e/g>\n', 2, 52, "missing the final '.'"),
    ("nquads", '<http://e/a> <http://e/p> <http://e/b> <http://e/g> .\n<http://e/a> "p" <http://e/b> <http://e/g> .\n',
     2, 14, "Predicate must be uriref"),
    ("jsonld", '[\n {"@id": "http://e/g",\n  "@graph": [}\n]\n', 3, 14, "JSON syntax error"),
    ("jsonld", '[{"@id": "http://e/g", "http://www.w3.org/ns/prov#generatedAtTime": 1,\n'
               '  "@graph": [{"@id": "http://e/a", "value": 3}]}]\n', 2, 14, "JSON-LD drops the property 'value'"),
    ("trig", '<http://e/g> { <http://e/a> <http://e/p> }\n', 1, 41, "TriG syntax error"),
    ("jsonld", '[{"@id": "g1", "http://www.w3.org/ns/prov#generatedAtTime": 1,\n'
               '  "@graph": [{"@id": "http://e/a", "http://e/p": {"@id": "http://e/b"}}]}]\n', 1, 2,
     "JSON-LD drops the node 'g1' and its triples"),
]
NO_TIME = {
    "trig": '<http://e/g1> <http://www.w3.org/ns/prov#generatedAtTime> "1" .\n<http://e/g1> { <http://e/a> <http://e/p> <http://e/b> . }\n'
            '\n<http://e/g2> { <http://e/c> <http://e/p> <http://e/d> . }\n',
    "nquads": '<http://e/g1> <http://www.w3.org/ns/prov#generatedAtTime> "1" .\n<http://e/a> <http://e/p> <http://e/b> <http://e/g1> .\n'
              '\n<http://e/c> <http://e/p> <http://e/d> <http://e/g2> .\n',
    "jsonld": '[{"@id": "http://e/g1", "http://www.w3.org/ns/prov#generatedAtTime": 1, "@graph": {"@id": "http://e/a", "http://e/p": {"@id": "http://e/b"}}},\n'
              '\n\n {"@id": "http://e/g2", "@graph": {"@id": "http://e/c", "http://e/p": {"@id": "http://e/d"}}}]\n',
}


@pytest.mark.parametrize("fmt, text, line, column, words", BAD)
def test_malformed_input_is_a_located_error_with_exit_2(fmt, text, line, column, words, tmp_path, capsys):
    path = tmp_path / f"bad{FORMATS[fmt]}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as err:
        read_stream(path, S)
    assert (err.value.line, err.value.column) == (line, column) and words in err.value.message
    assert err.value.expected
    code, out, err_text = run(capsys, SEEDS / "s000_ex4_q2.rq", RUNNING / "offers.nt", path)
    assert code == 2 and out == ""
    assert f"{path}:{line}:{column}: " in err_text and words in err_text and "expected:" in err_text
    assert "Traceback" not in err_text


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_graph_without_a_timestamp_is_named_where_it_opens(fmt, tmp_path, capsys):
    path = tmp_path / f"s{FORMATS[fmt]}"
    path.write_text(NO_TIME[fmt], encoding="utf-8")
    with pytest.raises(SourceError) as err:
        read_stream(path, S)
    assert err.value.message == "graph <http://e/g2> has no timestamp" and err.value.line == 4
    code, _, err_text = run(capsys, SEEDS / "s000_ex4_q2.rq", RUNNING / "offers.nt", path)
    assert code == 2 and f"{path}:4:" in err_text and "Traceback" not in err_text
    # skipped, and counted, under --skip-bad-elements: never silently dropped
    acc = Accounting(skip_bad=True)
    got = read_stream(path, S, accounting=acc)
    assert [str(e.triple[0]) for e in got] == ["http://e/a"] and acc.rejected_count() == 1


@pytest.mark.parametrize("fmt, text, line", [
    ("trig", '<http://e/g> <http://www.w3.org/ns/prov#generatedAtTime> "soon" .\n<http://e/g> { <http://e/a> <http://e/p> <http://e/b> . }\n', 2),
    ("nquads", '<http://e/a> <http://e/p> <http://e/b> <http://e/g> .\n<http://e/g> <http://www.w3.org/ns/prov#generatedAtTime> "soon" .\n', 1),
    ("jsonld", '[{"@id": "http://e/g", "http://www.w3.org/ns/prov#generatedAtTime": "soon",\n'
               '  "@graph": [{"@id": "http://e/a", "http://e/p": {"@id": "http://e/b"}}]}]\n', 1),
])
def test_an_unreadable_timestamp_names_its_graph_where_it_opens(fmt, text, line):
    with pytest.raises(SourceError) as err:
        parse_stream(text, S, fmt, source="s")
    assert "cannot read timestamp 'soon'" in err.value.message and "graph <http://e/g>" in err.value.message
    assert err.value.line == line and err.value.expected


@pytest.mark.parametrize("fmt, text", [
    ("trig", '<http://e/g> <http://www.w3.org/ns/prov#generatedAtTime> "1" .\n<http://e/x> <http://e/p> <http://e/y> .\n'
             '<http://e/g> { <http://e/a> <http://e/p> <http://e/b> . }\n'),
    ("nquads", '<http://e/g> <http://www.w3.org/ns/prov#generatedAtTime> "1" .\n<http://e/x> <http://e/p> <http://e/y> .\n'
               '<http://e/a> <http://e/p> <http://e/b> <http://e/g> .\n'),
    ("jsonld", '[{"@id": "http://e/x", "http://e/p": {"@id": "http://e/y"}},\n'
               ' {"@id": "http://e/g", "http://www.w3.org/ns/prov#generatedAtTime": 1,'
               ' "@graph": [{"@id": "http://e/a", "http://e/p": {"@id": "http://e/b"}}]}]\n'),
])
def test_triples_outside_any_named_graph_are_reported_as_in_trig(fmt, text):
    with pytest.raises(SourceError, match=r"1 triple\(s\) outside any named graph have no timestamp"):
        parse_stream(text, S, fmt, source="s")
    acc = Accounting(skip_bad=True)
    assert len(parse_stream(text, S, fmt, source="s", accounting=acc)) == 1 and acc.rejected_count() == 1


# --------------------------------------------------------------------------------- property test

_local = st.text("abcxyz09", min_size=1, max_size=4)
_iris = _local.map(lambda s: URIRef(EX + s))
_lexical = st.text(st.sampled_from('ab Z09é"\\\n\t\'<>{}@#.,:-'), max_size=6)
_literals = st.one_of(
    _lexical.map(Literal),
    st.tuples(_lexical, st.sampled_from(["en", "de-at"])).map(lambda x: Literal(x[0], lang=x[1])),
    st.tuples(st.from_regex(r"[0-9]{1,3}", fullmatch=True), st.sampled_from([XSD.integer, XSD.long, URIRef(EX + "dt")]))
    .map(lambda x: Literal(x[0], datatype=x[1])),
)
_triples = st.tuples(_iris, _iris, st.one_of(_iris, _literals))
_streams = st.lists(st.tuples(st.integers(0, 3), st.lists(_triples, min_size=1, max_size=4)), max_size=5).map(
    lambda gs: [(t, ts) for t, (_, ts) in zip(
        [sum(d for d, _ in gs[:k + 1]) for k in range(len(gs))], gs)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_streams)
def test_random_streams_read_back_alike_in_every_format(graphs):
    expected = elements(write_nt(graphs), "ntriples") if graphs else []
    for fmt, write in WRITERS.items():
        assert elements(write(graphs), fmt) == expected, fmt


def test_braces_and_quotes_inside_json_strings_do_not_move_where_a_graph_opens():
    """Where a JSON-LD graph object opens is found by its braces outside strings: a literal with
    ``{``, ``}`` and an escaped quote before it leaves the second graph's place (line 3, column 2)."""
    text = ('[{"@id": "http://e/g1", "http://www.w3.org/ns/prov#generatedAtTime": 1,\n'
            '  "@graph": {"@id": "http://e/a", "http://e/p": "a } { \\" }} literal"}},\n'
            ' {"@id": "http://e/g2", "@graph": {"@id": "http://e/c", "http://e/p": {"@id": "http://e/d"}}}]\n')
    with pytest.raises(SourceError) as err:
        parse_stream(text, S, "jsonld", source="s")
    assert err.value.message == "graph <http://e/g2> has no timestamp"
    assert (err.value.line, err.value.column) == (3, 2)
