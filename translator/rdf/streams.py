"""RDF stream readers: files of timestamped triples → stream elements in arrival order.

An RDF stream is a sequence of timestamped triples ``(d, t)`` with non-decreasing ``t`` (Dao-Tran,
Beck, Eiter 2015, §2.2; Dell'Aglio et al. 2014, Definition 9; D1); elements with equal time keep their arrival (file) order, which
decides tuple windows. In the LARS view a triple arriving on stream ``s`` at ``t`` is the atom
``striple(S, P, O, s)`` in ``υ(t)`` (Dao-Tran, Beck, Eiter 2015, §4.3).

These formats are read, each into a list of :class:`StreamElement`:

* ``ntriples`` — timestamped N-Triples as CSRBench streams are written: ``<s> <p> <o> "t"``, the
  triple then its timestamp and no dot; also ``<s> <p> <o> "t" .`` and a tab before the timestamp.
  The timestamp is an integer or an ``xsd:dateTime`` (optionally typed, ``"t"^^<…#long>``). Files
  ``.nt``, ``.tnt`` and CSRBench's ``.n3t`` are read so;
* ``trig``, ``nquads``, ``jsonld`` — timestamped named graphs (the RDF-graph stream model of
  Dell'Aglio et al. 2014, §3, as RSP4J, TripleWave and RSP-JS publish streams) in TriG, N-Quads
  or JSON-LD, read alike through an rdflib ``Dataset``: every named graph is one stream element
  (all its triples share its time) and some graph states the time with
  ``<g> <http://www.streamreasoning.org/schema/benchmark#hasTimestamp> "t"`` (the CSRBench
  oracle's metadata graph) or ``<g> prov:generatedAtTime "…"^^xsd:dateTime`` (in JSON-LD a
  property of the graph object);
* ``notation`` — the papers' readable Turtle-like notation ``:diana :isNearby :a [2] .`` (grammar
  ``grammars/stream_notation.lark``);
* a folder of Turtle files ``NAME<k>.ttl``, file k holding the triples at time k (the CSRBench
  oracle's ``data/data_0.ttl`` … ``data_33.ttl``, loaded at k·1000 ms: ``--stream-time-unit s``).

Times become integer time points in the base unit by :class:`~translator.rdf.timeunits.TimeSpec`
(D1). A malformed element raises :class:`lars.errors.SourceError` (file, line, column, what
was expected); a timestamp smaller than the previous one is an error, never reordered.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import (
    TYPE_CHECKING, Any, Callable, Generator, Iterable, Iterator, Mapping, NamedTuple, Sequence, TextIO, TypedDict,
    cast,
)

if TYPE_CHECKING:  # Lark is imported where the readable notation is parsed (notation_parser)
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput
    from rdflib import BNode, Dataset, URIRef

from lars.bounds import TERM_CACHE_SIZE
from lars.accounting import MALFORMED, OUT_OF_ORDER, Accounting, reject_or_raise
from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Stream
from translator.rdf.predicates import STRIPLE  # the stream predicate of Dao-Tran, Beck, Eiter 2015, §4.3
from translator.rdf.terms import (
    BLANK_NODE_LABEL,
    IRIREF,
    iri_nt,
    LITERAL,
    RDFTerm,
    canonical,
    from_nt,
    keep_lexical_forms,
    to_lars,
    to_nt,
    unescape,
)
from translator.rdf.timeunits import (  # noqa: F401 - re-exported: the time API of the readers
    TimeSpec,
    datetime,
    unit_ms,
    TimeUnitError,
    duration_in_base_units,
    parse_datetime,
    parse_duration,
    to_base_units,
)

Triple = tuple[RDFTerm, RDFTerm, RDFTerm]

#: CSRBench oracle vocabulary for a graph's timestamp (Dell'Aglio et al. 2013, §6.1), as text: the module's
#: :func:`_time_predicates` gives these IRIs as rdflib terms (and ``TIME_PREDICATES``, both),
#: built on first use (rdflib is imported where terms are built: the TriG, directory and notation
#: readers, elements; the N-Triples batches of a run read texts only)
_TIME_PREDICATE_IRIS = {
    "HAS_TIMESTAMP": "http://www.streamreasoning.org/schema/benchmark#hasTimestamp",
    "GENERATED_AT_TIME": "http://www.w3.org/ns/prov#generatedAtTime",
}


class _Where(TypedDict):
    """Where an element is, as keyword arguments of :class:`lars.errors.SourceError`."""

    source: str
    line: int
    column: int
    text: str | None


class _TimePredicates(TypedDict):
    HAS_TIMESTAMP: URIRef
    GENERATED_AT_TIME: URIRef
    TIME_PREDICATES: tuple[URIRef, URIRef]


@functools.cache
def _time_predicates() -> _TimePredicates:
    from rdflib import URIRef

    has_timestamp, generated_at_time = (URIRef(_TIME_PREDICATE_IRIS[name])
                                        for name in ("HAS_TIMESTAMP", "GENERATED_AT_TIME"))
    return {"HAS_TIMESTAMP": has_timestamp, "GENERATED_AT_TIME": generated_at_time,
            "TIME_PREDICATES": (has_timestamp, generated_at_time)}


#: namespace of the empty prefix ``:`` when a notation file does not declare it (the papers write
#: ``:diana`` without a declaration)
DEFAULT_NAMESPACE = "http://example.org/"
#: prefixes known in the readable notation without a declaration
DEFAULT_PREFIXES: dict[str, str] = {
    "": DEFAULT_NAMESPACE,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": "http://www.w3.org/ns/prov#",
}

FORMATS = ("ntriples", "trig", "nquads", "jsonld", "notation")
FORMAT_ALIASES = {
    "nt": "ntriples", "ntriples": "ntriples", "n-triples": "ntriples", "csrbench": "ntriples",
    "trig": "trig",
    "nq": "nquads", "nquads": "nquads", "n-quads": "nquads",
    "jsonld": "jsonld", "json-ld": "jsonld",
    "notation": "notation", "seed": "notation", "rspql": "notation", "turtle-like": "notation",
}
EXTENSIONS = {
    ".nt": "ntriples", ".ntriples": "ntriples", ".tnt": "ntriples", ".n3t": "ntriples",  # .n3t: CSRBench's name
    ".trig": "trig",
    ".nq": "nquads", ".nquads": "nquads",
    ".jsonld": "jsonld",
    ".stream": "notation", ".rsp": "notation", ".ttls": "notation",
}


@dataclass(frozen=True)
class StreamElement:
    """One timestamped triple of stream ``stream_iri`` at time point ``t`` (base units).

    ``source_line`` is the line of the file the element came from (0 when unknown).
    """

    triple: Triple
    t: int
    stream_iri: URIRef
    source_line: int = 0


class _Raw(NamedTuple):
    """An element before time conversion: ``time`` is an integer in the stream unit or a dateTime."""

    triple: Triple
    time: int | datetime
    line: int
    column: int | None


# ------------------------------------------------------------------------------ timestamped N-Triples



@functools.cache
def _token() -> re.Pattern:
    """One N-Triples term (the general line reader's), compiled on first use: the letter classes
    of blank node labels take ≈ 20 ms to compile, and the common lines never need it (``_FAST_LINE``)."""
    return re.compile(rf"{IRIREF}|{BLANK_NODE_LABEL}|{LITERAL}")


@functools.cache
def _time_literal() -> re.Pattern:
    """The timestamp literal of the general line reader, compiled on first use (start-up)."""
    return re.compile(rf"\"(?P<lex>[^\"\\\n\r]*)\"(?:\^\^(?P<dt>{IRIREF}))?")


_WS = re.compile(r"[ \t]*")
_END = re.compile(r"[ \t]*(?:\.[ \t]*)?(?:#.*)?\Z")

_POSITIONS = (
    ("subject", "the subject: an <IRI> or a _:blank node"),
    ("predicate", "the predicate: an <IRI>"),
    ("object", "the object: an <IRI>, a _:blank node or a \"literal\""),
)


def _read_ntriples(text: str, source: str, accounting: Accounting | None = None) -> list[_Raw]:
    """Timestamped N-Triples, one element a line: ``<s> <p> <o> "t"`` [`` .``] (CSRBench)."""
    # only LF (and CRLF) end a line: str.splitlines() would also split at U+0085, U+2028, …
    return list(_ntriples_raws(text.split("\n"), source, accounting, text))


# the common line, read by one regex: IRIs and literals without escapes, blank node labels in
# ASCII, an integer timestamp; any other line (escapes, non-ASCII labels, dateTimes, errors) goes
# through _ntriples_line, which also locates errors. (A label with a non-ASCII character fails
# here as a whole: what follows a label, blank or '<' or '"', is ASCII, so no shorter match.)
_PLAIN_IRI = r'<[^\x00-\x20<>"{}|^`\\]*>'
_ASCII_BNODE = r"_:[A-Za-z_:0-9](?:[A-Za-z_:\-0-9.]*[A-Za-z_:\-0-9])?"  # BLANK_NODE_LABEL ∩ ASCII
_FAST_BODY = (
    rf'[ \t]*({_PLAIN_IRI}|{_ASCII_BNODE})[ \t]*({_PLAIN_IRI})[ \t]*'
    rf'({_PLAIN_IRI}|{_ASCII_BNODE}|"[^"\\\n\r]*"(?:\^\^{_PLAIN_IRI}|@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)?)'
    rf'[ \t]*(")[ \t]*\+?(\d+)[ \t]*"(?:\^\^{IRIREF})?[ \t]*(?:\.[ \t]*)?(?:#.*)?\r?')
_FAST_LINE = re.compile(_FAST_BODY + r"\Z")
# the same, on a block of lines at once: no part of _FAST_BODY matches a line feed, so every match
# is one whole line; as many matches as lines means every line of the block is a common line
_FAST_LINES = re.compile("^" + _FAST_BODY + "$", re.M)

# the commonest lines of all, on a block of lines at once, more cheaply: single spaces between the
# terms, an IRI or a literal object, an integer timestamp without datatype, an optional final dot.
# An IRI here is ``<[^>]*>`` (a run of one excluded character is scanned several times faster by
# the regex engine than a class); :func:`_strict_columns` then checks what _PLAIN_IRI excludes on
# all the IRIs of the block at once, so a block it accepts gives the captures of _FAST_LINES
_LOOSE_IRI = r"<[^>]*>"
_STRICT_LINES = re.compile(
    rf'^({_LOOSE_IRI}) ({_LOOSE_IRI}) (({_LOOSE_IRI})|"[^"\n]*"(?:\^\^({_LOOSE_IRI})|@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)?)'
    r' "(\d+)"(?: \.)?$', re.M)
#: characters that no line of _STRICT_LINES may hold anywhere (those of them that _FAST_LINE allows
#: somewhere, in a literal or the timestamp's whitespace, send the block to _FAST_LINES)
_NOT_STRICT = tuple(chr(c) for c in range(0x20) if c != 0x0A) + ("\\", "{", "}", "|", "`")


def _strict_columns(text: str, lines: int) -> tuple | None:
    """``(subjects, predicates, objects, timestamps)`` of a block of ``lines`` lines (``text``, the
    lines joined) if every line is one of ``_STRICT_LINES``, else ``None``. Then each line is also
    one of ``_FAST_LINE``, with the same subject, predicate, object and timestamp: no IRI holds a
    control character, a space, ``<>"{}|^`` or a backslash (the block holds none of
    ``_NOT_STRICT``; the IRIs' texts joined hold no space, quote or caret, and one ``<`` per IRI:
    an IRI ends at its first ``>``), a literal's lexical form no quote, backslash or line end
    (the block holds no backslash or CR; a match is one line, as there are as many as lines)."""
    # the first and the last line first: a block of other lines (e.g. typed timestamps) is not
    # searched through in vain (a search that fails tries every position of every line)
    if _STRICT_LINES.match(text) is None or _STRICT_LINES.match(text, text.rfind("\n", 0, len(text) - 1) + 1) is None:
        return None
    for c in _NOT_STRICT:
        if c in text:
            return None
    found = _STRICT_LINES.findall(text)
    if not found or len(found) != lines:
        return None
    subjects, predicates, objects, object_iris, datatypes, values = zip(*found)
    iris = "".join(itertools.chain(subjects, predicates, object_iris, datatypes))  # every IRI of the block
    # each IRI has one '>' (its last character) and starts with '<': no other '<' when there are as many as IRIs
    if iris.count("<") != 4 * lines - object_iris.count("") - datatypes.count("") or " " in iris or '"' in iris or "^" in iris:
        return None
    return subjects, predicates, objects, values


def _ntriples_raws(lines: Iterable[str], source: str, accounting: Accounting | None = None,
                   text: str | None = None, first_line: int = 1) -> Iterator[_Raw]:
    """The elements of timestamped N-Triples lines, lazily (a file or a pipe read line by line).
    ``text``: the whole text if it is at hand (for the error context; else the line alone is shown);
    ``first_line``: the line number of the first of ``lines``."""
    from rdflib import BNode, URIRef

    fast = _FAST_LINE.match
    # the terms _FAST_LINE admits are well formed: _cached_term reads each of them (never None)
    term_of = cast("Callable[[str], RDFTerm]", _cached_term)

    def iri_of(value: str) -> URIRef:  # the regex admitted no character URIRef would warn about
        return str.__new__(URIRef, value)

    for lineno, line in enumerate(lines, start=first_line):
        m = fast(line)
        if m is not None:
            s, p, o, _, t = m.groups()
            yield _Raw((iri_of(s[1:-1]) if s[0] == "<" else BNode(s[2:]), term_of(p),
                        iri_of(o[1:-1]) if o[0] == "<" else term_of(o)), int(t), lineno, m.start(4) + 1)
            continue
        line = line.removesuffix("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield _ntriples_line(line, lineno, text if text is not None else "\n" * (lineno - 1) + line, source)
        except SourceError as err:
            reject_or_raise(accounting, err)


def _ntriples_line(line: str, lineno: int, text: str, source: str) -> _Raw:
    """One element line of timestamped N-Triples."""
    from rdflib import Literal, URIRef

    # _WS (`[ \t]*`) matches at every position: its match is never None
    pos = cast("re.Match[str]", _WS.match(line)).end()
    terms: list[RDFTerm] = []
    for role, expected in _POSITIONS:
        m = _token().match(line, pos)
        if not m:
            raise SourceError(
                f"cannot read the {role} of a stream element",
                source=source, line=lineno, column=pos + 1, text=text, expected=expected,
            )
        term = _cached_term(m.group(0)) or from_nt(m.group(0), source=source, line=lineno, column=pos + 1)
        bad = (role == "subject" and isinstance(term, Literal)) or (
            role == "predicate" and not isinstance(term, URIRef)
        )
        if bad:
            raise SourceError(
                f"a {type(term).__name__.lower()} cannot be the {role}",
                source=source, line=lineno, column=pos + 1, text=text, expected=expected,
            )
        terms.append(term)
        pos = cast("re.Match[str]", _WS.match(line, m.end())).end()
    m = _time_literal().match(line, pos)
    if not m:
        raise SourceError(
            "missing the timestamp after the triple",
            source=source, line=lineno, column=pos + 1, text=text,
            expected='the timestamp in quotes, e.g. "1000" or "2004-08-08T06:05:00Z"',
        )
    time = _timestamp(m.group("lex"), source, lineno, pos + 1, text)
    if not _END.match(line, m.end()):
        raise SourceError(
            "unexpected text after the timestamp",
            source=source, line=lineno, column=cast("re.Match[str]", _WS.match(line, m.end())).end() + 1, text=text,
            expected='the end of the line or " ."',
        )
    return _Raw((terms[0], terms[1], terms[2]), time, lineno, pos + 1)


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _cached_term(text: str) -> RDFTerm | None:
    """``from_nt`` for the terms that repeat in a stream; ``None`` if malformed (the caller then
    raises the positioned error)."""
    try:
        return from_nt(text)
    except SourceError:
        return None


def _timestamp(lexical: str, source: str, line: int | None, column: int | None,
               text: str | None) -> int | datetime:
    """An integer or an ``xsd:dateTime`` timestamp."""
    lexical = lexical.strip()
    if re.fullmatch(r"[+-]?\d+", lexical):
        value = int(lexical)
        if value < 0:
            raise SourceError(
                f"negative timestamp {lexical}", source=source, line=line, column=column, text=text,
                expected="a time point >= 0",
            )
        return value
    try:
        return parse_datetime(lexical)
    except TimeUnitError:
        raise SourceError(
            f"cannot read timestamp {lexical!r}", source=source, line=line, column=column, text=text,
            expected="an integer or an xsd:dateTime such as 2004-08-08T06:05:00Z",
        ) from None


# ------------------------------------------------------------------------------------------- TriG


def _rdflib_parse(graph, text: str, fmt: str, source: str) -> None:
    """``graph.parse`` of TriG or Turtle text, lexical forms kept; a syntax error located
    (FILE:LINE:COLUMN from rdflib's offset; 1:1 when rdflib gives none)."""
    from rdflib.plugins.parsers.notation3 import BadSyntax

    name = {"trig": "TriG", "turtle": "Turtle"}[fmt]
    try:
        with keep_lexical_forms():
            graph.parse(data=text, format=fmt)
    except BadSyntax as err:
        # rdflib keeps the offset in err._i (-1 when it ran off the end of the text)
        i = err._i if 0 <= err._i <= len(text) else len(text.rstrip())  # noqa: SLF001
        line = text.count("\n", 0, i) + 1
        start = text.rfind("\n", 0, i) + 1
        raise SourceError(
            f"{name} syntax error: {err._why}", source=source, line=line,  # noqa: SLF001
            column=i - start + 1, text=text, expected=f"{name} (RDF 1.1 {name} syntax)",
        ) from None
    except Exception as err:  # noqa: BLE001 - rdflib raises plain exceptions for some malformed input
        raise SourceError(f"{name} syntax error somewhere in the file (rdflib: {type(err).__name__}: {err})",
                          source=source, line=1, column=1, expected=f"{name} (RDF 1.1 {name} syntax)") from None


@functools.cache
def _numbered() -> re.Pattern:
    """``NAME<k>.ttl`` of a folder stream, compiled on first use (start-up)."""
    return re.compile(r"(\d+)\.ttl\Z", re.IGNORECASE)


def _read_directory(path: str | Path, accounting: Accounting | None = None) -> list[_Raw]:
    """A stream given as a folder of Turtle files, one per time point, the time point being the
    number the file's name ends with (``data_0.ttl``, ``data_1.ttl``, … ``data_33.ttl``: the
    CSRBench oracle's input, which it loads with application time k·1000 ms, i.e. ``k`` with
    ``--stream-time-unit s``). The triples of a file all arrive at its time, in N-Triples order
    (a Turtle file has no order). Files whose names end with no number are an error, as are two
    files for one time point (``data_1.ttl`` and ``data_01.ttl``)."""
    from rdflib import Literal

    folder = Path(path)
    numbered: dict[int, Path] = {}
    for file in sorted(folder.iterdir()):
        if file.name.startswith(".") or file.is_dir():
            continue
        m = _numbered().search(file.name)
        if m is None:
            raise SourceError(f"{file.name}: a stream folder holds Turtle files named by their time point",
                              source=str(folder), expected="NAME<k>.ttl, e.g. data_0.ttl … data_33.ttl")
        k = int(m.group(1))
        if k in numbered:
            raise SourceError(f"two files for time point {k}: {numbered[k].name} and {file.name}",
                              source=str(folder), expected="one Turtle file per time point")
        numbered[k] = file
    raws: list[_Raw] = []
    for k, triples in _parsed_folder(numbered):
        for triple in triples:
            if isinstance(triple[0], Literal):
                reject_or_raise(accounting, SourceError(
                    f"a triple whose subject is the literal {to_nt(triple[0])}", source=str(numbered[k]),
                    line=1, column=1, expected="an <IRI> or a _:blank node as the subject of every triple"))
                continue
            raws.append(_Raw(triple, k, 0, None))
    return raws


#: the largest folder of Turtle files (characters of text, all files) whose parse is kept in the
#: user's cache: an entry takes about half the text's size on disk, and the cache has no eviction
FOLDER_CACHE_MAX_CHARS = 32 * 1024 * 1024


def _parsed_folder(numbered: Mapping[int, Path]) -> list[tuple[int, tuple[Triple, ...]]]:
    """Each file's triples in N-Triples order, by time point: parsed by rdflib, or read from the
    user's cache (``translator.cache``: the command line only, not with ``--no-cache``) when a folder with
    the same file names and the same bytes (SHA-256 of each file) was read before by the same
    version of rsplars. Parsing Turtle is most of the time of a judgement on a small stream
    (docs/check.md §8). Blank nodes keep the labels of the parse that filled the entry: labels
    are arbitrary, and those of different files stay different. A file that fails to parse leaves
    no entry (its located syntax error is raised), as does a folder of more than
    :data:`FOLDER_CACHE_MAX_CHARS` characters."""
    import hashlib

    from translator import cache

    texts = {k: _load_text(file) for k, file in sorted(numbered.items())}
    key = tuple((k, numbered[k].name, hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())
                for k, text in texts.items())

    def parse() -> list[tuple[int, tuple[Triple, ...]]]:
        from rdflib import Graph

        shared: dict[tuple, object] = {}  # one object per term: the entry pickles each term once

        def one(term):
            return shared.setdefault((type(term), str(term), getattr(term, "language", None),
                                      getattr(term, "datatype", None)), term)

        out = []
        for k, text in texts.items():
            graph = Graph()
            _rdflib_parse(graph, text, "turtle", str(numbered[k]))
            triples = sorted(cast("Iterable[Triple]", graph), key=_triple_key)  # rdflib's Node: see _read_graphs
            out.append((k, tuple(tuple(one(x) for x in triple) for triple in triples)))
        return out

    if sum(map(len, texts.values())) > FOLDER_CACHE_MAX_CHARS:
        return parse()
    # literals are unpickled as they were parsed: with their lexical forms (rdflib would normalise them)
    with keep_lexical_forms():
        return cache.cached("turtle-folder", key, parse, valid=lambda v: isinstance(v, list) and len(v) == len(texts))


#: the syntaxes of a stream of timestamped named graphs, by format name, as messages name them
GRAPH_FORMATS = {"trig": "TriG", "nquads": "N-Quads", "jsonld": "JSON-LD"}


class _Place(NamedTuple):
    """Where a graph opens in a stream text: 1-based line and column, 0-based offset."""

    line: int
    column: int
    offset: int


def _read_graphs(text: str, source: str, fmt: str, accounting: Accounting | None = None) -> list[_Raw]:
    """A stream of timestamped named graphs: each named graph is one element at the time a triple
    about its name states (the RDF-graph stream model of Dell'Aglio et al. 2014, §3, and the W3C
    RSP Community Group's abstract model, a stream being a sequence of pairs (named graph, time),
    as RSP4J, TripleWave and RSP-JS publish it). The text is TriG, N-Quads or JSON-LD (``fmt``),
    read by rdflib into a ``Dataset`` (:func:`_parse_dataset`); from there on the three formats are
    read alike. A graph's time is the object of ``<g> bench:hasTimestamp "t"`` (the CSRBench
    oracle's metadata, Dell'Aglio et al. 2013, §6.1) or ``<g> prov:generatedAtTime "…"``, in any
    graph of the dataset (usually the default graph: in JSON-LD a property of the graph object).

    A syntax error always stops the reading (rdflib cannot resume after it); a graph with a bad,
    missing or doubled timestamp is one bad element (skipped with all its triples under
    ``--skip-bad-elements``), as are triples outside any named graph that are not timestamps.
    Errors that cannot be placed are reported at 1:1."""
    from rdflib import Literal

    HAS_TIMESTAMP, TIME_PREDICATES = _time_predicates()["HAS_TIMESTAMP"], _time_predicates()["TIME_PREDICATES"]
    ds, places = _parse_dataset(text, fmt, source, accounting)

    def where(name: RDFTerm) -> _Where:
        place = places.get(name)
        if place is None:
            return dict(source=source, line=1, column=1, text=None)
        return dict(source=source, line=place.line, column=place.column, text=text)

    times: dict[RDFTerm, tuple[int | datetime, RDFTerm]] = {}
    bad: set[RDFTerm] = set()
    metadata: set[tuple] = set()
    # rdflib types a term as any Node (a formula is one, in N3) and a graph name as an IdentifiedNode:
    # a dataset read from TriG, N-Quads or JSON-LD holds IRIs, blank nodes and literals only
    quads = cast("Iterator[tuple[RDFTerm, RDFTerm, RDFTerm, URIRef | BNode | None]]",
                 ds.quads((None, None, None, None)))
    for s, p, o, g in quads:
        if p in TIME_PREDICATES:
            metadata.add((s, p, o, g))
            if s in bad:
                continue
            at = where(s)
            try:
                try:
                    value = _timestamp(str(o), source, at["line"] if at["text"] else None, None, at["text"])
                except SourceError as err:
                    raise SourceError(
                        f"{err.message} (the time of graph {to_nt(s)}, which opens here)",
                        expected=err.expected, **at) from None
                if s in times and times[s][0] != value:
                    raise SourceError(f"graph {to_nt(s)} has two timestamps: {times[s][0]} and {value}",
                                      expected="one timestamp per graph", **at)
            except SourceError as err:
                reject_or_raise(accounting, err)
                bad.add(s)
                times.pop(s, None)
                continue
            times[s] = (value, p)

    graphs: list[tuple[_Place | None, URIRef | BNode, list[Triple]]] = []
    default_id = ds.default_graph.identifier
    for graph in ds.graphs():
        name = cast("URIRef | BNode", graph.identifier)
        triples = [
            (s, p, o) for s, p, o in cast("Iterable[Triple]", graph)
            if (s, p, o, name) not in metadata
        ]
        if not triples or name in bad:
            continue
        if name == default_id:
            reject_or_raise(accounting, SourceError(
                f"{len(triples)} triple(s) outside any named graph have no timestamp (reported at 1:1: "
                "rdflib does not tell where they are)",
                source=source, line=1, column=1, expected="every stream triple inside a named graph with a timestamp",
            ))
            continue
        if name not in times:
            reject_or_raise(accounting, SourceError(
                f"graph {to_nt(name)} has no timestamp",
                expected=f"a triple <g> <{HAS_TIMESTAMP}> \"t\" or <g> prov:generatedAtTime \"…\"^^xsd:dateTime",
                **where(name),
            ))
            continue
        literal = next((tr for tr in triples if isinstance(tr[0], Literal)), None)
        if literal is not None:  # rdflib reads `:o .2 :p :o` as a triple with the literal 0.2 as subject
            reject_or_raise(accounting, SourceError(
                f"graph {to_nt(name)} has a triple whose subject is the literal {to_nt(literal[0])} "
                "(a '.' followed by a number, as in ':o .2 :p :o', starts a triple with a number as subject)",
                expected="an <IRI> or a _:blank node as the subject of every triple", **where(name),
            ))
            continue
        graphs.append((places.get(name), name, triples))

    # arrival order: the order of the graphs in the text; graphs that cannot be located by name
    # come in time order (and then all do), which rdflib's unordered store cannot tell otherwise
    if any(place is None for place, _, _ in graphs):
        graphs.sort(key=lambda g: (_sortable(times[g[1]][0]), g[0].offset if g[0] else 0, to_nt(g[1])))
    else:
        graphs.sort(key=lambda g: g[0].offset)  # type: ignore[union-attr]
    out: list[_Raw] = []
    for place, name, triples in graphs:
        line, column = (place.line, place.column) if place else (0, None)
        for triple in sorted(((canonical(s), canonical(p), canonical(o)) for s, p, o in triples), key=_triple_key):
            out.append(_Raw(triple, times[name][0], line, column))
    return out


def _read_trig(text: str, source: str, accounting: Accounting | None = None) -> list[_Raw]:
    """TriG: one named graph per element (:func:`_read_graphs`)."""
    return _read_graphs(text, source, "trig", accounting)


def _read_nquads(text: str, source: str, accounting: Accounting | None = None) -> list[_Raw]:
    """N-Quads: one named graph per element (:func:`_read_graphs`)."""
    return _read_graphs(text, source, "nquads", accounting)


def _read_jsonld(text: str, source: str, accounting: Accounting | None = None) -> list[_Raw]:
    """JSON-LD: one named graph per element (:func:`_read_graphs`)."""
    return _read_graphs(text, source, "jsonld", accounting)


def _parse_dataset(text: str, fmt: str, source: str,
                   accounting: Accounting | None) -> tuple[Dataset, dict[RDFTerm, _Place]]:
    """The rdflib ``Dataset`` of a stream text, lexical forms kept, and where each named graph
    opens (by graph name; a graph that cannot be found in the text is missing). A syntax error is
    a located :class:`SourceError`."""
    from rdflib import Dataset

    ds = Dataset()
    if fmt == "trig":
        _rdflib_parse(ds, text, "trig", source)
        return ds, _trig_places(text, ds)
    if fmt == "nquads":
        labels: dict[str, object] = {}  # blank node label → rdflib's blank node, to find graphs named _:g
        _parse_nquads(ds, text, source, labels)
        return ds, _nquads_places(text, labels)
    data, offsets = _json_with_offsets(text, source)
    places = _jsonld_places(data, offsets, text, source, accounting)
    from rdflib.plugins.parsers.jsonld import to_rdf

    try:
        with keep_lexical_forms():
            to_rdf(data, ds)
    except Exception as err:  # noqa: BLE001 - rdflib raises plain exceptions for malformed JSON-LD
        raise SourceError(f"JSON-LD error somewhere in the file (rdflib: {type(err).__name__}: {err})",
                          source=source, line=1, column=1,
                          expected="JSON-LD 1.1 (a remote @context is fetched by rdflib: give it inline)") from None
    return ds, places


def _trig_places(text: str, ds: Dataset) -> dict[RDFTerm, _Place]:
    """Where each named graph of a TriG text opens: its ``name {`` (also after ``GRAPH``)."""
    openings = _graph_openings(text)
    places: dict[RDFTerm, _Place] = {}
    for graph in ds.graphs():
        name = cast("URIRef | BNode", graph.identifier)  # rdflib's IdentifiedNode: an IRI or a blank node
        spellings = [to_nt(name), f"<{name}>"]
        try:
            spellings.append(ds.namespace_manager.normalizeUri(name))
        except Exception:  # noqa: BLE001 - no prefix for this IRI
            pass
        place = next((openings[sp] for sp in spellings if sp in openings), None)
        if place is not None:
            places[name] = place
    return places


def _parse_nquads(ds: Dataset, text: str, source: str, labels: dict) -> None:
    """``ds.parse`` of N-Quads text; a syntax error located at its line (rdflib reads one line at
    a time: the failing line is read again alone to tell the column where rdflib stopped)."""
    from rdflib.exceptions import ParserError

    try:
        with keep_lexical_forms():
            ds.parse(data=text, format="nquads", bnode_context=labels)
        return
    except ParserError:
        pass
    from rdflib import Dataset
    from rdflib.parser import StringInputSource
    from rdflib.plugins.parsers.nquads import NQuadsParser

    for number, line in enumerate(text.split("\n"), start=1):
        parser = NQuadsParser()
        try:
            with keep_lexical_forms():
                parser.parse(StringInputSource(line.removesuffix("\r")), Dataset())
        except ParserError as err:
            rest = parser.line if isinstance(parser.line, str) else ""
            column = max(len(line.removesuffix("\r")) - len(rest), 0) + 1
            m = re.match(r"Invalid line \((.*)\):\n", str(err), re.S)
            why = m.group(1) if m else str(err)
            if why.startswith("Failed to eat"):  # rdflib names the pattern it expected
                why = ("missing the final '.' of the statement" if "\\." in why
                       else "missing a space between terms" if why.startswith("Failed to eat [ \\t]+") else "unexpected text")
            raise SourceError(f"N-Quads syntax error: {why}", source=source, line=number, column=column,
                              text=text, expected="a statement <s> <p> <o> <g> . or <s> <p> <o> . "
                              "(RDF 1.1 N-Quads: IRIs in <…>, blank nodes _:x, literals in \"…\")") from None
    raise SourceError("N-Quads syntax error somewhere in the file", source=source, line=1, column=1,
                      expected="RDF 1.1 N-Quads")


def _nquads_places(text: str, labels: Mapping[str, object]) -> dict[RDFTerm, _Place]:
    """Where each named graph of an N-Quads text opens: the first line whose fourth term names it."""

    places: dict[RDFTerm, _Place] = {}
    seen: set[str] = set()
    tail = re.compile(r"(<[^<>\s\"]*>|_:\S+)[ \t]*\.[ \t]*(?:#.*)?\r?\Z")  # a quick test: a term, then the dot
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        m = tail.search(line)
        if m is not None and m.group(1) not in seen:
            pos = _WS.match(line).end()  # type: ignore[union-attr]
            terms: list[re.Match] = []
            while len(terms) < 4 and (t := _token().match(line, pos)) is not None:
                terms.append(t)
                pos = _WS.match(line, t.end()).end()  # type: ignore[union-attr]
            if len(terms) == 4 and terms[3].group(0)[0] in "<_":
                spelling = terms[3].group(0)
                seen.add(spelling)
                name = labels.get(spelling[2:]) if spelling.startswith("_:") else _cached_term(spelling)
                if name is not None:
                    start = terms[3].start()
                    places.setdefault(name, _Place(number, start + 1, offset + start))  # type: ignore[arg-type]
        offset += len(line) + 1
    return places


#: a JSON string (skipped whole: braces inside it do not count) or a brace
_JSON_BRACES = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]')


