"""A query without streams is plain SPARQL: evaluated once over the static dataset.

With no stream the translation τ (and τ1, τ2) of a query gives SPARQL's answers over the static
data (Dao-Tran, Beck, Eiter 2015, §4, Proposition 2), the same at every time point. ``rsplars run Q
--static D [--named IRI=FILE]`` without ``--stream`` therefore compiles the query with execution
mode ``none`` and solves it at the single time point 0 (:func:`evaluate_once`), then writes the one
result in the standard formats of SPARQL 1.1 (:data:`WRITERS`):

* ``jsonl``: the record of ``rsplars run`` at t = 0, one line: ``{"t": 0, "answers": […]}`` (ASK:
  ``{"t": 0, "answer": true}``; CONSTRUCT: ``{"t": 0, "triples": […]}``), so that a reader of
  stream answers reads it unchanged;
* ``sparql-json``: one SPARQL 1.1 Query Results JSON document (W3C, 2013), without ``t``;
* ``csv``: SPARQL 1.1 Query Results CSV (W3C, 2013, §2): a header of the variable names, one row
  per solution, IRIs and literals by their text only (lexical form; the CSV format drops datatypes
  and language tags), blank nodes ``_:label``, an unbound variable an empty field, CRLF line ends.
  ASK: the header ``answer`` and ``true``/``false``; CONSTRUCT: ``subject,predicate,object`` with
  N-Triples terms (the CSV format has no graph form);
* ``tsv``: SPARQL 1.1 Query Results TSV (W3C, 2013, §4): a header ``?var1<TAB>…``, one line per
  solution, terms in N-Triples form (a tab in a literal ``\\t``), an unbound variable an empty field;
  ASK: the header ``?answer`` and ``true``/``false`` (TSV has no boolean form);
* ``ntriples`` (CONSTRUCT): plain N-Triples ``<s> <p> <o> .``, without the time stamp of a stream.

The answers are a multiset of solutions (SPARQL 1.1 §18.1.6; D5, docs/decisions.md): each solution is
written as often as it occurs, sorted, or in the order of the query's ORDER BY if it has one (its
LIMIT and OFFSET, counting duplicates, are applied by ``answers``).
"""

from __future__ import annotations

import json
from typing import Callable, Sequence, TextIO

from lars.model import Rule

from translator.evaluate.run import Evaluation, answers, construct_triples, solution_dicts
from translator.evaluate.writers import WRITERS as STREAM_WRITERS, csv_rows, order_by, split_triple, term_json, tsv_term
from translator.translate.compile import Compiled

STATIC_TIME = 0
"""The one evaluation time of a query without streams (the start of every run's timeline)."""


def evaluate_once(compiled: Compiled, static: Sequence[Rule], *, engine: str = "auto",
                  on_note: Callable[[str], None] | None = None) -> Evaluation:
    """The answers of ``compiled`` (a query without streams, compiled with mode ``none``) over the
    static facts: the program solved at the single time point :data:`STATIC_TIME` (Proposition 2)."""
    (evaluation,) = answers(compiled, (), static, start=STATIC_TIME, end=STATIC_TIME, engine=engine, on_note=on_note)
    return evaluation


def _jsonl(out: TextIO, compiled: Compiled, evaluation: Evaluation) -> None:
    STREAM_WRITERS["jsonl"](out, compiled)(evaluation)


def _sparql_json(out: TextIO, compiled: Compiled, evaluation: Evaluation) -> None:
    if compiled.form == "ask":
        document: dict = {"head": {}, "boolean": bool(evaluation.rows)}
    else:
        dicts = solution_dicts(compiled.variables, evaluation.rows, order_by(compiled))
        bindings = [{v: term_json(x) for v, x in d.items()} for d in dicts]
        document = {"head": {"vars": list(compiled.variables)}, "results": {"bindings": bindings}}
    out.write(json.dumps(document, ensure_ascii=False) + "\n")


def csv_value(text: str | None) -> str:
    """An N-Triples term as a field of SPARQL 1.1 CSV (§2): the IRI, the lexical form of a literal,
    ``_:label`` for a blank node, empty for unbound."""
    if text is None:
        return ""
    value = term_json(text)
    return "_:" + value["value"] if value["type"] == "bnode" else value["value"]


def _csv(out: TextIO, compiled: Compiled, evaluation: Evaluation) -> None:
    import csv

    writer = csv.writer(out, lineterminator="\r\n")
    if compiled.form == "ask":
        writer.writerows([["answer"], ["true" if evaluation.rows else "false"]])
    elif compiled.form == "construct":
        writer.writerow(["subject", "predicate", "object"])
        writer.writerows(split_triple(line) for line in construct_triples(compiled, evaluation.rows, evaluation.t))
    else:
        writer.writerow(compiled.variables)
        for row in csv_rows(evaluation.rows, order_by(compiled)):
            writer.writerow([csv_value(x) for x in row])


def _tsv(out: TextIO, compiled: Compiled, evaluation: Evaluation) -> None:
    if compiled.form == "ask":
        out.write("?answer\n" + ("true" if evaluation.rows else "false") + "\n")
        return
    out.write("\t".join("?" + v for v in compiled.variables) + "\n")
    for row in csv_rows(evaluation.rows, order_by(compiled)):
        out.write("\t".join(tsv_term(x) for x in row) + "\n")


def _ntriples(out: TextIO, compiled: Compiled, evaluation: Evaluation) -> None:
    for line in construct_triples(compiled, evaluation.rows, evaluation.t):
        out.write(line + "\n")


WRITERS: dict[str, Callable[[TextIO, Compiled, Evaluation], None]] = {
    "jsonl": _jsonl, "csv": _csv, "tsv": _tsv, "sparql-json": _sparql_json, "ntriples": _ntriples,
    "nquads": _ntriples,  # a plain SPARQL template has no GRAPH block: its N-Triples are N-Quads
}
"""``WRITERS[fmt](out, compiled, evaluation)`` writes the one result of a query without streams."""
