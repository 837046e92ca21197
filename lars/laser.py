"""A reader for the rule syntax of the Laser LARS engine (github.com/karmaresearch/Laser), used to
run Laser's unit cases through ``lars.reference`` (``tests/data/lars/laser``; ``docs/lars.md``).

Laser writes a rule ``head :- F1 and F2 and …`` with formulas

==============================  ===================================================
Laser                           rsplars model (LARS, Beck et al. AAAI 2015)
==============================  ===================================================
``p(X)``                        ``p(X)``
``not(F)``                      ``not F``
``diamond(a)`` / ``box(a)``     ``⊞^∞ ◇a`` / ``⊞^∞ □a`` (no window: the whole stream)
``@(T, a)``                     ``@_T a``
``time_win(l,u,d, diamond(a))`` ``⊞^{l,u,d} ◇a`` (likewise ``box``, ``@(T, a)``)
``tuple_win(n, diamond(a))``    ``⊞^{#n} ◇a`` (likewise ``box``, ``@(T, a)``)
``W(diamond(not(a)))``          ``not W(□a)``  (◇¬a ≡ ¬□a)
``W(box(not(a)))``              ``not W(◇a)``  (□¬a ≡ ¬◇a)
``W(a)``                        ``⊞^0 @_N true, W(@_N a)``: a holds at t in the window
==============================  ===================================================

Laser's own semantics differ from LARS in places (negation inside windows, derived atoms fed back
as input, D10); the reader gives the LARS reading, and the tests name the cases that differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import count
from typing import Iterator

from lars.errors import SourceError, UnsupportedError
from lars.model import (
    ALL,
    NOW,
    TRUE,
    At,
    Atom,
    Box,
    Constant,
    Diamond,
    Function,
    Integer,
    Literal,
    Program,
    Rule,
    Term,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)

_TOKEN = re.compile(r"\s*(?:(?P<name>[a-z][A-Za-z0-9_]*)|(?P<var>[A-Z_][A-Za-z0-9_]*)|(?P<int>-?[0-9]+)|(?P<punct>:-|[(),@]))")


@dataclass(frozen=True)
class _Node:
    """A parsed Laser expression: a name (or ``@``) applied to arguments, or a leaf term."""

    name: str
    args: tuple["_Node", ...] = ()
    leaf: Term | None = None


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise self.error("unexpected character", pos)
            kind = m.lastgroup
            assert kind is not None
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def error(self, message: str, pos: int) -> SourceError:
        return SourceError(message, source=self.source, line=1, column=pos + 1, text=self.text)

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", "", len(self.text))

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise self.error(f"expected {value!r}", token[2])
        self.i += 1
        return token

    def node(self) -> _Node:
        kind, text, pos = self.take()
        if kind == "var":
            return _Node(text, leaf=Variable(text))
        if kind == "int":
            return _Node(text, leaf=Integer(int(text)))
        if kind not in ("name", "punct") or (kind == "punct" and text != "@"):
            raise self.error("expected a formula", pos)
        if self.peek()[1] != "(":
            return _Node(text, leaf=Constant(text))
        self.take("(")
        args = [self.node()]
        while self.peek()[1] == ",":
            self.take(",")
            args.append(self.node())
        self.take(")")
        return _Node(text, tuple(args))

    def conjunction(self) -> list[_Node]:
        out = [self.node()]
        while self.peek() == ("name", "and", self.peek()[2]):
            self.take()
            out.append(self.node())
        return out


def _term(node: _Node) -> Term:
    if node.leaf is not None:
        return node.leaf
    return Function(node.name, tuple(_term(a) for a in node.args))


def _atom(node: _Node) -> Atom:
    if isinstance(node.leaf, Constant):
        return Atom(node.leaf.name)
    if node.leaf is None and node.name not in ("not", "diamond", "box", "@", "time_win", "tuple_win"):
        return Atom(node.name, tuple(_term(a) for a in node.args))
    raise UnsupportedError(f"Laser formula {node.name!r} where an atom is expected", "Laser reader")


def _int(node: _Node) -> int:
    if not isinstance(node.leaf, Integer):
        raise UnsupportedError("window parameters must be integers", "Laser reader")
    return node.leaf.value


def _literals(node: _Node, fresh: Iterator[int]) -> list[Literal]:
    """The LARS literals equivalent to one Laser conjunct (module table)."""
    if node.name == "not" and len(node.args) == 1 and node.leaf is None:
        inner = _literals(node.args[0], fresh)
        if len(inner) != 1:
            raise UnsupportedError("negation of a window over a plain atom", "Laser reader")
        return [Literal(inner[0].atom, not inner[0].negated)]
    if node.name in ("time_win", "tuple_win") and node.leaf is None:
        if node.name == "time_win" and len(node.args) == 4:
            window: TimeWindow | TupleWindow = TimeWindow(_int(node.args[0]), _int(node.args[1]), _int(node.args[2]))
        elif node.name == "tuple_win" and len(node.args) == 2:
            window = TupleWindow(_int(node.args[0]))
        else:
            raise UnsupportedError(f"{node.name} with {len(node.args)} arguments", "Laser reader")
        return _windowed(window, node.args[-1], fresh)
    if node.name in ("diamond", "box", "@") and node.leaf is None:
        return _windowed(ALL, node, fresh)
    return [Literal(_atom(node))]


def _windowed(window: TimeWindow | TupleWindow, node: _Node, fresh: Iterator[int]) -> list[Literal]:
    """``window`` applied to a diamond, box, @ or plain atom."""
    if node.name in ("diamond", "box") and node.leaf is None and len(node.args) == 1:
        inner = node.args[0]
        negated = inner.name == "not" and inner.leaf is None and len(inner.args) == 1
        atom = _atom(inner.args[0] if negated else inner)
        diamond = (node.name == "diamond") != negated  # ◇¬a ≡ ¬□a, □¬a ≡ ¬◇a
        return [Literal(Diamond(window, atom) if diamond else Box(window, atom), negated)]
    if node.name == "@" and node.leaf is None and len(node.args) == 2:
        time = _term(node.args[0])
        atom = _atom(node.args[1])
        return [Literal(At(atom, time) if window == ALL else WindowAt(window, atom, time))]
    # a plain atom under a window: it holds at t in the window
    now = Variable(f"Now{next(fresh)}")
    return [Literal(WindowAt(NOW, TRUE, now)), Literal(WindowAt(window, _atom(node), now))]


def parse_laser_rule(text: str, source: str = "<laser>", *, fresh: Iterator[int] | None = None) -> Rule:
    """One Laser rule ``head :- F1 and F2 …`` (or a fact ``head``)."""
    reader = _Reader(text, source)
    head_node = reader.node()
    if head_node.name == "@" and head_node.leaf is None and len(head_node.args) == 2:
        head: Atom | At = At(_atom(head_node.args[1]), _term(head_node.args[0]))
    else:
        head = _atom(head_node)
    if reader.peek()[0] == "end":
        return Rule(head, ())
    reader.take(":-")
    conjuncts = reader.conjunction()
    if reader.peek()[0] != "end":
        raise reader.error("expected 'and' or the end of the rule", reader.peek()[2])
    fresh = fresh if fresh is not None else count(1)
    body = tuple(lit for node in conjuncts for lit in _literals(node, fresh))
    return Rule(head, body)


def parse_laser_program(rules: list[str], source: str = "<laser>") -> Program:
    """Laser rules (one string each) as a LARS program."""
    fresh = count(1)
    return Program(tuple(parse_laser_rule(r, f"{source}[{i}]", fresh=fresh) for i, r in enumerate(rules)))
