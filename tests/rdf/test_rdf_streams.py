"""Stream readers: the three formats, time units (D1), arrival order and clear errors."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from lars.errors import RsplarsError, SourceError
from translator.rdf.streams import (
    StreamElement,
    detect_format,
    format_element,
    merge_streams,
    parse_stream,
    parse_stream_spec,
    read_stream,
    read_streams,
)
from translator.rdf.timeunits import TimeSpec, TimeUnitError, duration_in_base_units, parse_duration

DATA = Path(__file__).parent.parent / "data" / "rdf"
EX = "http://example.org/"
S = URIRef("http://ex.org/stream")


def ex(name: str) -> URIRef:
    return URIRef(EX + name)


def simple(elements):
    return [(tuple(e.triple), e.t) for e in elements]


# --------------------------------------------------------------------------- the running example


def test_running_example_reads_back_exactly():
    """Dao-Tran, Beck, Eiter 2015, Ex. 5: υ_D(10) = offer(a, "mbt", 30), υ_D(15) = offer(b, "rayban", 25), υ_D(18) = isNear(a), isNear(b)."""
    offers = read_stream(DATA / "running_example" / "offers.stream", "http://ex.org/offers")
    integer = lambda n: Literal(str(n), datatype=XSD.integer)  # noqa: E731
    assert simple(offers) == [
        ((ex("a"), ex("offers"), ex("c1")), 10),
        ((ex("c1"), ex("on"), Literal("mbt")), 10),
        ((ex("c1"), ex("reduce"), integer(30)), 10),
        ((ex("b"), ex("offers"), ex("c2")), 15),
        ((ex("c2"), ex("on"), Literal("rayban")), 15),
        ((ex("c2"), ex("reduce"), integer(25)), 15),
    ]
    assert [e.source_line for e in offers] == [3, 4, 5, 6, 7, 8]
    assert {e.stream_iri for e in offers} == {URIRef("http://ex.org/offers")}
    near = read_stream(DATA / "running_example" / "isnear.stream", "http://ex.org/near")
    assert simple(near) == [((ex("claire"), ex("isNear"), ex("a")), 18),
                            ((ex("claire"), ex("isNear"), ex("b")), 18)]
    merged = merge_streams({"o": offers, "n": near})
    assert [e.t for e in merged] == [10, 10, 10, 15, 15, 15, 18, 18]


def test_rspql_examples_with_undeclared_default_prefix():
    nearby = read_stream(DATA / "rspql" / "nearby.stream", S)
    assert [(str(e.triple[0])[len(EX):], e.t) for e in nearby] == [
        ("diana", 2), ("eve", 2), ("carl", 5), ("eve", 7), ("diana", 12)]
    coupon = read_stream(DATA / "rspql" / "coupon.stream", S)
    assert coupon[0].triple[2] == Literal("10% discount on ...") and coupon[1].t == 15


def test_notation_terms():
    text = """PREFIX x: <http://x.org/>
    @prefix : <http://e.org/> .
    x:s a :T [1] .
    _:b1 <http://e.org/p> "hi"@EN [1] .
    x:s x:p 2.5 [2] .
    x:s x:p -1e3 [2] .
    x:s x:p true [3] .
    x:s x:p "5"^^xsd:int [3] .
    x:s x:p '''multi
    line''' [4] .
    x:s x:p "esc\\"\\u00e9" ["5"] .
    """
    els = parse_stream(text, S, "notation")
    objs = [e.triple[2] for e in els]
    assert els[0].triple == (URIRef("http://x.org/s"), RDF.type, URIRef("http://e.org/T"))
    assert els[1].triple[0] == BNode("b1") and objs[1] == Literal("hi", lang="en")
    assert objs[2] == Literal("2.5", datatype=XSD.decimal) and objs[3].datatype == XSD.double
    assert objs[4] == Literal("true", datatype=XSD.boolean)
    assert objs[5] == Literal("5", datatype=XSD.int)
    assert str(objs[6]) == "multi\n    line"
    assert str(objs[7]) == 'esc"é'
    assert [e.t for e in els] == [1, 1, 2, 2, 3, 3, 4, 5]


# ------------------------------------------------------------------------- timestamped N-Triples


def test_csrbench_ntriples_shapes_and_stream_unit():
    """No dot, a trailing dot, a tab before the time, a typed time; times in ms, base unit s."""
    els = read_stream(DATA / "csrbench" / "listing1.nt", S, time=TimeSpec(unit="s", stream_unit="ms"))
    assert [e.t for e in els] == [1, 3, 12, 15]
    assert els[2].triple[2] == URIRef("http://ex.org/r2")
    ms = read_stream(DATA / "csrbench" / "listing1.nt", S, time=TimeSpec(unit="ms"))
    assert [e.t for e in ms] == [1000, 3000, 12000, 15000]


def test_ntriples_datetime_timestamps_against_epoch():
    text = ('<http://a> <http://p> "x" "2004-08-08T06:05:00Z"\n'
            '<http://a> <http://p> "y" "2004-08-08T06:10:00Z" .\n')
    assert [e.t for e in parse_stream(text, S, "ntriples")] == [0, 300]
    assert [e.t for e in parse_stream(text, S, "ntriples", TimeSpec(unit="m"))] == [0, 5]
    epoch = datetime(2004, 8, 8, 6, 0, tzinfo=timezone.utc)
    assert [e.t for e in parse_stream(text, S, "ntriples", TimeSpec(epoch=epoch))] == [300, 600]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.text(max_size=8), st.integers(0, 50)),
                max_size=12))
def test_write_then_read_ntriples(rows):
    """format_element / parse_stream round-trip any elements (terms with escapes, equal times)."""
    t = 0
    elements = []
    for s, p, o, dt in rows:
        t += dt
        elements.append(StreamElement((ex(f"s{s}"), ex(f"p{p}"), Literal(o)), t, S, 0))
    text = "\n".join(format_element(e) for e in elements)
    back = parse_stream(text, S, "ntriples")
    assert simple(back) == simple(elements)
    assert [e.source_line for e in back] == list(range(1, len(elements) + 1))


# ------------------------------------------------------------------------------------------ TriG


def test_trig_with_hastimestamp_metadata_graph():
    els = read_stream(DATA / "csrbench" / "observations.trig", S, time=TimeSpec(unit="ms"))
    assert [e.t for e in els] == [0, 0, 0, 1000, 1000]
    assert all(e.triple[1] != URIRef("http://www.streamreasoning.org/schema/benchmark#hasTimestamp") for e in els)
    assert els[0].source_line == 13 and els[3].source_line == 19
    assert Literal("83", datatype=XSD.double, normalize=False) in [e.triple[2] for e in els[:3]]  # kept as written


def test_trig_with_prov_generated_at_time():
    els = read_stream(DATA / "csrbench" / "prov.trig", S)
    assert [(str(e.triple[0]), e.t) for e in els] == [
        (EX + "s1", 0), (EX + "s2", 30), (EX + "s2", 30)]


def test_trig_errors():
    with pytest.raises(SourceError, match="has no timestamp") as err:
        parse_stream("@prefix : <http://e.org/> .\n:g { :a :b :c . }\n", S, "trig")
    assert err.value.line == 2
    with pytest.raises(SourceError, match="TriG syntax error") as err:
        parse_stream("@prefix : <http://e.org/> .\n:g { :a :b }\n", S, "trig")
    assert err.value.line == 2
    with pytest.raises(SourceError, match="outside any named graph"):
        parse_stream("@prefix : <http://e.org/> .\n:a :b :c .\n", S, "trig")


def test_trig_triple_with_a_literal_subject_is_a_located_error():
    """Found by make fuzz: rdflib reads ``:o2 .2 :p :o3`` as a triple whose subject is the number 2;
    an RDF triple's subject is never a literal, so the graph is a bad element (at its line)."""
    text = ("@prefix : <http://e.org/> .\n@prefix b: <http://www.streamreasoning.org/schema/benchmark#> .\n"
            ":g1 { :o1 :p :o2 .2 :p :o3 . }\n:g1 b:hasTimestamp \"1\" .\n")
    with pytest.raises(SourceError, match="subject is the literal") as err:
        parse_stream(text, S, "trig")
    assert err.value.line == 3


