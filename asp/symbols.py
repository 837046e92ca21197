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
from typing import Callable, Mapping

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


# ------------------------------------------------------------------------- bulk symbol access
# The engine handles tens of thousands of symbols per time point on streams of fresh atoms. The
# public clingo API wraps every symbol in a Python object and every call in error handling
# (≈ 5 µs per ``Function``, per model symbol); the helpers below go through clingo's C API
# (``clingo._internal``: the cffi library the Python API itself calls) for the hot paths, and
# fall back to the public API where that module is not available. A symbol is identified by its
# handle (``Symbol._rep``, an integer): clingo interns symbols, so equal symbols have equal handles
# in every Control of the process.

try:  # pragma: no branch
    from clingo._internal import _ffi as _cffi, _lib as _clib  # type: ignore[attr-defined]

    _SHOWN = _clib.clingo_show_type_shown
except Exception:  # pragma: no cover - other clingo builds
    _cffi = _clib = None
    _SHOWN = 0


def model_handles(model) -> list[int]:
    """The handles of the shown symbols of a clingo model (``model.symbols(shown=True)``)."""
    if _clib is None:  # pragma: no cover
        return [s._rep for s in model.symbols(shown=True)]
    rep = model._rep
    size = _cffi.new("size_t*")
    if not _clib.clingo_model_symbols_size(rep, _SHOWN, size):
        return [s._rep for s in model.symbols(shown=True)]
    n = size[0]
    arr = _cffi.new("clingo_symbol_t[]", n)
    if not _clib.clingo_model_symbols(rep, _SHOWN, arr, n):
        return [s._rep for s in model.symbols(shown=True)]
    return _cffi.unpack(arr, n)


def handle_symbol(handle: int) -> Symbol:
    """The symbol of a handle (see :func:`model_handles`)."""
    return Symbol(handle)  # type: ignore[call-arg]


class SymbolMaker:
    """Function symbols ``name(args…)`` from argument symbols, through the C API (one call per
    symbol instead of a Python ``Function`` with its argument array and error handling)."""

    def __init__(self) -> None:
        self._names: dict[str, bytes] = {}
        if _clib is not None:
            self._out = _cffi.new("clingo_symbol_t*")
            self._arrays = [_cffi.new("clingo_symbol_t[]", n) for n in range(8)]

    def function(self, name: str, args: list[Symbol]) -> Symbol:
        if _clib is None or len(args) >= 8:
            return SymFunction(name, args)
        raw = self._names.get(name)
        if raw is None:
            raw = self._names[name] = name.encode()
        arr = self._arrays[len(args)]
        for i, a in enumerate(args):
            arr[i] = a._rep
        if not _clib.clingo_symbol_create_function(raw, arr, len(args), True, self._out):
            return SymFunction(name, args)
        return Symbol(self._out[0])  # type: ignore[call-arg]


def find_literals(symbolic_atoms, symbols: list[Symbol]) -> list[int | None]:
    """The program literal of each symbol among ``ctl.symbolic_atoms`` (None: not an atom)."""
    if _clib is None:  # pragma: no cover
        out: list[int | None] = []
        for s in symbols:
            a = symbolic_atoms[s]
            out.append(None if a is None else a.literal)
        return out
    rep = symbolic_atoms._rep
    it = _cffi.new("clingo_symbolic_atom_iterator_t*")
    valid = _cffi.new("bool*")
    lit = _cffi.new("clingo_literal_t*")
    end = _cffi.new("clingo_symbolic_atom_iterator_t*")
    _clib.clingo_symbolic_atoms_end(rep, end)
    find, literal, equal = _clib.clingo_symbolic_atoms_find, _clib.clingo_symbolic_atoms_literal, _clib.clingo_symbolic_atoms_iterator_is_equal_to
    result: list[int | None] = []
    for s in symbols:
        find(rep, s._rep, it)
        equal(rep, it[0], end[0], valid)
        if valid[0]:
            result.append(None)
            continue
        literal(rep, it[0], lit)
        result.append(lit[0])
    return result


def find_function_literals(symbolic_atoms, name: str, argsets: list[tuple[Symbol, ...]]) -> list[int | None]:
    """``find_literals`` of the symbols ``name(*args)`` for each tuple of argument symbols, without
    building a Python symbol per atom."""
    if _clib is None or not argsets or max(map(len, argsets)) >= 8:
        return find_literals(symbolic_atoms, [SymFunction(name, list(args)) for args in argsets])
    rep = symbolic_atoms._rep
    it = _cffi.new("clingo_symbolic_atom_iterator_t*")
    valid = _cffi.new("bool*")
    lit = _cffi.new("clingo_literal_t*")
    end = _cffi.new("clingo_symbolic_atom_iterator_t*")
    out = _cffi.new("clingo_symbol_t*")
    arrays = [_cffi.new("clingo_symbol_t[]", n) for n in range(8)]
    raw = name.encode()
    _clib.clingo_symbolic_atoms_end(rep, end)
    create = _clib.clingo_symbol_create_function
    find, literal, equal = _clib.clingo_symbolic_atoms_find, _clib.clingo_symbolic_atoms_literal, _clib.clingo_symbolic_atoms_iterator_is_equal_to
    result: list[int | None] = []
    for args in argsets:
        n = len(args)
        arr = arrays[n]
        for i, a in enumerate(args):
            arr[i] = a._rep
        if not create(raw, arr, n, True, out):
            result.extend(find_literals(symbolic_atoms, [SymFunction(name, list(args))]))
            continue
        find(rep, out[0], it)
        equal(rep, it[0], end[0], valid)
        if valid[0]:
            result.append(None)
            continue
        literal(rep, it[0], lit)
        result.append(lit[0])
    return result


def assign_externals(ctl, literals: list[int], value: bool) -> None:
    """``ctl.assign_external(lit, value)`` for every literal (through the C API)."""
    if _clib is None:  # pragma: no cover
        for lit in literals:
            ctl.assign_external(lit, value)
        return
    rep = ctl._rep
    val = _clib.clingo_external_type_true if value else _clib.clingo_external_type_false
    assign = _clib.clingo_control_assign_external
    for lit in literals:
        if not assign(rep, lit, val):
            ctl.assign_external(lit, value)  # raises clingo's error
