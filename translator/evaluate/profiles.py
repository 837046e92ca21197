"""Operational profiles of real RSP engines: the hidden parameters of Dell'Aglio et al. 2014, §5 (explaining heterogeneity) and of the
engine model ``M = (Report, Tick, R2S, Empty-relation notification, Time unit)`` of Dell'Aglio et al. 2013, §3 and
Table 1, as data.

``rsplars profiles`` lists them with their sources; ``--profile NAME`` on ``run``/``check``/
``translate`` takes them, and explicit options (``--t0``, ``--report``, ``--tick``, ``--r2s``,
``--empty-relations``, ``--window-bounds``) override single parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lars.windows import WindowBounds
from translator.evaluate.policy_names import ALIGNMENTS, HORIZONS
from translator.options import ProfileOptions
from translator.evaluate.report_policy import (
    CC_MODES,
    EMPTY_RELATIONS,
    TICKS,
    PolicyError,
    check_strategies,
    format_report,
)

R2S = ("rstream", "istream", "dstream")


@dataclass(frozen=True)
class Operational:
    """The operational parameters of one run (docs/check.md).

    ``t0``: the first window start, one value for every window or one per window (query order);
    ``report``: the strategies (``translator.evaluate.report_policy``); ``window_model``: the
    window-bounds convention (D2) that is also the window model of the report policy;
    ``alignment``: where the windows' grid is anchored (:func:`opening_offset`); ``horizon``: how far
    the engine's clock got (:func:`observation_end`): ``none``, ``last`` or a time in base units."""

    report: frozenset[str]
    t0: tuple[int, ...] = (0,)
    cc_mode: str = "arrivals"
    period: int | None = None
    tick: str = "time"
    r2s: str = "rstream"
    empty_relations: str = "emit"
    window_model: WindowBounds = WindowBounds.LEFT_OPEN
    report_windows: tuple[int, ...] | None = None
    alignment: str = "t0"
    horizon: str | int = "none"

    def __post_init__(self) -> None:
        check_strategies(self.report)
        object.__setattr__(self, "window_model", WindowBounds.parse(self.window_model))  # an option string (D2)
        if self.alignment not in ALIGNMENTS:
            raise PolicyError(f"unknown window alignment {self.alignment!r} (expected {', '.join(ALIGNMENTS)})")
        if not isinstance(self.horizon, int) and self.horizon not in HORIZONS:
            raise PolicyError(f"unknown observation horizon {self.horizon!r} (expected {', '.join(HORIZONS)} or a time)")
        for name, value, allowed in (("tick", self.tick, TICKS), ("r2s", self.r2s, R2S),
                                     ("empty relations", self.empty_relations, EMPTY_RELATIONS),
                                     ("content-change reading", self.cc_mode, CC_MODES)):
            if value not in allowed:
                raise PolicyError(f"unknown {name} {value!r} (expected {', '.join(allowed)})")
        if not self.t0:
            raise PolicyError("t0 needs at least one value")

    def t0_of(self, k: int, n: int) -> int:
        """t0 of window k of n: one value for all, or one per window."""
        if len(self.t0) == 1:
            return self.t0[0]
        if len(self.t0) != n:
            raise PolicyError(f"--t0 gives {len(self.t0)} values; the query has {n} time-based windows "
                              "(give one value for all or one per window)")
        return self.t0[k]

    def as_dict(self) -> dict:
        return {
            "t0": list(self.t0) if len(self.t0) > 1 else self.t0[0],
            "report": format_report(self.report),
            "cc_mode": self.cc_mode,
            "period": self.period,
            "tick": self.tick,
            "r2s": self.r2s,
            "empty_relations": self.empty_relations,
            "window_bounds": self.window_model,
            "report_windows": None if self.report_windows is None else [k + 1 for k in self.report_windows],
            "window_alignment": self.alignment,
            "horizon": self.horizon,
        }


def opening_offset(t0: int, alpha: int, beta: int, alignment: str) -> int:
    """Where the first window of ``WW(α, β, t0)`` opens under ``alignment``: ``t0`` — at t0, windows
    ``o_i = t0 + i·β`` (Dell'Aglio et al. 2014, Definition 13); ``step`` — windows close at
    ``t0 + k·β`` (k ≥ 1), so the first opens at ``t0 + β − α``, before t0 when α > β (RSP4J's
    ``CSPARQLStreamToRelationOp.scope``: ``c_sup = ⌈(t_e − t0)/β⌉·β``, ``o = c_sup − α``; RSP-JS'
    ``CSPARQLWindow.scope``, the same). Both are the grid ``o_i = offset + i·β``."""
    return t0 + beta - alpha if alignment == "step" else t0


