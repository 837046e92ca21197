"""A stream given as a folder of Turtle files (the CSRBench oracle's input) is parsed once and then
read from the user's cache (``translator.cache``, the command line only): keyed by the files' names and
bytes, so a changed file is parsed again; literals keep their lexical forms; off with ``--no-cache``."""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib

from translator import cache as user_cache
from translator.cli.main import main
from translator.rdf import streams
from translator.rdf.streams import read_streams
from translator.rdf.terms import to_nt

IRI = "http://example.org/s"
TURTLE = """@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:obs{k} ex:value "{value}"^^xsd:double ; ex:at "01"^^xsd:integer ; ex:by [ ex:name "n{k}" ] .
"""


def write(folder: Path, values: dict[int, str]) -> None:
    folder.mkdir(exist_ok=True)
    for k, value in values.items():
        (folder / f"data_{k}.ttl").write_text(TURTLE.replace("{k}", str(k)).replace("{value}", value))


def elements(folder: Path) -> list[tuple]:
    (got,) = read_streams({IRI: str(folder)}).values()
    return [(e.t, tuple(to_nt(x) for x in e.triple)) for e in got]


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("turtle-folder-*.pickle")) if cache.exists() else []


@pytest.fixture
def parses(monkeypatch) -> list[int]:
    """The number of Turtle texts rdflib parsed."""
    count = [0]
    original = rdflib.Graph.parse

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(rdflib.Graph, "parse", counting)
    return count


def test_a_folder_is_parsed_once_and_read_back_as_parsed(tmp_path: Path, cache: Path, parses) -> None:
    folder = tmp_path / "stream"
    write(folder, {0: "78", 1: "80.50"})
    direct = elements(folder)  # outside the command line: no cache
    assert parses[0] == 2 and not entries(cache)
    with user_cache.enabled():
        first = elements(folder)
        assert parses[0] == 4 and len(entries(cache)) == 1
        again = elements(folder)
    assert parses[0] == 4  # read from the entry
    assert again == first
    # the same triples as without the cache, blank nodes aside (their labels are the parse's own)
    named = [(t, tr) for t, tr in direct if not any(x.startswith("_:") for x in tr)]
    assert [(t, tr) for t, tr in again if not any(x.startswith("_:") for x in tr)] == named
    assert (0, ("<http://example.org/obs0>", "<http://example.org/value>",
                '"78"^^<http://www.w3.org/2001/XMLSchema#double>')) in again  # lexical forms kept
    assert (1, ("<http://example.org/obs1>", "<http://example.org/at>",
                '"01"^^<http://www.w3.org/2001/XMLSchema#integer>')) in again
    blanks = {x for _, tr in again for x in tr if x.startswith("_:")}
    assert len(blanks) == 2  # the two files' blank nodes stay different


def test_a_changed_file_is_parsed_again(tmp_path: Path, cache: Path, parses) -> None:
    folder = tmp_path / "stream"
    write(folder, {0: "78", 1: "80"})
    with user_cache.enabled():
        before = elements(folder)
        write(folder, {1: "81"})  # same size, same names: only the bytes differ
        after = elements(folder)
        assert parses[0] == 4 and len(entries(cache)) == 2
        (folder / "data_2.ttl").write_text(TURTLE.replace("{k}", "2").replace("{value}", "1"))
        added = elements(folder)
    assert '"80"^^<http://www.w3.org/2001/XMLSchema#double>' in {tr[2] for _, tr in before}
    values = {tr[2] for _, tr in after}
    assert '"81"^^<http://www.w3.org/2001/XMLSchema#double>' in values
    assert '"80"^^<http://www.w3.org/2001/XMLSchema#double>' not in values
    assert {t for t, _ in added} == {0, 1, 2} and parses[0] == 7


def test_a_folder_above_the_bound_is_not_kept(tmp_path: Path, cache: Path, parses, monkeypatch) -> None:
    folder = tmp_path / "stream"
    write(folder, {0: "78", 1: "80"})
    size = sum(len(f.read_text()) for f in folder.iterdir())
    monkeypatch.setattr(streams, "FOLDER_CACHE_MAX_CHARS", size - 1)
    with user_cache.enabled():
        first = elements(folder)
        assert len(elements(folder)) == len(first) and not entries(cache) and parses[0] == 4
    monkeypatch.setattr(streams, "FOLDER_CACHE_MAX_CHARS", size)
    with user_cache.enabled():
        elements(folder)
    assert len(entries(cache)) == 1


def test_a_syntax_error_leaves_no_entry(tmp_path: Path, cache: Path) -> None:
    folder = tmp_path / "stream"
    write(folder, {0: "78"})
    (folder / "data_1.ttl").write_text("@prefix ex: <http://example.org/> .\nex:a ex:b .\n")
    with user_cache.enabled(), pytest.raises(Exception, match="Turtle syntax error"):
        elements(folder)
    assert not entries(cache)


def test_no_cache_on_the_command_line_writes_nothing(tmp_path: Path, cache: Path, capsys) -> None:
    folder = tmp_path / "stream"
    write(folder, {0: "78", 1: "90"})
    query = tmp_path / "q.rq"
    query.write_text("REGISTER QUERY q AS PREFIX ex: <http://example.org/> SELECT ?o ?v "
                     f"FROM STREAM <{IRI}> [RANGE 2s STEP 1s] WHERE {{ ?o ex:value ?v FILTER(?v > 80) }}\n")
    argv = ["run", str(query), "--stream", f"{IRI}={folder}", "--stream-time-unit", "s"]
    assert main([*argv, "--no-cache"]) == 0
    assert not entries(cache)
    out = capsys.readouterr().out
    assert main(argv) == 0 and len(entries(cache)) == 1
    assert capsys.readouterr().out == out
