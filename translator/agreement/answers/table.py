"""SPARQL 1.1 Query Results CSV and TSV (W3C Recommendation 2013) with one extra column holding each
row's timestamp: rows with the same timestamp form one relation (a bag: a row written twice counts
twice), in order of time.

* CSV loses term kinds (SPARQL 1.1 CSV/TSV results, §2): a value with a URI scheme is read as an IRI,
  ``_:x`` as a blank node, a number as a numeric literal (compared by value, docs/check.md), anything
  else as a plain literal; an empty field is an unbound variable.
* TSV writes terms as in Turtle/N-Triples (``<iri>``, ``"lex"^^<dt>``, ``"x"@en``, bare numbers).

The time column is ``--answers-time-column`` or, by default, the column named ``t``, ``timestamp``,
``time`` or ``ts`` (case and a leading ``?`` ignored).
"""

from __future__ import annotations

import csv
import io
import re

from lars.errors import RsplarsError, SourceError
from translator.agreement.answers.relation import ActualRelation
from translator.agreement.answers.terms import Term, nt_key, term_key
from translator.rdf.bags import Bag

TIME_COLUMNS = ("t", "timestamp", "time", "ts")
_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:\S+")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
XSD = "http://www.w3.org/2001/XMLSchema#"


def _csv_term(value: str) -> Term | None:
    if value == "":
        return None
    if value.startswith("_:"):
        return term_key("bnode", value)
    if _NUMBER.fullmatch(value):
        return term_key("literal", value, XSD + "double")
    if _SCHEME.fullmatch(value):
        return term_key("uri", value)
    return term_key("literal", value)


def _tsv_term(value: str) -> Term | None:
    if value == "":
        return None
    if _NUMBER.fullmatch(value):
        return term_key("literal", value, XSD + "double")
    if value in ("true", "false"):
        return term_key("literal", value, XSD + "boolean")
    return nt_key(value)


def time_column(header: list[str], wanted: str | None) -> int | None:
    names = [h.strip().lstrip("?").lower() for h in header]
    if wanted is not None:
        return names.index(wanted.lstrip("?").lower()) if wanted.lstrip("?").lower() in names else None
    return next((i for i, n in enumerate(names) if n in TIME_COLUMNS), None)


def read_table(text: str, source: str, factor: tuple[int, int], *, tsv: bool,
               time_column_name: str | None = None) -> list[ActualRelation]:
    reader = csv.reader(io.StringIO(text, newline=None), delimiter="\t" if tsv else ",",
                        quoting=csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise SourceError(f"not {'TSV' if tsv else 'CSV'}: {exc}", source=source, line=max(reader.line_num, 1),
                          column=1, text=text, expected="one row per line, fields quoted as RFC 4180 says") from None
    expected = ("a header row of variables (" + ("?x\t?y\t?t" if tsv else "x,y,t") + ") with a timestamp column "
                + (f"named {time_column_name!r}" if time_column_name else "named t, timestamp, time or ts"))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise SourceError("no header row", source=source, line=1, column=1, text=text, expected=expected)
    header = rows[0]
    at = time_column(header, time_column_name)
    if at is None:
        raise SourceError(f"no timestamp column among {', '.join(h.strip() for h in header)}", source=source,
                          line=1, column=1, text=text, expected=expected + " (--answers-time-column NAME)")
    names = [h.strip().lstrip("?") for h in header]
    relations: dict[int, tuple[object, list, int]] = {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise SourceError(f"{len(row)} fields, the header has {len(header)}", source=source, line=n, column=1,
                              text=text, expected=f"{len(header)} fields separated by {'tabs' if tsv else 'commas'}")
        raw = row[at].strip()
        column = sum(len(c) + 1 for c in row[:at]) + 1
        try:
            t = int(raw) * factor[0] // factor[1]
        except ValueError:
            raise SourceError(f"timestamp {raw!r} is not an integer", source=source, line=n, column=column, text=text,
                              expected="an integer timestamp in --answers-time-unit") from None
        binding = []
        for i, (name, cell) in enumerate(zip(names, row)):
            if i == at:
                continue
            try:
                key = (_tsv_term if tsv else _csv_term)(cell.strip())
            except (RsplarsError, ValueError) as exc:  # ValueError: rdflib's cast of an ill-typed literal
                raise SourceError(f"not a term: {exc}", source=source, line=n,
                                  column=sum(len(c) + 1 for c in row[:i]) + 1, text=text,
                                  expected="<iri>, \"literal\", \"lex\"^^<datatype>, a number or _:b") from None
            if key is not None:
                binding.append((name, key))
        entry = relations.setdefault(t, (raw, [], n))
        entry[1].append(frozenset(binding))
    return [ActualRelation(t, raw, Bag(b), line) for t, (raw, b, line) in sorted(relations.items())]
