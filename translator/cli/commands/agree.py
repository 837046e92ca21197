"""``rsplars agree``: do a pull-based and a push-based run agree, interval by interval? (seed 000 §5)

Two forms::

    rsplars agree --pull QUERY_A --push QUERY_B --stream IRI=FILE … [--period U]
    rsplars agree QUERY --stream IRI=FILE … [--as cqels-brave|cqels-cautious|cqels-all]

QUERY_A (or ``cs(Q)``) is translated with τ1 and run pull-based with period U (``--period``, else
its ``COMPUTED EVERY`` or window STEP, D4); QUERY_B (or the members of ``cq(Q)`` that ``--as`` names;
a C-SPARQL QUERY_B is replaced by its brave/cautious CQELS counterpart) is translated with τ2 and run
push-based. For the diagnosis (docs/agreement-report.md) the push query also runs pull-based, and
both headline runs are repeated under a second window-bounds convention (``--other-window-bounds``).
Before running, condition (ii) is checked statically. Everything about agreement itself lives in
:mod:`translator.agreement`: this module only compiles, runs, and hands the answers over.

Exit code 0 when the analysis ran; with ``--fail-on-disagree`` 1 when an interval disagrees; 2 on
user errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from lars.errors import EXIT_OK, RsplarsError
from spark_jobs.cli import add_engine_options
from translator.cli.commands.common import UNITS, add_data_options, add_query_options, parse_query, read_data
from translator.cli.commands.epsparql_cmd import add_epsparql_options
from translator.translate.tau import WINDOW_BOUNDS

HELP = "compare a pull-based (C-SPARQL) and a push-based (CQELS) run interval by interval (seed 000 §5)"
AS_CHOICES = ("cqels-brave", "cqels-cautious", "cqels-all")
#: the second convention of the window-bounds factor when --other-window-bounds is not given
DEFAULT_OTHER_BOUNDS = {"closed": "left-open", "left-open": "closed", "right-open": "closed"}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("agree", help=HELP, description=HELP)
    p.add_argument("query_file", nargs="?", metavar="QUERY",
                   help="one query: compare cs(QUERY) pulled with its CQELS counterpart pushed (see --as)")
    p.add_argument("--pull", metavar="QUERY_A", help="the query run pull-based with τ1 (C-SPARQL's dataset)")
    p.add_argument("--push", metavar="QUERY_B", help="the query run push-based with τ2 (CQELS's stream patterns)")
    add_query_options(p)
    add_data_options(p, stream_required=True)
    p.add_argument("--as", dest="as_", choices=AS_CHOICES,
                   help="which member of cq(Q) is pushed: brave (default), cautious, or all of them (one report each)")
    p.add_argument("--assign", action="append", default=[], metavar="I=IRI",
                   help="for a C-SPARQL query pushed as cq(Q): triple pattern number I (from 1) feeds stream IRI "
                        "(repeatable; default: read off the --stream data)")
    p.add_argument("--period", metavar="U",
                   help="pull period, e.g. 5m, or an integer in base units (default: the pull query's "
                        "COMPUTED EVERY, else its window STEP)")
    p.add_argument("--window-bounds", choices=list(WINDOW_BOUNDS), default="closed",
                   help="window bounds convention of the runs (D2; default: closed)")
    p.add_argument("--other-window-bounds", choices=[*WINDOW_BOUNDS, "none"],
                   help="convention the headline runs are repeated under for the window-bounds factor "
                        "(default: left-open for closed, else closed; none: skip)")
    p.add_argument("--no-diagnosis", action="store_true",
                   help="run only the two headline runs: no cause analysis (faster)")
    p.add_argument("--unit", choices=UNITS, default="s", help="base time unit of the runs (D1; default: s)")
    add_engine_options(p)
    add_epsparql_options(p)
    p.add_argument("--from", dest="start", type=int, metavar="T", help="judge the intervals from T (default 0)")
    p.add_argument("--to", dest="end", type=int, metavar="T", help="judge the intervals up to T (default: last pull time)")
    p.add_argument("--report", metavar="FILE.json", help="write the JSON report (docs/agreement-report.md)")
    p.add_argument("--html", metavar="FILE.html", help="write the HTML report with the agreement plot")
    p.add_argument("--max-rows", type=int, default=40, metavar="N", help="rows of the stdout table (default: 40)")
    p.add_argument("--fail-on-disagree", action="store_true", help="exit 1 if any judged interval disagrees")
    p.set_defaults(func=run)


@dataclass(frozen=True)
class Comparison:
    """One headline comparison: ``pull_query`` (run with τ1, pull) against ``push_query`` (τ2, push)."""

    label: str
    pull_query: object
    push_query: object
    pull_source: str
    push_source: str
    mode: str  # ReportInputs.mode


def run(args: argparse.Namespace) -> int:
    from translator.agreement import QueryInput, ReportInputs, StreamInput, analyse, exit_code
    from translator.agreement.report_html import write_html
    from translator.agreement.report_json import write_json
    from translator.agreement.table import render_table
    from translator.translate.normalize import TimeBase
    from translator.rdf.streams import parse_stream_spec

    _check_arguments(args)
    elements, facts = read_data(args)
    comparisons = _comparisons(args, elements)
    base = TimeBase(args.unit)
    period = _period(args, comparisons[0].pull_query, base)
    other = args.other_window_bounds or DEFAULT_OTHER_BOUNDS[args.window_bounds]
    if other in ("none", args.window_bounds) or args.no_diagnosis:
        other = None
    streams = tuple(StreamInput(*parse_stream_spec(s)) for s in args.stream)
    static_triples = _static_default_triples(args)
    stream_triples = _stream_triples(elements)
    code = EXIT_OK
    for k, comparison in enumerate(comparisons, start=1):
        events = comparison.push_query.dialect == "epsparql"  # complex events, pushed (docs/epsparql.md)
        inputs = ReportInputs(
            queries=(
                QueryInput("pull", comparison.pull_source, comparison.pull_query.dialect, "tau1"),
                QueryInput("push", comparison.push_source, comparison.push_query.dialect,
                           "epsparql" if events else "tau2"),
            ),
            streams=streams,
            period=period,
            window_bounds=args.window_bounds,
            mode=comparison.mode,
            static=tuple(args.static),
            time_from=args.start,
            time_to=args.end,
            time_unit=args.unit,
        )
        if events:
            runs = _run_events(comparison, args, elements, facts, period, base)
            check = None
        else:
            runs = _run_all(comparison, args, elements, facts, period, base, other)
            check = _static_check(comparison.push_query, static_triples, stream_triples)
        notes = [comparison.label, f"period U = {period} {args.unit}"]
        if events:
            notes.append("EP-SPARQL push query: the complex events reported in (t1, t2] (their intervals dropped) "
                         "against the pull answer at t2; no diagnosis runs (an event pattern has no windows)")
        if args.end is None:
            notes.append("no --to: the runs end at the last input rounded up to a multiple of U; windows that "
                         "still hold data later are not judged (give --to to extend the timeline)")
        report = analyse(inputs, runs["tau1_pull"], runs["tau2_push"], tau2_pull=runs.get("tau2_pull"),
                         other=runs.get("other"), static_check=check, notes=tuple(notes))
        if len(comparisons) > 1:
            print(f"== {k}/{len(comparisons)}: {comparison.label}")
        else:
            print(f"== {comparison.label}")
        sys.stdout.write(render_table(report, max_rows=args.max_rows))
        if args.report:
            path = _numbered(args.report, k, len(comparisons))
            write_json(report, path)
            print(f"JSON report: {path}")
        if args.html:
            path = _numbered(args.html, k, len(comparisons))
            write_html(report, path)
            print(f"HTML report: {path}")
        code = max(code, exit_code(report, fail_on_disagree=args.fail_on_disagree))
        sys.stdout.flush()
    return code


# ----------------------------------------------------------------------------------- the queries


def _check_arguments(args: argparse.Namespace) -> None:
    if args.query_file is not None and (args.pull or args.push):
        raise RsplarsError("give either one QUERY or --pull QUERY_A --push QUERY_B, not both")
    if args.query_file is None and not (args.pull and args.push):
        raise RsplarsError("give one QUERY, or both --pull QUERY_A and --push QUERY_B")
    if args.start is not None and args.start < 0:
        raise RsplarsError(f"--from {args.start} is negative")
    if args.start is not None and args.end is not None and args.start > args.end:
        raise RsplarsError(f"--from {args.start} is after --to {args.end}")
    if args.max_rows < 1:
        raise RsplarsError("--max-rows must be at least 1")


def _comparisons(args: argparse.Namespace, elements) -> list[Comparison]:
    """The headline pairs: (QUERY_A, QUERY_B) or (cs(Q), member of cq(Q)) for each ``--as`` variant."""
    if args.query_file is not None:
        query = parse_query(args, args.query_file)
        if query.dialect == "epsparql":
            raise RsplarsError("an EP-SPARQL query has no CQELS counterpart: compare it with a C-SPARQL or "
                               "CQELS query, --pull QUERY_A --push EP_QUERY")
        as_ = args.as_ or "cqels-brave"
        return [
            Comparison(f"cs(Q) pulled (τ1) vs {label} pushed (τ2)", query, member, args.query_file,
                       args.query_file, as_)
            for label, member in _cq_members(args, query, as_, elements)
        ]
    pull_query = parse_query(args, args.pull)
    push_query = parse_query(args, args.push)
    if pull_query.dialect == "epsparql":
        raise RsplarsError("an EP-SPARQL query is push-evaluated (on every event): give it as --push")
    if push_query.dialect == "epsparql":
        return [Comparison("QUERY_A pulled (τ1) vs EP-SPARQL QUERY_B pushed (complex events)", pull_query,
                           push_query, args.pull, args.push, "two-queries")]
    if push_query.dataset.streams:  # C-SPARQL: τ2 needs its CQELS counterpart
        as_ = args.as_ or "cqels-brave"
        members = _cq_members(args, push_query, as_, elements)
        return [Comparison(f"QUERY_A pulled (τ1) vs {label} of QUERY_B pushed (τ2)", pull_query, member,
                           args.pull, args.push, "two-queries") for label, member in members]
    if args.as_ not in (None, "cqels-brave"):
        from translator.translate.compile import counterparts

        return [Comparison(f"QUERY_A pulled (τ1) vs {label} of QUERY_B pushed (τ2)", pull_query, member,
                           args.pull, args.push, "two-queries")
                for label, member in counterparts(push_query, args.as_)]
    return [Comparison("QUERY_A pulled (τ1) vs QUERY_B pushed (τ2)", pull_query, push_query, args.pull, args.push,
                       "two-queries")]


def _cq_members(args: argparse.Namespace, query, as_: str, elements):
    from translator.cli.commands.common import assignment_from
    from translator.translate.compile import counterparts

    assignment = assignment_from(args, query, elements) if query.dialect == "csparql" else None
    return counterparts(query, as_, assignment)


def _period(args: argparse.Namespace, pull_query, base) -> int:
    """``--period`` (a duration, or an integer in base units), else the pull query's own (D4)."""
    from translator.translate.compile import default_period
    from translator.rdf.timeunits import duration_in_base_units

    if args.period is not None:
        text = args.period.strip()
        period = int(text) if text.isdigit() else duration_in_base_units(text, args.unit)
    else:
        period = default_period(pull_query, base)
        if period is None:
            raise RsplarsError("the pull query has no COMPUTED EVERY and no window STEP: give the pull period with --period")
    if period < 1:
        raise RsplarsError(f"the pull period must be positive, got {period}")
    return period


