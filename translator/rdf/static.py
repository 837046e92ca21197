"""Static (background) data: the dataset ``D`` of a query (Dao-Tran, Beck, Eiter 2015, §3).

``--static FILE`` (repeatable) is read into the default graph, ``--named IRI=FILE`` into the named
graph ``IRI``; any syntax rdflib reads (Turtle, N-Triples, N3, RDF/XML, JSON-LD, TriG, N-Quads …,
guessed from the extension). In the LARS view a triple ``(s, p, o)`` of graph ``g`` is the fact
``triple(s, p, o, g)`` (Dao-Tran, Beck, Eiter 2015, §4.3), see :func:`dataset_quads` and :func:`load_static_facts`.

N-Triples files (``.nt``) are read without rdflib when every line is one that rdflib's N-Triples
parser reads into the same terms and says nothing about (:func:`ntriples_quads`): the facts are
those of rdflib's path, in its order, with its duplicates. A file with another line (a blank node,
an escape in an IRI, a literal rdflib would convert or rewrite, a syntax error …) and every other
syntax go through rdflib, all the files of the run together, as before.

Parse errors become :class:`lars.errors.SourceError` with the line (and column) where rdflib
reports one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Sequence, TypeVar, cast

from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Constant, Rule, String
from translator.rdf.terms import (
    LANGTAG,
    STRING_LITERAL_QUOTE,
    XSD_STRING_IRI,
    RDFTerm,
    canonical,
    keep_lexical_forms,
    literal_nt_text,
    to_nt,
    unescape,
)
from translator.rdf.predicates import DEFAULT_GRAPH, TRIPLE  # the names of Dao-Tran, Beck, Eiter 2015, §4.3 (i)

if TYPE_CHECKING:  # rdflib is imported where a file is parsed by it (not for plain N-Triples)
    from rdflib import BNode, Dataset, Graph, URIRef

#: extensions rdflib's guess_format does not know
_EXTRA_FORMATS = {".ttl": "turtle", ".nq": "nquads", ".jsonld": "json-ld", ".json": "json-ld"}
QUAD_FORMATS = ("trig", "nquads", "trix", "json-ld")


def rdf_format(path: str | Path, fmt: str | None = None) -> str:
    """The rdflib format name for ``path``: ``fmt`` if given, else guessed from the extension."""
    if fmt:
        return fmt
    if _ntriples_name(path):
        return "nt"
    from rdflib.util import guess_format

    suffix = Path(path).suffix.lower()
    return guess_format(str(path)) or _EXTRA_FORMATS.get(suffix) or "turtle"


def _ntriples_name(path: str | Path) -> bool:
    """Whether rdflib's ``guess_format`` names ``path`` N-Triples by its extension (``.nt`` in any
    case), without importing rdflib; other names rdflib guesses ``nt`` for are left to it."""
    return os.path.splitext(str(path))[1].lower() == ".nt"


def _parse_into(graph: Graph, path: str | Path, fmt: str | None) -> None:
    from rdflib.plugins.parsers.notation3 import BadSyntax

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RsplarsError(f"static data file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RsplarsError(f"cannot read static data file {path}: {err}") from None
    fmt = rdf_format(path, fmt)
    try:
        with keep_lexical_forms():
            graph.parse(data=text, format=fmt, publicID=path.resolve().as_uri())
    except BadSyntax as err:
        start = text.rfind("\n", 0, err._i) + 1  # noqa: SLF001 - rdflib keeps the offset there
        raise SourceError(
            f"{fmt} syntax error: {err._why}", source=str(path), line=err.lines + 1,  # noqa: SLF001
            column=err._i - start + 1, text=text, expected=f"valid {fmt}",
        ) from None
    except Exception as err:  # noqa: BLE001 - rdflib's parsers raise many exception types
        line = _line_of(err)
        raise SourceError(
            f"{fmt} syntax error: {_first_line(err)}", source=str(path), line=line,
            text=text if line else None, expected=f"valid {fmt}",
        ) from None


def _line_of(err: Exception) -> int | None:
    """The line an rdflib parser error names (SAX errors, N-Triples/N-Quads ``Invalid line``)."""
    getter = getattr(err, "getLineNumber", None)
    if callable(getter):
        try:
            return int(getter())
        except (TypeError, ValueError):
            return None
    m = re.search(r"\bline:? (\d+)", str(err), re.IGNORECASE)
    return int(m.group(1)) if m else None


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def load_static(path: str | Path, fmt: str | None = None) -> Graph:
    """One static data file as an rdflib ``Graph`` (``--static FILE``)."""
    from rdflib import Graph

    graph = Graph()
    _parse_into(graph, path, fmt)
    return graph


def load_dataset(
    static: Sequence[str | Path] = (),
    named: Mapping[str, str | Path] | None = None,
    fmt: str | None = None,
) -> Dataset:
    """The static dataset: every ``static`` file into the default graph, each ``named`` IRI → file
    into that named graph. A quad file (TriG, N-Quads) given as ``static`` keeps its own named
    graphs."""
    from rdflib import Dataset, URIRef

    ds = Dataset()
    for path in static:
        if rdf_format(path, fmt) in QUAD_FORMATS:
            _parse_into(ds, path, fmt)
        else:
            _parse_into(ds.default_graph, path, fmt)
    for iri, path in (named or {}).items():
        _parse_into(ds.graph(URIRef(iri)), path, fmt)
    return ds


def dataset_quads(ds: Dataset) -> Iterator[tuple[RDFTerm, RDFTerm, RDFTerm, URIRef | BNode | None]]:
    """Every triple of the dataset with its graph: ``None`` for the default graph, else the
    graph name (an IRI, or a blank node where TriG names a graph by one); terms canonical
    (:func:`translator.rdf.terms.canonical`), order deterministic."""
    default = ds.default_graph.identifier
    # rdflib types a term as any Node (a formula is one, in N3); a dataset parsed from RDF files
    # holds IRIs, blank nodes and literals, and names its graphs by IRIs or blank nodes
    quads = cast("Iterator[tuple[RDFTerm, RDFTerm, RDFTerm, URIRef | BNode | None]]",
                 ds.quads((None, None, None, None)))
    rows: list[tuple[RDFTerm, RDFTerm, RDFTerm, URIRef | BNode | None]] = []
    for s, p, o, g in quads:
        graph = None if g is None or g == default else g
        rows.append((canonical(s), canonical(p), canonical(o), graph))
    rows.sort(key=lambda q: tuple("" if x is None else x.n3() for x in q))
    return iter(rows)




def static_facts(ds: Dataset, *, predicate: str = TRIPLE,
                 default_graph: Constant = DEFAULT_GRAPH) -> tuple[Rule, ...]:
    """The static dataset as LARS facts ``triple(S, P, O, G)`` (Dao-Tran, Beck, Eiter 2015, §4.3 (i)): ``G`` is
    ``default`` for the default graph, else the graph IRI's term (:func:`to_lars`). Facts hold at
    every time point (D11)."""
    rows = ((to_nt(s), to_nt(p), to_nt(o), None if g is None else to_nt(g)) for s, p, o, g in dataset_quads(ds))
    return _facts(rows, predicate, default_graph)


def _facts(rows: Iterable[tuple[str, str, str, str | None]], predicate: str,
           default_graph: Constant) -> tuple[Rule, ...]:
    """``triple(S, P, O, G)`` of rows of N-Triples texts (``G`` ``None``: the default graph): each
    term the LARS string of its text (:func:`translator.rdf.terms.to_lars`)."""
    return tuple(Rule(Atom(predicate, (String(s), String(p), String(o), default_graph if g is None else String(g))))
                 for s, p, o, g in rows)


def load_static_facts(static: Sequence[str | Path] = (), named: Mapping[str, str | Path] | None = None,
                      fmt: str | None = None, *, predicate: str = TRIPLE,
                      default_graph: Constant = DEFAULT_GRAPH) -> tuple[Rule, ...]:
    """``static_facts(load_dataset(static, named, fmt))``, the same facts in the same order, read
    without rdflib when every file is N-Triples that :func:`ntriples_quads` reads."""
    rows = ntriples_quads(static, named, fmt)
    if rows is None:
        return static_facts(load_dataset(static, named, fmt), predicate=predicate, default_graph=default_graph)
    return _facts(rows, predicate, default_graph)


def time_varying_facts(ds: Dataset, start: int | None, end: int | None, *, predicate: str = TRIPLE,
                       default_graph: Constant = DEFAULT_GRAPH) -> tuple[Rule, ...]:
    """A static dataset that holds only from ``start`` to ``end`` (base units, both included;
    ``None``: unbounded) — one piece of a time-varying graph G(t) (Dell'Aglio et al. 2014, Definition 10, Example 4): :func:`hold_during` of its :func:`static_facts`."""
    return hold_during(static_facts(ds, predicate=predicate, default_graph=default_graph), start, end)


def hold_during(facts: Iterable[Rule], start: int | None, end: int | None) -> tuple[Rule, ...]:
    """Static facts that hold only from ``start`` to ``end`` (base units, both included; ``None``:
    unbounded): each fact ``triple(S, P, O, G)`` becomes the LARS rule ``triple(S, P, O, G) ← ⊞^0 @_T
    true, T ≥ start, T ≤ end``, true exactly at the time points of the interval (``--static-during``,
    docs/check.md)."""
    from lars.model import NOW, TRUE, Comparison, Integer, Literal, Variable, WindowAt

    T = Variable("T")
    guard: list = [Literal(WindowAt(NOW, TRUE, T))]
    if start is not None:
        guard.append(Comparison(">=", T, Integer(start)))
    if end is not None:
        guard.append(Comparison("<=", T, Integer(end)))
    return tuple(Rule(rule.head, tuple(guard)) for rule in facts)


# ------------------------------------------------------------------------- N-Triples without rdflib

#: an IRI that rdflib's N-Triples parser reads as written (``<([^:]+:[^\s"<>]*)>``, no escape to
#: resolve) into a ``URIRef`` it does not warn about, whose N-Triples text and ``n3()`` are the token
#: itself: no control character, no (Unicode) white space, none of ``<>"{}|^`\``, a colon after
#: at least one character
_IRI = r'<[^\s<>"{}|^`\\\x00-\x20:]+:[^\s<>"{}|^`\\\x00-\x20]*>'
_IRI_FULL = re.compile(_IRI + r"\Z")
#: a line of N-Triples as rdflib's parser reads it (``W3CNTriplesParser.parseline``): white space
#: (blanks and tabs) before, between (at least one) and after the terms, the final dot, a comment;
#: or a blank or comment line. Literals are N-Triples' ``STRING_LITERAL_QUOTE`` (whose escapes are
#: those rdflib resolves) with a language tag or an IRI datatype. No blank node: rdflib gives each
#: label a fresh random one. No part matches a line feed, so each match is one whole line.
_LINES = re.compile(
    rf"^[ \t]*(?:({_IRI})[ \t]+({_IRI})[ \t]+(?:({_IRI})|({STRING_LITERAL_QUOTE})(?:\^\^({_IRI})|({LANGTAG}))?)"
    rf"[ \t]*\.[ \t]*)?(?:#.*)?$", re.MULTILINE)
#: namespaces of the datatypes rdflib converts (``rdflib.term._toPythonMapping``): a literal of such a
#: datatype is read here only if :func:`translator.rdf.terms.literal_nt_text` can (rdflib might
#: rewrite its lexical form or log a warning); a literal of any other datatype is kept as written
_CONVERTED = ("http://www.w3.org/2001/XMLSchema#", "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
#: the identifier of rdflib's default graph: ``--named`` with it is left to rdflib
_RDFLIB_DEFAULT_GRAPH = "urn:x-rdflib:default"
NTRIPLES_FORMATS = ("nt", "ntriples")

# a term read from text: (its canonical N-Triples text, rdflib's n3() of the canonical term,
# whether it was written "…"^^xsd:string, which rdflib keeps apart from "…" until canonical())
_Term = tuple[str, str, bool]


def ntriples_quads(static: Sequence[str | Path] = (), named: Mapping[str, str | Path] | None = None,
                   fmt: str | None = None) -> list[tuple[str, str, str, str | None]] | None:
    """``(s, p, o, g)`` of :func:`dataset_quads` of ``load_dataset(static, named, fmt)`` as
    N-Triples texts (``g`` ``None`` for the default graph), in the same order, read without rdflib;
    ``None`` if some file is not N-Triples (by ``fmt`` or its extension), cannot be read, or has a
    line this reader leaves to rdflib (``_LINES``, :func:`_literal`): then rdflib reads them all.

    Like rdflib's dataset, a triple is kept once per graph (terms compared as rdflib compares them:
    ``"x"@EN`` is ``"x"@en``, ``"x"^^xsd:string`` is not ``"x"``); the rows are sorted by the
    ``n3()`` of their canonical terms, as :func:`dataset_quads` sorts them."""
    if fmt and fmt not in NTRIPLES_FORMATS:
        return None
    files: list[tuple[str | None, str | Path]] = [(None, path) for path in static]
    files += list((named or {}).items())
    quads: dict[tuple, tuple[tuple[str, str, str, str | None], tuple[str, str, str, str]]] = {}
    terms: dict[tuple, _Term | None] = {}
    for iri, path in files:
        if not fmt and not _ntriples_name(path):
            return None
        graph = None if iri is None else f"<{iri}>"
        if graph is not None and (iri == _RDFLIB_DEFAULT_GRAPH or not _IRI_FULL.match(graph)):
            return None
        try:
            text = Path(path).read_text(encoding="utf-8")  # as _parse_into reads it (line ends as LF)
        except (OSError, UnicodeDecodeError):
            return None  # rdflib's path names the error
        found = _LINES.findall(text)
        if len(found) != text.count("\n") + 1:  # some line is not one of _LINES
            return None
        o: _Term | None
        for s, p, iri_object, quoted, datatype, lang in found:
            if not s:
                continue  # a blank or comment line
            if iri_object:
                o = (iri_object, iri_object, False)
            else:
                key = (quoted, datatype, lang)
                o = terms[key] if key in terms else terms.setdefault(key, _literal(quoted, datatype, lang))
                if o is None:
                    return None
            quads.setdefault((s, p, o[0], o[2], graph), ((s, p, o[0], graph), (s, p, o[1], graph or "")))
    rows = sorted(quads.values(), key=_second)
    return [row for row, _ in rows]


_Key = TypeVar("_Key")


def _second(pair: tuple[object, _Key]) -> _Key:
    return pair[1]


def _literal(quoted: str, datatype: str, lang: str) -> _Term | None:
    """The literal ``quoted`` (in its quotes, escapes unresolved) ``@lang`` or ``^^datatype`` as
    rdflib's N-Triples parser and :func:`translator.rdf.terms.canonical` make it, ``None`` if it is
    left to rdflib (an escape beyond U+10FFFF, a datatype rdflib converts that is not read here)."""
    try:
        lexical = unescape(quoted[1:-1])  # the escapes rdflib's parser resolves (decodeUnicodeEscape)
    except ValueError:
        return None
    text, key = literal_nt_text(lexical), _n3_string(lexical)
    if lang:
        lang = lang[1:].lower()
        return f"{text}@{lang}", f"{key}@{lang}", False
    if not datatype:
        return text, key, False
    iri = datatype[1:-1]
    if iri == XSD_STRING_IRI:
        return text, key, True
    if iri.startswith(_CONVERTED):
        typed = literal_nt_text(lexical, iri)
        return None if typed is None else (typed, f"{key}^^{datatype}", False)
    return f"{text}^^{datatype}", f"{key}^^{datatype}", False


def _n3_string(lexical: str) -> str:
    """The quoted lexical form of rdflib's ``Literal.n3()`` (``Literal._quote_encode``), the sort
    key of :func:`dataset_quads`: a form with a line feed in triple quotes, else in quotes with
    backslash, quote and CR escaped (other control characters as they are)."""
    if "\n" in lexical:
        encoded = lexical.replace("\\", "\\\\")
        if '"""' in lexical:
            encoded = encoded.replace('"""', '\\"\\"\\"')
        if encoded[-1] == '"' and encoded[-2] != "\\":
            encoded = encoded[:-1] + "\\" + '"'
        return '"""%s"""' % encoded.replace("\r", "\\r")
    return '"%s"' % lexical.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")
