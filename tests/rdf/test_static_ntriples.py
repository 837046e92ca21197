"""N-Triples static data read without rdflib (``translator.rdf.static.ntriples_quads``) must give
rdflib's facts exactly: the same N-Triples texts, in the order :func:`dataset_quads` sorts them
(rdflib's ``n3()``), with the duplicates rdflib's dataset keeps; a document rdflib rejects, or
about which it logs a warning, must be left to rdflib (``None``)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from lars.errors import RsplarsError
from translator.rdf import static
from translator.rdf.static import (
    dataset_quads,
    hold_during,
    load_dataset,
    load_static_facts,
    ntriples_quads,
    static_facts,
    time_varying_facts,
)
from translator.rdf.terms import to_nt

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

#: terms the fast reader takes, and (``ODD_*``) terms it leaves to rdflib or that rdflib rejects
IRIS = [
    "<http://e.org/a>", "<http://e.org/b#x>", "<urn:x:1>", "<http://e.org/é/ü?q=1&r=%20>",
    "<http://e.org/" + "long" * 60 + ">", "<http://e.org/\x7f>", "<http://e.org/a\U0001F600>",
    "<mailto:a@b.c>", "<http://e.org/x:y:z>",
]
ODD_IRIS = ["<http://e.org/\\u0041>", "<rel>", "<http://e.org/a\u00a0b>", "<:x>", "<http://e.org/a b>"]
PIECES = [
    "a", "Z", " ", "é", "\U0001F600", "\u2028", "\x85", "\\t", "\\n", "\\r", "\\b", "\\f", '\\"', "\\'",
    "\\\\", "\\u00e9", "\\u0022", "\\u000A", "\\U0001F600", "\t", "\x01", "\x7f", "'", '"""', "0", "1",
    "-", ".", "E", "INF", "NaN", "\\u005C", "#", "<", ">", "^^", "@",
]
ODD_PIECES = ["\\U00110000", "\\x", "\\u12", '"']
NUMBERS = ["1", "01", "-2", "+3", " 4 ", "+3.5", ".5", "1.", "1e3", "-1.5E-3", "INF", "-INF", "NaN"]
DATATYPES = ["", "", "", f"^^<{XSD}string>", "^^<http://e.org/dt>", "@en", "@EN", "@en-GB", "@de-ch-1996", "@x"]
NUMERIC = [f"^^<{XSD}integer>", f"^^<{XSD}double>", f"^^<{XSD}decimal>", f"^^<{XSD}float>", f"^^<{XSD}byte>"]
ODD_DATATYPES = [f"^^<{XSD}date>", f"^^<{XSD}token>", f"^^<{XSD}boolean>", f"^^<{RDF}XMLLiteral>",
                 "^^<http://e.org/dt\\u0041>", "@1", "@en-"]
SPACE = st.sampled_from([" ", " ", "\t", "  ", " \t "])


@st.composite
def literals(draw, odd: bool, lexicals: list[str]) -> str:
    if draw(st.booleans()):  # one of the document's few lexical forms: the same one in several kinds
        return '"' + draw(st.sampled_from(lexicals)) + '"' + draw(st.sampled_from(DATATYPES))
    if draw(st.booleans()):  # a number (a valid one unless odd)
        lexical = draw(st.sampled_from(NUMBERS + (["x1", "1 2", "", "\\t"] if odd else [])))
        return f'"{lexical}"' + draw(st.sampled_from(NUMERIC + DATATYPES))
    pieces = draw(st.lists(st.sampled_from(PIECES + (ODD_PIECES if odd else [])), max_size=5))
    kinds = DATATYPES + (ODD_DATATYPES + NUMERIC if odd else [])
    return '"' + "".join(pieces) + '"' + draw(st.sampled_from(kinds))


