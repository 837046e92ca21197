"""The operational options of ``run``, ``check`` and ``translate`` (docs/check.md): a profile and the
single parameters that override it. Not a subcommand; the commands add these options."""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from translator.cli.commands.common import OPTION_GROUPS
from translator.options import ProfileOptions


class Default(str):
    """An option's default that the user did not give: a profile's parameter overrides it, an
    explicit option overrides the profile (``--r2s``, ``--window-bounds``)."""


def given(value) -> bool:
    return value is not None and not isinstance(value, Default)


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
    else ``--profile``, else the defaults) with the explicit options applied (:func:`profile_options`);
    ``--window-bounds`` is the window model."""
    from translator.evaluate.profiles import operational_parameters

    return operational_parameters(profile_options(args, profile=profile), window_bounds=window_bounds_given(args),
                                  unit=base_unit)


def profile_options(args: argparse.Namespace, *, profile: str | None = None) -> ProfileOptions:
    """The :class:`~translator.options.ProfileOptions` of the profile flags: ``profile`` (else
    ``--profile``) and the single parameters given (``--t0``, ``--report-policy``, ``--cc-mode``,
    ``--report-period``, ``--report-window``, ``--tick``, ``--r2s`` if given, ``--empty-relations``,
    ``--window-alignment``, ``--horizon``); ``--window-bounds`` is a translation option
    (:func:`window_bounds_given`). A malformed value is an error naming its flag."""
    windows = None
    if getattr(args, "report_window", None) is not None:
        windows = _ints(args.report_window, "--report-window")
        if any(k < 1 for k in windows):
            raise RsplarsError("--report-window: windows are numbered from 1")
    return ProfileOptions(
        profile=profile or getattr(args, "profile", None),
        t0=_ints(args.t0, "--t0") if getattr(args, "t0", None) is not None else None,
        report_policy=getattr(args, "report_policy", None),
        r2s=args.r2s if given(getattr(args, "r2s", None)) else None,
        empty_relations=getattr(args, "empty_relations", None),
        tick=getattr(args, "tick", None),
        cc_mode=getattr(args, "cc_mode", None),
        report_period=getattr(args, "report_period", None),
        report_window=windows,
        window_alignment=getattr(args, "window_alignment", None),
        horizon=parse_horizon(getattr(args, "horizon", None)),
    )


def window_bounds_given(args: argparse.Namespace) -> str | None:
    """``--window-bounds`` if the user gave it, else ``None`` (the profile's, or closed)."""
    value = getattr(args, "window_bounds", None)
    return str(value) if given(value) else None


def run_operational(args: argparse.Namespace, query) -> int:
    """``rsplars run`` under operational parameters: the answer stream of
    :func:`translator.evaluate.operational.operational_relations`, one record per relation."""
    from translator.cli.commands.common import compile_variants, read_data
    from translator.evaluate.operational import Evaluator
    from translator.evaluate.writers import WRITERS, check_format
    from translator.translate.normalize import TimeBase

    if getattr(args, "mode", None) or getattr(args, "period", None):
        raise RsplarsError("--mode/--period and the operational options exclude each other: the report policy "
                           "decides when the query is evaluated")
    if getattr(args, "print_asp_at", None) is not None:
        raise RsplarsError("--print-asp-at is not available with operational options; "
                           "`rsplars translate --to lars --profile …` shows the program")
    if getattr(args, "engine", None) == "spark":
        raise RsplarsError("--engine spark does not run operational profiles; use the sequential engine")
    op = resolve_operational(args, base_unit=args.unit)
    args.window_bounds = args.window_bounds if given(args.window_bounds) else op.window_model
    args.mode = "none"
    from translator.cli.commands.longrun import write_run
    from translator.evaluate.accounting import count_elements, new_accounting
    from translator.evaluate.memory import MemoryGuard, resolve_limit

    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    elements, facts = read_data(args, accounting)
    ((_, compiled),) = compile_variants(args, query, elements)
    check_format(args.format, compiled.form)
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(args.unit), elements, facts, engine=args.lars_engine)
    relations = evaluator.relations(op, args.start, args.end)
    resume = getattr(args, "resume_from", None)
    if resume is not None:  # the answers at t depend on the stream up to t only (translator.evaluate.resume)
        relations = [rel for rel in relations if rel.t > resume]
    # the element summary on stderr, a clean stop on SIGINT/SIGTERM (docs/robustness.md)
    return write_run(args, "rsplars", args.format, lambda out: WRITERS[args.format](out, compiled), relations,
                     accounting, guard=MemoryGuard(resolve_limit(getattr(args, "max_memory", None))),
                     count=lambda last: count_elements(accounting, elements, last))


def operational_lars(args: argparse.Namespace, query) -> str:
    """``translate --to lars`` with operational options: the program of
    :func:`translator.evaluate.operational.report_program`, after comment lines with the parameters."""
    from translator.cli.commands.common import compile_variants
    from translator.evaluate.operational import report_programs_text

    if getattr(args, "mode", None) or getattr(args, "period", None):
        raise RsplarsError("--mode/--period and the operational options exclude each other: the report policy "
                           "decides when the query is evaluated")
    op = resolve_operational(args, base_unit=args.unit)
    args.window_bounds = args.window_bounds if given(args.window_bounds) else op.window_model
    args.mode = "none"
    return report_programs_text(compile_variants(args, query), op, args.unit, args.unicode)


def add_profile_agreement_options(p: argparse.ArgumentParser) -> None:
    """``agree``'s operational options: ``--profiles A,B`` (or ``--profile X`` for two queries) and
    every single parameter of ``run``/``check`` (``--t0``, ``--report-policy``, ``--tick``, ``--r2s``,
    ``--empty-relations``, …), which override both profiles. ``--report`` stays the JSON report file."""
    add_operational_options(p, r2s=True, report_flags=("--report-policy",), profiles=True)


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
