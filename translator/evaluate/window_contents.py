"""R2R keyed by window contents: each distinct content is solved once, and contents that grow by
arrivals share one solver run (the speed of ``rsplars check``, docs/check.md §8).

The R2R answer of a report depends on its t only through the windows' contents (Dell'Aglio et al.
2014, Definitions 13–15: the query is evaluated over the window's graph; the CSRBench oracle runs
a plain SPARQL query over the graphs of ``[o, c)``, Dell'Aglio et al. 2013, §6.1) — as long as the
query reads neither the evaluation time (``NOW()``, ``@_T``), nor *when* inside the window an
element arrived (``□``, ``⊞^0``), nor time-varying static data. For such queries (``content_only``)
a report's answer is a function of its **content key**: per window, the half-open index span
``[a, b)`` of its stream's elements (arrival order) that the window holds — ``None`` for an empty
window. Windows of different t0 candidates and report policies are shifts of one grid, so the keys
of all candidates, policies and ticks overlap: the cache keyed by content is shared by all of them.

One solver run answers a **chain** of keys ``K1 ⊆ K2 ⊆ … ⊆ Km`` that grow only at their ends (the
reports of one window under content change, the tuple tick's prefixes of an instant): the run's
stream puts the elements of ``K_i \\ K_{i−1}`` at time point i and evaluates at 1, …, m with windows
wide enough to hold everything from time point 0, so the answer at i is the R2R answer over K_i.
The incremental engine then adds each arrival to the previous answer instead of solving again.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable, Mapping, Sequence

from lars.model import (
    Atom,
    At,
    Box,
    Diamond,
    Literal,
    Program,
    Rule,
    Stream,
    TimeWindow,
    WindowAt,
)
from translator.evaluate.report_policy import Report
from translator.rdf.streams import StreamElement
from translator.rdf.terms import to_lars
from translator.translate.tau import STRIPLE

#: the width (base ticks) of every window of a chain run's program: wider than any chain, so that at
#: time point i the window holds every time point 0 … i of the run's stream
CHAIN_WIDTH = 1 << 30

Span = tuple[int, int] | None
Key = tuple[Span, ...]


def content_only(program: Program, static: Sequence[Rule]) -> bool:
    """Does the program's answer at t depend on the windows' contents only (module docstring)?
    Every window must be ``⊞^{CHAIN_WIDTH}`` under ``◇``; no ``@``, ``□``, and static data given as
    facts (time-varying static data, ``--static-during``, is a rule with a time condition)."""
    if not all(r.is_fact for r in static):
        return False
    for rule in program.rules:
        if isinstance(rule.head, At):
            return False
        for element in rule.body:
            if not isinstance(element, Literal):
                continue  # comparisons; aggregates hold plain atoms only (lars.model.AggregateAssignment)
            a = element.atom
            if isinstance(a, (At, Box, WindowAt)):
                return False
            if isinstance(a, Diamond) and not (isinstance(a.window, TimeWindow) and a.window.l == CHAIN_WIDTH
                                               and a.window.u == 0 and a.window.d == 1):
                return False
    return True


class ContentIndex:
    """The elements of each windowed stream in arrival order, their times, their LARS atoms, and
    the arrival order of each instant (for the tuple tick's prefixes)."""

    def __init__(self, elements: Sequence[StreamElement], streams: Sequence[str]) -> None:
        self.streams = tuple(streams)
        by_stream: dict[str, list[StreamElement]] = {s: [] for s in streams}
        at: dict[int, list[str]] = {}
        for e in elements:
            s = str(e.stream_iri)
            at.setdefault(e.t, []).append(s)
            if s in by_stream:
                by_stream[s].append(e)
        converted: dict = {}

        def term(x):
            got = converted.get(x)
            if got is None:
                got = converted[x] = to_lars(x)
            return got

        self.times: dict[str, list[int]] = {}
        self.atoms: dict[str, list[Atom]] = {}
        for s, es in by_stream.items():
            es.sort(key=lambda e: e.t)  # stable: arrival order within an instant
            self.times[s] = [e.t for e in es]
            self.atoms[s] = [Atom(STRIPLE, (term(e.triple[0]), term(e.triple[1]), term(e.triple[2]), term(e.stream_iri)))
                             for e in es]
        self._arrivals_at = at
        self._prefix: dict[tuple[str, int, int], int] = {}

    def _before_prefix(self, stream: str, t: int, prefix: int) -> int:
        """Elements of ``stream`` among the first ``prefix`` arrivals stamped t."""
        k = (stream, t, prefix)
        got = self._prefix.get(k)
        if got is None:
            got = self._prefix[k] = self._arrivals_at.get(t, [])[:prefix].count(stream)
        return got

    def key(self, report: Report) -> Key:
        """The content key of a report (module docstring): per window, the span of its stream's
        elements in ``[lo, hi]`` — cut after the report's ``prefix`` arrivals at t (tuple tick)."""
        out: list[Span] = []
        for (lo, hi), stream in zip(report.scopes, self.streams):
            if lo > hi:
                out.append(None)
                continue
            ts = self.times[stream]
            a = bisect_left(ts, lo)
            if report.prefix is not None and hi >= report.t:
                b = bisect_left(ts, report.t) + self._before_prefix(stream, report.t, report.prefix)
            else:
                b = bisect_right(ts, hi)
            out.append((a, b) if a < b else None)
        return tuple(out)


def chains(keys: Iterable[Key]) -> list[list[Key]]:
    """Group content keys into chains ``K1 ⊆ … ⊆ Km`` whose spans share their starts and grow at
    their ends (one solver run each). Greedy: keys with the same starts, by size."""
    groups: dict[tuple, list[Key]] = {}
    for k in set(keys):
        groups.setdefault(tuple(None if s is None else s[0] for s in k), []).append(k)
    out: list[list[Key]] = []
    for members in groups.values():
        members.sort(key=lambda k: tuple(0 if s is None else s[1] for s in k))
        open_chains: list[list[Key]] = []
        for k in members:
            for chain in open_chains:
                last = chain[-1]
                if all(s is None or s[1] >= p[1] for s, p in zip(k, last)):
                    chain.append(k)
                    break
            else:
                open_chains.append([k])
        out += open_chains
    return out


def chain_stream(index: ContentIndex, chain: Sequence[Key]) -> Stream:
    """The run's stream of a chain: the elements of ``K_i \\ K_{i−1}`` at time point i (1-based)."""
    points: dict[int, tuple[Atom, ...]] = {}
    previous: Key = tuple(None for _ in index.streams)
    for i, k in enumerate(chain, start=1):
        atoms: list[Atom] = []
        for stream, span, before in zip(index.streams, k, previous):
            if span is None:
                continue
            start = span[0] if before is None else before[1]
            atoms += index.atoms[stream][start:span[1]]
        if atoms:
            points[i] = tuple(dict.fromkeys(atoms))
        previous = k
    return Stream(points, 0, len(chain))


def key_times(chain: Sequence[Key]) -> Mapping[Key, int]:
    return {k: i for i, k in enumerate(chain, start=1)}
