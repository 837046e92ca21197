"""Dialect detection from the syntax of a query (``--dialect auto``).

Evidence, in the order it is looked for (first occurrence wins within a dialect):

* C-SPARQL: ``REGISTER QUERY|STREAM``, ``FROM [NAMED] STREAM``, ``AGGREGATE {``, ``timestamp(``;
* CQELS-QL: ``STREAM`` not preceded by ``FROM``/``NAMED``/``REGISTER`` (a stream graph pattern);
* EP-SPARQL: ``SEQ``, ``EQUALS``, ``OPTIONALSEQ``, ``EQUALSOPTIONAL``, ``getDURATION(``,
  ``getSTARTTIME(``, ``getENDTIME(``.

Comments, strings and IRIs are skipped. A query without any of them is plain SPARQL 1.1 and is
read as C-SPARQL (a superset of SPARQL); the reason says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import DialectMismatchError
from .model import DIALECTS, Position

NAMES = {"csparql": "C-SPARQL", "cqels": "CQELS-QL", "epsparql": "EP-SPARQL"}
#: how each dialect declares streams / events, for mismatch explanations
HOW = {
    "csparql": "C-SPARQL declares streams with FROM STREAM <s> [RANGE …] before WHERE",
    "cqels": "CQELS-QL writes STREAM <s> [RANGE …] { … } inside WHERE",
    "epsparql": "EP-SPARQL joins groups with SEQ/EQUALS/OPTIONALSEQ/EQUALSOPTIONAL and has no windows",
}

_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<comment>\#[^\n]*)
    |(?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    |(?P<word>[A-Za-z_][\w\-]*(?::[\w\-.]*)?)
    |(?P<other>.)""",
    re.X | re.S,
)
_EP_OPERATORS = {"SEQ", "EQUALS", "OPTIONALSEQ", "EQUALSOPTIONAL"}
_EP_FUNCTIONS = {"GETDURATION", "GETSTARTTIME", "GETENDTIME"}


@dataclass(frozen=True)
class Evidence:
    dialect: str
    what: str
    position: Position

    def __str__(self) -> str:
        return f"{self.what} at {self.position}"


@dataclass(frozen=True)
class Detection:
    """The dialect a query is read in and why (``reason`` is printed on stderr by the CLI)."""

    dialect: str
    reason: str
    evidence: tuple[Evidence, ...] = ()


def _words(text: str):
    """(upper-case word, position, next significant character) for every word outside comments,
    strings and IRIs."""
    line, col = 1, 1
    items: list[tuple[str, Position]] = []
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup, m.group()
        if kind == "word":
            items.append((value, Position(line, col)))
        elif kind == "other":
            items.append((value, Position(line, col)))
        newlines = value.count("\n")
        if newlines:
            line += newlines
            col = len(value) - value.rfind("\n")
        else:
            col += len(value)
    return items


def find_evidence(text: str) -> tuple[Evidence, ...]:
    """Every dialect-specific construct of ``text`` (at most one per kind and dialect)."""
    items = _words(text)
    found: dict[tuple[str, str], Evidence] = {}

    def add(dialect: str, what: str, pos: Position) -> None:
        found.setdefault((dialect, what), Evidence(dialect, what, pos))

    for i, (word, pos) in enumerate(items):
        up = word.upper()
        prev = items[i - 1][0].upper() if i else ""
        nxt = items[i + 1][0] if i + 1 < len(items) else ""
        if up == "REGISTER" and nxt.upper() in ("QUERY", "STREAM"):
            add("csparql", f"REGISTER {nxt.upper()}", pos)
        elif up == "STREAM" and prev in ("FROM", "NAMED"):
            add("csparql", "FROM STREAM", items[i - 1][1] if prev == "FROM" else items[i - 2][1])
        elif up == "STREAM" and prev != "REGISTER":
            add("cqels", "STREAM graph pattern", pos)
        elif up == "AGGREGATE" and nxt == "{":
            add("csparql", "AGGREGATE clause", pos)
        elif up == "TIMESTAMP" and nxt == "(":
            add("csparql", "timestamp()", pos)
        elif up in _EP_OPERATORS:
            add("epsparql", up, pos)
        elif up in _EP_FUNCTIONS and nxt == "(":
            add("epsparql", f"{word}()", pos)
    return tuple(sorted(found.values(), key=lambda e: (e.position.line, e.position.column)))


def detect_dialect(text: str, source: str = "<input>") -> Detection:
    """Decide the dialect of ``text`` from its syntax (module docstring)."""
    evidence = find_evidence(text)
    dialects = [d for d in DIALECTS if any(e.dialect == d for e in evidence)]
    if not dialects:
        return Detection("csparql", "no stream or event syntax found; read as C-SPARQL (plain SPARQL 1.1)")
    if len(dialects) > 1:
        firsts = [next(e for e in evidence if e.dialect == d) for d in dialects]
        second = max(firsts, key=lambda e: (e.position.line, e.position.column))
        described = "; ".join(f"{NAMES[e.dialect]}: {e}" for e in firsts)
        raise DialectMismatchError(
            f"the query mixes dialects ({described})",
            source=source,
            line=second.position.line,
            column=second.position.column,
            text=text,
            expected="one dialect; choose it with --dialect csparql|cqels|epsparql",
        )
    first = next(e for e in evidence if e.dialect == dialects[0])
    return Detection(dialects[0], str(first), evidence)


def check_forced(text: str, dialect: str, source: str = "<input>") -> DialectMismatchError | None:
    """The explanation to give when ``--dialect`` forces ``dialect`` but the text shows another
    dialect's syntax (None when nothing contradicts it)."""
    for e in find_evidence(text):
        if e.dialect != dialect:
            return DialectMismatchError(
                f"this looks like {NAMES[e.dialect]}: {e}; {HOW[dialect]}",
                source=source,
                line=e.position.line,
                column=e.position.column,
                text=text,
                expected=f"--dialect {e.dialect} (or --dialect auto)",
            )
    return None
