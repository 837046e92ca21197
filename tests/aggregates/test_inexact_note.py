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
