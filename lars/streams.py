"""Reading LARS data streams (D1; LARS streams S = (T, υ), Dao-Tran, Beck, Eiter 2015, §2.3).

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

import itertools
import operator
import json
import re
from typing import Any, Callable, Generic, Iterable, Iterator, Sized, TypeVar

from lars.accounting import OUT_OF_ORDER, Accounting, reject_or_raise
from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Constant, Function, Integer, Stream, String, Term

class _Lazy:
    """A regular expression compiled on first use (start-up of ``rsplars lars``: the patterns of
    the general reading paths are not compiled when every line takes the canonical one)."""

    __slots__ = ("args", "compiled")

    def __init__(self, *args) -> None:
        self.args = args
        self.compiled = None

    def __getattr__(self, name: str):
        compiled = object.__getattribute__(self, "compiled")
        if compiled is None:
            compiled = re.compile(*object.__getattribute__(self, "args"))
            object.__setattr__(self, "compiled", compiled)
        return getattr(compiled, name)


_TOKEN = _Lazy(
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
_FLAT_ATOM_RE = _Lazy(_FLAT_ATOM)
_FLAT_LIST_RE = _Lazy(rf"\s*(?:{_FLAT_ATOM}(?:\s*,\s*{_FLAT_ATOM})*)?\s*")
_ARG_RE = _Lazy(_ARG)
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class _AtomError(Exception):
    def __init__(self, message: str, offset: int, expected: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.expected = expected


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


_STRING_TEXT = re.compile(r'"((?:\\.|[^"\\\n])*)"')  # one string token of _TOKEN, nothing else


def parse_string_text(text: str) -> String | None:
    """The string whose LARS text is ``text`` (one string token, escapes undone as the scanner
    undoes them), ``None`` if ``text`` is not exactly one string token."""
    m = _STRING_TEXT.fullmatch(text)
    if m is None:
        return None
    body = m.group(1)
    if "\\" not in body:
        return String(body)
    plain = body.replace('\\"', '"')  # the common escape (an N-Triples literal's quotes) alone?
    return String(plain if "\\" not in body.replace('\\"', "") else _unescape(body))


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


# The fast path of the text format: a line of flat atoms without strings (``p(a,1), q``) is split
# by one regex; each atom is looked up by its (name, arguments) text, and a new one is built from
# its arguments, each term looked up by its text. Equal atoms written alike share one object.
_PLAIN_ATOM_RE = re.compile(r"([a-z][A-Za-z0-9_]*)(?:\(([^()\"]*)\))?")
_CACHE_LIMIT = 10_000  # + 4 × the atoms of a time point: entries of the reader's caches


class _FastAtoms:
    """(name, argument text) → Atom, and term text → term, for the fast path of the text format.

    The caches are cleared when they exceed ``_CACHE_LIMIT`` + 4 × (atoms of the last time point)
    entries, and only between time points, so that memory follows the distinct atoms of recent time
    points, not the stream's length."""

    def __init__(self) -> None:
        self.atoms: dict[tuple[str, str], Atom] = {}
        self.terms: dict[str, Term] = {}

    def trim(self, width: int) -> None:
        """Between time points: clear the caches when they hold far more than a time point's atoms
        (a stream of fresh atoms never hits them; a repeating one keeps its atoms cached)."""
        limit = _CACHE_LIMIT + 4 * width
        if len(self.atoms) > limit:
            self.atoms.clear()
        if len(self.terms) > limit:
            self.terms.clear()

    def parse(self, text: str, start: int) -> list[Atom]:
        atoms, terms = self.atoms, self.terms
        out = []
        for key in _PLAIN_ATOM_RE.findall(text, start):
            atom = atoms.get(key)
            if atom is None:
                name, args = key
                if args:
                    parts = []
                    texts = []
                    for a in args.split(","):
                        a = a.strip()
                        term = terms.get(a)
                        if term is None:
                            term = terms[a] = Integer(int(a)) if (a[0] == "-" or a[0].isdigit()) else Constant(a)
                        parts.append(term)
                        texts.append(str(term.value) if type(term) is Integer else a)
                    canonical = (name, ",".join(texts))  # equal atoms written differently: one object
                    atom = atoms.get(canonical)
                    if atom is None:
                        atom = atoms[canonical] = Atom(name, tuple(parts))
                else:
                    atom = Atom(name)
                atoms[key] = atom
            out.append(atom)
        return out


