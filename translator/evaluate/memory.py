"""``--max-memory MB``: stop a run before the system kills it, naming what grows (docs/robustness.md).

After every evaluation time the run compares its resident memory (``/proc/self/statm``, else the
peak from ``getrusage``) with the limit. Over it, the run stops like an interrupted one — the
answers written so far are kept and complete up to the previous evaluation time — with a message
that names the windows of the program by their content at that time (the stream atoms each holds,
Dao-Tran, Beck, Eiter 2015, §2.3: ``⊞^∞`` holds the whole stream so far and grows with it; a time window of width L
holds about L ticks of input). The default limit is 80 % of the machine's memory
(``/proc/meminfo``; no limit where that cannot be read); ``--max-memory 0`` turns the check off.

The limit also holds *during* an evaluation (:class:`MemoryWatchdog`): a thread samples the
resident memory every 50 ms near the limit, less often further from it (:func:`sample_interval`)
— clingo grounds and solves without holding Python's GIL, so the thread runs while a single time
point's grounding grows — and over the limit it takes the output lock of
:func:`translator.evaluate.interrupts.drive` (so the output holds complete evaluations only),
commits what was written, prints the message naming the evaluation time in progress, the windows
and the rule whose join grows (:func:`rule_growth`: the product of the stream atoms its windows
hold at that time), and the element summary, and ends the process with exit code 2 (``os._exit``:
clingo's grounding cannot be interrupted from Python). Docs: docs/robustness.md, Limits.
"""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from lars.errors import RsplarsError
from lars.model import Box, Diamond, Literal, PartitionWindow, Program, Stream, TimeWindow, TupleWindow, WindowAt
from lars.windows import time_window_bounds

DEFAULT_FRACTION = 0.8


class MemoryLimitError(RsplarsError):
    """The run went over ``--max-memory``; ``last_t``: the last evaluation time written."""

    def __init__(self, message: str, last_t: int | None = None) -> None:
        super().__init__(message)
        self.last_t = last_t


_STATM: list = [None, None, 0]  # (pid, descriptor of /proc/<pid>/statm, page size): opened once per process


def rss_mb() -> float:
    """The resident memory of this process in MiB (read after every evaluation time: the statm
    file stays open, and is read again from its start; a forked process opens its own)."""
    try:
        pid = os.getpid()
        if _STATM[0] != pid:
            _STATM[:] = [pid, os.open(f"/proc/{pid}/statm", os.O_RDONLY), os.sysconf("SC_PAGE_SIZE")]
        pages = int(os.pread(_STATM[1], 256, 0).split()[1])
        return pages * _STATM[2] / 2**20
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


def _windows(program: Program) -> Iterable[tuple[int, Diamond | Box | WindowAt]]:
    for k, rule in enumerate(program.rules, start=1):
        for element in (*rule.body, rule.head):
            ext = getattr(element, "atom", element)
            if isinstance(ext, (Diamond, Box, WindowAt)):
                yield k, ext


def _count(atoms, signature: tuple[str, int] | None) -> int:
    """The atoms of one time point (``Atom`` objects, or the ``(signature, row)`` pairs of a stream
    read as rows for the incremental engine, ``lars.streams.LiveRows``) of ``signature`` (``None``: all)."""
    if signature is None:
        return len(atoms)
    return sum(1 for a in atoms
               if (a[0] == signature if isinstance(a, tuple) else
                   (a.predicate == signature[0] and len(a.args) == signature[1])))


def _content(window, stream: Stream, t: int, signature: tuple[str, int] | None = None) -> int:
    """The stream atoms ``window`` holds at t (only those of ``signature`` if given)."""

    def size(atoms) -> int:
        return _count(atoms, signature)

    lo, _ = stream.timeline
    if isinstance(window, TimeWindow):
        start, end = time_window_bounds(window, t, lo)
        return sum(size(a) for u, a in stream.items() if start <= u <= end)
    upto = sum(size(a) for u, a in stream.items() if u <= t)
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
            atoms = _content(ext.window, stream, t, ext.atom.signature)  # the atoms it can match
        except (AttributeError, TypeError, ZeroDivisionError):
            continue
        out.append(WindowUse(k, ext.window, atoms, f"{text[:120]} (rule {k} of the program)"))
    return sorted(out, key=lambda w: (-w.atoms, w.rule))


@dataclass(frozen=True)
class RuleGrowth:
    """A rule joining several windows: the stream atoms of each (of the atom's predicate) at t;
    ``instances``, their product, bounds the ground instances of the join (Dao-Tran, Beck, Eiter 2015, §2.3: a
    window atom ranges over the atoms its window holds)."""

    rule: int
    factors: tuple[int, ...]
    text: str
    t: int = 0  # the time point measured

    @property
    def instances(self) -> int:
        out = 1
        for n in self.factors:
            out *= n
        return out


