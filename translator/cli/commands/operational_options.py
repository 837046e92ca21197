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


def requested_profile_options(args: argparse.Namespace) -> ProfileOptions | None:
    """:func:`profile_options` when the options ask for a report policy (a profile or a single
    parameter), else ``None`` (``--r2s`` alone only overrides); a malformed ``--report-period`` is
    an error naming the option."""
    if not operational_requested(args):
        return None
    if getattr(args, "report_period", None) is not None:
        from translator.rdf.timeunits import duration_in_base_units

        duration_in_base_units(args.report_period, args.unit)
    return profile_options(args)


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
