"""One relation of an engine's recorded output (a timestamp and a bag of bindings: a row written twice
is a member of cardinality 2, SPARQL 1.1 §18.1.6) and the reading of
one JSON record of it: SPARQL 1.1 JSON results (``{"results": {"bindings": […]}}``) or ``rsplars run``'s
``{"t": …, "answers": [{var: N-Triples term}]}``."""

from __future__ import annotations

from dataclasses import dataclass

from lars.errors import RsplarsError, SourceError
from translator.agreement.answers.terms import json_term, nt_key
from translator.rdf.bags import Bag


@dataclass(frozen=True)
class ActualRelation:
    t: int | None
    """Timestamp in base units (``None``: the file gives none)."""
    raw_t: object
    bindings: Bag
    """The bindings, each as often as the output writes it."""
    line: int


def relation_from_record(record, source: str, line: int, text: str, factor: tuple[int, int], *, nt: bool) -> ActualRelation:
    def bad(msg: str, expected: str) -> SourceError:
        return SourceError(msg, source=source, line=line, column=1, text=text, expected=expected)

    if not isinstance(record, dict):
        raise bad("a relation must be a JSON object", '{"timestamp": …, "results": {"bindings": […]}}')
    raw_t = record.get("timestamp", record.get("t"))
    t = None
    if raw_t is not None:
        try:
            number = int(str(raw_t).strip())
        except ValueError:
            raise bad(f"timestamp {raw_t!r} is not an integer", "an integer timestamp in --answers-time-unit") from None
        t = number * factor[0] // factor[1]
    bindings: list = []
    if "answers" in record:
        if not isinstance(record["answers"], list):
            raise bad('"answers" must be a list', '[{"var": "N-Triples term"}, …]')
        for a in record["answers"]:
            if not isinstance(a, dict):
                raise bad("an answer must be a JSON object", '{"var": "N-Triples term"}')
            if not all(isinstance(x, str) for x in a.values()):
                raise bad("an answer's terms must be N-Triples strings", '{"var": "<http://…>"}')
            try:
                bindings.append(frozenset((v, nt_key(x)) for v, x in a.items()))
            except RsplarsError as exc:
                raise bad(f"answer term: {exc}", "N-Triples terms") from None
    elif "results" in record:
        res = record["results"]
        rows = res.get("bindings") if isinstance(res, dict) else None
        if not isinstance(rows, list):
            raise bad('"results" has no "bindings" list', 'SPARQL 1.1 JSON results {"bindings": […]}')
        for b in rows:
            if isinstance(b, dict) and isinstance(b.get("binding"), dict):
                b = b["binding"]  # the CSRBench oracle's own files: {"timestamp": t, "binding": {...}}
            if not isinstance(b, dict):
                raise bad("a binding must be a JSON object", '{"var": {"type": "uri", "value": "…"}}')
            bindings.append(frozenset((v, json_term(x, bad)) for v, x in b.items() if x is not None))
    elif "answer" in record or "boolean" in record:
        raise bad("ASK answers are not supported by check", "SELECT results")
    else:
        raise bad('a relation needs "results" (SPARQL JSON) or "answers" (rsplars run)',
                  '{"timestamp": …, "results": {"bindings": […]}}')
    return ActualRelation(t, raw_t, Bag(bindings), line)

