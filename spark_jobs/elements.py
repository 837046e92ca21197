"""The element tables of ``--elements PATH`` checked in plain Python before Spark reads them.

An element table has the columns ``time, stream, s, p, o`` (``docs/spark.md``): an integer time
point, the stream IRI (bare or ``<…>``) and the triple's terms in N-Triples form. Spark's own CSV
reader turns a malformed field into ``null`` without a word; this module reads a local CSV or
Parquet file row by row so that a malformed element stops the run with ``FILE:LINE:COLUMN``
(Parquet: ``FILE:ROW:COLUMN``, the row counted from 1 and the column the field's position), or is
skipped and reported with ``skip_bad`` (``translator.evaluate.accounting``). Times must not
decrease (as in the sequential readers, ``translator.rdf.streams``).

Rows come back canonical: ``(t, stream IRI, s, p, o)`` with the terms re-printed by
``translator.rdf.terms.to_nt``; :func:`format_elements_csv` writes them back (the round trip the
fuzz tests check).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Iterable, TextIO

from lars.errors import RsplarsError, SourceError
from rdflib import Literal, URIRef
from lars.accounting import MALFORMED, OUT_OF_ORDER, Accounting, reject_or_raise
from translator.rdf.terms import from_nt, to_nt

COLUMNS = ("time", "stream", "s", "p", "o")
ElementRow = tuple[int, str, str, str, str]


def _field_columns(line: str) -> list[int]:
    """1-based character columns where each CSV field of ``line`` starts."""
    starts, quoted = [1], False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif c == "," and not quoted:
            starts.append(i + 2)
    return starts


def _check_row(values: list, where: tuple[str, int, list[int], str | None]) -> ElementRow:
    source, line, columns, text = where

    def fail(message: str, field: int, expected: str | None = None) -> SourceError:
        column = columns[field] if field < len(columns) else (columns[-1] if columns else 1)
        return SourceError(message, source=source, line=line, column=column, text=text, expected=expected)

    if len(values) != len(COLUMNS):
        raise fail(f"{len(values)} fields, expected {len(COLUMNS)}", min(len(values), len(COLUMNS) - 1),
                   "time,stream,s,p,o")
    time, stream, s, p, o = values
    if isinstance(time, bool) or not isinstance(time, (int, str)):
        raise fail(f"time {time!r} is not an integer", 0, "an integer time point >= 0")
    if isinstance(time, str):
        if not time.strip().lstrip("+-").isdigit() or not time.strip().isascii():
            raise fail(f"time {time!r} is not an integer", 0, "an integer time point >= 0")
        time = int(time)
    if time < 0:
        raise fail(f"negative time {time}", 0, "an integer time point >= 0")
    if not isinstance(stream, str) or not stream.strip():
        raise fail("empty stream IRI", 1, "the stream's IRI")
    bare = stream.strip()
    bare = bare[1:-1] if bare.startswith("<") and bare.endswith(">") else bare
    try:
        iri = from_nt(f"<{bare}>")
    except SourceError:
        raise fail(f"malformed stream IRI {stream!r}", 1, "an IRI such as http://example.org/stream") from None
    terms = []
    for k, (value, role) in enumerate(((s, "subject"), (p, "predicate"), (o, "object")), start=2):
        if not isinstance(value, str):
            raise fail(f"the {role} is missing", k, "an N-Triples term")
        try:
            term = from_nt(value.strip())
        except SourceError as err:
            raise fail(err.message, k, "an N-Triples term: <IRI>, _:blank or \"literal\"") from None
        if (role == "subject" and isinstance(term, Literal)) or (role == "predicate" and not isinstance(term, URIRef)):
            raise fail(f"a {type(term).__name__.lower()} cannot be the {role}", k)
        terms.append(to_nt(term))
    return (time, str(iri), terms[0], terms[1], terms[2])


def read_elements_csv(handle: TextIO, *, source: str = "<elements>", accounting: Accounting | None = None,
                      skip_bad: bool = False) -> list[ElementRow]:
    """The rows of an element CSV (a header ``time,stream,s,p,o``, RFC 4180 quoting)."""
    text = handle.read()
    lines = text.split("\n")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as err:
        raise SourceError(f"malformed CSV header: {err}", source=source, line=1, column=1, text=text) from None
    if header is None or [h.strip() for h in header] != list(COLUMNS):
        raise SourceError(f"the header must be {','.join(COLUMNS)}", source=source, line=1, column=1, text=text,
                          expected=",".join(COLUMNS))

    def candidates():
        previous = reader.line_num
        while True:
            start = previous + 1
            try:
                values = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                raise SourceError(f"malformed CSV: {err}", source=source, line=start, column=1, text=text) from None
            previous = reader.line_num
            if not values or values == [""]:
                continue
            raw = lines[start - 1] if start - 1 < len(lines) else ""
            yield values, (source, start, _field_columns(raw), text)

    return _accepted(candidates(), accounting, skip_bad)


def read_elements_parquet(path: str, *, accounting: Accounting | None = None, skip_bad: bool = False) -> list[ElementRow]:
    """The rows of an element Parquet file (columns ``time, stream, s, p, o``)."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as err:  # noqa: BLE001 - pyarrow's errors carry no position
        raise SourceError(f"cannot read Parquet: {err}", source=path, line=1, column=1) from None
    missing = set(COLUMNS) - set(table.column_names)
    if missing:
        raise SourceError(f"missing column(s) {', '.join(sorted(missing))}", source=path, line=1, column=1,
                          expected=", ".join(COLUMNS))
    data = {c: table.column(c).to_pylist() for c in COLUMNS}
    rows = (([data[c][i] for c in COLUMNS], (path, i + 1, [1, 2, 3, 4, 5], None)) for i in range(table.num_rows))
    return _accepted(rows, accounting, skip_bad)


