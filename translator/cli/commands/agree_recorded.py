"""``rsplars agree QUERY --stream IRI=FILE … --answers A --answers B``: two engines' recorded outputs
of one query on one input, interval by interval, with the cause of every interval that does not agree
(:mod:`translator.agreement.recorded_agreement`; docs/check.md, "Two recorded outputs").

The answers' timestamps are read in ``--stream-time-unit`` (default ``--unit``); the operational
options (``--t0``, ``--report-policy``, ``--tick``, ``--r2s``, ``--empty-relations``,
``--window-bounds``, ``--cc-mode``) fix their parameter in the inference on each output; ``--period``
is the interval length U (default: the query's COMPUTED EVERY or window STEP, D4); ``--from``/``--to``
the judged range; ``--report``/``--html`` the reports. Exit code 0 when every interval agrees (in
total, Dao-Tran, Beck, Eiter 2015, §5), 1 when one does not, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json

from lars.errors import RsplarsError
from translator.exits import EXIT_FAILURE, EXIT_OK
from translator.cli.commands.common import data_arguments, parsed_query, print_note
from translator.cli.commands.operational_options import profile_options, window_bounds_given
from translator.translate.variants import check_stream_iris


def run_recorded(args: argparse.Namespace) -> int:
    """Two outputs compared by :func:`rsplars.agree_recorded`; ``args.answer_readings``: (format, time
    unit) of the outputs of live runs, by path."""
    import rsplars
    from rsplars.recorded import RecordedAnswers
    from translator.evaluate.accounting import new_accounting, print_summary

    if len(args.answers) != 2:
        raise RsplarsError(f"--answers: give two recorded outputs to compare (got {len(args.answers)})")
    if args.query_file is None or args.pull or args.push:
        raise RsplarsError("two recorded outputs are compared for one QUERY (not --pull/--push)")
    if args.profiles is not None or args.as_:
        raise RsplarsError("--profiles and --as do not apply to recorded outputs: inference finds each one's profile")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    query = parsed_query(args, args.query_file)
    if query.dialect in ("epsparql", "rsepql"):  # complex events, compared as bags (docs/epsparql.md)
        from translator.cli.commands.event_check import compare_event_outputs

        return compare_event_outputs(args, query)
    data = data_arguments(args)
    check_stream_iris(query, list(data["streams"]), [])  # a wrong --stream named first; the notes: the API's
    readings = getattr(args, "answer_readings", {})  # live runs: (format, time unit) of each engine's output
    a, b = (RecordedAnswers(path, *readings.get(path, ("auto", None))) for path in args.answers)
    accounting = new_accounting(args.skip_bad_elements)
    result = rsplars.agree_recorded(query, a, b, fixed=profile_options(args), window_bounds=window_bounds_given(args),
                                    unit=args.unit, period=args.period, start=args.start, end=args.end,
                                    compare=args.compare or "bags", lars_engine=args.lars_engine,
                                    accounting=accounting, on_note=print_note, **data)
    print(summary(result.report, args.max_rows))
    result.write(args.report, args.html)
    print_summary(accounting)
    return EXIT_OK if result.agree else EXIT_FAILURE


def summary(report: dict, max_rows: int) -> str:
    a, b = report["outputs"]["a"], report["outputs"]["b"]
    lines = [f"A = {a['answers']}, B = {b['answers']}: {report['agreeing']} of {report['intervals']} intervals of "
             f"{report['period']} agree, {report['agreeing_in_total']} in total (Dao-Tran, Beck, Eiter 2015, §5); "
             f"relations compared as {report['compare']}"]
    for key, side in (("A", a), ("B", b)):
        if side["explained"]:
            profiles = ", ".join(side["profiles"]) or "no engine profile"
            lines.append(f"  {key}: correct under {side['correct_settings']} of {side['searched']} settings "
                         f"({profiles})")
        else:
            lines.append(f"  {key}: correct under no setting ({side['searched']} searched): wrong")
    if report.get("profile_difference"):
        lines.append("  profile difference: " + "; ".join(
            f"{p}: A {', '.join(map(str, v['a']))} / B {', '.join(map(str, v['b']))}"
            for p, v in report["profile_difference"].items()))
    shown = 0
    for row in report["timeline"]:
        if row["verdict"] == "agree" or shown >= max_rows:
            continue
        shown += 1
        lines.append(f"  [{row['start']}, {row['end']}] {row['verdict']}: A {json.dumps(row['a'], ensure_ascii=False)} "
                     f"at {row['a_times']}, B {json.dumps(row['b'], ensure_ascii=False)} at {row['b_times']}")
        for text in row.get("explanation", []):
            lines.append(f"    {text}")
    if report["unjudged_times"]:
        lines.append(f"  relations at {report['unjudged_times']} lie in no judged interval")
    return "\n".join(lines)
