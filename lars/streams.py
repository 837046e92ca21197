"""Reading LARS data streams (spec §1; LARS streams S = (T, υ), seed 000 §2.3).

Two text formats, both keeping the **arrival order** of atoms (it decides tuple windows, D11):

* text, one time point per line: ``T: atom, atom, …`` (order within a line = arrival order; a
  line ``T:`` with no atoms records an empty time point; blank lines and lines starting with ``%``
  are ignored; several lines may have the same T, which appends to it);
* JSON lines: ``{"t": T, "atoms": ["a(1)", …]}`` (blank lines ignored).

Time points must not decrease from one line to the next. A repeated atom at the same time point is
kept once, at its first arrival (``υ(t)`` is a set). Atoms must be ground: constants, integers,
strings and function terms, written as clingo prints them (``p(a,1,"s")``, ``q``).

Ground atoms are read by a small hand-written scanner (streams can hold millions of atoms; Lark
would be the bottleneck). It reads the ground atoms as ``lars.printer.format_atom`` prints them into
the same model as ``lars.syntax.parse_atom`` (a property test checks both agree).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Iterable

from lars.accounting import OUT_OF_ORDER, Accounting, reject_or_raise
from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Constant, Function, Integer, Stream, String

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<name>[a-z][A-Za-z0-9_]*)
  | (?P<int>-?[0-9]+)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<punct>[(),])
    """,
    re.VERBOSE,
)
_TIME_PREFIX = re.compile(r"\s*(-?[0-9]+)\s*:")

