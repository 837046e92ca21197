"""Errors a user can act on, shared by every stage of rsplars.

``lars`` is the lowest package of the pipeline (text → query model → LARS → ASP), so the common
error base lives here; ``translator`` and ``asp`` derive their own errors from it. The CLI prints
``str(error)`` and exits with :data:`EXIT_USAGE` (2), never a traceback.
"""

from __future__ import annotations

import sys

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


class RsplarsError(Exception):
    """Base of every error caused by the user's input (exit code 2)."""


class UnsupportedError(RsplarsError):
    """A construct that parses but that a later stage does not support (named, never a wrong answer)."""

    def __init__(self, feature: str, stage: str, detail: str = "") -> None:
        self.feature = feature
        self.stage = stage
        msg = f"unsupported in {stage}: {feature}"
        super().__init__(f"{msg} ({detail})" if detail else msg)


class SourceError(RsplarsError):
    """An error at a position of a text the user gave (query, program, stream).

    Rendered as ``FILE:LINE:COLUMN: message``, the offending line with a caret under the column,
    and what was expected, in plain words.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<input>",
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
        expected: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        self.expected = expected
        super().__init__(self.render())

    def render(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        out = [f"{where}: {self.message}"]
        if self.text is not None and self.line is not None:
            lines = self.text.splitlines()
            if 1 <= self.line <= len(lines):
                src = lines[self.line - 1].expandtabs(1)
                out.append("  " + src)
                if self.column is not None:
                    out.append("  " + " " * (max(self.column, 1) - 1) + "^")
        if self.expected:
            out.append(f"expected: {self.expected}")
        return "\n".join(out)


def report_error(err: RsplarsError) -> int:
    """Print a user error without a traceback and return the exit code 2. A SourceError starts with
    FILE:LINE:COLUMN; anything else is prefixed with the program name."""
    print(err if isinstance(err, SourceError) else f"rsplars: {err}", file=sys.stderr)
    return EXIT_USAGE
