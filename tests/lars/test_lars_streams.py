"""lars.streams: text and JSON-lines readers, arrival order, errors with line:column."""

from __future__ import annotations

import pytest

from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Constant, Function, Integer, String
from lars.streams import parse_ground_atom, parse_stream, parse_stream_jsonl, parse_stream_text

TEXT = """\
% the tram stream
0: tram(a1, b), p("x, y"), q

3: f(g(1), -2), q, tram(a1, b), q
3: r
4:
"""


def a(name: str, *args) -> Atom:
    return Atom(name, tuple(args))


def test_text_stream_keeps_arrival_order() -> None:
    stream = parse_stream_text(TEXT)
    assert stream.at(0) == (a("tram", Constant("a1"), Constant("b")), a("p", String("x, y")), a("q"))
    # order kept; a repeated atom at one time point counts once (first arrival); a second line appends
    assert stream.at(3) == (
        a("f", Function("g", (Integer(1),)), Integer(-2)),
        a("q"),
        a("tram", Constant("a1"), Constant("b")),
        a("r"),
    )
    assert stream.at(4) == ()
    assert 4 in stream.points and stream.timeline == (0, 4)
    assert [t for t, _ in stream.items()] == [0, 3, 4]


def test_jsonl_stream() -> None:
    text = '{"t": 0, "atoms": ["tram(a1,b)", "q"]}\n\n{"t": 2, "atoms": []}\n{"t": 2, "atoms": ["q", "p(1)"]}\n'
    stream = parse_stream_jsonl(text)
    assert stream.at(0) == (a("tram", Constant("a1"), Constant("b")), a("q"))
    assert stream.at(2) == (a("q"), a("p", Integer(1)))
    assert stream.timeline == (0, 2)


def test_both_formats_agree() -> None:
    text = parse_stream_text("1: p(a), q(1)\n2: r\n")
    jsonl = parse_stream_jsonl('{"t": 1, "atoms": ["p(a)", "q(1)"]}\n{"t": 2, "atoms": ["r"]}\n')
    assert text == jsonl


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("0: a(X)", 1, 6, "must be ground"),
        ("0: p\nq", 2, 1, "starts with a time point"),
        ("2: a\n\n1: b", 3, 1, "must not decrease"),
        ("0: a b", 1, 6, "unexpected 'b'"),
        ("0: a(1", 1, 7, "unexpected end of line"),
        ("% c\n 0: a,", 2, 7, "unexpected end of line"),
        ("0: a(1+2)", 1, 7, "unexpected character '+'"),
    ],
)
def test_text_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_stream_text(text, "s.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message
    assert str(info.value).startswith(f"s.txt:{line}:{column}: ")


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ('{"t": 0, "atoms": ["a(X)"]}', 1, 20, "must be ground"),
        ('{"t": 0}\n{"t": 0 "atoms": []}', 1, 1, "keys"),
        ('{"t": 0, "atoms": []}\n{"t": 0 "atoms": []}', 2, 9, "invalid JSON"),
        ('{"t": "0", "atoms": []}', 1, 2, "integer time point"),
        ('{"t": 0, "atoms": "a"}', 1, 10, "list of strings"),
        ('{"t": 5, "atoms": []}\n{"t": 4, "atoms": []}', 2, 2, "must not decrease"),
    ],
)
def test_jsonl_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_stream_jsonl(text, "s.jsonl")
    assert (info.value.line, info.value.column) == (line, column)
    assert message in info.value.message


def test_parse_stream_detects_the_format() -> None:
    text = "% comment\n0: p\n"
    jsonl = '\n% comment\n{"t": 0, "atoms": ["p"]}\n'
    assert parse_stream(text) == parse_stream(jsonl) == parse_stream_text(text)
    assert parse_stream(jsonl, format="jsonl").at(0) == (a("p"),)
    with pytest.raises(SourceError):
        parse_stream(jsonl, format="text")
    with pytest.raises(RsplarsError, match="unknown stream format"):
        parse_stream(text, format="csv")


def test_parse_ground_atom_errors() -> None:
    assert parse_ground_atom('p(a,1,"s")') == a("p", Constant("a"), Integer(1), String("s"))
    with pytest.raises(SourceError) as info:
        parse_ground_atom("p(a) q")
    assert info.value.column == 6


def test_repeated_lines_reuse_the_previous_atoms_exactly() -> None:
    """A time point whose single line repeats the previous one gets the same atoms without parsing
    (the same tuple object); a second line for that time point, or a different text, is parsed."""
    lines = ["0: p(a), q(1)", "1: p(a), q(1)", "1: r(c), p(a)", "2: p(a), q(1)", "3: p(a), q(1)",
             "4: p(a),q(1)", "5: s", "6: p(a), q(1)", '7: p("x"), p("x")', '8: p("x"), p("x")']
    stream = parse_stream_text("\n".join(lines))
    want = {}
    for line in lines:
        t, rest = line.split(":", 1)
        for text in [x.strip() for x in rest.replace("),", ")|").split("|") if x.strip()]:
            atom = parse_ground_atom(text if text.endswith(")") or "(" not in text else text + ")")
            bucket = want.setdefault(int(t), [])
            if atom not in bucket:
                bucket.append(atom)
    assert {t: list(a) for t, a in stream.points.items()} == want
    assert stream.points[3] is stream.points[2] and stream.points[8] is stream.points[7]
    assert stream.points[1] is not stream.points[0] and len(stream.points[1]) == 3