def observation_end(horizon: str | int, last_element: int | None, closing: bool) -> int | None:
    """The last report time an engine whose clock stands at ``horizon`` makes (``None``: no cut):
    ``none`` — every window holding data closes (Dell'Aglio et al. 2014, Definition 26's bounded
    horizon); ``last`` — the clock stands at the last element seen; a number — at that time. A
    window-close report needs the clock *past* the close, ``c < H`` (RSP4J ``OnWindowClose``:
    ``w.getC() < tapp``; RSP-JS ``compute_report``: ``w.close < timestamp``), so it is cut at H − 1;
    other reports at H."""
    if horizon == "none":
        return None
    h = last_element if horizon == "last" else horizon
    if h is None:
        return None
    assert isinstance(h, int)
    return h - 1 if closing else h


@dataclass(frozen=True)
class Profile:
    name: str
    engine: str
    params: Operational
    sources: dict[str, str]
    notes: tuple[str, ...] = ()


_T0 = ("hidden in every engine (Dell'Aglio et al. 2014, §5 (explaining heterogeneity); Dell'Aglio et al. 2013, §5.1 'usually not configurable'); a run uses the "
       "registration time 0 of the papers' examples (Dell'Aglio et al. 2013, Fig. 2), `check` enumerates it")
_RSP4J = "RSP4J (github.com/streamreasoning/rsp4j), yasper"
_RSPJS = "RSP-JS 1.3.5 (npm rsp-js, github.com/pbonte/RSP-JS)"
_ALIGN_002 = ("Dell'Aglio et al. 2013, §3 (SECRET: windows start at t0 + i·β); the CSRBench oracle opens its first "
              "window at t0 (§6.1)")
_HORIZON_002 = ("the CSRBench oracle evaluates every window of the recorded stream (Dell'Aglio et al. 2013, §6.1); "
                "Dell'Aglio et al. 2014, Definition 26 bounds the comparison, not the engine")
_BOUNDS_002 = "Dell'Aglio et al. 2013, §3, §6.1: SECRET/CSRBench windows [o, c) (D2 right-open)"
_TICK_002 = "Dell'Aglio et al. 2013, Table 1: tuple-driven (content-change reports once per arriving tuple, docs/check.md)"

