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
one file per Python version (the entries are keyed by the whole source text, so texts of another
``dataclasses`` or of changed classes simply miss). Library use (tests, notebooks) compiles as
``dataclasses`` always does.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import field  # noqa: F401 (re-exported: the models import both from here)
from types import CodeType

_FORMAT = 1
#: at most this many texts are kept (the table only grows with changed classes; past this it starts over)
_LIMIT = 4000

_codes: dict[str, CodeType] | None = None  # None: the table is off
_path: str | None = None
_folder: str | None = None
_added = False
_depth = 0


def dataclass(cls=None, /, **options):
    """:func:`dataclasses.dataclass` with the same arguments; the generated methods' code comes from
    the table when it is on (see the module docstring)."""

    def wrap(c):
        global _depth
        if _codes is None:
            return dataclasses.dataclass(c, **options)
        _depth += 1
        dataclasses.exec = _exec  # type: ignore[attr-defined]  # looked up by dataclasses._create_fn
        try:
            return dataclasses.dataclass(c, **options)
        finally:
            _depth -= 1
            if not _depth:
                del dataclasses.exec  # type: ignore[attr-defined]

    return wrap if cls is None else wrap(cls)


def _exec(source, globals=None, locals=None, /):
    """``exec(source, globals, locals)`` with the code of ``source`` from the table."""
    global _added
    code = _codes.get(source) if isinstance(source, str) and _codes is not None else None
    if code is None:
        if not isinstance(source, str) or _codes is None:
            return exec(source, globals, locals)
        code = compile(source, "<string>", "exec", dont_inherit=True)  # what exec(source) compiles in dataclasses
        if len(_codes) >= _LIMIT:
            _codes.clear()
        _codes[source] = code
        _added = True
    exec(code, globals, locals)


def use_code_cache() -> None:
    """Turn the table on for this process: read it from the user's cache folder (when there is one
    and it is trusted) and write it back at exit if this process compiled texts it did not hold."""
    global _codes, _path, _folder
    if _codes is not None:
        return
    from lars.program_cache import cache_dir, trusted

    _codes = {}
    _folder = cache_dir()
    if _folder is None:
        return
    _path = os.path.join(_folder, f"records-{sys.implementation.cache_tag}.marshal")
    try:
        if trusted(_folder):
            import marshal

            with open(_path, "rb") as handle:
                entry = marshal.load(handle)
            if (isinstance(entry, tuple) and len(entry) == 3 and entry[:2] == (_FORMAT, sys.version)
                    and isinstance(entry[2], dict)):
                _codes.update(entry[2])
    except (OSError, EOFError, ValueError, TypeError):
        pass  # no table yet, or one this Python cannot read: compile
    import atexit

    atexit.register(_store)


def _store() -> None:
    """Write the table back atomically when this process added texts to it."""
    if not _added or _path is None or _folder is None or _codes is None:
        return
    from lars.program_cache import trusted

    tmp = f"{_path}.{os.getpid()}.tmp"
    try:
        import marshal

        os.makedirs(_folder, mode=0o700, exist_ok=True)
        if not trusted(_folder):
            return
        with open(tmp, "wb") as handle:
            marshal.dump((_FORMAT, sys.version, _codes), handle)
        os.replace(tmp, _path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
