"""``translator.rdf.streams.iter_stream_texts`` (the rows the incremental engine reads from a
timestamped N-Triples stream without building RDF terms) against the general reader
``iter_streams`` with every element's terms turned into LARS texts the canonical way
(``format_term(to_lars(term))``): the same rows, lines, errors and counts, on lines mixing the
common shape with escapes, blank nodes, language tags, ``xsd:string``, dateTimes, units that do
not divide, timestamps going backwards and malformed lines."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.accounting import Accounting
from lars.errors import RsplarsError
from lars.printer import format_term
from translator.rdf import streams
from translator.rdf.streams import StreamFiles, iter_stream_texts, iter_streams
from translator.rdf.terms import to_lars
from translator.rdf.timeunits import TimeSpec

S = "http://example.org/stream"
SUBJECTS = ["<http://e/obs/{i}>", "_:b{i}", "<http://e/é{i}>", "<http://e/a\\u0020{i}>", "_:é{i}"]
OBJECTS = ['"3.5"^^<http://www.w3.org/2001/XMLSchema#float>', '"x"@EN', '"x"^^<http://www.w3.org/2001/XMLSchema#string>',
           '"-36.8125"^^<http://www.w3.org/2001/XMLSchema#double>', '"a b~"^^<http://e/d?x=1&y=(2)>', '"abc"^^<http://www.w3.org/2001/XMLSchema#float>',
           '"a\\"b"', "<http://e/o{i}>", "_:o{i}", '"plain {i}"']
TIMES = ['"{t}"', '"{t}"^^<http://www.w3.org/2001/XMLSchema#integer>', '"+{t}"']
BAD = ['<http://e/s> <http://e/p> "{t}" .', '<http://e/s> "p" <http://e/o> "{t}" .', "garbage {t}",
       '"lit" <http://e/p> <http://e/o> "{t}" .', '<http://e/s> <http://e/p> <http://e/o> "2024-01-01T00:00:{t:02d}Z" .']


@st.composite
def stream_lines(draw) -> list[str]:
    lines = []
    t = 0
    for i in range(draw(st.integers(0, 25))):
        t = max(0, t + draw(st.integers(-2, 3)))
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(BAD)).format(t=t % 60))
        elif kind == 1:
            lines.append(draw(st.sampled_from(["", "# a comment", "   "])))
        else:
            s = draw(st.sampled_from(SUBJECTS)).format(i=i % 4)
            o = draw(st.sampled_from(OBJECTS)).format(i=i % 3)
            tt = draw(st.sampled_from(TIMES)).format(t=t)
            lines.append(f"{s} <http://e/p{i % 2}> {o} {tt} .")
    return lines


def general(path, time, accounting):
    out = []
    for e in iter_streams({S: str(path)}, time=time, accounting=accounting):
        s, p, o = e.triple
        out.append((e.t, tuple(format_term(to_lars(x)) for x in (s, p, o, e.stream_iri)), e.source_line))
    return out


def outcome(read, path, time, skip):
    acc = Accounting(skip_bad=skip)
    try:
        got = list(read(path, time, acc))
    except RsplarsError as err:
        return "error", str(err)
    return got, (acc.read, acc.rejected_count())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=stream_lines(), skip=st.booleans(), units=st.sampled_from([("s", None), ("ms", "s"), ("s", "ms")]),
       ends=st.lists(st.sampled_from(["\n", "\n", "\r\n", "\r"]), min_size=1, max_size=3),
       block=st.sampled_from([1, 30, 200, 1 << 16]))
def test_stream_texts_equal_the_general_reader(tmp_path, monkeypatch, lines, skip, units, ends, block) -> None:
    """Also with lines ending in LF, CRLF or a lone CR, and the reader's blocks of lines (matched by
    one regex search when all their lines are common ones) of one line, a few lines or the file."""
    monkeypatch.setattr(streams, "_BLOCK_CHARS", block)
    path = tmp_path / "s.nt"
    path.write_bytes("".join(line + ends[i % len(ends)] for i, line in enumerate(lines)).encode("utf-8"))
    time = TimeSpec(units[0], units[1])
    texts = outcome(lambda p, tm, acc: iter_stream_texts({S: str(p)}, time=tm, accounting=acc), path, time, skip)
    assert texts == outcome(general, path, time, skip)


def test_datetime_stream_counts_from_its_first_timestamp(tmp_path) -> None:
    path = tmp_path / "d.nt"
    path.write_text('<http://e/s> <http://e/p> <http://e/o> "2024-01-01T00:00:05Z" .\n'
                    '<http://e/s> <http://e/p> <http://e/o2> "2024-01-01T00:00:09Z" .\n', encoding="utf-8")
    got = list(iter_stream_texts({S: str(path)}))
    assert [(t, line) for t, _, line in got] == [(0, 1), (4, 2)]
    assert got == general(path, TimeSpec(), None)


def test_plain_iri_token_is_its_lars_text(tmp_path) -> None:
    """The shortcut for IRIs of the common line (the token in quotes) is the canonical text."""
    path = tmp_path / "i.nt"
    path.write_text('<http://e/s?a=1&b=%20> <http://e/p#x> <http://e/ü~> "1" .\n', encoding="utf-8")
    assert list(iter_stream_texts({S: str(path)})) == general(path, TimeSpec(), None)


def test_missing_file_named_before_reading(tmp_path) -> None:
    with pytest.raises(RsplarsError, match="stream file not found"):
        StreamFiles({S: str(tmp_path / "nope.nt")})


@pytest.mark.parametrize("block", [1, 1 << 16])
@pytest.mark.parametrize("skip", [False, True])
def test_integer_lines_after_a_datetime_first_line(tmp_path, monkeypatch, block, skip) -> None:
    """A stream whose first timestamp is a dateTime reads every later line as the general reader
    does, common lines with integer timestamps included (they do not take the shortcut)."""
    monkeypatch.setattr(streams, "_BLOCK_CHARS", block)
    path = tmp_path / "m.nt"
    path.write_text('<http://e/s> <http://e/p> <http://e/o> "2024-01-01T00:00:05Z" .\n'
                    '<http://e/s> <http://e/p> <http://e/o2> "7" .\n'
                    '<http://e/s> <http://e/p> <http://e/o3> "2024-01-01T00:00:09Z" .\n', encoding="utf-8")
    texts = outcome(lambda p, tm, acc: iter_stream_texts({S: str(p)}, time=tm, accounting=acc), path, TimeSpec(), skip)
    assert texts == outcome(general, path, TimeSpec(), skip)


def engine_points(batches) -> tuple[list, int, list]:
    """What the incremental engine reads (``lars_rows``): (time point, rows in order) pairs, the
    duplicates and the distinct rows per time point."""
    from translator.evaluate.live import ElementCounts, lars_rows

    counts = ElementCounts()
    points = [(t, list(rows[("striple", 4)])) for t, rows in lars_rows(batches, counts, {}) if rows is not None]
    return points, counts.duplicates, list(counts.pending)


def expected_points(elements) -> tuple[list, int, list]:
    """``engine_points`` computed directly from elements one by one: the rows of each time point
    in arrival order without repeats, the repeats counted."""
    points: list = []
    duplicates = 0
    for t, row, _ in elements:
        if not points or points[-1][0] != t:
            points.append((t, []))
        if row in points[-1][1]:
            duplicates += 1
        else:
            points[-1][1].append(row)
    return points, duplicates, [(t, len(rows)) for t, rows in points]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=stream_lines(), block=st.sampled_from([1, 60, 1 << 16]), repeat=st.integers(1, 3))
def test_engine_reads_the_batches_as_the_general_reader_elements(tmp_path, monkeypatch, lines, block, repeat) -> None:
    """The time points the engine reads from the batches of the block reader (several rows at once,
    a time point possibly in several batches) are those of the general reader's elements taken one
    by one: the same rows in the same order, the same duplicates (lines repeated ``repeat``
    times) and distinct counts."""
    monkeypatch.setattr(streams, "_BLOCK_CHARS", block)
    path = tmp_path / "s.nt"
    path.write_text("".join(line + "\n" for line in lines for _ in range(repeat)), encoding="utf-8")
    acc = Accounting(skip_bad=True)
    expected = expected_points(general(path, TimeSpec(), acc))
    acc2 = Accounting(skip_bad=True)
    assert engine_points(streams.iter_stream_batches({S: str(path)}, accounting=acc2)) == expected
    assert acc2.read == acc.read


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=stream_lines(), second=stream_lines(), skip=st.booleans(), block=st.sampled_from([1, 60, 1 << 16]),
       epoch=st.booleans())
def test_two_streams_read_as_the_general_reader_merges_them(tmp_path, monkeypatch, first, second, skip, block, epoch) -> None:
    """Two N-Triples streams: read each with the block reader and merged by time, or through the
    general reader (a first element that is not a common line), the same rows, lines, errors and
    counts as the general reader's merge of their elements."""
    monkeypatch.setattr(streams, "_BLOCK_CHARS", block)
    files = {}
    for k, lines in enumerate((first, second)):
        path = tmp_path / f"s{k}.nt"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        files[f"{S}{k}"] = str(path)
    time = TimeSpec("s", epoch=datetime(2024, 1, 1, tzinfo=timezone.utc) if epoch else None)

    def both(p, tm, acc):
        return iter_stream_texts(files, time=tm, accounting=acc)

    def merged(p, tm, acc):
        out = []
        for e in iter_streams(files, time=tm, accounting=acc):
            s, p_, o = e.triple
            out.append((e.t, tuple(format_term(to_lars(x)) for x in (s, p_, o, e.stream_iri)), e.source_line))
        return out

    assert outcome(both, None, time, skip) == outcome(merged, None, time, skip)


