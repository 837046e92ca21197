"""Ground terms as their canonical texts in the incremental engine.

Inside the engine a ground term is its text as ``lars.printer.format_term`` prints it (one text
per term and back): :func:`text_of` and :func:`parse_term` convert, :class:`TermView` converts on
first access, :class:`CachedFunction` caches a grounding-time function per argument tuple, and
:func:`text_test` / :func:`on_texts` evaluate the built-ins that offer to work on texts.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from lars.bounds import TERM_CACHE_SIZE
from lars.evaluation import COMPARE, GroundTerm, clingo_order
from lars.model import Call, Comparison, Constant, Integer, String, Term, Variable
from lars.printer import format_term
from lars.streams import parse_ground_atom, parse_string_text

#: the most entries a cache of terms or of call results holds before it is cleared (memory stays flat)
CACHE_MAX = TERM_CACHE_SIZE


def text_test(c: Comparison, names: tuple, functions: Mapping[str, Callable]) -> Callable[[tuple], bool | None] | None:
    """For a comparison ``@f(a1, …) op k`` (k ground, each ai a variable of ``names`` or ground)
    whose function offers ``on_texts`` — the same function of the arguments' canonical texts
    (``lars.printer.format_term``), giving its value or ``None`` where it cannot decide without the
    terms — the test of the comparison on the variables' texts ``vals`` (``None``: undecided)."""
    call, other = (c.left, c.right) if isinstance(c.left, Call) else (c.right, c.left)
    if not isinstance(other, (Constant, Integer, String)):
        return None
    from_texts = on_texts(call, names, functions)
    if from_texts is None:
        return None
    key, holds, call_left = clingo_order(other), COMPARE[c.op], c.left is call

    def test(vals: tuple) -> bool | None:
        value = from_texts(vals)
        if value is None:
            return None
        return holds(clingo_order(value), key) if call_left else holds(key, clingo_order(value))

    return test


def on_texts(call, names: tuple, functions: Mapping[str, Callable]) -> Callable[[tuple], Term | None] | None:
    """For a call ``@f(a1, …)`` (each ai a variable of ``names`` or ground) whose function offers
    ``on_texts`` — the same function of the arguments' canonical texts (``lars.printer.format_term``),
    giving its value or ``None`` where it cannot decide without the terms — its value from the
    variables' texts ``vals`` (``None``: undecided); ``None`` for any other term. Used by
    :func:`text_test` (``@f(…) op k``) and for assignments ``X = @f(…)`` (``Engine.assigned``)."""
    if not isinstance(call, Call):
        return None
    fn = functions.get(call.name)
    on_texts = getattr(getattr(fn, "fn", fn), "on_texts", None)
    if on_texts is None:
        return None
    where = {n: i for i, n in enumerate(names)}
    parts: list[tuple[bool, Any]] = []  # (is a variable, its index in vals) or (False, a constant's text)
    for a in call.args:
        if isinstance(a, Variable) and a.name in where:
            parts.append((True, where[a.name]))
        elif isinstance(a, (Constant, Integer, String)):
            parts.append((False, format_term(a)))
        else:
            return None
    return lambda vals: on_texts([vals[x] if is_var else x for is_var, x in parts])


class CachedFunction:
    """A grounding-time function with its results cached per argument tuple."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.cache: dict[tuple, GroundTerm] = {}

    def __call__(self, *args: Term) -> GroundTerm:
        got = self.cache.get(args)
        if got is None:
            if len(self.cache) >= CACHE_MAX:
                self.cache.clear()
            got = self.cache[args] = self.fn(*args)
        return got


def text_of(term) -> str:
    """``format_term`` with the flat terms of streams done inline."""
    kind = type(term)
    if kind is Constant:
        return term.name
    if kind is Integer:
        return str(term.value)
    if kind is String:  # as lars.printer prints a string (without its dispatch)
        v = term.value
        if "\\" in v or '"' in v or "\n" in v or "\t" in v:
            return format_term(term)
        return f'"{v}"'
    return format_term(term)


_IDENT = re.compile(r"[a-z][A-Za-z0-9_]*")  # NAME of lars/grammars/lars.lark


def parse_term(text: str):
    """The ground term whose canonical text (``lars.printer.format_term``) is ``text``: strings
    (one regex, escapes undone), integers and constants directly, everything else by the LARS parser."""
    if text[:1] == '"':
        got = parse_string_text(text)  # a string (an RDF term's N-Triples text): its escapes undone
        if got is not None:
            return got
    if text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit())):
        value = int(text)
        if str(value) == text:
            return Integer(value)
    elif _IDENT.fullmatch(text):
        return Constant(text)
    return parse_ground_atom(f"x({text})").args[0]


class TermView(dict):
    """Variable name -> term, converted from the row's text on first access (``__getitem__``)."""

    __slots__ = ("texts", "term")

    def __init__(self, texts: dict, term) -> None:
        super().__init__()
        self.texts = texts
        self.term = term

    def __missing__(self, name: str):
        got = self[name] = self.term(self.texts[name])
        return got