#: how many time points with data after the one in progress :func:`rule_growth` looks at: the
#: engine grounds the time points ahead together (asp.solver: epochs and lookahead up to 256)
GROUND_AHEAD = 256


class _Sorted:
    """The time points of a stream, sorted, with the atoms of one signature counted per point."""

    def __init__(self, stream: Stream) -> None:
        import bisect

        self.bisect = bisect
        self.items = list(stream.items())
        self.times = [u for u, _ in self.items]
        self.lo = stream.timeline[0]
        self._counts: dict[tuple[str, int] | None, list[int]] = {}

    def prefix(self, signature: tuple[str, int] | None) -> list[int]:
        """Prefix sums of the atoms of ``signature`` (``None``: all atoms) over the time points."""
        got = self._counts.get(signature)
        if got is None:
            got, total = [0], 0
            for _, atoms in self.items:
                total += _count(atoms, signature)
                got.append(total)
            self._counts[signature] = got
        return got

    def between(self, signature: tuple[str, int] | None, start: int, end: int) -> int:
        b = self.bisect
        sums = self.prefix(signature)
        return sums[b.bisect_right(self.times, end)] - sums[b.bisect_left(self.times, start)]

    def content(self, window, t: int, signature: tuple[str, int] | None) -> int:
        if isinstance(window, TimeWindow):
            return self.between(signature, *time_window_bounds(window, t, self.lo))
        upto = self.between(signature, self.lo, t)
        if isinstance(window, (TupleWindow, PartitionWindow)):
            return min(window.n, upto)
        return upto


def window_peak(program: Program, stream: Stream, t: int, ahead: int = GROUND_AHEAD) -> int:
    """The time point among t and the next ``ahead`` with data at which a window of ``program``
    holds the most stream atoms (the time point whose grounding is largest)."""
    index = _Sorted(stream)
    first = index.bisect.bisect_right(index.times, t)
    windows = [ext.window for _, ext in _windows(program)]
    best, best_t = -1, t
    for u in [t, *index.times[first:first + ahead]]:
        for window in windows:
            try:
                n = index.content(window, u, None)
            except (AttributeError, TypeError, ZeroDivisionError):
                continue
            if n > best:
                best, best_t = n, u
    return best_t


def rule_growth(program: Program, stream: Stream, t: int, ahead: int = GROUND_AHEAD) -> list[RuleGrowth]:
    """The rules of ``program`` that join two or more window atoms over the stream, by the product
    of what their windows hold, largest first: the program part whose grounding grows. Each rule
    is measured at t and at the next ``ahead`` time points with data (grounded with t, and the
    largest is kept: ``RuleGrowth.t``)."""
    from lars.printer import format_rule

    index = _Sorted(stream)
    first = index.bisect.bisect_right(index.times, t)
    moments = [t, *index.times[first:first + ahead]]
    out = []
    for k, rule in enumerate(program.rules, start=1):
        joined = [element.atom for element in rule.body
                  if isinstance(element, Literal) and not element.negated
                  and isinstance(element.atom, (Diamond, Box, WindowAt))]
        if len(joined) < 2:
            continue
        best: RuleGrowth | None = None
        text = format_rule(rule)
        text = text if len(text) <= 160 else text[:157] + "..."
        for u in moments:
            try:
                factors = tuple(index.content(ext.window, u, ext.atom.signature) for ext in joined)
            except (AttributeError, TypeError, ZeroDivisionError):
                break
            growth = RuleGrowth(k, factors, f"rule {k} of the program, {text}", u)
            if best is None or growth.instances > best.instances:
                best = growth
        if best is not None:
            out.append(best)
    return sorted(out, key=lambda g: (-g.instances, g.rule))