def test_trig_graphs_out_of_time_order_are_an_error():
    text = """@prefix : <http://e.org/> .
    @prefix bench: <http://www.streamreasoning.org/schema/benchmark#> .
    :g2 { :a :b :c . }
    :g1 { :a :b :d . }
    :g1 bench:hasTimestamp 1 .
    :g2 bench:hasTimestamp 2 .
    """
    with pytest.raises(SourceError, match="backwards") as err:
        parse_stream(text, S, "trig")
    assert err.value.line == 4


# -------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "text, fmt, line, column, message",
    [
        ('<http://a> <http://p> <http://o>\n', "ntriples", 1, 33, "missing the timestamp"),
        ('<http://a> <http://p> <http://o> "1"\n<http://a> "p" <http://o> "2"\n', "ntriples", 2, 12,
         "cannot be the predicate"),
        ('<http://a> <http://p> <http://o> "1" junk\n', "ntriples", 1, 38, "unexpected text"),
        ('<http://a> <http://p> <http://o> "soon"\n', "ntriples", 1, 34, "cannot read timestamp"),
        ('<http://a <http://p> <http://o> "1"\n', "ntriples", 1, 1, "cannot read the subject"),
        (':a :b :c [2] .\n:a :b :c [1] .\n', "notation", 2, 11, "backwards"),
        (':a :b :c .\n', "notation", 1, 10, "unexpected '.'"),
        (':a :b :c [1]\n', "notation", 1, 13, "unexpected end of file"),
        ('zz:a :b :c [1] .\n', "notation", 1, 1, "undeclared prefix 'zz:'"),
        ('<http://a> <http://p> "x" "5"\n<http://a> <http://p> "x" "3" .\n', "ntriples", 2, 27, "backwards"),
    ],
)
def test_malformed_elements(text, fmt, line, column, message):
    with pytest.raises(SourceError, match=message) as err:
        parse_stream(text, S, fmt, source="s.txt")
    assert (err.value.line, err.value.column) == (line, column)
    assert str(err.value).startswith(f"s.txt:{line}")


