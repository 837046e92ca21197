"""``rsplars translate QUERY --to lars|asp``: every option changes the program as Dao-Tran, Beck, Eiter 2015, §3–4
and decisions D1–D4 say, and user errors are named (exit 2, no traceback, nothing on stdout)."""

from __future__ import annotations

import io
import re

import pytest

from cli_helpers import DATA, Q1, Q2, S1, S2
from lars.syntax import parse_program

CITY = DATA / "queries"


def lars(run_cli, query, *options: str) -> str:
    code, out, err = run_cli("translate", query, "--to", "lars", *options)
    assert code == 0, err
    return out


def headers(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("% ") and ": strategy " in line]


def trigger_rules(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("trigger :-")]


# ------------------------------------------------------------------------------------ modes


def test_default_modes_are_push_for_cqels_and_pull_for_csparql(run_cli):
    """D4: C-SPARQL pulls with its period (CSRBench Listing 1: STEP 10s), CQELS pushes (D3)."""
    assert trigger_rules(lars(run_cli, Q2, "--unit", "m")) == ["trigger :- striple(X1,X2,X3,X4) [now]."]
    listing1 = CITY / "seeds" / "s002_listing1.rq"
    assert trigger_rules(lars(run_cli, listing1)) == ["trigger :- true at T [now], T \\ 10 = 0."]


@pytest.mark.parametrize("mode, expected", [
    ("push", ["trigger :- striple(X1,X2,X3,X4) [now]."]),
    ("pull", ["trigger :- true at T [now], T \\ 5 = 0."]),
    ("none", []),
])
def test_mode_option(run_cli, mode, expected):
    text = lars(run_cli, Q1, "--unit", "m", "--mode", mode, "--period", "5m")
    assert trigger_rules(text) == expected
    rules = [line for line in text.splitlines() if line and not line.startswith(("%", "trigger :-"))]
    assert rules
    # §4.1: every rule with a body gets the trigger atom in push and pull, none in mode none
    if mode == "none":
        assert not any("trigger" in r for r in rules)
    else:
        assert all(r.endswith(", trigger.") for r in rules)


def test_period_is_converted_to_base_units(run_cli):
    assert trigger_rules(lars(run_cli, Q1, "--unit", "s", "--period", "5m")) == ["trigger :- true at T [now], T \\ 300 = 0."]
    assert trigger_rules(lars(run_cli, Q1, "--unit", "m", "--period", "2h")) == ["trigger :- true at T [now], T \\ 120 = 0."]


def test_period_not_a_whole_number_of_base_units(run_cli):
    code, out, err = run_cli("translate", Q1, "--to", "lars", "--unit", "m", "--period", "90s")
    assert code == 2 and out == ""
    assert "'90s' of 90000 ms is not a whole multiple of the base unit m" in err


def test_window_not_a_whole_number_of_base_units(run_cli):
    code, out, err = run_cli("translate", CITY / "seeds" / "s002_listing1.rq", "--to", "lars", "--unit", "m")
    assert code == 2 and out == "" and "window range 10s" in err and "choose a finer base unit" in err


def test_pull_without_period_is_an_error(run_cli):
    code, out, err = run_cli("translate", Q1, "--to", "lars", "--unit", "m")
    assert code == 2 and out == "" and "pull mode needs a period" in err and "--period" in err


# --------------------------------------------------------------------------- units, windows


def test_unit_scales_the_windows(run_cli):
    """D1: [RANGE 30m] is ⊞^30 in minutes and ⊞^1800 in seconds (Table 1)."""
    assert '"<http://example.org/rtgm/s1>") [30]' in lars(run_cli, Q2, "--unit", "m")
    assert '"<http://example.org/rtgm/s1>") [1800]' in lars(run_cli, Q2, "--unit", "s")


@pytest.mark.parametrize("bounds", ["closed", "left-open", "right-open"])
def test_window_bounds_option(run_cli, bounds):
    """D2: the three conventions give three different window terms; the header names the one used;
    the text parses back (right-open needs the [L, -1, D] extension of the LARS printer)."""
    text = lars(run_cli, Q2, "--unit", "m", "--window-bounds", bounds)
    assert f"window bounds {bounds}," in headers(text)[0]
    parse_program(text)


def test_window_bounds_differ(run_cli):
    texts = {b: lars(run_cli, Q2, "--unit", "m", "--window-bounds", b) for b in ("closed", "left-open", "right-open")}
    windows = {b: re.findall(r"\) (\[[^\]]*\])", t) for b, t in texts.items()}
    assert windows["closed"] != windows["left-open"] != windows["right-open"] != windows["closed"]
    assert windows["closed"][:1] == ["[30]"]


def test_unicode_notation(run_cli):
    text = lars(run_cli, Q2, "--unit", "m", "--unicode")
    assert "⊞^30 ◇ striple(" in text and "←" in text and ":-" not in text


# ------------------------------------------------------------------------------ strategies


