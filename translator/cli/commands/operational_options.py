"""The operational options of ``run``, ``check`` and ``translate`` (docs/check.md): a profile and the
single parameters that override it. Not a subcommand; the commands add these options."""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from translator.cli.commands.common import OPTION_GROUPS, Default, given
from translator.options import ProfileOptions

__all__ = ["Default", "given"]  # (where check and agree import them from)


REPORT_HELP = ("window-close, content-change, non-empty, periodic (or WC, CC, NC, P), comma-separated "
               "(Dell'Aglio et al. 2014, Def. 23)")


#: the report-policy option: ``--report-policy`` everywhere; ``run``, ``check`` and ``translate`` also take the
#: first spelling ``--report`` (kept for users' scripts); on ``agree`` ``--report`` is the JSON report file.
REPORT_FLAGS = ("--report-policy", "--report")


def add_operational_options(p: argparse.ArgumentParser, *, r2s: bool = True,
                            report_flags: tuple[str, ...] = REPORT_FLAGS, profiles: bool = False) -> None:
    """The engine profile and its single parameters (docs/check.md) on ``p``: an argument group
    (``translator.cli.commands.common.option_groups``), or a parser, which then gets a group of its
    own. The defaults of ``--r2s`` and ``--window-bounds`` become :class:`Default`: a profile
    overrides them, an explicit value overrides the profile."""
    from translator.evaluate.policy_names import ALIGNMENTS, CC_MODES, EMPTY_RELATIONS, PROFILE_NAMES as PROFILES, TICKS

    g = p.add_argument_group(*OPTION_GROUPS["profile"]) if isinstance(p, argparse.ArgumentParser) else p
    g.add_argument("--profile", choices=list(PROFILES), metavar="NAME",
                   help="%(choices)s: an engine's parameters (`rsplars profiles`); the options below "
                        "override them")
    if profiles:
        g.add_argument("--profiles", metavar="A,B",
                       help="compare the answer streams of two engine profiles: QUERY (or QUERY_A) under A, QUERY "
                            "(or QUERY_B) under B")
    g.add_argument("--t0", metavar="T[,T…]", help="first window start in base units, one or one per window (default 0)")
    g.add_argument(*report_flags, dest="report_policy", metavar="STRATEGIES",
                   help=REPORT_HELP + ("" if len(report_flags) == 1 else
                                       f"; {' and '.join(report_flags)} are the same option"))
    g.add_argument("--cc-mode", choices=list(CC_MODES), metavar="MODE",
                   help="content change: arrivals only (default) or strict (expiries count too)")
    g.add_argument("--report-period", metavar="DUR", help="period of the periodic strategy (default: the window slide)")
    g.add_argument("--report-window", metavar="N,…",
                   help="only these windows report, from 1 (Dell'Aglio et al. 2014, Example 9)")
    g.add_argument("--tick", choices=list(TICKS), metavar="TICK",
                   help="tuple: content change per arriving tuple; time, batch: per instant")
    g.add_argument("--empty-relations", choices=list(EMPTY_RELATIONS), metavar="E",
                   help="emit or skip relations empty after R2S (Dell'Aglio et al. 2013, §3)")
    g.add_argument("--window-alignment", choices=list(ALIGNMENTS), metavar="A",
                   help="t0, or step: windows close at multiples of the step")
    g.add_argument("--horizon", metavar="H", help="engine clock: none, last (element) or a time")
    if r2s:
        g.add_argument("--r2s", choices=["rstream", "istream", "dstream"], default="rstream", metavar="R2S",
                       help="%(choices)s (default: the profile's, else rstream)")
    for dest in ("r2s", "window_bounds"):
        value = p.get_default(dest)
        if isinstance(value, str):
            p.set_defaults(**{dest: Default(value)})


def _ints(text: str, what: str) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise RsplarsError(f"{what}: expected integers separated by commas, got {text!r}") from None
    return values


def operational_requested(args: argparse.Namespace) -> bool:
    return any(getattr(args, name, None) is not None for name in OPERATIONAL_DESTS)


#: the options that select the report-policy run (``--r2s`` and ``--window-bounds`` only override)
OPERATIONAL_DESTS = ("profile", "profiles", "t0", "report_policy", "cc_mode", "report_period", "report_window",
                     "tick", "empty_relations", "window_alignment", "horizon")


