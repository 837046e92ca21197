"""The run path's readings and printings from text agree with rdflib's (docs/performance.md,
"Start-up"): a run that builds no rdflib term gives the same texts and numbers as one that does.

* :func:`translator.rdf.terms.iri_nt` / :func:`~translator.rdf.terms.literal_nt` print a query
  constant as ``to_nt`` prints the rdflib term built from it, and take the text path only where
  rdflib, building that term, logs nothing (its warnings are kept: rdflib builds those terms);
* :func:`translator.translate.numeric_tests.number_of_text` and
  ``translator.translate.expressions._number`` (aggregates, ORDER BY keys) read the number of a
  literal's N-Triples text as ``sparql_terms.numeric(from_nt(text))`` does;
* ``sparql_terms`` re-exports the numbers of ``sparql_ops`` as the same objects.
"""

from __future__ import annotations

import logging
import math

from hypothesis import example, given, settings, strategies as st
from rdflib import Literal, URIRef

from lars.errors import RsplarsError
from lars.model import Integer, String
from translator.rdf import sparql_ops, sparql_terms
from translator.rdf.sparql_ops import Number
from translator.rdf.terms import from_nt, iri_nt, literal_nt, to_nt
from translator.translate.expressions import _number, sparql_order_key
from translator.translate.numeric_tests import number_of_text

XSD = "http://www.w3.org/2001/XMLSchema#"
DATATYPES = [None, XSD + "string", XSD + "integer", XSD + "decimal", XSD + "float", XSD + "double",
             XSD + "byte", XSD + "unsignedLong", XSD + "positiveInteger", XSD + "normalizedString",
             XSD + "token", XSD + "boolean", XSD + "dateTime", XSD + "long", "http://example.org/dt",
             "http://example.org/d t", XSD + "integer\u0000"]
#: lexical forms around the numeric ones: signs, points, exponents, INF/NaN, whitespace, quotes,
#: escapes, controls, non-ASCII digits
NUMERALS = st.one_of(
    st.from_regex(r"\s?[+-]?[0-9]{0,4}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,3})?\s?", fullmatch=True),
    st.sampled_from(["INF", "-INF", "+INF", "NaN", "-NaN", "inf", "1_000", "٣", "1e400", "-0", "+.5",
                     "5.", ".", "", " 7 ", "\t8\n", "300", "-129", "18446744073709551616", '"1"', "1\\u0030"]),
    st.text(max_size=8),
)
LANGS = st.sampled_from([None, "", "en", "EN-us", "de-CH-1901"])
BAD_IRI = st.text(alphabet='ab:/#<>" {}|\\^`\u0000\n\u00e9', max_size=12)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _rdflib(build):
    """(result or exception type, rdflib's log records) of ``build()``."""
    handler = _Records()
    logger = logging.getLogger("rdflib")
    logger.addHandler(handler)
    try:
        try:
            got = build()
        except Exception as err:  # noqa: BLE001 - the same exception on both paths
            got = type(err)
    finally:
        logger.removeHandler(handler)
    return got, handler.records


def _ours(build):
    try:
        return build()
    except Exception as err:  # noqa: BLE001
        return type(err)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.from_regex(r"http://example\.org/[a-z0-9/#]{0,8}", fullmatch=True), BAD_IRI, st.text(max_size=10)))
@example("http://example.org/a b")
@example("")
def test_iri_nt_is_to_nt_of_the_uriref(value: str) -> None:
    want, logged = _rdflib(lambda: to_nt(URIRef(value)))
    got, ours_logged = _rdflib(lambda: iri_nt(value))
    assert got == want
    assert [r.getMessage() for r in ours_logged] == [r.getMessage() for r in logged]  # rdflib's warning kept


