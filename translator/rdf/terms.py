"""RDF terms ↔ LARS terms, losslessly, through their N-Triples form (D5, D7).

Dao-Tran, Beck, Eiter 2015, §2.3 reads an RDF triple ``(s, p, o)`` as the atom ``triple(s, p, o, g)`` (static data) or
``striple(s, p, o, stream)`` (stream data): the RDF terms become LARS (and so clingo) constants.
Spec D7 asks that this mapping loses nothing (IRIs, literals with datatype or language tag, blank
nodes), and D5 reserves one constant for an unbound variable.

The mapping used everywhere in rsplars:

* an RDF term is the LARS string :class:`lars.model.String` holding its **canonical N-Triples
  form** (RDF 1.1 N-Triples §2–3): ``<http://ex.org/a>``, ``"25"^^<http://www.w3.org/2001/XMLSchema#integer>``,
  ``"x"@en``, ``"plain"``, ``_:b0``;
* the unbound value is the constant ``null`` (:data:`NULL`), which no RDF term maps to.

Canonical means: one text per RDF term, so that two equal RDF terms give equal clingo symbols and
Datalog joins are RDF term equality (SPARQL §17.4.1.7 ``sameTerm``):

* ``"x"^^xsd:string`` is the same RDF 1.1 term as ``"x"`` and is written ``"x"``;
* a language tag is written in lower case (tags compare case-insensitively, RDF 1.1 Concepts §3.3);
* the lexical form of a literal is kept as it is (``"01"^^xsd:integer`` and ``"1"^^xsd:integer`` are
  different RDF terms; SPARQL ``=`` still finds them equal, see :mod:`translator.rdf.sparql_ops`);
* in strings, ``"`` ``\\`` and BS, HT, LF, FF, CR are escaped as ``\\"`` ``\\\\`` ``\\b`` ``\\t``
  ``\\n`` ``\\f`` ``\\r``, the other control characters as ``\\uXXXX`` (canonical N-Triples of
  RDF 1.2); in IRIs every character that N-Triples forbids in ``IRIREF``
  (controls, space, ``<>"{}|^`\\``) is escaped as ``\\uXXXX``.
"""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, overload

from lars.errors import SourceError
from lars.model import Constant, Integer, String, Term

if TYPE_CHECKING:
    from rdflib.term import BNode, Literal, URIRef

    RDFTerm = URIRef | BNode | Literal
else:
    RDFTerm = "rdflib.term.Identifier"  # URIRef | BNode | Literal (rdflib is imported on first use)

NULL = Constant("null")
"""The reserved LARS constant for an unbound variable (D5)."""

XSD_STRING_IRI = "http://www.w3.org/2001/XMLSchema#string"

# rdflib's term classes, bound by _load() on the first call that needs them: a run whose terms are
# all texts (N-Triples streams read as LARS texts, query constants printed from text) never
# imports rdflib, about 0.34 G instructions of a start-up (docs/performance.md, "Start-up")
if TYPE_CHECKING:  # for type checkers, the classes imported above and the IRIs _load() makes
    XSD_STRING: URIRef
    XSD_INTEGER: URIRef
else:
    URIRef = BNode = Literal = XSD_STRING = XSD_INTEGER = None


def _load() -> None:
    global URIRef, BNode, Literal, XSD_STRING, XSD_INTEGER
    from rdflib.term import BNode, Literal, URIRef

    XSD_STRING = URIRef(XSD_STRING_IRI)
    XSD_INTEGER = URIRef("http://www.w3.org/2001/XMLSchema#integer")

# ------------------------------------------------------------------------------- N-Triples lexing

_HEX = r"[0-9A-Fa-f]"
_UCHAR = rf"\\u{_HEX}{{4}}|\\U{_HEX}{{8}}"
_ECHAR = r"\\[tbnrf\"'\\]"
IRIREF = rf"<(?:[^\x00-\x20<>\"{{}}|^`\\]|{_UCHAR})*>"
_PN_CHARS_BASE = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
_PN_CHARS_U = _PN_CHARS_BASE + "_:"
_PN_CHARS = _PN_CHARS_U + r"\-0-9\u00b7\u0300-\u036f\u203f-\u2040"
BLANK_NODE_LABEL = rf"_:[{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?"
STRING_LITERAL_QUOTE = rf"\"(?:[^\"\\\n\r]|{_ECHAR}|{_UCHAR})*\""
LANGTAG = r"@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*"
LITERAL = rf"{STRING_LITERAL_QUOTE}(?:\^\^{IRIREF}|{LANGTAG})?"
TERM = rf"{IRIREF}|{BLANK_NODE_LABEL}|{LITERAL}"

