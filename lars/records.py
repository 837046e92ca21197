"""``dataclass`` as the standard library's, with its generated methods compiled once per user.

The models (``lars.model``, ``translator.query.model``, ``translator.translate.algebra``) are some
eighty frozen dataclasses. Creating one costs about 4 M instructions on Python 3.11, two thirds of
it compiling the methods ``dataclasses`` generates (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``, ``__delattr__``, ...): ``dataclasses._create_fn`` builds each
method's source text and runs it with ``exec``, which compiles it anew in every process —
≈ 0.3 G instructions of every start-up of ``rsplars run`` (docs/performance.md, session 10).

:func:`dataclass` here *is* :func:`dataclasses.dataclass` (same arguments, same classes: fields,
``replace``, ``asdict``, pickling, equality, hashing, ``repr``, ``__match_args__`` and
immutability all come from the standard library). The only difference: while it runs, the
``exec`` that ``dataclasses._create_fn`` calls (a module global of ``dataclasses`` shadowing the
builtin, removed again afterwards) looks the method's source text up in a table of compiled code
objects first. The code object of a text is the one ``exec(text)`` compiles (file name
``<string>``, no ``__future__`` flags), so the methods are the same functions as without the
table.

The table is used only when the command line turned it on (:func:`use_code_cache`, called by
``translator.cli`` for the process's own command line); it is kept with ``marshal`` in the user's
cache folder of :mod:`lars.program_cache` (same rules: read only from a folder owned by the user
and writable by no one else, written atomically, a folder that cannot be written is skipped),
one file per module and Python version, read when the module makes its first class (a run reads
only the tables of the modules it imports; ``marshal.loads`` of a file's bytes is a small part of
compiling its texts). The entries are keyed by the whole source text, so texts of another
``dataclasses`` or of changed classes simply miss. Library use (tests, notebooks) compiles as
``dataclasses`` always does.

:mod:`inspect` (with ``ast``, ``dis``, ``tokenize``: ≈ 35 M instructions, most of what importing
``dataclasses`` costs) is needed by ``dataclasses`` for one thing only: the docstring
``Name(field: type, …)`` of a class that has none, from ``inspect.signature``. When this module is
the first to import ``dataclasses``, that module's name ``inspect`` is bound to a stand-in that
imports :mod:`inspect` at its first use (:func:`_stand_in`; :mod:`copy` too), and while the tables are on, a
class without a docstring gets that same text when its ``__doc__`` is first read
(:class:`_SignatureDoc`), not at its creation. A run then never imports :mod:`inspect`
(docs/performance.md, session 11, round 2).
"""

from __future__ import annotations

import sys


#: the modules ``dataclasses`` imports for one rare use each: inspect (a docstring, see above) and
#: copy (``asdict``/``astuple``'s deep copies; with weakref ≈ 4 M instructions)
_ON_FIRST_USE = ("inspect", "copy")


def _stand_in(module: str):
    """A module bound in ``dataclasses`` as ``module`` until first used: the first attribute read
    imports ``module``, binds it in ``dataclasses`` in place of the stand-in and returns the attribute."""
    from types import ModuleType

    def first_use(name: str):
        import dataclasses
        import importlib

        real = importlib.import_module(module)
        setattr(dataclasses, module, real)
        return getattr(real, name)

    stand_in = ModuleType(module, f"imports {module} at its first use (lars.records)")
    stand_in.__getattr__ = first_use  # type: ignore[method-assign]  # PEP 562
    return stand_in


def _import_dataclasses_without_inspect() -> None:
    if "dataclasses" in sys.modules or any(module in sys.modules for module in _ON_FIRST_USE):
        return  # imported already (pytest, a notebook): nothing to save
    for module in _ON_FIRST_USE:
        sys.modules[module] = _stand_in(module)  # what `import inspect`/`import copy` in dataclasses binds
    try:
        import dataclasses  # noqa: F401
    finally:
        for module in _ON_FIRST_USE:
            del sys.modules[module]


_import_dataclasses_without_inspect()

import _sre  # noqa: E402
import dataclasses  # noqa: E402
import marshal  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
from dataclasses import field  # noqa: E402,F401 (re-exported: the models import both from here)
from types import CodeType  # noqa: E402

_FORMAT = 2
#: at most this many texts are kept per module (a table only grows with changed classes; past this it starts over)
_LIMIT = 1000

_folder: str | None = None
_on = False  # whether the tables are on (use_code_cache)
_tables: dict[str, dict[str, CodeType]] = {}  # module -> source text -> code; read on the module's first class
_added: set[str] = set()  # modules whose table this process changed
_current: tuple[str, dict[str, CodeType]] | None = None  # the module and table of the class being made
_depth = 0


def dataclass(cls=None, /, **options):
    """:func:`dataclasses.dataclass` with the same arguments; the generated methods' code comes from
    the table of the class's module when the tables are on (see the module docstring)."""

    def wrap(c):
        global _depth, _current
        if not _on:
            return dataclasses.dataclass(c, **options)
        outer = _current
        _current = (c.__module__, _table(c.__module__))
        _depth += 1
        dataclasses.exec = _exec  # type: ignore[attr-defined]  # looked up by dataclasses._create_fn
        undocumented = not c.__doc__  # dataclasses' test: it would call inspect.signature
        if undocumented:
            c.__doc__ = _PENDING
        try:
            made = dataclasses.dataclass(c, **options)
            if undocumented:
                made.__doc__ = _SignatureDoc()
            return made
        finally:
            _current = outer
            _depth -= 1
            if not _depth:  # (start-up imports run in one thread; the count only covers nesting)
                vars(dataclasses).pop("exec", None)

    return wrap if cls is None else wrap(cls)


