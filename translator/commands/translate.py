"""``rsplars translate QUERY_FILE --to TARGET``: parse an RSP query and emit it as TARGET.

Targets dispatch through :data:`TARGETS` (one function per target): ``model`` (the query model as
JSON, docs/model-json.md) and ``query`` (the query text printed back in its dialect). ``lars`` and
``asp`` are reserved for the translation issue and report that they are not implemented yet.
The assumed dialect and lenient-mode notes go to stderr; the result goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

from lars.errors import EXIT_OK, RsplarsError

HELP = "translate an RSP query (C-SPARQL, CQELS-QL, EP-SPARQL)"


def target_model(query, args: argparse.Namespace) -> str:
    from translator.model_json import query_json

    return json.dumps(query_json(query), indent=2, ensure_ascii=False) + "\n"


def target_query(query, args: argparse.Namespace) -> str:
    from translator.printer import print_query

    return print_query(query)


def _not_yet(name: str) -> Callable:
    def target(query, args: argparse.Namespace) -> str:
        raise RsplarsError(f"--to {name} is not implemented yet (use --to model or --to query)")

    return target


#: --to value → function(query, args) -> text
TARGETS: dict[str, Callable] = {
    "model": target_model,
    "query": target_query,
    "lars": _not_yet("lars"),
    "asp": _not_yet("asp"),
}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("translate", help=HELP, description=HELP)
    p.add_argument("query_file", metavar="QUERY_FILE", help="query file, or - for stdin")
    p.add_argument("--to", choices=list(TARGETS), default="model", help="output (default: model)")
    p.add_argument(
        "--dialect",
        choices=["auto", "csparql", "cqels", "epsparql"],
        default="auto",
        help="query dialect (default: auto, decided from the syntax and reported on stderr)",
    )
    p.add_argument(
        "--lenient",
        action="store_true",
        help="accept the quirks of the papers' printed queries (undeclared prefixes, ?total-sensor, "
        "'^^' for &&, FROM before SELECT, commas in SELECT, '24 hours', REGISTER STREAM … SELECT)",
    )
    p.set_defaults(func=run)


def read_query(path: str) -> tuple[str, str]:
    """(text, source name) of a query file, ``-`` = stdin."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(), path
    except OSError as exc:
        raise RsplarsError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RsplarsError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None


def run(args: argparse.Namespace) -> int:
    from translator.dialect import detect_dialect
    from translator.parse import parse

    text, source = read_query(args.query_file)
    dialect = args.dialect
    if dialect == "auto":
        detection = detect_dialect(text, source)
        dialect = detection.dialect
        print(f"rsplars: dialect: {dialect} ({detection.reason})", file=sys.stderr)
    query = parse(text, dialect if args.dialect == "auto" else args.dialect, source=source, lenient=args.lenient)
    for note in query.notes:
        print(f"rsplars: {note}", file=sys.stderr)
    sys.stdout.write(TARGETS[args.to](query, args))
    return EXIT_OK
