"""The RDF ↔ LARS term mapping (D5, D7) round-trips, and agrees with rdflib's N-Triples parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import XSD

from lars.errors import SourceError
from lars.model import Constant, Integer, String
from translator.rdf.terms import NULL, canonical, from_lars, from_nt, to_lars, to_nt

pytestmark = pytest.mark.filterwarnings("ignore:Parsing weird boolean")

iris = st.text(min_size=1, max_size=30).map(lambda s: URIRef("http://ex.org/" + s))
lang_tags = st.from_regex(r"[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8}){0,2}", fullmatch=True)
datatypes = st.sampled_from([XSD.integer, XSD.decimal, XSD.double, XSD.boolean, XSD.dateTime,
                             XSD.string, URIRef("http://ex.org/my type")])
lexical = st.text(max_size=30)  # any unicode: quotes, backslashes, newlines, controls, surrogates
literals = st.one_of(
    lexical.map(Literal),
    st.builds(lambda s, l: Literal(s, lang=l), lexical, lang_tags),
    st.builds(lambda s, d: Literal(s, datatype=d, normalize=False), lexical, datatypes),
)
bnodes = st.from_regex(r"[A-Za-z0-9_]([A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?", fullmatch=True).map(BNode)
terms = st.one_of(iris, literals, bnodes)


def same_term(a, b) -> bool:
    return type(a) is type(b) and a == b and str(a) == str(b)


@settings(max_examples=400, deadline=None)
@given(terms)
def test_nt_round_trip(term):
    text = to_nt(term)
    back = from_nt(text)
    assert same_term(back, canonical(term))
    assert to_nt(back) == text  # canonical: one text per term


@settings(max_examples=200, deadline=None)
@given(terms)
def test_lars_round_trip(term):
    lars_term = to_lars(term)
    assert isinstance(lars_term, String)
    assert same_term(from_lars(lars_term), canonical(term))


@settings(max_examples=200, deadline=None)
@given(st.one_of(iris.filter(lambda i: not any(c.isspace() for c in i)), literals.filter(lambda l: l.datatype not in (XSD.integer, XSD.decimal, XSD.double,
                                                                   XSD.boolean, XSD.dateTime))))
def test_rdflib_reads_our_ntriples(term):
    """An independent oracle: rdflib's N-Triples parser reads ``to_nt`` text to the same term.

    (rdflib's N-Triples parser rejects Unicode white space such as U+00A0 inside ``<…>``, which
    N-Triples allows; such IRIs are left out here and covered by ``test_nt_round_trip``.)"""
    text = f"<http://ex.org/s> <http://ex.org/p> {to_nt(term)} .\n"
    # rdflib does not accept surrogates or all controls in IRIs; the lexical forms are what we test
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return
    graph = Graph().parse(data=text, format="nt")
    ((_, _, obj),) = list(graph)
    assert str(obj) == str(term)
    assert type(obj) is type(term)
    if isinstance(term, Literal):
        assert (obj.language or None) == (term.language.lower() if term.language else None)
        want_dt = None if term.datatype in (None, XSD.string) else term.datatype
        assert (obj.datatype if obj.datatype != XSD.string else None) == want_dt


def test_null_is_unbound():
    assert to_lars(None) == NULL == Constant("null")
    assert from_lars(NULL) is None


def test_examples():
    assert to_nt(Literal("25", datatype=XSD.integer)) == '"25"^^<http://www.w3.org/2001/XMLSchema#integer>'
    assert to_nt(Literal("x", lang="EN")) == '"x"@en'
    assert to_nt(Literal("x", datatype=XSD.string)) == '"x"'
    assert to_nt(Literal('a"b\\c\nd\te')) == r'"a\"b\\c\nd\te"'
    assert to_nt(URIRef("http://a/b c")) == r"<http://a/b\u0020c>"
    assert to_nt(BNode("b0")) == "_:b0"
    assert from_nt(r'"\U0001F600\u00e9"') == Literal("😀é")
    assert str(from_nt('"01"^^<http://www.w3.org/2001/XMLSchema#integer>')) == "01"  # not normalised
    assert from_lars(Integer(7)) == Literal(7)


@pytest.mark.parametrize("bad", ["<a b>", '"unterminated', '"x"@', "_:", "plain", '"x"^^xsd:int', "<a>x"])
def test_malformed_terms_are_source_errors(bad):
    with pytest.raises(SourceError, match="malformed RDF term"):
        from_nt(bad)


def test_from_lars_rejects_non_rdf_terms():
    with pytest.raises(ValueError):
        from_lars(Constant("tram"))


@settings(max_examples=300, deadline=None)
@given(terms)
def test_clingo_symbols_round_trip(term):
    """D7 down to clingo: the LARS string becomes a clingo string symbol, is printed as ASP text and
    parsed back by clingo without loss."""
    import clingo

    text = to_nt(term)
    symbol = clingo.String(text)
    back = clingo.parse_term(str(symbol))
    assert back.type == clingo.SymbolType.String and back.string == text
    assert same_term(from_nt(back.string), canonical(term))