def test_error_rendering_names_file_line_and_expectation(tmp_path):
    path = tmp_path / "bad.nt"
    path.write_text('<http://a> <http://p> <http://o> "1"\n<http://a> <http://p> <http://o>\n')
    with pytest.raises(SourceError) as err:
        read_stream(path, S)
    text = str(err.value)
    assert text.splitlines()[0] == f"{path}:2:33: missing the timestamp after the triple"
    assert "expected: the timestamp in quotes" in text


def test_d1_whole_multiples():
    with pytest.raises(SourceError, match="not a whole multiple of the base unit s"):
        parse_stream('<http://a> <http://p> <http://o> "1500"\n', S, "ntriples", TimeSpec(stream_unit="ms"))
    with pytest.raises(SourceError, match="not a whole number of base units"):
        parse_stream('<http://a> <http://p> <http://o> "2004-08-08T06:05:00.5Z"\n<http://a> <http://p> '
                     '<http://o> "2004-08-08T06:05:01Z"\n', S, "ntriples",
                     TimeSpec(epoch=datetime(2004, 8, 8, 6, 5)))
    with pytest.raises(SourceError, match="before the epoch"):
        parse_stream('<http://a> <http://p> <http://o> "2004-08-08T06:05:00Z"\n', S, "ntriples",
                     TimeSpec(epoch=datetime(2005, 1, 1)))


def test_durations():
    assert parse_duration("3000ms") == 3000
    assert parse_duration("30m") == 1_800_000
    assert parse_duration("24 h") == 86_400_000
    assert parse_duration("PT30M") == 1_800_000
    assert parse_duration("P1DT0.5S") == 86_400_500
    assert parse_duration("1.5s") == 1500
    assert duration_in_base_units("30m", "s") == 1800
    assert duration_in_base_units("3000ms", "s") == 3
    with pytest.raises(TimeUnitError, match="whole multiple"):
        duration_in_base_units("1500ms", "s")
    for bad in ("ten seconds", "5 parsecs", "PT", "0.0001ms"):
        with pytest.raises(TimeUnitError):
            parse_duration(bad)


def test_read_streams_share_the_epoch(tmp_path):
    a = tmp_path / "a.nt"
    b = tmp_path / "b.nt"
    a.write_text('<http://a> <http://p> <http://o> "2004-08-08T06:05:10Z"\n')
    b.write_text('<http://b> <http://p> <http://o> "2004-08-08T06:05:00Z"\n')
    streams = read_streams({"http://s/a": a, "http://s/b": b})
    assert streams[URIRef("http://s/a")][0].t == 10
    assert streams[URIRef("http://s/b")][0].t == 0
    assert [e.stream_iri for e in merge_streams(streams)] == [URIRef("http://s/b"), URIRef("http://s/a")]


def test_merge_is_stable():
    a = [StreamElement((ex("a"), ex("p"), ex(str(i))), t, URIRef("http://a"), i) for i, t in enumerate([1, 2, 2])]
    b = [StreamElement((ex("b"), ex("p"), ex(str(i))), t, URIRef("http://b"), i) for i, t in enumerate([0, 2, 3])]
    merged = merge_streams({"a": a, "b": b})
    assert [(str(e.stream_iri)[-1], e.t, e.source_line) for e in merged] == [
        ("b", 0, 0), ("a", 1, 0), ("a", 2, 1), ("a", 2, 2), ("b", 2, 1), ("b", 3, 2)]


def test_format_detection():
    assert detect_format("x.nt", "") == "ntriples"
    assert detect_format("x.trig", "") == "trig"
    assert detect_format("x.stream", "") == "notation"
    assert detect_format(None, ':a :b :c [1] .') == "notation"
    assert detect_format(None, '@prefix : <x:> .\n:a :b :c [1] .') == "notation"
    assert detect_format(None, '@prefix : <x:> .\n:g { :a :b :c }') == "trig"
    assert detect_format(None, '<a> <b> <c> "1"') == "ntriples"
    with pytest.raises(SourceError, match="cannot tell the stream format"):
        detect_format("x.txt", "hello")


