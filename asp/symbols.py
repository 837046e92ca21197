"""LARS terms and atoms as clingo symbols and as ASP text (the one ASP printer of ``asp``).

Ground LARS terms map one to one onto clingo symbols (D7): a constant ``a`` is the symbol
``a``, a string ``"s"`` the string symbol, an integer the number, ``f(t1,…)`` the function. The
text printed here is clingo's input syntax, so ``str(atom_symbol(a)) == format_atom(a)`` for the
ground atoms of a stream (what answers are printed as).

Names that start with :data:`RESERVED` are the encoding's own predicates (``docs/asp-encoding.md``);
a LARS program may not use them.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Callable, Iterable, Mapping

from clingo.symbol import Function as SymFunction
from clingo.symbol import Number, String as SymString, Symbol, SymbolType

from lars.errors import UnsupportedError
from lars.model import Arith, Atom, Call, Constant, Function, Integer, String, Term, Variable

RESERVED = "lars_"
"""Prefix of every auxiliary predicate of the encoding."""

# ------------------------------------------------------------------------------------- symbols


def term_symbol(term: Term) -> Symbol:
    """A ground LARS term as a clingo symbol."""
    if isinstance(term, Constant):
        return SymFunction(term.name)
    if isinstance(term, Integer):
        return Number(term.value)
    if isinstance(term, String):
        return SymString(term.value)
    if isinstance(term, Function):
        return SymFunction(term.name, [term_symbol(a) for a in term.args])
    raise UnsupportedError(f"non-ground term {term!r} in a stream atom", "asp engine")


def atom_symbol(atom: Atom) -> Symbol:
    """A ground LARS atom as a clingo symbol (``p(a,1,"s")``)."""
    return SymFunction(atom.predicate, [term_symbol(a) for a in atom.args])


def symbol_term(symbol: Symbol) -> Term:
    """A clingo symbol back as a ground LARS term (for grounding-time functions, ``Call``)."""
    if symbol.type == SymbolType.Number:
        return Integer(symbol.number)
    if symbol.type == SymbolType.String:
        return String(symbol.string)
    if symbol.type == SymbolType.Function:
        if not symbol.arguments and symbol.name:
            return Constant(symbol.name)
        return Function(symbol.name, tuple(symbol_term(a) for a in symbol.arguments))
    raise UnsupportedError(f"symbol {symbol} has no LARS term", "asp engine")


def make_context(functions: Mapping[str, Callable[..., Term]] | None) -> object | None:
    """A clingo grounding context whose methods call ``functions`` by name (``@name(args)``,
    :class:`lars.model.Call`): arguments arrive as LARS terms, the result goes back as a symbol."""
    if not functions:
        return None

    def wrap(fn: Callable[..., Term]) -> Callable[..., Symbol]:
        def call(*args: Symbol) -> Symbol:
            return term_symbol(fn(*(symbol_term(a) for a in args)))

        return call

    return type("LarsContext", (), {name: staticmethod(wrap(fn)) for name, fn in functions.items()})()


# ----------------------------------------------------------------------------------- ASP text

_ARITH_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "\\": 2}


@singledispatch
def asp_term(term: Term) -> str:
    """A (possibly non-ground) LARS term in clingo's input syntax."""
    raise TypeError(f"not a LARS term: {term!r}")


@asp_term.register
def _(term: Constant) -> str:
    return term.name


@asp_term.register
def _(term: Variable) -> str:
    return term.name


@asp_term.register
def _(term: Integer) -> str:
    return str(term.value) if term.value >= 0 else f"({term.value})"


@asp_term.register
def _(term: String) -> str:
    escaped = term.value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


@asp_term.register
def _(term: Function) -> str:
    return f"{term.name}({','.join(asp_term(a) for a in term.args)})"


@asp_term.register
def _(term: Call) -> str:
    return f"@{term.name}({','.join(asp_term(a) for a in term.args)})"


@asp_term.register
def _(term: Arith) -> str:
    # fully parenthesised: no precedence surprises between LARS and clingo
    return f"({asp_term(term.left)}{term.op}{asp_term(term.right)})"


def asp_atom(atom: Atom) -> str:
    """``p(X,a)`` / ``q``: an atom in clingo syntax (also usable as a term argument)."""
    if not atom.args:
        return atom.predicate
    return f"{atom.predicate}({','.join(asp_term(a) for a in atom.args)})"


def check_name(name: str, what: str) -> None:
    """Names of the program must not collide with the encoding's reserved prefix."""
    if name.startswith(RESERVED):
        raise UnsupportedError(f"{what} name {name!r}", "asp engine", f"the prefix {RESERVED!r} is reserved for the encoding")


# ------------------------------------------------------------------------- literals of symbols


def find_literals(symbolic_atoms, symbols: Iterable[Symbol]) -> list[int | None]:
    """The program literal of each symbol among ``ctl.symbolic_atoms`` (None: not an atom of the
    ground program), through clingo's public ``SymbolicAtoms.__getitem__`` and
    ``SymbolicAtom.literal``."""
    out: list[int | None] = []
    append = out.append
    for s in symbols:
        a = symbolic_atoms[s]
        append(None if a is None else a.literal)
    return out
