"""Looking at stream data before running a query: :func:`read_streams` reads streams (files,
``(triple, time)`` iterables, DataFrames) as :func:`rsplars.run` reads them and gives them back as one
pandas DataFrame, merged by time (Dao-Tran, Beck, Eiter 2015, §4.3 (i); docs/rdf-io.md)."""

from __future__ import annotations

from typing import Any, Mapping

from rsplars.data import StreamInput, read_data

__all__ = ["read_streams"]


def read_streams(streams: Mapping[str, StreamInput], *, unit: str = "s", stream_time_unit: str | None = None,
                 epoch: str | None = None) -> Any:
    """The elements of ``streams`` (IRI → file, iterable of ``(triple, time)`` or DataFrame, as for
    :func:`rsplars.run`) as a pandas DataFrame, one row per element in the order a run reads them
    (by time; streams in their given order at one time point): ``time`` (base ``unit``),
    ``stream`` (its IRI), ``subject``, ``predicate``, ``object`` (N-Triples terms).
    ``stream_time_unit`` and ``epoch``: how the files' timestamps read (as for :func:`rsplars.run`).

    >>> import rsplars
    >>> a = [(("<http://ex.org/a>", "<http://ex.org/p>", '"1"'), 3)]
    >>> b = [(("<http://ex.org/b>", "<http://ex.org/p>", '"2"'), 1)]
    >>> rsplars.read_streams({"http://ex.org/s1": a, "http://ex.org/s2": b})[["time", "stream", "subject"]].values.tolist()
    [[1, 'http://ex.org/s2', '<http://ex.org/b>'], [3, 'http://ex.org/s1', '<http://ex.org/a>']]
    """
    from rsplars.running import _pandas
    from translator.rdf.terms import to_nt

    data = read_data(streams, unit=unit, stream_time_unit=stream_time_unit, epoch=epoch)
    rows = [(e.t, str(e.stream_iri), *(to_nt(x) for x in e.triple)) for e in data.elements]
    return _pandas().DataFrame(rows, columns=["time", "stream", "subject", "predicate", "object"])
