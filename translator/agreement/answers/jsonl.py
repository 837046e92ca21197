"""JSON lines, one evaluation per line: ``rsplars run``'s ``{"t": …, "answers": [{var: N-Triples term}]}``,
or a SPARQL 1.1 Query Results JSON document with a ``"timestamp"`` (or ``"t"``) field."""

from __future__ import annotations

import json

from lars.errors import SourceError
from translator.agreement.answers.relation import ActualRelation, relation_from_record


def read_jsonl(text: str, source: str, factor: tuple[int, int]) -> list[ActualRelation]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SourceError(f"not a JSON object: {exc.msg}", source=source, line=n, column=exc.colno, text=text,
                              expected='one JSON object per line, {"t": …, "answers": […]}') from None
        out.append(relation_from_record(record, source, n, text, factor, nt=True))
    return out
