"""``rsplars run`` on an EP-SPARQL query (docs/epsparql.md): all ``--stream`` inputs are one event
stream, the query is push-evaluated, and every complex event is written once with its interval
(``"@start"``, ``"@end"`` in base units). ``--selection`` / ``--consumption`` choose the selection
and consumption policies of RSEP-QL (Dell'Aglio et al. 2016, §4.3, §4.4; default: unrestricted, as
ETALIS); ``--policy-reading`` how SEQ^c/SEQ^r read "the earliest/latest E2 match", which Eq. 11 and
Example 10 of that paper read differently (docs/epsparql.md)."""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from translator.exits import EXIT_OK


def add_epsparql_options(p: argparse.ArgumentParser) -> None:
    """``--selection``, ``--consumption``, ``--policy-reading`` on ``p`` (a parser or an argument group)."""
    from translator.evaluate.epsparql_policies import CONSUMPTIONS, READINGS, SELECTIONS

    p.add_argument("--selection", choices=SELECTIONS, default="unrestricted", metavar="POLICY",
                   help="%(choices)s: SEQ selection policy (Dell'Aglio et al. 2016, §4.3; default: unrestricted, "
                        "as ETALIS)")
    p.add_argument("--consumption", choices=CONSUMPTIONS, default="unrestricted", metavar="POLICY",
                   help="%(choices)s: consumption policy, the events of a selected match are not used again "
                        "(§4.4 there)")
    p.add_argument("--policy-reading", dest="policy_reading", choices=READINGS, default="per-mapping",
                   metavar="R",
                   help="%(choices)s: how SEQ^c/SEQ^r read 'the earliest/latest E2 match' (docs/epsparql.md)")


def uses_policy(args: argparse.Namespace) -> bool:
    return getattr(args, "selection", "unrestricted") != "unrestricted" or \
        getattr(args, "consumption", "unrestricted") != "unrestricted"


def compile_for_run(args: argparse.Namespace, query):
    """The EventCompiled (unrestricted) or PolicyCompiled (a policy) of an EP-SPARQL query; the
    warning about an unbounded pattern goes to stderr."""
    from translator.translate.epsparql import compile_epsparql, compile_policy_operands
    from translator.translate.normalize import TimeBase

    base = TimeBase(args.unit)
    compiled = compile_policy_operands(query, base=base) if uses_policy(args) else compile_epsparql(query, base=base)
    for warning in compiled.warnings:
        print(f"rsplars: warning: {warning}", file=sys.stderr)
    return compiled


def evaluations(args: argparse.Namespace, compiled, elements, *, start=None, end=None, progress=None):
    from translator.evaluate.epsparql_run import event_answers, policy_answers

    engine = args.lars_engine  # --lars-engine of run and agree
    if getattr(args, "engine", "sequential") == "spark":  # blocks with look-back (docs/spark_jobs.md)
        from spark_jobs.epsparql_job import event_answers_spark, refuse_policy

        refuse_policy(args.selection, args.consumption)
        return event_answers_spark(compiled, elements, start=start, end=end, engine=engine, master=args.master,
                                   partitions=args.partitions)
    if uses_policy(args):
        return policy_answers(compiled, elements, selection=args.selection, consumption=args.consumption,
                              reading=args.policy_reading, start=start, end=end, engine=engine)
    return event_answers(compiled, elements, start=start, end=end, on_progress=progress, engine=engine)


def run_epsparql(args: argparse.Namespace, query) -> int:
    """``rsplars run`` for an EP-SPARQL query."""
    from translator.cli.commands.common import Progress, output, read_data
    from translator.evaluate.epsparql_run import check_format, writer

    for name in ("as_", "strategy"):
        if getattr(args, name, None):
            raise RsplarsError(f"--{name.strip('_').replace('_', '-')} does not apply to EP-SPARQL queries "
                               "(event patterns, push-evaluated; see docs/epsparql.md)")
    if getattr(args, "mode", None) not in (None, "push"):
        raise RsplarsError("EP-SPARQL queries are push-evaluated (on every event): --mode pull/none does not apply")
    if getattr(args, "engine", "sequential") == "spark":
        from spark_jobs.epsparql_job import refuse_policy

        refuse_policy(args.selection, args.consumption)  # before the stream is read
        for name in ("parquet", "spark_state"):
            if getattr(args, name, None) is not None:
                raise RsplarsError(f"--{name.replace('_', '-')} does not apply to EP-SPARQL runs on Spark "
                                   "(docs/spark_jobs.md)")
    if args.r2s != "rstream":
        raise RsplarsError("--r2s does not apply to EP-SPARQL: each complex event is reported once, when detected")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    fmt = args.format
    check_format(fmt)
    compiled = compile_for_run(args, query)
    from translator.evaluate.accounting import count_elements, new_accounting, print_summary

    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    elements, _facts = read_data(args, accounting)
    if args.print_asp_at is not None:
        if uses_policy(args):
            raise RsplarsError("--print-asp-at prints the LARS program of the unrestricted policy; "
                               "a selection or consumption policy is post-processing (docs/epsparql.md)")
        from translator.cli.commands.print_asp import print_asp

        return print_asp(args, compiled, elements, ())
    if args.static or args.named:
        print("rsplars: note: EP-SPARQL patterns match events only; --static/--named data is not read",
              file=sys.stderr)
    evs = evaluations(args, compiled, elements, start=args.start, end=args.end, progress=Progress("rsplars run"))
    last = None
    try:
        with output(args.output) as out:
            write = writer(fmt, out, compiled)
            for ev in evs:
                write(ev)
                out.flush()
                last = ev.t
    finally:  # nothing lost silently (docs/robustness.md)
        count_elements(accounting, elements, last)
        print_summary(accounting)
    return EXIT_OK


def push_answers(args: argparse.Namespace, query, elements, *, end=None) -> dict:
    """``rsplars agree`` with an EP-SPARQL push query: ``{t: answer}`` at every event time, each
    answer the complex events reported at t projected on the result variables (their intervals
    dropped: the other engine has none), as agreement solutions."""
    from translator.agreement import Solution

    compiled = compile_for_run(args, query)
    if compiled.form == "construct":
        raise RsplarsError("agree compares SELECT answers: the EP-SPARQL query is a CONSTRUCT query")
    out = {}
    for ev in evaluations(args, compiled, elements, end=end):
        out[ev.t] = frozenset(Solution.from_mapping(dict(zip(compiled.variables, row))) for row, _, _ in ev.rows)
    return out