def _accepted(candidates: Iterable[tuple[list, tuple[str, int, list[int], str | None]]],
              accounting: Accounting | None, skip_bad: bool) -> list[ElementRow]:
    """The candidate rows (values, where) that :func:`_check_row` accepts and whose time does not go
    back; a rejected one raises, or with ``skip_bad`` and ``accounting`` is recorded and skipped."""
    out: list[ElementRow] = []
    last_t: int | None = None
    for values, where in candidates:
        source, line, _, text = where
        try:
            row = _check_row(values, where)
        except SourceError as err:
            reject_or_raise(accounting if skip_bad else None, err, MALFORMED)
            continue
        if last_t is not None and row[0] < last_t:
            reject_or_raise(accounting if skip_bad else None,
                            SourceError(f"time goes backwards: {row[0]} after {last_t}", source=source, line=line,
                                        column=1, text=text, expected=f"a time >= {last_t}"), OUT_OF_ORDER)
            continue
        last_t = row[0]
        if accounting is not None:
            accounting.count_read(1)
        out.append(row)
    return out


def check_elements_file(path: str, *, accounting: Accounting | None = None, skip_bad: bool = False) -> list[ElementRow] | None:
    """Check a local element file (CSV or Parquet, as ``spark_jobs.frames.read_elements`` decides);
    ``None`` for a path that is not a local file (a directory of splits, ``hdfs://…``): Spark's
    reader then checks it (``mode=FAILFAST``)."""
    p = Path(path)
    if "://" in path or not p.is_file():
        return None
    if path.rstrip("/").endswith(".parquet"):
        return read_elements_parquet(path, accounting=accounting, skip_bad=skip_bad)
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return read_elements_csv(handle, source=path, accounting=accounting, skip_bad=skip_bad)
    except UnicodeDecodeError as err:
        raise SourceError(f"not UTF-8 text: {err.reason} at byte {err.start}", source=path, line=1, column=1) from None
    except OSError as err:
        raise RsplarsError(f"cannot read {path}: {err.strerror}") from None


def format_elements_csv(rows: Iterable[ElementRow]) -> str:
    """Rows as an element CSV with its header (what :func:`read_elements_csv` reads back)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(row)
    return buf.getvalue()
