"""Codepoint escape sequences of a query text (SPARQL 1.1 Query §19.2), replaced before parsing.

§19.2: "A SPARQL query string is processed for codepoint escape sequences before parsing by the
grammar": ``\\uXXXX`` (U+0000–U+FFFF) and ``\\UXXXXXXXX`` (U+0000–U+10FFFF) stand for their code
point *anywhere* in the text — keywords (``SEL\\u0045CT``), names (``\\u03B1:a``), IRIs, strings and
comments — and may produce characters with meaning in the grammar (``a\\u003Ab`` is ``a:b``). Only
escapes of characters legal at that point may be given: the grammar then judges the result.

A backslash that is itself escaped does not start a codepoint escape: ``"\\\\u0061"`` is the
six characters ``\\u0061`` (a string escape ``\\\\`` followed by ``u0061``), as in Jena
(JavaCC's unicode-escape rule, Java Language Specification §3.3: a ``\\`` begins an escape only
after an even number of backslashes) and Oxigraph. A surrogate code point (U+D800–U+DFFF) is not a
character (Unicode's scalar values exclude it, as the SPARQL 1.2 draft writes out): its escape is an
error, also as half of a UTF-16 pair (Oxigraph refuses it too).

:func:`unescape` gives the replaced text and a :class:`SourceMap` that maps positions of the
replaced text back to the written text, so that errors keep the user's line and column.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

__all__ = ["SourceMap", "unescape", "has_escapes"]

_ESCAPE = re.compile(r"\\+(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))|\\+[uU]")


def has_escapes(text: str) -> bool:
    """Whether ``text`` may hold a codepoint escape (the fast path of the parser skips the rest)."""
    return "\\u" in text or "\\U" in text


@dataclass(frozen=True)
class SourceMap:
    """Offsets of the replaced text → offsets of the written text: ``starts[k]`` (replaced) maps to
    ``origins[k]`` (written); positions between two entries move with the text."""

    original: str
    replaced: str
    starts: tuple[int, ...]
    origins: tuple[int, ...]

    def offset(self, replaced_offset: int) -> int:
        k = bisect.bisect_right(self.starts, replaced_offset) - 1
        if k < 0:
            return replaced_offset
        return self.origins[k] + (replaced_offset - self.starts[k])

    def position(self, line: int, column: int) -> tuple[int, int]:
        """(line, column) of the written text for a 1-based (line, column) of the replaced text."""
        lines = self.replaced.split("\n")
        if not 1 <= line <= len(lines):
            return line, column
        offset = sum(len(x) + 1 for x in lines[: line - 1]) + column - 1
        original = self.offset(offset)
        start = self.original.rfind("\n", 0, original) + 1
        return self.original.count("\n", 0, original) + 1, original - start + 1


class EscapeError(ValueError):
    """A codepoint escape that stands for no character; ``offset`` is its place in the written text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def unescape(text: str) -> SourceMap:
    """The text with its codepoint escapes replaced (module docstring). Raises :class:`EscapeError`
    for an escape of a surrogate code point or of a number above U+10FFFF, or a ``\\u`` without
    4 hex digits (``\\U`` without 8)."""
    out: list[str] = []
    starts: list[int] = [0]
    origins: list[int] = [0]
    last = 0
    length = 0
    for m in _ESCAPE.finditer(text):
        slashes = len(m.group()) - len(m.group().lstrip("\\"))
        backslash = m.start() + slashes - 1  # the backslash right before u/U
        if slashes % 2 == 0:  # an escaped backslash: not an escape
            continue
        if m.group(1) is None and m.group(2) is None:
            raise EscapeError("a codepoint escape needs 4 hex digits after \\u and 8 after \\U", backslash)
        code = int(m.group(1) or m.group(2), 16)
        if code > 0x10FFFF:
            raise EscapeError(f"U+{code:X} is beyond the last code point U+10FFFF", backslash)
        if 0xD800 <= code <= 0xDFFF:
            raise EscapeError(f"U+{code:04X} is a surrogate code point, not a character (write \\U{0:08X} "
                              "with the character's own code point)".replace("00000000", "XXXXXXXX"), backslash)
        piece = text[last:backslash]
        out.append(piece)
        out.append(chr(code))
        length += len(piece) + 1
        last = m.end()
        starts.append(length)
        origins.append(last)
    out.append(text[last:])
    return SourceMap(text, "".join(out), tuple(starts), tuple(origins))