_PENDING = "(the signature, made on first use)"


class _SignatureDoc:
    """The ``__doc__`` of a dataclass written without one: the text ``dataclasses`` gives it,
    ``Name(field: type, …)`` from ``inspect.signature``, made when first read (then kept as the
    class's ``__doc__``), so that making the class does not import :mod:`inspect`."""

    def __get__(self, instance, owner):
        import inspect

        text = owner.__name__ + str(inspect.signature(owner)).replace(" -> None", "")
        if vars(owner).get("__doc__") is self:
            owner.__doc__ = text
        return text


def _exec(source, globals=None, locals=None, /):
    """``exec(source, globals, locals)`` with the code of ``source`` from the current table."""
    if _current is None or not isinstance(source, str):
        return exec(source, globals, locals)
    module, table = _current
    code = table.get(source)
    if code is None:
        code = compile(source, "<string>", "exec", dont_inherit=True)  # what exec(source) compiles in dataclasses
        if len(table) >= _LIMIT:
            table.clear()
        table[source] = code
        _added.add(module)
    exec(code, globals, locals)


def _path(module: str) -> str:
    return os.path.join(_folder, f"records-{sys.implementation.cache_tag}-{module}.marshal")  # type: ignore[arg-type]


def _table(module: str) -> dict[str, CodeType]:
    """The table of ``module``, read from the cache folder on its first class (each run reads only
    the tables of the modules it imports)."""
    table = _tables.get(module)
    if table is not None:
        return table
    table = _tables[module] = {}
    if _readable:
        try:
            with open(_path(module), "rb") as handle:
                entry = marshal.loads(handle.read())
            if (isinstance(entry, tuple) and len(entry) == 3 and entry[:2] == (_FORMAT, sys.version)
                    and isinstance(entry[2], dict)):
                table.update(entry[2])
        except (OSError, EOFError, ValueError, TypeError):
            pass  # no table yet, or one this Python cannot read: compile
    return table


_RE = "re"  # the table of regular expressions: (is bytes, pattern, flags) -> the arguments of _sre.compile
_real_re_compile = re._compiler.compile  # type: ignore[attr-defined]
_real_sre_compile = _sre.compile


def _compile_pattern(p, flags=0):
    """``re._compiler.compile(p, flags)`` (what ``re.compile`` calls for a pattern not in its own
    cache) while the tables are on: the arguments ``re._compiler.compile`` gives ``_sre.compile`` for
    that pattern text and flags (its code, groups and group names) come from the table ``re``, so
    the text is not parsed and compiled again; a pattern not in the table is compiled as always and
    its arguments added. Module-level patterns cost ≈ 38 M instructions of every ``rsplars run``
    (docs/performance.md, session 11 round 2)."""
    if type(p) not in (str, bytes) or flags & re.DEBUG:
        return _real_re_compile(p, flags)
    key = (type(p) is bytes, p, flags)
    table = _table(_RE)
    args = table.get(key)
    if args is not None:
        try:
            return _real_sre_compile(*args)
        except (RuntimeError, TypeError, ValueError):  # code _sre does not take (it validates it): compile
            del table[key]
    seen: list[tuple] = []

    def capture(*args):
        seen.append(args)
        return _real_sre_compile(*args)

    _sre.compile = capture
    try:
        compiled = _real_re_compile(p, flags)
    finally:
        _sre.compile = _real_sre_compile
    if len(seen) == 1 and seen[0][0] is p:  # (another thread compiling at the same time: not kept)
        if len(table) >= _LIMIT:
            table.clear()
        pattern, final_flags, code, groups, groupindex, indexgroup = seen[0]
        # plain ints (the code holds re's named opcode constants, which marshal cannot write)
        table[key] = (pattern, int(final_flags), [int(c) for c in code], int(groups),
                      {name: int(i) for name, i in groupindex.items()}, indexgroup)
        _added.add(_RE)
    return compiled


_trusted = None
_readable = False  # a folder to read tables from (there is one and it is trusted)


def use_code_cache() -> None:
    """Turn the tables on for this process: each module's table is read from the user's cache folder
    (when there is one and it is trusted) on the module's first class, and written back at exit if
    this process compiled texts it did not hold."""
    global _on, _folder, _trusted, _readable
    if _on:
        return
    from lars.program_cache import cache_dir, trusted

    _on, _folder, _trusted = True, cache_dir(), trusted
    _readable = _folder is not None and trusted(_folder)
    re._compiler.compile = _compile_pattern  # type: ignore[attr-defined]
    if _folder is not None:
        import atexit

        atexit.register(_store)


def _store() -> None:
    """Write the tables this process added texts to back, each atomically."""
    if _folder is None or _trusted is None:
        return
    from lars.program_cache import write_atomically

    for module in sorted(_added):
        table = _tables[module]
        if not write_atomically(_folder, _path(module), lambda handle: marshal.dump((_FORMAT, sys.version, table), handle)):
            break
    _added.clear()
