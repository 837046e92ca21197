"""``translator.query.parse_cache``: inside the command line, ``parse`` returns the query the parser
gives, from the user's cache folder when the text, the options and the parser's files are the
same; never a stale, foreign or broken entry; errors always from the parser; library calls outside
the command line never touch the cache."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from lars.errors import SourceError
from translator.query import parse as parse_module
from translator.query import parse_cache
from translator.query.parse import parse

TEXT = """REGISTER QUERY hot AS
PREFIX ex: <http://example.org/>
SELECT ?sensor ?value
FROM STREAM <http://example.org/stream> [RANGE 10s STEP 1s]
WHERE { ?obs ex:procedure ?sensor . ?obs ex:value ?value . FILTER (?value > 30.5 && ?sensor != ex:s0) }
"""


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("query-*.pickle")) if folder.exists() else []


def _no_parser(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("parsed although the query is cached")

    monkeypatch.setattr(parse_module, "_parse", refuse)


def test_a_cache_hit_is_the_parsers_query(cache: Path, monkeypatch) -> None:
    expected = parse(TEXT, source="q.rq")  # outside the command line: no cache
    assert _entries(cache) == []
    with parse_cache.enabled():
        first = parse(TEXT, source="q.rq")
        assert first == expected and len(_entries(cache)) == 1
        assert oct(cache.stat().st_mode & 0o777) == "0o700"
        _no_parser(monkeypatch)
        again = parse(TEXT, source="q.rq")
    assert again == expected and again is not first and repr(again) == repr(expected)
    assert again.notes == expected.notes
    assert not parse_cache.active()


def test_every_option_is_part_of_the_key(cache: Path) -> None:
    with parse_cache.enabled():
        plain = parse(TEXT, source="q.rq")
        assert parse(TEXT, "csparql", source="q.rq") == plain  # auto resolves to csparql: the same entry
        assert len(_entries(cache)) == 1
        lenient = parse(TEXT, source="q.rq", lenient=True)
        other_source = parse(TEXT, source="r.rq")
        declared = parse(TEXT.replace("PREFIX ex: <http://example.org/>\n", ""), source="q.rq",
                         prefixes={"ex": "http://example.org/"})
    assert lenient == parse(TEXT, source="q.rq", lenient=True)
    assert other_source == plain and other_source.notes == plain.notes == ()
    assert declared == parse(TEXT.replace("PREFIX ex: <http://example.org/>\n", ""), source="q.rq",
                             prefixes={"ex": "http://example.org/"})
    assert len(_entries(cache)) == 3  # a query without notes is the same from any file: one entry


def test_notes_name_their_file(cache: Path, monkeypatch) -> None:
    """A query with notes (which start with its source name) is cached per source name."""
    noted = TEXT.replace("[RANGE 10s STEP 1s]", "[RANGE 1s STEP 10s]")
    expected = {src: parse(noted, source=src).notes for src in ("a.rq", "b.rq")}
    assert expected["a.rq"] and expected["a.rq"][0].startswith("a.rq:4:") and expected["b.rq"][0].startswith("b.rq:")
    with parse_cache.enabled():
        for _ in range(2):
            for src in ("a.rq", "b.rq"):
                assert parse(noted, source=src).notes == expected[src]
        assert len(_entries(cache)) == 2
        _no_parser(monkeypatch)
        assert parse(noted, source="a.rq").notes == expected["a.rq"]
        with pytest.raises(AssertionError, match="parsed although"):
            parse(noted, source="c.rq")


def test_a_stale_foreign_or_broken_entry_is_not_used(cache: Path) -> None:
    with parse_cache.enabled():
        query = parse(TEXT, source="q.rq")
        [entry] = _entries(cache)
        fmt, stamp, key, cached = pickle.loads(entry.read_bytes())
        assert cached == query and stamp == parse_cache._stamp()
        bogus = parse("SELECT * WHERE { ?s ?p ?o }", "cqels")
        # the right stamp and key: used (so the checks below can fail)
        entry.write_bytes(pickle.dumps((fmt, stamp, key, bogus)))
        assert parse(TEXT, source="q.rq") == bogus
        # another text under the same file name (a crc32 collision): not used, written again
        entry.write_bytes(pickle.dumps((fmt, stamp, (TEXT + " ", *key[1:]), bogus)))
        assert parse(TEXT, source="q.rq") == query
        # the parser's files changed since: not used
        entry.write_bytes(pickle.dumps((fmt, (("x", 1, 1),), key, bogus)))
        assert parse(TEXT, source="q.rq") == query
        assert pickle.loads(entry.read_bytes())[1] == parse_cache._stamp()
        # broken entries: parsed again
        for garbage in (b"\x80garbage", b"", pickle.dumps((fmt, stamp, key, "not a query")), pickle.dumps(None)[:-1]):
            entry.write_bytes(garbage)
            assert parse(TEXT, source="q.rq") == query


def test_an_entry_in_a_folder_others_can_write_is_not_read(cache: Path) -> None:
    with parse_cache.enabled():
        query = parse(TEXT, source="q.rq")
        [entry] = _entries(cache)
        fmt, stamp, key, _ = pickle.loads(entry.read_bytes())
        bogus = parse("SELECT * WHERE { ?s ?p ?o }", "cqels")
        entry.write_bytes(pickle.dumps((fmt, stamp, key, bogus)))
        os.chmod(cache, 0o777)
        try:
            assert parse(TEXT, source="q.rq") == query
        finally:
            os.chmod(cache, 0o700)


def test_errors_are_never_cached(cache: Path) -> None:
    with parse_cache.enabled():
        for _ in range(2):
            with pytest.raises(SourceError) as err:
                parse("SELECT ?x WHERE { ?x ?p }", source="bad.rq")
            assert str(err.value).startswith("bad.rq:1:")
    assert _entries(cache) == []


def test_off_and_unwritable(tmp_path: Path, monkeypatch) -> None:
    expected = parse(TEXT, source="q.rq")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    with parse_cache.enabled():
        assert parse(TEXT, source="q.rq") == expected
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(blocker / "sub"))
    with parse_cache.enabled():
        assert parse(TEXT, source="q.rq") == expected
        assert parse(TEXT, source="q.rq") == expected


STREAM = "".join(
    f'<http://example.org/o{t}> <http://example.org/procedure> <http://example.org/s{t % 3}> "{t}" .\n'
    f'<http://example.org/o{t}> <http://example.org/value> "{20 + 4 * t}.5"^^<http://www.w3.org/2001/XMLSchema#float> "{t}" .\n'
    for t in range(6)
)


def test_a_warm_run_parses_nothing(tmp_path: Path) -> None:
    """``rsplars run`` with its query (and the query's FILTER expression) cached imports no Lark;
    its output is the cold run's, which is the run's without the cache."""
    query, stream = tmp_path / "q.rq", tmp_path / "s.nt"
    query.write_text(TEXT)
    stream.write_text(STREAM)
    root = Path(__file__).parents[2]
    code = ("import sys; from translator.cli import main; rc = main(sys.argv[1:]);"
            "print('LOADED', 'lark' in sys.modules, file=sys.stderr); sys.exit(rc)")
    args = [sys.executable, "-c", code, "run", str(query), "--stream", f"http://example.org/stream={stream}"]

    def run(folder: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": str(root), "RSPLARS_CACHE_DIR": folder}
        return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)

    runs = [run(str(tmp_path / "cache")) for _ in range(2)] + [run("")]
    assert [r.returncode for r in runs] == [0, 0, 0], runs[0].stderr
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    last = json.loads(runs[0].stdout.splitlines()[-1])  # t = 5: the FILTER keeps o4 (s1, 36.5) and o5 (s2, 40.5)
    assert last["t"] == 5 and sorted(a["value"].split('"')[1] for a in last["answers"]) == ["36.5", "40.5"]
    assert "LOADED True" in runs[0].stderr and "LOADED False" in runs[1].stderr and "LOADED True" in runs[2].stderr
    # the query only: the engine gets the FILTER's conjuncts from the translator, which printed them
    # (translator.translate.expressions.remember_expression), so they are never parsed nor cached
    assert len(_entries(tmp_path / "cache")) == 1


def test_lark_keeps_its_parse_tables_in_the_cache_folder(cache: Path, tmp_path: Path, monkeypatch) -> None:
    """Lark's cache of a grammar: in the user's folder; a broken file is rebuilt silently; an
    unusable folder leaves Lark's default (the temp directory)."""
    plain = "SELECT * WHERE { ?s ?p ?o FILTER(?o > 3) }"
    build = parse_module.grammar.__wrapped__  # the grammar, not the one already built in this process
    tree = build("cqels").parse(plain)
    lark_file = cache / "lark-cqels.pickle"
    assert lark_file.stat().st_size > 1000 and parse_cache.lark_cache("cqels") == str(lark_file)
    for broken in (b"garbage", lark_file.read_bytes()[:500], b""):
        lark_file.write_bytes(broken)
        assert build("cqels").parse(plain) == tree
        assert lark_file.stat().st_size > 1000  # written again
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RSPLARS_CACHE_DIR", str(blocker / "sub"))
    assert parse_cache.lark_cache("cqels") is True
    monkeypatch.setenv("RSPLARS_CACHE_DIR", "")
    assert parse_cache.lark_cache("cqels") is True
    os.chmod(cache, 0o777)
    try:
        monkeypatch.setenv("RSPLARS_CACHE_DIR", str(cache))
        assert parse_cache.lark_cache("cqels") is True
    finally:
        os.chmod(cache, 0o700)


def _dialect_entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("dialect-*.pickle")) if folder.exists() else []


