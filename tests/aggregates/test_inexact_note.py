"""SUM/AVG over every numeric type need no note (they are exact); the one limit of the encoding —
more values in one group than a 16-bit limb sum holds exactly — leaves the aggregate unbound, and
is never silent: the run says so on stderr."""

from __future__ import annotations

import json

from translator.cli import main
from translator.translate import aggregates, expressions

QUERY = "SELECT (SUM(?v) AS ?s) (COUNT(?v) AS ?n) WHERE { STREAM <http://e/s> [RANGE 5s] { ?x <http://e/v> ?v } }\n"
XSD = "http://www.w3.org/2001/XMLSchema#"


def _run(tmp_path, capsys, value: str):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(
        f'<http://e/a> <http://e/v> {value} "1" .\n<http://e/b> <http://e/v> "2"^^<{XSD}integer> "1" .\n')
    assert main(["run", str(tmp_path / "q.rq"), "--stream", f"http://e/s={tmp_path / 's.nt'}"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out.splitlines()[0]), err


def test_decimal_and_double_sums_have_values_and_no_note(tmp_path, capsys) -> None:
    record, err = _run(tmp_path, capsys, f'"1.5"^^<{XSD}decimal>')
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>', "s": f'"3.5"^^<{XSD}decimal>'}]
    assert "note" not in err
    record, err = _run(tmp_path, capsys, f'"1.5e0"^^<{XSD}double>')
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>', "s": f'"3.5E0"^^<{XSD}double>'}]
    assert "note" not in err


def test_a_string_makes_sum_unbound_without_a_note(tmp_path, capsys) -> None:
    record, err = _run(tmp_path, capsys, '"abc"')  # SPARQL: an error, hence unbound; not a limit
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>'}]
    assert "note" not in err


def test_too_many_values_for_the_limb_sums_are_unbound_and_noted(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(aggregates, "MAX_SUM_ROWS", 1)  # the guard, scaled down: the portable rules'
    monkeypatch.setattr(expressions, "MAX_SUM_ROWS", 1)  # and the external aggregates'
    record, err = _run(tmp_path, capsys, f'"3"^^<{XSD}integer>')
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>'}]  # ?s unbound, never a wrong number
    assert "note: at t=1 a SUM or AVG met more values in one group than it adds exactly" in err


def _note_runs(tmp_path, capsys, query: str, lines: list[str], engine: str) -> tuple[list, str]:
    (tmp_path / "q.rq").write_text(query)
    (tmp_path / "s.nt").write_text("".join(lines))
    assert main(["run", str(tmp_path / "q.rq"), "--stream", f"http://e/s={tmp_path / 's.nt'}", "--lars-engine", engine]) == 0
    out, err = capsys.readouterr()
    return [json.loads(line) for line in out.splitlines()], err


def _values(k: int, t: int, sensor: str = "a") -> str:
    return f'<http://e/o{k}> <http://e/v> "{k}"^^<{XSD}integer> "{t}" .\n<http://e/o{k}> <http://e/in> <http://e/{sensor}> "{t}" .\n'


def test_the_limit_is_noted_at_the_same_time_point_by_both_engines(tmp_path, capsys, monkeypatch) -> None:
    """The portable program's ``agglimit`` rule (clingo) and the native program's functions that
    tell the run (``expressions.functions_noting_limits``; the native program has no such rule)
    note the first time point at which a group holds more values than SUM/AVG add: here t=3, when
    the third value comes, in a group that a HAVING on the group key keeps out of the answers, and
    for AVG in another group; answers and notes equal."""
    monkeypatch.setattr(aggregates, "MAX_SUM_ROWS", 2)
    monkeypatch.setattr(expressions, "MAX_SUM_ROWS", 2)
    query = ("SELECT ?g (SUM(?v) AS ?s) (AVG(?v) AS ?a) WHERE { STREAM <http://e/s> [RANGE 5s] "
             "{ ?x <http://e/v> ?v . ?x <http://e/in> ?g } } GROUP BY ?g HAVING (?g != <http://e/a>)\n")
    lines = [_values(1, 1), _values(2, 2), _values(5, 2, "b"), _values(3, 3), _values(4, 4, "b")]
    got = {engine: _note_runs(tmp_path, capsys, query, lines, engine) for engine in ("incremental", "asp")}
    assert got["incremental"] == got["asp"]
    records, err = got["incremental"]
    assert err.count("note:") == 1 and "note: at t=3 a SUM or AVG met more values" in err
    assert all(a["g"] == "<http://e/b>" for r in records for a in r["answers"])
    monkeypatch.setattr(aggregates, "MAX_SUM_ROWS", 32767)
    monkeypatch.setattr(expressions, "MAX_SUM_ROWS", 32767)
    records, err = _note_runs(tmp_path, capsys, query, lines, "incremental")
    assert "note" not in err and records[-1]["answers"][0]["s"] == f'"9"^^<{XSD}integer>'


def test_the_native_program_has_no_limit_rule() -> None:
    from translator.query.parse import parse
    from translator.translate.compile import compile_query

    compiled = compile_query(parse("SELECT (SUM(?v) AS ?s) (AVG(?v) AS ?a) WHERE { STREAM <http://e/s> [RANGE 5s] { ?x <http://e/v> ?v } }\n"))
    portable, native = compiled.engine_programs()
    heads = [r.head.predicate for r in native.rules if r.head is not None and hasattr(r.head, "predicate")]
    assert not [h for h in heads if h.startswith("agglimit")]
    assert [r for r in portable.rules if r.head is not None and getattr(r.head, "predicate", "").startswith("agglimit")]
