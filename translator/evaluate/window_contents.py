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
from typing import Callable, Iterable, Mapping, Sequence

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
        self.relevant: dict[str, list[bool]] = {}
        """Per stream, whether each element can matter to the answer (all, when absent)."""
        self._prefix: dict[tuple[str, int], list[int]] = {}

    def set_relevance(self, matters: Callable[[Atom], bool]) -> None:
        """Mark the elements that can matter to the answer (the incremental engine's stream filters,
        ``lars.incremental.demand.stream_filters``: a triple no pattern of the query can match)."""
        self.relevant = {s: [matters(a) for a in atoms] for s, atoms in self.atoms.items()}

    def keep_only(self, marked: Mapping[str, Sequence[bool]]) -> None:
        """Mark as mattering only the elements marked in ``marked`` (per stream) too (a semijoin
        reduction, ``translator.evaluate.semijoin``)."""
        self.relevant = {s: [m and r for m, r in zip(marked[s], self.relevant[s])] if s in self.relevant
                         else list(marked[s]) for s in self.atoms}

    def _prefix_counts(self, stream: str, t: int) -> list[int]:
        """For each j, the elements of ``stream`` among the first j arrivals stamped t."""
        counts = self._prefix.get((stream, t))
        if counts is None:
            counts, n = [0], 0
            for s in self._arrivals_at.get(t, ()):
                n += s == stream
                counts.append(n)
            self._prefix[(stream, t)] = counts
        return counts

    def _before_prefix(self, stream: str, t: int, prefix: int) -> int:
        """Elements of ``stream`` among the first ``prefix`` arrivals stamped t."""
        counts = self._prefix_counts(stream, t)
        return counts[min(prefix, len(counts) - 1)]

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

    def keys(self, reports: Iterable[Report]) -> list[Key]:
        """:meth:`key` of each report, in one pass: the reports of one instant that differ only
        by their tuple-tick ``prefix`` (consecutive, with the same scopes) share the windows'
        starts and the count of elements before t, and only add the prefix's arrivals."""
        out: list[Key] = []
        frame_of: tuple | None = None
        # per window: (its start, its end before t's arrivals or at hi, the prefix counts at t when it is cut)
        frame: list[tuple[int, int, list[int] | None]] = []
        for report in reports:
            if report.prefix is None:
                out.append(self.key(report))
                continue
            if frame_of != (report.t, report.scopes):
                frame_of, frame = (report.t, report.scopes), []
                for (lo, hi), stream in zip(report.scopes, self.streams):
                    if lo > hi:
                        frame.append((-1, 0, None))
                        continue
                    ts = self.times[stream]
                    if hi >= report.t:
                        frame.append((bisect_left(ts, lo), bisect_left(ts, report.t), self._prefix_counts(stream, report.t)))
                    else:
                        frame.append((bisect_left(ts, lo), bisect_right(ts, hi), None))
            key: list[Span] = []
            prefix = report.prefix
            for a, b, counts in frame:
                if a < 0:
                    key.append(None)
                    continue
                if counts is not None:
                    b += counts[min(prefix, len(counts) - 1)]
                key.append((a, b) if a < b else None)
            out.append(tuple(key))
        return out


def chains(keys: Iterable[Key]) -> list[list[Key]]:
    """Group content keys into chains ``K1 ⊆ … ⊆ Km`` whose spans share their starts and grow at
    their ends (one solver run each). Greedy: keys with the same starts, by size."""
    unique = set(keys)
    if all(len(k) == 1 for k in unique):  # one window: the keys of one start nest, in the order of their ends
        starts: dict[int | None, list[Key]] = {}
        for k in unique:
            starts.setdefault(None if k[0] is None else k[0][0], []).append(k)
        return [sorted(members, key=lambda k: 0 if k[0] is None else k[0][1]) for members in starts.values()]
    groups: dict[tuple, list[Key]] = {}
    for k in unique:
        groups.setdefault(tuple(None if s is None else s[0] for s in k), []).append(k)
    out: list[list[Key]] = []
    for members in groups.values():
        members.sort(key=lambda k: tuple(0 if s is None else s[1] for s in k))
        open_chains: list[list[Key]] = []
        for k in members:
            for chain in open_chains:
                last = chain[-1]
                if all(s is None or p is not None and s[1] >= p[1] for s, p in zip(k, last)):  # p: None where s is
                    chain.append(k)
                    break
            else:
                open_chains.append([k])
        out += open_chains
    return out


def chain_run(index: ContentIndex, chain: Sequence[Key]) -> tuple[Stream, list[int]]:
    """The run of a chain: its stream, with the relevant elements of ``K_i \\ K_{i−1}`` at one time
    point after the previous one's, and for each key the time point that answers it. A key whose
    new elements are all irrelevant (:meth:`ContentIndex.set_relevance`) has the previous key's
    answer and no time point of its own."""
    points: dict[int, tuple[Atom, ...]] = {}
    previous: Key = tuple(None for _ in index.streams)
    step = 0
    at: list[int] = []
    for k in chain:
        atoms: list[Atom] = []
        for stream, span, before in zip(index.streams, k, previous):
            if span is None:
                continue
            start = span[0] if before is None else before[1]
            relevant = index.relevant.get(stream)
            got = index.atoms[stream][start:span[1]]
            atoms += got if relevant is None else [a for a, r in zip(got, relevant[start:span[1]]) if r]
        if atoms or step == 0:
            step += 1
            if atoms:
                points[step] = tuple(dict.fromkeys(atoms))
        at.append(step)
        previous = k
    return Stream(points, 0, step), at


def relevance(filters: Mapping[tuple, list]) -> Callable[[Atom], bool]:
    """Whether a stream atom passes the incremental engine's stream filters (``filters`` of an
    ``IncrementalSolver``: signature → alternatives of needed texts per argument position)."""
    from lars.incremental.demand import row_filter
    from lars.incremental.texts import text_of
    from lars.model import Constant

    admit = {sig: row_filter(alts) for sig, alts in filters.items()}

    def matters(atom: Atom) -> bool:
        check = admit.get((atom.predicate, len(atom.args)))
        if check is None:
            return True
        row = tuple(x.name if type(x) is Constant else text_of(x) for x in atom.args)
        return bool(check({row: None}))

    return matters