# -------------------------------------------------------------------------------------- the runs


def _run_all(comparison: Comparison, args, elements, facts, period: int, base, other: str | None) -> dict:
    """The answer streams of the headline runs and, unless ``--no-diagnosis``, of the decomposition;
    solved one after the other, or all in one Spark job with ``--engine spark`` (same answers)."""
    from translator.agreement import BoundsAlternative
    from translator.translate.compile import compile_query

    def compiled(query, strategy: str, mode: str, bounds: str):
        return compile_query(query, strategy=strategy, mode=mode, period=period if mode == "pull" else None,
                             bounds=bounds, base=base)

    bounds = args.window_bounds
    programs = {
        "tau1_pull": compiled(comparison.pull_query, "tau1", "pull", bounds),
        "tau2_push": compiled(comparison.push_query, "tau2", "push", bounds),
    }
    if not args.no_diagnosis:
        programs["tau2_pull"] = compiled(comparison.push_query, "tau2", "pull", bounds)
        if other is not None:
            programs["other_pull"] = compiled(comparison.pull_query, "tau1", "pull", other)
            programs["other_push"] = compiled(comparison.push_query, "tau2", "push", other)
    if args.engine == "spark":
        from spark_jobs.cli import run_agreement_spark

        answers = run_agreement_spark(programs, elements, facts, None, args.end, args.master, args.partitions,
                                      parquet=args.parquet).answers
    else:
        answers = {label: collect_answers(c, elements, facts, end=args.end) for label, c in programs.items()}
    out = {label: answers[label] for label in ("tau1_pull", "tau2_push", "tau2_pull") if label in answers}
    if "other_pull" in answers:
        out["other"] = BoundsAlternative(other, answers["other_pull"], answers["other_push"])
    return out


