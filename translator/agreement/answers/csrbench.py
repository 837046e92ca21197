"""CSRBench answer files (Dell'Aglio et al. 2013, §6): ``{"relations": [{"head": …, "timestamp": t,
"results": {"bindings": [{"timestamp": t, "binding": {…}}]}}]}``.

* ``csrbench`` — the 2013 oracle harness: one relation per evaluation, read as written;
* ``csrbench-2023`` — the 2023 harness (RDFox, YASPER, C-SPARQL 2.0): one relation per *binding*, each
  with its own timestamp; its oracle groups the bindings by timestamp before comparing, and so does this
  reader (one relation per distinct timestamp, in order of time).
"""

from __future__ import annotations

import json
import re

from lars.errors import SourceError
from translator.agreement.answers.relation import ActualRelation, relation_from_record

SHAPE = '{"relations": [{"timestamp": …, "results": {"bindings": […]}}]}'


def read_csrbench(text: str, source: str, factor: tuple[int, int]) -> list[ActualRelation]:
    """The relations of a CSRBench answer file, as written (errors ``FILE:LINE:COLUMN``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(f"not JSON: {exc.msg}", source=source, line=exc.lineno, column=exc.colno, text=text,
                          expected=SHAPE) from None
    relations = data.get("relations") if isinstance(data, dict) else data
    if not isinstance(relations, list):
        raise SourceError('no "relations" list', source=source, line=1, column=1, text=text, expected=SHAPE)
    starts = [m.start() for m in re.finditer(r"\{\s*\"(?:head|timestamp|results)\"", text)]
    out = []
    for i, rel in enumerate(relations):
        line = text.count("\n", 0, starts[i]) + 1 if i < len(starts) else 1
        out.append(relation_from_record(rel, source, line, text, factor, nt=False))
    return out


def one_binding_each(relations: list[ActualRelation]) -> bool:
    """Every relation holds one binding and some timestamp repeats, as written in the file (not after
    conversion to the base unit, which may merge distinct timestamps): the 2023 harness's shape."""
    stamps = [str(r.raw_t).strip() for r in relations]
    return bool(relations) and all(len(r.bindings) == 1 for r in relations) and len(set(stamps)) < len(stamps)


def group_by_timestamp(relations: list[ActualRelation]) -> list[ActualRelation]:
    """One relation per distinct timestamp as written in the file, the bag of its bindings (the 2023
    oracle's grouping; a binding written twice counts twice); relations without a timestamp stay as
    they are."""
    grouped: dict[str, ActualRelation] = {}
    out: list[ActualRelation] = []
    for r in relations:
        if r.t is None:
            out.append(r)
            continue
        key = str(r.raw_t).strip()
        first = grouped.get(key)
        grouped[key] = r if first is None else ActualRelation(first.t, first.raw_t, first.bindings + r.bindings,
                                                              first.line)
    return sorted(grouped.values(), key=lambda r: r.t) + out  # type: ignore[arg-type, return-value]
