"""``rsplars translate``: exit codes, stdin, JSON keys, error format, no traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from translator.cli import main

QUERIES = Path(__file__).resolve().parents[1] / "data" / "queries"


def run(capsys, *argv):
    code = main(["translate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_model_json_keys_and_streams(capsys):
    code, out, err = run(capsys, str(QUERIES / "csparql" / "Q1.txt"), "--to", "model")
    assert code == 0
    assert err.startswith("rsplars: dialect: csparql (FROM STREAM at 2:2)")
    data = json.loads(out)
    for key in ("dialect", "form", "variables", "dataset", "registration", "pattern", "streams"):
        assert key in data
    assert data["dialect"] == "csparql" and data["form"] == "select"
    assert data["variables"] == ["obId1", "obId2", "v1", "v2"]
    s = data["streams"][0]
    assert s["iri"].endswith("AarhusTrafficData182955") and s["pattern"] is None
    w = s["window"]
    assert {k: w[k] for k in ("kind", "range", "unit", "step", "step_unit", "rows", "range_ms", "step_ms")} == {
        "kind": "range", "range": 3000, "unit": "ms", "step": 1, "step_unit": "s", "rows": None,
        "range_ms": 3000, "step_ms": 1000,
    }


def test_cqels_streams_have_patterns(capsys):
    code, out, err = run(capsys, str(QUERIES / "cqels" / "Q1.txt"))
    assert code == 0 and "dialect: cqels (STREAM graph pattern at 8:1)" in err
    s = json.loads(out)["streams"][0]
    assert s["pattern"]["type"] == "group" and s["window"]["step_ms"] is None


def test_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("SELECT ?x WHERE { STREAM <http://s> [NOW] { ?x <http://p> ?y } }"))
    code, out, _ = run(capsys, "-")
    assert code == 0 and json.loads(out)["streams"][0]["window"]["kind"] == "now"


def test_parse_error_format_exit_2_no_traceback(capsys, tmp_path):
    f = tmp_path / "bad.rq"
    f.write_text("SELECT ?x WHERE {\n  STREAM <http://s> [RANGE 3s STEP 1s] { ?x <http://p> ?y }\n}\n")
    code, out, err = run(capsys, str(f))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[1] == f"{f}:2:31: CQELS-QL windows slide with SLIDE, not STEP (e.g. [RANGE 30m SLIDE 1m])"
    assert lines[3] == "  " + " " * 30 + "^"
    assert lines[4].startswith("expected: ")
    assert "Traceback" not in err


def test_forced_dialect_mismatch_is_explained(capsys):
    code, _, err = run(capsys, str(QUERIES / "cqels" / "Q1.txt"), "--dialect", "csparql")
    assert code == 2
    assert "this looks like CQELS-QL: STREAM graph pattern at 8:1; C-SPARQL declares streams with FROM STREAM" in err


def test_lenient_notes_and_query_target(capsys):
    code, out, err = run(capsys, str(QUERIES / "epsparql" / "ep1.rq"), "--to", "query")
    assert code == 0 and "dialect: epsparql (SEQ at 4:4)" in err and "undeclared prefix 'xsd:'" in err
    assert " SEQ " in out and "getDURATION()" in out


def test_lars_target_reads_back(capsys):
    """``--to lars`` prints a program the LARS parser
    reads back; the comment header names the strategy and mode."""
    from lars.syntax import parse_program

    code, out, err = run(capsys, str(QUERIES / "cqels" / "Q1.txt"), "--to", "lars")
    assert code == 0 and "Traceback" not in err
    assert out.startswith("% Q: strategy tau2, mode push,")
    program = parse_program(out)
    assert any(r.head is not None and r.head.predicate == "answer" for r in program.rules)


def test_untranslatable_query_is_a_named_unsupported_error(capsys, tmp_path):
    query = tmp_path / "opt.rq"
    query.write_text("SELECT * WHERE { { ?x p ?y } SEQ { ?y q ?z } OPTIONAL { ?z r ?w } }")
    code, out, err = run(capsys, str(query), "--to", "lars")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "unsupported in translation of EP-SPARQL to LARS: OPTIONAL (use OPTIONALSEQ or EQUALSOPTIONAL)" in err


def test_missing_file(capsys):
    code, _, err = run(capsys, "/nonexistent/q.rq")
    assert code == 2 and err.startswith("rsplars: cannot read query /nonexistent/q.rq: No such file")


@pytest.mark.parametrize("path", sorted((QUERIES / "malformed").glob("*.rq"))[:5], ids=lambda p: p.stem)
def test_malformed_via_cli(capsys, path):
    code, _, err = run(capsys, str(path), "--dialect", path.read_text().split()[2])
    assert code == 2 and f"{path}:" in err and "Traceback" not in err
