"""Stage 6 of the pipeline: the ``rsplars`` command line (argument parsing and printing only).

Every command in :mod:`translator.cli.commands` is a thin layer over a library function of the
stages below (query → translate → evaluate → agreement) that a notebook can call the same way.
"""

from translator.cli.main import build_parser, main, report_error

__all__ = ["build_parser", "main", "report_error"]
