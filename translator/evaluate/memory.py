"""``--max-memory MB``: stop a run before the system kills it, naming what grows (docs/robustness.md).

After every evaluation time the run compares its resident memory (``/proc/self/statm``, else the
peak from ``getrusage``) with the limit. Over it, the run stops like an interrupted one — the
answers written so far are kept and complete up to the previous evaluation time — with a message
that names the windows of the program by their content at that time (the stream atoms each holds,
seed 000 §2.3: ``⊞^∞`` holds the whole stream so far and grows with it; a time window of width L
holds about L ticks of input). The default limit is 80 % of the machine's memory
(``/proc/meminfo``; no limit where that cannot be read); ``--max-memory 0`` turns the check off.

The check runs between evaluation times: a single evaluation whose grounding alone exceeds the
memory is not stopped by it (docs/robustness.md, Limits).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from lars.errors import RsplarsError
from lars.model import Box, Diamond, PartitionWindow, Program, Stream, TimeWindow, TupleWindow, WindowAt

DEFAULT_FRACTION = 0.8


class MemoryLimitError(RsplarsError):
    """The run went over ``--max-memory``; ``last_t``: the last evaluation time written."""

    def __init__(self, message: str, last_t: int | None = None) -> None:
        super().__init__(message)
        self.last_t = last_t


def rss_mb() -> float:
    """The resident memory of this process in MiB."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def default_limit_mb() -> int | None:
    """80 % of the machine's memory (``MemTotal``), ``None`` if unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(int(line.split()[1]) / 1024 * DEFAULT_FRACTION)
    except (OSError, ValueError):
        pass
    return None


def resolve_limit(option: int | None) -> int | None:
    """The limit in MiB from ``--max-memory`` (``None``: the default; 0: off)."""
    if option is None:
        return default_limit_mb()
    if option < 0:
        raise RsplarsError(f"--max-memory must be >= 0 (MB; 0 turns the check off), got {option}")
    return option or None


@dataclass(frozen=True)
class WindowUse:
    """One window of the program and the stream atoms it holds at t."""

    rule: int  # 1-based position in the program
    window: object
    atoms: int
    text: str


def _windows(program: Program) -> Iterable[tuple[int, object]]:
    for k, rule in enumerate(program.rules, start=1):
        for element in (*rule.body, rule.head):
            ext = getattr(element, "atom", element)
            if isinstance(ext, (Diamond, Box, WindowAt)):
                yield k, ext


def _content(window, stream: Stream, t: int) -> int:
    lo, _ = stream.timeline
    if isinstance(window, TimeWindow):
        ref = t // window.d * window.d if window.d else t
        start = lo if window.l is None else max(lo, ref - window.l)
        end = min(ref + window.u, t)
        return sum(len(a) for u, a in stream.items() if start <= u <= end)
    upto = sum(len(a) for u, a in stream.items() if u <= t)
    if isinstance(window, (TupleWindow, PartitionWindow)):
        return min(window.n, upto)
    return upto


def window_use(program: Program, stream: Stream, t: int) -> list[WindowUse]:
    """The windows of ``program`` by the number of stream atoms they hold at t, largest first."""
    from lars.printer import format_extended

    out, seen = [], set()
    for k, ext in _windows(program):
        text = format_extended(ext)
        if (k, text) in seen:
            continue
        seen.add((k, text))
        try:
            atoms = _content(ext.window, stream, t)
        except (AttributeError, TypeError, ZeroDivisionError):
            continue
        out.append(WindowUse(k, ext.window, atoms, f"{text[:120]} (rule {k} of the program)"))
    return sorted(out, key=lambda w: (-w.atoms, w.rule))


class MemoryGuard:
    """Compares the memory with the limit after each evaluation time (``check(t, outcome)``)."""

    def __init__(self, limit_mb: int | None, program: Program | None = None, stream: Stream | None = None,
                 *, option: str = "--max-memory") -> None:
        self.limit = limit_mb
        self.program = program
        self.stream = stream
        self.option = option

    def check(self, t: int, outcome=None) -> None:
        if self.limit is None:
            return
        used = rss_mb()
        if used <= self.limit:
            return
        last = getattr(outcome, "last_t", t)
        raise MemoryLimitError(self.message(t, used), last)

    def message(self, t: int, used: float) -> str:
        text = (f"memory {used:,.0f} MB is over {self.option} {self.limit:,} MB after evaluating t={t}; "
                f"stopped (the answers written are complete up to t={t})")
        if self.program is not None and self.stream is not None:
            uses = window_use(self.program, self.stream, t)
            if uses:
                top = uses[0]
                grows = " (unbounded: it holds the whole stream so far and grows with it)" if (
                    isinstance(top.window, TimeWindow) and top.window.l is None) else ""
                text += f". The largest window holds {top.atoms:,} stream atoms: {top.text}{grows}"
                if len(uses) > 1:
                    others = "; ".join(f"{u.atoms:,} atoms: {u.text}" for u in uses[1:3])
                    text += f". Next: {others}"
            else:
                text += ". The program has no window: its ground program grows with the stream and the static data"
        return text + f". Raise {self.option}, or use a narrower window or --engine spark (blocks)"
