"""The contract of a LARS engine: what a solver offers, and the record it yields per time point.

rsplars has two engines for the answer streams of a LARS program (Beck et al. AAAI 2015,
Definition 3; Dao-Tran, Beck, Eiter 2015, §2.4; decisions D9–D11 of docs/decisions.md): the
clingo engine (``asp.solver.StreamSolver``) and the incremental engine
(``lars.incremental.IncrementalSolver``), as Ticker has two (Beck, Eiter, Folie, TPLP 2017).
Both satisfy :class:`Solver` and yield :class:`Step` records. A caller asks an engine what it
can do through the protocol's attributes (``engine``, ``reads_rows``, ``encode_json``), never by
its class. This module imports neither engine (``lars`` never imports clingo).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Protocol

from lars.model import Stream
from lars.streams import LiveStream


@dataclass(frozen=True)
class Step:
    """The answer streams at reference time t: each a sorted tuple of the intensional atoms that
    hold at t (as ``lars.printer.format_atom`` prints them). ``[]``: no answer stream; several
    entries: several answer streams; ``more``: further answer streams exist beyond the listed ones.
    Only ``t``, ``answers`` and ``more`` take part in equality: the others are ways to read the
    same answer faster, which an engine may leave ``None``."""

    t: int
    answers: list[tuple[str, ...]]
    more: bool = False
    #: ``(added, removed)``, each sorted: the atoms that became true at t and those that stopped
    #: holding, relative to the previous step of the same run, when both have exactly one answer
    #: stream (``None`` otherwise: the caller compares the answers itself)
    delta: "tuple[tuple[str, ...], tuple[str, ...]] | None" = field(default=None, compare=False, repr=False)
    #: the JSON array of ``answers[0]`` without its brackets (``json.dumps(…, ensure_ascii=False)``),
    #: when the solver was asked for it (``Solver.encode_json``) and keeps it
    encoded: "str | None" = field(default=None, compare=False, repr=False)
    #: with ``delta``: the same change as rows, ``{predicate: (added rows, removed rows)}`` of the
    #: output predicates (each row the tuple of its arguments' texts, ``()`` for none), so that a
    #: caller who reads rows need not cut the atoms' texts apart again
    rows: "dict[str, tuple[list, list]] | None" = field(default=None, compare=False, repr=False)


class Solver(Protocol):
    """A LARS engine over one program: ``run(stream, times)`` yields one :class:`Step` per
    reference time of ``times`` (default: every time point of the stream's timeline)."""

    #: the engine's name as ``--engine`` / ``--lars-engine`` name it: ``"asp"`` or ``"incremental"``
    engine: str
    #: does ``run`` read a stream given as rows of canonical term texts (``lars.streams.LiveRows``,
    #: ``lars.streams.read_stream_counted(…, rows=True)``) instead of atoms?
    reads_rows: bool
    #: set by a caller that writes the full answers as JSON lines: the engine then fills
    #: ``Step.encoded`` where it can (an engine that cannot leaves it ``None``)
    encode_json: bool

    def run(self, stream: Stream | LiveStream, times: Iterable[int] | None = None) -> Iterator[Step]:
        """The steps at ``times``."""
        ...

    def asp_text(self, stream: Stream, t: int | None = None) -> str:
        """The engine's program as plain clingo input (with t: and the inputs true at t as facts),
        for ``--print-asp``; an engine without an ASP encoding raises ``lars.errors.RsplarsError``."""
        ...