def _run_events(comparison: Comparison, args, elements, facts, period: int, base) -> dict:
    """The headline runs when the push query is EP-SPARQL: QUERY_A pulled with τ1, the complex
    events of QUERY_B (``translator.cli.commands.epsparql_cmd.push_answers``)."""
    from translator.cli.commands.epsparql_cmd import push_answers
    from translator.translate.compile import compile_query

    if args.engine == "spark":
        raise RsplarsError("--engine spark does not run EP-SPARQL queries")
    pull = compile_query(comparison.pull_query, strategy="tau1", mode="pull", period=period,
                         bounds=args.window_bounds, base=base)
    return {"tau1_pull": collect_answers(pull, elements, facts, end=args.end),
            "tau2_push": push_answers(args, comparison.push_query, elements, end=args.end)}


def collect_answers(compiled, elements, facts, *, end: int | None = None) -> dict[int, frozenset]:
    """``{t: answer}`` at every evaluation time of ``compiled`` (pull: every multiple of U from 0,
    empty answers included; push: every time point with input), as agreement solutions."""
    from translator.agreement import Solution
    from translator.evaluate.run import answers, solution_dicts

    return {
        ev.t: frozenset(Solution.from_mapping(d) for d in solution_dicts(compiled.variables, ev.rows))
        for ev in answers(compiled, elements, facts, end=end)
    }


