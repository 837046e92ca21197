"""Stream and static data of a run, given as files, as Python iterables or as pandas DataFrames.

Streams (``streams={iri: value}``), each value one of:

* a file path (``str`` or :class:`os.PathLike`): timestamped N-Triples, TriG, N-Quads, JSON-LD, the
  papers' notation or a folder of ``NAME<k>.ttl`` (docs/rdf-io.md), read as ``rsplars run
  --stream IRI=FILE`` reads it;
* an iterable of ``(triple, time)`` pairs: ``triple`` three rdflib terms or three N-Triples terms
  (``"<http://ex.org/a>"``, ``'"25"^^<…#integer>'``, ``"_:b"``), ``time`` an integer in base units;
* a pandas DataFrame with the columns ``subject``, ``predicate``, ``object`` (N-Triples terms or
  rdflib terms) and ``time`` (integers in base units), one row per element.

Elements of one stream come in time order (arrival order within a time point; a time before the
previous one is an error, as in the stream files). The streams are merged by time in the order of
the mapping (Dao-Tran, Beck, Eiter 2015, §4.3 (i)).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, Union

from lars.errors import RsplarsError

if TYPE_CHECKING:
    from lars.accounting import Accounting

__all__ = ["Data", "StaticDuring", "StaticInput", "StreamInput", "read_data"]

StreamInput = Union[str, "os.PathLike[str]", Iterable[tuple[Any, int]], Any]
"""One stream: a file path, an iterable of ``(triple, time)``, or a pandas DataFrame (module docstring)."""

StaticDuring = tuple[Union[int, None], Union[int, None], Union[str, "os.PathLike[str]"]]
"""``(start, end, file)``: the RDF file's triples hold in the default graph only from ``start`` to
``end`` (base units, both included; ``None``: unbounded), a piece of a time-varying graph
(Dell'Aglio et al. 2014, Def. 10; ``--static-during FROM..TO=FILE``)."""

StaticInput = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]], None]
"""Static data of the default graph: one RDF file or several (any RDF syntax rdflib reads)."""

#: the columns a stream DataFrame has
DATAFRAME_COLUMNS = ("subject", "predicate", "object", "time")


@dataclass(frozen=True)
class Data:
    """The data of a run: stream elements merged by time, the static facts, and what was read
    (the stream IRIs, the static files, the stream files)."""

    elements: list[Any]
    facts: tuple[Any, ...]
    stream_iris: tuple[str, ...]
    static_files: tuple[str, ...] = ()
    stream_files: Mapping[str, str] = field(default_factory=dict)


def read_data(streams: Mapping[str, StreamInput] | None, static: StaticInput = None,
              named: Mapping[str, str | os.PathLike[str]] | None = None, *, unit: str = "s",
              stream_time_unit: str | None = None, epoch: str | None = None,
              static_during: Sequence[StaticDuring] = (), accounting: Accounting | None = None) -> Data:
    """The stream elements and static facts of a run (module docstring). ``unit``: the base time
    unit; ``stream_time_unit``: the unit of integer timestamps in stream files (default ``unit``);
    ``epoch``: time 0 for ``xsd:dateTime`` timestamps of files (default: the first one);
    ``static_during``: :data:`StaticDuring` pieces of a time-varying static graph; ``accounting``
    (:class:`lars.accounting.Accounting`): counts the elements of stream files read and rejected,
    and skips bad ones if it says so (docs/robustness.md)."""
    from translator.rdf.streams import merge_streams, read_streams
    from translator.rdf.timeunits import TimeSpec, parse_datetime

    streams = dict(streams or {})
    spec = TimeSpec(unit, stream_time_unit, parse_datetime(epoch) if epoch else None)
    files = {str(iri).strip("<>"): os.fspath(v) for iri, v in streams.items() if isinstance(v, (str, os.PathLike))}
    read = read_streams(files, time=spec, accounting=accounting) if files else {}
    by_iri: dict[object, Sequence[Any]] = {}
    for iri, value in streams.items():
        key = str(iri).strip("<>")
        if key in by_iri:
            raise RsplarsError(f"stream <{key}> is given twice")
        if key in files:
            from rdflib import URIRef

            by_iri[key] = read[URIRef(key)]
        else:
            by_iri[key] = elements_of(key, value)
    elements = merge_streams(by_iri) if by_iri else []
    static_files = tuple(os.fspath(p) for p in _paths(static))
    named_files = {str(iri).strip("<>"): os.fspath(p) for iri, p in (named or {}).items()}
    facts: tuple[Any, ...] = ()
    if static_files or named_files:
        from translator.rdf.static import load_static_facts

        facts = tuple(load_static_facts(list(static_files), named_files))
    for piece in static_during:
        facts = (*facts, *_held_during(piece))
    return Data(elements, facts, tuple(str(iri) for iri in by_iri), static_files, files)


