"""When a real engine evaluates a continuous query: windows that start at t0, report policies, ticks
(Dell'Aglio et al. 2014, Definitions 13 and 23; Dell'Aglio et al. 2013, §3–4).

A time-based sliding window ``WW(α, β, t0)`` (Dell'Aglio et al. 2014, Definition 13, Dell'Aglio et al. 2013, §3) over one stream opens
its windows at ``o_i = t0 + i·β`` (i ≥ 0) and closes them at ``c_i = o_i + α``. Three window
models (the window-bounds conventions of D2):

* ``left-open`` — RSP-QL (Dell'Aglio et al. 2014, Definitions 12–13): windows ``(o_i, c_i]``; the *present* window at t
  is the earliest one not yet closed (``c_i ≥ t``, the reading of Dell'Aglio et al. 2014, Definition 13 that
  reproduces its Examples 7 and 10); the content at t is ``(o_p, t]``.
* ``right-open`` — SECRET / the CSRBench oracle (Dell'Aglio et al. 2013, §3, §6.1): windows ``[o_i, c_i)``;
  a window-close report at ``c_i`` sees ``[o_i, c_i)`` (Content holds the elements *before* now);
  any other report at t sees the earliest window that holds t, cut at t: ``[o_i, t]`` (the
  oracle's content-change windower, Dell'Aglio et al. 2013, §6.1).
* ``closed`` — Table 1 of Dao-Tran, Beck, Eiter 2015 literally: windows ``[o_i, c_i]``, present window as for
  ``left-open``, content ``[o_p, t]``.

Every content is therefore a closed interval ``[lo, hi]`` of time points with ``hi = t`` or (for a
right-open window-close report) ``hi = t − 1``: exactly the LARS window ``⊞^{t−lo}`` resp.
``⊞^{t−lo,−1}`` at t (``translator.translate.tau.lars_window``).

Report strategies (SECRET, Dell'Aglio et al. 2014, Definition 23, Dell'Aglio et al. 2013, §3):

* ``window-close`` (WC): t is a closing instant ``c_i``;
* ``content-change`` (CC): ``arrivals`` — an element of the window's stream arrives at t and
  enters the window (Dell'Aglio et al. 2014, §5 (explaining heterogeneity), CQELS "evaluates every time new statements enter the window";
  the oracle's CC windower); ``strict`` — the content at t differs from the content at t − 1
  (expiries count too; Dell'Aglio et al. 2014, Example 13, Dell'Aglio et al. 2013, §3);
* ``non-empty`` (NC): a guard, the content at t is not empty;
* ``periodic`` (P): ``t = t0 + k·p``, k ≥ 0 (Dell'Aglio et al. 2013, §3; Dell'Aglio et al. 2014 leave p open: default β).

A policy is the conjunction of its strategies for one window (``WC ∧ NC``, Dell'Aglio et al. 2014, Example 9); a
time is reported when some reporting window satisfies it (the disjunction over the windows; the
papers leave the combination open); ``Policy.windows`` restricts the
reporting windows (Dell'Aglio et al. 2014, Example 9: only ``WW2`` reports).

Ticks (Dell'Aglio et al. 2013, §3–4): RSP-QL evaluates once per instant with everything stamped
≤ t, which is time-driven and batch-driven behaviour (a batch = the elements of one timestamp,
the stream model has no batch ids). Tuple-driven: every arriving tuple is added to the window and
triggers processing, so under content change an instant with k arrivals is evaluated k times, the
j-th time with the first j of them (Dell'Aglio et al. 2014, Example 13, read for a tuple-driven engine: CQELS might evaluate twice at
t = 2); window-close and periodic reports see whole instants, so the tick does not change them
(:meth:`translator.evaluate.operational.Evaluator.plan`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from lars.errors import RsplarsError
from lars.windows import WindowBounds, reach
from translator.evaluate.policy_names import CC_MODES, EMPTY_RELATIONS, TICKS  # noqa: F401 - re-exported

STRATEGIES = ("window-close", "content-change", "non-empty", "periodic")
CODES = {"window-close": "WC", "content-change": "CC", "non-empty": "NC", "periodic": "P"}
TRIGGERS = ("window-close", "content-change", "periodic")
WINDOW_MODELS = (WindowBounds.LEFT_OPEN, WindowBounds.RIGHT_OPEN, WindowBounds.CLOSED)
"""The window models in the order the inference tries them (RSP-QL's first)."""


class PolicyError(RsplarsError):
    """Operational parameters that do not make a policy (e.g. ``--report non-empty`` alone)."""


def parse_report(text: str) -> frozenset[str]:
    """``window-close,non-empty`` → the set of strategies; also accepts the SECRET codes (WC, NC, CC, P)."""
    by_code = {v.lower(): k for k, v in CODES.items()}
    out = set()
    for part in (p.strip().lower() for p in text.split(",")):
        if not part:
            continue
        name = by_code.get(part, part)
        if name not in STRATEGIES:
            raise PolicyError(f"--report: unknown strategy {part!r} (expected a comma-separated combination of "
                              f"{', '.join(STRATEGIES)}, or WC, CC, NC, P)")
        out.add(name)
    strategies = frozenset(out)
    check_strategies(strategies)
    return strategies


def check_strategies(strategies: frozenset[str]) -> None:
    if not strategies & set(TRIGGERS):
        raise PolicyError("a report policy needs window-close, content-change or periodic (non-empty is a guard: "
                          "Dell'Aglio et al. 2013, §3, it only suppresses reports)")


def format_report(strategies: Iterable[str]) -> str:
    return ",".join(s for s in STRATEGIES if s in set(strategies))


@dataclass(frozen=True)
class Grid:
    """The windows ``WW(α, β, t0)`` over stream ``stream`` (an IRI): ``o_i = t0 + i·β``, ``c_i = o_i + α``."""

    stream: str
    alpha: int
    beta: int
    t0: int

    def __post_init__(self) -> None:
        if self.alpha < 1 or self.beta < 1:
            raise PolicyError(f"a window needs a positive width and slide, got α={self.alpha}, β={self.beta}")

    def closes(self, t: int) -> bool:
        """WC: t is a closing instant ``c_i`` (Dell'Aglio et al. 2014, Definition 23)."""
        d = t - self.t0 - self.alpha
        return d >= 0 and d % self.beta == 0

    def closing_times(self, lo: int, hi: int) -> range:
        first = self.t0 + self.alpha
        if lo > first:
            first += -(-(lo - first) // self.beta) * self.beta
        return range(first, hi + 1, self.beta)

    def earliest_open(self, t: int) -> int:
        """Index of the earliest window not yet closed at t (``c_i ≥ t``; Dell'Aglio et al. 2014, Definition 13; Scope in Dell'Aglio et al. 2013, §3)."""
        return max(0, -(-(t - self.t0 - self.alpha) // self.beta))

    def holding(self, t: int) -> int:
        """Index of the earliest window that holds t in ``[o_i, c_i)`` (``c_i > t``; the oracle's CC windower)."""
        return max(0, (t - self.t0 - self.alpha) // self.beta + 1)

    def opening(self, i: int) -> int:
        return self.t0 + i * self.beta

    def scope(self, t: int, model: WindowBounds | str, closing: bool) -> tuple[int, int] | None:
        """The content interval ``[lo, hi]`` (closed, time points) of this window at report time t
        (module docstring); ``None`` before t0, where the window is undefined (Dell'Aglio et al. 2014, Definition 13).
        The first point of the present window closing at c and the last point at t are those of the
        window of length α ending at c resp. t under the model (``lars.windows.reach``)."""
        if t < self.t0:
            return None
        if not closing and model == WindowBounds.RIGHT_OPEN:  # the earliest window holding t, cut at t
            return (self.opening(self.holding(t)), t)
        back, ahead = reach(model, self.alpha)  # the window of length α ending at c: [c − back, c + ahead]
        assert back is not None
        return (self.opening(self.earliest_open(t)) + self.alpha - back, t + ahead)


@dataclass(frozen=True)
class Policy:
    """A report policy (module docstring): the strategies, the CC reading, the period of P, and
    which windows report (``None``: all)."""

    strategies: frozenset[str]
    cc_mode: str = "arrivals"
    period: int | None = None
    windows: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        check_strategies(self.strategies)
        if self.cc_mode not in CC_MODES:
            raise PolicyError(f"unknown content-change reading {self.cc_mode!r} (expected {', '.join(CC_MODES)})")
        if self.period is not None and self.period < 1:
            raise PolicyError(f"the period of the periodic strategy must be positive, got {self.period}")

    @property
    def closing(self) -> bool:
        """Reports are window-close reports (every report then is a closing instant)."""
        return "window-close" in self.strategies

    def describe(self) -> str:
        """SECRET notation, e.g. ``WC ∧ NC`` (Dell'Aglio et al. 2014, Example 9)."""
        parts = [CODES[s] + ("(strict)" if s == "content-change" and self.cc_mode == "strict" else "")
                 for s in STRATEGIES if s in self.strategies]
        return " ∧ ".join(parts)


@dataclass(frozen=True)
class Report:
    """One evaluation time of ET: t, the content interval of every window of the query (in query
    order) and whether it is a window-close report (right-open windows then end before t)."""

    t: int
    scopes: tuple[tuple[int, int], ...]
    closing: bool
    why: str = field(default="", compare=False)
    prefix: int | None = None
    """Tuple tick: only the first ``prefix`` elements stamped t (in arrival order) have arrived;
    ``None``: all of them."""


class Contents:
    """Element timestamps per stream, for content tests by binary search."""

    def __init__(self, times: Mapping[str, Sequence[int]]) -> None:
        self.times = {k: sorted(v) for k, v in times.items()}

    def span(self, stream: str, lo: int, hi: int) -> tuple[int, int]:
        """Indices ``[a, b)`` of the stream's elements stamped in ``[lo, hi]`` (the content as a set)."""
        ts = self.times.get(stream, [])
        if hi < lo:
            return (0, 0)
        a, b = bisect_left(ts, lo), bisect_right(ts, hi)
        return (a, b) if a < b else (0, 0)

    def arrivals(self, stream: str) -> list[int]:
        return sorted(set(self.times.get(stream, [])))


def report_times(grids: Sequence[Grid], contents: Contents, policy: Policy, model: WindowBounds | str,
                 start: int, end: int) -> list[Report]:
    """ET of the policy on ``[start, end]`` (Dell'Aglio et al. 2014, Definition 23: ``t ∈ ET_P iff P holds at t``), with
    the content interval of every window at each t."""
    model = WindowBounds.parse(model)
    reporting = range(len(grids)) if policy.windows is None else policy.windows
    for k in reporting:
        if not 0 <= k < len(grids):
            raise PolicyError(f"reporting window {k + 1} does not exist (the query has {len(grids)} time-based windows)")
    s = policy.strategies
    candidates: set[int] = set()
    for k in reporting:
        g = grids[k]
        if "window-close" in s:
            candidates.update(g.closing_times(start, end))
        if "periodic" in s:
            p = policy.period or g.beta
            first = g.t0 if start <= g.t0 else g.t0 + -(-(start - g.t0) // p) * p
            candidates.update(range(first, end + 1, p))
        if "content-change" in s:
            candidates.update(contents.arrivals(g.stream))
            if policy.cc_mode == "strict":
                for c in g.closing_times(start, end + 1):
                    candidates.update((c, c + 1))
    out = []
    described = policy.describe()
    for t in sorted(c for c in candidates if start <= c <= end):
        reasons = [k for k in reporting if _holds(grids[k], t, contents, policy, model)]
        if not reasons:
            continue
        scopes = []
        for g in grids:
            sc = g.scope(t, model, policy.closing)
            scopes.append(sc if sc is not None else (t + 1, t))  # before t0: the empty window
        why = " or ".join(f"{described} on window {k + 1}" for k in reasons)
        out.append(Report(t, tuple(scopes), policy.closing, why))
    return out


def _holds(g: Grid, t: int, contents: Contents, policy: Policy, model: str) -> bool:
    s = policy.strategies
    sc = g.scope(t, model, policy.closing)
    if sc is None:
        return False
    if "window-close" in s and not g.closes(t):
        return False
    if "periodic" in s:
        p = policy.period or g.beta
        if t < g.t0 or (t - g.t0) % p:
            return False
    if "non-empty" in s and contents.span(g.stream, *sc) == (0, 0):
        return False
    if "content-change" in s:
        now = g.scope(t, model, False)
        assert now is not None
        if policy.cc_mode == "arrivals":
            if not (now[0] <= t <= now[1]) or contents.span(g.stream, t, t) == (0, 0):
                return False
        else:
            before = g.scope(t - 1, model, False)
            prev = contents.span(g.stream, *before) if before is not None else (0, 0)
            if contents.span(g.stream, *now) == prev:
                return False
    return True
