"""The options of translations and runs, as frozen dataclasses: what the public API
(``rsplars``), the command line (``--mode``, ``--period``, ``--strategy``, ``--window-bounds``,
``--unit``, ``--as``, ``--assign``, ``--profile``, …) and the Spark jobs pass down the pipeline. Plain
data: this module imports nothing of the project, so every stage may read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

__all__ = ["EventOptions", "ProfileOptions", "TranslationOptions"]


@dataclass(frozen=True)
class TranslationOptions:
    """How a query becomes a LARS program (Dao-Tran, Beck, Eiter 2015, §4; docs/translation.md).

    ``mode``: ``push``, ``pull`` or ``none`` (§4.1; default: pull for C-SPARQL, push for CQELS);
    ``period``: the pull period as a duration (``"5m"``, ``"10s"``; default: COMPUTED EVERY, else
    the window STEP); ``strategy``: ``tau1`` (C-SPARQL: streams merged into the default graph) or
    ``tau2`` (CQELS: STREAM patterns), default the query's own; ``window_bounds``: ``closed``
    ``[t-L, t]`` (``None``: closed, or the profile's under a profile), ``left-open`` or
    ``right-open`` (D2); ``unit``: the base time unit (D1: ``ms``,
    ``s``, ``m``, ``h``, ``d``); ``as_variant``: ``csparql``, ``cqels-brave``, ``cqels-cautious`` or
    ``cqels-all`` — translate cs(Q) or members of cq(Q) instead (§3); ``assign``: for
    ``cqels-*`` of a C-SPARQL query, triple pattern number (from 1) → the stream IRI it reads
    (default: read off the stream data).

    >>> TranslationOptions(mode="pull", period="2m", unit="m").period
    '2m'
    """

    mode: str | None = None
    period: str | None = None
    strategy: str | None = None
    window_bounds: str | None = None
    unit: str = "s"
    as_variant: str | None = None
    assign: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ProfileOptions:
    """A real engine's report-policy semantics (Dell'Aglio et al. 2014, Defs. 20–26; docs/check.md):
    ``profile`` names one (``csparql``, ``cqels``, ``sparqlstream``, ``rsp-ql``; ``rsplars
    profiles`` lists them) and the other fields override its parameters (``None``: the profile's).

    ``t0``: the first window start, one value or one per window; ``report_policy``: e.g.
    ``"window-close,non-empty"``; ``r2s``: ``rstream``, ``istream`` or ``dstream``;
    ``empty_relations``: ``emit`` or ``skip``; ``tick``: ``time``, ``tuple`` or ``batch``;
    ``cc_mode``: how content change is read; ``report_period``: the period of the ``periodic``
    strategy (a duration, ``"1s"``); ``report_window``: the windows (numbered from 1) that report;
    ``window_alignment``: ``t0`` (windows open at t0 + i·step) or ``step`` (they close at multiples of
    the step, RSP4J and RSP-JS); ``horizon``: the engine's clock, ``none``, ``last`` (its last
    element) or a time in base units.

    >>> ProfileOptions("csparql", t0=(2,)).t0
    (2,)
    """

    profile: str | None = None
    t0: tuple[int, ...] | None = None
    report_policy: str | None = None
    r2s: str | None = None
    empty_relations: str | None = None
    tick: str | None = None
    cc_mode: str | None = None
    report_period: str | None = None
    report_window: tuple[int, ...] | None = None
    window_alignment: str | None = None
    horizon: str | int | None = None


@dataclass(frozen=True)
class EventOptions:
    """How an EP-SPARQL or RSEP-QL query's complex events are selected and consumed (the policies of RSEP-QL,
    Dell'Aglio et al. 2016, §4.3, §4.4; docs/epsparql.md): ``selection`` and ``consumption``
    (``unrestricted``, as ETALIS, ``chronological``, ``recent``, …) and ``policy_reading`` (how
    SEQ^c/SEQ^r read "the earliest/latest E2 match": ``per-mapping`` or the other reading).

    >>> EventOptions(selection="recent").consumption
    'unrestricted'
    """

    selection: str = "unrestricted"
    consumption: str = "unrestricted"
    policy_reading: str = "per-mapping"
    #: RSEP-QL: the evaluation times of ``MATCH`` (``None``: every time point with a stream item)
    at: tuple[int, ...] | None = None

    @property
    def restricted(self) -> bool:
        """Whether a selection or consumption policy applies (else every complex event counts)."""
        return self.selection != "unrestricted" or self.consumption != "unrestricted"