# Fast path for the common case (flat atoms, no nested function terms): one regex check per line,
# and each distinct atom text is converted once. Anything else goes through the scanner below.
_ARG = r'-?[0-9]+|[a-z][A-Za-z0-9_]*|"(?:\\.|[^"\\\n])*"'
_FLAT_ATOM = rf"([a-z][A-Za-z0-9_]*)(?:\(\s*((?:{_ARG})(?:\s*,\s*(?:{_ARG}))*)\s*\))?"
_FLAT_ATOM_RE = re.compile(_FLAT_ATOM)
_FLAT_LIST_RE = re.compile(rf"\s*(?:{_FLAT_ATOM}(?:\s*,\s*{_FLAT_ATOM})*)?\s*")
_ARG_RE = re.compile(_ARG)
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class _AtomError(Exception):
    def __init__(self, message: str, offset: int, expected: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.expected = expected


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


class _Scanner:
    """Recursive descent over the tokens of a text holding ground atoms separated by commas."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.tokens: list[tuple[str, str, int]] = []
        pos = start
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None and (text[pos].isupper() or text[pos] == "_"):
                raise _AtomError("stream atoms must be ground: no variables", pos, "a constant, integer or string")
            if m is None:
                raise _AtomError(f"unexpected character {text[pos]!r}", pos, "an atom such as p(a,1,\"s\")")
            kind = m.lastgroup
            assert kind is not None
            if kind != "ws":
                self.tokens.append((kind, m.group(), pos))
            pos = m.end()
        self.end = pos
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "", self.end)

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        self.i += 1
        return token

    def expect(self, value: str) -> None:
        kind, text, pos = self.take()
        if text != value:
            raise _AtomError(f"unexpected {text!r}" if kind != "end" else "unexpected end of line", pos, repr(value))

    def term(self) -> Constant | Integer | String | Function:
        kind, text, pos = self.take()
        if kind == "int":
            return Integer(int(text))
        if kind == "string":
            return String(_unescape(text[1:-1]))
        if kind == "name":
            if self.peek()[1] == "(":
                return Function(text, self.arguments())
            return Constant(text)
        what = "end of line" if kind == "end" else repr(text)
        raise _AtomError(f"unexpected {what}", pos, "a ground term (constant, integer, string, f(…))")

    def arguments(self) -> tuple:
        self.expect("(")
        args = [self.term()]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.term())
        self.expect(")")
        return tuple(args)

    def atom(self) -> Atom:
        kind, text, pos = self.take()
        if kind != "name":
            what = "end of line" if kind == "end" else repr(text)
            raise _AtomError(f"unexpected {what}", pos, "an atom such as p or p(a,1,\"s\")")
        if self.peek()[1] == "(":
            return Atom(text, self.arguments())
        return Atom(text)

    def atoms(self) -> list[Atom]:
        """``atom, atom, …`` up to the end (possibly none)."""
        out: list[Atom] = []
        if self.peek()[0] == "end":
            return out
        out.append(self.atom())
        while self.peek()[0] != "end":
            self.expect(",")
            out.append(self.atom())
        return out


def _flat_term(text: str) -> Constant | Integer | String:
    if text[0] == '"':
        return String(_unescape(text[1:-1]))
    if text[0] == "-" or text[0].isdigit():
        return Integer(int(text))
    return Constant(text)


class _AtomCache(dict):
    """Atom text → Atom, for the flat atoms of the fast path (streams repeat atoms a lot)."""

    def __missing__(self, text: str) -> Atom:
        m = _FLAT_ATOM_RE.fullmatch(text)
        assert m is not None
        name, args = m.group(1), m.group(2)
        atom = Atom(name, tuple(_flat_term(a) for a in _ARG_RE.findall(args)) if args is not None else ())
        self[text] = atom
        return atom


def _atoms_of(text: str, start: int, cache: _AtomCache) -> list[Atom]:
    """The atoms of ``text[start:]`` (``atom, atom, …``); raises ``_AtomError`` on bad input."""
    if _FLAT_LIST_RE.fullmatch(text, start):
        return [cache[m.group(0)] for m in _FLAT_ATOM_RE.finditer(text, start)]
    return _Scanner(text, start).atoms()


def parse_ground_atom(text: str, source: str = "<atom>") -> Atom:
    """One ground atom (``p(a,1,"s")``); errors are :class:`SourceError`."""
    try:
        scanner = _Scanner(text)
        atom = scanner.atom()
        if scanner.peek()[0] != "end":
            raise _AtomError(f"unexpected {scanner.peek()[1]!r}", scanner.peek()[2], "end of atom")
        return atom
    except _AtomError as err:
        raise SourceError(err.message, source=source, line=1, column=err.offset + 1, text=text, expected=err.expected) from None


class _Builder:
    """Collects time points in order, checking that time does not decrease."""

    def __init__(self, source: str, text: str, accounting: Accounting | None = None) -> None:
        self.source = source
        self.text = text
        self.accounting = accounting
        self.points: dict[int, list[Atom]] = {}
        self.seen: dict[int, set[Atom]] = {}
        self.last: int | None = None

    def add(self, t: int, atoms: Iterable[Atom], line: int, column: int) -> None:
        if self.last is not None and t < self.last:
            reject_or_raise(self.accounting, SourceError(
                f"time point {t} comes after {self.last}: time points must not decrease",
                source=self.source,
                line=line,
                column=column,
                text=self.text,
            ), OUT_OF_ORDER)
            return
        self.last = t
        bucket = self.points.setdefault(t, [])
        seen = self.seen.setdefault(t, set())
        before = len(bucket)
        atoms = list(atoms)
        for atom in atoms:
            if atom not in seen:
                seen.add(atom)
                bucket.append(atom)
        if self.accounting is not None:
            self.accounting.count_read(len(atoms))
            self.accounting.duplicates += len(atoms) - (len(bucket) - before)

    def stream(self) -> Stream:
        return Stream({t: tuple(atoms) for t, atoms in self.points.items()})


def parse_stream_text(text: str, source: str = "<stream>", accounting: Accounting | None = None) -> Stream:
    """``T: atom, atom, …`` per line (see the module docstring). ``accounting`` counts the atoms
    read and the duplicates and, skipping bad elements, records bad lines instead of raising."""
    if accounting is not None and accounting.skip_bad:
        return _by_line(parse_stream_text, text, source, accounting)
    builder = _Builder(source, text, accounting)
    cache = _AtomCache()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        m = _TIME_PREFIX.match(line)
        if m is None:
            column = len(line) - len(line.lstrip()) + 1
            raise SourceError(
                "a stream line starts with a time point and a colon",
                source=source,
                line=number,
                column=column,
                text=text,
                expected="T: atom, atom, …",
            )
        try:
            atoms = _atoms_of(line, m.end(), cache)
        except _AtomError as err:
            raise SourceError(
                err.message, source=source, line=number, column=err.offset + 1, text=text, expected=err.expected
            ) from None
        builder.add(int(m.group(1)), atoms, number, m.start(1) + 1)
    return builder.stream()


def parse_stream_jsonl(text: str, source: str = "<stream>", accounting: Accounting | None = None) -> Stream:
    """``{"t": T, "atoms": ["a(1)", …]}`` per line (see the module docstring); ``accounting`` as
    for :func:`parse_stream_text`."""
    if accounting is not None and accounting.skip_bad:
        return _by_line(parse_stream_jsonl, text, source, accounting)
    builder = _Builder(source, text, accounting)
    cache = _AtomCache()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        indent = len(line) - len(line.lstrip()) + 1

        def fail(message: str, column: int = indent, expected: str | None = None) -> SourceError:
            return SourceError(message, source=source, line=number, column=column, text=text, expected=expected)

        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise fail(f"invalid JSON: {err.msg}", err.colno) from None
        if not isinstance(record, dict) or "t" not in record or "atoms" not in record:
            raise fail("a stream record is an object with the keys \"t\" and \"atoms\"", expected='{"t": 0, "atoms": ["a(1)"]}')
        t = record["t"]
        if not isinstance(t, int) or isinstance(t, bool):
            raise fail(f"\"t\" must be an integer time point, not {t!r}", _column_of(line, '"t"', indent))
        raw = record["atoms"]
        if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
            raise fail("\"atoms\" must be a list of strings", _column_of(line, '"atoms"', indent))
        atoms = []
        for item in raw:
            try:
                if item in cache or _FLAT_ATOM_RE.fullmatch(item):
                    atoms.append(cache[item])
                else:
                    atoms.append(parse_ground_atom(item))
            except SourceError as err:
                raise fail(f"in atom {item!r}: {err.message}", _column_of(line, json.dumps(item), indent), err.expected) from None
        builder.add(t, atoms, number, _column_of(line, '"t"', indent))
    return builder.stream()


def _by_line(parse, text: str, source: str, accounting: Accounting) -> Stream:
    """The counted reading: each line parsed alone (at its own line number, so errors keep their
    position), a bad line rejected through ``accounting``, the time points merged in order."""
    builder = _Builder(source, text, accounting)
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.strip().startswith("%"):
            continue
        within = Accounting()  # the line's own duplicates, which parse() drops
        try:
            part = parse(line, source, within)
        except SourceError as err:
            reject_or_raise(accounting, SourceError(err.message, source=source, line=number, column=err.column,
                                                    text=text, expected=err.expected))
            continue
        accounting.duplicates += within.duplicates
        accounting.count_read(within.duplicates)
        for t, atoms in part.items():
            builder.add(t, atoms, number, 1)
    return builder.stream()


def _column_of(line: str, needle: str, default: int) -> int:
    index = line.find(needle)
    return index + 1 if index >= 0 else default


def _looks_like_jsonl(text: str) -> bool:
    """Auto-detection: the first non-blank, non-comment character is ``{``."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            return stripped.startswith("{")
    return False


def read_stream(path: str, format: str = "auto", accounting: Accounting | None = None) -> Stream:
    """Read a stream file (``-`` = standard input) in ``text``, ``jsonl`` or ``auto`` format."""
    if format not in ("auto", "text", "jsonl"):
        raise RsplarsError(f"unknown stream format {format!r} (auto, text or jsonl)")
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as err:
        raise SourceError(f"cannot read the stream: {err.strerror or err}", source=source) from None
    except UnicodeDecodeError as err:
        raise SourceError(f"the stream is not UTF-8 text ({err.reason})", source=source) from None
    if format == "jsonl" or (format == "auto" and _looks_like_jsonl(text)):
        return parse_stream_jsonl(text, source, accounting)
    return parse_stream_text(text, source, accounting)
