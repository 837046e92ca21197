"""Query text → :class:`translator.query.model.Query` (stage 1 of the pipeline, STYLE.md §1.1).

One LALR grammar per dialect (``grammars/*.lark``, sharing ``sparql_core.lark``), loaded once.
Lark's errors become :class:`~translator.query.errors.QuerySyntaxError` with ``FILE:LINE:COLUMN``, the
line and a caret, and what was expected in plain words; common mistakes get a specific message
(:func:`_hint`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Mapping

from translator import cache

from .errors import QuerySyntaxError, RsplarsError, SourceError
from .escapes import has_escapes
from .model import DIALECTS, Query

if TYPE_CHECKING:  # Lark is imported when a query is parsed, not when it comes from the cache (translator.cache)
    from lark import Lark
    from lark.exceptions import UnexpectedInput

__all__ = ["parse", "grammar", "DIALECTS"]


@lru_cache(maxsize=None)
def grammar(name: str) -> Lark:
    """The LALR parser of ``grammars/<name>.lark`` (csparql, csparql_lenient, cqels, epsparql, rspql, rsepql)."""
    # the parse tables come from the user's cache folder when the command line uses it (translator.cache)
    return cache.lark_parser(__package__, f"grammars/{name}.lark", propagate_positions=True, maybe_placeholders=False)


def grammar_name(dialect: str, lenient: bool) -> str:
    return "csparql_lenient" if dialect == "csparql" and lenient else dialect


def parse(
    text: str,
    dialect: str = "auto",
    *,
    source: str = "<input>",
    lenient: bool = False,
    prefixes: Mapping[str, str] | None = None,
    bare_ns: str | None = None,
    base: str | None = None,
) -> Query:
    """Parse ``text`` written in ``dialect`` (``auto``: :func:`translator.query.dialect.detect_dialect`).

    ``lenient`` accepts the quirks of the papers' printed queries (Barbieri et al. 2010):
    undeclared prefixes (well-known namespaces, else a placeholder namespace), hyphenated
    variables, ``^^`` for ``&&``, FROM before SELECT, commas in projections, long unit names,
    REGISTER STREAM with SELECT. ``prefixes`` are declared before the text (like rdflib's initNs).
    ``bare_ns``: the namespace of EP-SPARQL bare names (default
    :data:`translator.query.model.DEFAULT_BARE_NAMESPACE`, docs/epsparql.md).
    ``base``: the base IRI of the text before any BASE (SPARQL 1.1 §4.1.1: the IRI the query was
    retrieved from, e.g. its file's ``file:`` IRI); relative IRIs are resolved against it.
    Raises :class:`~translator.query.errors.QuerySyntaxError`, ``QuerySemanticError`` or
    ``DialectMismatchError`` (all :class:`lars.errors.SourceError`).
    """
    forced = dialect != "auto"
    written = text
    if has_escapes(text):  # SPARQL 1.1 §19.2: codepoint escapes are replaced before parsing
        text = _unescaped(text, source)
    if not forced:
        from .dialect import detect_dialect  # not loaded by a run whose query comes from the cache

        dialect = detect_dialect(text, source).dialect
    if dialect not in DIALECTS:
        raise RsplarsError(f"unknown dialect {dialect!r}; choose one of auto, {', '.join(DIALECTS)}")
    options = (dialect, bool(lenient), tuple(sorted((prefixes or {}).items())), bare_ns, base)
    # the user's cache (translator.cache, the command line only): a query without notes is the same whatever
    # file it was read from (the source name appears only in notes and errors), one with notes is kept
    # per source name; an error is never kept (its located message comes from the parser every time)
    for source_key, usable in ((None, lambda q: isinstance(q, Query) and not q.notes),
                               (source, lambda q: isinstance(q, Query))):
        query = cache.load("query", (written, *options, source_key))
        if query is not cache.MISS and usable(query):
            return query
    if written is text:
        query = _parse(text, dialect, forced, source, lenient, prefixes, bare_ns, base)
    else:
        try:
            query = _parse(text, dialect, forced, source, lenient, prefixes, bare_ns, base)
        except SourceError as err:
            raise _at_written_position(err, text, written) from None
    cache.store("query", (written, *options, source if query.notes else None), query)
    return query


def _unescaped(text: str, source: str) -> str:
    """``text`` with its codepoint escapes replaced (:mod:`translator.query.escapes`); an escape
    that stands for no character is a syntax error at its place."""
    from .escapes import EscapeError, unescape

    try:
        return unescape(text).replaced
    except EscapeError as err:
        line = text.count("\n", 0, err.offset) + 1
        column = err.offset - (text.rfind("\n", 0, err.offset) + 1) + 1
        raise QuerySyntaxError(str(err), source=source, line=line, column=column, text=text,
                               expected="\\uXXXX (U+0000–U+FFFF, no lone surrogate) or \\UXXXXXXXX (up to U+10FFFF)") from None


def _at_written_position(err: SourceError, replaced: str, written: str) -> SourceError:
    """An error located in the text after codepoint escapes were replaced, located in the text as
    the user wrote it (line, column and the line shown)."""
    from .escapes import unescape

    if err.text != replaced or err.line is None:
        return err
    line, column = unescape(written).position(err.line, err.column or 1)
    err.line, err.text = line, written
    if err.column is not None:
        err.column = column
    err.args = (err.render(),)
    return err


def detect(text: str, source: str) -> tuple[str, str]:
    """``(dialect, reason)`` of :func:`translator.query.dialect.detect_dialect`, kept per query text in
    the user's cache (``translator.cache``; the reason names no file). A text whose detection fails (a mix
    of dialects: a located error) is never kept."""

    def detected() -> tuple[str, str]:
        from .dialect import detect_dialect

        detection = detect_dialect(_unescaped(text, source) if has_escapes(text) else text, source)
        return detection.dialect, detection.reason

    return cache.cached("dialect", (text,), detected,
                        valid=lambda v: isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, str) for x in v))


def _parse(text: str, dialect: str, forced: bool, source: str, lenient: bool, prefixes: Mapping[str, str] | None,
           bare_ns: str | None, base: str | None = None) -> Query:
    from lark.exceptions import UnexpectedInput, VisitError

    from .transformers import TRANSFORMERS, ParseContext

    parser = grammar(grammar_name(dialect, lenient))
    try:
        tree = parser.parse(text)
    except UnexpectedInput as err:
        if dialect == "epsparql":
            from .dialect import prolog_extension_error

            prolog = prolog_extension_error(text, source)
            if prolog is not None:
                raise prolog from None
        syntax_error = _syntax_error(err, text, source, dialect, parser)
        from .dialect import check_forced

        mismatch = check_forced(text, dialect, source) if forced else None
        raise (mismatch or syntax_error) from None
    ctx = ParseContext(text, source, dialect, lenient, dict(prefixes or {}), base=base)
    if bare_ns is not None:
        ctx.bare_ns = bare_ns
    try:
        return TRANSFORMERS[dialect](ctx).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RsplarsError):
            raise err.orig_exc from None
        raise


# ---------------------------------------------------------------------------------------------
# error messages

_GROUPS: list[tuple[str, set[str]]] = [
    ("a variable", {"VAR"}),
    ("an IRI", {"IRIREF", "PNAME_LN", "PNAME_NS", "BARE_NAME"}),
    ("a literal", {"STRING_LITERAL1", "STRING_LITERAL2", "STRING_LITERAL_LONG1", "STRING_LITERAL_LONG2",
                   "TRUE", "FALSE"}),
    ("a number", {"INTEGER", "DECIMAL", "DOUBLE", "SIGNED_NUMBER"}),
    ("'()'", {"NIL"}),
    ("a blank node", {"BLANK_NODE_LABEL", "ANON"}),
    ("a function call", {"BUILTIN_NAME"}),
    ("an ISO 8601 duration (PT15S)", {"ISO_DURATION"}),
    ("RSTREAM, ISTREAM or DSTREAM", {"R2S_KIND"}),
    ("an aggregate", {"AGGREGATE_NAME", "GROUP_CONCAT"}),
    ("a duration such as 10m or 3000ms", {"DURATION"}),
    ("a query name", {"REGISTRATION_NAME"}),
    ("COUNT, SUM, AVG, MIN or MAX", {"CSPARQL_AGGREGATE"}),
    ("ASC(…) or DESC(…)", {"ORDER_DIRECTION"}),
    ("'^^' (lenient AND)", {"LENIENT_AND"}),
]
_SILENT = {"WS", "COMMENT", "$END", "LENIENT_AND"}


def describe_expected(names: Iterable[str], parser: Lark) -> str:
    """Terminal names → plain words: ``a variable, an IRI or a literal, or one of '.', '}'``."""
    from lark.lexer import PatternStr

    names = set(names) - _SILENT
    words: list[str] = []
    for label, group in _GROUPS:
        if names & group:
            words.append(label)
            names -= group
    symbols: set[str] = set()
    for name in names:
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            symbols.add(name)
            continue
        if isinstance(pattern, PatternStr):
            symbols.add(f"'{pattern.value.upper() if pattern.value.isalpha() else pattern.value}'")
        else:
            symbols.add(name.lower())
    out = ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + (words[-1] if words else "")
    if symbols:
        listed = ", ".join(sorted(symbols, key=lambda s: (s[1:2].isalpha(), s)))
        out = f"{out}, or one of {listed}" if out else f"one of {listed}"
    return out


def _describe_token(err: UnexpectedInput, text: str) -> str:
    from lark.exceptions import UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedEOF) or getattr(getattr(err, "token", None), "type", "") == "$END":
        return "end of input"
    if isinstance(err, UnexpectedToken):
        return f"'{err.token}'"
    m = re.match(r"[A-Za-z_][\w\-]*|\S", text[err.pos_in_stream:])
    return f"'{m.group()}'" if m else "character"


def _position(err: UnexpectedInput, text: str) -> tuple[int, int]:
    from lark.exceptions import UnexpectedToken

    line, column = getattr(err, "line", -1), getattr(err, "column", -1)
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        line, column = -1, -1
    if line is None or line < 1:
        lines = text.splitlines() or [""]
        stripped = text.rstrip()
        last = stripped.splitlines()[-1] if stripped else ""
        line = len(stripped.splitlines()) or 1
        column = len(last) + 1
        del lines
    return line, column


def _expected_names(err: UnexpectedInput) -> set[str]:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        return set(err.allowed or ())
    if isinstance(err, (UnexpectedToken, UnexpectedEOF)):
        return set(err.expected or ())
    return set()


def _syntax_error(err: UnexpectedInput, text: str, source: str, dialect: str, parser: Lark) -> QuerySyntaxError:
    from .dialect import NAMES

    line, column = _position(err, text)
    expected_names = _expected_names(err)
    expected = describe_expected(expected_names, parser) or None
    rest = _rest_at(text, line, column)
    message = f"unexpected {_describe_token(err, text)}"
    hint = _hint(dialect, text, rest, expected_names, err)
    if hint is not None:
        message, column_shift = hint
        column += column_shift
    else:
        message += f" ({NAMES[dialect]} syntax)"
    return QuerySyntaxError(message, source=source, line=line, column=column, text=text, expected=expected)


def _rest_at(text: str, line: int, column: int) -> str:
    lines = text.splitlines(keepends=True)
    if 1 <= line <= len(lines):
        return lines[line - 1][column - 1:] + "".join(lines[line:])
    return ""


def _previous_char(text: str, rest: str) -> str:
    idx = len(text) - len(rest)
    return text[idx - 1] if idx > 0 else ""


#: (keyword, what follows it) -> the draft feature, for RSP-QL texts written as the drafts' examples
_DRAFT_ONLY = {("BEGIN", "AT"): "BEGIN AT (the time a pattern's solution began)",
               ("WITH", "DURATION"): "WITH DURATION (how long a pattern's solution held)",
               ("AGGREGATE", "{"): "an AGGREGATE { … } clause"}


#: SPARQL 1.1's aggregates (§18.5), for the hint on ``SELECT AVG(?v) AS ?x`` without parentheses
_AGGREGATES = {"COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT"}


def _hint(dialect: str, text: str, rest: str, expected: set[str], err: UnexpectedInput) -> tuple[str, int] | None:
    """A specific message for a common mistake, and a column shift (0 = at the error)."""
    from lark.exceptions import UnexpectedEOF, UnexpectedToken

    from .dialect import NAMES

    word = re.match(r"[A-Za-z_]\w*", rest)
    word_up = word.group().upper() if word else ""
    at_end = isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END")
    if "ISO_DURATION" in expected and not re.match(r"[0-9]", rest) and not rest.startswith("]"):
        return "a window duration in ISO 8601 is written PT15S, PT1H30M or P1D (or 15s, 90m)", 0
    if "DURATION" in expected:
        m = re.match(r"([0-9]+(?:\.[0-9]+)?)([ \t]*)([A-Za-z]*)", rest)
        if m and (not m.group(3) or m.group(3).upper() in ("STEP", "SLIDE", "TUMBLING")):
            return "the duration has no time unit (write ms, s, m, h or d, e.g. 10m or 3000ms)", len(m.group(1))
        if m:
            return (f"unknown time unit '{m.group(3)}' (the units are ms, s, m, h and d)",
                    len(m.group(1)) + len(m.group(2)))
        if rest.startswith("]"):
            return "RANGE needs a duration (e.g. [RANGE 10m] or [RANGE 3000ms])", 0
    if word_up == "STEP" and dialect == "cqels":
        return "CQELS-QL windows slide with SLIDE, not STEP (e.g. [RANGE 30m SLIDE 1m])", 0
    if word_up == "SLIDE" and dialect == "csparql":
        return "C-SPARQL windows slide with STEP, not SLIDE (e.g. [RANGE 30m STEP 1m])", 0
    if word_up == "SLIDE" and dialect == "rspql":
        return "RSP-QL windows slide with STEP, not SLIDE (e.g. [RANGE PT30M STEP PT1M])", 0
    if rest.startswith("-") and re.match(r"-[A-Za-z_]", rest) and re.search(r"[?$]\w+$", text[: len(text) - len(rest)]):
        return ("a variable name cannot contain '-' (the C-SPARQL paper writes ?total-sensor; "
                "accepted with --lenient)"), 0
    caret = re.search(r"\^\^\s*$", text[: len(text) - len(rest)])
    if caret and re.match(r"[?$(!]", rest):
        return ("'^^' is not a logical operator; write && (--lenient reads the C-SPARQL paper's '^^' as &&)",
                -len(caret.group()))
    if word_up == "FROM" and "SELECT" in expected:
        return ("FROM clauses come after SELECT/CONSTRUCT/ASK (the C-SPARQL paper's Q8 writes them "
                "before; accepted with --lenient)"), 0
    if word and rest[len(word.group()):].lstrip().startswith("(") and "BUILTIN_NAME" in expected:
        return f"unknown function '{word.group()}' (use a SPARQL built-in or a function IRI)", 0
    if at_end and ("RBRACE" in expected or any(n for n in expected if n.endswith("RBRACE"))):
        return "unexpected end of input: a '{' is not closed", 0
    if expected & {"DOT", "RBRACE"} and re.match(r"[?$<]|[A-Za-z_]*:", rest) and "SEMICOLON" in expected:
        return "unexpected term after a complete triple pattern: is a '.' missing before it?", 0
    if word and "RSQB" in expected and word_up in ("STEP", "SLIDE", "TUMBLING"):
        return f"'{word.group()}' is not allowed here in a {NAMES[dialect]} window", 0
    if expected == {"RSQB"} or (expected and expected <= {"RSQB", "STEP", "SLIDE", "TUMBLING", "AS", "TO"}):
        return f"unexpected {_describe_token(err, text)}: the window is not closed with ']'", 0
    if word and word_up in ("WINDOW", "RSTREAM", "ISTREAM", "DSTREAM") and dialect != "rspql":
        return f"'{word.group()}' is RSP-QL syntax: read the query with --dialect rspql (or --dialect auto)", 0
    if word and dialect == "rspql":
        following = rest[len(word.group()):].lstrip()
        for (first, then), what in _DRAFT_ONLY.items():
            if word_up == first and following.upper().startswith(then):
                return (f"unsupported in RSP-QL: {what}, a feature of the RSP community group's drafts that "
                        "neither RSP4J's syntax nor the RSP-QL semantics (Dell'Aglio et al. 2014) defines"), 0
    if (word and word_up in _AGGREGATES and rest[len(word.group()):].lstrip().startswith("(")
            and "LPAR" in expected and "VAR" in expected):
        return (f"an aggregate in the projection stands in parentheses with its name: "
                f"({word.group()}(…) AS ?name)"), 0
    if word and word_up in ("WIN", "MATCH", "EVENT") and dialect != "rsepql":
        return f"'{word.group()}' is RSEP-QL syntax: read the query with --dialect rsepql (or --dialect auto)", 0

    if dialect == "epsparql" and word_up == "STREAM":
        return "EP-SPARQL has no STREAM clauses; use --dialect cqels or csparql", 0
    return None
