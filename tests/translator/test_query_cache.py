"""Parsed queries and detected dialects in the user's cache (``translator.cache``, used by
``translator.query.parse``): inside the command line, ``parse`` returns the query the parser gives,
from the cache when the text and every option are the same; errors always from the parser; library
calls outside the command line never touch the cache."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from translator import cache as user_cache
from lars.errors import SourceError
from translator.query import parse as parse_module
from translator.query.parse import detect, parse

TEXT = """REGISTER QUERY hot AS
PREFIX ex: <http://example.org/>
SELECT ?sensor ?value
FROM STREAM <http://example.org/stream> [RANGE 10s STEP 1s]
WHERE { ?obs ex:procedure ?sensor . ?obs ex:value ?value . FILTER (?value > 30.5 && ?sensor != ex:s0) }
"""


def _entries(folder: Path, kind: str = "query") -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.pickle")) if folder.exists() else []


def _no_parser(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("parsed although the query is cached")

    monkeypatch.setattr(parse_module, "_parse", refuse)


def test_a_cache_hit_is_the_parsers_query(cache: Path, monkeypatch) -> None:
    expected = parse(TEXT, source="q.rq")  # outside the command line: no cache
    assert not cache.exists()
    with user_cache.enabled():
        first = parse(TEXT, source="q.rq")
        assert first == expected and len(_entries(cache)) == 1
        _no_parser(monkeypatch)
        again = parse(TEXT, source="q.rq")
    assert again == expected and again is not first and repr(again) == repr(expected)
    assert again.notes == expected.notes


def test_every_option_is_part_of_the_key(cache: Path) -> None:
    undeclared = TEXT.replace("PREFIX ex: <http://example.org/>\n", "")
    with user_cache.enabled():
        plain = parse(TEXT, source="q.rq")
        assert parse(TEXT, "csparql", source="q.rq") == plain  # auto resolves to csparql: the same entry
        assert len(_entries(cache)) == 1
        lenient = parse(TEXT, source="q.rq", lenient=True)
        other_source = parse(TEXT, source="r.rq")
        declared = parse(undeclared, source="q.rq", prefixes={"ex": "http://example.org/"})
        other_namespace = parse(undeclared, source="q.rq", prefixes={"ex": "http://example.org/other/"})
        bare = parse(TEXT, source="q.rq", bare_ns="http://example.org/bare/")
    assert lenient == parse(TEXT, source="q.rq", lenient=True)
    assert other_source == plain and other_source.notes == plain.notes == ()
    assert declared == parse(undeclared, source="q.rq", prefixes={"ex": "http://example.org/"})
    assert other_namespace == parse(undeclared, source="q.rq", prefixes={"ex": "http://example.org/other/"})
    assert other_namespace != declared
    assert bare == parse(TEXT, source="q.rq", bare_ns="http://example.org/bare/")
    assert len(_entries(cache)) == 5  # a query without notes is the same from any file: one entry


def test_notes_name_their_file(cache: Path, monkeypatch) -> None:
    """A query with notes (which start with its source name) is cached per source name."""
    noted = TEXT.replace("[RANGE 10s STEP 1s]", "[RANGE 1s STEP 10s]")
    expected = {src: parse(noted, source=src).notes for src in ("a.rq", "b.rq")}
    assert expected["a.rq"] and expected["a.rq"][0].startswith("a.rq:4:") and expected["b.rq"][0].startswith("b.rq:")
    with user_cache.enabled():
        for _ in range(2):
            for src in ("a.rq", "b.rq"):
                assert parse(noted, source=src).notes == expected[src]
        assert len(_entries(cache)) == 2
        _no_parser(monkeypatch)
        assert parse(noted, source="a.rq").notes == expected["a.rq"]
        with pytest.raises(AssertionError, match="parsed although"):
            parse(noted, source="c.rq")


def test_an_entry_that_is_not_a_query_is_not_used(cache: Path) -> None:
    with user_cache.enabled():
        query = parse(TEXT, source="q.rq")
        [entry] = _entries(cache)
        fmt, version, kind, key, cached = pickle.loads(entry.read_bytes())
        assert cached == query
        bogus = parse("SELECT * WHERE { ?s ?p ?o }", "cqels")
        entry.write_bytes(pickle.dumps((fmt, version, kind, key, bogus)))
        assert parse(TEXT, source="q.rq") == bogus  # the right key: used (so the check below can fail)
        entry.write_bytes(pickle.dumps((fmt, version, kind, key, "not a query")))
        assert parse(TEXT, source="q.rq") == query


def test_errors_are_never_cached(cache: Path) -> None:
    with user_cache.enabled():
        for _ in range(2):
            with pytest.raises(SourceError) as err:
                parse("SELECT ?x WHERE { ?x ?p }", source="bad.rq")
            assert str(err.value).startswith("bad.rq:1:")
    assert _entries(cache) == []


def test_the_detected_dialect_is_kept_per_text(cache: Path, monkeypatch) -> None:
    """``detect``: the detector's (dialect, reason), from the cache when the text is the same,
    whatever the file; only inside the command line."""
    from translator.query import dialect as dialect_module

    cqels = "SELECT ?s WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?s ?p ?o } }"
    expected = {text: dialect_module.detect_dialect(text) for text in (TEXT, cqels)}
    assert detect(TEXT, "q.rq") == (expected[TEXT].dialect, expected[TEXT].reason)
    assert _entries(cache, "dialect") == []  # outside the command line: no cache
    with user_cache.enabled():
        for text in (TEXT, cqels):
            assert detect(text, "q.rq") == (expected[text].dialect, expected[text].reason)
        assert len(_entries(cache, "dialect")) == 2
        with monkeypatch.context() as patched:
            patched.setattr(dialect_module, "detect_dialect", None)  # not called: from the cache
            assert detect(cqels, "other.rq") == (expected[cqels].dialect, expected[cqels].reason)


def test_a_mix_of_dialects_is_never_kept(cache: Path) -> None:
    mixed = ("SELECT ?s FROM STREAM <http://example.org/s> [RANGE 5s STEP 1s] "
             "WHERE { STREAM <http://example.org/s> [RANGE 5s] { ?s ?p ?o } }")
    with user_cache.enabled():
        for _ in range(2):
            with pytest.raises(SourceError) as err:
                detect(mixed, "mixed.rq")
            assert str(err.value).startswith("mixed.rq:1:") and "mixes dialects" in str(err.value)
    assert _entries(cache, "dialect") == []