def _json_with_offsets(text: str, source: str) -> tuple[object, dict[int, int]]:
    """The JSON value of ``text`` and, by ``id()`` of each object in it, the offset of its ``{``;
    a JSON syntax error located at the decoder's line and column. The decoder builds objects in
    the order they close (``object_pairs_hook``), which is the order of their ``}`` outside strings
    in the text; a scan of the braces pairs each ``}`` with its ``{``."""
    import json

    opens: list[int] = []  # the offset of each object's "{", in the order the objects close
    stack: list[int] = []
    for m in _JSON_BRACES.finditer(text):
        if m.group(0) == "{":
            stack.append(m.start())
        elif m.group(0) == "}" and stack:
            opens.append(stack.pop())
    offsets: dict[int, int] = {}
    closing = iter(opens)

    def hook(pairs: list) -> dict:
        obj = dict(pairs)
        offsets[id(obj)] = next(closing, 0)
        return obj

    decoder = json.JSONDecoder(object_pairs_hook=hook)
    try:
        return decoder.decode(text), offsets
    except json.JSONDecodeError as err:
        raise SourceError(f"JSON syntax error: {err.msg}", source=source, line=err.lineno, column=err.colno,
                          text=text, expected="JSON-LD: a JSON object, or an array of graph objects "
                          '{"@id": …, "prov:generatedAtTime": …, "@graph": [ … ]}') from None
    except RecursionError:
        raise SourceError("JSON nested too deeply", source=source, line=1, column=1,
                          expected="JSON-LD nested at most a few hundred levels") from None


