"""``lars.program_cache.load_program``: the program the parser gives, from the cache when the
program text, its base unit and the parser's files are the same; never a stale or
foreign entry; errors always from the parser."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from lars import program_cache
from lars.errors import SourceError
from lars.model import Atom, Program, Rule
from lars.program_cache import load_program
from lars.syntax import parse_program

TEXT = "a(X,Y) :- p(X,Y) always [32].\nb(X) :- q(X) [2 sec], not r(X).\n"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("program-*.pickle")) if folder.exists() else []


def test_same_program_as_the_parser_and_reused(cache: Path) -> None:
    first = load_program(TEXT, "p.lars")
    assert first == parse_program(TEXT, source="p.lars")
    assert len(_entries(cache)) == 1 and oct(cache.stat().st_mode & 0o777) == "0o700"
    again = load_program(TEXT, "p.lars")
    assert again == first and again is not first  # read back from the entry
    assert load_program(TEXT, "q.lars") == first and len(_entries(cache)) == 1  # the same text in another file
    assert load_program(TEXT, "p.lars", base_unit="ms") == parse_program(TEXT, source="p.lars", base_unit="ms")
    assert len(_entries(cache)) == 2


def test_an_entry_for_another_text_or_parser_is_not_used(cache: Path, monkeypatch) -> None:
    load_program(TEXT, "p.lars")
    [entry] = _entries(cache)
    fmt, stamp, unit, text, program = pickle.loads(entry.read_bytes())
    bogus = Program((Rule(Atom("bogus")),))
    # the same file name, another text (a crc32 collision): not used
    entry.write_bytes(pickle.dumps((fmt, stamp, unit, TEXT + "%", bogus)))
    assert load_program(TEXT, "p.lars") == program
    # the parser's files changed since: not used, written again
    entry.write_bytes(pickle.dumps((fmt, (("x", 1, 1),), unit, text, bogus)))
    assert load_program(TEXT, "p.lars") == program
    assert pickle.loads(entry.read_bytes())[1] == program_cache._stamp()
    # a broken entry: parsed again
    entry.write_bytes(b"\x80garbage")
    assert load_program(TEXT, "p.lars") == program


def test_errors_come_from_the_parser_and_are_not_cached(cache: Path) -> None:
    for _ in range(2):
        with pytest.raises(SourceError) as info:
            load_program("a :- b(.\n", "bad.lars")
        assert str(info.value).startswith("bad.lars:1:")
    assert _entries(cache) == []


def test_a_folder_others_may_write_is_not_read(cache: Path) -> None:
    load_program(TEXT, "p.lars")
    [entry] = _entries(cache)
    fmt, stamp, unit, text, _ = pickle.loads(entry.read_bytes())
    entry.write_bytes(pickle.dumps((fmt, stamp, unit, text, Program(()))))
    os.chmod(cache, 0o777)
    try:
        assert load_program(TEXT, "p.lars") == parse_program(TEXT, source="p.lars")
    finally:
        os.chmod(cache, 0o700)
    assert load_program(TEXT, "p.lars") == Program(())  # (the planted entry, once the folder is private)


def test_off_and_unwritable(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    assert load_program(TEXT, "p.lars") == parse_program(TEXT, source="p.lars")
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(blocker / "sub"))
    assert load_program(TEXT, "p.lars") == parse_program(TEXT, source="p.lars")


def test_a_warm_run_does_not_import_the_parser(tmp_path: Path) -> None:
    """``rsplars lars`` with its program cached imports neither Lark nor ``lars.syntax``."""
    program, stream = tmp_path / "p.lars", tmp_path / "s.txt"
    program.write_text("a(X) :- p(X) always [2].\n")
    stream.write_text("0: p(a)\n1: p(a), p(b)\n")
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "RSPLARS_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys, runpy; sys.argv = ['rsplars', 'lars', sys.argv[1], '--stream', sys.argv[2]];"
            "from translator.cli import main; rc = main(sys.argv[1:]);"
            "print('LOADED', 'lark' in sys.modules, 'lars.syntax' in sys.modules, file=sys.stderr); sys.exit(rc)")
    runs = [subprocess.run([sys.executable, "-c", code, str(program), str(stream)], capture_output=True, text=True, env=env,
                           timeout=120) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout == '{"t": 0, "atoms": ["a(a)"]}\n{"t": 1, "atoms": ["a(a)"]}\n'
    assert "LOADED True True" in runs[0].stderr and "LOADED False False" in runs[1].stderr