PROFILES: dict[str, Profile] = {
    "csparql": Profile(
        "csparql", "C-SPARQL 0.9",
        Operational(frozenset({"window-close", "non-empty"}), tick="tuple", r2s="rstream", empty_relations="emit",
                    window_model=WindowBounds.RIGHT_OPEN),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Window close + Non-empty content), oracle config windowclose=true, "
                   "nonemptycontent=true; Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 Rstream; Dell'Aglio et al. 2014, §5 (explaining heterogeneity): 'RStream only'",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'Yes', oracle config emptyrelation=true",
         "window_bounds": _BOUNDS_002,
         "window_alignment": _ALIGN_002,
         "horizon": _HORIZON_002,
         "t0": _T0},
        ("time unit about 1 s (Dell'Aglio et al. 2013, Table 1)",
         "dataset: window contents merged into the default graph (τ1, Dell'Aglio et al. 2014, §5 (explaining heterogeneity))"),
    ),
    "cqels": Profile(
        "cqels", "CQELS (Aug 2011)",
        Operational(frozenset({"content-change", "non-empty"}), tick="tuple", r2s="istream", empty_relations="skip",
                    window_model=WindowBounds.RIGHT_OPEN),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Content change); the oracle's CQELS config also sets nonemptycontent=true "
                   "(the oracle's configuration); arrivals reading: Dell'Aglio et al. 2014, §5 (explaining heterogeneity) 'every time new statements enter the window' "
                   "and the oracle's CC windower (Dell'Aglio et al. 2013, §6.1)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 Istream; Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'No', oracle config emptyrelation=false",
         "window_bounds": _BOUNDS_002,
         "window_alignment": _ALIGN_002,
         "horizon": _HORIZON_002,
         "t0": _T0},
        ("time unit hundreds of ms (Dell'Aglio et al. 2013, Table 1)",
         "dataset: named window graphs via STREAM (τ2, Dell'Aglio et al. 2014, §5 (explaining heterogeneity))"),
    ),
    "sparqlstream": Profile(
        "sparqlstream", "SPARQLstream 1.0.5 (morph-streams)",
        Operational(frozenset({"window-close", "non-empty"}), tick="tuple", r2s="rstream", empty_relations="skip",
                    window_model=WindowBounds.RIGHT_OPEN),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Window close + Non-empty content); Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 allows Rstream, Istream and Dstream; tested with Rstream (Dell'Aglio et al. 2013, §6.3)",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'No'",
         "window_bounds": _BOUNDS_002,
         "window_alignment": _ALIGN_002,
         "horizon": _HORIZON_002,
         "t0": _T0},
        ("its parameters depend on the underlying stream engine (Dell'Aglio et al. 2013, §4)",),
    ),
    "rsp-ql": Profile(
        "rsp-ql", "RSP-QL reference semantics",
        Operational(frozenset({"window-close", "non-empty"}), tick="time", r2s="rstream", empty_relations="emit",
                    window_model=WindowBounds.LEFT_OPEN),
        {"report": "Dell'Aglio et al. 2014, Example 9: P = WC ∧ NC (the C-SPARQL/SPARQLstream policy of §5)",
         "tick": "Dell'Aglio et al. 2014 define no tick; RSP-QL is instant-based (time-driven, Dell'Aglio et al. 2013, §3)",
         "r2s": "Dell'Aglio et al. 2014, Example 10: Rstream",
         "empty_relations": "Dell'Aglio et al. 2014, Definition 24: one answer per evaluation time, empty ones included",
         "window_bounds": "Dell'Aglio et al. 2014, Definitions 12–13: windows (o, c], the earliest open window is the present one",
         "window_alignment": "Dell'Aglio et al. 2014, Definition 13: o_i = t0 + i·β, i ≥ 0",
         "horizon": "Dell'Aglio et al. 2014, Definition 24: the answer at every evaluation time of ET, none cut",
         "t0": "Dell'Aglio et al. 2014, Definition 13: a window parameter; Def 25 enumerates it from the registration time"},
        ("the profile of RSP-QL queries (--dialect rspql): `rsplars run` takes it unless --profile, --mode or "
         "--period is given; the R2S operator is the query's REGISTER RSTREAM|ISTREAM|DSTREAM unless --r2s is given",),
    ),
    "rsp4j": Profile(
        "rsp4j", "RSP4J / YASPER (RSP-QL's reference engine)",
        Operational(frozenset({"window-close"}), tick="time", r2s="rstream", empty_relations="skip",
                    window_model=WindowBounds.RIGHT_OPEN, alignment="step", horizon="last"),
        {"report": f"{_RSP4J}: the engines are built with ReportImpl + OnWindowClose, whose match is "
                   "`w.getC() < tapp` (api/.../secret/report/strategies/OnWindowClose.java); no non-empty guard",
         "tick": f"{_RSP4J}: Tick.TIME_DRIVEN, TimeTicker computes once per new application time "
                 "(`t_e > time.getAppTime()`, api/.../secret/tick/secret/TimeTicker.java)",
         "r2s": f"{_RSP4J}: the query's REGISTER RSTREAM|ISTREAM|DSTREAM (yasper querying/operators/Rstream, Istream, "
                "Dstream); RSTREAM by default",
         "empty_relations": f"{_RSP4J}: every report evaluates the R2R over the window content, empty or not, and "
                            "puts each result on the output stream, `r2s.eval(eval(now), now).forEach(o -> "
                            "outstream().put(o, now))` (ContinuousQueryExecutionImpl.update): an evaluation without "
                            "results puts nothing",
         "window_bounds": f"{_RSP4J}: elements enter a window when `w.getO() <= t_e && t_e < w.getC()`, "
                          "windows [o, c) (CSPARQLStreamToRelationOp.windowing)",
         "window_alignment": f"{_RSP4J}: scope(t_e) opens windows closing at multiples of the step, "
                             "`c_sup = ceil(|t_e − t0| / b)·b`, `o_i = c_sup − a` (CSPARQLStreamToRelationOp.scope)",
         "horizon": f"{_RSP4J}: windowing runs on element arrival only; a window is reported when an element later "
                    "than its close arrives, so windows closing at or after the last element are never reported",
         "t0": f"{_RSP4J}: t0 = the Time instance's scope, 0 in the examples"},
        ("the output of a report is stamped by RSP4J with the arriving element's time t_e (ContinuousQueryExecutionImpl."
         "update(now)); rsplars stamps it with the window's close c: judge RSP4J's raw timestamps with "
         "--ignore-timestamps or re-stamp them with the window close",
         "at one arrival only the latest window closed since the previous arrival is reported "
         "(`.max(Comparator.comparingLong(Window::getC))`): with gaps in the data longer than the step, earlier "
         "closes are skipped; rsplars reports every close before the horizon"),
    ),
    "rsp-js": Profile(
        "rsp-js", "RSP-JS 1.3.5 (RSP-QL on Comunica)",
        Operational(frozenset({"window-close", "non-empty"}), tick="time", r2s="rstream", empty_relations="skip",
                    window_model=WindowBounds.RIGHT_OPEN, alignment="step", horizon="last"),
        {"report": f"{_RSPJS}: RSPEngine builds CSPARQLWindow with ReportStrategy.OnWindowClose, "
                   "compute_report is `w.close < timestamp` (dist/operators/s2r.js); RSPEngine.register evaluates only "
                   "when `data.len() !== 0` (dist/rsp.js): the non-empty guard",
         "tick": f"{_RSPJS}: Tick.TimeDriven, one report per new timestamp (`timestamp > this.time`, s2r.js)",
         "r2s": f"{_RSPJS}: every binding of the evaluation is emitted on 'RStream' (rsp.js)",
         "empty_relations": f"{_RSPJS}: bindings are emitted one by one; an evaluation without bindings emits nothing",
         "window_bounds": f"{_RSPJS}: `w.open <= t_e && t_e < w.close` (CSPARQLWindow.add): windows [o, c)",
         "window_alignment": f"{_RSPJS}: CSPARQLWindow.scope, `c_sup = ceil(|t_e − t0| / slide)·slide`, "
                             "`o_i = c_sup − width`; observed with [RANGE 10 STEP 5] and elements at 0, 3, 6, 11, "
                             "12, 17, 23: windows [−5, 5), [0, 10), [5, 15), [10, 20) trigger",
         "horizon": f"{_RSPJS}: windows are reported on element arrival only (`add`); observed: [15, 25) never "
                    "triggers after the last element at 23",
         "t0": f"{_RSPJS}: RSPEngine passes start time 0"},
        ("RSP-JS stamps each binding with `timestamp_from: window.t0, timestamp_to: window.t0 + window.slide` and then "
         "advances window.t0 by the slide per binding (rsp.js), which also moves its later windows; rsplars models "
         "the window grid of the first binding of each evaluation and stamps a report with the window's close",
         "at one arrival only the latest window closed before it is reported (s2r.js `max_window`); rsplars reports "
         "every close before the horizon"),
    ),
}

