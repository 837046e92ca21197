"""Errors a user can act on: what the LARS parser and stream readers raise, and the base every stage
of rsplars derives its own errors from.

The types stay in ``lars``, the lowest package of the pipeline (text → query model → LARS → ASP),
because the LARS parser raises them (:class:`SourceError`, with line and column) and ``translator``
and ``asp`` derive from :class:`RsplarsError`. How the command line reports them (exit codes,
printing without a traceback) is not part of the language: :mod:`translator.exits`.
"""

from __future__ import annotations


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

