"""Stopping clingo from a signal handler, through clingo's public API.

A signal handler may run while clingo is inside a call of Python code (a grounding function, the
model or the statistics callback of ``Control.solve``). An exception raised there either comes
back from clingo wrapped (grounding functions) or ends the process (clingo's solve-event handler
calls ``std::terminate``). So a handler that finds itself inside clingo does not raise: it calls
:func:`request_stop` with the exception to raise, which interrupts every Control that is solving
(``clingo.control.Control.interrupt``: the solve returns, its result says ``interrupted``), and
the exception is raised by :func:`checkpoint` once clingo has returned to the code that called it.

:func:`running` wraps every grounding and solving call of the engine (``asp.solver``): it registers
the Control while clingo works and passes a checkpoint when clingo returns, so that an
interrupted solve is never read as an answer. clingo is not imported here.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

_lock = threading.Lock()
_controls: list = []  # the Controls inside a ground or solve call (the innermost last)
_pending: BaseException | None = None


def request_stop(exc: BaseException) -> None:
    """Ask the running Controls to stop (``Control.interrupt``) and keep ``exc`` for the next
    :func:`checkpoint` (the first request is kept; later ones add nothing)."""
    global _pending
    if _pending is None:
        _pending = exc
    for ctl in list(_controls):
        ctl.interrupt()


def stop_requested() -> bool:
    """Whether a stop was requested and not yet raised."""
    return _pending is not None


def checkpoint() -> None:
    """Raise the exception of a requested stop (once), if any."""
    global _pending
    exc = _pending
    if exc is not None:
        _pending = None
        raise exc


def clear() -> None:
    """Forget a requested stop that was not raised (the run it was meant for is over)."""
    global _pending
    _pending = None


@contextmanager
def running(ctl) -> Iterator[None]:
    """``ctl`` grounds or solves inside the block: a stop requested meanwhile interrupts it and is
    raised when the block ends (also before it starts, if requested earlier)."""
    checkpoint()
    with _lock:
        _controls.append(ctl)
    try:
        yield
    finally:
        with _lock:
            _controls.remove(ctl)
    checkpoint()