def iter_stream_text(
    lines: Iterable[str], source: str = "<stream>", text: str | None = None, notify: bool = False,
    accounting: Accounting | None = None,
) -> Iterator[tuple[int, tuple[Atom, ...] | None]]:
    """The time points of a stream in the text format, in order, each with its atoms (arrival
    order, a repeated atom kept once), yielded as soon as the next time point (or the end) is read:
    a stream read from a pipe is evaluated as it arrives, in memory bounded by one time point.
    ``text``: the whole text when known (error messages quote the offending line either way).
    ``notify``: also yield ``(T, None)`` as soon as a line of a new time point T is read (every
    earlier time point is then complete, while T may still get more lines). ``accounting`` counts,
    as each time point is complete, the atoms read and the duplicates among them (it does not skip:
    a bad line raises its located error)."""
    fast = _FastAtoms()
    cache = _AtomCache()
    current: int | None = None
    bucket: list[Atom] = []
    seen: set[Atom] = set()
    plain = True  # every atom of the current time point came from the fast path (equal ⇔ same object)

    def error(message: str, number: int, column: int, line: str, expected: str | None = None) -> SourceError:
        quoted = text if text is not None else "\n" * (number - 1) + line
        return SourceError(message, source=source, line=number, column=column, text=quoted, expected=expected)

    # a time point given by one line whose text repeats the previous such line (a repeating
    # stream) gets the previous time point's atoms without parsing: the same tuple object, which
    # the solver's stream index recognises too
    last_body: str | None = None
    last_tuple: tuple[Atom, ...] | None = None
    single = False  # the current time point is one line so far
    body_now: str | None = None
    shared: tuple[Atom, ...] | None = None

    raw = 0  # atoms read at the current time point, repeats included (for ``accounting``)
    last_raw = 0

    def finish() -> tuple[Atom, ...]:
        nonlocal last_body, last_tuple, last_raw
        out = shared if (single and shared is not None) else tuple(bucket)
        last_body, last_tuple = (body_now, out) if single else (None, None)
        last_raw = raw if single else 0
        if accounting is not None:
            accounting.duplicates += raw - len(out)
        return out

    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        m = _TIME_PREFIX.match(line)
        if m is None:
            column = len(line) - len(line.lstrip()) + 1
            raise error("a stream line starts with a time point and a colon", number, column, line, "T: atom, atom, …")
        t = int(m.group(1))
        if current is not None and t < current:
            raise error(f"time point {t} comes after {current}: time points must not decrease", number, m.start(1) + 1, line)
        start = m.end()
        body = line[start:]
        previous = finish() if (t != current and current is not None) else None
        reuse = t != current and last_tuple is not None and body == last_body
        if not reuse:
            try:
                if '"' not in line and _FLAT_LIST_RE.fullmatch(line, start):
                    atoms, fresh_plain = fast.parse(line, start), True
                else:
                    atoms, fresh_plain = _atoms_of(line, start, cache), False
            except _AtomError as err:
                raise error(err.message, number, err.offset + 1, line, err.expected) from None
        if t != current:
            raw = 0
        read = last_raw if reuse else len(atoms)
        raw += read
        if accounting is not None:
            accounting.count_read(read)  # as it is read; the duplicates once the time point is complete
        if t != current:
            if current is not None:
                assert previous is not None
                yield current, previous
                fast.trim(len(previous))
                if len(cache) > _CACHE_LIMIT + 4 * len(previous):
                    cache.clear()
            if notify:
                yield t, None
            current, bucket, seen, plain = t, [], set(), True
            body_now, shared = body, None
            if reuse:
                shared = last_tuple
                bucket = list(shared)  # type: ignore[arg-type]
                single = True
                continue
            single = True
        else:
            single = False
        if plain and fresh_plain and not bucket:
            # one plain line per time point (the common case): dedupe by identity
            bucket = list({id(a): a for a in atoms}.values())
            continue
        if plain and bucket:
            seen = set(bucket)
        plain = False
        for atom in atoms:
            if atom not in seen:
                seen.add(atom)
                bucket.append(atom)
    if current is not None:
        yield current, finish()


def parse_stream_text(text: str, source: str = "<stream>", accounting: Accounting | None = None) -> Stream:
    """``T: atom, atom, …`` per line (see the module docstring). ``accounting`` counts the atoms
    read and the duplicates and, skipping bad elements, records bad lines instead of raising; without
    it the fast reader :func:`iter_stream_text` reads the text."""
    if accounting is None:
        return Stream(dict(iter_stream_text(text.splitlines(), source, text)))  # type: ignore[arg-type]
    if accounting.skip_bad:
        return _by_line(parse_stream_text, text, source, accounting)
    return Stream(dict(iter_stream_text(text.splitlines(), source, text, accounting=accounting)))  # type: ignore[arg-type]


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