@settings(max_examples=400, deadline=None)
@given(lexical=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e) | st.sampled_from(["é", "\t"]), max_size=8),
       datatype=st.sampled_from(["http://www.w3.org/2001/XMLSchema#float", "http://www.w3.org/2001/XMLSchema#string",
                                 "http://e/d?x=1&y=(2);z", "http://e/é", "urn:x:y"]))
def test_typed_literal_tokens_read_as_their_canonical_text(lexical, datatype) -> None:
    """A typed literal token of a common line becomes the LARS string of its canonical N-Triples
    text (the shortcut for plain ones included)."""
    from translator.rdf.streams import _FAST_LINE, LarsTexts
    from translator.rdf.terms import from_nt

    token = '"' + lexical.replace("\\", "\\\\").replace('"', '\\"') + '"^^<' + datatype + ">"
    line = f"<http://e/s> <http://e/p> {token} \"1\" ."
    if _FAST_LINE.match(line) is None or _FAST_LINE.match(line).group(3) != token:
        return  # not a common line (escapes): read the general way
    assert LarsTexts().tokens[token] == format_term(to_lars(from_nt(token)))


# pieces of lines for the strict block path: IRIs and literals that hold each character that the
# common line (_FAST_LINE) refuses in an IRI or a literal, one at a time, among plain ones
_ODD = [" ", '"', "<", ">", "^", "{", "}", "|", "`", "\\", "\t", "\r", "\x00", "\x1f", "\x7f", "é", "@", "#", ".", "\u2028"]
_PLAIN_IRIS = ["<http://e/{i}>", "<http://e/é{i}>", "<urn:x:{i}>", "<http://e/\x7f{i}>"]
_PLAIN_LITERALS = ['"{i}.5"^^<http://www.w3.org/2001/XMLSchema#float>', '"a b<>^{i}"@en-GB', '"x{i}"', '"{i}"^^<http://e/d?x=1&y=(2)>']
_PLAIN_TIMES = ['"{t}"', '"{t}" .']
_ODD_IRIS = ["<http://e/" + c + "{i}>" for c in _ODD]
_ODD_LITERALS = ['"a' + c + '{i}"^^<http://e/d' + c + ">" for c in _ODD] + ['"a' + c + '{i}"' for c in _ODD]
_ODD_TIMES = ['"{t}" . ', ' "{t}"', '"+{t}"', '"{t}"^^<http://e/long>', '"\u0663{t}"', '"{t}"  .', '"{t}" .\r', '"{t}"\t.']