@st.composite
def lines(draw, odd: bool, lexicals: list[str]) -> str:
    kind = draw(st.sampled_from(["triple"] * 8 + ["comment", "blank"] + (["bnode", "garbage"] if odd else [])))
    if kind == "comment":
        return draw(st.sampled_from(["# a comment", "  # indented", "#", "\t#x"]))
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t "] + (["\x0c"] if odd else [])))
    iris = st.sampled_from(IRIS + (ODD_IRIS if odd else []))
    s, p = (draw(st.sampled_from(IRIS[:2] * 8)) if draw(st.integers(0, 4)) else draw(iris) for _ in range(2))  # often the same
    o = draw(st.one_of(iris, literals(odd, lexicals)))
    if kind == "bnode":
        s = draw(st.sampled_from(["_:b0", "_:x", s]))
        o = draw(st.sampled_from(["_:b0", "_:y", o]))
    dot = draw(st.sampled_from([" .", ".", " . ", "\t.", " .# c", " . # c", " .#"]))
    line = f"{draw(st.sampled_from(['', ' ', chr(9)]))}{s}{draw(SPACE)}{p}{draw(SPACE)}{o}{dot}"
    if kind == "garbage":
        line = draw(st.sampled_from([line[:-1], line + " x", line.replace(" ", "", 1), line + " .",
                                     line.replace('"', "", 1), "<http://e.org/a> <http://e.org/b> ."]))
    return line


@st.composite
def documents(draw) -> str:
    odd = draw(st.integers(0, 3)) == 0  # a quarter of the documents may hold lines left to rdflib
    lexicals = draw(st.lists(st.lists(st.sampled_from(PIECES), max_size=3).map("".join), min_size=1, max_size=3))
    chosen = draw(st.lists(lines(odd, lexicals), max_size=12))
    if chosen and draw(st.booleans()):  # duplicate triples
        chosen += draw(st.lists(st.sampled_from(chosen), max_size=4))
        chosen = draw(st.permutations(chosen))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = end.join(chosen)
    return text + end if draw(st.booleans()) else text  # a final line end or not


