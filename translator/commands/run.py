"""``rsplars run QUERY --stream IRI=FILE …``: answer a query over RDF streams and static data.

The query is translated (τ1 for C-SPARQL, τ2 for CQELS, or ``--as``), put in its execution mode
(pull with its period for C-SPARQL, push for CQELS, D4) and solved by the clingo engine at every
evaluation time (``translator.run``). Output, one record per evaluation time, as it is computed:

* ``jsonl`` (default): ``{"t": 18, "answers": [{"shop": "<http://…>", "percent": "\\"25\\"^^<…>"}]}``
  — terms in N-Triples form, unbound variables left out, answers sorted; ASK gives
  ``{"t": 18, "answer": true}``;
* ``csv``: a header ``t,var1,…`` then one row per answer (N-Triples terms, empty = unbound);
* ``sparql-json``: one SPARQL 1.1 Query Results JSON object per line, with an extra member ``t``.

CONSTRUCT queries give triples (the template instantiated per answer, ``translator.run.
construct_triples``): ``jsonl`` ``{"t": 400, "triples": ["<s> <p> <o> .", …]}`` (sorted
N-Triples lines); ``csv`` a header ``t,subject,predicate,object``; ``ntriples`` the timestamped
N-Triples of CSRBench, one ``<s> <p> <o> "t" .`` line per triple, stamped with the evaluation time
(C-SPARQL ``REGISTER STREAM``: all triples of one evaluation share its time, seed 004 Sect. 2.5),
which ``--stream`` reads back. ``ntriples`` is for CONSTRUCT only, ``sparql-json`` for SELECT/ASK.

``--print-asp-at T`` prints, instead of answers, the program as plain clingo input together with
the external atoms true at T over the given data (``translator.asp_export``): clingo on that text
(``python -m clingo --enable-python``) derives ``answer(…)`` atoms equal to the answers at T.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import TextIO

from lars.errors import EXIT_OK, RsplarsError
from spark_jobs.cli import add_engine_options
from translator.commands.common import (
    Progress,
    add_data_options,
    add_query_options,
    add_translation_options,
    check_stream_iris,
    compile_variants,
    output,
    parse_query,
    read_data,
)

HELP = "answer a query over RDF streams and static data with the clingo engine"
FORMATS = ("jsonl", "csv", "sparql-json", "ntriples")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("run", help=HELP, description=HELP)
    p.add_argument("query_file", metavar="QUERY", help="query file (C-SPARQL, CQELS-QL), or - for stdin")
    add_query_options(p)
    add_data_options(p, stream_required=True)
    add_translation_options(p)
    p.add_argument("--r2s", choices=["rstream", "istream", "dstream"], default="rstream",
                   help="relation-to-stream operator (default: rstream, all current answers)")
    p.add_argument("--from", dest="start", type=int, metavar="T", help="first time point to evaluate (base units)")
    p.add_argument("--to", dest="end", type=int, metavar="T", help="last time point to evaluate (base units)")
    p.add_argument("--format", choices=FORMATS, default="jsonl", help="output format (default: jsonl)")
    p.add_argument("--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    p.add_argument("--print-asp-at", dest="print_asp_at", type=int, metavar="T",
                   help="print the ASP program plus the stream facts true at T (for plain clingo) instead of answers")
    add_engine_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.rdf.streams import parse_stream_spec
    from translator.run import answers

    if args.as_ == "cqels-all":
        raise RsplarsError("--as cqels-all gives several queries; run them one by one (cqels-brave, cqels-cautious)")
    query = parse_query(args, args.query_file)
    check_stream_iris(query, [parse_stream_spec(spec)[0] for spec in args.stream])
    elements, facts = read_data(args)
    ((_, compiled),) = compile_variants(args, query, elements)
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.end is not None and args.end < 0:  # runs start at time 0 (translator.run.data_stream)
        raise RsplarsError(f"--to {args.end} lies before the start 0 of the timeline")
    if args.print_asp_at is not None:
        return _print_asp(args, compiled, elements, facts)
    _check_format(args.format, compiled.form)
    if args.engine == "spark":
        from spark_jobs.cli import run_answers_spark

        evaluations = run_answers_spark(compiled, elements, facts, args.start, args.end, args.r2s,
                                        args.master, args.partitions, parquet=args.parquet)
    else:
        evaluations = answers(compiled, elements, facts, start=args.start, end=args.end, r2s=args.r2s,
                              on_progress=Progress("rsplars run"),
                              on_note=lambda text: print(f"rsplars: note: {text}", file=sys.stderr))
    with output(args.output) as out:
        write = WRITERS[args.format](out, compiled)
        for ev in evaluations:
            write(ev)
            out.flush()
    return EXIT_OK


def _print_asp(args: argparse.Namespace, compiled, elements, facts) -> int:
    """``--print-asp-at T``: the run's program, static facts and the externals true at T."""
    from lars.model import Stream
    from translator.asp_export import program_text
    from translator.run import engine_input

    t = args.print_asp_at
    run = engine_input(compiled, elements, facts, start=args.start, end=args.end)
    lo, hi = run.stream.timeline
    if t < lo:
        raise RsplarsError(f"--print-asp-at {t} lies before the start {lo} of the timeline")
    stream = run.stream if t <= hi else Stream(run.stream.points, lo, t)
    text = program_text(run.program, stream, t)
    with output(args.output) as out:
        out.write(text)
    return EXIT_OK