@st.composite
def strict_lines(draw) -> tuple[list[str], bool]:
    """Lines of a block of plain pieces, of which at most one is replaced by an odd one, and whether
    none was (then the strict path must take the block)."""
    kinds = ((_PLAIN_IRIS, _ODD_IRIS), (_PLAIN_IRIS, _ODD_IRIS), (_PLAIN_IRIS + _PLAIN_LITERALS, _ODD_IRIS + _ODD_LITERALS),
             (_PLAIN_TIMES, _ODD_TIMES))
    count = draw(st.integers(1, 12))
    odd = draw(st.none() | st.tuples(st.integers(0, count - 1), st.integers(0, 3)))
    lines = []
    for i in range(count):
        pieces = [draw(st.sampled_from(odds if odd == (i, k) else plains)) for k, (plains, odds) in enumerate(kinds)]
        lines.append(" ".join(pieces).replace("{i}", str(i)).replace("{t}", str(i)))
    return lines, odd is None


@settings(max_examples=500, deadline=None)
@given(drawn=strict_lines(), last_end=st.booleans())
def test_strict_block_columns_are_those_of_the_common_line(drawn, last_end) -> None:
    """``_strict_columns`` (the block path that scans IRIs as ``<[^>]*>`` and checks the excluded
    characters on the whole block afterwards) accepts a block only if every line is a common line
    (``_FAST_LINE``), and then gives the same subject, predicate, object and timestamp per line; it
    accepts every block of plain lines."""
    from translator.rdf.streams import _FAST_LINE, _strict_columns

    lines, plain = drawn
    block = [line + "\n" for line in lines]
    if not last_end:
        block[-1] = lines[-1]
    got = _strict_columns("".join(block), len(block))
    common = [_FAST_LINE.match(line) for line in lines]
    if got is not None:
        assert all(m is not None for m in common)
        assert list(zip(*got)) == [(m[1], m[2], m[3], m[5]) for m in common]  # type: ignore[index]
    if plain:
        assert got is not None


def test_strict_block_refuses_a_line_feed_inside_a_term() -> None:
    """A match of the block regex cannot run over a line end: an IRI opened on one line and closed on
    the next makes fewer matches than lines."""
    from translator.rdf.streams import _strict_columns

    text = '<http://e/s> <http://e/p> <http://e/o\n> "1" .\n<http://e/s> <http://e/p> <http://e/o> "2" .\n'
    assert _strict_columns(text, 3) is None
