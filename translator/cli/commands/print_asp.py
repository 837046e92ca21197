"""``--print-asp-at T`` of ``rsplars run`` (C-SPARQL, CQELS-QL and EP-SPARQL queries alike): the
query's program as plain clingo input with the external atoms true at T (``translator.translate.asp_export``)."""

from __future__ import annotations

import argparse

from lars.errors import RsplarsError
from translator.exits import EXIT_OK
from translator.cli.commands.common import output


def print_asp(args: argparse.Namespace, compiled, elements, facts) -> int:
    """``--print-asp-at T``: the run's program, static facts and the externals true at T."""
    from lars.model import Stream
    from translator.translate.asp_export import program_text
    from translator.evaluate.run import engine_input

    if args.lars_engine == "incremental":
        raise RsplarsError("--print-asp-at prints the clingo engine's encoding: the incremental engine has none "
                           "(use --lars-engine asp or auto)")
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
