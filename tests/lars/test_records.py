"""``lars.records.dataclass``: the standard library's frozen dataclasses, with the generated methods'
code read from the user's cache folder (docs/performance.md, "Start-up").

The oracle is :func:`dataclasses.dataclass` itself: a class made through the table must have the
same methods (the same code, byte for byte) and behave the same under every dataclass operation
the models rely on."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from lars import records

ROOT = Path(__file__).resolve().parents[2]

METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__", "__le__", "__gt__",
           "__ge__")


def _make(decorator):
    @decorator(frozen=True, order=True)
    class Point:
        """A point."""

        x: int
        y: tuple = ()
        z: list = dataclasses.field(default_factory=list, compare=False)

    return Point


@pytest.fixture
def table(monkeypatch):
    """The table on for this test, in memory only (no folder), and off again afterwards."""
    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    monkeypatch.setattr(records, "_on", False)
    monkeypatch.setattr(records, "_tables", {})
    records.use_code_cache()
    yield records._tables
    assert not hasattr(dataclasses, "exec")  # the hook is gone after each class


@pytest.mark.parametrize("twice", [False, True])
def test_same_methods_as_the_standard_library(table, twice: bool) -> None:
    ours = _make(records.dataclass)
    if twice:  # the second class comes from the table's code objects
        before = {module: dict(t) for module, t in table.items()}
        ours = _make(records.dataclass)
        assert table == before and before
    theirs = _make(dataclasses.dataclass)
    for name in METHODS:
        a, b = getattr(ours, name), getattr(theirs, name)
        assert a.__code__.co_code == b.__code__.co_code and a.__code__.co_consts == b.__code__.co_consts, name
        assert a.__code__.co_names == b.__code__.co_names and a.__qualname__.split(".")[-1] == name
        assert a.__annotations__ == b.__annotations__ and a.__defaults__ == b.__defaults__  # no __future__ flags leak in
    assert ours.__match_args__ == theirs.__match_args__ == ("x", "y", "z")
    assert [f.name for f in dataclasses.fields(ours)] == ["x", "y", "z"]
    assert ours.__doc__ == "A point." and ours.__dataclass_params__.frozen


def test_behaves_as_a_frozen_dataclass(table) -> None:
    Point = _make(records.dataclass)
    p = Point(1, (2,))
    assert repr(p) == repr(_make(dataclasses.dataclass)(1, (2,))) == "_make.<locals>.Point(x=1, y=(2,), z=[])"
    assert p == Point(1, (2,), [9]) and hash(p) == hash(Point(1, (2,))) == hash((1, (2,)))
    assert p < Point(2) and dataclasses.replace(p, x=5) == Point(5, (2,))
    assert dataclasses.asdict(p) == {"x": 1, "y": (2,), "z": []}
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    match p:
        case Point(x, y):
            assert (x, y) == (1, (2,))


def test_model_classes_pickle() -> None:
    from lars.model import Atom, Constant, Integer

    atom = Atom("p", (Constant("a"), Integer(3)))
    assert pickle.loads(pickle.dumps(atom)) == atom


_RUN = """
import dataclasses, json, sys
from lars import records
records.use_code_cache()
import lars.model
print(json.dumps({"added": sorted(records._added), "size": sum(map(len, records._tables.values()))}))
"""


def _process(env: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", _RUN], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_table_is_kept_in_the_users_cache_folder(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first = _process({"RSPLARS_CACHE_DIR": str(folder)})
    files = list(folder.glob("records-*.marshal"))
    # lars.model's methods, and its regular expression (records._compile_pattern)
    assert first["added"] == ["lars.model", "re"] and first["size"] > 0 and len(files) == 2
    second = _process({"RSPLARS_CACHE_DIR": str(folder)})  # every method's code from the table
    assert second == {"added": [], "size": first["size"]}
    folder.chmod(0o777)  # a folder others can write is not read (marshal data is code)
    try:
        assert _process({"RSPLARS_CACHE_DIR": str(folder)})["added"] == ["lars.model", "re"]
    finally:
        folder.chmod(0o700)
    assert _process({"RSPLARS_CACHE_DIR": ""})["added"] == ["lars.model", "re"]  # no folder: compiled as always


_PATTERNS = [("a(?P<x>b+)c|d", 0), (r"(?i)ß\w+\Z", 0), (rb"[\x00-\x1f]+(?:x|y)", 0), (r"\s*(-?[0-9]+)\s*:", 0),
             ("(?P<lex>x)y #c", 64), ("a", 2), (b"a", 2), ("(?s).", 0)]  # 64: re.X, 2: re.I


@pytest.mark.parametrize("twice", [False, True])
def test_regular_expressions_from_the_table(table, monkeypatch, twice: bool) -> None:
    """``re.compile`` while the table is on: a pattern from the table is the one ``re`` compiles
    (``Pattern.__eq__`` compares flags and code), with the same groups and matches; str and bytes
    patterns of the same text are kept apart."""
    import re

    def compile_all():
        re.purge()  # re's own cache would answer first
        return [re.compile(p, f) for p, f in _PATTERNS]

    try:
        ours = compile_all()
        if twice:  # now from the table
            before = dict(table["re"])
            assert len(before) >= len(_PATTERNS)
            monkeypatch.setattr(records, "_added", set())
            ours = compile_all()
            assert table["re"] == before and records._added == set()  # nothing compiled
    finally:
        re._compiler.compile = records._real_re_compile  # off again (use_code_cache installed it)
    theirs = compile_all()
    for a, b in zip(ours, theirs):
        assert a == b and (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
        assert type(a.pattern) is type(b.pattern)
    assert ours[0].match("abbc").group("x") == "bb" and ours[4].fullmatch("xy").group("lex") == "x"
    assert ours[6].match(b"A") and not ours[2].match(b"x") and ours[1].match("ßab") and not ours[1].match("ßa b")


def test_a_kept_pattern_that_sre_refuses_is_compiled_again(table) -> None:
    """A table entry whose code ``_sre`` does not take (another build of the same version string,
    a damaged file) is dropped and the pattern compiled as ``re`` compiles it."""
    import re

    try:
        re.purge()
        table.setdefault("re", {})[(False, "a(b+)c", 0)] = ("a(b+)c", 32, [999, 1, 2], 1, {}, (None, None))
        got = re.compile("a(b+)c")
        assert got.match("abbc").group(1) == "bb"
        assert table["re"].get((False, "a(b+)c", 0), (None,))[2] != [999, 1, 2]
    finally:
        re._compiler.compile = records._real_re_compile
        re.purge()


@pytest.mark.parametrize("slots", [False, True])
def test_a_class_without_docstring_gets_the_standard_librarys_text(table, slots: bool) -> None:
    """dataclasses gives a class without a docstring ``Name(field: type, …)`` (inspect.signature);
    through the table the same text comes when ``__doc__`` is first read (inspect is not imported at
    start-up, docs/performance.md, "Start-up")."""

    def make(decorator):
        @decorator(frozen=True, slots=slots)
        class Bare:
            x: int
            y: tuple = ()

        @decorator(frozen=True)
        class Sub(Bare):
            z: str = "z"

        return Bare, Sub

    (ours, our_sub), (theirs, their_sub) = make(records.dataclass), make(dataclasses.dataclass)
    assert theirs.__doc__ == "Bare(x: 'int', y: 'tuple' = ())" and their_sub.__doc__.startswith("Sub(x: 'int'")
    assert ours(1).__doc__ == theirs.__doc__ and our_sub(1).__doc__ == their_sub.__doc__
    assert ours.__doc__ == theirs.__doc__ and our_sub.__doc__ == their_sub.__doc__
    assert vars(ours)["__doc__"] == theirs.__doc__  # kept once made
    assert repr(ours(1, (2,))) == repr(theirs(1, (2,))).replace("theirs", "ours")


_DOCS = """
import json, sys
if sys.argv[1] == "records":  # as `rsplars` does: lars.records imports dataclasses, then the tables are on
    from lars import records
    records.use_code_cache()
