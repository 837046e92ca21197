"""The user's cache: parsed queries, parsed LARS programs and Lark's parse tables, kept between runs
of the ``rsplars`` command line so that a query or program run again is not parsed again.

One folder, one set of rules, for every kind of entry:

* **Where.** ``$RSPLARS_CACHE_DIR`` if set and not empty, else ``$XDG_CACHE_HOME/rsplars``, else
  ``~/.cache/rsplars`` (:func:`folder`). Nothing is ever written elsewhere (no temp directory).
* **When.** Only inside :func:`enabled` (the command line turns it on for every command,
  ``translator.cli.main``); library calls (tests, notebooks) never read or write it.
  ``--no-cache`` and ``RSPLARS_CACHE_DIR=`` (set, empty) turn it off: nothing read, nothing written.
* **Keyed** by what decides the entry (the caller's key, e.g. the query text and options), the
  package version of rsplars, ``sys.version`` and the text of the package's code (:func:`version_key`,
  :func:`code_digest`: a checkout whose code changed without a new version never reads entries of
  the code before), never by file times. An installation that cannot name its version (no package
  metadata) uses no cache. Parse tables are keyed also by the text of the grammar files. The folder
  may be deleted at any time.
* **Trusted only.** Entries are pickles, and unpickling can run code: an entry is read only from a
  folder that is a directory owned by the user and writable by no one else, and only if the entry
  itself is a regular file owned by the user and writable by no one else.
* **Written atomically.** A new entry is written to a fresh temporary file (mode ``0600``) in the
  folder and renamed over the entry's name: a reader sees the old entry or the whole new one. The
  folder is created ``0700``; a folder that cannot be made or written, or is not trusted, is skipped
  silently (the run parses as without a cache).
* **Self-checking.** An entry holds its own key; one that cannot be read or holds another key
  (a hash collision, another version) is not used, and is overwritten by the next store.

Lark is never given its own ``cache`` option (which writes to the temp directory): :func:`lark_parser`
keeps the parse tables (``Lark.save``/``Lark.load``) as entries of this cache, under these rules.
The query parsers call it; the LARS parser (``lars.syntax``) knows no cache and calls it only as the
builder the command line installs (``lars.lalr.build_parsers_with``).
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, TypeVar

if TYPE_CHECKING:
    from lark import Lark

ENV = "RSPLARS_CACHE_DIR"
#: the layout of an entry: (FORMAT, version_key(), kind, key, value)
FORMAT = 1
#: the folder that holds the packages whose code makes the entries (:func:`code_digest`)
CODE_ROOT = Path(__file__).resolve().parent.parent
CODE_PACKAGES = ("lars", "translator", "asp")

T = TypeVar("T")

#: what :func:`load` returns when there is no usable entry
MISS: Any = object()

_on = False


def folder() -> str | None:
    """The cache folder by the environment (``None``: ``RSPLARS_CACHE_DIR`` set and empty, off)."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return chosen or None
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):  # the XDG base directory spec ignores a relative path
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rsplars")


@contextmanager
def enabled(on: bool = True) -> Iterator[None]:
    """Use the cache inside this block (``on``: the command line without ``--no-cache``)."""
    global _on
    previous, _on = _on, on
    try:
        yield
    finally:
        _on = previous


def active_folder() -> str | None:
    """The folder to use now: ``None`` outside :func:`enabled`, when turned off, or when this
    installation has no version to key entries by."""
    if not _on:
        return None
    where = folder()
    if where is None or version_key()[0] is None:
        return None
    return where


@lru_cache(maxsize=1)
def version_key() -> tuple[str | None, str, str]:
    """(version of the installed rsplars package, ``sys.version``, :func:`code_digest`); the version
    is ``None`` when the package metadata cannot be found (then no cache is used)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package = version("rsplars")
    except PackageNotFoundError:
        package = None
    return package, sys.version, code_digest(CODE_ROOT)


def code_digest(root: Path) -> str:
    """SHA-256 of the code of the packages :data:`CODE_PACKAGES` under ``root`` (their ``.py`` and
    ``.lark`` files, by path and text; about 4 ms for the whole package): an entry is read only by
    the code that wrote it, even where the code changed and the version did not (a development
    checkout, an editable install)."""
    digest = hashlib.sha256()
    for package in CODE_PACKAGES:
        files = sorted(p for p in (root / package).rglob("*") if p.suffix in (".py", ".lark") and p.is_file())
        for path in files:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _owned_by_user(st: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is not None and st.st_uid == getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def trusted(path: str) -> bool:
    """Whether ``path`` is a directory owned by the user and writable by no one else."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and _owned_by_user(st)


