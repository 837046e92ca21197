"""``translator.cache``, the user's cache of parsed queries, programs and parse tables: each of its rules
(where, when, keyed by what, trusted folders and entries only, atomic writes, Lark's tables) is
checked so that the test fails when the rule is broken."""

from __future__ import annotations

import os
import pickle
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from translator import cache as user_cache

KEY = ("a(X) :- p(X) [2].\n", "s")


def _entries(folder: Path, kind: str = "") -> list[Path]:
    return sorted(folder.glob(f"{kind}*.pickle")) if folder.exists() else []


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*")) if folder.exists() else []


class Counter:
    """A ``compute`` that counts its calls."""

    def __init__(self, value: object) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_the_folder_follows_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(tmp_path / "chosen"))
    assert user_cache.folder() == str(tmp_path / "chosen")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    assert user_cache.folder() is None  # set and empty: off
    monkeypatch.delenv("RSPLARS_CACHE_DIR")
    assert user_cache.folder() == str(tmp_path / "xdg" / "rsplars")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the XDG spec says
    assert user_cache.folder() == str(tmp_path / "home" / ".cache" / "rsplars")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert user_cache.folder() == str(tmp_path / "home" / ".cache" / "rsplars")


def test_a_value_is_kept_and_read_back_only_while_enabled(cache: Path) -> None:
    compute = Counter(["parsed"])
    assert user_cache.cached("program", KEY, compute) == ["parsed"]  # a library call: no cache
    assert not cache.exists() and compute.calls == 1
    with user_cache.enabled():
        assert user_cache.cached("program", KEY, compute) == ["parsed"] and compute.calls == 2
        again = user_cache.cached("program", KEY, compute)
        assert again == ["parsed"] and again is not compute.value and compute.calls == 2  # from the entry
        [entry] = _entries(cache)
        assert stat.S_IMODE(cache.stat().st_mode) == 0o700 and stat.S_IMODE(entry.stat().st_mode) == 0o600
        assert user_cache.cached("program", (KEY[0], "ms"), compute) and compute.calls == 3  # another key
        assert user_cache.cached("query", KEY, compute) and compute.calls == 4  # another kind
        with user_cache.enabled(False):  # --no-cache
            assert user_cache.load("program", KEY) is user_cache.MISS
            assert user_cache.store("program", ("new",), 1) is False
    assert user_cache.load("program", KEY) is user_cache.MISS  # outside the block again
    assert len(_entries(cache)) == 3


def test_errors_are_not_kept(cache: Path) -> None:
    def fails():
        raise ValueError("bad.lars:1:3: unexpected '('")

    with user_cache.enabled():
        for _ in range(2):
            with pytest.raises(ValueError, match="bad.lars:1:3"):
                user_cache.cached("program", KEY, fails)
    assert _files(cache) == []


def test_keyed_by_the_package_version_and_the_python(cache: Path, monkeypatch) -> None:
    real = user_cache.version_key()
    assert real[0] and real[1] == sys.version
    with user_cache.enabled():
        assert user_cache.store("program", KEY, "kept")
        [entry] = _entries(cache)
        for other in (("0.0.0-other", sys.version), (real[0], sys.version + " (another build)")):
            monkeypatch.setattr(user_cache, "version_key", lambda other=other: other)
            assert user_cache.load("program", KEY) is user_cache.MISS
            # the old entry under the new name (a hash collision, a renamed file): still not used
            planted = Path(user_cache.entry_path(str(cache), "program", KEY))
            assert planted != entry
            planted.write_bytes(entry.read_bytes())
            assert user_cache.load("program", KEY) is user_cache.MISS
            planted.unlink()
        monkeypatch.setattr(user_cache, "version_key", lambda: (None, sys.version))  # no package metadata
        assert user_cache.store("program", ("other",), 1) is False and user_cache.load("program", KEY) is user_cache.MISS
        monkeypatch.setattr(user_cache, "version_key", lambda: real)
        assert user_cache.load("program", KEY) == "kept"  # (so the checks above can fail)