else:
    import inspect
import dataclasses
stand_in = dataclasses.inspect is not sys.modules.get("inspect")
import lars.model, lars.incremental, translator.query.model, translator.translate.algebra
before = sorted(m for m in ("inspect", "ast", "dis", "tokenize") if m in sys.modules)
docs = {f"{m.__name__}.{n}": c.__doc__ for m in (lars.model, lars.incremental, translator.query.model,
        translator.translate.algebra) for n, c in sorted(vars(m).items())
        if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == m.__name__}
copy_before = "copy" in sys.modules
@dataclasses.dataclass
class Plain:
    a: int
    b: list
plain = Plain(1, [[2]])
as_dict = dataclasses.asdict(plain)  # a deep copy (copy imported by the stand-in on first use)
print(json.dumps({"docs": docs, "before": before, "stand_in": stand_in, "plain": Plain.__doc__,
                  "bound": dataclasses.inspect is sys.modules.get("inspect") and dataclasses.copy is sys.modules.get("copy"),
                  "copy_before": copy_before, "copied": as_dict == {"a": 1, "b": [[2]]} and as_dict["b"][0] is not plain.b[0]}))
"""


def test_dataclasses_imported_without_inspect(tmp_path: Path) -> None:
    """``lars.records`` imported first: ``dataclasses`` binds stand-ins for ``inspect`` and ``copy``
    and no class of the models imports them; every class's docstring is still the standard
    library's, ``asdict`` still copies deeply."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RSPLARS_CACHE_DIR": str(tmp_path / "cache")}
    out = {}
    for first in ("records", "inspect"):
        done = subprocess.run([sys.executable, "-c", _DOCS, first], capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        out[first] = json.loads(done.stdout)
    ours, theirs = out["records"], out["inspect"]
    assert ours["stand_in"] and not theirs["stand_in"] and ours["before"] == [] and theirs["before"] == ["ast", "dis", "inspect", "tokenize"]
    assert ours["docs"] == theirs["docs"] and len(ours["docs"]) > 80
    assert ours["plain"] == theirs["plain"] == "Plain(a: int, b: list)" and ours["bound"] and theirs["bound"]
    assert ours["copied"] and theirs["copied"] and not ours["copy_before"] and theirs["copy_before"]
