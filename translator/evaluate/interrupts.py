"""Long runs that end cleanly: SIGINT (Ctrl-C) and SIGTERM stop a run between two evaluation times.

:func:`graceful_stop` installs handlers that only *note* the first signal; :func:`drive` writes one
evaluation after the other and, after each complete one, stops if a signal was noted, the memory
guard (:mod:`translator.evaluate.memory`) objects, or the evaluations end. Whatever was written so
far is kept (the output file is committed, ``translator.evaluate.fileio.atomic_output(keep_on=…)``),
and the caller says up to which time point the answers are complete, so that ``--resume-from T``
(:mod:`translator.evaluate.resume`) continues the run. A second signal stops at once (the output of
the evaluation in progress is then not written: every evaluation is written in one piece).
A signal that comes while clingo runs Python code stops clingo through its public API
(``Control.interrupt``, :mod:`asp.interruption`) and is raised once clingo has returned; the
incremental engine (pure Python) is stopped where the signal finds it.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Protocol, TextIO

from asp import interruption

SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "SIGINT", signal.SIGTERM: "SIGTERM"}


class Interrupted(Exception):
    """A run stopped by a signal (raised only by a second signal, or by :func:`drive` after the first)."""

    def __init__(self, signum: int, last_t: int | None = None, written: int = 0) -> None:
        self.signum = signum
        self.last_t = last_t
        self.written = written
        super().__init__(SIGNAL_NAMES.get(signum, f"signal {signum}"))

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


class Abort(BaseException):
    """A signal during a command that writes its output whole at the end (``agree``, ``check``):
    raised at once by :func:`abort_on_signal`'s handler. A ``BaseException``, so that no ``except
    Exception`` on the way turns it into a wrong result; atomic writers remove their temporary file."""

    def __init__(self, signum: "int | Abort") -> None:
        # clingo re-raises an exception from a callback as ``type(e)(e)``: keep the signal number
        if isinstance(signum, Abort):
            signum = signum.signum
        self.signum: int = signum
        super().__init__(SIGNAL_NAMES.get(signum, f"signal {signum}"))

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def calling_clingo(frame):
    """The frame of Python code that called into clingo, if the code interrupted at ``frame`` runs
    inside a call of clingo (a grounding function, a model or a statistics callback: clingo's
    Python wrapper is on the stack), else ``None``. clingo turns an exception raised there into a
    fatal error for some callbacks ("error in SolveEventHandler::on_statistics going to
    terminate", exit 1), so the handlers below do not raise there: they ask clingo to stop
    (:func:`asp.interruption.request_stop`, ``Control.interrupt``) and the exception is raised
    once clingo has returned (:func:`asp.interruption.checkpoint`)."""
    caller = None
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("clingo"):
            caller = frame.f_back
        frame = frame.f_back
    while caller is not None and caller.f_globals.get("__name__", "").startswith("clingo"):
        caller = caller.f_back
    return caller


def _raise_or_request(frame, exc: BaseException) -> None:
    """Raise ``exc`` now, or, inside a call of clingo, once clingo has returned."""
    if calling_clingo(frame) is None:
        raise exc
    interruption.request_stop(exc)


@contextmanager
def _delivered_after_clingo() -> Iterator[None]:
    """A stop requested inside clingo and not yet raised (clingo was called outside
    ``asp.interruption.running``) is raised when the block ends; none outlives it."""
    try:
        yield
    except BaseException:
        if interruption.stop_requested():
            interruption.checkpoint()  # the signal's exception, in place of clingo's report of it
        raise
    else:
        interruption.checkpoint()
    finally:
        interruption.clear()


_received_aborts: list[int] = []
"""The signals :func:`abort_on_signal` received and whose :class:`Abort` has not yet left its block."""


def raise_if_aborted() -> None:
    """Raise the :class:`Abort` of a signal already received. The handler's exception can be
    swallowed where it lands (a weak-reference callback of the import system, a ``__del__``: Python
    prints "Exception ignored in" and goes on), so the atomic writers
    (:mod:`translator.evaluate.fileio`) call this before they rename a file into place, and
    :func:`abort_on_signal` when its block ends: a stopped command never commits a report."""
    if _received_aborts:
        raise Abort(_received_aborts[0])


@contextmanager
def abort_on_signal() -> Iterator[None]:
    """SIGINT/SIGTERM raise :class:`Abort` at once (in the main thread; elsewhere nothing changes);
    inside a call of clingo, once clingo has returned (an interrupted solve is not read)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        _received_aborts.append(signum)
        _raise_or_request(frame, Abort(signum))

    def unraisable(info) -> None:  # an Abort swallowed where it landed is raised later, not printed
        if not isinstance(info.exc_value, Abort):
            previous_hook(info)

    previous = {s: signal.signal(s, handler) for s in SIGNAL_NAMES}
    previous_hook, sys.unraisablehook = sys.unraisablehook, unraisable
    try:
        with _delivered_after_clingo():
            yield
            raise_if_aborted()
    finally:
        _received_aborts.clear()
        sys.unraisablehook = previous_hook
        for s, h in previous.items():
            signal.signal(s, h)


@dataclass
class StopFlag:
    """The first signal, noted. ``at_once``: when it says so, a first signal raises at once too
    (a live stream blocked waiting for input: the evaluation in progress would not end by itself)."""

    signum: int | None = None
    at_once: Callable[[], bool] | None = None


@contextmanager
def graceful_stop() -> Iterator[StopFlag]:
    """Note SIGINT/SIGTERM in the yielded flag (a second one raises :class:`Interrupted`). Outside
    the main thread (notebooks' workers, tests) signals cannot be caught and the flag stays unset."""
    flag = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum, frame):
        if flag.signum is not None or (flag.at_once is not None and flag.at_once()):
            flag.signum = signum
            _raise_or_request(frame, Interrupted(signum))
            return
        flag.signum = signum

    previous = {s: signal.signal(s, handler) for s in SIGNAL_NAMES}
    try:
        with _delivered_after_clingo():
            yield flag
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


