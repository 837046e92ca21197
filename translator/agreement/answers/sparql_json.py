"""SPARQL 1.1 Query Results JSON, one document per evaluation, each preceded by a line holding its
timestamp alone (as RSP engines print results per timestamp: ``12000`` then ``{"head": …,
"results": …}``, the document possibly over several lines). A document with its own ``"timestamp"``
field needs no timestamp line (and one per line is the ``jsonl`` format)."""

from __future__ import annotations

import json
import re

from lars.errors import SourceError
from translator.agreement.answers.relation import ActualRelation, relation_from_record

_STAMP = re.compile(r"\s*(?:t\s*=\s*|timestamp\s*[:=]\s*)?(-?\d+)\s*")


def starts_with_stamp_line(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _STAMP.fullmatch(first) is not None


def read_sparql_json(text: str, source: str, factor: tuple[int, int]) -> list[ActualRelation]:
    decoder = json.JSONDecoder()
    out: list[ActualRelation] = []
    pos, stamp = 0, None
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        line_no = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        if text[pos] != "{":
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            m = _STAMP.fullmatch(text[pos:end])
            if m is None:
                raise SourceError("neither a timestamp line nor a JSON document", source=source, line=line_no,
                                  column=column, text=text,
                                  expected='a line with the timestamp (e.g. 12000), then {"head": …, "results": …}')
            stamp, pos = int(m.group(1)), end
            continue
        try:
            record, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise SourceError(f"not JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno, text=text,
                              expected="a SPARQL 1.1 JSON results document") from None
        if isinstance(record, dict) and stamp is not None and "timestamp" not in record and "t" not in record:
            record = {**record, "timestamp": stamp}
        if isinstance(record, dict) and "timestamp" not in record and "t" not in record:
            raise SourceError("a results document without a timestamp", source=source, line=line_no, column=column,
                              text=text, expected='a timestamp line before it, or a "timestamp" field')
        out.append(relation_from_record(record, source, line_no, text, factor, nt=False))
        stamp = None
    return out
