"""``rsplars translate QUERY_FILE --to TARGET``: parse an RSP query and emit it as TARGET.

Targets dispatch through :data:`TARGETS` (one function per target): ``model`` (the query model as
JSON, docs/model-json.md), ``query`` (the query text printed back in its dialect), ``lars`` (the
LARS program of Dao-Tran, Beck, Eiter 2015, §4: τ1/τ2, Table 1 windows, push/pull; text that
``lars.syntax.parse_program`` reads back), ``asp`` (its clingo encoding, docs/asp-encoding.md,
with a ``#script (python)`` block for the SPARQL functions: ``translator.translate.asp_export``)
and ``rspql``/``csparql``/``cqels``/``rsepql`` (the query in another dialect with the same answers,
:mod:`translator.query.dialect_print`). ``--as``
prints every counterpart of cs(Q)/cq(Q), each after a ``% label: …`` comment line.
The assumed dialect and lenient-mode notes go to stderr; the result goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

from translator.exits import EXIT_OK
from translator.cli.commands.common import add_query_options, add_translation_options, option_groups
from translator.cli.commands.operational_options import add_operational_options, apply_dialect_defaults

HELP = "translate an RSP query (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL)"


def target_model(query, args: argparse.Namespace) -> str:
    from translator.query.model_json import query_json

    return json.dumps(query_json(query), indent=2, ensure_ascii=False) + "\n"


def target_query(query, args: argparse.Namespace) -> str:
    from translator.query.printer import print_query

    return print_query(query)


def target_lars(query, args: argparse.Namespace) -> str:
    """The LARS program(s) (Dao-Tran, Beck, Eiter 2015, §4): text the LARS parser reads back, or ``--unicode``."""
    from lars.printer import format_program
    from translator.cli.commands.common import compile_variants
    from translator.translate.compile import program_header

    from translator.cli.commands.operational_options import operational_requested

    if operational_requested(args):
        from translator.cli.commands.operational_options import operational_lars

        return operational_lars(args, query)
    variants = compile_variants(args, query)
    out = []
    for label, compiled in variants:
        out.append(program_header(label, compiled, args.unit))
        native = getattr(args, "aggregates", "portable") == "native" and compiled.native is not None
        program = compiled.native if native else compiled.program
        out.append(format_program(program, args.unicode, base_unit=args.unit).rstrip("\n") + "\n")
    return "\n".join(out)


def target_asp(query, args: argparse.Namespace) -> str:
    """The ASP encoding of the LARS program(s) (docs/asp-encoding.md), runnable by plain clingo
    together with the external atoms true at a reference time (``rsplars run --print-asp-at T``
    prints those too)."""
    from translator.translate.asp_export import program_text
    from translator.cli.commands.common import compile_variants
    from translator.translate.compile import program_header

    variants = compile_variants(args, query)
    out = []
    for label, compiled in variants:
        out.append(program_header(label, compiled, args.unit))
        out.append(program_text(compiled.program))
    return "\n".join(out)


def target_dialect(dialect: str) -> Callable:
    """``--to rspql|csparql|cqels|rsepql``: the query written in that dialect with the same answers, or a
    named error at the construct it cannot write (:mod:`translator.query.dialect_print`)."""

    def target(query, args: argparse.Namespace) -> str:
        from translator.query.dialect_print import print_in_dialect

        text, notes = print_in_dialect(query, dialect, source=getattr(args, "query_source", "<input>"),
                                       text=getattr(args, "query_text", None))
        for note in notes:
            print(f"rsplars: note: {note}", file=sys.stderr)
        return text

    return target


#: --to value → function(query, args) -> text
TARGETS: dict[str, Callable] = {
    "model": target_model,
    "query": target_query,
    "lars": target_lars,
    "asp": target_asp,
    "rspql": target_dialect("rspql"),
    "csparql": target_dialect("csparql"),
    "cqels": target_dialect("cqels"),
    "rsepql": target_dialect("rsepql"),
}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("translate", help=HELP, description=HELP)
    g = option_groups(p, "input", "query", "semantics", "profile", "epsparql", "output")
    g["input"].add_argument("query_file", metavar="QUERY_FILE", help="query file, or - for stdin")
    add_query_options(g["query"], epsparql=g["epsparql"])
    add_translation_options(g["semantics"], query=g["query"])
    add_operational_options(g["profile"])  # --to lars: the program under a report policy (docs/check.md)
    g["output"].add_argument("--to", choices=list(TARGETS), default="model", metavar="TARGET",
                             help="%(choices)s (default: model); rspql, csparql, cqels, rsepql: the query in that "
                                  "dialect, same answers")
    g["output"].add_argument("--unicode", action="store_true",
                             help="--to lars: the paper's notation (⊞^30 ◇ a), for people")
    g["output"].add_argument("--aggregates", choices=("portable", "native"), default="portable",
                             help="--to lars: SUM/AVG/MIN/MAX/SAMPLE in the encoding every engine runs (portable, "
                                  "default) or as the incremental engine's external aggregates (native; "
                                  "docs/translation.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from translator.cli.commands.common import parse_query

    query = parse_query(args, args.query_file)
    if args.to == "lars":  # RSP-QL: the rsp-ql profile and the registration's R2S, as `run` has them
        apply_dialect_defaults(args, query)
    text = TARGETS[args.to](query, args)  # computed in full before anything is written
    sys.stdout.write(text)
    return EXIT_OK