class WriteBuffer(Protocol):
    """Where :func:`drive`'s writer writes one evaluation (an ``io.StringIO``, or any buffer with
    these methods) before it goes to the output in one piece."""

    def write(self, text: str, /) -> int: ...

    def getvalue(self) -> str: ...

    def seek(self, offset: int, /) -> int: ...

    def truncate(self) -> int: ...


@dataclass
class Outcome:
    """How a driven run ended: the last evaluation time written and how many were written."""

    last_t: int | None = None
    written: int = 0


def drive(evaluations: Iterable, write: Callable[[object], None], buffer: WriteBuffer, out: TextIO,
          flag: StopFlag, *, check: Callable[[int, Outcome], None] | None = None, flush: bool = True,
          lock: threading.Lock | None = None, outcome: Outcome | None = None) -> Outcome:
    """Write every evaluation: ``write(ev)`` writes it into ``buffer``, which goes to ``out`` in one
    piece (flushed when ``flush``: a pipe sees every evaluation time as soon as it is computed);
    raise :class:`Interrupted` after the evaluation during which a signal came. ``check`` runs after
    each evaluation (the memory guard) and may raise. ``lock`` is held while an evaluation is
    written and ``outcome`` updated (the memory watchdog takes it before it stops the process, so
    that the output then holds complete evaluations only)."""
    outcome = Outcome() if outcome is None else outcome
    lock = lock if lock is not None else threading.Lock()

    def emit() -> None:
        out.write(buffer.getvalue())
        buffer.seek(0)
        buffer.truncate()
        if flush:
            out.flush()

    with lock:
        emit()  # what the writer wrote before the first evaluation (a CSV header)
    try:
        for ev in evaluations:
            write(ev)
            with lock:
                emit()
                outcome.last_t = ev.t
                outcome.written += 1
            if flag.signum is not None:
                raise Interrupted(flag.signum, outcome.last_t, outcome.written)
            if check is not None:
                check(ev.t, outcome)
    except Interrupted as stop:  # a second signal: the evaluation in progress is not written
        if stop.last_t is None:
            stop.last_t, stop.written = outcome.last_t, outcome.written
        raise
    if flag.signum is not None:
        raise Interrupted(flag.signum, outcome.last_t, outcome.written)
    return outcome


def stopped_message(prog: str, reason: str, last_t: int | None, output: str | None, resume_hint: bool = True) -> str:
    """``rsplars: stopped by SIGTERM: the answers are complete up to t=40 (in out.jsonl); continue
    with --resume-from 40``."""
    where = f" (in {output})" if output and output != "-" else ""
    if last_t is None:
        return f"{prog}: stopped by {reason} before the first evaluation time: no answers written"
    hint = f"; continue with --resume-from {last_t}" if resume_hint else ""
    return f"{prog}: stopped by {reason}: the answers are complete up to t={last_t}{where}{hint}"
