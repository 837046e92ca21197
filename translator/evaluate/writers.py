"""Writers of answer streams in the ecosystem's formats, one record per evaluation time.

An evaluation's answer is a multiset of solutions (SPARQL 1.1 §18.1.6; ``Evaluation.rows``, a
:class:`translator.rdf.bags.Bag`): the SELECT formats write every solution as often as it occurs,
in the order of the query's ORDER BY if it has one (the evaluation's
:class:`translator.translate.solution_modifiers.SolutionSequence`), else sorted (so in every format):

* ``jsonl``: ``{"t": 18, "answers": [{"shop": "<http://…>", "percent": "\\"25\\"^^<…>"}]}`` — terms in
  N-Triples form, unbound variables left out; ASK gives ``{"t": 18, "answer": true}``;
  CONSTRUCT ``{"t": 400, "triples": ["<s> <p> <o> .", …]}`` (a set of triples, RDF graphs are sets);
* ``csv``: a header ``t,var1,…`` then one row per solution (N-Triples terms, empty = unbound);
* ``tsv``: SPARQL 1.1 Query Results TSV (W3C 2013) with a first column ``t``: a header
  ``t<TAB>?var1<TAB>…`` then one line per solution (N-Triples terms, a tab in a literal written
  ``\\t``, empty = unbound); ASK ``t<TAB>answer`` then ``true``/``false``;
* ``sparql-json``: one SPARQL 1.1 Query Results JSON object per line, with an extra member ``t``;
* ``ntriples`` (CONSTRUCT): the timestamped N-Triples of CSRBench, ``<s> <p> <o> "t" .``;
* ``nquads`` (CONSTRUCT, also with RSP-QL ``GRAPH`` blocks in the template): N-Quads per
  evaluation time after a comment line ``# t=<t>``.

``WRITERS[fmt](out, compiled)`` returns a function that writes one :class:`Evaluation` to ``out``.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from operator import itemgetter
from typing import TextIO

from lars.bounds import TERM_CACHE_SIZE
from lars.errors import RsplarsError

FORMATS = ("jsonl", "csv", "tsv", "sparql-json", "ntriples", "nquads")


def check_format(fmt: str, form: str) -> None:
    if fmt in ("ntriples", "nquads") and form != "construct":
        raise RsplarsError(f"--format {fmt} writes the triples of a CONSTRUCT query; this is a {form.upper()} query")
    if fmt in ("sparql-json", "tsv") and form == "construct":
        raise RsplarsError(f"--format {fmt} is for SELECT and ASK; a CONSTRUCT query gives triples: "
                           "use --format jsonl, csv or ntriples")


def has_graph_templates(compiled) -> bool:
    """True iff the query is an RSP-QL CONSTRUCT whose template has ``GRAPH g { … }`` blocks."""
    return bool(getattr(compiled.query.form, "graphs", ()))


def refuse_graph_templates(compiled, fmt: str) -> None:
    if has_graph_templates(compiled):
        raise RsplarsError(f"--format {fmt} writes triples, but the CONSTRUCT template has GRAPH blocks (quads): "
                           "use --format nquads or jsonl")


def order_by(compiled):
    """The query's ORDER BY as a function from an evaluation's rows to the rows in its order (each
    solution as often as it occurs), or ``None`` without ORDER BY (then the writers sort the rows
    their own way). The order is the one the run gave the evaluation (a ``SolutionSequence``,
    which ORDER BY over variables that are not projected needs); rows without it (a bag built by
    hand) are ordered by :meth:`translator.translate.solution_modifiers.SolutionModifiers.ordered`."""
    modifiers = getattr(compiled, "modifiers", None)
    if modifiers is None or not modifiers.conditions:
        return None

    def in_order(rows) -> list:
        order = getattr(rows, "order", None)
        return list(order) if order is not None else modifiers.ordered(rows)

    return in_order


def csv_rows(rows, ordering) -> list:
    """An evaluation's rows in the order a CSV writer writes them: the query's ORDER BY
    (:func:`order_by`), else by their texts (unbound first)."""
    if ordering is not None:
        return ordering(rows)
    return sorted(rows, key=lambda r: tuple("" if x is None else x for x in r))


def _jsonl(out: TextIO, compiled):
    from translator.evaluate.run import construct_quads, construct_triples

    answers = AnswerTexts(compiled.variables)
    ordering = order_by(compiled)
    quads = compiled.form == "construct" and has_graph_templates(compiled)

    def write(ev) -> None:
        if compiled.form == "construct":
            record: dict = {"t": ev.t, "triples": construct_triples(compiled, ev.rows, ev.t)}
            if quads:  # the GRAPH blocks' N-Quads lines (only then: triples-only output is unchanged)
                record["quads"] = construct_quads(compiled, ev.rows, ev.t)
        elif compiled.form == "ask":
            record = {"t": ev.t, "answer": bool(ev.rows)}
        elif ordering is not None:  # ORDER BY: the answers in its order
            texts = ", ".join([answers.item(row)[1] for row in ordering(ev.rows)])
            out.write(f'{{"t": {json.dumps(ev.t)}, "answers": [{texts}]}}\n')
            return
        else:  # json.dumps of {"t": t, "answers": solution_dicts(…)}, each answer encoded once while it recurs
            out.write(f'{{"t": {json.dumps(ev.t)}, "answers": [{answers.joined(ev.rows, getattr(ev, "change", None))}]}}\n')
            return
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    return write


class AnswerTexts:
    """The JSON texts of answers (``json.dumps`` of each mapping of ``solution_dicts``, with its
    sort key), computed once per answer while it recurs: an answer stays in a window for many
    evaluation times (bounded: emptied when it holds ``limit`` answers)."""

    def __init__(self, variables, limit: int = TERM_CACHE_SIZE) -> None:
        self.variables = tuple(variables)
        self.order = sorted(self.variables) if len(set(self.variables)) == len(self.variables) else None
        self.limit = limit
        self.cache: dict = {}
        # distinct variables: each answer's text built from its terms, as json.dumps writes a dict
        # of strings (``"name": "term"`` joined by ", " in the dict's order, the variables' here;
        # each string by json's own encoder of ensure_ascii=False), and its sort key from the
        # variables' positions in name order, without a dict per answer
        self.names = [json.dumps(v, ensure_ascii=False) + ": " for v in self.variables] if self.order is not None else None
        # per variable: a term's ``"name": "term"`` text, encoded once while the term recurs (a
        # group key or an extreme stays while the answer's other terms change; bounded as ``cache``)
        self.members: list[dict] = [_Members(name, limit) for name in self.names] if self.names is not None else []
        self.by_name: list[tuple[str, int]] = (
            [(v, self.variables.index(v)) for v in self.order] if self.order is not None else [])
        # an answer with every variable bound: its sort key is the names in order paired with its
        # terms picked in that order (``pick`` gives a tuple, also for one variable)
        if self.by_name:
            picker = itemgetter(*[i for _, i in self.by_name])
            self.pick = picker if len(self.by_name) > 1 else (lambda row: (picker(row),))
        # the last call's rows, their (sort key, JSON text) in order and the joined text (``joined``
        # with a change starts from them)
        self.rows: object = None
        self.items: list[tuple] = []
        self.text = ""

    def item(self, row) -> tuple:
        """``(sort key, JSON text)`` of one answer, from the cache while it recurs."""
        got = self.cache.get(row)
        if got is None:
            if len(self.cache) >= self.limit:
                self.cache.clear()
            if self.order is not None and self.by_name and None not in row:  # without a Python loop (names set)
                got = (list(zip(self.order, self.pick(row))), "{" + ", ".join(map(dict.__getitem__, self.members, row)) + "}")
            elif self.names is not None:
                text = ", ".join([member[term] for member, term in zip(self.members, row) if term is not None])
                got = ([(v, row[i]) for v, i in self.by_name if row[i] is not None], "{" + text + "}")
            else:
                d = {v: term for v, term in zip(self.variables, row) if term is not None}
                key = sorted(d.items()) if self.order is None else [(v, d[v]) for v in self.order if v in d]
                got = (key, json.dumps(d, ensure_ascii=False))
            self.cache[row] = got
        return got

    def joined(self, rows, change=None) -> str:
        """The answers' JSON texts in ``solution_dicts`` order (each solution as often as it
        occurs), joined by ``", "`` (json.dumps' separator).

        ``change`` (``Evaluation.change``): ``(base, plus, minus)`` with ``rows == base - minus +
        plus`` (multisets). When ``base`` is the rows of the previous call and the change is small
        (a quarter of the answers: each bisection then costs less than a sort of them all), only
        the solutions that came and went are placed (by bisection: with distinct variables distinct
        rows have distinct sort keys, and the copies of one row are equal items) or taken out;
        otherwise every answer is placed again."""
        items = self.items
        if (change is not None and change[0] is self.rows and self.names is not None
                and 4 * (len(change[1]) + len(change[2])) <= len(rows) + 8):
            base, plus, minus = change
            if rows is not base:
                for row in minus:
                    del items[bisect_left(items, (self.item(row)[0],))]
                for row in plus:
                    placed = self.item(row)
                    items.insert(bisect_left(items, placed), placed)
                self.text = ", ".join([text for _, text in items])
        else:
            get, item = self.cache.get, self.item
            items = self.items = [get(row) or item(row) for row in rows]
            items.sort(key=_first)
            self.text = ", ".join([text for _, text in items])
        self.rows = rows
        return self.text


_encode_string = json.encoder.encode_basestring  # json.dumps' encoder of a str, ensure_ascii=False


class _Members(dict):
    """``term -> "name": "term"`` (``name`` already encoded, with its ``": "``), each computed when
    missing; emptied when it holds ``limit`` texts."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__()
        self.name = name
        self.limit = limit

    def __missing__(self, term: str) -> str:
        if len(self) >= self.limit:
            self.clear()
        got = self[term] = self.name + _encode_string(term)
        return got


def _first(item):
    return item[0]


def _csv(out: TextIO, compiled):
    import csv  # the csv format only (≈ 2 M instructions of every other run's start-up)

    from translator.evaluate.run import construct_triples

    refuse_graph_templates(compiled, "csv")
    writer = csv.writer(out, lineterminator="\n")
    header = {"ask": ["t", "answer"], "construct": ["t", "subject", "predicate", "object"]}
    writer.writerow(header.get(compiled.form, ["t", *compiled.variables]))
    ordering = order_by(compiled)

    def write(ev) -> None:
        if compiled.form == "construct":
            for line in construct_triples(compiled, ev.rows, ev.t):
                writer.writerow([ev.t, *split_triple(line)])
            return
        if compiled.form == "ask":
            writer.writerow([ev.t, "true" if ev.rows else "false"])
            return
        for row in csv_rows(ev.rows, ordering):
            writer.writerow([ev.t, *("" if x is None else x for x in row)])

    return write


def _sparql_json(out: TextIO, compiled):
    from translator.evaluate.run import solution_dicts

    ordering = order_by(compiled)

    def write(ev) -> None:
        if compiled.form == "ask":
            record = {"t": ev.t, "head": {}, "boolean": bool(ev.rows)}
        else:
            dicts = solution_dicts(compiled.variables, ev.rows, ordering)
            bindings = [{v: term_json(x) for v, x in d.items()} for d in dicts]
            record = {"t": ev.t, "head": {"vars": list(compiled.variables)}, "results": {"bindings": bindings}}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    return write


def term_json(text: str) -> dict[str, str]:
    """An N-Triples term as an RDF term of SPARQL 1.1 Query Results JSON (W3C 2013, §3.2.2)."""
    from rdflib import BNode, Literal, URIRef

    from translator.rdf.terms import from_nt

    term = from_nt(text)
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    assert isinstance(term, Literal)
    d = {"type": "literal", "value": str(term)}
    if term.language:
        d["xml:lang"] = term.language
    elif term.datatype is not None:
        d["datatype"] = str(term.datatype)
    return d


def split_triple(line: str) -> tuple[str, str, str]:
    """``<s> <p> <o> .`` → its three N-Triples terms (subject and predicate hold no space)."""
    s, p, rest = line.split(" ", 2)
    return s, p, rest[: -len(" .")]


def _ntriples(out: TextIO, compiled):
    from translator.evaluate.run import construct_triples

    refuse_graph_templates(compiled, "ntriples")

    def write(ev) -> None:
        for line in construct_triples(compiled, ev.rows, ev.t):
            out.write(f'{line[: -len(" .")]} "{ev.t}" .\n')

    return write


def _nquads(out: TextIO, compiled):
    """N-Quads (W3C 2014): per evaluation time t with a non-empty answer, a comment line ``# t=<t>``,
    then the default graph's triples ``<s> <p> <o> .`` and the GRAPH blocks' quads
    ``<s> <p> <o> <g> .``. The timestamp cannot take the fourth position as in ``ntriples``
    (there it is the graph name), so it is the comment; an N-Quads parser reads the lines."""
    from translator.evaluate.run import construct_quads, construct_triples

    def write(ev) -> None:
        lines = [*construct_triples(compiled, ev.rows, ev.t), *construct_quads(compiled, ev.rows, ev.t)]
        if lines:
            out.write(f"# t={ev.t}\n" + "".join(line + "\n" for line in lines))

    return write


def tsv_term(text: str | None) -> str:
    """An N-Triples term as a field of SPARQL 1.1 TSV (§4: Turtle syntax, which N-Triples terms are;
    a tab inside a literal escaped), empty for unbound."""
    return "" if text is None else text.replace("\t", "\\t")


def _tsv(out: TextIO, compiled):
    """SPARQL 1.1 Query Results TSV with the evaluation time as a first column ``t`` (a reader of
    recorded answers finds it by that name, ``translator.agreement.answers.table``)."""
    header = ["t", "answer"] if compiled.form == "ask" else ["t", *("?" + v for v in compiled.variables)]
    out.write("\t".join(header) + "\n")
    ordering = order_by(compiled)

    def write(ev) -> None:
        if compiled.form == "ask":
            out.write(f"{ev.t}\t{'true' if ev.rows else 'false'}\n")
            return
        t = str(ev.t)
        out.write("".join(t + "".join("\t" + tsv_term(x) for x in row) + "\n" for row in csv_rows(ev.rows, ordering)))

    return write


WRITERS = {"jsonl": _jsonl, "csv": _csv, "tsv": _tsv, "sparql-json": _sparql_json, "ntriples": _ntriples,
           "nquads": _nquads}