def test_a_key_that_is_not_the_entrys_is_not_used(cache: Path) -> None:
    with user_cache.enabled():
        user_cache.store("program", KEY, "kept")
        [entry] = _entries(cache)
        fmt, version, kind, key, _ = pickle.loads(entry.read_bytes())
        entry.write_bytes(pickle.dumps((fmt, version, kind, (KEY[0] + " ", KEY[1]), "foreign")))
        assert user_cache.load("program", KEY) is user_cache.MISS
        for broken in (b"\x80garbage", b"", pickle.dumps(None)[:-1], pickle.dumps("not an entry")):
            entry.write_bytes(broken)
            assert user_cache.cached("program", KEY, Counter("parsed")) == "parsed"
            assert pickle.loads(entry.read_bytes())[4] == "parsed"  # written again


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_a_folder_others_can_write_is_neither_read_nor_written(cache: Path, mode: int) -> None:
    with user_cache.enabled():
        user_cache.store("program", KEY, "planted")
        os.chmod(cache, mode)
        try:
            assert user_cache.load("program", KEY) is user_cache.MISS
            assert user_cache.cached("program", KEY, Counter("parsed")) == "parsed"
            assert user_cache.store("program", ("other",), 1) is False
        finally:
            os.chmod(cache, 0o700)
        assert user_cache.load("program", KEY) == "planted" and len(_entries(cache)) == 1


def test_a_folder_of_another_user_is_not_read(cache: Path, monkeypatch) -> None:
    with user_cache.enabled():
        user_cache.store("program", KEY, "planted")
        with monkeypatch.context() as patched:
            patched.setattr(os, "getuid", lambda: cache.stat().st_uid + 1)
            assert user_cache.load("program", KEY) is user_cache.MISS
            assert user_cache.store("program", ("other",), 1) is False
        assert user_cache.load("program", KEY) == "planted"


def test_an_entry_others_can_write_is_not_read(cache: Path) -> None:
    with user_cache.enabled():
        user_cache.store("program", KEY, "planted")
        [entry] = _entries(cache)
        os.chmod(entry, 0o666)
        assert user_cache.load("program", KEY) is user_cache.MISS
        os.chmod(entry, 0o600)
        assert user_cache.load("program", KEY) == "planted"


def test_a_folder_that_cannot_be_made_is_skipped(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(blocker / "sub"))
    with user_cache.enabled():
        assert user_cache.cached("program", KEY, Counter("parsed")) == "parsed"
        assert user_cache.store("program", KEY, 1) is False


def test_written_atomically(cache: Path, monkeypatch) -> None:
    """A write that fails half-way leaves the old entry whole, and no temporary file behind."""
    with user_cache.enabled():
        user_cache.store("program", KEY, "old")
        before = _files(cache)

        def half_then_fail(value, handle, protocol=None):
            handle.write(pickle.dumps(value)[:20])
            raise OSError("disk full")

        with monkeypatch.context() as patched:
            patched.setattr(user_cache.pickle, "dump", half_then_fail)
            assert user_cache.store("program", KEY, "new") is False
        assert _files(cache) == before and user_cache.load("program", KEY) == "old"
        assert user_cache.store("program", KEY, "new") and user_cache.load("program", KEY) == "new"
        assert _files(cache) == before  # replaced in place: no second file, no temporary file


