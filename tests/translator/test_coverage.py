"""The SPARQL / RSP coverage table (docs/coverage.md): every test it cites exists, every row
says supported or unsupported, and the constructs it lists as unsupported fail with a named
*unsupported* error (never a traceback, never a wrong answer). Also the CQELS window kinds
``[NOW]``, ``[ALL]`` and ``[TRIPLES n]`` against a direct computation of their content."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rdflib import URIRef

from lars import reference
from lars.errors import RsplarsError, UnsupportedError
from lars.model import Atom, Stream
from translator.query.parse import parse
from translator.rdf.terms import from_lars, to_lars, to_nt
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "coverage.md"
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def coverage_section() -> str:
    """The coverage page: its tables of SPARQL 1.1 and of the RSP dialects."""
    text = TABLE.read_text(encoding="utf-8")
    assert text.startswith("# SPARQL 1.1 and RSP coverage\n")
    return text


def table_rows() -> list[list[str]]:
    rows = []
    for line in coverage_section().splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]  # \| is a | in a cell
            if cells[0] not in ("feature", "construct"):
                rows.append(cells)
    return rows


def test_every_cited_test_exists() -> None:
    cited = REFERENCE.findall(coverage_section())
    assert len(cited) >= 40
    for path, name in cited:
        source = ROOT / path
        assert source.is_file(), path
        assert re.search(rf"^(async )?def {name}\(", source.read_text(encoding="utf-8"), re.M), f"{path}::{name}"


def test_every_row_has_a_status_and_a_test() -> None:
    rows = table_rows()
    assert len(rows) >= 50
    for cells in rows:
        status = cells[1]
        assert re.match(r"\*\*(supported|unsupported|extension|partial)\*\*", status), cells
        assert REFERENCE.search(cells[-1]), cells


# ------------------------------------------------------------------------- unsupported, by name

UNSUPPORTED = [
    ("SELECT * WHERE { STREAM ?st [RANGE 2s] { <http://a> <http://p>* ?o } }",
     "a zero-length property path with a constant end inside STREAM ?var"),
    ("SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } LIMIT 1 } }", "LIMIT in a sub-query"),
    ("SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } OFFSET 1 } }", "OFFSET in a sub-query"),
    ("SELECT * WHERE { STREAM ?st [RANGE 2s] { { SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } } } }",
     "a sub-query with GROUP BY or aggregates inside STREAM ?var"),
    ("SELECT * WHERE { ?s ?p ?o BIND(EXISTS { ?o ?p ?s } AS ?b) }", "EXISTS / NOT EXISTS"),
    ("SELECT * WHERE { ?s ?p ?o FILTER(IF(NOT EXISTS { ?o ?p ?s }, true, false)) }", "EXISTS / NOT EXISTS"),
    ("SELECT * WHERE { ?s ?p ?o OPTIONAL { ?o ?p ?x FILTER EXISTS { ?x ?p ?s } } }", "EXISTS / NOT EXISTS"),
    ("SELECT * WHERE { ?s ?p ?o OPTIONAL { ?o ?p ?x } FILTER EXISTS { ?x ?p ?s } }", "EXISTS reading ?x"),
    ("SELECT * WHERE { ?s ?p ?o FILTER EXISTS { ?s ?p ?x OPTIONAL { ?x ?p ?o } } }", "EXISTS reading ?o"),
    ("SELECT * WHERE { ?s ?p ?s FILTER EXISTS { ?s ?p ?s MINUS { ?y ?p ?y } } }", "MINUS inside EXISTS"),
    ("SELECT * WHERE { ?s ?p ?o BIND(NOW() AS ?t) }", "NOW"),
    ("SELECT * WHERE { ?s ?p ?o BIND(<http://example.org/f>(?o) AS ?t) }", "the function call"),
    ("SELECT * WHERE { STREAM <http://s> [RANGE 2s] { ?s ?p ?o STREAM <http://t> [NOW] { ?o ?p ?s } } }",
     "a STREAM pattern inside a STREAM pattern"),
    ("SELECT * WHERE { STREAM <http://s> [RANGE 2s] { ?s ?p ?o GRAPH <http://g> { ?o ?p ?s } } }",
     "a GRAPH pattern inside a STREAM pattern"),
    ("SELECT * WHERE { ?s ?p ?o BIND(1 AS ?o) }", "BIND to ?o, already in scope"),
]


@pytest.mark.parametrize("text, construct", UNSUPPORTED, ids=[c for _, c in UNSUPPORTED])
def test_unsupported_constructs_fail_by_name(text: str, construct: str) -> None:
    with pytest.raises(UnsupportedError, match=re.escape(construct)):
        compile_query(parse(text, "cqels"), strategy="tau2", mode="none")


@pytest.mark.parametrize("text, construct", [
    ("SELECT DISTINCT ?s WHERE { ?s ?p ?o } ORDER BY ?o LIMIT 1", "ORDER BY over ?o, which the answers do not hold"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?s ORDER BY DESC(MAX(?o))",
     "ORDER BY with an aggregate or EXISTS that the SELECT clause does not compute"),
])
def test_order_by_keys_the_answers_do_not_hold_fail_by_name_when_run(text: str, construct: str, tmp_path,
                                                                      cli) -> None:
    """ORDER BY reads any variable the answers hold (the projected ones and, with multisets, every other
    variable in scope): a key they do not hold is refused by name before the first evaluation."""
    query, data = tmp_path / "q.rq", tmp_path / "d.ttl"
    query.write_text(text)
    data.write_text("<http://e/a> <http://e/p> 1 .\n")
    code, out, err = cli("run", query, "--static", data)
    assert code == 2 and out == "" and construct in err, err


def test_epsparql_event_operators_are_not_tau() -> None:
    """τ has no case for the event operators (EP-SPARQL has its own translation, docs/epsparql.md)."""
    text = (ROOT / "tests/data/queries/extra/epsparql_paper_seq.rq").read_text()
    with pytest.raises(UnsupportedError, match="EP-SPARQL event operator SEQ"):
        compile_query(parse(text), mode="none")


def test_service_is_a_located_syntax_error() -> None:
    with pytest.raises(RsplarsError, match="1:18"):
        parse("SELECT * WHERE { SERVICE <http://x> { ?s ?p ?o } }", "cqels")


# ------------------------------------------------------------------------------- window kinds

S, P = URIRef("http://example.org/s"), URIRef("http://example.org/p")
#: one triple per time point (the tuple window is then unambiguous)
ELEMENTS = [(1, URIRef("http://example.org/a")), (2, URIRef("http://example.org/b")),
            (4, URIRef("http://example.org/c")), (5, URIRef("http://example.org/d"))]


def expected(kind: str, t: int) -> set:
    upto = [(time, o) for time, o in ELEMENTS if time <= t]
    if kind == "NOW":
        chosen = [o for time, o in upto if time == t]
    elif kind == "ALL":
        chosen = [o for _, o in upto]
    else:  # TRIPLES 2: the last two triples of the stream up to t
        chosen = [o for _, o in upto[-2:]]
    return {(to_nt(o),) for o in chosen}


@pytest.mark.parametrize("kind", ["NOW", "ALL", "TRIPLES 2"])
def test_cqels_window_kinds_against_their_content(kind: str) -> None:
    compiled = compile_query(parse(f"SELECT ?o WHERE {{ STREAM <{S}> [{kind}] {{ ?x <{P}> ?o }} }}", "cqels"),
                             mode="none")
    points = {time: (Atom("striple", (to_lars(URIRef("http://example.org/x")), to_lars(P), to_lars(o), to_lars(S))),)
              for time, o in ELEMENTS}
    stream = Stream(points, 0, 6)
    for t in range(0, 7):
        answer = reference.answer_at(compiled.program, stream, t, functions=FUNCTIONS)
        got = {tuple(to_nt(from_lars(a)) for a in atom.args[:len(compiled.variables)]) for atom in answer if atom.predicate == "answer"}
        assert got == expected(kind, t), (kind, t)


def test_csparql_timestamp_function_fails_by_name() -> None:
    text = ("REGISTER QUERY q AS SELECT ?s FROM STREAM <http://s> [RANGE 2s STEP 1s] "
            "WHERE { ?s <http://p> ?o FILTER(timestamp(?s, <http://p>, ?o) > 1) }")
    with pytest.raises(UnsupportedError, match="(?i)timestamp"):
        compile_query(parse(text, "csparql"), mode="none")


def test_cqels_stream_variable_reads_every_stream_in_its_window() -> None:
    """``STREAM ?s [RANGE 2s] { … }``: the solutions of every stream, each in its own window, with
    ?s bound to the stream (the window content computed here directly)."""
    s1, s2 = URIRef("http://example.org/s1"), URIRef("http://example.org/s2")
    elements = [(1, s1, URIRef("http://example.org/a")), (2, s2, URIRef("http://example.org/b")),
                (4, s1, URIRef("http://example.org/c"))]
    compiled = compile_query(parse(f"SELECT ?s ?o WHERE {{ STREAM ?s [RANGE 2s] {{ ?x <{P}> ?o }} }}", "cqels"),
                             mode="none")
    x = to_lars(URIRef("http://example.org/x"))
    stream = Stream({time: (Atom("striple", (x, to_lars(P), to_lars(o), to_lars(s))),) for time, s, o in elements}, 0, 6)
    for t in range(0, 7):
        answer = reference.answer_at(compiled.program, stream, t, functions=FUNCTIONS)
        got = {tuple(to_nt(from_lars(a)) for a in atom.args[:len(compiled.variables)]) for atom in answer if atom.predicate == "answer"}
        assert got == {(to_nt(s), to_nt(o)) for time, s, o in elements if t - 2 <= time <= t}, t
