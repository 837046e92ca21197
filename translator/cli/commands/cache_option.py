"""The ``--no-cache`` option every command has (:mod:`translator.cache`); a module of its own so that the
parser of ``rsplars lars`` loads nothing of the query stages."""

from __future__ import annotations

import argparse


def add_cache_option(command: argparse.ArgumentParser) -> None:
    """``--no-cache`` in a group of its own, on every command (:mod:`translator.cache`)."""
    command.add_argument_group("cache").add_argument(
        "--no-cache", action="store_true",
        help="neither read nor write the user's cache of parsed queries and programs (also RSPLARS_CACHE_DIR= "
             "set empty; translator.cache)")