def test_empty_cache_dir_writes_nothing_anywhere(tmp_path: Path, monkeypatch) -> None:
    """``RSPLARS_CACHE_DIR=``: no entry, no Lark tables, neither in the home folder nor in the temp
    directory (Lark's own ``cache=True`` would write there)."""
    from lars.lalr import build_parsers_with
    from lars.syntax import _parser

    homes = {name: tmp_path / name for name in ("home", "xdg", "tmp")}
    for folder in homes.values():
        folder.mkdir()
    monkeypatch.setenv("HOME", str(homes["home"]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(homes["xdg"]))
    monkeypatch.setattr(tempfile, "tempdir", str(homes["tmp"]))
    build = _parser.__wrapped__  # the grammar itself, not the one this process built already
    monkeypatch.setattr("lars.lalr._builder", None)  # restored after the test
    build_parsers_with(user_cache.lark_parser)  # as the command line does

    def use_everything() -> None:
        with user_cache.enabled():
            user_cache.cached("program", KEY, Counter("parsed"))
            build().parse("a :- b.\n", start="start")

    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    use_everything()
    assert [_files(folder) for folder in homes.values()] == [[], [], []]
    monkeypatch.delenv("RSPLARS_CACHE_DIR")  # the default folder: entries there, and only there
    use_everything()
    assert {p.name.split("-")[0] for p in _entries(homes["xdg"] / "rsplars")} == {"program", "lark"}
    assert _files(homes["home"]) == [] and _files(homes["tmp"]) == []


def test_lark_tables_come_from_the_cache(cache: Path, monkeypatch) -> None:
    """``lark_parser``: the parser Lark builds, its tables kept as an entry and loaded from it the
    next time (Lark's builder not called), a broken entry rebuilt silently."""
    from lark import Lark

    options = {"propagate_positions": True, "maybe_placeholders": False}
    text = "SELECT * WHERE { ?s ?p ?o FILTER(?o > 3) }"
    expected = Lark.open_from_package("translator.query", "grammars/cqels.lark", parser="lalr", **options).parse(text)

    def positions(tree) -> list:
        return [(t.data, t.meta.line, t.meta.column, t.meta.end_pos) for t in tree.iter_subtrees() if not t.meta.empty]

    with user_cache.enabled():
        assert user_cache.lark_parser("translator.query", "grammars/cqels.lark", **options).parse(text) == expected
        [entry] = _entries(cache, "lark")
        with monkeypatch.context() as patched:
            patched.setattr(Lark, "open_from_package", None)  # not built: loaded from the entry
            loaded = user_cache.lark_parser("translator.query", "grammars/cqels.lark", **options).parse(text)
        assert loaded == expected and positions(loaded) == positions(expected)
        for broken in (b"garbage", entry.read_bytes()[:500]):
            entry.write_bytes(broken)
            assert user_cache.lark_parser("translator.query", "grammars/cqels.lark", **options).parse(text) == expected
            assert entry.stat().st_size > 10_000  # written again


def test_lark_tables_of_another_grammar_text_are_not_used(cache: Path, tmp_path: Path, monkeypatch) -> None:
    """The parse tables' key holds the text of the grammar files: a grammar changed without a new
    version of the package gets new tables, never the ones built from its earlier text."""
    package = tmp_path / "grammar_pkg"
    (package / "grammars").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "grammars" / "g.lark").write_text('start: "a"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    options = {"propagate_positions": True, "maybe_placeholders": False}
    with user_cache.enabled():
        user_cache.lark_parser("grammar_pkg", "grammars/g.lark", **options).parse("a")
        (package / "grammars" / "g.lark").write_text('start: "b"\n')
        assert user_cache.lark_parser("grammar_pkg", "grammars/g.lark", **options).parse("b").data == "start"
        assert len(_entries(cache, "lark")) == 2


def test_entries_of_other_code_are_not_used(cache: Path, tmp_path: Path, monkeypatch) -> None:
    """The key holds the text of the package's code: a checkout whose code changed without a new
    version (an editable install after ``git pull``) never reads what the code before wrote."""
    code = tmp_path / "code"
    (code / "lars").mkdir(parents=True)
    (code / "lars" / "reader.py").write_text("READ = 1\n")
    first = user_cache.code_digest(code)
    (code / "lars" / "reader.py").write_text("READ = 2\n")
    assert user_cache.code_digest(code) != first
    assert user_cache.code_digest(user_cache.CODE_ROOT) == user_cache.version_key()[2]
    with user_cache.enabled():
        assert user_cache.cached("query", KEY, Counter("parsed")) == "parsed"
        again = Counter("parsed again")
        assert user_cache.cached("query", KEY, again) == "parsed" and again.calls == 0
        monkeypatch.setattr(user_cache, "CODE_ROOT", code)
        user_cache.version_key.cache_clear()
        try:
            changed = Counter("parsed by the new code")
            assert user_cache.cached("query", KEY, changed) == "parsed by the new code" and changed.calls == 1
        finally:
            monkeypatch.undo()
            user_cache.version_key.cache_clear()
