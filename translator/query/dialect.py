"""Dialect detection from the syntax of a query (``--dialect auto``).

Evidence, in the order it is looked for (first occurrence wins within a dialect):

* C-SPARQL: ``REGISTER QUERY|STREAM``, ``FROM [NAMED] STREAM``, ``AGGREGATE {``, ``timestamp(``;
* CQELS-QL: ``STREAM`` not preceded by ``FROM``/``NAMED``/``REGISTER``/``ON`` (a stream graph pattern);
* EP-SPARQL: ``SEQ``, ``EQUALS``, ``OPTIONALSEQ``, ``EQUALSOPTIONAL``, ``getDURATION(``,
  ``getSTARTTIME(``, ``getENDTIME(``, ``WITHIN``;
* RSP-QL (W3C RSP community group syntax): ``REGISTER RSTREAM|ISTREAM|DSTREAM``,
  ``FROM NAMED WINDOW``, ``WINDOW <w> {`` / ``WINDOW ?w {`` (a window graph pattern),
  ``SELECT|CONSTRUCT RSTREAM|ISTREAM|DSTREAM`` (the group's drafts); beside RSP-QL evidence,
  ``REGISTER STREAM`` is RSP-QL's too (the drafts register queries so);
* RSEP-QL (Dell'Aglio et al. 2016, Example 4): ``WIN [`` (``FROM NAMED <s> WIN [LND t0] AS <w>``),
  ``EVENT ON``, ``MATCH {``. ``SEQ`` is EP-SPARQL's keyword too: in a query with RSEP-QL evidence it
  is RSEP-QL's.

Comments, strings, IRIs, variables and numbers are skipped. A query with none of them but with a
*bare name* — a word without a prefix where SPARQL expects an IRI (``?c hasStockPrice ?p``), as
ETALIS writes EP-SPARQL — is EP-SPARQL (:func:`find_bare_names`). Any other query is plain
SPARQL 1.1 and is read as C-SPARQL (a superset of SPARQL); the reason says so.

:func:`prolog_extension_error` names the Prolog built-ins ETALIS accepts inside queries (``DO``,
``is``, ``aggregate(…)``, ``rdf_store``, ``write``), which are not EP-SPARQL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import DialectMismatchError
from .model import DIALECTS, Position

NAMES = {"csparql": "C-SPARQL", "cqels": "CQELS-QL", "epsparql": "EP-SPARQL", "rspql": "RSP-QL", "rsepql": "RSEP-QL"}
#: how each dialect declares streams / events, for mismatch explanations
HOW = {
    "csparql": "C-SPARQL declares streams with FROM STREAM <s> [RANGE …] before WHERE",
    "cqels": "CQELS-QL writes STREAM <s> [RANGE …] { … } inside WHERE",
    "epsparql": "EP-SPARQL joins groups with SEQ/EQUALS/OPTIONALSEQ/EQUALSOPTIONAL and has no windows",
    "rspql": ("RSP-QL declares windows with FROM NAMED WINDOW <w> ON <s> [RANGE …] and reads them with "
              "WINDOW <w> { … }"),
    "rsepql": ("RSEP-QL declares windows with FROM NAMED <s> WIN [LND t0|RANGE a] AS <w>, events with "
               "EVENT ON <w> { … } AS E, and matches them with MATCH { E1 SEQ E2 }"),
}

_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<comment>\#[^\n]*)
    |(?P<string>'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
    |(?P<var>[?$][\w\u00B7\u00C0-\uFFFF]+)
    |(?P<number>[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?:ms|s|m|h|d)?(?![\w]))
    |(?P<langtag>@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*)
    |(?P<pname>(?:[A-Za-z_][\w\-.]*)?:[\w\-.:%]*)
    |(?P<word>[A-Za-z_][\w\-]*(?::[\w\-.]*)?)
    |(?P<other>.)""",
    re.X | re.S,
)
_EP_OPERATORS = {"SEQ", "EQUALS", "OPTIONALSEQ", "EQUALSOPTIONAL"}
_EP_FUNCTIONS = {"GETDURATION", "GETSTARTTIME", "GETENDTIME"}
_R2S = {"RSTREAM", "ISTREAM", "DSTREAM"}
#: words that are keywords (any case) of SPARQL 1.1 or of a dialect, never bare names
_KEYWORDS = {
    "SELECT", "CONSTRUCT", "ASK", "DESCRIBE", "WHERE", "FROM", "NAMED", "PREFIX", "BASE", "DISTINCT",
    "REDUCED", "AS", "FILTER", "OPTIONAL", "UNION", "MINUS", "GRAPH", "BIND", "VALUES", "SERVICE",
    "SILENT", "EXISTS", "NOT", "IN", "UNDEF", "GROUP", "BY", "ORDER", "HAVING", "LIMIT", "OFFSET", "ASC",
    "DESC", "SEPARATOR", "TRUE", "FALSE", "A", "STREAM", "RANGE", "STEP", "SLIDE", "TUMBLING", "TRIPLES",
    "ROWS", "NOW", "ALL", "UNBOUNDED", "REGISTER", "QUERY", "COMPUTED", "EVERY", "AGGREGATE", "WITHIN",
    "WINDOW", "ELEMENTS", *_EP_OPERATORS, *_R2S,
}


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
        if kind in ("word", "other"):
            items.append((value, Position(line, col)))
        elif kind in ("var", "number", "iri", "string", "langtag", "pname"):
            items.append(("\0" + kind, Position(line, col)))
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
        after = items[i + 2][0] if i + 2 < len(items) else ""
        if up == "REGISTER" and nxt.upper() in ("QUERY", "STREAM"):
            add("csparql", f"REGISTER {nxt.upper()}", pos)
        elif up == "REGISTER" and nxt.upper() in _R2S:
            add("rspql", f"REGISTER {nxt.upper()}", pos)
        elif up in _R2S and prev in ("SELECT", "CONSTRUCT"):
            add("rspql", f"{prev} {up}", items[i - 1][1])
        elif up == "WINDOW" and prev == "NAMED" and i >= 2 and items[i - 2][0].upper() == "FROM":
            add("rspql", "FROM NAMED WINDOW", items[i - 2][1])
        elif up == "WINDOW" and nxt in ("\0iri", "\0var", "\0pname") and after == "{":
            add("rspql", "WINDOW graph pattern", pos)
        elif up == "STREAM" and prev in ("FROM", "NAMED"):
            add("csparql", "FROM STREAM", items[i - 1][1] if prev == "FROM" else items[i - 2][1])
        elif up == "STREAM" and prev not in ("REGISTER", "ON"):  # ON STREAM: the drafts' named window
            add("cqels", "STREAM graph pattern", pos)
        elif up == "AGGREGATE" and nxt == "{":
            add("csparql", "AGGREGATE clause", pos)
        elif up == "TIMESTAMP" and nxt == "(":
            add("csparql", "timestamp()", pos)
        elif up in _EP_OPERATORS:
            add("epsparql", up, pos)
        elif up in _EP_FUNCTIONS and nxt == "(":
            add("epsparql", f"{word}()", pos)
        elif up == "WITHIN":
            add("epsparql", "WITHIN", pos)
        elif up == "WIN" and nxt == "[":
            add("rsepql", "WIN [", pos)
        elif up == "EVENT" and nxt.upper() == "ON":
            add("rsepql", "EVENT ON", pos)
        elif up == "MATCH" and nxt == "{":
            add("rsepql", "MATCH {", pos)
    if any(d == "rspql" for d, _ in found):
        # the RSP community group's drafts register RSP-QL queries with REGISTER STREAM too, and
        # their examples write an AGGREGATE { … } clause (read as RSP-QL: the parser names it)
        for what in ("REGISTER STREAM", "AGGREGATE clause"):
            if ("csparql", what) in found:
                found[("rspql", what)] = Evidence("rspql", what, found.pop(("csparql", what)).position)
    if any(d == "rsepql" for d, _ in found):  # SEQ of a MATCH pattern (RSEP-QL), not EP-SPARQL's
        for key in [k for k in found if k == ("epsparql", "SEQ")]:
            found[("rsepql", "SEQ")] = Evidence("rsepql", "SEQ", found.pop(key).position)
    return tuple(sorted(found.values(), key=lambda e: (e.position.line, e.position.column)))


