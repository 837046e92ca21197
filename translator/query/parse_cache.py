"""A cache of parsed queries for the command line, so that running a query again does not load
the query grammars (the LARS counterpart is :mod:`lars.program_cache`, same folder, same rules).

Parsing a query needs Lark, one LALR grammar per dialect and the contextual lexer's scanners: about
a third of the start-up of ``rsplars run`` on a small stream (docs/performance.md, "Start-up"). The
FILTER and BIND expressions of a translated program are handed to the engine by the translator
that printed them (``translator.translate.expressions.remember_expression``); an expression text
from elsewhere is parsed once more (``parse_expression``, with the CQELS grammar) and cached too.
While :func:`enabled` is active (the ``rsplars`` command line, ``translator.cli.main``),
:func:`translator.query.parse.parse` keeps each query it parsed successfully as a pickle of the
:class:`~translator.query.model.Query` in the user's cache folder and returns it on the next run:
an entry stores the query text, dialect, ``lenient``, the declared prefixes, ``bare_ns`` and, for a
query with notes (which name the file), the source name, plus a stamp of the parser's own files (path, size and modification time of every
``.py`` and ``.lark`` file of ``translator.query`` and of Lark's ``__init__.py``, which names its
version); it is used only when all of them are equal. A query with an error is never cached (its
located error comes from the parser every time). Library calls of ``parse`` outside the command
line never read or write the cache.

Folder, trust and writing: :func:`lars.program_cache.cache_dir` (``$RSPLARS_CACHE_DIR``, empty
turns the cache off), entries read only from a folder owned by the user and writable by no one
else, written atomically; an entry that cannot be read (corrupt, truncated, another format) and a
folder that cannot be written fall back silently to parsing.

The dialect of a query read with ``--dialect auto`` (:func:`detect`) is kept the same way, per
query text: a query run again loads neither the grammars nor the dialect detector
(:mod:`translator.query.dialect`, whose tokenizer regex alone takes milliseconds to compile;
docs/performance.md, "Start-up").

Lark's own cache of the grammars' parse tables (:func:`lark_cache`, used by
:func:`translator.query.parse.grammar` everywhere, not only in the command line) lives in the same
folder when it is the user's own, else in the temp directory as Lark's default.
"""

from __future__ import annotations

import os
import zlib
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator, Mapping

_FORMAT = 1
_enabled = False


@contextmanager
def enabled() -> Iterator[None]:
    """Use the cache in :func:`translator.query.parse.parse` inside this block (the command line)."""
    global _enabled
    previous, _enabled = _enabled, True
    try:
        yield
    finally:
        _enabled = previous


def active() -> bool:
    return _enabled


@lru_cache(maxsize=1)  # once per process: a run reads the query and each FILTER/BIND expression
def _stamp() -> tuple:
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    paths = []
    for sub in ("", "transformers", "grammars"):
        folder = os.path.join(here, sub)
        paths += [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith((".py", ".lark"))]
    spec = importlib.util.find_spec("lark")
    paths.append(spec.origin if spec is not None and spec.origin else "<no lark>")
    out = []
    for path in paths:
        st = os.stat(path)
        out.append((path, st.st_size, st.st_mtime_ns))
    return tuple(out)


def key(text: str, dialect: str, lenient: bool, prefixes: Mapping[str, str] | None, bare_ns: str | None,
        source: str) -> tuple:
    """Everything besides the parser's files that decides the parsed query."""
    return (text, dialect, bool(lenient), tuple(sorted((prefixes or {}).items())), bare_ns, source)


def _entry_path(folder: str, entry_key: tuple) -> str:
    crc = zlib.crc32(repr(entry_key).encode("utf-8", "surrogatepass"))
    return os.path.join(folder, f"query-{crc:08x}-{len(entry_key[0])}.pickle")


def _sourceless(entry_key: tuple) -> tuple:
    """The key of a query without notes: the source name appears only in notes and errors, so such a
    query is the same whatever file it was read from (a copy, a temporary file)."""
    return (*entry_key[:-1], None)


def lookup(entry_key: tuple):
    """The cached :class:`~translator.query.model.Query` of ``entry_key``, else ``None``."""
    from lars.program_cache import cache_dir, read_entry
    from translator.query.model import Query

    folder = cache_dir()
    if folder is None:
        return None
    try:
        for candidate in (_sourceless(entry_key), entry_key):
            entry = read_entry(folder, _entry_path(folder, candidate))
            if (isinstance(entry, tuple) and len(entry) == 4 and entry[:3] == (_FORMAT, _stamp(), candidate)
                    and isinstance(entry[3], Query) and (candidate is entry_key or not entry[3].notes)):
                return entry[3]
    except Exception:  # noqa: BLE001 - a cache never fails a run: parse instead
        pass
    return None


def detect(text: str, source: str) -> tuple[str, str]:
    """``(dialect, reason)`` of :func:`translator.query.dialect.detect_dialect` for ``text``. While the
    cache is :func:`enabled`, kept per query text in the cache folder with the parser's stamp (as a
    parsed query is) and read back on the next run; the reason names no file, so the source does
    not matter. A text whose detection fails (a mix of dialects: a located error) is never kept."""
    from lars.program_cache import cache_dir, read_entry, store_entry

    folder = cache_dir() if _enabled else None
    path = None
    if folder is not None:
        try:
            crc = zlib.crc32(text.encode("utf-8", "surrogatepass"))
            path = os.path.join(folder, f"dialect-{crc:08x}-{len(text)}.pickle")
            entry = read_entry(folder, path)
            if (isinstance(entry, tuple) and len(entry) == 5 and entry[:3] == (_FORMAT, _stamp(), text)
                    and all(isinstance(x, str) for x in entry[3:])):
                return entry[3], entry[4]
        except Exception:  # noqa: BLE001 - a cache never fails a run: detect instead
            path = None
    from translator.query.dialect import detect_dialect

    detection = detect_dialect(text, source)
    if path is not None:
        try:
            store_entry(folder, path, (_FORMAT, _stamp(), text, detection.dialect, detection.reason))
        except Exception:  # noqa: BLE001 - e.g. a stat that failed: no entry
            pass
    return detection.dialect, detection.reason


def lark_cache(name: str) -> str | bool:
    """Lark's ``cache`` option for the grammar ``name``: a file in the user's cache folder (created
    ``0700`` if need be) when that folder is the user's own, else ``True`` (Lark's file in the temp
    directory). Lark keys the file on the grammar text, its options, its own version and Python's,
    rebuilds the parser silently when the file is missing, stale or broken, and carries on when it
    cannot write it."""
    from lars.program_cache import cache_dir, trusted

    folder = cache_dir()
    if folder is None:
        return True
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return True
    if not trusted(folder):
        return True
    return os.path.join(folder, f"lark-{name}.pickle")


def store(entry_key: tuple, query) -> None:
    """Keep ``query`` (parsed from ``entry_key``) for the next run; silently nothing on failure."""
    from lars.program_cache import cache_dir, store_entry

    folder = cache_dir()
    if folder is None:
        return
    try:
        if not query.notes:
            entry_key = _sourceless(entry_key)
        store_entry(folder, _entry_path(folder, entry_key), (_FORMAT, _stamp(), entry_key, query))
    except Exception:  # noqa: BLE001 - e.g. a stat that failed: no entry
        pass
