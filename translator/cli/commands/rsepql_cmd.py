"""``rsplars run`` on an RSEP-QL query (docs/epsparql.md, "RSEP-QL"): the LARS program of the basic
event patterns on their windows, MATCH evaluated at every evaluation time (every time point with a
stream item, or the times of ``--at``), the full answer ``[[MATCH E]]^t`` written at each with every
event mapping's interval (``"@start"``, ``"@end"``). ``--selection`` / ``--consumption`` /
``--policy-reading`` are EP-SPARQL's (Dell'Aglio et al. 2016, §4.3–4.4)."""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from translator.exits import EXIT_OK


def add_rsepql_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--at", metavar="T[,T…]",
                   help="RSEP-QL: the evaluation times ET (Dell'Aglio et al. 2016, Def 5; default: every time point "
                        "with a stream item, content change)")


def evaluation_times(args: argparse.Namespace, elements) -> list[int]:
    from translator.evaluate.epsparql_run import event_times

    if getattr(args, "at", None):
        try:
            times = sorted({int(x) for x in args.at.split(",") if x.strip()})
        except ValueError:
            raise RsplarsError(f"--at {args.at}: expected time points separated by commas (e.g. --at 8,10)") from None
        return [t for t in times if (args.start is None or t >= args.start) and (args.end is None or t <= args.end)]
    return event_times(elements, args.start, args.end)


def run_rsepql(args: argparse.Namespace, query) -> int:
    """``rsplars run`` for an RSEP-QL query."""
    from translator.cli.commands.common import output, read_data
    from translator.evaluate.accounting import count_elements, new_accounting, print_summary
    from translator.evaluate.epsparql_run import check_format, writer
    from translator.evaluate.rsepql_run import rsepql_answers
    from translator.translate.normalize import TimeBase
    from translator.translate.rsepql import compile_rsepql

    for name in ("as_", "strategy"):
        if getattr(args, name, None):
            raise RsplarsError(f"--{name.strip('_')} does not apply to RSEP-QL queries (docs/epsparql.md)")
    if getattr(args, "mode", None) not in (None, "push"):
        raise RsplarsError("RSEP-QL queries are evaluated at the times of --at or on every item: --mode does not apply")
    if getattr(args, "engine", "clingo") == "spark":
        raise RsplarsError("--engine spark does not run RSEP-QL queries")
    if args.r2s != "rstream":
        raise RsplarsError("--r2s does not apply to RSEP-QL: the answer at t is [[MATCH E]]^t (Dell'Aglio et al. 2016, Eq. 8)")
    if args.print_asp_at is not None:
        raise RsplarsError("--print-asp-at does not apply to RSEP-QL: MATCH is evaluated after the LARS program "
                           "(rsplars translate --to lars prints it)")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    check_format(args.format)
    compiled = compile_rsepql(query, base=TimeBase(args.unit))
    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    elements, _facts = read_data(args, accounting)
    if args.static or args.named:
        print("rsplars: note: RSEP-QL event patterns match stream items only; --static/--named data is not read",
              file=sys.stderr)
    times = evaluation_times(args, elements)
    evs = rsepql_answers(compiled, elements, selection=args.selection, consumption=args.consumption,
                         reading=args.policy_reading, times=times, engine=getattr(args, "lars_engine", "auto"))
    last = None
    try:
        with output(args.output) as out:
            write = writer(args.format, out, compiled)
            for ev in evs:
                write(ev)
                out.flush()
                last = ev.t
    finally:
        count_elements(accounting, elements, last)
        print_summary(accounting)
    return EXIT_OK