def find_bare_names(text: str) -> tuple[Evidence, ...]:
    """Bare names (ETALIS's EP-SPARQL): words without a prefix inside ``{ … }`` or in a CONSTRUCT
    template without braces that are not keywords, not ``a`` and not function names (followed by
    ``(``)."""
    items = _words(text)
    out: list[Evidence] = []
    depth = 0
    template = False
    for i, (word, pos) in enumerate(items):
        up = word.upper()
        nxt = items[i + 1][0] if i + 1 < len(items) else ""
        if word == "{":
            depth += 1
            template = False
        elif word == "}":
            depth = max(depth - 1, 0)
        elif up == "CONSTRUCT":
            template = True
        elif up == "WHERE":
            template = False
        elif (
            (depth > 0 or template)
            and re.fullmatch(r"[A-Za-z_][\w\-]*", word)
            and up not in _KEYWORDS
            and nxt != "("
            and not (i and items[i - 1][0] in ("@",))
        ):
            out.append(Evidence("epsparql", f"bare name '{word}'", pos))
    return tuple(out)


#: ETALIS Prolog built-ins that may appear in its query texts but are not EP-SPARQL
_PROLOG = {"DO": "an action (DO …)", "is": "Prolog arithmetic (X is …)", "aggregate": "aggregate(…)",
           "rdf_store": "rdf_store", "write": "write(…)", "writeln": "writeln(…)"}


def prolog_extension_error(text: str, source: str = "<input>"):
    """The named *unsupported* error for the first ETALIS Prolog extension in ``text`` (None if
    there is none). Called when an EP-SPARQL text does not parse, so that a bare name such as
    ``write`` in a triple pattern is not mistaken for one."""
    from .errors import QuerySemanticError

    items = _words(text)
    for i, (word, pos) in enumerate(items):
        nxt = items[i + 1][0] if i + 1 < len(items) else ""
        key = "DO" if word.upper() == "DO" else word
        if key not in _PROLOG:
            continue
        if key in ("aggregate", "write", "writeln") and nxt != "(":
            continue
        return QuerySemanticError(
            f"unsupported in EP-SPARQL: {_PROLOG[key]} is an ETALIS Prolog extension, not EP-SPARQL",
            source=source, line=pos.line, column=pos.column, text=text,
            expected="an EP-SPARQL query (SEQ, EQUALS, OPTIONALSEQ, EQUALSOPTIONAL, FILTER, WITHIN); "
                     "compute values with SELECT expressions (?v AS expr) or BIND",
        )
    return None


def detect_dialect(text: str, source: str = "<input>") -> Detection:
    """Decide the dialect of ``text`` from its syntax (module docstring)."""
    evidence = find_evidence(text)
    dialects = [d for d in DIALECTS if any(e.dialect == d for e in evidence)]
    if not dialects:
        bare = find_bare_names(text)
        if bare:
            return Detection("epsparql", f"{bare[0]}, no C-SPARQL or CQELS keyword", bare)
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
            expected="one dialect; choose it with --dialect csparql|cqels|epsparql|rspql|rsepql",
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