def _jsonld_places(data: object, offsets: Mapping[int, int], text: str, source: str,
                   accounting: Accounting | None) -> dict[RDFTerm, _Place]:
    """Where each graph object ``{"@id": g, …, "@graph": …}`` of a JSON-LD document opens, by
    its name resolved against the ``@context`` in scope. A property that the context in scope
    does not map to an IRI, or a node whose ``@id`` is a relative IRI without a base, is dropped
    by JSON-LD expansion (JSON-LD 1.1 API, §4.3; JSON-LD 1.1, §8.2): it is an error here, so that
    no triple of the file is lost unsaid."""
    from rdflib import BNode, URIRef
    from rdflib.plugins.shared.jsonld.context import Context

    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    places: dict[RDFTerm, _Place] = {}

    def place(node: object) -> _Place | None:
        offset = offsets.get(id(node))
        if offset is None:
            return None
        line = bisect_right(starts, offset)
        return _Place(line, offset - starts[line - 1] + 1, offset)

    def walk(node: object, context: Context | None, depth: int = 0) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, context, depth)
            return
        if not isinstance(node, dict) or "@value" in node:
            return
        if "@context" in node and context is not None:
            try:
                context = context.subcontext(node["@context"])
            except Exception:  # noqa: BLE001 - a remote or malformed context: the parse reports it
                context = None
        if context is not None:
            for key in node:
                if key.startswith("@"):
                    continue
                iri = context.expand(key)
                if iri is None or (":" not in iri and not iri.startswith("@")):  # "@…": a keyword's alias
                    at = place(node)
                    reject_or_raise(accounting, SourceError(
                        f"JSON-LD drops the property {key!r}: no @context maps it to an IRI",
                        source=source, line=at.line if at else 1, column=at.column if at else 1,
                        text=text if at else None,
                        expected=f'an absolute IRI as the key, or a @context term for it ("{key}": "http://…")'))
        ident = node.get("@id")
        if isinstance(ident, str) and context is not None and not ident.startswith("_:") \
                and ":" not in (context.resolve(ident) or ""):
            at = place(node)
            reject_or_raise(accounting, SourceError(
                f"JSON-LD drops the node {ident!r} and its triples: a relative IRI, and no @base to resolve it",
                source=source, line=at.line if at else 1, column=at.column if at else 1, text=text if at else None,
                expected='an absolute IRI ("http://…"), a compact IRI of a @context prefix, or a _:blank node'))
        if "@graph" in node and isinstance(ident, str) and context is not None:
            name: RDFTerm | None = BNode(ident[2:]) if ident.startswith("_:") else URIRef(context.resolve(ident))
            at = place(node)
            if name is not None and at is not None:
                places.setdefault(name, at)
        for key, value in node.items():
            if key != "@context":
                walk(value, context, depth + 1)

    walk(data, Context())
    return places