STREAM_FORMATS = ("auto", "text", "jsonl")


def parse_stream(text: str, source: str = "<stream>", format: str = "auto",
                 accounting: Accounting | None = None) -> Stream:
    """A stream text in the ``text`` or ``jsonl`` format, or either (``auto``: JSON lines when the
    first character that is not blank nor in a comment is ``{``)."""
    if format not in STREAM_FORMATS:
        raise RsplarsError(f"unknown stream format {format!r} (auto, text or jsonl)")
    if format == "jsonl" or (format == "auto" and _looks_like_jsonl(text)):
        return parse_stream_jsonl(text, source, accounting)
    return parse_stream_text(text, source, accounting)


#: what a time point of a :class:`LiveStream` holds: its atoms (a tuple), or rows (:class:`LiveRows`)
Point = TypeVar("Point", bound=Sized)


class LiveStream(Generic[Point]):
    """A LARS stream read while it is evaluated (a pipe, or a file too long to hold): the time points
    of ``points`` (an iterator of ``(t, atoms)`` in increasing t, e.g. :func:`iter_stream_text`) are
    pulled on demand, and the consumer drops the ones no window needs any more
    (:meth:`forget_before`), so memory follows the windows, not the stream's length.

    ``read_past(t)`` reads until a time point later than t has arrived (or the stream ended): only
    then are the atoms at t complete (several lines may carry the same time point); an item
    ``(T, None)`` of ``points`` announces that T has begun (``iter_stream_text(notify=True)``), so
    that t < T is known complete before T is. ``timeline`` is ``(first time point, last complete
    time point)``."""

    live = True

    def __init__(self, points: Iterable[tuple[int, Point | None]], ready: "Callable[[], bool] | None" = None) -> None:
        self._it = iter(points)
        self._ready = ready  # None: reading never blocks (a file); else: is input waiting now?
        self.waiting = False
        self.complete_atoms = 0  # distinct atoms of the complete time points read so far
        self.points: dict[int, Point] = {}
        self.arrived: list[int] = []  # time points read and not yet taken by the consumer
        self.done = False
        self.last: int | None = None  # last complete time point
        self.begun: int | None = None  # latest time point begun (complete or not)
        self._pull()
        self.start = self.begun if self.begun is not None else 0

    def _pull(self) -> bool:
        self.waiting = True  # possibly blocked on input (a clean stop on SIGINT/SIGTERM then stops at once)
        try:
            t, atoms = next(self._it)
        except StopIteration:
            self.done = True
            return False
        finally:
            self.waiting = False
        self.begun = t if self.begun is None else max(self.begun, t)
        if atoms is not None:
            self.points[t] = atoms
            self.arrived.append(t)
            self.last = t
            self.complete_atoms += len(atoms)
        return True

    def read_past(self, t: int) -> None:
        """Read until every time point up to t is complete (a later one has begun, or the end)."""
        while not self.done and (self.begun is None or self.begun <= t):
            self._pull()

    def read_ahead(self, count: int, until: int | None = None) -> None:
        """Read up to ``count`` more time points (or up to time ``until``) *if that does not block*:
        a file is read ahead, a pipe only as far as input is already waiting (the solver uses what
        is known of the future to size its ground programs; it never waits for it)."""
        for _ in range(count):
            if self.done or (until is not None and self.last is not None and self.last > until):
                return
            if self._ready is not None and not self._ready():
                return
            self._pull()

    def drain(self) -> None:
        """Read the rest of the stream without keeping it (after the last evaluation time: every
        line is read, so that an error in it is found)."""
        while not self.done:
            self._pull()
            self.points.clear()
            self.arrived.clear()

    def take_arrived(self) -> list[int]:
        got, self.arrived = self.arrived, []
        return got

    def forget_before(self, t: int) -> None:
        for u in [u for u in self.points if u < t]:
            del self.points[u]

    @property
    def timeline(self) -> tuple[int, int]:
        return (self.start, self.last if self.last is not None else self.start)

    def items(self) -> Iterable[tuple[int, Any]]:
        """The time points not yet forgotten (for inspection; the solver reads ``points``)."""
        return sorted(self.points.items())


def live_times(stream: LiveStream, start: int) -> Iterator[int]:
    """Every time point from ``start`` until the live stream has ended and t is past its last one
    (the reference times of a stream read while evaluated, for either engine)."""
    t = start
    while True:
        stream.read_past(t - 1)
        if stream.done and (stream.last is None or t > stream.last):
            return
        yield t
        t += 1


