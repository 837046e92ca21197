"""RAND, UUID, STRUUID, BNODE and NOW (SPARQL 1.1 §17.4.4.5, §17.4.2.12-13, §17.4.2.9, §17.4.5.1),
tested by their properties (``translator.translate.fresh``): ranges and formats, distinct values
per solution, the same BNODE(str) within a solution, one NOW per evaluation; the same values from
both LARS engines (the functions are functions of the solution, so the program stays stable)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
XSD = "http://www.w3.org/2001/XMLSchema#"
DATA = "".join(f'<http://e/s{k}> <http://e/p> "{k % 3}" .\n' for k in range(20)) + '_:data <http://e/p> "x" .\n'


def lexical(text: str) -> str:
    return text[1:text.rindex('"')]


@pytest.mark.parametrize("engine", ["incremental", "asp"])
def test_rand_uuid_struuid_bnode_per_solution(rsplars, engine: str) -> None:
    query = ('SELECT ?s ?r ?u ?su ?b ?b1 ?b2 ?b3 WHERE { ?s <http://e/p> ?o '
             'BIND(RAND() AS ?r) BIND(UUID() AS ?u) BIND(STRUUID() AS ?su) BIND(BNODE() AS ?b) '
             'BIND(BNODE(?o) AS ?b1) BIND(BNODE(?o) AS ?b2) BIND(BNODE(CONCAT(?o, "!")) AS ?b3) }')
    run = rsplars(query, DATA, None, "--lars-engine", engine)
    assert run.code == 0, run.err
    rows = run.answers()
    assert len(rows) == 21
    for row in rows:
        assert row["r"].endswith(f'^^<{XSD}double>') and 0 <= float(lexical(row["r"])) < 1
        assert row["u"].startswith("<urn:uuid:") and UUID.match(row["u"][len("<urn:uuid:"):-1])
        assert row["su"].startswith('"') and row["su"].endswith('"') and UUID.match(lexical(row["su"]))
        assert row["b"].startswith("_:") and row["b"] != "_:data"
        assert row["b1"] == row["b2"] != row["b3"]  # BNODE(str): one node per string within the solution
    for name in ("r", "u", "su", "b", "b1"):  # fresh across solutions (BNODE(str) too: other solutions)
        assert len({row[name] for row in rows}) == len(rows), name
    assert len({row[n] for row in rows for n in ("b", "b1", "b3")}) == 3 * len(rows)


def test_the_engines_give_the_same_values(rsplars) -> None:
    query = 'SELECT ?s ?r ?u WHERE { ?s <http://e/p> ?o BIND(RAND() AS ?r) BIND(UUID() AS ?u) FILTER(RAND() < 0.7) }'
    iris_only = DATA.replace('_:data <http://e/p> "x" .\n', "")  # a data blank node's label is new at each load
    runs = [rsplars(query, iris_only, None, "--lars-engine", engine) for engine in ("incremental", "asp")]
    assert all(r.code == 0 for r in runs), [r.err for r in runs]
    assert runs[0].answers() == runs[1].answers()
    assert 0 < len(runs[0].answers()) < 20  # the FILTER's RAND keeps some solutions, not all


def test_two_calls_differ(rsplars) -> None:
    run = rsplars("SELECT (BNODE() AS ?b1) (BNODE() AS ?b2) (RAND() AS ?r1) (RAND() AS ?r2) "
                  "(UUID() AS ?u1) (UUID() AS ?u2) ((RAND() - RAND()) AS ?d) WHERE {}")
    assert run.code == 0, run.err
    (row,) = run.answers()
    assert row["b1"] != row["b2"] and row["r1"] != row["r2"] and row["u1"] != row["u2"]
    assert float(lexical(row["d"])) != 0


def test_bnode_of_a_non_string_is_an_error(rsplars) -> None:
    run = rsplars("SELECT ?s ?b WHERE { ?s <http://e/p> ?o BIND(BNODE(<http://e/x>) AS ?b) }", DATA)
    assert run.code == 0, run.err
    assert all("b" not in row for row in run.answers())


def test_now_is_the_query_time_without_streams(rsplars) -> None:
    before = datetime.now(timezone.utc) - timedelta(milliseconds=1)
    run = rsplars("SELECT ?s (NOW() AS ?n) (YEAR(NOW()) AS ?y) WHERE { ?s <http://e/p> ?o }", DATA)
    after = datetime.now(timezone.utc)
    assert run.code == 0, run.err
    values = {row["n"] for row in run.answers()}
    assert len(values) == 1  # one value throughout the query
    (now,) = values
    assert now.endswith(f'^^<{XSD}dateTime>')
    moment = datetime.fromisoformat(lexical(now).replace("Z", "+00:00"))
    assert before <= moment <= after


def test_now_and_rand_on_a_stream(rsplars, tmp_path) -> None:
    stream = tmp_path / "s.stream"
    stream.write_text("<http://e/a> <http://e/p> <http://e/x> [1] .\n<http://e/b> <http://e/p> <http://e/y> [1] .\n"
                      "<http://e/a> <http://e/p> <http://e/z> [2] .\n", encoding="utf-8")
    query = ("SELECT ?s ?o ?n ?r WHERE { STREAM <http://e/str> [RANGE 5s SLIDE 1s] { ?s <http://e/p> ?o } "
             "BIND(NOW() AS ?n) BIND(RAND() AS ?r) }")
    run = rsplars(query, "", None, "--stream", f"http://e/str={stream}", "--epoch", "2020-01-01T00:00:00Z",
                  "--to", "3")
    assert run.code == 0, run.err
    records = [r for r in run.records() if r["answers"]]
    assert [r["t"] for r in records] == [1, 2]  # CQELS pushes: evaluated where input arrives
    seen_r: dict = {}
    for record in records:
        (now,) = {row["n"] for row in record["answers"]}  # equal across the rows of one evaluation
        assert now == f'"2020-01-01T00:00:0{record["t"]}Z"^^<{XSD}dateTime>'
        for row in record["answers"]:
            seen_r.setdefault((row["s"], row["o"]), set()).add(row["r"])
    # a solution keeps its RAND at every evaluation it holds at (a function of the solution);
    # the three solutions differ
    assert all(len(values) == 1 for values in seen_r.values())
    assert len(set().union(*seen_r.values())) == 3


def test_refused_by_name_in_ep_sparql() -> None:
    """EP-SPARQL's translation passes no solution to its expressions: the functions are refused."""
    from lars.errors import UnsupportedError
    from translator.query.parse import parse
    from translator.translate.epsparql import reject_unsupported

    query = parse("SELECT ?x ?r WHERE { ?x p ?y BIND(RAND() AS ?r) } SEQ { ?y q ?z }", "epsparql")
    with pytest.raises(UnsupportedError, match="RAND"):
        reject_unsupported(query)
