"""Text syntax of LARS programs: ``parse_program`` and ``parse_atom`` (grammar: ``grammars/lars.lark``).

The syntax is a superset of Ticker's (github.com/hbeck/ticker); see ``docs/lars.md`` for the full
table. Extended atoms (Beck et al., AAAI 2015, §2; Dao-Tran, Beck, Eiter 2015, §2.3):

===============================  ================================================
text                             LARS
===============================  ================================================
``a``                            ``a``
``a at T``                       ``@_T a`` (over the whole timeline [tmin, t])
``a [W]`` / ``a in [W]``         ``⊞^W ◇a``
``a always [W]``                 ``⊞^W □a``
``a at T [W]`` / ``a at T in [W]``  ``⊞^W @_T a``
``h at T :- …``                  rule with head ``@_T h``
===============================  ================================================

Windows ``W``: ``[N unit]`` (ms, sec/s, min/m, h, d) or ``[N]`` (base ticks) for ``⊞^N``;
``[L step D]`` for ``⊞^{L,0,D}``; ``[L, U, D]`` for ``⊞^{l,u,d}`` (``[all, U, D]``: l = ∞);
``[now]``; ``[all]``; ``[N #]`` for the tuple window ``⊞^{#N}``; ``[N # key]`` for the
partition window (the last N stream atoms matching the pattern ``key``).

Durations are converted to base ticks (D1: the base unit is chosen per run, default seconds); a
duration that is not a whole number of base ticks is an error. Ticker's built-in predicates
``leq lt neq eq geq gt`` (2 arguments) and ``incr(X,Y)`` (``Y = X+1``) are read as comparisons.

Aggregates are written as clingo writes them, ``N = #count{ X,Y : p(X,Y), not q(X); Z : r(Z) }``
(``#count``, ``#sum``, ``#min``, ``#max``; a comparison and a term on the left; plain literals and
comparisons in the conditions), see ``lars.model.AggregateAssignment``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from lars.errors import RsplarsError, SourceError
from lars.lalr import lalr_parser
from lars.model import (
    AggregateAssignment,
    AggregateElement,
    Arith,
    At,
    Atom,
    Box,
    Call,
    Comparison,
    Constant,
    Diamond,
    Function,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    String,
    Term,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)

from lars.units import DEFAULT_BASE_UNIT, UNIT_MS  # noqa: F401 (defined there: lars.printer needs them without lark)

TICKER_COMPARISONS: dict[str, str] = {
    "leq": "<=",
    "lt": "<",
    "neq": "!=",
    "eq": "=",
    "geq": ">=",
    "gt": ">",
}
"""Ticker's binary built-in predicates, read as comparisons (``incr(X,Y)`` is ``Y = X+1``)."""

AGGREGATE_FUNCTIONS = ("count", "sum", "min", "max")
"""clingo's aggregate functions that LARS programs may use (``lars.model.AggregateAssignment``)."""