def _rdflib_rows(static_files, named=None, caplog=None):
    """(rows of rdflib's path as N-Triples texts, or the error message; rdflib's log records)."""
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("rdflib")
    logger.addHandler(handler)
    try:
        rows = [(to_nt(s), to_nt(p), to_nt(o), None if g is None else to_nt(g))
                for s, p, o, g in dataset_quads(load_dataset(static_files, named))]
    except RsplarsError as err:
        rows = str(err)
    finally:
        logger.removeHandler(handler)
    return rows, records


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=documents())
def test_fast_reader_gives_rdflibs_facts(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, "d.nt", text)
    expected, records = _rdflib_rows([path])
    got = ntriples_quads([path])
    event("read without rdflib" if got is not None else "left to rdflib")
    if got is not None:
        assert got == expected  # the same texts, order and duplicates (and rdflib raised no error)
        assert records == []  # rdflib said nothing about it either
    # the facts of a run are rdflib's either way
    if not isinstance(expected, str) and "_:" not in text:  # (rdflib's blank nodes are random)
        assert load_static_facts([path]) == static_facts(load_dataset([path]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=documents(), second=documents(), graph=st.sampled_from(["http://e.org/g", "urn:x:g", "http://e.org/a"]))
def test_several_files_and_a_named_graph(tmp_path: Path, first: str, second: str, graph: str) -> None:
    """Files of the default graph are one graph (a triple of both is one fact); a named graph keeps
    its own; the rows of all graphs sorted together."""
    a, b, c = _write(tmp_path, "a.nt", first), _write(tmp_path, "b.NT", second), _write(tmp_path, "c.nt", first)
    expected, records = _rdflib_rows([a, b], {graph: c})
    got = ntriples_quads([a, b], {graph: c})
    if got is not None:
        assert got == expected and records == []


def test_the_fast_path_reads_common_documents(tmp_path: Path) -> None:
    """The comparison above is not vacuous: documents of IRIs, plain, language-tagged, numeric,
    xsd:string and unknown-datatype literals, with escapes, comments, duplicates, CRLF and no final
    line end are read without rdflib, in rdflib's order."""
    text = ("# sensors\r\n<http://e.org/s2> <http://e.org/p> \"b\\tc\\u00e9\\U0001F600\"@EN-gb .\r\n\r\n"
            "<http://e.org/s1>\t<http://e.org/p>  \"1\"^^<http://www.w3.org/2001/XMLSchema#integer>.# n\r\n"
            "<http://e.org/s1> <http://e.org/p> \"x\\ny\" .\r\n"
            "<http://e.org/s1> <http://e.org/p> \"x\\ny\"^^<http://www.w3.org/2001/XMLSchema#string> .\r\n"
            "<http://e.org/s1> <http://e.org/p> \"x\\ny\" .\r\n"
            "<http://e.org/s1> <http://e.org/q> \"v\"^^<http://e.org/dt> .\r\n"
            "<http://e.org/s1> <http://e.org/q> <http://e.org/o> .")
    path = _write(tmp_path, "d.nt", text)
    got = ntriples_quads([path])
    assert got is not None and got == _rdflib_rows([path])[0]
    assert len(got) == 6 and got[-1][2] == '"b\\tcé\U0001F600"@en-gb'
    assert got.count(("<http://e.org/s1>", "<http://e.org/p>", '"x\\ny"', None)) == 2  # "x\ny" and its xsd:string twin


@pytest.mark.parametrize("text", [
    "_:b <http://e.org/p> <http://e.org/o> .\n",  # rdflib gives the label a fresh random one
    '<http://e.org/s> <http://e.org/p> "1.5"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',  # rdflib warns
    '<http://e.org/s> <http://e.org/p> "2024-01-01"^^<http://www.w3.org/2001/XMLSchema#date> .\n',
    '<http://e.org/s> <http://e.org/p> " a  b "^^<http://www.w3.org/2001/XMLSchema#token> .\n',  # rewritten
    "<http://e.org/s> <http://e.org/p> <http://e.org/o>\n",  # no dot: rdflib's error
    "<http://e.org/s> <http://e.org/p> <http://e.org/\\u0041> .\n",
])
def test_lines_left_to_rdflib(tmp_path: Path, text: str) -> None:
    assert ntriples_quads([_write(tmp_path, "d.nt", text)]) is None


def test_other_formats_and_errors_go_through_rdflib(tmp_path: Path) -> None:
    ttl = _write(tmp_path, "d.ttl", "<http://e.org/s> <http://e.org/p> <http://e.org/o> .\n")
    nt = _write(tmp_path, "d.nt", "<http://e.org/s> <http://e.org/p> <http://e.org/o> .\n")
    assert ntriples_quads([ttl]) is None and ntriples_quads([nt, ttl]) is None
    assert ntriples_quads([ttl], fmt="nt") is not None and ntriples_quads([nt], fmt="turtle") is None
    assert load_static_facts([nt, ttl]) == static_facts(load_dataset([nt, ttl]))
    bad = _write(tmp_path, "bad.nt", "<http://e.org/s> <http://e.org/p> <http://e.org/o> .\n<http://e.org/s> oops .\n")
    with pytest.raises(RsplarsError) as fast:
        load_static_facts([bad])
    with pytest.raises(RsplarsError) as slow:
        load_dataset([bad])
    assert str(fast.value) == str(slow.value) and "Invalid line" in str(fast.value)
    with pytest.raises(RsplarsError, match="static data file not found"):
        load_static_facts([tmp_path / "missing.nt"])


def test_static_during_facts_are_unchanged(tmp_path: Path) -> None:
    nt = _write(tmp_path, "d.nt", '<http://e.org/s> <http://e.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
    assert hold_during(load_static_facts([nt]), 2, 13) == time_varying_facts(load_dataset([nt]), 2, 13)


def test_rdflib_converts_only_the_namespaces_left_to_it() -> None:
    """A literal whose datatype rdflib converts might be rewritten or warned about: those
    datatypes all lie in the namespaces the fast reader hands to ``literal_nt_text``."""
    from rdflib.term import _toPythonMapping

    assert all(dt is None or str(dt).startswith(static._CONVERTED) for dt in _toPythonMapping)


@given(name=st.text("aN.tT/_x", max_size=8))
def test_ntriples_names_are_rdflibs(name: str) -> None:
    from rdflib.util import guess_format

    if static._ntriples_name(name):
        assert guess_format(name) == "nt"
