"""The LARS stream a command names: a file, or ``-`` for standard input, read whole
(:func:`read_stream`) or while it is evaluated (:func:`read_stream_live`, a pipe that may never end).

The formats and their readers are the LARS stream syntax of :mod:`lars.streams` (text ``T: a, b``
lines, or JSON lines; Dao-Tran, Beck, Eiter 2015, §2.3: a stream S = (T, υ)); this module only
decides where the text comes from and how it is pulled.
"""

from __future__ import annotations

import itertools
import select
import sys
from typing import Iterator

from lars.accounting import Accounting
from lars.errors import RsplarsError, SourceError
from lars.model import Stream
from lars.streams import (
    STREAM_FORMATS,
    LiveStream,
    iter_stream_text,
    open_stream_lines,
    parse_stream,
    parse_stream_jsonl,
    stream_lines,
)

STDIN = "-"


def _source(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def read_stream(path: str, format: str = "auto", accounting: Accounting | None = None) -> Stream:
    """Read a stream file (``-`` = standard input) in ``text``, ``jsonl`` or ``auto`` format."""
    if format not in STREAM_FORMATS:
        raise RsplarsError(f"unknown stream format {format!r} (auto, text or jsonl)")
    source = _source(path)
    try:
        if path == STDIN:
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as err:
        raise SourceError(f"cannot read the stream: {err.strerror or err}", source=source) from None
    except UnicodeDecodeError as err:
        raise SourceError(f"the stream is not UTF-8 text ({err.reason})", source=source) from None
    return parse_stream(text, source, format, accounting)


def input_lines(path: str) -> Iterator[str]:
    """The lines of a stream file or of standard input (``-``), read lazily, with the reader's errors."""
    return stream_lines(sys.stdin, _source(path)) if path == STDIN else open_stream_lines(path)


def read_stream_live(path: str, format: str = "auto", accounting: Accounting | None = None) -> LiveStream:
    """A stream read as it is evaluated (``-``: standard input). The text format is read line by
    line; JSON lines (``format="jsonl"`` or detected) are read whole first. ``accounting`` counts
    the atoms read and the duplicates as the time points arrive."""
    if format not in STREAM_FORMATS:
        raise RsplarsError(f"unknown stream format {format!r} (auto, text or jsonl)")
    source = _source(path)
    lines = input_lines(path)
    head: list[str] = []
    for line in lines:
        head.append(line)
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            break
    if format == "jsonl" or (format == "auto" and head and head[-1].strip().startswith("{")):
        stream = parse_stream_jsonl("\n".join([*head, *lines]), source, accounting)
        return LiveStream(stream.items())
    return LiveStream(iter_stream_text(itertools.chain(head, lines), source, notify=True, accounting=accounting),
                      stdin_ready if path == STDIN else None)


def stdin_ready() -> bool:
    """Whether standard input has data waiting (a pipe fed by a live source may not)."""
    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):  # not selectable (e.g. replaced in tests): read as a file
        return True
