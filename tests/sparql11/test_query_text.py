"""The query text: codepoint escapes (SPARQL 1.1 §19.2, ``translator.query.escapes``) and ``!``
applied to a unary expression (``!!?v``), with pyoxigraph as the oracle of the answers."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from oxigraph_oracle import from_ox
from translator.query.errors import QuerySyntaxError
from translator.query.escapes import unescape
from translator.query.parse import parse
from translator.rdf.terms import to_nt

DATA = '<http://e/x> <http://e/p> "xxx" .\n<http://e/x> <http://e/q> "true"^^<http://www.w3.org/2001/XMLSchema#boolean> .\n<http://e/é> <http://e/p> "😀" .\n'


def oxigraph(query: str) -> list[dict[str, str]]:
    store = ox.Store()
    store.load(DATA.encode(), ox.RdfFormat.N_TRIPLES)
    solutions = store.query(query)
    names = [v.value for v in solutions.variables]
    return sorted(({n: to_nt(from_ox(row[n])) for n in names if row[n] is not None} for row in solutions),
                  key=lambda d: sorted(d.items()))


@pytest.mark.parametrize("query", [
    r'SELECT ?s WHERE { ?s <http://e/p> "xx\u0078" }',
    r'SELECT ?s WHERE { ?s <http://e/p> "\U0001F600" }',
    r'SELECT ?o WHERE { <http://e/\u00E9> <http://e/p> ?o }',
    r'SELECT ?v WHERE { ?s <http://e/q> ?v FILTER(!!?v) }',
    r'SELECT ?v WHERE { ?s <http://e/q> ?v FILTER(!!!?v) }',
    r'SELECT (!!!false AS ?v) WHERE { }',
    r'SELECT (STR("\\u0061") AS ?v) WHERE { }',  # an escaped backslash starts no escape
])
def test_answers_as_oxigraph(rsplars, query: str) -> None:
    run = rsplars(query, DATA)
    assert run.code == 0, run.err
    got = sorted(run.answers(), key=lambda d: sorted(d.items()))
    assert got == oxigraph(query)


def test_escapes_anywhere_in_the_text(rsplars) -> None:
    """§19.2: "Codepoint escape sequences can appear anywhere in the query string", keywords and
    punctuation included (``a\\u003Ab`` is ``a:b``)."""
    for query in (r'PREFIX e\u003A <http://e/> SEL\u0045CT ?o WHERE \u007B e:x e\u003Ap ?o }',
                  r'PREFIX \u03B1: <http://e/> SELECT ?o WHERE { α:x α:p ?o }'):
        run = rsplars(query, DATA)
        assert run.code == 0, run.err
        assert run.answers() == [{"o": '"xxx"'}]


def test_a_syntax_error_keeps_the_written_line_and_column() -> None:
    text = 'SELECT ?o\nWHERE { <http://e/\\u00E9> <http://e/p> "\\u00E9\\U0001F600" ?? }'
    with pytest.raises(QuerySyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (2, text.splitlines()[1].index("??") + 1)
    assert "\\u00E9" in str(err)  # the line as written


@pytest.mark.parametrize("escape, where", [(r"\uD800", 18), (r"\uDC00", 18), (r"\uD83D\uDE00", 18), (r"\U00110000", 18), (r"\u00G1", 18)])
def test_an_escape_of_no_character_is_a_syntax_error_at_it(escape: str, where: int) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse(f'SELECT * {{ ?s ?p "{escape}" }}')
    assert (info.value.line, info.value.column) == (1, where + 1)


def test_the_source_map_points_back_at_the_written_text() -> None:
    text = 'a\\u0062c\n\\U0001F600d'
    m = unescape(text)
    assert m.replaced == "abc\n😀d"
    assert [text[m.offset(i)] for i in range(len(m.replaced))] == ["a", "\\", "c", "\n", "\\", "d"]
    assert m.position(2, 2) == (2, 11)


def test_a_query_without_escapes_is_unchanged() -> None:
    text = 'SELECT * { ?s ?p "\\\\u0061" }'
    assert unescape(text).replaced == text