@settings(max_examples=1000, deadline=None)
@given(NUMERALS, st.sampled_from(DATATYPES), LANGS)
@example("1.5", XSD + "float", None)
@example(" a  b ", XSD + "token", None)
@example("x", None, "EN")
@example("abc", XSD + "integer", None)
def test_literal_nt_is_to_nt_of_the_literal(lexical: str, datatype: str | None, lang: str | None) -> None:
    def rdflib_term():
        if lang and datatype:
            return to_nt(Literal(lexical, lang=lang))  # the query model has one or the other
        return to_nt(Literal(lexical, lang=lang, datatype=URIRef(datatype) if datatype else None, normalize=False))

    want, logged = _rdflib(rdflib_term)
    got, ours_logged = _rdflib(lambda: literal_nt(lexical, None if lang else datatype, lang))
    assert got == want
    assert [r.getMessage() for r in ours_logged] == [r.getMessage() for r in logged]  # rdflib's warnings kept


def _typed_texts():
    """N-Triples texts of typed literals (as to_nt writes them) and odd texts around them."""
    written = st.builds(lambda lex, dt: to_nt(Literal(lex, datatype=URIRef(dt), normalize=False)),
                        NUMERALS, st.sampled_from([d for d in DATATYPES if d and " " not in d and "\u0000" not in d]))
    odd = st.one_of(
        st.builds(lambda lex, dt: f'"{lex}"^^<{dt}>', NUMERALS, st.sampled_from([d for d in DATATYPES if d])),
        st.sampled_from(['"1"', '"1"@en', "<http://example.org/1>", "_:b1", '"1"^^<http://www.w3.org/2001/XMLSchema\\u0023integer>',
                         '"1\\u0030"^^<http://www.w3.org/2001/XMLSchema#integer>', '"1\n"^^<http://www.w3.org/2001/XMLSchema#integer>',
                         '"1"^^<http://www.w3.org/2001/XMLSchema#integer', "null", ""]),
        st.text(max_size=12),
    )
    return st.one_of(written, odd)


def _numeric_of_rdflib(text: str):
    try:
        return sparql_terms.numeric(from_nt(text))
    except (ValueError, RsplarsError):
        return "unreadable"


def same_number(a, b) -> bool:
    """Equal, with NaN equal to NaN of the same kind (NaN is the value of ``"NaN"^^xsd:float``)."""
    if isinstance(a, Number) and isinstance(b, Number) and isinstance(a.value, float) and isinstance(b.value, float):
        return a.kind == b.kind and (a.value == b.value or (math.isnan(a.value) and math.isnan(b.value)))
    return a == b


@settings(max_examples=1000, deadline=None)
@given(_typed_texts())
@example('"NaN"^^<http://www.w3.org/2001/XMLSchema#float>')
def test_numbers_read_from_text_are_rdflibs(text: str) -> None:
    want, logged = _rdflib(lambda: _numeric_of_rdflib(text))
    got = number_of_text(text)
    if got is not None:  # the fast reading: only where it is the literal's number and rdflib says nothing
        assert same_number(got, want) and logged == []
    ours = _ours(lambda: _number(String(text)))
    if want == "unreadable":
        assert ours is None or isinstance(ours, type)  # a malformed text: None (ValueError) or the error
    else:
        assert same_number(ours, want)
        key = sparql_order_key(String(text))  # numbers are keyed from their value, others from the term
        assert key.args[5] == String(text) and (want is None or key.args[0] == Integer(2))


def test_sparql_terms_gives_the_numbers_as_sparql_ops_objects() -> None:
    for name in ("Number", "ExprError", "numeric_lexical", "number_lexical", "arith_value", "KIND_TYPE"):
        assert getattr(sparql_terms, name) is getattr(sparql_ops, name)
    assert sparql_terms.number_literal(sparql_ops.FLOAT, 1.5).datatype == URIRef(sparql_ops.KIND_TYPE[sparql_ops.FLOAT])
    assert dict(sparql_terms.INTEGER_RANGES)[URIRef(XSD + "byte")] == (-128, 127)