def _sortable(value: int | datetime) -> tuple:
    return (1, value.timestamp()) if isinstance(value, datetime) else (0, value)


def _triple_key(triple: Triple) -> tuple[str, str, str]:
    return tuple(to_nt(t) for t in triple)  # type: ignore[return-value]


@functools.cache
def _graph_opening() -> re.Pattern:
    """``name {`` of a TriG text, compiled on first use (start-up: N-Triples runs never need it)."""
    return re.compile(r"(?:^|(?<=[\s}.]))(<[^>\s]*>|[^\s{}<>\"]+)\s*\{", re.MULTILINE)


def _graph_openings(text: str) -> dict[str, _Place]:
    """Every ``name {`` of a TriG text (also after ``GRAPH``): the spelling → where it first opens."""
    places: dict[str, _Place] = {}
    line, pos, start = 1, 0, 0
    for m in _graph_opening().finditer(text):
        found = text.count("\n", pos, m.start(1))  # counted incrementally: linear in the text
        if found:
            line += found
            start = text.rfind("\n", pos, m.start(1)) + 1
        pos = m.start(1)
        places.setdefault(m.group(1), _Place(line, pos - start + 1, pos))
    return places


# ------------------------------------------------------------------------------ readable notation


@lru_cache(maxsize=1)
def notation_parser() -> Lark:
    """The LALR parser of the readable notation (``grammars/stream_notation.lark``), built once."""
    from lark import Lark  # imported with the notation only: N-Triples runs start without Lark

    return Lark.open_from_package(
        __package__,
        "grammars/stream_notation.lark",
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )


_TOKEN_WORDS = {
    "IRIREF": "<IRI>", "PNAME": "prefixed name (ex:name)", "BLANK_NODE_LABEL": "_:blank node",
    "A": "a", "INTEGER": "integer", "DECIMAL": "decimal", "DOUBLE": "double", "BOOLEAN": "true/false",
    "STRING_QUOTE": '"string"', "STRING_SINGLE": "'string'", "STRING_LONG_QUOTE": '"""string"""',
    "STRING_LONG_SINGLE": "'''string'''", "DATETIME": "dateTime", "LANGTAG": "@lang",
    "LSQB": "[", "RSQB": "]", "DOT": ".", "__ANON_0": "^^", "AT_PREFIX": "@prefix",
    "SPARQL_PREFIX": "PREFIX", "$END": "end of file",
}


def _expected(tokens: Iterable[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, t) for t in tokens})
    return ", ".join(words)


def _read_notation(text: str, source: str, accounting: Accounting | None = None) -> list[_Raw]:
    """The papers' notation ``:diana :isNearby :a [2] .`` (prefixes optional for ``:``).

    With ``--skip-bad-elements`` a file with a syntax error is read again one line at a time (one
    statement per line, as the papers write them), so that only the bad lines are skipped."""
    from lark.exceptions import UnexpectedInput

    try:
        tree = notation_parser().parse(text)
    except UnexpectedInput as err:
        error = _notation_syntax_error(err, text, source)
        if accounting is None or not accounting.skip_bad:
            raise error from None
        return _notation_by_line(text, source, accounting)
    return _notation_statements(tree.children, text, source, dict(DEFAULT_PREFIXES), accounting)


def _notation_by_line(text: str, source: str, accounting: Accounting) -> list[_Raw]:
    from lark.exceptions import UnexpectedInput

    prefixes = dict(DEFAULT_PREFIXES)
    out: list[_Raw] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.strip().startswith("#"):
            continue
        try:
            tree = notation_parser().parse(line)
        except UnexpectedInput as err:
            alone = _notation_syntax_error(err, line, source)
            accounting.reject(SourceError(alone.message, source=source, line=number, column=alone.column,
                                          text=text, expected=alone.expected))
            continue
        out += _notation_statements(tree.children, text, source, prefixes, accounting, number - 1)
    return out


def _notation_syntax_error(err: UnexpectedInput, text: str, source: str) -> SourceError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedToken):
        what = "end of file" if err.token.type == "$END" else f"{err.token.value!r}"
        message = f"unexpected {what} in a stream element"
    elif isinstance(err, UnexpectedCharacters):
        # lark declares UnexpectedInput.pos_in_stream = None (typed None); UnexpectedCharacters sets the position
        message = f"unexpected character {text[err.pos_in_stream]!r}"  # type: ignore[index]
    else:
        message = "unexpected end of file"
    expected = getattr(err, "expected", None) or getattr(err, "allowed", None) or ()
    line = getattr(err, "line", None)
    column = getattr(err, "column", None)
    if isinstance(err, UnexpectedEOF) or line in (None, -1) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        stripped = text.rstrip()
        line = max(stripped.count("\n") + 1, 1)
        column = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return SourceError(
        message, source=source, line=line, column=column, text=text,
        expected=_expected(expected) or None,
    )


def _notation_statements(nodes, text: str, source: str, prefixes: dict[str, str],
                         accounting: Accounting | None, line_offset: int = 0) -> list[_Raw]:
    out: list[_Raw] = []
    for node in nodes:
        try:
            if node.data == "prefix_decl":
                name, iri = node.children[1], node.children[2]
                if not str(name).endswith(":"):
                    raise SourceError(
                        f"prefix {name!r} must end with ':'", source=source, line=name.line + line_offset,
                        column=name.column, text=text, expected="a prefix such as ex:",
                    )
                prefixes[str(name)[:-1]] = unescape(str(iri)[1:-1])
                continue
            subj, pred, obj, time = node.children
            triple = tuple(_notation_term(t, prefixes, source, text, line_offset) for t in (subj, pred, obj))
            tok = time.children[0]
            lexical = str(tok)[1:-1] if tok.type == "STRING_QUOTE" else str(tok)
            value = _timestamp(lexical, source, tok.line + line_offset, tok.column, text)
        except ValueError as err:  # an escape beyond U+10FFFF in an IRI or a string
            reject_or_raise(accounting, SourceError(
                str(err), source=source, line=node.meta.line + line_offset, column=node.meta.column, text=text,
                expected="\\u or \\U escapes of Unicode code points (at most U+10FFFF)"))
            continue
        except SourceError as err:
            reject_or_raise(accounting, err)
            continue
        out.append(_Raw(triple, value, node.meta.line + line_offset, tok.column))  # type: ignore[arg-type]
    return out


def _notation_term(node: Tree, prefixes: Mapping[str, str], source: str, text: str, line_offset: int = 0) -> RDFTerm:
    from lark import Token
    from rdflib import BNode, Literal, URIRef
    from rdflib.namespace import RDF, XSD

    kind = node.data
    tok: Token = node.children[0] if node.children and isinstance(node.children[0], Token) else None  # type: ignore[assignment]
    if kind == "iri_ref":
        return URIRef(unescape(str(tok)[1:-1]))
    if kind == "pname":
        prefix, _, local = str(tok).partition(":")
        if prefix not in prefixes:
            raise SourceError(
                f"undeclared prefix {prefix + ':'!r}", source=source,
                line=cast(int, tok.line) + line_offset,  # lark's Optional: a token of a parse has its line
                column=tok.column, text=text, expected=f"@prefix {prefix}: <…> . before its use",
            )
        return URIRef(prefixes[prefix] + local)
    if kind == "bnode":
        return BNode(str(tok)[2:])
    if kind == "rdf_type":
        return RDF.type
    if kind in ("integer", "decimal", "double"):
        dt: RDFTerm = {"integer": XSD.integer, "decimal": XSD.decimal, "double": XSD.double}[kind]
        return Literal(str(tok), datatype=dt, normalize=False)
    if kind == "boolean":
        return Literal(str(tok), datatype=XSD.boolean, normalize=False)
    lexical = _string_value(node.children[0])
    if kind == "lang_literal":
        return Literal(lexical, lang=str(node.children[1])[1:].lower())
    if kind == "typed_literal":
        dt = _notation_term(node.children[1], prefixes, source, text, line_offset)
        return canonical(Literal(lexical, datatype=dt, normalize=False))
    return Literal(lexical)


def _string_value(node: Tree) -> str:
    tok: Token = node.children[0]  # type: ignore[assignment]
    quote = 3 if tok.type.startswith("STRING_LONG") else 1
    return unescape(str(tok)[quote:-quote])


# ------------------------------------------------------------------------------- format detection

_READERS = {"ntriples": _read_ntriples, "trig": _read_trig, "nquads": _read_nquads, "jsonld": _read_jsonld,
            "notation": _read_notation}
_NOTATION_LINE = re.compile(r"\[\s*[^\]\s]+\s*\]\s*\.\s*(?:#.*)?$")
_NT_LINE = re.compile(r"^\s*(?:<|_:).*\"\s*(?:\^\^<[^>]*>)?\s*\.?\s*$")


_JSON_START = re.compile(r"\A\s*(?:\[\s*)*(?:\{\s*(?:\"|\})|\])")


def _terms_of_line(line: str) -> tuple[list[str], bool]:
    """The N-Triples terms a line starts with (at most five) and whether a final ``.`` ends it."""
    pos = _WS.match(line).end()  # type: ignore[union-attr]
    terms: list[str] = []
    while len(terms) < 5 and (m := _token().match(line, pos)) is not None:
        terms.append(m.group(0))
        pos = _WS.match(line, m.end()).end()  # type: ignore[union-attr]
    return terms, re.fullmatch(r"\.[ \t]*(?:#.*)?\r?", line[pos:]) is not None


def _is_quad_line(line: str) -> bool:
    """``<s> <p> <o> <g> .``: a statement of a named graph in N-Quads (the fourth term an IRI or
    a blank node; in timestamped N-Triples it is the timestamp literal)."""
    terms, dot = _terms_of_line(line)
    return dot and len(terms) == 4 and terms[3][0] in "<_"


def _is_triple_line(line: str) -> bool:
    """``<s> <p> <o> .``: a statement without a graph (N-Quads' default graph)."""
    terms, dot = _terms_of_line(line)
    return dot and len(terms) == 3


def _nquads_ahead(first: str, rest: Iterable[str], limit: int = 1000) -> bool:
    """Whether a text whose first statement is ``first`` is N-Quads: a quad, or triples (of the
    default graph, such as the graphs' timestamps) followed by a quad within ``limit`` lines."""
    if _is_quad_line(first):
        return True
    if not _is_triple_line(first):
        return False
    for line in itertools.islice(rest, limit):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if _is_quad_line(s):
            return True
        if not _is_triple_line(s):
            return False
    return False


