"""RSEP-QL at the command line: detection (not mistaken for EP-SPARQL or RSP-QL, nor they for it),
errors with FILE:LINE:COLUMN naming RSEP-QL and exit 2, the options that do not apply."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.cli import main
from translator.query.dialect import detect_dialect

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLE4 = DATA / "rsepql" / "example4_landmark1.rq"
STREAM = f"http://rsplars.invalid/bare#S={DATA / 'epsparql' / 'rsepql_figure1.stream'}"

HEAD = "PREFIX : <http://example.org/>\nSELECT ?x\nFROM NAMED :S WIN [LND 1] AS :w1\n"


def test_example_4_is_detected_and_reported(capsys):
    assert main(["translate", str(EXAMPLE4), "--to", "model"]) == 0
    err = capsys.readouterr().err
    assert "rsplars: dialect: rsepql (WIN [ at 2:15)" in err


@pytest.mark.parametrize("text,dialect", [
    ((DATA / "rsepql" / "example4.rq").read_text(), "rsepql"),
    (HEAD + "EVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { FIRST E1 } }", "rsepql"),
    ("SELECT ?x WHERE { MATCH { E1 SEQ E2 } }", "rsepql"),
    ((DATA / "epsparql" / "rsepql_seq.rq").read_text(), "epsparql"),
    ("SELECT ?x WHERE { ?x <http://e/p> ?y } SEQ { ?y <http://e/q> ?z }", "epsparql"),
    ("REGISTER RSTREAM <http://e/o> AS SELECT ?x FROM NAMED WINDOW <http://e/w> ON <http://e/s> [RANGE PT5S] "
     "WHERE { WINDOW <http://e/w> { ?x <http://e/p> ?y } }", "rspql"),
])
def test_detection(text, dialect):
    assert detect_dialect(text).dialect == dialect


def error_of(capsys, tmp_path, text: str, *options: str) -> str:
    path = tmp_path / "q.rq"
    path.write_text(text)
    code = main(["translate", str(path), "--to", "lars", *options])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("text,where,fragment", [
    (HEAD + "EVENT ON :w2 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 } }", "4:1", "EVENT ON <http://example.org/w2> names no declared window"),
    (HEAD + "EVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 SEQ E3 } }", "5:24", "MATCH names the event E3, which is not declared"),
    (HEAD + "EVENT ON :w1 { ?x :p ?y } AS E1\nEVENT ON :w1 { ?x :q ?y } AS E1\nWHERE { MATCH { E1 } }", "5:1", "the event E1 is declared twice"),
    (HEAD + "FROM NAMED :S WIN [RANGE 5] AS :w1\nEVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 } }", "4:1", "the window <http://example.org/w1> is declared twice"),
    (HEAD + "EVENT ON :w1 { } AS E1\nWHERE { MATCH { E1 } }", "4:21", "the event E1 has no triple pattern"),
    ("SELECT ?x\nFROM NAMED :S WIN [LND] AS :w1\n", "2:23", "(RSEP-QL syntax)"),
    (HEAD + "FROM NAMED :S WIN [RANGE 0] AS :w2\nEVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 } }", "4:26", "the window RANGE must be positive"),
    (HEAD + "EVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 SEQ } }", "5:24", "(RSEP-QL syntax)"),
    (HEAD + "EVENT ON :w1 { ?x :p ?y } AS E1\nWHERE { MATCH { E1 } ?x :p ?y }", None,
     "unsupported in translation of RSEP-QL to LARS: graph patterns beside MATCH"),
])
def test_errors_are_located_and_name_rsepql(capsys, tmp_path, text, where, fragment):
    err = error_of(capsys, tmp_path, text)
    assert fragment in err
    if where is not None:
        assert f"q.rq:{where}:" in err


def test_rsepql_forced_on_epsparql_text_is_a_mismatch(capsys, tmp_path):
    err = error_of(capsys, tmp_path, "SELECT ?x WHERE { ?x <http://e/p> ?y } EQUALS { ?y <http://e/q> ?z }",
                   "--dialect", "rsepql")
    assert "this looks like EP-SPARQL" in err


def test_epsparql_forced_on_rsepql_text_names_rsepql(capsys, tmp_path):
    err = error_of(capsys, tmp_path, (DATA / "rsepql" / "example4.rq").read_text(), "--dialect", "epsparql")
    assert "RSEP-QL" in err and "q.rq:2:" in err


@pytest.mark.parametrize("option", [["--at", "8,x"], ["--mode", "pull"], ["--r2s", "istream"], ["--print-asp-at", "8"]])
def test_options_that_do_not_apply_are_errors(capsys, option):
    code = main(["run", str(EXAMPLE4), "--stream", STREAM, *option])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
