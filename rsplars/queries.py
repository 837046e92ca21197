"""Reading queries: :func:`parse` (text or file, any dialect) and the query text kept for the
errors that point into it later (``NOW()`` without an epoch, a construct another dialect cannot
write)."""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from lars.errors import RsplarsError
from translator.query.model import Query

__all__ = ["DIALECTS", "Query", "QueryInput", "parse"]

#: the dialects :func:`parse` reads (``auto``: detected from the text)
DIALECTS = ("auto", "csparql", "cqels", "epsparql", "rspql", "rsepql")

QueryInput = Union[Query, str, "os.PathLike[str]"]
"""What the functions taking a query accept: a parsed :class:`Query`, a query text, or the path of
a query file (see :func:`parse`)."""


@dataclass(frozen=True)
class QuerySource:
    """The text a query was parsed from and its name (a file path or ``<input>``)."""

    text: str
    source: str
    lenient: bool = False
    bare_ns: str | None = None


_SOURCES: weakref.WeakKeyDictionary[Query, QuerySource] = weakref.WeakKeyDictionary()


def parse(text_or_path: str | os.PathLike[str], dialect: str = "auto", *, lenient: bool = False,
          bare_ns: str | None = None, source: str | None = None) -> Query:
    """Parse a C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL or RSEP-QL query into the query model
    (``Q = (V, P, D, S)`` of Dao-Tran, Beck, Eiter 2015, §3, with the dialects' additions).

    ``text_or_path``: the query text, or the path of a query file (a :class:`os.PathLike`, or a
    string without ``{``: every query text has one). ``dialect``: one of :data:`DIALECTS`; ``auto`` detects
    it from the text (the result's ``dialect`` says which). ``lenient`` accepts the quirks of the
    papers' printed queries (docs/model-json.md); the remarks are in the result's ``notes``.
    ``bare_ns``: the namespace of EP-SPARQL bare names. ``source``: the name of a query text in
    error messages (a file's path, ``<stdin>``); given, ``text_or_path`` is always the text.

    Raises :class:`rsplars.QuerySyntaxError` (and the other :class:`rsplars.SourceError`) with the
    file, line and column of the fault; :class:`rsplars.RsplarsError` for a file that cannot be read.

    >>> import rsplars
    >>> q = rsplars.parse('''
    ... PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 10s SLIDE 2s] { ?x :p ?y } }''')
    >>> q.dialect
    'cqels'
    """
    if dialect not in DIALECTS:
        raise RsplarsError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    if source is not None and isinstance(text_or_path, str):
        text = text_or_path
    else:
        text, source = read_query_text(text_or_path)
    from translator.query.parse import parse as parse_query

    query = parse_query(text, dialect, source=source, lenient=lenient, bare_ns=bare_ns)
    remember(query, QuerySource(text, source, lenient, bare_ns))
    return query


def remember(query: Query, source: QuerySource) -> None:
    """Keep the text ``query`` was read from, for errors located in it later."""
    try:
        _SOURCES[query] = source
    except TypeError:  # a query holding an unhashable value: its errors name the printed query
        pass


def read_query_text(text_or_path: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, source name) of a query given as text or as a file (see :func:`parse`)."""
    if isinstance(text_or_path, os.PathLike):
        return read_file(Path(text_or_path), "query"), os.fspath(text_or_path)
    if isinstance(text_or_path, str):
        if "{" not in text_or_path:  # every query has a group { … }: a path (read_file names a missing one)
            return read_file(Path(text_or_path), "query"), text_or_path
        return text_or_path, "<input>"
    raise TypeError(f"a query is a text, a path or a parsed Query, not {type(text_or_path).__name__}")


def read_file(path: Path, what: str) -> str:
    """The UTF-8 text of a file, or a :class:`RsplarsError` that names it."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RsplarsError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RsplarsError(f"cannot read {what} {path}: not UTF-8 text ({exc.reason})") from None


def as_query(query: QueryInput, *, dialect: str = "auto", lenient: bool = False) -> Query:
    """``query`` itself if parsed, else :func:`parse` of it."""
    if isinstance(query, Query):
        return query
    return parse(query, dialect, lenient=lenient)


def source_of(query: Query) -> QuerySource:
    """The text and source name :func:`parse` read ``query`` from (a query built otherwise: its
    printed text, named ``<query>``)."""
    try:
        known = _SOURCES.get(query)
    except TypeError:
        known = None
    if known is not None:
        return known
    from translator.query.printer import print_query

    return QuerySource(print_query(query), "<query>")