def profile_options(args: argparse.Namespace) -> ProfileOptions | None:
    """The :class:`~translator.options.ProfileOptions` of ``--profile`` and the single parameters
    (``None`` when none is given: no report policy is asked for; ``--r2s`` alone only overrides);
    each option's value checked here, its error naming the option."""
    if not operational_requested(args):
        return None
    windows = None
    if args.report_window is not None:
        windows = _ints(args.report_window, "--report-window")
        if any(k < 1 for k in windows):
            raise RsplarsError("--report-window: windows are numbered from 1")
    if args.report_period is not None:  # a named error for a bad duration
        from translator.rdf.timeunits import duration_in_base_units

        duration_in_base_units(args.report_period, args.unit)
    return ProfileOptions(
        profile=args.profile, t0=_ints(args.t0, "--t0") if args.t0 is not None else None,
        report_policy=args.report_policy, r2s=args.r2s if given(getattr(args, "r2s", None)) else None,
        empty_relations=args.empty_relations, tick=args.tick, cc_mode=args.cc_mode,
        report_period=args.report_period, report_window=windows,
        window_alignment=getattr(args, "window_alignment", None), horizon=parse_horizon(getattr(args, "horizon", None)))


def parse_horizon(text: str | None) -> str | int | None:
    """``--horizon``: ``none``, ``last`` or a time in base units."""
    if text is None or text in ("none", "last"):
        return text
    try:
        return int(text)
    except ValueError:
        raise RsplarsError(f"--horizon: expected none, last or a time in base units, got {text!r}") from None


def resolve_operational(args: argparse.Namespace, *, base_unit: str, profile: str | None = None):
    """The :class:`translator.evaluate.profiles.Operational` of the options: the profile (``profile``,
    else ``--profile``, else the defaults) with the explicit options applied; ``--window-bounds`` is
    the window model."""
    from translator.evaluate.profiles import DEFAULT, get_profile, with_overrides
    from translator.evaluate.report_policy import parse_report
    from translator.rdf.timeunits import duration_in_base_units

    name = profile or args.profile
    base = get_profile(name).params if name else DEFAULT
    period = None
    if args.report_period is not None:
        period = duration_in_base_units(args.report_period, base_unit)
    windows = None
    if args.report_window is not None:
        windows = tuple(k - 1 for k in _ints(args.report_window, "--report-window"))
        if any(k < 0 for k in windows):
            raise RsplarsError("--report-window: windows are numbered from 1")
    return with_overrides(
        base,
        t0=_ints(args.t0, "--t0") if args.t0 is not None else None,
        report=parse_report(args.report_policy) if args.report_policy is not None else None,
        cc_mode=args.cc_mode,
        period=period,
        report_windows=windows,
        tick=args.tick,
        r2s=args.r2s if given(getattr(args, "r2s", None)) else None,
        empty_relations=args.empty_relations,
        window_model=args.window_bounds if given(args.window_bounds) else None,
        alignment=getattr(args, "window_alignment", None),
        horizon=parse_horizon(getattr(args, "horizon", None)),
    )


def add_profile_agreement_options(p: argparse.ArgumentParser) -> None:
    """``agree``'s operational options: ``--profiles A,B`` (or ``--profile X`` for two queries) and
    every single parameter of ``run``/``check`` (``--t0``, ``--report-policy``, ``--tick``, ``--r2s``,
    ``--empty-relations``, …), which override both profiles. ``--report`` stays the JSON report file."""
    add_operational_options(p, r2s=True, report_flags=("--report-policy",), profiles=True)


def profile_sides(args: argparse.Namespace) -> tuple[list[str], list]:
    """The two sides an ``agree`` under operational options compares: their labels and their
    :class:`Operational` (the profiles of ``--profiles A,B``, or ``--profile X`` / the defaults on
    both sides), each with the explicit options applied."""
    from translator.evaluate.profiles import get_profile

    if args.profiles is not None:
        if args.profile is not None:
            raise RsplarsError("give --profiles A,B (two engines) or --profile X (one engine, two queries), not both")
        names = [n.strip() for n in args.profiles.split(",")]
        if len(names) != 2 or not all(names):
            raise RsplarsError(f"--profiles: expected two profiles A,B, got {args.profiles!r}")
        for n in names:
            get_profile(n)  # a named error for an unknown profile
        return names, [resolve_operational(args, base_unit=args.unit, profile=n) for n in names]
    if args.query_file is not None:
        raise RsplarsError("with one QUERY the operational options compare two engines: give --profiles A,B "
                           "(or two queries, --pull QUERY_A --push QUERY_B, under one --profile)")
    op = resolve_operational(args, base_unit=args.unit)
    label = args.profile or "options"
    return [f"{label} (QUERY_A)", f"{label} (QUERY_B)"], [op, op]


