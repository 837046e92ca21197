"""What ``run`` and ``lars`` share for long runs (docs/robustness.md): the robustness options, the
element summary on stderr, a clean stop on SIGINT/SIGTERM or over ``--max-memory`` that keeps the
complete answers written so far, and ``--resume-from T``."""

from __future__ import annotations

import argparse
import io
import sys
import threading
from typing import Callable, Iterable

from lars.accounting import Accounting


def add_robustness_options(p: argparse.ArgumentParser, *, resume: bool = True, memory: bool = True) -> None:
    """``--skip-bad-elements``, ``--max-memory`` (with ``memory``), ``--resume-from`` (with ``resume``)
    on ``p``: an argument group, or a parser, which then gets a group of its own."""
    g = p.add_argument_group("robustness (docs/robustness.md)") if isinstance(p, argparse.ArgumentParser) else p
    g.add_argument("--skip-bad-elements", action="store_true",
                   help="skip (and report) malformed and out-of-order elements instead of stopping")
    if memory:
        g.add_argument("--max-memory", type=int, metavar="MB",
                       help="stop cleanly over MB of memory (default: 80%% of the machine's; 0: no limit)")
    if resume:
        g.add_argument("--resume-from", type=int, metavar="T",
                       help="continue a stopped run: evaluate only the times after T")


def write_run(args: argparse.Namespace, prog: str, fmt: str, make_writer: Callable, evaluations: Iterable,
              accounting: Accounting, *, guard=None, count: Callable[[int | None], None] | None = None,
              at_once: Callable[[], bool] | None = None, pieces: bool = False) -> int:
    """Write the evaluations to ``--output`` (atomically) or stdout, one flushed piece per evaluation
    time; on SIGINT/SIGTERM or over the memory limit keep what was written and say up to which time
    it is complete. Prints the element summary at the end in every case. Returns the exit code.

    Over the memory limit in the middle of an evaluation, the guard's watchdog thread
    (``translator.evaluate.memory.MemoryWatchdog``) commits the complete evaluations written, prints
    its message and the summary, and ends the process with exit code 2."""
    from translator.exits import EXIT_OK, EXIT_USAGE
    from translator.evaluate.accounting import print_summary
    from translator.evaluate.fileio import atomic_output
    from translator.evaluate.interrupts import Interrupted, Outcome, drive, graceful_stop, stopped_message
    from translator.evaluate.memory import MemoryLimitError, MemoryWatchdog
    from translator.evaluate.resume import kept_output

    output = getattr(args, "output", None)
    resume = getattr(args, "resume_from", None)
    kept = kept_output(output, resume, fmt) if resume is not None else None
    last: int | None = None
    lock = threading.Lock()
    outcome = Outcome()
    commit: list = []

    def stop_now(message: str) -> None:  # the watchdog's stop, under the output lock
        last_t = outcome.last_t if outcome.last_t is not None else resume
        for commit_now in commit:
            commit_now()
        print(f"{prog}: {message}", file=sys.stderr)
        if count is not None:
            count(last_t)
        print_summary(accounting, prog)

    try:
        with graceful_stop() as flag, atomic_output(output, keep_on=(Interrupted, MemoryLimitError),
                                                    on_open=commit.append) as out:
            flag.at_once = at_once  # a live stream waiting for input stops at the first signal
            if kept is not None:
                out.write(kept)
            buffer = _Pieces() if pieces else io.StringIO()
            write = make_writer(buffer)
            if kept is not None or (resume is not None and output in (None, "-")):
                buffer.seek(0)
                buffer.truncate()  # the kept part has the header already; stdout gets the new records only
            watchdog = (MemoryWatchdog(guard, lock, lambda: outcome.last_t if outcome.last_t is not None else resume,
                                       stop_now, exit_code=EXIT_USAGE) if guard is not None else None)
            if watchdog is not None:
                watchdog.__enter__()
            try:
                drive(evaluations, write, buffer, out, flag, check=guard.check if guard is not None else None,
                      lock=lock, outcome=outcome)
            finally:
                if watchdog is not None:
                    watchdog.__exit__(None, None, None)
            last = outcome.last_t
        return EXIT_OK
    except Interrupted as stop:
        last = stop.last_t if stop.last_t is not None else resume
        print(stopped_message(prog, str(stop), last, output), file=sys.stderr)
        return stop.exit_code
    except MemoryLimitError as err:
        last = err.last_t
        raise
    finally:
        if count is not None:
            count(last)
        print_summary(accounting, prog)


def stop_cleanly(func: Callable[[argparse.Namespace], int], what: str = "report") -> Callable[[argparse.Namespace], int]:
    """``func`` (a command that writes its reports whole at the end: ``agree``, ``check``) ended
    cleanly by SIGINT/SIGTERM: the computation stops at once, no report is written (every report
    file is written atomically, so none is left half-written; a report already complete — one of
    several, ``--as cqels-all`` — stays), and the exit code is 128 + the signal, as for ``run``."""

    def run(args: argparse.Namespace) -> int:
        from translator.evaluate import fileio
        from translator.evaluate.interrupts import Abort, abort_on_signal

        before = len(fileio.COMMITTED)
        try:
            with abort_on_signal():
                return func(args)
        except Abort as stop:
            done = fileio.COMMITTED[before:]
            kept = (f"only the complete {what}s {', '.join(done)} were written" if done else f"no {what} written")
            print(f"rsplars: stopped by {stop} before the end: {kept} ({what}s are written whole, when complete)",
                  file=sys.stderr)
            return stop.exit_code

    run.__doc__ = func.__doc__
    return run


class _Pieces:
    """The write buffer of ``write_run(pieces=True)`` (``rsplars lars``): the strings written,
    joined when read. A ``StringIO`` reused after ``truncate`` copies every character into a
    wider buffer; a JSON line of a large answer (hundreds of KB per time point) is then copied
    twice more than needed. Offers what ``drive`` uses: ``write``, ``getvalue``, ``seek(0)``,
    ``truncate()``."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def getvalue(self) -> str:
        parts = self.parts
        return parts[0] if len(parts) == 1 else "".join(parts)

    def seek(self, offset: int, whence: int = 0) -> int:
        if offset or whence:
            raise ValueError("only seek(0) is supported")
        return 0

    def truncate(self, size: int | None = None) -> int:
        self.parts.clear()
        return 0
