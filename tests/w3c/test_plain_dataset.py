"""The base IRI of a query file, ``FROM <g>`` and ``FROM NAMED <g>`` of a plain SPARQL run
(``rsplars.running``, which ``rsplars run`` calls): relative IRIs resolve against the query file's
``file:`` IRI (SPARQL 1.1 §4.1.1), FROM names the default graph and FROM NAMED a named graph
(§13.2), and ``--static`` given on
the command line overrides FROM as a protocol dataset does (SPARQL 1.1 Protocol §2.1.4). The
oracle is the data written in each test."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from w3c_runner import run_cli  # noqa: E402

BESIDE = "<http://ex.org/a> <http://ex.org/p> \"beside\" .\n"
GIVEN = "<http://ex.org/a> <http://ex.org/p> \"given\" .\n"


def values(tmp_path: Path, query: str, *options: str) -> tuple[int, list[str], str]:
    (tmp_path / "beside.ttl").write_text(BESIDE, encoding="utf-8")
    (tmp_path / "given.ttl").write_text(GIVEN, encoding="utf-8")
    (tmp_path / "q.rq").write_text(query, encoding="utf-8")
    out = tmp_path / "out.json"
    code, err = run_cli(["run", str(tmp_path / "q.rq"), *options, "--format", "sparql-json", "--output", str(out)])
    if code != 0:
        return code, [], err
    rows = json.loads(out.read_text(encoding="utf-8"))["results"]["bindings"]
    return code, sorted(row["v"]["value"] for row in rows), err


def test_from_a_relative_iri_reads_the_file_beside_the_query(tmp_path: Path) -> None:
    code, found, err = values(tmp_path, "SELECT ?v FROM <beside.ttl> WHERE { ?s ?p ?v }")
    assert (code, found) == (0, ["beside"]), err


def test_static_on_the_command_line_overrides_from(tmp_path: Path) -> None:
    code, found, err = values(tmp_path, "SELECT ?v FROM <beside.ttl> WHERE { ?s ?p ?v }",
                              "--static", str(tmp_path / "given.ttl"))
    assert (code, found) == (0, ["given"]), err


def test_from_takes_the_named_graph_of_its_iri(tmp_path: Path) -> None:
    code, found, err = values(tmp_path, "SELECT ?v FROM <http://ex.org/g> WHERE { ?s ?p ?v }",
                              "--named", f"http://ex.org/g={tmp_path / 'given.ttl'}")
    assert (code, found) == (0, ["given"]), err


def test_graph_with_a_relative_iri_names_the_file_iri(tmp_path: Path) -> None:
    iri = (tmp_path / "beside.ttl").resolve().as_uri()
    code, found, err = values(tmp_path, "SELECT ?v WHERE { GRAPH <beside.ttl> { ?s ?p ?v } }",
                              "--named", f"{iri}={tmp_path / 'beside.ttl'}")
    assert (code, found) == (0, ["beside"]), err


def test_base_declared_in_the_query_wins_over_the_file(tmp_path: Path) -> None:
    code, found, err = values(tmp_path, "BASE <http://ex.org/> SELECT ?v WHERE { GRAPH <g> { ?s ?p ?v } }",
                              "--named", f"http://ex.org/g={tmp_path / 'given.ttl'}")
    assert (code, found) == (0, ["given"]), err


def test_from_a_web_iri_without_data_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = values(tmp_path, "SELECT ?v FROM <http://ex.org/remote> WHERE { ?s ?p ?v }")
    assert code == 2 and "FROM <http://ex.org/remote>" in err and "--static" in err and "Traceback" not in err


def test_from_named_reads_the_file_beside_the_query_as_that_graph(tmp_path: Path) -> None:
    iri = (tmp_path / "beside.ttl").resolve().as_uri()
    code, found, err = values(tmp_path, "SELECT ?v FROM NAMED <beside.ttl> WHERE { GRAPH ?g { ?s ?p ?v } "
                                        f"FILTER(?g = <{iri}>) }}")
    assert (code, found) == (0, ["beside"]), err


def test_from_named_takes_the_named_graph_of_its_iri(tmp_path: Path) -> None:
    code, found, err = values(tmp_path, "SELECT ?v FROM NAMED <http://ex.org/g> WHERE { GRAPH <http://ex.org/g> "
                                        "{ ?s ?p ?v } }", "--named", f"http://ex.org/g={tmp_path / 'given.ttl'}")
    assert (code, found) == (0, ["given"]), err


def test_from_named_a_web_iri_without_data_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = values(tmp_path, "SELECT ?v FROM NAMED <http://ex.org/remote> WHERE { GRAPH ?g { ?s ?p ?v } }")
    assert code == 2 and "FROM NAMED <http://ex.org/remote>" in err and "--named http://ex.org/remote=FILE" in err
    assert "Traceback" not in err
