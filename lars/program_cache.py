"""A cache of parsed LARS programs, so that running a program again does not load the parser.

``rsplars lars`` parses its program with Lark (``lars.syntax``); importing Lark and building the
lexer of the grammar is about a third of the start-up of a run (docs/performance.md, session 5).
:func:`load_program` keeps each program it parsed successfully as a pickle of the
``lars.model.Program`` in the user's cache folder, and returns it on the next run of the *same*
program: the entry stores the program text, its base unit, and a stamp of the parser's own files
(path, size and modification time of ``lars/syntax.py``, ``lars/model.py``, ``lars/units.py`` and
``grammars/lars.lark``), and is used only when all three are equal — any change to the program or
to the parser parses again. The file name of the program does not matter (the parser uses it in
error messages only): the same text parsed from another file is the same program. A program with
an error is never cached (its error, FILE:LINE:COLUMN, comes from the parser every time).

Folder: ``$RSPLARS_CACHE_DIR``, else ``$XDG_CACHE_HOME/rsplars``, else ``~/.cache/rsplars``
(created ``0700``; an entry is read only from a folder owned by the user and writable by no one
else, since a pickle can run code). ``RSPLARS_CACHE_DIR=`` (empty) turns the cache off. Entries
are written atomically (temporary file + rename); a folder that cannot be written is skipped
silently. Like ``__pycache__``, the folder only grows with distinct programs; it can be deleted at
any time.
"""

from __future__ import annotations

import os
import zlib
from typing import TYPE_CHECKING, BinaryIO, Callable

from lars.units import DEFAULT_BASE_UNIT

try:  # pickle's own C functions (pickle.load is _pickle.load): importing the Python module pickle on
    # every start-up costs ≈ 5 M instructions, and a run only reads entries (docs/performance.md, session 11 round 2)
    from _pickle import PicklingError, UnpicklingError, load
except ImportError:  # a Python without pickle's C part
    from pickle import PicklingError, UnpicklingError, load

if TYPE_CHECKING:
    from lars.model import Program

_FORMAT = 1
_PARSER_FILES = ("syntax.py", "model.py", "units.py", "grammars/lars.lark")


def cache_dir() -> str | None:
    """The cache folder, ``None`` when turned off."""
    chosen = os.environ.get("RSPLARS_CACHE_DIR")
    if chosen is not None:
        return chosen or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rsplars")


def _stamp() -> tuple:
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for name in _PARSER_FILES:
        path = os.path.join(here, name)
        st = os.stat(path)
        out.append((path, st.st_size, st.st_mtime_ns))
    return tuple(out)


def _entry_path(folder: str, text: str, base_unit: str) -> str:
    key = zlib.crc32(f"{_FORMAT}\0{base_unit}\0{text}".encode("utf-8", "surrogatepass"))
    return os.path.join(folder, f"program-{key:08x}-{len(text)}.pickle")


def _trusted(folder: str) -> bool:
    try:
        st = os.stat(folder)
    except OSError:
        return False
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def load_program(text: str, source: str = "<program>", *, base_unit: str = DEFAULT_BASE_UNIT) -> Program:
    """``lars.syntax.parse_program(text, source, base_unit=…)``, from the cache when this very
    program text was parsed before by this very parser (see the module docstring); ``source``
    names the program in the parser's error messages."""
    folder = cache_dir()
    path = stamp = None
    if folder is not None:
        try:
            stamp = _stamp()
            path = _entry_path(folder, text, base_unit)
            if _trusted(folder):
                with open(path, "rb") as handle:
                    entry = load(handle)
                from lars.model import Program  # here: lars.records reads this module's folder before the models exist

                if (isinstance(entry, tuple) and len(entry) == 5 and entry[:4] == (_FORMAT, stamp, base_unit, text)
                        and isinstance(entry[4], Program)):
                    return entry[4]
        except (OSError, UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError, IndexError):
            pass  # no entry, or one this parser cannot read: parse
    from lars.syntax import parse_program

    program = parse_program(text, source=source, base_unit=base_unit)
    if folder is not None and path is not None:
        _store(folder, path, (_FORMAT, stamp, base_unit, text, program))
    return program


def trusted(folder: str) -> bool:
    """Whether ``folder`` is the user's own and writable by no one else (a pickle can run code)."""
    return _trusted(folder)


def read_entry(folder: str, path: str):
    """The object pickled in ``path`` of the cache ``folder``, ``None`` when there is none, the
    folder is not trusted (see the module docstring) or the entry cannot be read; for other caches
    of the same folder (``translator.query.parse_cache``)."""
    try:
        if not _trusted(folder):
            return None
        with open(path, "rb") as handle:
            return load(handle)
    except Exception:  # any unreadable entry (truncated, corrupt, from another version) is no entry
        return None


def store_entry(folder: str, path: str, entry: tuple) -> None:
    """Write ``entry`` to ``path`` in the cache ``folder`` atomically; silently nothing when the
    folder cannot be written or is not trusted."""
    _store(folder, path, entry)


def _store(folder: str, path: str, entry: tuple) -> None:
    import pickle

    write_atomically(folder, path, lambda handle: pickle.dump(entry, handle, protocol=pickle.HIGHEST_PROTOCOL))


def write_atomically(folder: str, path: str, write: Callable[[BinaryIO], object]) -> bool:
    """Write ``path`` in the cache ``folder`` by ``write(handle)`` on a temporary file renamed into
    place (readers see the old file or the whole new one); nothing, and ``False``, when the folder
    cannot be made or written or is not trusted, or ``write`` fails (the temporary file removed)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _trusted(folder):
            return False
        with open(tmp, "wb") as handle:
            write(handle)
        os.replace(tmp, path)
        return True
    except (OSError, ValueError, PicklingError, RecursionError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
