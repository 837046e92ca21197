"""The interface between rsplars and a real RSP engine (docs/engines.md, "The adapter interface").

rsplars starts an engine through an :class:`Engine`: :meth:`Engine.run` gets an :class:`EngineInput`
(the query file, each stream as a timestamped N-Triples file written in the engine's time unit, the
static data files, a working folder) and returns an :class:`EngineOutput`: the file holding what the
engine emitted, in one of the formats ``rsplars check`` reads (``translator.agreement.answers.FORMATS``),
the unit of its timestamps, and the engine's clock (the last instant up to which it can have reported:
an engine that reports when a later element arrives never reports the windows that close after the
last element). That file is a recorded output like any other: ``check`` and ``agree`` judge it as they
judge ``--answers FILE`` (Dell'Aglio et al. 2014, Defs. 25–26).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lars.errors import RsplarsError


class EngineError(RsplarsError):
    """An engine cannot be started (missing runtime or package), or it failed: exit code 2 with what to
    install or what the engine said."""


@dataclass(frozen=True)
class StreamFile:
    iri: str
    """The stream's IRI (without angle brackets)."""
    source: str
    """The file the user gave (``--stream IRI=FILE``), for adapters that read the original format."""
    path: Path
    """The stream as timestamped N-Triples (docs/rdf-io.md §2.1), times in the engine's unit."""
    last_t: int | None
    """The time of the stream's last element in the engine's unit (``None``: no element)."""


@dataclass(frozen=True)
class EngineInput:
    query: Path
    streams: tuple[StreamFile, ...]
    static: tuple[Path, ...]
    workdir: Path
    """A folder the engine may write to (its output, logs); it holds the stream files."""
    base_unit: str
    """rsplars' base unit (``--unit``): the unit of the streams as rsplars read them."""


@dataclass(frozen=True)
class EngineOutput:
    path: Path
    """The engine's output, a recorded output."""
    format: str
    """One of ``translator.agreement.answers.FORMATS``, or ``auto``."""
    time_unit: str
    """The unit of the output's timestamps (``ms``, ``s``, …)."""
    reported_until: int | None
    """The engine's clock in ``time_unit``: it can have reported up to this instant (``None``: to the end)."""
    log: Path | None
    seconds: float
    """Wall-clock time of the engine's run."""


class Engine(Protocol):
    name: str
    """The name the user gives (``--live-engine NAME``)."""
    time_unit: str
    """The unit of the timestamps the engine reads and writes."""

    def run(self, given: EngineInput) -> EngineOutput:
        """Start the engine on ``given`` and wait for it to finish; :class:`EngineError` when it cannot
        start or fails."""
        ...
