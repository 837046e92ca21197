"""Output files that are either complete or absent: one atomic writer for every command.

A file is written to a temporary file in the same directory and renamed into place only when
everything succeeded; on any error (including Ctrl-C) the temporary file is removed and an existing
target is left untouched, so no partial output that looks complete is ever left behind.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TextIO

from translator.evaluate.interrupts import raise_if_aborted


COMMITTED: list[str] = []
"""The files this process wrote (renamed into place), in order (``agree``/``check`` say which
reports exist when a signal stops them, ``translator.cli.commands.longrun.stop_cleanly``)."""


@contextmanager
def atomic_output(path: str | os.PathLike[str] | None,
                  keep_on: tuple[type[BaseException], ...] = (),
                  on_open: Callable[[Callable[[], None]], None] | None = None) -> Iterator[TextIO]:
    """Yield a text stream for ``path``: stdout for ``None`` or ``-`` (flushed as it goes), else a
    temporary file renamed onto ``path`` when the block ends without an error — or with one of the
    ``keep_on`` errors: a run stopped cleanly (``translator.evaluate.interrupts``) keeps the complete
    answers it wrote, and says so. ``on_open`` receives a function that commits what was written
    so far at once (the memory watchdog's stop, ``translator.evaluate.memory``, which then ends the
    process)."""
    if path is None or str(path) == "-":
        if on_open is not None:
            on_open(sys.stdout.flush)
        try:
            yield sys.stdout
        finally:
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                pass
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    import tempfile  # only for --output: a run to stdout does not load it (start-up)

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; an output file is an ordinary file
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            if on_open is not None:
                def commit_now() -> None:
                    handle.flush()
                    os.fsync(handle.fileno())
                    os.replace(tmp, target)
                    COMMITTED.append(str(target))

                on_open(commit_now)
            try:
                yield handle
            except keep_on:
                handle.flush()
                os.fsync(handle.fileno())
                handle.close()
                os.replace(tmp, target)
                COMMITTED.append(str(target))
                raise
            handle.flush()
            os.fsync(handle.fileno())
        raise_if_aborted()  # a signal whose exception was swallowed where it landed
        os.replace(tmp, target)
        COMMITTED.append(str(target))
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically. Render the whole text *before* calling this."""
    with atomic_output(path) as handle:
        handle.write(text)


def _umask() -> int:
    """The process umask (read by setting it and restoring it at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