class MemoryGuard:
    """Compares the memory with the limit after each evaluation time (``check(t, outcome)``), and
    names what grows (:meth:`message`, :meth:`message_during`); ``note_time(t)`` hears the
    evaluation time the engine starts on (for :class:`MemoryWatchdog`)."""

    def __init__(self, limit_mb: int | None, program: Program | None = None, stream: Stream | None = None,
                 *, option: str = "--max-memory") -> None:
        self.limit = limit_mb
        self.program = program
        self.stream = stream
        self.option = option
        self.current: int | None = None  # the evaluation time in progress

    def note_time(self, t: int) -> None:
        self.current = t

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
        return self._what_grows(text, t)

    def message_during(self, used: float, last_t: int | None) -> str:
        """The message of a stop in the middle of an evaluation (:class:`MemoryWatchdog`)."""
        t = self.current
        where = f"while evaluating t={t}" if t is not None else "before the first evaluation time"
        done = (f"the answers written are complete up to t={last_t}" if last_t is not None
                else "no answers written")
        text = f"memory {used:,.0f} MB is over {self.option} {self.limit:,} MB {where}; stopped ({done})"
        if t is None:
            return text + f". Raise {self.option}"
        if self.program is not None and self.stream is not None:
            try:
                growth = rule_growth(self.program, self.stream, t)
            except Exception:  # naming what grows must not hide the stop itself  # noqa: BLE001
                growth = []
            if growth and growth[0].instances > 1:
                g = growth[0]
                sizes = " x ".join(f"{n:,}" for n in g.factors)
                when = f"t={g.t}" if g.t == t else f"t={g.t} (grounded together with t={t})"
                text += (f". The join that grows: {g.text} joins {len(g.factors)} windows holding {sizes} stream "
                         f"atoms at {when} (up to {g.instances:,} ground instances)")
                return self._what_grows(text, g.t, at=g.t != t)
            try:  # no join of windows: the windows where they hold most, at t or grounded with it
                peak = window_peak(self.program, self.stream, t)
            except Exception:  # noqa: BLE001
                peak = t
            if peak != t:
                text += f"; the engine grounds t={peak} together with t={t}"
                return self._what_grows(text, peak, at=True)
        return self._what_grows(text, t)

    def _what_grows(self, text: str, t: int, at: bool = False) -> str:
        if self.program is not None and self.stream is not None:
            uses = window_use(self.program, self.stream, t)
            if uses:
                top = uses[0]
                grows = " (unbounded: it holds the whole stream so far and grows with it)" if (
                    isinstance(top.window, TimeWindow) and top.window.l is None) else ""
                when = f" at t={t}" if at else ""
                text += f". The largest window holds {top.atoms:,} stream atoms{when}: {top.text}{grows}"
                others = "; ".join(f"{u.atoms:,} atoms: {u.text}" for u in uses[1:3] if u.atoms)
                if others:
                    text += f". Next: {others}"
            else:
                text += ". The program has no window: its ground program grows with the stream and the static data"
        return text + f". Raise {self.option}, or use a narrower window or --engine spark (blocks)"


#: how often the watchdog samples the resident memory (seconds) when near the limit
SAMPLE_INTERVAL = 0.05
#: the fastest growth of the resident memory the watchdog's pace allows for (MiB per second):
#: further from the limit it samples less often, never so rarely that this growth could cross the
#: limit between two samples
GROWTH_MB_PER_S = 2000.0
#: the longest pause between two samples (seconds)
MAX_SAMPLE_INTERVAL = 1.0


def sample_interval(used: float, limit: float, least: float = SAMPLE_INTERVAL) -> float:
    """The pause before the next sample with ``used`` MiB resident under ``limit``: the time the
    headroom lasts at ``GROWTH_MB_PER_S``, between ``least`` and ``MAX_SAMPLE_INTERVAL`` (a run far
    below its limit is not woken up twenty times a second)."""
    return min(max(least, MAX_SAMPLE_INTERVAL), max(least, (limit - used) / GROWTH_MB_PER_S))


class MemoryWatchdog:
    """A daemon thread that enforces ``guard``'s limit in the middle of an evaluation (module
    docstring). Over the limit it takes ``lock`` (held by the writer while it writes one
    evaluation), calls ``on_stop(message)`` — which commits the output and prints the message and
    the element summary — and ends the process with ``exit_code``. Use as a context manager; the
    thread stops when the block ends."""

    def __init__(self, guard: MemoryGuard, lock: threading.Lock, last_t: Callable[[], int | None],
                 on_stop: Callable[[str], None], *, exit_code: int = 2, interval: float | None = None) -> None:
        self.guard = guard
        self.lock = lock
        self.last_t = last_t
        self.on_stop = on_stop
        self.exit_code = exit_code
        self.interval = interval  # None: paced by the headroom (sample_interval)
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "MemoryWatchdog":
        if self.guard.limit is not None:
            self._thread = threading.Thread(target=self._watch, name="rsplars-memory-watchdog", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _watch(self) -> None:
        limit = self.guard.limit
        assert limit is not None
        pause = self.interval if self.interval is not None else sample_interval(rss_mb(), limit, SAMPLE_INTERVAL)
        while not self._done.wait(pause):
            used = rss_mb()
            if used > limit:
                self._stop(used)
                return
            if self.interval is None:
                pause = sample_interval(used, limit, SAMPLE_INTERVAL)

    def _stop(self, used: float) -> None:
        got = self.lock.acquire(timeout=30)  # the output holds complete evaluations only
        if self._done.is_set():  # the run ended meanwhile: nothing to stop
            if got:
                self.lock.release()
            return
        try:
            self.on_stop(self.guard.message_during(used, self.last_t()))
        finally:
            try:
                sys.stdout.flush()
            except (OSError, ValueError):
                pass
            try:
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            os._exit(self.exit_code)