#: the profile a query of a dialect runs under when the command line names none: RSP-QL queries
#: have the RSP-QL reference semantics (Dell'Aglio et al. 2014) as their own engine model
DIALECT_PROFILES: dict[str, str] = {"rspql": "rsp-ql"}


def dialect_defaults(dialect: str, registration_kind: str | None) -> tuple[str | None, str | None]:
    """(profile, R2S operator) a query of ``dialect`` runs under unless options say otherwise: the
    dialect's profile (:data:`DIALECT_PROFILES`) and, for RSP-QL, the R2S operator its registration
    names (``REGISTER ISTREAM <s> AS`` → ``istream``, Dell'Aglio et al. 2014, Defs 20–22; RSTREAM
    without a registration)."""
    profile = DIALECT_PROFILES.get(dialect)
    r2s = None
    if dialect == "rspql":
        kind = (registration_kind or "RSTREAM").lower()
        r2s = kind if kind in R2S else None
    return profile, r2s


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise PolicyError(f"unknown profile {name!r} (expected {', '.join(PROFILES)})") from None


def with_overrides(base: Operational, **overrides) -> Operational:
    """``base`` with the explicitly given parameters (``None``: keep the profile's)."""
    return replace(base, **{k: v for k, v in overrides.items() if v is not None})


DEFAULT = Operational(frozenset({"window-close"}))
"""Parameters when options are given without a profile: window close at t0 = 0, RSTREAM, empty
relations emitted, RSP-QL windows (o, c] opening at t0, no observation horizon."""


def operational_parameters(options: ProfileOptions, *, window_bounds: str | None, unit: str = "s") -> Operational:
    """The :class:`Operational` parameters of engine-profile ``options`` (the profile's, overridden
    by the options given; ``window_bounds``: the window model, if given; ``unit``: the base unit of
    ``report_period``)."""
    from lars.errors import RsplarsError
    from translator.evaluate.report_policy import parse_report
    from translator.rdf.timeunits import duration_in_base_units

    base = get_profile(options.profile).params if options.profile else DEFAULT
    windows = None
    if options.report_window is not None:
        if any(k < 1 for k in options.report_window):
            raise RsplarsError("report_window: windows are numbered from 1")
        windows = tuple(k - 1 for k in options.report_window)
    period = duration_in_base_units(options.report_period, unit) if options.report_period is not None else None
    return with_overrides(
        base, t0=options.t0, report=parse_report(options.report_policy) if options.report_policy is not None else None,
        cc_mode=options.cc_mode, tick=options.tick, r2s=options.r2s, empty_relations=options.empty_relations,
        period=period, report_windows=windows, window_model=window_bounds, alignment=options.window_alignment,
        horizon=options.horizon)