def test_strategy_tau1_on_a_cqels_query_merges_streams(run_cli):
    """τ1 (Dao-Tran, Beck, Eiter 2015, §4.3): import rules triple(S,P,O,stream) ← ⊞ ◇ striple(S,P,O,s) per stream."""
    text = lars(run_cli, Q2, "--unit", "m", "--strategy", "tau1")
    imports = [line for line in text.splitlines() if line.startswith("triple(S,P,O,stream) :-")]
    assert imports == [f'triple(S,P,O,stream) :- striple(S,P,O,"<{S1}>") [30], trigger.',
                       f'triple(S,P,O,stream) :- striple(S,P,O,"<{S2}>") [5], trigger.']
    tau2 = lars(run_cli, Q2, "--unit", "m", "--strategy", "tau2")
    assert "triple(S,P,O,stream)" not in tau2 and "striple(V_shop," in tau2


def test_strategy_tau2_on_a_csparql_query_says_what_to_do(run_cli):
    code, out, err = run_cli("translate", Q1, "--to", "lars", "--unit", "m", "--period", "1m", "--strategy", "tau2")
    assert code == 2 and out == "" and "--as cqels-brave/cqels-cautious" in err


# ----------------------------------------------------------------------- cs(Q) and cq(Q)

ASSIGN = ("--assign", f"1={S1}", "--assign", f"2={S1}", "--assign", f"3={S1}", "--assign", f"4={S2}")


@pytest.mark.parametrize("as_, count", [("csparql", 1), ("cqels-brave", 1), ("cqels-cautious", 1), ("cqels-all", 4)])
def test_as_counterparts_of_a_csparql_query(run_cli, as_, count):
    """Dao-Tran, Beck, Eiter 2015, §3: cs(Q) is one query; cq(Q) has 2^|S| = 4 members for Q1's two streams."""
    text = lars(run_cli, Q1, "--unit", "m", "--mode", "push", "--as", as_, *ASSIGN)
    assert len(headers(text)) == count
    for section in re.split(r"(?m)^(?=% .*: strategy )", text):
        if section.strip():
            parse_program(section)
    if as_ == "cqels-brave":
        # brave: the stream triple patterns become STREAM patterns (no import rules, no static union)
        assert "triple(S,P,O,stream)" not in text and f'"<{S2}>") [5]' in text
    if as_ == "cqels-cautious":
        # cautious: (STREAM s ω g) UNION g — the isNear pattern is also matched on static data
        assert 'triple(V_user,"<http://example.org/rtgm#isNear>",V_shop,default)' in text


def test_as_csparql_of_a_cqels_query(run_cli):
    text = lars(run_cli, Q2, "--unit", "m", "--as", "csparql", "--mode", "pull", "--period", "1m")
    assert len(headers(text)) == 1 and "strategy tau1, mode pull, period 1 m" in headers(text)[0]
    assert "triple(S,P,O,stream) :-" in text


def test_assign_must_name_a_pattern_number(run_cli):
    code, out, err = run_cli("translate", Q1, "--to", "lars", "--unit", "m", "--mode", "push",
                             "--as", "cqels-brave", "--assign", f"x={S1}")
    assert code == 2 and out == "" and "--assign: expected I=IRI" in err


# ------------------------------------------------------------------- ASP, stdin, errors


def test_to_asp_is_the_encoding(run_cli):
    code, out, err = run_cli("translate", Q2, "--to", "asp", "--unit", "m")
    assert code == 0, err
    # answer/6: the three projected variables, then the hidden ?coupon, ?gender, ?user (D5)
    assert "lars_dia(0,striple(V_shop," in out and "#show answer/6." in out


def test_stdin(run_cli, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(Q2.read_text()))
    code, out, _ = run_cli("translate", "-", "--to", "lars", "--unit", "m")
    assert code == 0 and out == lars(run_cli, Q2, "--unit", "m")


@pytest.mark.parametrize("text, construct", [
    ("SELECT ?s WHERE { STREAM <http://s> [NOW] { ?s ?p ?o } FILTER(<http://f>(?o)) }", "the function call <http://f>"),
    ("SELECT ?s WHERE { STREAM <http://s> [NOW] { ?s ?p ?o } BIND(EXISTS { ?s ?p 1 } AS ?b) }", "EXISTS / NOT EXISTS"),
])
def test_unsupported_constructs_are_named(run_cli, tmp_path, text, construct):
    q = tmp_path / "q.rq"
    q.write_text(text)
    code, out, err = run_cli("translate", q, "--to", "lars", "--lenient")
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"unsupported in translation to LARS: {construct}" in err


CORPUS = sorted(p for p in CITY.glob("*/*") if p.suffix in (".rq", ".txt"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_corpus_query_translates_or_names_the_problem(run_cli, path):
    """No traceback ever: each query of the corpus (CityBench, seeds, EP-SPARQL, extra, malformed)
    translates — and the LARS text parses back — or fails with a user error (exit 2)."""
    code, out, err = run_cli("translate", path, "--to", "lars", "--lenient", "--period", "1s", "--unit", "s")
    assert code in (0, 2) and "Traceback" not in err
    if code == 0:
        parse_program(out)
    else:
        assert out == "" and err.strip()