_LITERAL_PARTS = re.compile(
    rf"(?P<lex>{STRING_LITERAL_QUOTE})(?:\^\^(?P<dt>{IRIREF})|(?P<lang>{LANGTAG}))?\Z"
)
_IRIREF_FULL = re.compile(rf"{IRIREF}\Z")


@functools.cache
def _bnode_full() -> re.Pattern:
    """The blank node label pattern, compiled on first use: its letter classes up to U+EFFFF take
    Python's ``re`` ≈ 20 ms to compile, which a run whose data has no blank node need not pay."""
    return re.compile(rf"{BLANK_NODE_LABEL}\Z")

_ESCAPE = re.compile(rf"{_ECHAR}|{_UCHAR}")
_ECHARS = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def unescape(text: str) -> str:
    """Resolve the N-Triples escapes ``ECHAR`` and ``UCHAR`` (RDF 1.1 N-Triples §2.4)."""

    def one(m: re.Match[str]) -> str:
        esc = m.group(0)
        if esc[1] in "uU":
            code = int(esc[2:], 16)
            if code > 0x10FFFF:
                raise ValueError(f"escape {esc} is not a Unicode code point")
            return chr(code)
        return _ECHARS[esc[1]]

    return _ESCAPE.sub(one, text)


# ----------------------------------------------------------------------------- canonical printing

_IRI_FORBIDDEN = re.compile(r"[\x00-\x20<>\"{}|^`\\]")
_STRING_ESCAPES = {
    '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f",
}
_STRING_FORBIDDEN = re.compile(r"[\"\\\x00-\x1f\x7f]")


def _escape_string(text: str) -> str:
    return _STRING_FORBIDDEN.sub(
        lambda m: _STRING_ESCAPES.get(m.group(0), f"\\u{ord(m.group(0)):04X}"), text
    )


def _escape_iri(text: str) -> str:
    return _IRI_FORBIDDEN.sub(lambda m: f"\\u{ord(m.group(0)):04X}", text)


def to_nt(term: RDFTerm) -> str:
    """The canonical N-Triples text of an RDF term (see the module docstring)."""
    if URIRef is None:
        _load()
    if isinstance(term, URIRef):
        return f"<{_escape_iri(str(term))}>"
    if isinstance(term, BNode):
        label = str(term)
        if not _bnode_full().match("_:" + label):
            raise ValueError(f"blank node label {label!r} is not valid in N-Triples")
        return f"_:{label}"
    if isinstance(term, Literal):
        body = f'"{_escape_string(str(term))}"'
        if term.language:
            return f"{body}@{term.language.lower()}"
        if term.datatype is not None and term.datatype != XSD_STRING:
            return f"{body}^^<{_escape_iri(str(term.datatype))}>"
        return body
    raise TypeError(f"not an RDF term: {term!r}")


def from_nt(text: str, *, source: str = "<term>", line: int | None = None,
            column: int | None = None) -> RDFTerm:
    """Parse one N-Triples term back into the rdflib term, exactly (inverse of :func:`to_nt`).

    Literals keep their lexical form (no normalisation); ``"x"^^xsd:string`` reads as ``"x"``.
    A malformed term raises :class:`SourceError` naming what was expected.
    """
    if URIRef is None:
        _load()
    try:
        if text.startswith("<"):
            if _IRIREF_FULL.match(text):
                return URIRef(unescape(text[1:-1]))
        elif text.startswith("_:"):
            if _bnode_full().match(text):
                return BNode(text[2:])
        elif text.startswith('"'):
            m = _LITERAL_PARTS.match(text)
            if m:
                lex = unescape(m.group("lex")[1:-1])
                if m.group("lang"):
                    return Literal(lex, lang=m.group("lang")[1:].lower())
                dt = URIRef(unescape(m.group("dt")[1:-1])) if m.group("dt") else None
                if dt == XSD_STRING:
                    dt = None
                return Literal(lex, datatype=dt, normalize=False)
    except ValueError as err:  # an escape beyond U+10FFFF
        raise SourceError(str(err), source=source, line=line, column=column) from None
    raise SourceError(
        f"malformed RDF term {text[:60]!r}",
        source=source,
        line=line,
        column=column,
        expected="an N-Triples term: <IRI>, _:label, or \"lexical\" with optional @lang or ^^<datatype>",
    )


# ------------------------------------------------------------------------ query constants as text

