"""IRI(str)/URI(str) resolve a relative IRI against the query's base IRI (SPARQL 1.1 §17.4.2.8,
RFC 3986 §5.2). The oracle is the resolution done by hand: each expected IRI is spelled in full."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from w3c_runner import run_cli  # noqa: E402

DATA = "<http://ex.org/s> <http://ex.org/name> \"doc/a.txt\" , \"http://other.org/x\" .\n"


def answers(tmp_path: Path, query: str) -> list[str]:
    (tmp_path / "d.ttl").write_text(DATA, encoding="utf-8")
    (tmp_path / "q.rq").write_text(query, encoding="utf-8")
    out = tmp_path / "out.json"
    code, err = run_cli(["run", str(tmp_path / "q.rq"), "--static", str(tmp_path / "d.ttl"), "--format", "sparql-json",
                         "--output", str(out)])
    assert code == 0, err
    rows = json.loads(out.read_text(encoding="utf-8"))["results"]["bindings"]
    return sorted(row["i"]["value"] for row in rows)


def test_iri_of_a_relative_string_is_resolved_against_base(tmp_path: Path) -> None:
    query = """BASE <http://base.org/dir/page>
    SELECT ?i WHERE { ?s <http://ex.org/name> ?n BIND (URI(?n) AS ?i) }"""
    assert answers(tmp_path, query) == ["http://base.org/dir/doc/a.txt", "http://other.org/x"]


def test_iri_without_base_keeps_the_string(tmp_path: Path) -> None:
    query = """SELECT ?i WHERE { ?s <http://ex.org/name> ?n BIND (IRI(?n) AS ?i) }"""
    found = answers(tmp_path, query)
    assert "http://other.org/x" in found and "http://base.org/dir/doc/a.txt" not in found
