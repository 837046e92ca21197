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
import sys

from lars.errors import RsplarsError
from translator.exits import EXIT_OK
from translator.cli.commands.common import add_query_options, add_translation_options, given, option_groups
from translator.cli.commands.operational_options import add_operational_options

HELP = "translate an RSP query (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL)"

#: the targets of --to (those of :func:`rsplars.translate`)
TARGETS = ("model", "query", "lars", "asp", "rspql", "csparql", "cqels", "rsepql")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("translate", help=HELP, description=HELP)
    g = option_groups(p, "input", "query", "semantics", "profile", "epsparql", "output")
    g["input"].add_argument("query_file", metavar="QUERY_FILE", help="query file, or - for stdin")
    add_query_options(g["query"], epsparql=g["epsparql"])
    add_translation_options(g["semantics"], query=g["query"])
    add_operational_options(g["profile"])  # --to lars: the program under a report policy (docs/check.md)
    g["output"].add_argument("--to", choices=TARGETS, default="model", metavar="TARGET",
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
    """``rsplars translate``: :func:`rsplars.translate` of the query with the options given."""
    from rsplars.translating import translate
    from translator.cli.commands.common import parse_query, print_note, translation_options
    from translator.cli.commands.operational_options import requested_profile_options

    query = parse_query(args, args.query_file)
    options = translation_options(args)
    profile = requested_profile_options(args) if args.to == "lars" else None
    if profile is not None and (options.mode or options.period):
        raise RsplarsError("--mode/--period and the operational options exclude each other: the report policy "
                           "decides when the query is evaluated")
    text = translate(query, args.to, options=options, profile=profile,
                     r2s=args.r2s if given(args.r2s) else None, unicode=args.unicode, aggregates=args.aggregates,
                     on_note=print_note)  # computed in full before anything is written
    sys.stdout.write(text)
    return EXIT_OK