def detect_format(path: str | Path | None, text: str) -> str:
    """The stream format from the file extension, else from the content: JSON (an object or an
    array) is JSON-LD, N-Quads statements (:func:`_nquads_ahead`) N-Quads, else the first
    statement decides."""
    if path is not None:
        suffix = Path(path).suffix.lower()
        if suffix in EXTENSIONS:
            return EXTENSIONS[suffix]
    if _JSON_START.match(text):
        return "jsonld"
    lines = text.splitlines()
    for k, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if _nquads_ahead(s, lines[k + 1:]):
            return "nquads"
        if _is_triple_line(s) and _graph_opening().search(text):  # the graphs' times first, then TriG graphs
            return "trig"
        if s.lower().startswith(("@prefix", "prefix", "@base", "base")):
            # prefixed files: notation if some element has a bracketed time, else TriG
            return "notation" if any(_NOTATION_LINE.search(x) for x in text.splitlines()) else "trig"
        if _NOTATION_LINE.search(s):
            return "notation"
        if "{" in s:
            return "trig"
        if _NT_LINE.match(s):
            return "ntriples"
        break
    raise SourceError(
        "cannot tell the stream format from the file name or its first line",
        source=str(path) if path is not None else "<input>",
        expected="a .nt or .n3t (timestamped N-Triples), .trig, .nq, .jsonld or .stream (readable notation) "
        "file, or an explicit format",
    )


def normalize_format(fmt: str) -> str:
    key = fmt.strip().lower()
    if key == "auto":
        return key
    if key not in FORMAT_ALIASES:
        raise RsplarsError(f"unknown stream format {fmt!r} (expected auto, {', '.join(FORMATS)})")
    return FORMAT_ALIASES[key]


# --------------------------------------------------------------------------------- time conversion


def _convert(raws: Sequence[_Raw], stream_iri: URIRef, time: TimeSpec, epoch: datetime | None,
             source: str, text: str | None, accounting: Accounting | None = None) -> list[StreamElement]:
    first_kind = type(raws[0].time) is datetime if raws else None
    return list(_convert_iter(raws, stream_iri, time, epoch, source, text, accounting, first_kind))


def _convert_iter(raws: Iterable[_Raw], stream_iri: URIRef, time: TimeSpec, epoch: datetime | None,
                  source: str, text: str | None, accounting: Accounting | None = None,
                  first_kind: bool | None = None, previous: int | None = None) -> Iterator[StreamElement]:
    """The elements of ``raws`` in base units, lazily; out-of-order and malformed ones raised or
    skipped (``accounting``). ``first_kind``: whether the stream's timestamps are dateTimes
    (``None``: as the first element's); ``previous``: the time point of the element before them."""
    per, base = unit_ms(time.stream_unit or time.unit), unit_ms(time.unit)
    for raw in raws:
        value = raw.time
        if first_kind is None:
            first_kind = type(value) is datetime
        if type(value) is int and not first_kind and value * per % base == 0:  # the common case, inline
            t = value * per // base
            if previous is None or t >= previous:
                previous = t
                if accounting is not None:
                    accounting.count_read()
                yield StreamElement(raw.triple, t, stream_iri, raw.line)
                continue
        where: _Where = dict(source=source, line=raw.line or 1, column=raw.column or 1, text=text if raw.line else None)
        try:
            if (type(value) is datetime) != first_kind:
                raise SourceError("integer and dateTime timestamps are mixed in one stream",
                                  expected="the same kind of timestamp on every element as the first", **where)
            try:
                if isinstance(value, datetime):
                    assert epoch is not None
                    t = time.datetime_to_base(value, epoch)
                else:
                    t = time.integer_to_base(value)
            except (TimeUnitError, OverflowError) as err:
                raise SourceError(str(err), **where) from None
            if t < 0:
                raise SourceError(
                    f"timestamp {value} lies before the epoch {epoch.isoformat() if epoch else 0}",
                    expected="an --epoch at or before the first timestamp", **where)
            if previous is not None and t < previous:
                reject_or_raise(accounting, SourceError(
                    f"timestamp goes backwards: {t} after {previous} (in base unit {time.unit})",
                    expected=f"a time point >= {previous}; stream elements must come in time order", **where),
                    OUT_OF_ORDER)
                continue
        except SourceError as err:
            reject_or_raise(accounting, err, MALFORMED)
            continue
        previous = t
        if accounting is not None:
            accounting.count_read()
        yield StreamElement(raw.triple, t, stream_iri, raw.line)


def _first_datetime(raws: Sequence[_Raw]) -> datetime | None:
    return next((r.time for r in raws if isinstance(r.time, datetime)), None)


# --------------------------------------------------------------------------------------- public API


def _read_raw(text: str, fmt: str, path: str | Path | None, source: str,
              accounting: Accounting | None = None) -> list[_Raw]:
    fmt = normalize_format(fmt)
    if fmt == "auto":
        fmt = detect_format(path, text)
    return _READERS[fmt](text, source, accounting)


def _load_text(path: str | Path) -> str:
    try:
        if str(path) == "-":  # standard input, read whole
            import sys

            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RsplarsError(f"stream file not found: {path}") from None
    except UnicodeDecodeError as err:
        raise SourceError(f"not UTF-8 text: {err.reason} at byte {err.start}", source=str(path)) from None
    except OSError as err:
        raise RsplarsError(f"cannot read stream file {path}: {err.strerror}") from None


def _load_raws(path: str | Path, fmt: str, accounting: Accounting | None) -> tuple[str | None, list[_Raw]]:
    """(the file's text, its raw elements); a folder (:func:`_read_directory`) has no one text."""
    if str(path) != "-" and Path(path).is_dir():
        return None, _read_directory(path, accounting)
    text = _load_text(path)
    return text, _read_raw(text, fmt, path, str(path), accounting)


def parse_stream(text: str, stream_iri: str | URIRef, fmt: str = "auto",
                 time: TimeSpec = TimeSpec(), *, source: str = "<input>",
                 accounting: Accounting | None = None) -> list[StreamElement]:
    """Read stream elements from ``text`` (see the module docstring for the formats).
    ``accounting`` counts them and, if it skips bad elements, records the malformed and
    out-of-order ones instead of raising (``lars.accounting``)."""
    raws = _read_raw(text, fmt, None if source.startswith("<") else source, source, accounting)
    epoch = time.epoch or _first_datetime(raws)
    from rdflib import URIRef

    return _convert(raws, URIRef(str(stream_iri)), time, epoch, source, text, accounting)


def read_stream(path: str | Path, stream_iri: str | URIRef, fmt: str = "auto",
                time: TimeSpec = TimeSpec(), accounting: Accounting | None = None) -> list[StreamElement]:
    """Read one stream file (``--stream IRI=FILE``) into its elements in arrival order.

    ``fmt``: ``auto`` (by extension, then content), ``ntriples``, ``trig`` or ``notation``.
    dateTime timestamps count from ``time.epoch``, by default the first timestamp of this file;
    use :func:`read_streams` for several streams sharing one epoch.
    """
    text, raws = _load_raws(path, fmt, accounting)
    epoch = time.epoch or _first_datetime(raws)
    from rdflib import URIRef

    return _convert(raws, URIRef(str(stream_iri)), time, epoch, str(path), text, accounting)


def read_streams(files: Mapping[str, str | Path], fmt: str = "auto",
                 time: TimeSpec = TimeSpec(), accounting: Accounting | None = None) -> dict[URIRef, list[StreamElement]]:
    """Read several streams (IRI → file); dateTimes share one epoch: ``time.epoch`` or else the
    earliest timestamp of the run (D1). ``accounting``: as for :func:`parse_stream`."""
    loaded = {}
    for iri, path in files.items():
        loaded[iri] = (path, *_load_raws(path, fmt, accounting))
    epoch = time.epoch
    if epoch is None:
        firsts = [d for _, _, raws in loaded.values() if (d := _first_datetime(raws)) is not None]
        epoch = min(firsts) if firsts else None
    from rdflib import URIRef

    return {
        URIRef(str(iri)): _convert(raws, URIRef(str(iri)), time, epoch, str(path), text, accounting)
        for iri, (path, text, raws) in loaded.items()
    }


def merge_streams(streams: Mapping[Any, Sequence[StreamElement]]) -> list[StreamElement]:
    """All elements of several streams by time; stable: equal times keep the order of the
    mapping's streams, then each stream's arrival order."""
    return list(heapq.merge(*streams.values(), key=lambda e: e.t))


def parse_stream_spec(spec: str) -> tuple[str, str]:
    """``IRI=FILE`` of ``--stream`` / ``--named`` (the IRI may be written ``<…>``)."""
    iri, sep, path = spec.rpartition("=")
    if not sep or not iri or not path:
        raise RsplarsError(f"expected IRI=FILE, got {spec!r}")
    iri = iri.strip()
    if iri.startswith("<") and iri.endswith(">"):
        iri = iri[1:-1]
    return iri, path.strip()


def parse_static_during_spec(spec: str) -> tuple[int | None, int | None, str]:
    """``FROM..TO=FILE`` of ``--static-during`` as ``(FROM, TO, FILE)``: static data that holds from
    FROM to TO (base units; either end may be left open)."""
    import re

    m = re.fullmatch(r"(-?\d*)\.\.(-?\d*)=(.+)", spec)
    if not m:
        raise RsplarsError(f"--static-during {spec!r}: expected FROM..TO=FILE, e.g. 2..13=shops.ttl or 14..=later.ttl")
    start, end = (int(x) if x else None for x in m.group(1, 2))
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"--static-during {spec!r}: FROM {start} is after TO {end}")
    return start, end, m.group(3)


# ------------------------------------------------------------------------------------------ writing


def format_element(element: StreamElement) -> str:
    """One element as a timestamped N-Triples line ``<s> <p> <o> "t" .`` (readable by
    :func:`parse_stream` with ``fmt="ntriples"``)."""
    s, p, o = (to_nt(x) for x in element.triple)
    return f'{s} {p} {o} "{element.t}" .'


