"""The one canonical printer of LARS programs (text syntax of ``lars.syntax``; ``docs/lars.md``).

``parse_program(format_program(p)) == p`` for every program ``p`` the model can hold (round trip,
tested), and ``format_program(parse_program(text))`` is the canonical form of ``text``.
``format_atom`` is also the output form of answers: clingo's symbol syntax (``p(a,1,"s")``, ``q``).

With ``unicode=True`` the printer renders the LARS notation of the papers, for people (not parsed):
``⊞^30 ◇ offer(S,P,E)``, ``⊞^{30,0,10} □ a``, ``⊞^{#3} @_T b``, ``@_T h ← body``.
"""

from __future__ import annotations

from functools import singledispatch

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
from lars.units import DEFAULT_BASE_UNIT, UNIT_MS

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "\\": 2}

# --------------------------------------------------------------------------------------------- terms


@singledispatch
def format_term(term: Term) -> str:
    """A term in clingo syntax; arithmetic with spaces around the operator (``K0 + 1``)."""
    raise TypeError(f"not a LARS term: {term!r}")


@format_term.register
def _(term: Constant) -> str:
    return term.name


@format_term.register
def _(term: Variable) -> str:
    return term.name


@format_term.register
def _(term: Integer) -> str:
    return str(term.value)


@format_term.register
def _(term: String) -> str:
    return string_text(term.value)


def string_text(value: str) -> str:
    """The text of the string term ``String(value)`` (without building the term)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


@format_term.register
def _(term: Function) -> str:
    return f"{term.name}({','.join(format_term(a) for a in term.args)})"


@format_term.register
def _(term: Call) -> str:
    return f"@{term.name}({','.join(format_term(a) for a in term.args)})"


@format_term.register
def _(term: Arith) -> str:
    prec = _PRECEDENCE[term.op]
    left = format_term(term.left)
    right = format_term(term.right)
    if isinstance(term.left, Arith) and _PRECEDENCE[term.left.op] < prec:
        left = f"({left})"
    if isinstance(term.right, Arith) and _PRECEDENCE[term.right.op] <= prec:
        right = f"({right})"
    elif isinstance(term.right, Integer) and term.right.value < 0:
        right = f"({right})"
    return f"{left} {term.op} {right}"


def _time_term(term: Term, unicode: bool = False) -> str:
    """The T of ``a at T``: a variable or integer as is, anything else in parentheses
    (``@_{T+1}`` in the Unicode rendering)."""
    text = format_term(term)
    if isinstance(term, (Variable, Integer)):
        return text
    return f"{{{text}}}" if unicode else f"({text})"


# --------------------------------------------------------------------------------------------- atoms


def format_atom(atom: Atom) -> str:
    """``p(a,1,"s")`` or ``q``: clingo's symbol syntax, the output form of answers."""
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(format_term(a) for a in atom.args)})"


# ------------------------------------------------------------------------------------------- windows


def _duration(ticks: int, unit: str | None, base_unit: str) -> str:
    if unit is None:
        return str(ticks)
    factor = UNIT_MS[unit]
    base = UNIT_MS[base_unit]
    return f"{ticks * base // factor} {unit}"


def _unit_fits(window: TimeWindow, base_unit: str) -> bool:
    """True if every number of ``window`` is a whole number of its unit (else print base ticks)."""
    if window.unit is None or window.unit not in UNIT_MS:
        return False
    factor, base = UNIT_MS[window.unit], UNIT_MS[base_unit]
    if window.u == 0 and window.d == 1:
        written = [window.l]  # [L unit]
    elif window.u == 0 and window.l is not None:
        written = [window.l, window.d]  # [L unit step D unit]
    else:
        written = [window.l, window.u, window.d]
    numbers = [n for n in written if n is not None]
    return all((n * base) % factor == 0 for n in numbers)


def format_window(window: TimeWindow | TupleWindow | PartitionWindow, unicode: bool = False, *, base_unit: str = DEFAULT_BASE_UNIT) -> str:
    """``[10 sec]``, ``[30 step 10]``, ``[3, 1, 3]``, ``[now]``, ``[all]``, ``[3 #]``, ``[3 # key]``;
    with ``unicode=True`` the window operator ``⊞^…``."""
    if isinstance(window, TupleWindow):
        return f"⊞^{{#{window.n}}}" if unicode else f"[{window.n} #]"
    if isinstance(window, PartitionWindow):
        key = format_atom(window.key)
        return f"⊞^{{#{window.n} {key}}}" if unicode else f"[{window.n} # {key}]"
    unit = window.unit if _unit_fits(window, base_unit) else None

    def dur(n: int) -> str:
        return _duration(n, unit, base_unit)

    length = "∞" if window.l is None and unicode else ("all" if window.l is None else dur(window.l))
    if unicode:
        if window.u == 0 and window.d == 1:
            return f"⊞^{{{length}}}" if unit is not None and window.l is not None else f"⊞^{length}"
        return f"⊞^{{{length},{dur(window.u)},{dur(window.d)}}}"
    if window.u == 0 and window.d == 1:
        if window.l is None:
            return "[all]"
        if window.l == 0 and window.unit is None:
            return "[now]"
        return f"[{length}]"
    if window.u == 0 and window.l is not None:
        return f"[{length} step {dur(window.d)}]"
    return f"[{length}, {dur(window.u)}, {dur(window.d)}]"