def run_profile_agreement(args: argparse.Namespace) -> int:
    import json
    import sys

    from lars.errors import EXIT_FAILURE, EXIT_OK
    from translator.agreement.check import compare_profiles
    from translator.cli.commands.common import output, parse_query, read_data
    from translator.evaluate.operational import Evaluator
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase

    if getattr(args, "period", None):
        raise RsplarsError("--period and the operational options exclude each other: the report policy decides "
                           "when the query is evaluated")
    names, ops = profile_sides(args)
    files = [args.query_file, args.query_file] if args.query_file else [args.pull, args.push]
    from translator.evaluate.accounting import count_elements, new_accounting, print_summary

    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    elements, facts = read_data(args, accounting)
    base = TimeBase(args.unit)
    evaluators = []
    queries = {path: parse_query(args, path) for path in dict.fromkeys(files)}
    for path, op in zip(files, ops):
        query = queries[path]
        compiled = compile_query(query, mode="none", bounds=op.window_model, base=base)
        evaluators.append(Evaluator(compiled.query, compiled.strategy, base, elements, facts, engine=args.lars_engine))
    result = compare_profiles(evaluators[0], ops[0], evaluators[1], ops[1], start=args.start, end=args.end,
                              compare=getattr(args, "compare", None) or "bags")
    result = {"profiles": names, "queries": files, "parameters": [op.as_dict() for op in ops], **result}
    a, b = names
    print(f"{a} vs {b}: " + ("the answer streams are equal" if result["equal"] else
                               f"the answer streams differ, first at t = {result['first_difference']}")
          + f" (relations compared as {result['compare']})")
    for row in result["timeline"][: args.max_rows]:
        mark = "=" if row["equal"] else "≠"
        print(f"  {row['t']:>6} {mark} {a}: {json.dumps(row['a'], ensure_ascii=False)}  "
              f"{b}: {json.dumps(row['b'], ensure_ascii=False)}")
    for x, y, key in ((a, b, "a_correct_under_b"), (b, a, "b_correct_under_a")):
        if result[key] is not None:
            verdict = "is a correct" if result[key] else "is no correct"
            print(f"{x}'s output {verdict} {y} output for {'some' if result[key] else 'any'} t0 (as rsplars check judges)")
    if args.report:
        with output(args.report) as out:
            out.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    count_elements(accounting, elements, args.end if args.end is not None else max((e.t for e in elements), default=None))
    print_summary(accounting)  # nothing lost silently (docs/robustness.md)
    return EXIT_FAILURE if args.fail_on_disagree and not result["equal"] else EXIT_OK


def apply_dialect_defaults(args: argparse.Namespace, query) -> None:
    """A query whose dialect has its own profile (RSP-QL: ``rsp-ql``) runs under it, with the R2S
    operator its registration names, unless the options name a profile, a mode or a period, or an
    R2S operator (:func:`translator.evaluate.profiles.dialect_defaults`)."""
    if query.dialect != "rspql":  # the one dialect with a profile of its own: other runs load no profiles
        return
    from translator.evaluate.profiles import dialect_defaults

    registration = getattr(query, "registration", None)
    profile, r2s = dialect_defaults(query.dialect, registration.kind if registration is not None else None)
    if r2s is not None and hasattr(args, "r2s") and not given(args.r2s):
        args.r2s = r2s
    plain = getattr(args, "mode", None) or getattr(args, "period", None) or getattr(args, "as_", None)
    if profile is None or getattr(args, "profile", "absent") is not None or plain:
        return
    other = sorted({w.window.kind for w in query.dataset.windows} - {"range", "tumbling"})
    if other and not operational_requested(args):  # report policies need time-based sliding windows
        print(f"rsplars: note: the {profile} profile reports on time-based sliding windows (Dell'Aglio et al. 2013, §2.3); "
              f"a query with {' and '.join(other)} windows runs its plain translation (pulled at the windows' slide, "
              "pushed when every window counts triples)", file=sys.stderr)
        return
    args.profile = profile