def write_ntriples(elements: Iterable[StreamElement], out: TextIO) -> int:
    """Write elements as timestamped N-Triples; returns the number of lines written."""
    n = 0
    for element in elements:
        out.write(format_element(element) + "\n")
        n += 1
    return n


# --------------------------------------------------------------------------------------- LARS view



def to_lars_stream(elements: Iterable[StreamElement], *, predicate: str = STRIPLE,
                   start: int | None = None, end: int | None = None) -> Stream:
    """Stream elements as the LARS data stream of Dao-Tran, Beck, Eiter 2015, §4.3: ``striple(S, P, O, s) ∈ υ(t)``
    for a triple ``(S, P, O)`` arriving on stream ``s`` at ``t``; arrival order is kept within a
    time point (it decides tuple windows). ``υ(t)`` is a set: the same triple arriving twice on one
    stream at one time point is one atom (its first arrival counts). Give ``elements`` merged
    (:func:`merge_streams`)."""
    points: dict[int, dict[Atom, None]] = {}
    lars: dict[RDFTerm, object] = {}  # each distinct term converted once (predicates, shops, … recur)

    def term(x: RDFTerm):
        got = lars.get(x)
        if got is None:
            got = lars[x] = to_lars(x)
        return got

    for e in elements:
        s, p, o = e.triple
        points.setdefault(e.t, {})[Atom(predicate, (term(s), term(p), term(o), term(e.stream_iri)))] = None
    return Stream({t: tuple(atoms) for t, atoms in points.items()}, start, end)


class ElementList(list):
    """Stream elements (merged, in arrival order) that build their LARS data stream
    (:func:`to_lars_stream`) once, however many programs run over them (``rsplars agree`` runs
    up to five). The list must not change after :meth:`lars_points` was called."""

    _points: Mapping[int, tuple[Atom, ...]] | None = None

    def lars_points(self) -> Mapping[int, tuple[Atom, ...]]:
        if self._points is None:
            self._points = to_lars_stream(self).points
        return self._points

    def nt_triples(self) -> dict[str, list[tuple[str, str, str]]]:
        """The triples of each stream as N-Triples texts (condition (ii) of Dao-Tran, Beck, Eiter 2015, §5), computed
        once (terms converted once each)."""
        got = getattr(self, "_nt", None)
        if got is None:
            texts: dict[RDFTerm, str] = {}

            def nt(x: RDFTerm) -> str:
                text = texts.get(x)
                if text is None:
                    text = texts[x] = to_nt(x)
                return text

            got = {}
            for e in self:
                got.setdefault(str(e.stream_iri), []).append((nt(e.triple[0]), nt(e.triple[1]), nt(e.triple[2])))
            self._nt = got
        return got


# ------------------------------------------------------------------------------------ lazy reading


def _open_lines(path: str) -> Iterator[str]:
    """The lines of a stream file (``-``: standard input) read one by one, without their line end."""
    return (line[:-1] if line.endswith("\n") else line for block in _open_blocks(path, 1) for line in block)


_BLOCK_CHARS = 1 << 16  # the size of the blocks of lines the N-Triples reader matches at once


def _open_blocks(path: str, size: int | None = None) -> Generator[list[str], None, None]:
    """The lines of a stream file (``-``: standard input), with their line ends, in lists of about
    ``size`` characters (default ``_BLOCK_CHARS``; 1: one line per list); standard input is always read one line at a
    time, so that a pipe's lines are evaluated as they arrive."""
    import sys

    source = "<stdin>" if path == "-" else path
    size = _BLOCK_CHARS if size is None else size
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise RsplarsError(f"stream file not found: {path}") from None
    except OSError as err:
        raise RsplarsError(f"cannot read stream file {path}: {err.strerror}") from None

    def blocks() -> Generator[list[str], None, None]:
        try:
            if handle is sys.stdin or size <= 1:
                for line in handle:
                    yield [line]
            else:
                while block := handle.readlines(size):
                    yield block
        except UnicodeDecodeError as err:
            raise SourceError(f"not UTF-8 text: {err.reason}", source=source) from None
        finally:
            if handle is not sys.stdin:
                handle.close()

    return blocks()


def _lazy_raws(path: str, fmt: str, accounting: Accounting | None) -> tuple[Iterator[_Raw], str | None]:
    """(raw elements of one stream, read lazily where the format allows it, the whole text if it was
    read whole): timestamped N-Triples line by line; TriG and the readable notation whole (a TriG
    graph or a prefix may span lines)."""
    source = "<stdin>" if path == "-" else str(path)
    normalize_format(fmt)
    if path != "-" and Path(path).is_dir():
        return iter(_read_directory(path, accounting)), None
    kind, lines = _lines_and_format(path, fmt)
    if kind is None:  # nothing but blank lines and comments: an empty stream
        return iter(()), None
    if kind == "ntriples":
        return _ntriples_raws(lines, source, accounting), None
    text = "\n".join(lines)
    return iter(_read_raw(text, kind, None if path == "-" else path, source, accounting)), text


def _lines_and_format(path: str, fmt: str) -> tuple[str | None, Iterator[str]]:
    """(the format of a stream file, its lines read lazily); the format ``None`` for a file of
    blank lines and comments only, ``auto`` left to the whole-text detection (``detect_format``)."""
    fmt = normalize_format(fmt)
    lines = _open_lines(path)
    head: list[str] = []
    if fmt == "auto":
        suffix = Path(path).suffix.lower() if path != "-" else ""
        if suffix in EXTENSIONS:
            fmt = EXTENSIONS[suffix]
        else:
            for line in lines:
                head.append(line)
                if line.strip() and not line.strip().startswith("#"):
                    break
            first = next((x.strip() for x in head if x.strip() and not x.strip().startswith("#")), "")
            if not first:
                return None, iter(())
            if not first.lower().startswith(("@prefix", "prefix", "@base", "base")) \
                    and not _NOTATION_LINE.search(first) and "{" not in first and _NT_LINE.match(first):
                # a statement without a timestamp may open N-Quads (the graphs' timestamps in the
                # default graph): the lines up to the first quad are read ahead to tell
                ahead: list[str] = []
                if _is_triple_line(first):
                    for line in itertools.islice(lines, 1000):
                        ahead.append(line)
                        x = line.strip()
                        if x and not x.startswith("#") and not _is_triple_line(x):
                            break
                head += ahead
                if _nquads_ahead(first, ahead):
                    fmt = "nquads"
                elif not (ahead and "{" in ahead[-1]):  # else TriG graphs after their times: detect_format
                    fmt = "ntriples"
    return fmt, itertools.chain(head, lines)


def iter_streams(files: Mapping[str, str | Path], fmt: str = "auto", time: TimeSpec = TimeSpec(),
                 accounting: Accounting | None = None) -> Iterator[StreamElement]:
    """The elements of several streams (IRI → file, ``-`` = standard input) merged by time as
    :func:`merge_streams` merges them, read while they are consumed: timestamped N-Triples line by
    line (a pipe that never ends is read as it arrives), other formats whole. Equal to
    ``merge_streams(read_streams(files, fmt, time, accounting))`` element by element, with the same
    errors; only the dateTime epoch needs the first element of every stream before the first is
    given out."""
    from rdflib import URIRef

    sources = []
    for iri, path in files.items():
        raws, text = _lazy_raws(str(path), fmt, accounting)
        first = next(raws, None)
        sources.append((URIRef(str(iri)), str(path), text, first, raws))
    epoch = time.epoch
    if epoch is None:
        firsts = [f.time for _, _, _, f, _ in sources if f is not None and isinstance(f.time, datetime)]
        epoch = min(firsts) if firsts else None
    streams = []
    for iri, path, text, first, raws in sources:
        if first is None:
            continue
        source = "<stdin>" if path == "-" else path
        streams.append(_convert_iter(itertools.chain([first], raws), iri, time, epoch, source, text, accounting))
    if len(streams) == 1:
        return streams[0]
    return heapq.merge(*streams, key=lambda e: e.t)


class LarsTexts:
    """The canonical LARS texts of RDF terms (``lars.printer.format_term(to_lars(term))``, D5/D7:
    an RDF term is the LARS string of its N-Triples text), looked up by term (:meth:`of_term`) or
    by the N-Triples token a stream line holds (``tokens[token]``), each computed once while it
    recurs (bounded: each cache is emptied when it holds ``limit`` entries, so fresh IRIs do not
    make it grow with the stream)."""

    def __init__(self, limit: int = TERM_CACHE_SIZE) -> None:
        self.limit = limit
        self.texts: dict = {}
        self.tokens = _TokenTexts(self)

    def of_term(self, term) -> str:
        got = self.texts.get(term)
        if got is None:
            from lars.printer import format_term

            if len(self.texts) >= self.limit:
                self.texts.clear()
            got = self.texts[term] = format_term(to_lars(term))
        return got

    def of_iri(self, iri: str) -> str:
        """``of_term(URIRef(iri))``, from the text (:func:`translator.rdf.terms.iri_nt`)."""
        from lars.printer import format_term
        from lars.model import String

        return format_term(String(iri_nt(iri)))


class _TokenTexts(dict):
    """The LARS texts of the term tokens of ``_FAST_LINE``, computed when missing: an IRI there
    has no escape, quote, backslash or control character (nothing ``to_nt`` or the LARS printer
    would escape), so its LARS string is the token in quotes; a blank node or literal is read with
    :func:`from_nt` (which canonicalises a literal's language tag and ``xsd:string``)."""

    def __init__(self, owner: LarsTexts) -> None:
        super().__init__()
        self.owner = owner

    def __missing__(self, token: str) -> str:
        if len(self) >= self.owner.limit:
            self.clear()
        if token[0] == "<":
            got = f'"{token}"'
        elif token[0] == '"' and _PLAIN_TYPED_TOKEN.fullmatch(token) and not token.endswith(_XSD_STRING_SUFFIX):
            got = '"' + token.replace('"', '\\"') + '"'  # its own N-Triples text: only its quotes escaped
        else:
            got = self.owner.of_term(from_nt(token))
        self[token] = got
        return got