#: the characters rdflib's ``URIRef`` logs a warning about (``rdflib.term._invalid_uri_chars``)
_RDFLIB_WARNS = re.compile(r'[<>" {}|\\^`]')


def iri_nt(value: str) -> str:
    """``to_nt(URIRef(value))``, the N-Triples text of an IRI, from the text: rdflib builds the
    term only for an IRI it warns about (so that its warning is still logged)."""
    if _RDFLIB_WARNS.search(value) is None:
        return f"<{_escape_iri(value)}>"
    if URIRef is None:
        _load()
    return to_nt(URIRef(value))


#: a lexical form whose only whitespace is the space: where ``numeric_lexical`` reads a number,
#: rdflib's converters (``int``, ``Decimal``, ``float``) read it too (``str.strip`` also strips
#: controls such as U+001F, which ``int`` refuses, and rdflib logs that)
_PRINTABLE_ASCII = re.compile(r"[ -~]*")


def literal_nt(lexical: str, datatype: str | None = None, lang: str | None = None) -> str:
    """``to_nt(Literal(lexical, lang=lang, datatype=URIRef(datatype) if datatype else None,
    normalize=False))``, the N-Triples text of a literal of a query, from the text where rdflib
    keeps the lexical form and says nothing: a simple literal, an ``xsd:string``, a numeric literal
    of printable ASCII with a valid lexical form (its value converts). Anything else is built by rdflib, which may
    rewrite it (``xsd:normalizedString``/``xsd:token`` whitespace, a language tag's check) or log a
    warning (an ill-typed literal, an IRI it warns about)."""
    if not lang:
        text = literal_nt_text(lexical, datatype)
        if text is not None:
            return text
    if URIRef is None:
        _load()
    return to_nt(Literal(lexical, lang=lang, datatype=URIRef(datatype) if datatype else None, normalize=False))


@overload
def literal_nt_text(lexical: str, datatype: None = None) -> str: ...
@overload
def literal_nt_text(lexical: str, datatype: str | None) -> str | None: ...
def literal_nt_text(lexical: str, datatype: str | None = None) -> str | None:
    """The text path of :func:`literal_nt` for a literal without language tag: its N-Triples text
    where rdflib would keep the lexical form and say nothing (a simple literal, an ``xsd:string``,
    a numeric literal of printable ASCII with a valid lexical form), else ``None``."""
    if not datatype or datatype == XSD_STRING_IRI:
        return f'"{_escape_string(lexical)}"'
    from translator.rdf.sparql_ops import numeric_lexical

    if _PRINTABLE_ASCII.fullmatch(lexical) and numeric_lexical(lexical, datatype) is not None:
        return f'"{_escape_string(lexical)}"^^<{_escape_iri(datatype)}>'
    return None


# ------------------------------------------------------------------------------- LARS terms


def to_lars(term: RDFTerm | None) -> String | Constant:
    """RDF term → LARS term: ``String(to_nt(term))``; ``None`` (unbound) → :data:`NULL` (D5, D7)."""
    if term is None:
        return NULL
    return String(to_nt(term))


def from_lars(term: Term) -> RDFTerm | None:
    """LARS term → RDF term (inverse of :func:`to_lars`); :data:`NULL` → ``None``.

    An :class:`lars.model.Integer` (e.g. a clingo ``#count`` result) reads as an ``xsd:integer``
    literal. Any other term is not the image of an RDF term and raises ``ValueError``.
    """
    if term == NULL:
        return None
    if isinstance(term, String):
        return from_nt(term.value)
    if isinstance(term, Integer):
        if URIRef is None:
            _load()
        return Literal(str(term.value), datatype=XSD_INTEGER, normalize=False)
    raise ValueError(f"LARS term {term!r} does not denote an RDF term")


def canonical(term: RDFTerm) -> RDFTerm:
    """The term as :func:`from_nt` reads its :func:`to_nt` text back: ``"x"^^xsd:string`` becomes
    ``"x"`` and a language tag is lower-cased; everything else is returned unchanged."""
    if URIRef is None:
        _load()
    if isinstance(term, Literal):
        if term.language and term.language != term.language.lower():
            return Literal(str(term), lang=term.language.lower())
        if term.datatype == XSD_STRING:
            return Literal(str(term))
    return term


@contextmanager
def keep_lexical_forms() -> Iterator[None]:
    """Parse with rdflib without normalising literals (``"01"^^xsd:integer`` stays ``"01"``), so
    that data read by rdflib maps to the same LARS terms as the same text read by :func:`from_nt`."""
    import rdflib

    saved = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        yield
    finally:
        rdflib.NORMALIZE_LITERALS = saved
