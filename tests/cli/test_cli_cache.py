"""The user's cache (``translator.cache``) as ``rsplars`` processes use it: a run again parses nothing and
answers the same; ``RSPLARS_CACHE_DIR=`` and ``--no-cache`` write nothing anywhere and read
nothing; the default folder is ``$XDG_CACHE_HOME/rsplars`` or ``~/.cache/rsplars``; an entry
planted in a folder others can write is not read."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EX = "http://example.org/"

QUERY = f"""REGISTER QUERY hot AS
SELECT ?sensor ?value
FROM STREAM <{EX}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{EX}procedure> ?sensor . ?obs <{EX}value> ?value . FILTER (?value > 30.5) }}
"""
#: the same query keeping every value: what a planted entry answers
PLANTED = QUERY.replace("FILTER (?value > 30.5)", "FILTER (?value > 0)")
STREAM = "".join(
    f'<{EX}o{t}> <{EX}procedure> <{EX}s{t % 3}> "{t}" .\n'
    f'<{EX}o{t}> <{EX}value> "{20 + 4 * t}.5"^^<http://www.w3.org/2001/XMLSchema#float> "{t}" .\n'
    for t in range(6)
)
PROGRAM = "a(X) :- p(X) always [2].\n"
LARS_STREAM = "0: p(a)\n1: p(a), p(b)\n"

#: a run of the command line that reports whether Lark was imported (it is when something is parsed)
_PROBE = ("import sys; from translator.cli import main; rc = main();"
          "print('LARK', 'lark' in sys.modules, file=sys.stderr); sys.exit(rc)")


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    """The query, the stream, a program, and empty home, XDG cache and temp folders."""
    out = {name: tmp_path / name for name in ("home", "xdg", "tmp")}
    for folder in out.values():
        folder.mkdir()
    out["query"], out["stream"] = tmp_path / "q.rq", tmp_path / "s.nt"
    out["program"], out["lars_stream"] = tmp_path / "p.lars", tmp_path / "s.txt"
    out["query"].write_text(QUERY)
    out["stream"].write_text(STREAM)
    out["program"].write_text(PROGRAM)
    out["lars_stream"].write_text(LARS_STREAM)
    return out


def _rsplars(places: dict[str, Path], *argv: str, cache_dir: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("RSPLARS_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(PYTHONPATH=str(ROOT), HOME=str(places["home"]), XDG_CACHE_HOME=str(places["xdg"]),
               TMPDIR=str(places["tmp"]))
    if cache_dir is not None:
        env["RSPLARS_CACHE_DIR"] = cache_dir
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env,
                          cwd=places["tmp"].parent, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def _run(places, *options: str, cache_dir: str | None) -> subprocess.CompletedProcess:
    return _rsplars(places, "run", str(places["query"]), "--stream", f"{EX}stream={places['stream']}", *options,
                    cache_dir=cache_dir)


def _lars(places, *options: str, cache_dir: str | None) -> subprocess.CompletedProcess:
    return _rsplars(places, "lars", str(places["program"]), "--stream", str(places["lars_stream"]), *options,
                    cache_dir=cache_dir)


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_run_again_parses_nothing_and_answers_the_same(places, tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    for command in (_run, _lars):
        cold, warm = command(places, cache_dir=folder), command(places, cache_dir=folder)
        off = command(places, "--no-cache", cache_dir=folder)
        assert cold.stdout == warm.stdout == off.stdout and cold.stdout.count('"t":') >= 2
        assert "LARK True" in cold.stderr and "LARK False" in warm.stderr and "LARK True" in off.stderr
    kinds = sorted({name.split("-")[0] for name in _files(tmp_path / "cache")})
    assert kinds == ["dialect", "lark", "program", "query"]


def test_an_empty_cache_dir_and_no_cache_write_nothing_anywhere(places) -> None:
    """``RSPLARS_CACHE_DIR=`` and ``--no-cache``: no entry, no Lark file, not in the home folder,
    not in the XDG cache folder, not in the temp directory; with neither, the entries are in
    ``$XDG_CACHE_HOME/rsplars``, else ``~/.cache/rsplars`` (so that the check can fail)."""
    homes = [places[name] for name in ("home", "xdg", "tmp")]
    for command in (_run, _lars):
        assert "LARK True" in command(places, cache_dir="").stderr
        assert "LARK True" in command(places, "--no-cache", cache_dir=None).stderr
        assert [_files(folder) for folder in homes] == [[], [], []]
    _run(places, cache_dir=None)
    assert {name.split("-")[0] for name in _files(places["xdg"] / "rsplars")} == {"dialect", "lark", "query"}
    assert _files(places["home"]) == [] and _files(places["tmp"]) == []


def test_the_home_cache_without_xdg(places, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("RSPLARS_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(PYTHONPATH=str(ROOT), HOME=str(places["home"]), TMPDIR=str(places["tmp"]))
    argv = ["lars", str(places["program"]), "--stream", str(places["lars_stream"])]
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert {name.split("-")[0] for name in _files(places["home"] / ".cache" / "rsplars")} == {"program", "lark"}
    assert _files(places["tmp"]) == []


def _plant(folder: Path) -> None:
    """Replace the cached query of :data:`QUERY` by the query :data:`PLANTED` (same key)."""
    [entry] = folder.glob("query-*.pickle")
    fmt, version, kind, key, _ = pickle.loads(entry.read_bytes())
    from translator.query.parse import parse

    entry.write_bytes(pickle.dumps((fmt, version, kind, key, parse(PLANTED, "csparql", source="q.rq"))))


def test_a_planted_entry_is_read_only_from_a_private_folder_and_never_with_no_cache(places, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    honest = _run(places, cache_dir=str(folder)).stdout
    _plant(folder)
    planted = _run(places, cache_dir=str(folder)).stdout
    assert planted != honest and '"20.5' in planted  # used (so that the checks below can fail)
    assert _run(places, "--no-cache", cache_dir=str(folder)).stdout == honest
    os.chmod(folder, 0o777)
    try:
        assert _run(places, cache_dir=str(folder)).stdout == honest
    finally:
        os.chmod(folder, 0o700)
