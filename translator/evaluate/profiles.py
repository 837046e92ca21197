"""Operational profiles of real RSP engines: the hidden parameters of Dell'Aglio et al. 2014, §5 (explaining heterogeneity) and of the
engine model ``M = (Report, Tick, R2S, Empty-relation notification, Time unit)`` of Dell'Aglio et al. 2013, §3 and
Table 1, as data.

``rsplars profiles`` lists them with their sources; ``--profile NAME`` on ``run``/``check``/
``translate`` takes them, and explicit options (``--t0``, ``--report``, ``--tick``, ``--r2s``,
``--empty-relations``, ``--window-bounds``) override single parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from translator.evaluate.report_policy import (
    CC_MODES,
    EMPTY_RELATIONS,
    TICKS,
    WINDOW_MODELS,
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
    window-bounds convention (D2) that is also the window model of the report policy."""

    report: frozenset[str]
    t0: tuple[int, ...] = (0,)
    cc_mode: str = "arrivals"
    period: int | None = None
    tick: str = "time"
    r2s: str = "rstream"
    empty_relations: str = "emit"
    window_model: str = "left-open"
    report_windows: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_strategies(self.report)
        for name, value, allowed in (("tick", self.tick, TICKS), ("r2s", self.r2s, R2S),
                                     ("empty relations", self.empty_relations, EMPTY_RELATIONS),
                                     ("window model", self.window_model, WINDOW_MODELS),
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
        }


@dataclass(frozen=True)
class Profile:
    name: str
    engine: str
    params: Operational
    sources: dict[str, str]
    notes: tuple[str, ...] = ()


_T0 = ("hidden in every engine (Dell'Aglio et al. 2014, §5 (explaining heterogeneity); Dell'Aglio et al. 2013, §5.1 'usually not configurable'); a run uses the "
       "registration time 0 of the papers' examples (Dell'Aglio et al. 2013, Fig. 2), `check` enumerates it")
_BOUNDS_002 = "Dell'Aglio et al. 2013, §3, §6.1: SECRET/CSRBench windows [o, c) (D2 right-open)"
_TICK_002 = "Dell'Aglio et al. 2013, Table 1: tuple-driven (content-change reports once per arriving tuple, docs/check.md)"

PROFILES: dict[str, Profile] = {
    "csparql": Profile(
        "csparql", "C-SPARQL 0.9",
        Operational(frozenset({"window-close", "non-empty"}), tick="tuple", r2s="rstream", empty_relations="emit",
                    window_model="right-open"),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Window close + Non-empty content), oracle config windowclose=true, "
                   "nonemptycontent=true; Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 Rstream; Dell'Aglio et al. 2014, §5 (explaining heterogeneity): 'RStream only'",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'Yes', oracle config emptyrelation=true",
         "window_bounds": _BOUNDS_002,
         "t0": _T0},
        ("time unit about 1 s (Dell'Aglio et al. 2013, Table 1)",
         "dataset: window contents merged into the default graph (τ1, Dell'Aglio et al. 2014, §5 (explaining heterogeneity))"),
    ),
    "cqels": Profile(
        "cqels", "CQELS (Aug 2011)",
        Operational(frozenset({"content-change", "non-empty"}), tick="tuple", r2s="istream", empty_relations="skip",
                    window_model="right-open"),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Content change); the oracle's CQELS config also sets nonemptycontent=true "
                   "(the oracle's configuration); arrivals reading: Dell'Aglio et al. 2014, §5 (explaining heterogeneity) 'every time new statements enter the window' "
                   "and the oracle's CC windower (Dell'Aglio et al. 2013, §6.1)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 Istream; Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'No', oracle config emptyrelation=false",
         "window_bounds": _BOUNDS_002,
         "t0": _T0},
        ("time unit hundreds of ms (Dell'Aglio et al. 2013, Table 1)",
         "dataset: named window graphs via STREAM (τ2, Dell'Aglio et al. 2014, §5 (explaining heterogeneity))"),
    ),
    "sparqlstream": Profile(
        "sparqlstream", "SPARQLstream 1.0.5 (morph-streams)",
        Operational(frozenset({"window-close", "non-empty"}), tick="tuple", r2s="rstream", empty_relations="skip",
                    window_model="right-open"),
        {"report": "Dell'Aglio et al. 2013, Table 1 (Window close + Non-empty content); Dell'Aglio et al. 2014, §5 (explaining heterogeneity)",
         "tick": _TICK_002,
         "r2s": "Dell'Aglio et al. 2013, Table 1 allows Rstream, Istream and Dstream; tested with Rstream (Dell'Aglio et al. 2013, §6.3)",
         "empty_relations": "Dell'Aglio et al. 2013, Table 1 'No'",
         "window_bounds": _BOUNDS_002,
         "t0": _T0},
        ("its parameters depend on the underlying stream engine (Dell'Aglio et al. 2013, §4)",),
    ),
    "rsp-ql": Profile(
        "rsp-ql", "RSP-QL reference semantics",
        Operational(frozenset({"window-close", "non-empty"}), tick="time", r2s="rstream", empty_relations="emit",
                    window_model="left-open"),
        {"report": "Dell'Aglio et al. 2014, Example 9: P = WC ∧ NC (the C-SPARQL/SPARQLstream policy of §5)",
         "tick": "Dell'Aglio et al. 2014 define no tick; RSP-QL is instant-based (time-driven, Dell'Aglio et al. 2013, §3)",
         "r2s": "Dell'Aglio et al. 2014, Example 10: Rstream",
         "empty_relations": "Dell'Aglio et al. 2014, Definition 24: one answer per evaluation time, empty ones included",
         "window_bounds": "Dell'Aglio et al. 2014, Definitions 12–13: windows (o, c], the earliest open window is the present one",
         "t0": "Dell'Aglio et al. 2014, Definition 13: a window parameter; Def 25 enumerates it from the registration time"},
        ("the profile of RSP-QL queries (--dialect rspql): `rsplars run` takes it unless --profile, --mode or "
         "--period is given; the R2S operator is the query's REGISTER RSTREAM|ISTREAM|DSTREAM unless --r2s is given",),
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
relations emitted, RSP-QL windows (o, c]."""