def test_the_detected_dialect_is_kept_per_text(cache: Path, monkeypatch) -> None:
    """``parse_cache.detect``: the detector's (dialect, reason), from the cache when the text and the
    parser's files are the same, whatever the file; never a stale or foreign entry; only inside the
    command line."""
    from translator.query import dialect as dialect_module

    cqels = "SELECT ?s WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?s ?p ?o } }"
    expected = {text: dialect_module.detect_dialect(text) for text in (TEXT, cqels)}
    assert parse_cache.detect(TEXT, "q.rq") == (expected[TEXT].dialect, expected[TEXT].reason)
    assert _dialect_entries(cache) == []  # outside the command line: no cache
    with parse_cache.enabled():
        for text in (TEXT, cqels):
            assert parse_cache.detect(text, "q.rq") == (expected[text].dialect, expected[text].reason)
        assert [d for d, _ in (parse_cache.detect(t, "x.rq") for t in (TEXT, cqels))] == ["csparql", "cqels"]
        assert len(_dialect_entries(cache)) == 2

    def refuse(*args, **kwargs):
        raise AssertionError("detected although the dialect is cached")

    with parse_cache.enabled(), monkeypatch.context() as patched:
        patched.setattr(dialect_module, "detect_dialect", refuse)
        assert parse_cache.detect(cqels, "other.rq") == (expected[cqels].dialect, expected[cqels].reason)
        entry = next(p for p in _dialect_entries(cache) if pickle.loads(p.read_bytes())[2] == cqels)
        fmt, stamp, text, dialect, reason = pickle.loads(entry.read_bytes())
        # the right stamp and text: used (so the checks below can fail)
        entry.write_bytes(pickle.dumps((fmt, stamp, text, "epsparql", "planted")))
        assert parse_cache.detect(cqels, "q.rq") == ("epsparql", "planted")
        for stale in ((fmt, (("x", 1, 1),), text, "epsparql", "planted"),  # the parser's files changed
                      (fmt, stamp, text + " ", "epsparql", "planted"),  # another text, same file name
                      (fmt, stamp, text, None, "planted"), b"garbage"):
            entry.write_bytes(stale if isinstance(stale, bytes) else pickle.dumps(stale))
            with pytest.raises(AssertionError, match="detected although"):
                parse_cache.detect(cqels, "q.rq")
    with parse_cache.enabled():  # detected again, and the entry written again
        assert parse_cache.detect(cqels, "q.rq") == (expected[cqels].dialect, expected[cqels].reason)
        assert pickle.loads(entry.read_bytes())[1:] == (parse_cache._stamp(), cqels, dialect, reason)


def test_a_mix_of_dialects_is_never_kept(cache: Path) -> None:
    mixed = ("SELECT ?s FROM STREAM <http://example.org/s> [RANGE 5s STEP 1s] "
             "WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?s ?p ?o } }")
    with parse_cache.enabled():
        for _ in range(2):
            with pytest.raises(SourceError) as err:
                parse_cache.detect(mixed, "mixed.rq")
            assert str(err.value).startswith("mixed.rq:1:") and "mixes dialects" in str(err.value)
    assert _dialect_entries(cache) == []