# a typed literal token whose N-Triples text is itself (to_nt(from_nt(t)) == t): a lexical form of
# printable ASCII without quote or backslash, a datatype IRI of ASCII IRI characters, not xsd:string
# (which reads as a plain literal); its LARS string escapes nothing but its quotes (fresh numbers)
_PLAIN_TYPED_TOKEN = re.compile(r'"[ !#-\[\]-~]*"\^\^<[A-Za-z0-9:/._#~%?&=+,;@!$\'()*\-]*>')
_XSD_STRING_SUFFIX = "^^<http://www.w3.org/2001/XMLSchema#string>"


def iter_stream_batches(files: Mapping[str, str | Path], fmt: str = "auto", time: TimeSpec = TimeSpec(),
                        accounting: Accounting | None = None) -> Iterator[tuple[int, list[tuple[str, str, str, str]], int]]:
    """The elements of :func:`iter_streams`, in the same order, with the same errors and
    accounting, as batches ``(t, rows, line)``: consecutive elements of one time point t as rows
    ``(s, p, o, stream)`` of LARS texts, ``line`` the line of the first — the LARS view
    ``striple(S, P, O, s)`` of the stream as the incremental engine reads it (``lars.incremental``).
    A time point may come in several batches.

    One stream of timestamped N-Triples (``--stream-format ntriples`` or a ``.nt`` file; a file or
    a pipe) is read without building RDF terms or elements: it is read in blocks of lines
    (:func:`_open_blocks`); a block whose lines are all of ``_FAST_LINE`` with integer timestamps
    that convert exactly and do not go backwards becomes its batches at once (one regex search,
    then column operations); any other line goes through the general reader (``_ntriples_raws``,
    ``_convert_iter``) with the time point before it, so errors, rejections and dateTimes are
    handled as in :func:`iter_streams`."""
    texts = LarsTexts()
    sources = _ntriples_sources(files, fmt, time)
    if sources is None:
        for t, row, line in element_texts(iter_streams(files, fmt, time, accounting), texts):
            yield t, [row], line
        return
    batches = [_ntriples_batches(blocks, "<stdin>" if path == "-" else path, str(iri), time, accounting, texts)
               for iri, path, blocks in sources]
    # several streams merged by time as iter_streams merges their elements (heapq.merge is stable:
    # at equal times the streams' batches come in the order of the files, each stream's in its order)
    yield from batches[0] if len(batches) == 1 else heapq.merge(*batches, key=_batch_time)


def _batch_time(batch: tuple) -> int:
    return batch[0]


def _ntriples_sources(files: Mapping[str, str | Path], fmt: str, time: TimeSpec) -> list[tuple] | None:
    """``(iri, path, blocks of lines)`` of streams of timestamped N-Triples (``--stream-format
    ntriples`` or ``.nt`` files) that :func:`_ntriples_batches` reads one by one, ``None`` if the
    general reader must read them: another format, a directory, or, for several streams without
    ``--epoch``, a stream from standard input or whose first element is not a common line with an
    integer timestamp (dateTimes count from the first timestamp of *all* the streams, which only
    the general reader knows before giving out the first element)."""
    chosen = []
    for iri, path in files.items():
        path = str(path)
        kind = normalize_format(fmt)
        if kind == "auto" and path != "-":
            kind = EXTENSIONS.get(Path(path).suffix.lower(), "auto")
        if kind != "ntriples" or (path != "-" and Path(path).is_dir()) or (len(files) > 1 and path == "-"):
            return None
        chosen.append((iri, path))
    if len(chosen) == 1 or time.epoch is not None:
        return [(iri, path, _open_blocks(path)) for iri, path in chosen]
    out, opened = [], []
    for iri, path in chosen:
        blocks = _open_blocks(path)
        taken = []
        first = None
        for block in blocks:
            taken.append(block)
            first = next((line for line in block if line.strip() and not line.lstrip().startswith("#")), None)
            if first is not None:
                break
        opened.append(blocks)
        if first is not None and _FAST_LINE.match(first[:-1] if first.endswith("\n") else first) is None:
            for each in opened:
                each.close()
            return None
        out.append((iri, path, itertools.chain(taken, blocks)))
    return out


def iter_stream_texts(files: Mapping[str, str | Path], fmt: str = "auto", time: TimeSpec = TimeSpec(),
                      accounting: Accounting | None = None) -> Iterator[tuple[int, tuple[str, str, str, str], int]]:
    """``(t, (s, p, o, stream) as LARS texts, line)`` of the elements of :func:`iter_streams`, one
    by one: :func:`iter_stream_batches` with every batch's rows given out with their lines."""
    for t, rows, line in iter_stream_batches(files, fmt, time, accounting):
        for k, row in enumerate(rows):
            yield t, row, line + k


def element_texts(elements: Iterable[StreamElement],
                  texts: LarsTexts | None = None) -> Iterator[tuple[int, tuple[str, str, str, str], int]]:
    """``(t, row of LARS texts, line)`` of elements (the shape of :func:`iter_stream_texts`)."""
    of_term = (LarsTexts() if texts is None else texts).of_term
    for e in elements:
        s, p, o = e.triple
        yield e.t, (of_term(s), of_term(p), of_term(o), of_term(e.stream_iri)), e.source_line


def _ntriples_batches(blocks: Iterable[list[str]], source: str, iri: str, time: TimeSpec,
                      accounting: Accounting | None, texts: LarsTexts) -> Iterator[tuple[int, list, int]]:
    """:func:`iter_stream_batches` of one timestamped N-Triples stream (IRI ``iri``) given as
    blocks of lines with their line ends (:func:`_open_blocks`; see :func:`iter_stream_batches`).
    The stream's IRI is an rdflib term only for the lines the general reader reads."""
    many = _FAST_LINES.findall
    fast = _FAST_LINE.match
    token = texts.tokens.__getitem__
    of_term = texts.of_term
    g = texts.of_iri(iri)
    stream_term = None  # the IRI as an rdflib term, made (without a second warning) by general()
    per, base = unit_ms(time.stream_unit or time.unit), unit_ms(time.unit)
    count = accounting.count_read if accounting is not None else None
    previous: int | None = None
    first_kind: bool | None = None  # whether the stream's timestamps are dateTimes (as its first element's)
    epoch = time.epoch

    def general(line: str, lineno: int) -> Iterator[tuple[int, list, int]]:
        nonlocal previous, first_kind, epoch, stream_term
        if stream_term is None:
            from rdflib import URIRef

            stream_term = str.__new__(URIRef, iri)  # = URIRef(iri), whose warning iri_nt logged
        for raw in _ntriples_raws((line,), source, accounting, None, first_line=lineno):
            if first_kind is None:
                first_kind = type(raw.time) is datetime
                if first_kind and epoch is None:  # dateTimes count from the first one unless --epoch
                    epoch = raw.time  # type: ignore[assignment]
            for e in _convert_iter((raw,), stream_term, time, epoch, source, None, accounting, first_kind, previous):
                previous = e.t
                a, b, c = e.triple
                yield e.t, [(of_term(a), of_term(b), of_term(c), g)], lineno

    lineno = 0
    for block in blocks:
        n = len(block)
        columns = None
        if first_kind is not True:
            text = "".join(block)
            columns = _strict_columns(text, n)
            if columns is None:
                found = many(text)
                if len(found) == n:
                    columns = tuple(zip(*found))
                    columns = columns[0], columns[1], columns[2], columns[4]
        if columns is not None:  # every line a common one: the block at once, if its times allow
            subjects, predicates, objects, values = columns
            ts: list[int] | None = list(map(int, values))
            if per != base:
                ts = None if any(v * per % base for v in ts) else [v * per // base for v in ts]  # type: ignore[union-attr]
            if ts is not None and (previous is None or ts[0] >= previous) and sorted(ts) == ts:
                previous = ts[-1]
                first_kind = False
                if count is not None:
                    count(n)
                rows = list(zip(map(token, subjects), map(token, predicates), map(token, objects), itertools.repeat(g, n)))
                i = 0
                while i < n:  # one batch per time point (the times are sorted)
                    j = bisect_right(ts, ts[i], i)
                    yield ts[i], rows[i:j], lineno + i + 1
                    i = j
                lineno += n
                continue
        for line in block:  # line by line
            lineno += 1
            m = fast(line[:-1] if line.endswith("\n") else line) if first_kind is not True else None
            if m is not None:
                s, p, o, _, value = m.groups()
                value = int(value)
                if value * per % base == 0:
                    t = value * per // base
                    if previous is None or t >= previous:
                        previous = t
                        first_kind = False
                        if count is not None:
                            count()
                        yield t, [(token(s), token(p), token(o), g)], lineno
                        continue
            yield from general(line[:-1] if line.endswith("\n") else line, lineno)


@dataclass(frozen=True)
class StreamFiles:
    """Stream files to read while they are evaluated (``--stream IRI=FILE``, ``-`` = standard
    input), as elements (:func:`iter_streams`) or as rows of LARS term texts
    (:func:`iter_stream_texts`), whichever the engine reads; each is read once."""

    files: Mapping[str, str | Path]
    fmt: str = "auto"
    time: TimeSpec = TimeSpec()
    accounting: Accounting | None = None

    def __post_init__(self) -> None:
        for path in self.files.values():  # a missing file is named before anything is read or written
            if str(path) != "-" and not Path(path).exists():
                raise RsplarsError(f"stream file not found: {path}")

    def elements(self) -> Iterator[StreamElement]:
        return iter_streams(self.files, self.fmt, self.time, self.accounting)

    def batches(self) -> Iterator[tuple[int, list[tuple[str, str, str, str]], int]]:
        return iter_stream_batches(self.files, self.fmt, self.time, self.accounting)
