"""Nothing lost silently: the stream-element summary of a run (docs/robustness.md).

The readers count what they read and reject (:class:`lars.accounting.Accounting`); this module
adds what only the run knows — how many distinct elements the engine used (those at or before the
last evaluation time) and how many were duplicates (the same triple on the same stream at the same
time point: ``υ(t)`` is a set, Dao-Tran, Beck, Eiter 2015, §2.3, so the engine sees it once) — and prints the summary
and every skipped element on stderr.
"""

from __future__ import annotations

import sys
from typing import Iterable, Protocol, Sized

from lars.accounting import MALFORMED, OUT_OF_ORDER, Accounting
from lars.errors import SourceError

__all__ = ["Accounting", "MALFORMED", "OUT_OF_ORDER", "new_accounting", "count_elements", "count_stream",
           "count_live", "print_summary"]


def _report(prog: str):
    def on_reject(err: SourceError, kind: str) -> None:
        where = f"{err.source}:{err.line}:{err.column}" if err.line is not None else err.source
        print(f"{prog}: skipped {kind} element at {where}: {err.message}", file=sys.stderr)

    return on_reject


def new_accounting(skip_bad: bool = False, prog: str = "rsplars") -> Accounting:
    """An :class:`Accounting` whose skipped elements are reported on stderr as they are met."""
    return Accounting(skip_bad=skip_bad, on_reject=_report(prog))


def count_elements(accounting: Accounting, elements: Iterable, last_time: int | None) -> None:
    """Count the duplicates and the used elements of a run over RDF stream elements
    (``translator.rdf.streams.StreamElement``); ``last_time``: the last evaluation time (``None``: no
    evaluation, nothing is used)."""
    seen: set = set()
    used = after = duplicates = 0
    for e in elements:
        key = (e.t, e.stream_iri, e.triple)
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        if last_time is not None and e.t <= last_time:
            used += 1
        else:
            after += 1
    accounting.duplicates = duplicates
    accounting.used = used
    accounting.after_last_time = after


class TimedAtoms(Protocol):
    """The atoms of a stream by time point (a :class:`lars.model.Stream`), or their numbers (sized ranges)."""

    def items(self) -> Iterable[tuple[int, Sized]]: ...


def count_stream(accounting: Accounting, stream: TimedAtoms, last_time: int | None) -> None:
    """The same for a LARS stream, or the atom counts per time point of one read lazily (its reader
    counted the duplicates already)."""
    used = after = 0
    for t, atoms in stream.items():
        if last_time is not None and t <= last_time:
            used += len(atoms)
        else:
            after += len(atoms)
    accounting.used = used
    accounting.after_last_time = after


def count_live(accounting: Accounting, stream, last_time: int | None) -> None:
    """The same for a live stream (``lars.streams.LiveStream``), whose reader counted the atoms read
    and the duplicates as they arrived: used are the distinct atoms of the complete time points up
    to ``last_time``; the rest (read ahead, or of a time point still open when the run stopped)
    came after the last evaluation time."""
    points = getattr(stream, "points", {})
    ahead = sum(len(atoms) for u, atoms in points.items() if last_time is None or u > last_time)
    accounting.used = max(0, getattr(stream, "complete_atoms", 0) - ahead)
    accounting.after_last_time = max(0, accounting.read - accounting.duplicates - accounting.rejected_count()
                                     - accounting.used)


def print_summary(accounting: Accounting, prog: str = "rsplars") -> None:
    print(f"{prog}: {accounting.summary()}", file=sys.stderr, flush=True)
