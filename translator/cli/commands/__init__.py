"""CLI subcommands. Each module exposes ``add_parser(subparsers)`` and sets ``func=run(args) -> int``."""
