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
from translator.cli.errors import EXIT_FAILURE, EXIT_OK
from translator.cli.commands.common import (
    check_stream_iris,
    parse_query,
    read_data,
    read_recorded_answers,
    write_reports,
)
from translator.cli.commands.operational_options import given


def run_recorded(args: argparse.Namespace) -> int:
    from translator.agreement.check import time_factor
    from translator.agreement.compare import pull_period
    from translator.agreement.inference import parameter_space
    from translator.cli.commands.operational_options import parse_horizon
    from translator.agreement.recorded_agreement import compare_recorded
    from translator.agreement.recorded_agreement_html import render_recorded_html
    from translator.evaluate.accounting import count_elements, new_accounting, print_summary
    from translator.evaluate.operational import Evaluator
    from translator.evaluate.report_policy import parse_report
    from translator.rdf.streams import parse_stream_spec
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase

    if len(args.answers) != 2:
        raise RsplarsError(f"--answers: give two recorded outputs to compare (got {len(args.answers)})")
    if args.query_file is None or args.pull or args.push:
        raise RsplarsError("two recorded outputs are compared for one QUERY (not --pull/--push)")
    if args.profiles is not None or args.as_:
        raise RsplarsError("--profiles and --as do not apply to recorded outputs: inference finds each one's profile")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    query = parse_query(args, args.query_file)
    if query.dialect in ("epsparql", "rsepql"):  # complex events, compared as bags (docs/epsparql.md)
        from translator.cli.commands.event_check import compare_event_outputs

        return compare_event_outputs(args, query)
    check_stream_iris(query, [parse_stream_spec(spec)[0] for spec in args.stream])
    factor = time_factor(args.stream_time_unit or args.unit, args.unit)
    outputs = []
    readings = getattr(args, "answer_readings", {})  # live runs: (format, time unit) of each engine's output
    for path in args.answers:
        fmt, unit = readings.get(path, ("auto", None))
        read_factor = time_factor(unit, args.unit) if unit else factor
        outputs.append(read_recorded_answers(path, query, fmt=fmt, time_factor=read_factor).relations)
    accounting = new_accounting(args.skip_bad_elements)
    elements, facts = read_data(args, accounting)
    bounds = args.window_bounds if given(args.window_bounds) else None
    period = pull_period(query, args.period, args.unit)
    # the query's own τ strategy; the evaluator compiles the windows each report sees
    compiled = compile_query(query, mode="none", bounds=bounds or "closed", base=TimeBase(args.unit))
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(args.unit), elements, facts, engine=args.lars_engine)
    if evaluator.form != "select":
        raise RsplarsError(f"recorded outputs are compared as SELECT answers; this is a {evaluator.form.upper()} query")
    t0 = None
    if args.t0 is not None:
        try:
            t0 = tuple(int(x) for x in args.t0.split(","))
        except ValueError:
            raise RsplarsError(f"--t0: expected integers separated by commas, got {args.t0!r}") from None
    space = parameter_space(evaluator, t0=t0,
                            report=parse_report(args.report_policy) if args.report_policy is not None else None,
                            cc_mode=args.cc_mode, tick=args.tick, r2s=args.r2s if given(args.r2s) else None,
                            empty_relations=args.empty_relations, window_bounds=bounds,
                            window_alignment=getattr(args, "window_alignment", None),
                            horizon=parse_horizon(getattr(args, "horizon", None)))
    report = compare_recorded(evaluator, outputs[0], outputs[1], space, period=period, start=args.start, end=args.end,
                              sources=(args.answers[0], args.answers[1]), compare=args.compare or "bags")
    report = {"query": args.query_file, **report}
    print(summary(report, args.max_rows))
    write_reports(report, args.report, args.html, render_recorded_html)
    count_elements(accounting, elements, args.end if args.end is not None else max((e.t for e in elements), default=None))
    print_summary(accounting)
    return EXIT_OK if report["agree"] else EXIT_FAILURE


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
