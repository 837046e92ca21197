"""The ``rsplars`` command line: ``main(argv) -> exit code``.

Subcommands live in :mod:`translator.cli.commands` (one module each, imported lazily so that
``rsplars translate`` never loads clingo or pyspark). Every user error derives from
:class:`lars.errors.RsplarsError` and is printed without a traceback, exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from lars.lalr import build_parsers_with
from translator import cache
from lars.errors import RsplarsError
from translator.exits import report_error
from translator.cli.commands.cache_option import add_cache_option

#: subcommand name -> module in translator.cli.commands that defines it (argparse lists them in this order)
SUBCOMMANDS: dict[str, str] = {
    "translate": "translate",
    "run": "run",
    "lars": "lars_cmd",
    "agree": "agree",
    "gen": "gen",
    "check": "check",
    "profiles": "profiles",
    "hunt": "hunt",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``only``: build just that subcommand (start-up time of ``rsplars lars``)."""
    parser = argparse.ArgumentParser(
        prog="rsplars",
        description="Translate RDF stream queries (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL) into LARS, "
        "solve them with clingo, and compare engines.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in ([SUBCOMMANDS[only]] if only in SUBCOMMANDS else SUBCOMMANDS.values()):
        # command modules import their heavy dependencies (clingo, pyspark) inside run()
        importlib.import_module(f"translator.cli.commands.{module}").add_parser(sub)
    for command in sub.choices.values():
        add_cache_option(command)
    return parser


def _strip_traceback(record) -> bool:
    record.exc_info = None
    record.exc_text = None
    return True


def _no_library_tracebacks() -> None:
    """rdflib logs a literal it cannot convert (``"1000x"^^xsd:long``) as a warning *with a
    traceback*; rsplars reports such input itself, located (docs/robustness.md): keep rdflib's
    one-line message, drop the traceback."""
    import logging

    logger = logging.getLogger("rdflib.term")
    if _strip_traceback not in logger.filters:
        logger.addFilter(_strip_traceback)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: the process's own, ``sys.argv[1:]``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _no_library_tracebacks()
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        # parsed queries, programs and parse tables kept in the user's cache folder (translator.cache)
        build_parsers_with(cache.lark_parser)
        with cache.enabled(not args.no_cache):
            return int(args.func(args))
    except RsplarsError as err:
        return report_error(err)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        # a bug inside a SPARQL function (translator.rdf.sparql_ops.SparqlFunctionFailure): reported as an
        # internal error. Only a run that evaluated SPARQL loaded that module, so `rsplars lars` never does.
        sparql_ops = sys.modules.get("translator.rdf.sparql_ops")
        if sparql_ops is not None and isinstance(err, sparql_ops.SparqlFunctionFailure):
            return int(sparql_ops.report_internal_error(err))
        raise


if __name__ == "__main__":
    sys.exit(main())