# ------------------------------------------------------------------------------ condition (ii)


def _static_default_triples(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """The triples of the static default graph as N-Triples texts (the graph τ1 merges streams into)."""
    if not args.static:
        return []
    from translator.rdf.static import dataset_quads, load_dataset
    from translator.rdf.terms import to_nt

    return [(to_nt(s), to_nt(p), to_nt(o)) for s, p, o, g in dataset_quads(load_dataset(args.static)) if g is None]


def _stream_triples(elements) -> dict[str, list[tuple[str, str, str]]]:
    from translator.rdf.terms import to_nt

    out: dict[str, list[tuple[str, str, str]]] = {}
    for e in elements:
        out.setdefault(str(e.stream_iri), []).append(tuple(to_nt(x) for x in e.triple))  # type: ignore[arg-type]
    return out


def _static_check(push_query, static_triples, stream_triples):
    """Condition (ii) on the τ2 query: its stream patterns against the static default graph, its
    static patterns against the triples of every stream."""
    from translator.agreement.query_patterns import condition_ii_patterns
    from translator.agreement.static_check import check_condition_ii

    stream_patterns, static_patterns = condition_ii_patterns(push_query)
    return check_condition_ii(stream_patterns, static_patterns, static_triples, stream_triples)


def _numbered(path: str, k: int, total: int) -> str:
    """``path`` itself for one report; ``name.K.ext`` for report K of several (``--as cqels-all``)."""
    if total == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}.{k}{ext}"