# ------------------------------------------------------------------------------------ extended atoms


def format_extended(ext: Atom | At | Diamond | Box | WindowAt, unicode: bool = False, *, base_unit: str = DEFAULT_BASE_UNIT) -> str:
    """An extended atom: ``a``, ``a at T``, ``a [W]``, ``a always [W]``, ``a at T [W]``."""
    if isinstance(ext, Atom):
        return format_atom(ext)
    if isinstance(ext, At):
        t = _time_term(ext.time, unicode)
        return f"@_{t} {format_atom(ext.atom)}" if unicode else f"{format_atom(ext.atom)} at {t}"
    win = format_window(ext.window, unicode, base_unit=base_unit)
    atom = format_atom(ext.atom)
    if isinstance(ext, Diamond):
        return f"{win} ◇ {atom}" if unicode else f"{atom} {win}"
    if isinstance(ext, Box):
        return f"{win} □ {atom}" if unicode else f"{atom} always {win}"
    if isinstance(ext, WindowAt):
        t = _time_term(ext.time, unicode)
        return f"{win} @_{t} {atom}" if unicode else f"{atom} at {t} {win}"
    raise TypeError(f"not an extended atom: {ext!r}")


def format_aggregate_element(element: AggregateElement, unicode: bool = False) -> str:
    """``X,Y : p(X,Y), not q(X), X != 3`` (clingo's syntax)."""
    terms = ",".join(format_term(t) for t in element.terms)
    if not element.condition:
        return terms
    return f"{terms} : {', '.join(format_body_element(c, unicode) for c in element.condition)}"


def format_body_element(element: Literal | Comparison | AggregateAssignment, unicode: bool = False, *, base_unit: str = DEFAULT_BASE_UNIT) -> str:
    if isinstance(element, AggregateAssignment):
        op = {"!=": "≠", "<=": "≤", ">=": "≥"}.get(element.op, element.op) if unicode else element.op
        elements = "; ".join(format_aggregate_element(e, unicode) for e in element.elements)
        return f"{format_term(element.left)} {op} #{element.function}{{{elements}}}"
    if isinstance(element, Comparison):
        op = {"!=": "≠", "<=": "≤", ">=": "≥"}.get(element.op, element.op) if unicode else element.op
        return f"{format_term(element.left)} {op} {format_term(element.right)}"
    text = format_extended(element.atom, unicode, base_unit=base_unit)
    return f"not {text}" if element.negated else text


def format_rule(rule: Rule, unicode: bool = False, *, base_unit: str = DEFAULT_BASE_UNIT) -> str:
    """``h(X) :- a(X), not b(X) [3 sec].``; facts ``p(1).``; constraints ``:- a, b.``"""
    head = "" if rule.head is None else format_extended(rule.head, unicode, base_unit=base_unit)
    if not rule.body:
        return f"{head}." if not unicode else head
    body = ", ".join(format_body_element(b, unicode, base_unit=base_unit) for b in rule.body)
    if unicode:
        return f"{head} ← {body}" if head else f"← {body}"
    return f"{head} :- {body}." if head else f":- {body}."


def format_program(program: Program, unicode: bool = False, *, base_unit: str = DEFAULT_BASE_UNIT) -> str:
    """One rule per line, in program order, ending with a newline (empty program: ``""``)."""
    return "".join(format_rule(r, unicode, base_unit=base_unit) + "\n" for r in program.rules)


# ------------------------------------------------------------------------------------------- streams


def format_stream_text(stream) -> str:
    """A LARS data stream in the text syntax ``lars.streams`` reads: ``T: atom, atom`` per time point
    with data (arrival order kept; ``T:`` for an empty time point), ascending."""
    return "".join(f"{t}: {', '.join(format_atom(a) for a in atoms)}".rstrip() + "\n" for t, atoms in stream.items())


def format_stream_jsonl(stream) -> str:
    """A LARS data stream as JSON lines ``{"t": T, "atoms": [...]}`` (the other syntax ``lars.streams`` reads)."""
    import json

    return "".join(json.dumps({"t": t, "atoms": [format_atom(a) for a in atoms]}, ensure_ascii=False) + "\n"
                   for t, atoms in stream.items())
