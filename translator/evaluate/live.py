"""A run over streams read while they are evaluated: ``rsplars run --stream IRI=-`` (a pipe that
may never end) and, by default, long N-Triples stream files (docs/performance.md).

The elements come lazily from :func:`translator.rdf.streams.iter_streams`; each time point becomes
``υ(t)`` of the LARS data stream (Dao-Tran, Beck, Eiter 2015, §4.3, as :func:`translator.rdf.streams.to_lars_stream`:
``striple(s, p, o, stream)`` atoms, arrival order kept, a repeated atom kept once) and is handed to
the engine through :class:`lars.streams.LiveStream`, which the engine empties as its windows move on:
memory follows the windows, not the length of the stream. A time point is complete once an element
of a later one has arrived (or the input ended), so the answers at t are computed, written and
flushed as soon as the first element after t is read.

The evaluation times are those of :func:`translator.evaluate.run.evaluation_times`, found as the
stream goes: pull — the multiples of U from ``--from`` (default 0) until the one that ends the
interval holding the last element (or ``--to``); push — every time point with input; none — every
time point. The answers equal those of :func:`translator.evaluate.run.answers` on the whole stream
(tests/cli/test_run_live.py).

The element summary (read, used, duplicates, after the last evaluation time) is counted on the fly
and complete when the run ends; it is printed then, as for every run.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from lars.bounds import TERM_CACHE_SIZE
from lars.model import Atom, Rule
from lars.streams import LiveRows, LiveStream
from translator.evaluate.engine import MAX_EVALUATION_TIMES
from translator.evaluate.run import R2S, Evaluation, RunError, evaluations, query_solver
from translator.rdf.predicates import STRIPLE
from translator.rdf.streams import StreamElement, StreamFiles, element_texts
from translator.rdf.terms import to_lars
from translator.translate.compile import Compiled

_Point = TypeVar("_Point")  # a time point's contents: atoms, or rows of term texts


class ElementCounts:
    """What the element summary needs from a live run, in memory bounded by the windows: the
    duplicates, and the distinct elements at each time point not yet known to be used."""

    def __init__(self) -> None:
        self.duplicates = 0
        self.used = 0
        self.pending: deque[tuple[int, int]] = deque()  # (t, distinct elements at t), t increasing

    def point(self, t: int, distinct: int) -> None:
        self.pending.append((t, distinct))

    def used_up_to(self, t: int) -> None:
        """Every element at or before t is used (an evaluation at t was written)."""
        while self.pending and self.pending[0][0] <= t:
            self.used += self.pending.popleft()[1]

    def finish(self, accounting, last_time: int | None) -> None:
        """Fill ``accounting`` (``lars.accounting.Accounting``) once the run ended at ``last_time``."""
        if last_time is not None:
            self.used_up_to(last_time)
        accounting.duplicates = self.duplicates
        accounting.used = self.used
        accounting.after_last_time = sum(n for _, n in self.pending)


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _lars_term(term):
    return to_lars(term)


def lars_points(elements: Iterable[StreamElement], counts: ElementCounts | None = None,
                began: dict | None = None) -> Iterator[tuple[int, tuple[Atom, ...] | None]]:
    """``(t, atoms of υ(t))`` per time point in time order, announcing each time point with
    ``(t, None)`` as its first element arrives (``lars.streams.iter_stream_text(notify=True)``).
    ``began`` is told the first element of the latest time point (for messages)."""
    current: int | None = None
    atoms: dict[Atom, None] = {}
    for e in elements:
        if e.t != current:
            if current is not None:
                if counts is not None:
                    counts.point(current, len(atoms))
                yield current, tuple(atoms)
            current, atoms = e.t, {}
            if began is not None:
                began["element"] = (e.t, e.source_line)
            yield current, None
        s, p, o = e.triple
        atom = Atom(STRIPLE, (_lars_term(s), _lars_term(p), _lars_term(o), _lars_term(e.stream_iri)))
        if atom in atoms:
            if counts is not None:
                counts.duplicates += 1
        else:
            atoms[atom] = None
    if current is not None:
        if counts is not None:
            counts.point(current, len(atoms))
        yield current, tuple(atoms)


def lars_rows(batches: Iterable[tuple[int, list[tuple[str, str, str, str]], int]], counts: ElementCounts | None = None,
              began: dict | None = None) -> Iterator[tuple[int, dict | None]]:
    """As :func:`lars_points`, for the incremental engine (``lars.incremental``), which reads a
    time point as rows of canonical term texts (``{("striple", 4): {(s, p, o, stream): None}}``,
    as :func:`lars.streams.iter_stream_rows` gives them), from the elements in batches of one time
    point as :func:`translator.rdf.streams.iter_stream_batches` gives them (``(t, rows, line)``): no
    :class:`lars.model.Atom` is built. The same set of ``striple`` atoms per time point, in the
    same arrival order, with the same duplicates counted."""
    sig = (STRIPLE, 4)
    current: int | None = None
    rows: dict[tuple, None] = {}
    for t, batch, line in batches:
        if t != current:
            if current is not None:
                if counts is not None:
                    counts.point(current, len(rows))
                yield current, {sig: rows}
            current, rows = t, {}
            if began is not None:
                began["element"] = (t, line)
            yield current, None
        before = len(rows)
        rows.update(dict.fromkeys(batch))  # in arrival order; a repeated row keeps its first place
        if counts is not None:
            counts.duplicates += len(batch) - (len(rows) - before)
    if current is not None:
        if counts is not None:
            counts.point(current, len(rows))
        yield current, {sig: rows}


def _ceil_to(t: int, u: int) -> int:
    return -(-t // u) * u


def _far_off(t: int, step: int, end: int | None, stream: LiveStream, began: dict) -> None:
    """Stop before listing more than ``MAX_EVALUATION_TIMES`` evaluation times up to an element far
    ahead (a timestamp far off, or a wrong unit), as the run over a whole stream does."""
    hi = stream.begun if end is None else end
    if hi is None or hi < t:
        return
    count = (hi - t) // step + 1
    if count > MAX_EVALUATION_TIMES:
        e = began.get("element")  # (t, line) of the first element of the latest time point
        where = f" (the element at t={e[0]} comes from line {e[1]} of its stream)" if e is not None else ""
        raise RunError(f"the run would evaluate {count:,} more time points between {t} and {hi}, more than "
                       f"{MAX_EVALUATION_TIMES:,}{where}: check the timestamps and the unit (--unit, "
                       "--stream-time-unit), or give --from/--to")


def live_times(compiled: Compiled, stream: LiveStream, data_times: deque, start: int | None,
               end: int | None, began: dict | None = None) -> Iterator[int]:
    """The evaluation times of ``compiled`` over a stream still arriving (module docstring);
    ``data_times``: the complete time points with input, appended as they are read."""
    began = {} if began is None else began
    lo = stream.start
    first = lo if start is None else start
    if first < lo:
        raise RunError(f"--from {first} lies before the start {lo} of the timeline")
    if compiled.mode == "pull":
        u = compiled.period
        assert u is not None
        t = _ceil_to(first, u)
        while True:
            if end is not None:
                if t > end:
                    return
            else:
                stream.read_past(t - u)  # has anything arrived after the previous pull time?
                seen = stream.begun if stream.begun is not None else lo
                if t > _ceil_to(max(seen, lo), u):
                    return
            _far_off(t, u, end, stream, began)
            yield t
            t += u
    elif compiled.mode == "push":
        while True:
            while not data_times:
                if stream.done:
                    return
                stream.read_past(stream.begun if stream.begun is not None else first - 1)
            t = data_times.popleft()
            if end is not None and t > end:
                return
            if t >= first:
                yield t
    else:
        t = first
        while True:
            if end is None:
                stream.read_past(t - 1)
                if stream.done and (stream.last is None or t > max(stream.last, lo)) and t > first:
                    return
            elif t > end:
                return
            _far_off(t, 1, end, stream, began)
            yield t
            t += 1


def live_answers(compiled: Compiled, elements: "Iterable[StreamElement] | StreamFiles", static: Sequence[Rule] = (), *,
                 start: int | None = None, end: int | None = None, r2s: str = "rstream",
                 counts: ElementCounts | None = None, ready: Callable[[], bool] | None = None,
                 on_note: Callable[[str], None] | None = None, on_time: Callable[[int], None] | None = None,
                 engine: str = "auto", on_stream: Callable[[LiveStream], None] | None = None) -> Iterator[Evaluation]:
    """:func:`translator.evaluate.run.answers` over elements read while they are evaluated, one
    :class:`Evaluation` per evaluation time as soon as its time point is complete. ``ready``: is
    input waiting (a pipe; ``None``: never blocks, a file) — the engine reads ahead only then.
    ``counts`` is kept up to date for the element summary (used up to the last evaluation given out).
    ``on_time`` and ``engine`` as in :func:`translator.evaluate.run.answers`; ``on_stream`` gets the
    LARS stream as it is read (the memory watchdog names the windows that grow from it).
    ``elements``: the elements, or the stream files to read (:class:`translator.rdf.streams.StreamFiles`:
    the incremental engine then reads their rows of term texts without building elements)."""
    from translator.evaluate.engine import announced

    if r2s not in R2S:
        raise RunError(f"unknown R2S operator {r2s!r} (expected one of {', '.join(R2S)})")
    data_times: deque[int] = deque()
    began: dict = {}

    program, native = compiled.engine_programs(static)
    solver, limit = query_solver(compiled, program, native, engine)
    rows = solver.reads_rows  # it reads rows of term texts, no atom objects (lars.solver.Solver)

    def points(pairs: Iterable[tuple[int, _Point | None]]) -> Iterator[tuple[int, _Point | None]]:
        for t, atoms in pairs:
            if atoms is not None and compiled.mode == "push":
                data_times.append(t)
            yield t, atoms

    stream: LiveStream[Any]
    if rows:
        if isinstance(elements, StreamFiles):
            batches = elements.batches()
        else:
            batches = ((t, [row], line) for t, row, line in element_texts(elements))
        stream = LiveRows(points(lars_rows(batches, counts, began)), ready)
    else:
        source = elements.elements() if isinstance(elements, StreamFiles) else elements
        stream = LiveStream(points(lars_points(source, counts, began)), ready)
    stream.start = min(0, stream.start)  # the timeline starts at 0, or at the first element if earlier
    if on_stream is not None:
        on_stream(stream)
    times = live_times(compiled, stream, data_times, start, end, began)
    for ev in evaluations(compiled, solver.run(stream, announced(times, on_time)), r2s, on_note, limit):
        yield ev
        if counts is not None:
            counts.used_up_to(ev.t)