def _check_format(fmt: str, form: str) -> None:
    if fmt == "ntriples" and form != "construct":
        raise RsplarsError(f"--format ntriples writes the triples of a CONSTRUCT query; this is a {form.upper()} query")
    if fmt == "sparql-json" and form == "construct":
        raise RsplarsError("--format sparql-json is for SELECT and ASK; a CONSTRUCT query gives triples: "
                           "use --format jsonl, csv or ntriples")


def _jsonl(out: TextIO, compiled):
    from translator.run import construct_triples, solution_dicts

    def write(ev) -> None:
        if compiled.form == "construct":
            record = {"t": ev.t, "triples": construct_triples(compiled, ev.rows, ev.t)}
        elif compiled.form == "ask":
            record = {"t": ev.t, "answer": bool(ev.rows)}
        else:
            record = {"t": ev.t, "answers": solution_dicts(compiled.variables, ev.rows)}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    return write


def _csv(out: TextIO, compiled):
    from translator.run import construct_triples

    writer = csv.writer(out, lineterminator="\n")
    header = {"ask": ["t", "answer"], "construct": ["t", "subject", "predicate", "object"]}
    writer.writerow(header.get(compiled.form, ["t", *compiled.variables]))

    def write(ev) -> None:
        if compiled.form == "construct":
            for line in construct_triples(compiled, ev.rows, ev.t):
                writer.writerow([ev.t, *_split_triple(line)])
            return
        if compiled.form == "ask":
            writer.writerow([ev.t, "true" if ev.rows else "false"])
            return
        for row in sorted(ev.rows, key=lambda r: tuple("" if x is None else x for x in r)):
            writer.writerow([ev.t, *("" if x is None else x for x in row)])

    return write


def _sparql_json(out: TextIO, compiled):
    from translator.rdf.terms import from_nt
    from translator.run import solution_dicts

    def term_json(text: str) -> dict:
        from rdflib import BNode, Literal, URIRef

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

    def write(ev) -> None:
        if compiled.form == "ask":
            record = {"t": ev.t, "head": {}, "boolean": bool(ev.rows)}
        else:
            bindings = [{v: term_json(x) for v, x in d.items()} for d in solution_dicts(compiled.variables, ev.rows)]
            record = {"t": ev.t, "head": {"vars": list(compiled.variables)}, "results": {"bindings": bindings}}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    return write


def _split_triple(line: str) -> tuple[str, str, str]:
    """``<s> <p> <o> .`` → its three N-Triples terms (subject and predicate hold no space)."""
    s, p, rest = line.split(" ", 2)
    return s, p, rest[: -len(" .")]


def _ntriples(out: TextIO, compiled):
    from translator.run import construct_triples

    def write(ev) -> None:
        for line in construct_triples(compiled, ev.rows, ev.t):
            out.write(f'{line[: -len(" .")]} "{ev.t}" .\n')

    return write


WRITERS = {"jsonl": _jsonl, "csv": _csv, "sparql-json": _sparql_json, "ntriples": _ntriples}