def entry_path(where: str, kind: str, key: Hashable) -> str:
    """The file of the entry ``kind``/``key`` in the folder ``where`` (a hash of kind, key and version)."""
    text = repr((FORMAT, version_key(), kind, key)).encode("utf-8", "surrogatepass")
    return os.path.join(where, f"{kind}-{hashlib.sha256(text).hexdigest()[:32]}.pickle")


def load(kind: str, key: Hashable) -> Any:
    """The value stored for ``kind``/``key``, else :data:`MISS` (cache not active, folder or entry
    not trusted, no entry, an unreadable one, or one of another key or version)."""
    where = active_folder()
    if where is None or not trusted(where):
        return MISS
    try:
        fd = os.open(entry_path(where, kind, key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return MISS
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not (stat.S_ISREG(st.st_mode) and _owned_by_user(st)):
            return MISS
        try:
            entry = pickle.load(handle)
        except Exception:  # noqa: BLE001 - a truncated, corrupt or foreign entry is no entry
            return MISS
    try:
        if isinstance(entry, tuple) and len(entry) == 5 and entry[:4] == (FORMAT, version_key(), kind, key):
            return entry[4]
    except Exception:  # noqa: BLE001 - an unpickled object whose comparison fails: no entry
        pass
    return MISS


def store(kind: str, key: Hashable, value: object) -> bool:
    """Keep ``value`` as the entry ``kind``/``key``, atomically; ``False`` (and nothing written)
    when the cache is not active or the folder cannot be made, written or trusted."""
    where = active_folder()
    if where is None:
        return False
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
    except OSError:
        return False
    if not trusted(where):
        return False
    path = entry_path(where, kind, key)
    tmp = os.path.join(where, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            pickle.dump((FORMAT, version_key(), kind, key, value), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        return True
    except Exception:  # noqa: BLE001 - a value that cannot be pickled, a full disk: no entry
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def cached(kind: str, key: Hashable, compute: Callable[[], T], valid: Callable[[object], bool] | None = None) -> T:
    """The stored value of ``kind``/``key`` if there is one (and ``valid`` accepts it), else
    ``compute()``, stored for the next run. An exception of ``compute`` (a located syntax error)
    passes through and nothing is stored."""
    value = load(kind, key)
    if value is not MISS and (valid is None or valid(value)):
        return value
    value = compute()
    store(kind, key, value)
    return value


def _grammar_texts_digest(package: str, grammar: str) -> str:
    """SHA-256 of the ``.lark`` files of the grammar's folder (the grammar and those it imports):
    parse tables built from other grammar texts are never used."""
    from importlib.resources import files

    digest = hashlib.sha256()
    where, _, _ = grammar.rpartition("/")
    for entry in sorted(files(package).joinpath(where).iterdir() if where else files(package).iterdir(),
                        key=lambda e: e.name):
        if entry.name.endswith(".lark"):
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()


def lark_parser(package: str, grammar: str, **options: Any) -> Lark:
    """``Lark.open_from_package(package, grammar, parser="lalr", **options)``, its parse tables read
    from the cache when it is active (``Lark.load`` of what ``Lark.save`` wrote, keyed also by
    Lark's version and the grammar files' text); a broken entry is rebuilt silently."""
    from lark import Lark, __version__

    key = (package, grammar, tuple(sorted((name, repr(value)) for name, value in options.items())), __version__,
           _grammar_texts_digest(package, grammar))
    saved = load("lark", key)
    if isinstance(saved, bytes):
        try:
            return Lark.load(io.BytesIO(saved))
        except Exception:  # noqa: BLE001 - tables this Lark cannot read: build them
            pass
    parser = Lark.open_from_package(package, grammar, parser="lalr", **options)
    if active_folder() is not None:
        buffer = io.BytesIO()
        parser.save(buffer)
        store("lark", key, buffer.getvalue())
    return parser
