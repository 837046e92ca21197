"""Stream terms as integer ids in the ground program, reused once a term is no longer referred to.

clingo interns every symbol and never frees one: on a stream whose observations are all new
constants (``o123_4``), every constant, every atom over it and every external atom over that adds
to clingo's symbol table for the rest of the process, and memory grows with the stream. So, when
the program cannot tell a term from an id, the engine hands clingo the number ``base + id``
instead of the term: ids are assigned per distinct stream term and returned to a free list when
the solver forgets the last atom that mentions the term (``StreamIndex.collect``: no window, no
time point still loaded and no external of the current ground program refers to it). New terms
then reuse the same numbers, and the atoms over them the same clingo symbols: the symbol table
stays as large as what the windows hold, not as the stream.

**When it is exact** (:func:`id_safe`): the ground program must only ever *compare terms for
identity* — join variables, match an atom — which a one-to-one renaming preserves. That holds
when the program has no comparison, no arithmetic over terms, no grounding-time function, no
aggregate and no function term, and no variable is both an atom argument and a time (``@_T``). The
program's own constants are never renamed (they are matched against the stream), so a stream term
equal to one of them stays itself; the ids start above every integer of the program, so an id
never equals a program constant. Answers are printed by replacing each id by its term's text
(``lars.printer.format_term``).

**Why an id is never seen with two meanings.** A term's id is released only when no atom of the
stream index mentions it, and the index keeps every atom a window holds, every atom of a loaded
time point and every atom the current epoch declared as an external; every atom of the ground
program and every derived atom is built from those and from program constants. So at the time an
id is released no symbol of the current ground program, and no atom of the current answer,
contains it (``tests/asp/test_fresh_streams.py`` checks against the reference semantics on streams
of mostly fresh terms that leave every window and come back).
"""

from __future__ import annotations

import re
from collections import deque
from typing import Iterable

from clingo.symbol import Number, Symbol

from asp.symbols import term_symbol
from lars.model import (
    AggregateAssignment,
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
    Program,
    String,
    Term,
    Variable,
    WindowAt,
)
from lars.printer import format_term

_MIN_BASE = 1 << 24
# a string or a name (left alone: they may hold digits), or an integer
_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|[A-Za-z_][A-Za-z0-9_\']*|-?[0-9]+')


def _atoms_and_times(rule) -> tuple[list[Atom], list[Term]]:
    atoms: list[Atom] = []
    times: list[Term] = []

    def extended(ext) -> None:
        if isinstance(ext, Atom):
            atoms.append(ext)
        elif isinstance(ext, (Diamond, Box)):
            atoms.append(ext.atom)
        elif isinstance(ext, (At, WindowAt)):
            atoms.append(ext.atom)
            times.append(ext.time)

    if rule.head is not None:
        extended(rule.head)
    for element in rule.body:
        if isinstance(element, Literal):
            extended(element.atom)
    return atoms, times


def _variables(term: Term) -> set[str]:
    if isinstance(term, Variable):
        return {term.name}
    if isinstance(term, Arith):
        return _variables(term.left) | _variables(term.right)
    if isinstance(term, (Function, Call)):
        out: set[str] = set()
        for a in term.args:
            out |= _variables(a)
        return out
    return set()


def id_safe(program: Program) -> bool:
    """Whether renaming stream terms one to one (except the program's constants) cannot change any
    answer (see the module docstring)."""
    for rule in program.rules:
        if any(isinstance(e, (Comparison, AggregateAssignment)) for e in rule.body):
            return False
        atoms, times = _atoms_and_times(rule)
        arg_vars: set[str] = set()
        for atom in atoms:
            for a in atom.args:
                if isinstance(a, (Arith, Call, Function)):
                    return False
                arg_vars |= _variables(a)
        for time in times:
            if isinstance(time, (Call, Function)) or _variables(time) & arg_vars:
                return False
    return True


def program_terms(program: Program) -> frozenset[Term]:
    """The ground terms written in the program's atoms (they keep their own symbols)."""
    out: set[Term] = set()
    for rule in program.rules:
        for atom in _atoms_and_times(rule)[0]:
            out.update(a for a in atom.args if isinstance(a, (Constant, String, Integer)))
    return frozenset(out)


class TermIds:
    """Stream term ↔ ``Number(base + id)``, with ids reused (see the module docstring)."""

    def __init__(self, program: Program) -> None:
        self.keep = program_terms(program)
        biggest = max((abs(t.value) for t in self.keep if isinstance(t, Integer)), default=0)
        self.base = max(_MIN_BASE, biggest + 1)
        self.ids: dict[Term, int] = {}
        self.texts: dict[int, str] = {}
        self.free: deque[int] = deque()
        self.next = 0  # ids ever used (the largest is next - 1)
        self.assigned = 0  # terms that got an id (a term forgotten and seen again counts twice)

    def symbol(self, term: Term) -> Symbol:
        if term in self.keep:
            return term_symbol(term)
        i = self.ids.get(term)
        if i is None:
            if self.free:
                i = self.free.popleft()
            else:
                i = self.next
                self.next += 1
            self.ids[term] = i
            self.texts[i] = format_term(term)
            self.assigned += 1
        return Number(self.base + i)

    def release_unused(self, atoms: Iterable[Atom]) -> None:
        """Free the ids of the terms that none of ``atoms`` (the atoms still referred to) mentions;
        freed ids are reused first in first out, so that new terms tend to take the numbers of the
        terms they replace and the atoms over them the same clingo symbols."""
        used = {a for atom in atoms for a in atom.args}
        for term in [term for term in self.ids if term not in used]:
            i = self.ids.pop(term)
            del self.texts[i]
            self.free.append(i)

    def render(self, symbol: Symbol) -> str:
        """An answer atom with every id replaced by its term (``lars.printer.format_atom``'s text):
        clingo prints the symbol, and every number at or above ``base`` outside a string is an id."""
        text = str(symbol)
        if "\t" in text:  # clingo prints a tab raw; lars.printer.format_atom writes \t
            text = text.replace("\t", "\\t")
        base, texts = self.base, self.texts

        def replace(m: re.Match) -> str:
            token = m.group(0)
            if not (token[0] == "-" or token[0].isdigit()):
                return token
            n = int(token)
            return texts[n - base] if n >= base else token

        return _TOKENS.sub(replace, text)
