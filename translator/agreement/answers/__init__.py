"""Reading an engine's recorded answers, whatever format it writes (docs/check.md, "Formats").

:func:`read_answer_text` / :func:`read_answer_file` return :class:`Answers`: the relations (timestamp in
base units, bag of bindings: a row written twice counts twice), the format read, whether bindings were grouped by timestamp, and a one-line
description for stderr. :func:`read_answers` is the older ``(format, relations)`` form. Errors are
``FILE:LINE:COLUMN`` (:class:`lars.errors.SourceError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lars.errors import RsplarsError
from translator.agreement.answers.csparql_console import looks_like_csparql_console, read_csparql_console
from translator.agreement.answers.csrbench import group_by_timestamp, one_binding_each, read_csrbench
from translator.agreement.answers.jsonl import read_jsonl
from translator.agreement.answers.relation import ActualRelation
from translator.agreement.answers.sparql_json import read_sparql_json, starts_with_stamp_line
from translator.agreement.answers.table import read_table
from translator.agreement.answers.terms import Term, nt_key, term_key
from translator.agreement.answers.yasper import looks_like_yasper, read_yasper

__all__ = ["FORMATS", "ActualRelation", "Answers", "Term", "detect_format", "nt_key", "read_answer_file",
           "read_answer_text", "read_answers", "term_key"]

#: ``--answers-format`` names and what each is
FORMATS = {
    "csrbench": "CSRBench 2013 JSON, one relation per evaluation",
    "csrbench-2023": "CSRBench 2023 JSON, one relation per binding",
    "sparql-json": "SPARQL 1.1 JSON results, one document per evaluation after a timestamp line",
    "jsonl": "JSON lines, one evaluation per line (rsplars run, or SPARQL JSON with a timestamp field)",
    "csv": "SPARQL 1.1 CSV results with a timestamp column",
    "tsv": "SPARQL 1.1 TSV results with a timestamp column",
    "yasper": "YASPER/RSP4J console output, a Jena text table after each \"Result at [t]\"",
    "csparql-console": "the C-SPARQL engine's console output, tab-separated terms in SELECT order after each "
                       "\"N results at SystemTime=[…]\" (wall-clock times: no stream timestamps)",
}


@dataclass(frozen=True)
class Answers:
    format: str
    relations: list[ActualRelation]
    grouped: bool
    """Bindings were grouped by timestamp into relations (CSRBench 2023, CSV, TSV)."""
    description: str


def detect_format(text: str, source: str = "") -> str:
    """The format of an answer text, by its content (its file name's extension for CSV/TSV)."""
    stripped = text.lstrip()
    first = stripped.split("\n", 1)[0].strip()
    lower = source.lower()
    if lower.endswith(".tsv") or (not stripped.startswith(("{", "[")) and "\t" in first and "?" in first):
        return "tsv"
    if lower.endswith(".csv"):
        return "csv"
    if looks_like_yasper(text):
        return "yasper"
    if looks_like_csparql_console(text):
        return "csparql-console"
    if starts_with_stamp_line(text):
        return "sparql-json"
    if first in ("{", "[") or first.startswith("[") or '"relations"' in first:
        return "csrbench"
    if first.startswith("{"):
        return "jsonl"
    if "," in first:
        return "csv"
    return "jsonl"


def read_answer_text(text: str, source: str, *, fmt: str = "auto", time_factor: tuple[int, int] = (1, 1),
                     time_column: str | None = None, variables: Sequence[str] | None = None) -> Answers:
    """Read an engine's recorded output; ``fmt`` is one of :data:`FORMATS` or ``auto`` (by content: a
    CSRBench file whose relations each hold one binding with repeated timestamps is read as the 2023
    harness writes it, and grouped). ``time_factor = (num, den)`` converts timestamps to base units
    (rounded down). ``variables``: the query's projected variables, which name the columns of a format
    that does not name them (``csparql-console``)."""
    detected = fmt == "auto"
    if detected:
        fmt = detect_format(text, source)
    if fmt not in FORMATS:
        raise RsplarsError(f"unknown answers format {fmt!r} (expected auto, {', '.join(FORMATS)})")
    grouped = False
    if fmt in ("csrbench", "csrbench-2023"):
        relations = read_csrbench(text, source, time_factor)
        if fmt == "csrbench" and detected and one_binding_each(relations):
            fmt = "csrbench-2023"
        if fmt == "csrbench-2023":
            n_bindings = len(relations)
            relations, grouped = group_by_timestamp(relations), True
            return Answers(fmt, relations, grouped, f"{FORMATS[fmt]}, {n_bindings} bindings grouped by timestamp "
                                                    f"into {len(relations)} relations")
    elif fmt == "sparql-json":
        relations = read_sparql_json(text, source, time_factor)
    elif fmt == "yasper":
        relations = read_yasper(text, source, time_factor)
    elif fmt == "csparql-console":
        relations = read_csparql_console(text, source, variables)
    elif fmt == "jsonl":
        relations = read_jsonl(text, source, time_factor)
    else:
        relations, grouped = read_table(text, source, time_factor, tsv=fmt == "tsv", time_column_name=time_column), True
        rows = sum(len(r.bindings) for r in relations)
        return Answers(fmt, relations, grouped, f"{FORMATS[fmt]}, {rows} rows grouped by timestamp into "
                                                f"{len(relations)} relations")
    return Answers(fmt, relations, grouped, f"{FORMATS[fmt]}, {len(relations)} relations")


def read_answer_file(path: str | Path, *, fmt: str = "auto", time_factor: tuple[int, int] = (1, 1),
                     time_column: str | None = None, variables: Sequence[str] | None = None) -> Answers:
    """:func:`read_answer_text` of a file (for ``check --answers`` and ``agree --answers``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RsplarsError(f"{path}: cannot read the answers: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RsplarsError(f"{path}: the answers are not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return read_answer_text(text, str(path), fmt=fmt, time_factor=time_factor, time_column=time_column,
                            variables=variables)


def read_answers(text: str, source: str, *, time_factor: tuple[int, int] = (1, 1), fmt: str = "auto",
                 time_column: str | None = None, variables: Sequence[str] | None = None
                 ) -> tuple[str, list[ActualRelation]]:
    """``(format, relations)`` of :func:`read_answer_text`."""
    answers = read_answer_text(text, source, fmt=fmt, time_factor=time_factor, time_column=time_column,
                               variables=variables)
    return answers.format, answers.relations