def test_stream_spec_and_missing_file():
    assert parse_stream_spec("http://ex.org/s?a=b=data/s.nt") == ("http://ex.org/s?a=b", "data/s.nt")
    assert parse_stream_spec("<http://ex.org/s>=s.nt") == ("http://ex.org/s", "s.nt")
    with pytest.raises(RsplarsError, match="IRI=FILE"):
        parse_stream_spec("s.nt")
    with pytest.raises(RsplarsError, match="not found"):
        read_stream("/nonexistent/s.nt", S)


def test_lars_view_of_the_running_example():
    """Dao-Tran, Beck, Eiter 2015, §4.3: striple(S, P, O, s) ∈ υ(t), arrival order kept; the names match translator.translate.tau."""
    from lars.model import Atom, String
    from translator.translate import tau
    from translator.rdf.streams import STRIPLE, to_lars_stream

    assert STRIPLE == tau.STRIPLE
    offers = read_stream(DATA / "running_example" / "offers.stream", "http://ex.org/offers")
    near = read_stream(DATA / "running_example" / "isnear.stream", "http://ex.org/near")
    stream = to_lars_stream(merge_streams({"o": offers, "n": near}))
    assert [t for t, _ in stream.items()] == [10, 15, 18]
    s = String("<http://ex.org/near>")
    assert stream.at(18) == (
        Atom("striple", (String(f"<{EX}claire>"), String(f"<{EX}isNear>"), String(f"<{EX}a>"), s)),
        Atom("striple", (String(f"<{EX}claire>"), String(f"<{EX}isNear>"), String(f"<{EX}b>"), s)),
    )
    assert stream.at(15)[2].args[2] == String('"25"^^<http://www.w3.org/2001/XMLSchema#integer>')


_labels = st.from_regex(r"[A-Za-z0-9_]([A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?", fullmatch=True)
_iris = st.text(max_size=12).map(lambda s: URIRef("http://ex.org/" + s))
_objects = st.one_of(
    _iris, _labels.map(BNode), st.text(max_size=12).map(Literal),
    st.builds(lambda s, l: Literal(s, lang=l), st.text(max_size=6), st.sampled_from(["en", "de-ch"])),
    st.builds(lambda s: Literal(s, datatype=XSD.integer, normalize=False), st.from_regex(r"[+-]?[0-9]{1,5}", fullmatch=True)),
)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.one_of(_iris, _labels.map(BNode)), _iris, _objects, st.integers(0, 3)), max_size=10))
def test_notation_reads_ntriples_terms(rows):
    """The notation accepts N-Triples terms (a subset of Turtle's): print any elements as
    ``s p o [t] .`` and read them back."""
    from translator.rdf.terms import canonical, to_nt

    t = 0
    lines, want = ["# generated"], []
    for s, p, o, dt in rows:
        t += dt
        lines.append(f"{to_nt(s)} {to_nt(p)} {to_nt(o)} [{t}] .")
        want.append(((s, p, canonical(o)), t))
    got = parse_stream("\n".join(lines), S, "notation")
    assert simple(got) == want
    assert [e.source_line for e in got] == list(range(2, len(rows) + 2))


_fragments = st.sampled_from([
    "<http://a>", "<http://p>", '"x"', '"1"', '"2004-08-08T06:05:00Z"', "[1]", "[", "]", ".", ":a", "_:b",
    "@prefix", "PREFIX", ":", "{", "}", "^^", "@en", "a", "\n", " ", "\t", '"', "<", "#", "2", "-3", "ex:x",
    "'''", '"""', "\\u00", "true", "1.5e3",
])


@pytest.mark.filterwarnings("ignore")
@settings(max_examples=300, deadline=None)
@given(st.lists(_fragments, max_size=25).map(" ".join), st.sampled_from(["ntriples", "trig", "notation", "auto"]))
def test_malformed_input_gives_only_user_errors(text, fmt):
    """Whatever the input, a reader returns elements or raises a user error (never a traceback)."""
    try:
        parse_stream(text, S, fmt)
    except RsplarsError as err:
        str(err)  # renders


def test_trig_graph_keyword_and_full_iris():
    text = """PREFIX bench: <http://www.streamreasoning.org/schema/benchmark#>
    GRAPH <http://e.org/g1> { <http://e.org/a> <http://e.org/p> "1" . }

    GRAPH <http://e.org/g2> { <http://e.org/a> <http://e.org/p> "2" . }
    <http://e.org/g1> bench:hasTimestamp 3 .
    <http://e.org/g2> bench:hasTimestamp 3 .
    """
    els = parse_stream(text, S, "trig")
    assert [(str(e.triple[2]), e.t, e.source_line) for e in els] == [("1", 3, 2), ("2", 3, 4)]