def _held_during(piece: StaticDuring) -> tuple[Any, ...]:
    """The facts of one :data:`StaticDuring` piece (:func:`translator.rdf.static.hold_during`)."""
    from translator.rdf.static import hold_during, load_static_facts

    start, end, path = piece
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"static_during {piece!r}: the start {start} is after the end {end}")
    return tuple(hold_during(load_static_facts([os.fspath(path)]), start, end))


def _paths(static: StaticInput) -> list[str | os.PathLike[str]]:
    if static is None:
        return []
    if isinstance(static, (str, os.PathLike)):
        return [static]
    return list(static)


def elements_of(iri: str, value: Any) -> list[Any]:
    """The stream elements of a DataFrame or an iterable of ``(triple, time)`` (module docstring)."""
    from rdflib import URIRef

    from translator.rdf.streams import StreamElement

    stream = URIRef(iri)
    out: list[StreamElement] = []
    previous: int | None = None
    for number, (triple, t) in enumerate(_pairs(iri, value), start=1):
        if isinstance(t, bool) or not isinstance(t, int):
            try:
                t = int(t)  # numpy integers
            except (TypeError, ValueError):
                raise RsplarsError(f"stream <{iri}>, element {number}: the time {t!r} is not an integer "
                                   "(base units)") from None
        if previous is not None and t < previous:
            raise RsplarsError(f"stream <{iri}>, element {number}: time {t} comes after time {previous} "
                               "(the elements of a stream come in time order)")
        previous = t
        out.append(StreamElement(_triple(iri, number, triple), t, stream, number))
    return out


def _pairs(iri: str, value: Any) -> Iterable[tuple[Any, Any]]:
    columns = getattr(value, "columns", None)
    if columns is not None and hasattr(value, "itertuples"):  # a pandas DataFrame
        missing = [c for c in DATAFRAME_COLUMNS if c not in list(columns)]
        if missing:
            raise RsplarsError(f"stream <{iri}>: the DataFrame has no column {', '.join(missing)} (a stream "
                               f"DataFrame has the columns {', '.join(DATAFRAME_COLUMNS)})")
        frame = value[list(DATAFRAME_COLUMNS)]
        return (((s, p, o), t) for s, p, o, t in frame.itertuples(index=False, name=None))
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise RsplarsError(f"stream <{iri}>: expected a file path, a DataFrame or (triple, time) pairs, "
                           f"not {type(value).__name__}")
    return _checked_pairs(iri, value)


def _checked_pairs(iri: str, value: Iterable[Any]) -> Iterable[tuple[Any, Any]]:
    for number, item in enumerate(value, start=1):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise RsplarsError(f"stream <{iri}>, element {number}: expected a pair (triple, time), got {item!r}")
        yield item


def _triple(iri: str, number: int, triple: Any) -> tuple[Any, Any, Any]:
    if not (isinstance(triple, (tuple, list)) and len(triple) == 3):
        raise RsplarsError(f"stream <{iri}>, element {number}: a triple is three terms, got {triple!r}")
    s, p, o = (_term(iri, number, x) for x in triple)
    return s, p, o


def _term(iri: str, number: int, x: Any) -> Any:
    from rdflib.term import Identifier

    if isinstance(x, Identifier):
        return x
    if isinstance(x, str):
        from translator.rdf.terms import from_nt

        return from_nt(x.strip(), source=f"stream <{iri}>", line=number)  # SourceError: line = element number
    raise RsplarsError(f"stream <{iri}>, element {number}: a term is an rdflib term or an N-Triples string, "
                       f"got {x!r}")