NEGATED_COMPARISON: dict[str, str] = {"=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}

_TERMINAL_WORDS: dict[str, str] = {
    "NAME": "a name (lower-case identifier)",
    "VARIABLE": "a variable",
    "INT": "an integer",
    "STRING": "a string",
    "UNIT": "a time unit (ms, sec, min, h, d)",
    "COMPARE": "a comparison (= != < <= > >=)",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '\\'",
    "COLON": "':'",
    "IF": "':-'",
    "DOT": "'.'",
    "COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "MINUS": "'-'",
    "HASH": "'#'",
    "SEMICOLON": "';'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "$END": "end of input",
}


@lru_cache(maxsize=None)
def _parser() -> Lark:
    """The LALR parser of ``grammars/lars.lark``, built once."""
    # by the builder a caller installed (the command line: parse tables from its cache), else by Lark
    return lalr_parser(__package__, "grammars/lars.lark", propagate_positions=True, start=["start", "atom_text"])


class _Invalid(Exception):
    """A construct that parses but is not valid LARS; carries the position of the offending node."""

    def __init__(self, message: str, meta: Any) -> None:
        super().__init__(message)
        self.message = message
        self.line = getattr(meta, "line", None)
        self.column = getattr(meta, "column", None)


def _as_atom(term: Term, meta: Any) -> Atom:
    """An atom written as a clingo term: a constant ``p`` or a function term ``p(t1,…,tn)``."""
    if isinstance(term, Constant):
        return Atom(term.name)
    if isinstance(term, Function):
        return Atom(term.name, term.args)
    raise _Invalid("expected an atom such as p or p(X,a), not a number, string, variable or arithmetic", meta)


def _builtin(atom: Atom, negated: bool) -> Comparison | None:
    """Ticker's built-in predicates as comparisons (``None`` if ``atom`` is an ordinary atom)."""
    if len(atom.args) == 2 and atom.predicate in TICKER_COMPARISONS:
        op = TICKER_COMPARISONS[atom.predicate]
        left, right = atom.args
    elif len(atom.args) == 2 and atom.predicate == "incr":
        op, left, right = "=", atom.args[1], Arith("+", atom.args[0], Integer(1))
    else:
        return None
    return Comparison(NEGATED_COMPARISON[op] if negated else op, left, right)  # type: ignore[arg-type]


class _ToModel(Transformer):
    """Lark tree → ``lars.model`` (windows in base ticks of ``base_unit``)."""

    def __init__(self, base_unit: str) -> None:
        super().__init__()
        if base_unit not in UNIT_MS:
            raise RsplarsError(f"unknown base unit {base_unit!r} (one of {', '.join(sorted(UNIT_MS))})")
        self.base_ms = UNIT_MS[base_unit]

    # ------------------------------------------------------------------------------ program
    def start(self, rules: list[Rule]) -> Program:
        return Program(tuple(rules))

    def atom_text(self, children: list[Any]) -> Any:
        return children[0]

    @v_args(inline=True)
    def rule(self, head: Any, body: tuple) -> Rule:
        return Rule(head, body)

    @v_args(inline=True)
    def fact(self, head: Any) -> Rule:
        return Rule(head, ())

    @v_args(inline=True)
    def constraint(self, body: tuple) -> Rule:
        return Rule(None, body)

    @v_args(meta=True, inline=True)
    def head_atom(self, meta: Any, term: Term) -> Atom:
        return _as_atom(term, meta)

    @v_args(meta=True, inline=True)
    def head_at(self, meta: Any, term: Term, time: Term) -> At:
        return At(_as_atom(term, meta), time)

    def body(self, literals: list[Any]) -> tuple:
        return tuple(literals)

    # ------------------------------------------------------------------------------ literals
    @v_args(inline=True)
    def positive(self, ext: Any) -> Any:
        if isinstance(ext, Atom):
            builtin = _builtin(ext, negated=False)
            if builtin is not None:
                return builtin
        return Literal(ext, False)

    @v_args(inline=True)
    def negative(self, ext: Any) -> Any:
        if isinstance(ext, Atom):
            builtin = _builtin(ext, negated=True)
            if builtin is not None:
                return builtin
        return Literal(ext, True)

    @v_args(inline=True)
    def comparison(self, left: Term, op: Token, right: Term) -> Comparison:
        return Comparison(str(op), left, right)  # type: ignore[arg-type]

    # ------------------------------------------------------------------------------ aggregates
    @v_args(inline=True)
    def aggregate_literal(self, left: Term, op: Token, aggregate: tuple) -> AggregateAssignment:
        function, elements = aggregate
        return AggregateAssignment(left, function, elements, str(op))  # type: ignore[arg-type]

    @v_args(meta=True)
    def aggregate(self, meta: Any, children: list) -> tuple:
        name, *elements = children
        if str(name) not in AGGREGATE_FUNCTIONS:
            raise _Invalid(f"unknown aggregate #{name} (expected {', '.join('#' + f for f in AGGREGATE_FUNCTIONS)})", meta)
        return str(name), tuple(e for e in elements if e is not None)

    def external_aggregate(self, children: list) -> tuple:
        name, *elements = children
        return "@" + str(name), tuple(e for e in elements if e is not None)

    def agg_element(self, children: list) -> AggregateElement:
        terms = tuple(c for c in children if not isinstance(c, (Literal, Comparison)) and c is not None)
        condition = tuple(c for c in children if isinstance(c, (Literal, Comparison)))
        return AggregateElement(terms, condition)

    @v_args(meta=True, inline=True)
    def agg_positive(self, meta: Any, term: Term) -> Any:
        atom = _as_atom(term, meta)
        return _builtin(atom, negated=False) or Literal(atom, False)

    @v_args(meta=True, inline=True)
    def agg_negative(self, meta: Any, term: Term) -> Any:
        atom = _as_atom(term, meta)
        return _builtin(atom, negated=True) or Literal(atom, True)

    @v_args(meta=True, inline=True)
    def plain(self, meta: Any, term: Term) -> Atom:
        return _as_atom(term, meta)

    @v_args(meta=True, inline=True)
    def at(self, meta: Any, term: Term, time: Term) -> At:
        return At(_as_atom(term, meta), time)

    @v_args(meta=True, inline=True)
    def window_at(self, meta: Any, term: Term, time: Term, window: Any) -> WindowAt:
        return WindowAt(window, _as_atom(term, meta), time)

    @v_args(meta=True, inline=True)
    def box(self, meta: Any, term: Term, window: Any) -> Box:
        return Box(window, _as_atom(term, meta))

    @v_args(meta=True, inline=True)
    def diamond(self, meta: Any, term: Term, window: Any) -> Diamond:
        return Diamond(window, _as_atom(term, meta))

    # ------------------------------------------------------------------------------ windows
    @v_args(inline=True)
    def window(self, spec: Any) -> Any:
        return spec

    @v_args(meta=True, inline=True)
    def duration(self, meta: Any, number: Token, unit: Token | None) -> tuple[int, str | None, Any]:
        """``(ticks, unit, meta)``: the duration in base ticks and the unit it was written in."""
        value = int(number)
        if unit is None:
            return (value, None, meta)
        ms = value * UNIT_MS[str(unit)]
        if ms % self.base_ms:
            raise _Invalid(
                f"{value} {unit} is not a whole number of base ticks "
                f"({self.base_ms} ms each; D1)",
                meta,
            )
        return (ms // self.base_ms, str(unit), meta)

    @v_args(inline=True)
    def length(self, duration: tuple) -> tuple:
        return duration

    @v_args(inline=True)
    def upper(self, duration: tuple) -> tuple:
        return duration

    @v_args(inline=True)
    def negative_upper(self, duration: tuple) -> tuple:
        ticks, unit, meta = duration
        if ticks > 1:
            raise _Invalid("the u of a window [l, u, d] is at least -1 (one tick before t')", meta)
        return (-ticks, unit, meta)

    def unbounded(self, _children: list) -> tuple:
        return (None, "all", None)

    @staticmethod
    def _common_unit(*durations: tuple) -> str | None:
        """The unit shared by all written durations (``None`` if mixed or none)."""
        units = {d[1] for d in durations if d[1] != "all"}
        return units.pop() if len(units) == 1 else None

    @v_args(inline=True)
    def range_window(self, length: tuple) -> TimeWindow:
        return TimeWindow(length[0], 0, 1, length[1])

    @v_args(inline=True)
    def step_window(self, length: tuple, step: tuple) -> TimeWindow:
        if step[0] < 1:
            raise _Invalid("the step of a window must be at least one base tick", step[2])
        return TimeWindow(length[0], 0, step[0], self._common_unit(length, step))

    @v_args(inline=True)
    def lud_window(self, length: tuple, upper: tuple, step: tuple) -> TimeWindow:
        if step[0] < 1:
            raise _Invalid("the step d of a window [l, u, d] must be at least one base tick", step[2])
        return TimeWindow(length[0], upper[0], step[0], self._common_unit(length, upper, step))

    def now_window(self, _children: list) -> TimeWindow:
        return TimeWindow(0, 0, 1)

    def all_window(self, _children: list) -> TimeWindow:
        return TimeWindow(None, 0, 1)

    @v_args(inline=True)
    def tuple_window(self, n: Token) -> TupleWindow:
        return TupleWindow(int(n))

    @v_args(meta=True, inline=True)
    def partition_window(self, meta: Any, n: Token, key: Term) -> PartitionWindow:
        return PartitionWindow(int(n), _as_atom(key, meta))

    # ------------------------------------------------------------------------------ terms
    @v_args(inline=True)
    def function(self, name: Token, *args: Term) -> Function:
        return Function(str(name), tuple(args))

    @v_args(inline=True)
    def call(self, name: Token, *args: Term | None) -> Call:
        return Call(str(name), tuple(a for a in args if a is not None))

    @v_args(inline=True)
    def constant(self, name: Token) -> Constant:
        return Constant(str(name))

    @v_args(inline=True)
    def var(self, name: Token) -> Variable:
        return Variable(str(name))

    @v_args(inline=True)
    def int(self, value: Token) -> Integer:
        return Integer(int(value))

    @v_args(inline=True)
    def neg_int(self, value: Token) -> Integer:
        return Integer(-int(value))

    @v_args(inline=True)
    def negate(self, term: Term) -> Term:
        if isinstance(term, Integer):
            return Integer(-term.value)
        return Arith("-", Integer(0), term)

    @v_args(inline=True)
    def string(self, token: Token) -> String:
        return String(_unescape(str(token)[1:-1]))

    @v_args(inline=True)
    def arith(self, left: Term, op: Token, right: Term) -> Arith:
        return Arith(str(op), left, right)  # type: ignore[arg-type]

    @v_args(inline=True)
    def time_term(self, term: Term) -> Term:
        return term


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _expected_words(expected: Iterable[str]) -> str:
    words = []
    for name in sorted(expected):
        if name in _TERMINAL_WORDS:
            words.append(_TERMINAL_WORDS[name])
        elif name.startswith("__ANON"):
            continue
        else:
            pattern = _parser().get_terminal(name).pattern
            words.append(f"'{pattern.value}'" if pattern.type == "str" else name.lower())
    return ", ".join(dict.fromkeys(words)) or "something else"


def _parse(text: str, source: str, start: str, base_unit: str) -> Any:
    try:
        tree = _parser().parse(text, start=start)
        return _ToModel(base_unit).transform(tree)
    except UnexpectedCharacters as err:
        at = err.pos_in_stream
        raise SourceError(
            f"unexpected character {text[at]!r}" if at is not None and at < len(text) else "unexpected character",
            source=source,
            line=err.line,
            column=err.column,
            text=text,
            expected=_expected_words(err.allowed or set()),
        ) from None
    except UnexpectedEOF as err:
        lines = text.splitlines() or [""]
        raise SourceError(
            "unexpected end of input",
            source=source,
            line=len(lines),
            column=len(lines[-1]) + 1,
            text=text,
            expected=_expected_words(err.expected),
        ) from None
    except UnexpectedToken as err:
        token = err.token
        if token.type == "$END":
            lines = text.splitlines() or [""]
            line, column, what = len(lines), len(lines[-1]) + 1, "unexpected end of input"
        else:
            line, column, what = token.line, token.column, f"unexpected {str(token)!r}"
        raise SourceError(
            what, source=source, line=line, column=column, text=text, expected=_expected_words(err.expected)
        ) from None
    except UnexpectedInput as err:  # pragma: no cover - other Lark input errors
        raise SourceError(str(err), source=source, line=err.line, column=err.column, text=text) from None
    except VisitError as err:
        if isinstance(err.orig_exc, _Invalid):
            raise SourceError(
                err.orig_exc.message, source=source, line=err.orig_exc.line, column=err.orig_exc.column, text=text
            ) from None
        raise


def parse_program(text: str, source: str = "<program>", *, base_unit: str = DEFAULT_BASE_UNIT) -> Program:
    """Parse a LARS program; errors are :class:`SourceError` with ``source:line:column``."""
    return _parse(text, source, "start", base_unit)


def parse_atom(text: str, source: str = "<atom>") -> Atom:
    """Parse one atom such as ``p(a,1,"s")`` or ``q`` (stream atoms, answers)."""
    term = _parse(text, source, "atom_text", DEFAULT_BASE_UNIT)
    try:
        return _as_atom(term, None)
    except _Invalid as err:
        raise SourceError(err.message, source=source, line=1, column=1, text=text) from None