def open_stream_lines(path: str) -> Iterator[str]:
    """The lines of a stream file, read lazily, with the reader's errors (the file is opened now,
    closed when its lines are read)."""
    try:
        handle = open(path, encoding="utf-8")
    except OSError as err:
        raise SourceError(f"cannot read the stream: {err.strerror or err}", source=path) from None

    def lines() -> Iterator[str]:
        with handle:
            yield from stream_lines(handle, path)

    return lines()


def stream_lines(handle: Iterable[str], source: str) -> Iterator[str]:
    """The lines of an open stream text, their line ends removed; a text that is not UTF-8 is a
    :class:`SourceError` at ``source``."""
    try:
        for line in handle:
            yield line.rstrip("\n")
    except UnicodeDecodeError as err:
        raise SourceError(f"the stream is not UTF-8 text ({err.reason})", source=source) from None


def scan_stream_text_file(path: str) -> tuple[int, int] | None:
    """Check a stream file in the text format line by line without keeping its atoms, raising the
    errors its reading would raise (same messages and positions): ``(first, last)`` time point,
    ``None`` for a stream without time points. Lets :func:`read_stream_counted` read the file
    lazily afterwards (memory bounded by the windows) with every input error found before any
    answer is printed."""
    source = path
    cache = _AtomCache()
    first: int | None = None
    current: int | None = None
    last_body: str | None = None
    for number, line in enumerate(open_stream_lines(path), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        m = _TIME_PREFIX.match(line)
        if m is None:
            column = len(line) - len(line.lstrip()) + 1
            raise SourceError("a stream line starts with a time point and a colon", source=source, line=number,
                              column=column, text="\n" * (number - 1) + line, expected="T: atom, atom, …")
        t = int(m.group(1))
        if current is not None and t < current:
            raise SourceError(f"time point {t} comes after {current}: time points must not decrease", source=source,
                              line=number, column=m.start(1) + 1, text="\n" * (number - 1) + line)
        body = line[m.end():]
        if body == last_body:  # the same atoms as the line before (checked already)
            pass
        elif '"' in line or not _FLAT_LIST_RE.fullmatch(line, m.end()):
            try:
                _atoms_of(line, m.end(), cache)
            except _AtomError as err:
                raise SourceError(err.message, source=source, line=number, column=err.offset + 1,
                                  text="\n" * (number - 1) + line, expected=err.expected) from None
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
        last_body = body
        current = t
        if first is None:
            first = t
    return None if first is None else (first, current)  # type: ignore[return-value]


_NESTED = re.compile(r"\([^()]*\(")  # a compound argument: not a flat atom
_BLANK = re.compile(r"\s")


def _bulk_rows(found: list[tuple[str, str]], line: str, start: int) -> tuple[tuple[str, int], dict] | None:
    """The rows of a flat line (``_PLAIN_ATOM_RE.findall``) built without a Python loop per atom,
    when its atoms share one predicate and arity and every argument is written canonically
    (the common case of generated streams); ``None`` otherwise (read atom by atom)."""
    if not found:
        return None
    names = set(map(_first, found))
    if len(names) != 1:
        return None
    args = list(map(_second, found))
    if "" in args:
        return None
    joined = ",".join(args)  # an argument that may not be canonical: a blank, a sign, a leading zero
    if joined[0] in "-+0" or ",0" in joined or ",-" in joined or ",+" in joined or _BLANK.search(joined):
        return None
    rows = list(map(tuple, map(str.split, args, itertools.repeat(","))))
    arities = set(map(len, rows))
    if len(arities) != 1:
        return None
    return (names.pop(), arities.pop()), dict.fromkeys(rows)


_first = operator.itemgetter(0)
_second = operator.itemgetter(1)


# The canonical fast path of the row reader: a line of flat atoms written as ``lars.printer``
# prints them and separated by ", " (names, integers without sign or leading zero, no blanks inside
# an atom). One ``fullmatch`` of this pattern both checks such a line and tells that its arguments
# are canonical texts already; it is several times cheaper than ``_FLAT_LIST_RE`` (no blanks to
# skip around every comma, no strings). A line it does not match goes the general way (checked by
# ``_FLAT_LIST_RE`` or the scanner, which locates any error).
# (ASCII: \w is [A-Za-z0-9_], \d is [0-9]; possessive repeats, ``*+``: what follows each never
# starts with what it repeats, so they match the same lines, without keeping backtracking points)
_CANON_ARG = r"(?:[a-z]\w*+|0|[1-9]\d*+)"
_CANON_ATOM = rf"[a-z]\w*+(?:\({_CANON_ARG}(?:,{_CANON_ARG})*+\))?"
_CANON_LINE_RE = _Lazy(rf" *+(?:{_CANON_ATOM}(?:, {_CANON_ATOM})*+)? *", re.ASCII)


_UNIFORM_RE: dict[int, "re.Pattern[str]"] = {}


def _uniform_line(line: str, start: int) -> tuple[tuple[str, int], list[str]] | None:
    """The commonest line of a generated stream — canonical atoms of one predicate and one arity
    (``p(a,1), p(b,2)``) — checked by one ``fullmatch`` of a pattern for that arity (the
    predicate repeated by a back-reference; about three times cheaper than ``_CANON_LINE_RE``):
    ``((predicate, arity), argument texts)`` as :func:`_canonical_rows`, ``None`` for any other
    line (read the general way)."""
    i = line.find("(", start)
    if i < 0:
        return None
    arity = line.count(",", i, line.find(")", i)) + 1
    pattern = _UNIFORM_RE.get(arity)
    if pattern is None:
        if arity > 16:
            return None
        args = ",".join([_CANON_ARG] * arity)
        pattern = _UNIFORM_RE[arity] = re.compile(rf" *+([a-z]\w*+)\({args}\)(?:, \1\({args}\))*+ *", re.ASCII)
    m = pattern.fullmatch(line, start)
    if m is None:
        return None
    name = m.group(1)
    body = line[start:].strip(" ")
    return (name, arity), body[len(name) + 1:-1].split("), " + name + "(")


def _canonical_rows(body: str) -> tuple[tuple[str, int], list[str]] | None:
    """For the text of a line matched by ``_CANON_LINE_RE`` whose atoms all have arguments and one
    predicate: ``((predicate, arity), texts)``, ``texts`` being the argument texts of its atoms in
    order (``"a,1"`` for ``p(a,1)``: the canonical texts of the arguments joined by commas); ``None``
    otherwise. String operations only (``str.split``, ``str.count``), no Python loop per atom."""
    body = body.strip(" ")
    i = body.find("(")
    if i <= 0:
        return None
    name = body[:i]
    seps = body.count(", ")
    # every atom has one "(" (none are nested: the pattern matched); every separator is followed
    # by the same name: one predicate
    if body.count("(") != seps + 1 or body.count("), " + name + "(") != seps:
        return None
    args = body[i + 1:-1].split("), " + name + "(")
    arity = args[0].count(",") + 1
    if set(map(str.count, args, itertools.repeat(","))) != {arity - 1}:  # one arity
        return None
    return (name, arity), args


def _rows_of_texts(texts: Iterable[str], arity: int) -> Iterator[tuple[str, ...]]:
    """The rows of argument texts of canonical atoms (``"a,1"`` -> ``("a", "1")``), in bulk."""
    if arity == 1:
        return zip(texts)
    flat = ",".join(texts).split(",")
    return zip(*[flat[k::arity] for k in range(arity)])


class _Texts(dict):
    """The atoms of one signature at one time point as their argument texts (keys), not yet rows:
    for a signature read only by □ windows (:func:`isolated_box_signatures`), whose atoms become
    rows only if they occur at a neighbouring time point too (:func:`_drop_isolated`)."""

    __slots__ = ()

    def rows(self, arity: int) -> dict:
        return dict.fromkeys(_rows_of_texts(self, arity))


def iter_stream_rows(lines: Iterable[str], source: str = "<stream>", accounting: Accounting | None = None,
                     checked: bool = False, texts: frozenset = frozenset()) -> Iterator[tuple[int, dict | None]]:
    """The time points of a stream in the text format as ``{(predicate, arity): {row: None}}``, a
    row being the tuple of the canonical texts of the atom's arguments (``lars.printer``), for the
    incremental engine (``lars.incremental``), which keeps terms as their text: no term or atom
    objects are built for flat lines. Yields ``(T, None)`` when T begins, as
    ``iter_stream_text(notify=True)``; ``accounting`` counts the atoms read and the duplicates.

    Every line is checked as it is read, by the same pass that reads it: a bad line raises the
    error :func:`scan_stream_text_file` and :func:`iter_stream_text` raise (same message, line,
    column and quoted line), once the time points before it have been yielded. ``checked``: the
    input was checked already (:func:`scan_stream_text_file`), so a line without strings or nested
    parentheses is known to be flat. ``texts``: signatures whose atoms, when a time point is one
    canonical line, are given as :class:`_Texts` (argument texts) instead of rows, for
    :func:`_drop_isolated`."""
    from lars.printer import format_term

    current: int | None = None
    rows: dict = {}
    known: dict[str, tuple[str, ...]] = {}  # argument text -> row (cleared when large)
    cache = _AtomCache()
    # a time point of one line repeating the previous such line shares its rows (read-only)
    last_body: str | None = None
    last_rows: dict | None = None
    last_counts = (0, 0)
    shared = False
    lines_now = 0  # lines of the current time point so far
    body_now: str | None = None  # the text after the time of its first line

    def error(message: str, number: int, column: int, line: str, expected: str | None = None) -> SourceError:
        return SourceError(message, source=source, line=number, column=column, text="\n" * (number - 1) + line,
                           expected=expected)

    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        m = _TIME_PREFIX.match(line)
        if m is None:
            raise error("a stream line starts with a time point and a colon", number,
                        len(line) - len(line.lstrip()) + 1, line, "T: atom, atom, …")
        t = int(m.group(1))
        if t != current:
            if current is not None:
                if current > t:
                    raise error(f"time point {t} comes after {current}: time points must not decrease",
                                number, m.start(1) + 1, line)
                yield current, rows
                if len(known) > _CACHE_LIMIT + 4 * sum(map(len, rows.values())):
                    known.clear()
            yield t, None
            if lines_now == 1:
                last_body, last_rows = body_now, rows
            else:
                last_body = last_rows = None
            current, rows, lines_now, shared = t, {}, 0, False
            start = m.end()
            body_now = line[start:]
            if body_now == last_body and last_rows is not None:  # the same text as a line read (checked) before
                rows, shared, lines_now = last_rows, True, 1
                if accounting is not None:
                    accounting.count_read(last_counts[0])
                    accounting.duplicates += last_counts[1]
                continue
        lines_now += 1
        if shared:
            rows = {sig: got.rows(sig[1]) if type(got) is _Texts else dict(got) for sig, got in rows.items()}
            shared = False
        elif texts and lines_now > 1:  # a second line of the time point: rows throughout
            for sig, got in rows.items():
                if type(got) is _Texts:
                    rows[sig] = got.rows(sig[1])
        start = m.end()
        before = sum(map(len, rows.values()))
        read = 0
        bulk = _uniform_line(line, start) if '"' not in line else None
        fast = bulk is not None
        if not fast:
            fast = '"' not in line and _CANON_LINE_RE.fullmatch(line, start) is not None
            bulk = _canonical_rows(line[start:]) if fast else None
        if bulk is not None:  # canonical, one predicate: the rows in bulk
            sig, args = bulk
            read = len(args)
            got = rows.get(sig)
            if got is None:
                rows[sig] = _Texts.fromkeys(args) if sig in texts and lines_now == 1 else dict.fromkeys(_rows_of_texts(args, sig[1]))
            else:
                got.update(dict.fromkeys(_rows_of_texts(args, sig[1])))
        elif fast or ('"' not in line and (_NESTED.search(line, start) is None if checked
                                           else _FLAT_LIST_RE.fullmatch(line, start))):
            found = _PLAIN_ATOM_RE.findall(line, start)
            bulk_rows = None if fast else _bulk_rows(found, line, start)
            if bulk_rows is not None:  # one predicate, one arity, every argument canonical: rows in bulk
                sig, got_rows = bulk_rows
                read = len(found)
                got = rows.get(sig)
                if got is None:
                    rows[sig] = got_rows
                else:
                    got.update(got_rows)
                found = []
            for name, args in found:
                read += 1
                if args:
                    row = known.get(args)
                    if row is None:
                        if (" " in args or "\t" in args or args[0] in "-+0" or ",0" in args or ",-" in args
                                or ",+" in args):  # blanks, or an integer written with a sign or zeros printing drops
                            row = tuple([str(int(a)) if (a[0] == "-" or a[0].isdigit()) else a
                                         for a in (x.strip() for x in args.split(","))])
                        else:  # every argument is its canonical text already
                            row = tuple(args.split(","))
                        known[args] = row
                    sig = (name, len(row))
                else:
                    row, sig = (), (name, 0)
                got = rows.get(sig)
                if got is None:
                    rows[sig] = {row: None}
                else:
                    got[row] = None
        else:
            try:
                atoms = _atoms_of(line, start, cache)
            except _AtomError as err:
                raise error(err.message, number, err.offset + 1, line, err.expected) from None
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            for a in atoms:
                read += 1
                rows.setdefault((a.predicate, len(a.args)), {})[tuple([format_term(x) for x in a.args])] = None
        last_counts = (read, read - (sum(map(len, rows.values())) - before))
        if accounting is not None:
            accounting.count_read(last_counts[0])
            accounting.duplicates += last_counts[1]
    if current is not None:
        yield current, rows


class LiveRows(LiveStream[dict]):
    """A :class:`LiveStream` whose time points hold rows (:func:`iter_stream_rows`), not atoms."""

    rows = True

    def items(self) -> Iterable[tuple[int, tuple]]:
        return sorted((t, tuple((sig, row) for sig, got in rows.items() for row in got)) for t, rows in self.points.items())


def isolated_box_signatures(program) -> frozenset[tuple[str, int]]:
    """The signatures of ``program`` read only by □ time windows of step 1 spanning at least two
    time points once t is past the first one (``always [w]``, w ≥ 1 ticks, or ``always [all]``;
    ``TimeWindow(l ≥ 1 or ∞, u = 0, d = 1)``): nowhere else (no head, fact, plain, ◇ or @ literal,
    aggregate, other window). For such a signature an atom occurring at a time point u other than
    the stream's first, but neither at u − 1 nor at u + 1, is in no □ window that holds (Beck et
    al., AAAI 2015, §2: ⊞^w □a holds at t iff a occurs at every point of [max(tmin, t − w), t],
    which holds u and u − 1 or u + 1 whenever it holds u and t > tmin): dropping it changes no
    answer (:func:`_drop_isolated`). Laser (§4) keeps such atoms only while their consideration
    time can still make them hold."""
    from dataclasses import fields, is_dataclass

    from lars.model import Atom, Box, TimeWindow

    box: set[tuple[str, int]] = set()
    other: set[tuple[str, int]] = set()

    def visit(obj) -> None:
        if isinstance(obj, Atom):
            other.add((obj.predicate, len(obj.args)))
            return
        if isinstance(obj, Box):
            w = obj.window
            if isinstance(w, TimeWindow) and w.d == 1 and w.u == 0 and (w.l is None or w.l >= 1):
                box.add((obj.atom.predicate, len(obj.atom.args)))
                return
        if isinstance(obj, (tuple, list)):
            for x in obj:
                visit(x)
        elif is_dataclass(obj) and not isinstance(obj, type):
            for f in fields(obj):
                visit(getattr(obj, f.name))

    visit(program)
    return frozenset(box - other)


def _drop_isolated(points: Iterator[tuple[int, dict | None]], sigs: frozenset) -> Iterator[tuple[int, dict | None]]:
    """The time points of :func:`iter_stream_rows` (``texts=sigs``) with the atoms of ``sigs``
    that occur at neither neighbouring time point dropped (see :func:`isolated_box_signatures`),
    the others turned into rows; every other signature as read. Each time point is given once the
    next one is complete (``(T, None)`` then ``(T, rows)``). Where a neighbour's atoms are not
    known as texts (several lines, a line not in the canonical form) nothing is dropped. A time
    point whose atoms all stay keeps its rows object (a repeated line shares its rows)."""
    unknown = object()
    first: int | None = None
    pending: tuple[int, dict] | None = None
    before: tuple[int, dict] | None = None  # the time point given last: its atoms of sigs, as read

    def occurring(point: tuple[int, dict] | None, t: int, sig) -> object:
        if point is None or point[0] != t:
            return ()  # no such time point: nothing occurs
        got = point[1].get(sig)
        return () if got is None else got if type(got) is _Texts else unknown

    full: dict = {}  # sig -> (texts, their rows): a time point repeating a line gets the same rows object
    apart: dict = {}  # sig -> (texts at t, texts at t + 1, whether they share no atom)

    def rows_of(sig, got: _Texts) -> dict:
        made = full.get(sig)
        if made is None or made[0] is not got:
            made = full[sig] = (got, got.rows(sig[1]))
        return made[1]

    def give(now: tuple[int, dict], after: tuple[int, dict] | None) -> tuple[tuple[int, dict], dict]:
        """``now`` with its texts turned into rows (a new dict: the reader shares the dict of a
        repeated line), and its atoms of sigs as read (texts, or ``unknown`` when given as rows)."""
        t, rows = now
        read: dict = {}
        out = None
        for sig in sigs:
            got = rows.get(sig)
            if got is None:
                continue
            if type(got) is not _Texts:
                read[sig] = unknown
                continue
            read[sig] = got
            prev = occurring(before, t - 1, sig)
            nxt = occurring(after, t + 1, sig)
            if out is None:
                out = dict(rows)
            if t == first or prev is unknown or nxt is unknown or prev is got or nxt is got:  # (is: a repeated line)
                out[sig] = rows_of(sig, got)
                continue
            keys = got.keys()
            known = apart.get(sig)  # whether this point and the one before share no atom, found then
            apart_before = known[2] if known is not None and known[0] is prev and known[1] is got else keys.isdisjoint(prev)  # type: ignore[arg-type]
            apart_after = keys.isdisjoint(nxt)  # type: ignore[arg-type]
            if type(nxt) is _Texts:
                apart[sig] = (got, nxt, apart_after)
            if apart_before and apart_after:
                out[sig] = {}  # fresh atoms: none stays
                continue
            keep = keys & prev  # type: ignore[operator]
            keep |= keys & nxt  # type: ignore[operator]
            if len(keep) == len(got):
                out[sig] = rows_of(sig, got)
            else:
                out[sig] = dict.fromkeys(_rows_of_texts([x for x in got if x in keep], sig[1])) if keep else {}
        return (t, rows if out is None else out), read

    try:
        for t, rows in points:
            if rows is None:
                continue
            if first is None:
                first = t
            if pending is not None:
                given, texts = give(pending, (t, rows))
                yield given[0], None
                yield given
                before = (given[0], texts)
            pending = (t, rows)
    except RsplarsError:
        if pending is not None:  # the time point before a bad line: complete, nothing dropped
            t, rows = pending
            yield t, None
            yield t, {sig: got.rows(sig[1]) if type(got) is _Texts else got for sig, got in rows.items()}
        raise
    if pending is not None:
        given, _ = give(pending, None)
        yield given[0], None
        yield given


def tail_time_point(path: str, block: int = 1 << 16) -> int | None:
    """The time point of the last line of a stream file in the text format that is neither blank
    nor a comment, read from the file's end (``None`` if there is none or it does not start with a
    time point). Since time points must not decrease, it is the stream's last one when the file
    is valid (the reader finds it out if not)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - block))
            tail = handle.read()
    except OSError:
        return None
    lines = tail.split(b"\n")
    if size > block:
        lines = lines[1:]  # the first may be cut
    for raw in reversed(lines):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        m = _TIME_PREFIX.match(line)
        return int(m.group(1)) if m is not None else None
    return None


def read_stream_counted(path: str, accounting: Accounting, rows: bool = False, check: bool = False,
                        drop: frozenset = frozenset()) -> tuple[LiveStream, tuple[int, int], dict[int, int]] | None:
    """A stream file in the text format read while it is evaluated, every line checked by the
    pass that reads it (``check``: the whole file checked first, :func:`scan_stream_text_file`, so
    that every input error comes before any answer): the :class:`LiveStream` (its errors raise
    as the reading reaches them, after the answers of the time points before), the ``(first,
    last)`` time points (``last``: :func:`tail_time_point`; the file is checked first when its last
    line has none), and the number of
    atoms of each time point read so far (for the element summary). ``None`` if the file is not in
    the text format (JSON lines are read whole) or holds no time point. ``drop`` (with ``rows``):
    signatures whose isolated atoms are dropped (:func:`isolated_box_signatures`)."""
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip() and not line.strip().startswith("%"):
                    if line.strip().startswith("{"):
                        return None
                    break
    except (OSError, UnicodeDecodeError):
        return None  # the whole reading reports it
    if check and scan_stream_text_file(path) is None:
        return None
    sizes: dict[int, int] = {}
    if rows:  # ``rows``: for the incremental engine, which reads rows of canonical texts

        def row_points() -> Iterator[tuple[int, dict | None]]:
            for t, got in iter_stream_rows(open_stream_lines(path), path, accounting=accounting, checked=check,
                                           texts=drop):
                if got is not None:
                    sizes[t] = sum(map(len, got.values()))
                yield t, got

        stream: LiveStream = LiveRows(_drop_isolated(row_points(), drop) if drop else row_points())
    else:

        def points() -> Iterator[tuple[int, tuple[Atom, ...] | None]]:
            for t, atoms in iter_stream_text(open_stream_lines(path), path, notify=True, accounting=accounting):
                if atoms is not None:
                    sizes[t] = len(atoms)
                yield t, atoms

        stream = LiveStream(points())
    if stream.begun is None:  # no time point: read whole (as before)
        return None
    last = tail_time_point(path)
    if last is None:  # the last line has no time point (an error): found by the check, before any answer
        bounds = scan_stream_text_file(path)
        if bounds is None:
            return None
        last = bounds[1]
    return stream, (stream.start, last), sizes
