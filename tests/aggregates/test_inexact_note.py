"""An aggregate left unbound because it met a value it cannot sum exactly is never silent: the
run says so on stderr (the answers stay SPARQL's error semantics: unbound, never a wrong number)."""

from __future__ import annotations

import json

from translator.cli import main

QUERY = "SELECT (SUM(?v) AS ?s) (COUNT(?v) AS ?n) WHERE { STREAM <http://e/s> [RANGE 5s] { ?x <http://e/v> ?v } }\n"
XSD = "http://www.w3.org/2001/XMLSchema#"


def _run(tmp_path, capsys, value: str):
    (tmp_path / "q.rq").write_text(QUERY)
    (tmp_path / "s.nt").write_text(
        f'<http://e/a> <http://e/v> {value} "1" .\n<http://e/b> <http://e/v> "2"^^<{XSD}integer> "1" .\n')
    assert main(["run", str(tmp_path / "q.rq"), "--stream", f"http://e/s={tmp_path / 's.nt'}"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out.splitlines()[0]), err


def test_decimal_sum_is_unbound_and_noted(tmp_path, capsys) -> None:
    record, err = _run(tmp_path, capsys, f'"1.5"^^<{XSD}decimal>')
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>'}]  # ?s unbound, not a wrong number
    assert "note: at t=1 an aggregate met a value it cannot aggregate exactly" in err


def test_integer_sum_has_no_note(tmp_path, capsys) -> None:
    record, err = _run(tmp_path, capsys, f'"3"^^<{XSD}integer>')
    assert record["answers"] == [{"n": f'"2"^^<{XSD}integer>', "s": f'"5"^^<{XSD}integer>'}]
    assert "aggregate met a value" not in err
