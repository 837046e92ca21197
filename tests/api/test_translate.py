"""``rsplars.translate`` equals ``rsplars translate --to …`` on the same query and options."""

from __future__ import annotations

import pytest

import rsplars

from api_helpers import CHECK, Q1, Q2, S1, S2

#: the triple patterns of Q1 each stream feeds (offers, reduce, on: the offers; isNear: the positions)
ASSIGN = {1: S1, 2: S1, 3: S1, 4: S2}

CASES = [
    (Q2, "lars", rsplars.TranslationOptions(unit="m"), [], ["--unit", "m"]),
    (Q2, "asp", rsplars.TranslationOptions(unit="m"), [], ["--unit", "m"]),
    (Q1, "lars", rsplars.TranslationOptions(unit="m", period="5m", window_bounds="left-open"), [],
     ["--unit", "m", "--period", "5m", "--window-bounds", "left-open"]),
    (Q1, "lars", rsplars.TranslationOptions(unit="m", period="5m", as_variant="cqels-all", assign=ASSIGN), [],
     ["--unit", "m", "--period", "5m", "--as", "cqels-all", *(f"--assign={i}={iri}" for i, iri in ASSIGN.items())]),
    (Q2, "asp", rsplars.TranslationOptions(unit="m", period="5m", as_variant="csparql"), [],
     ["--unit", "m", "--period", "5m", "--as", "csparql"]),
    (Q1, "model", rsplars.TranslationOptions(), [], []),
    (Q1, "query", rsplars.TranslationOptions(), [], []),
    (Q2, "rspql", rsplars.TranslationOptions(), [], []),
    (CHECK / "qex.rq", "lars", rsplars.TranslationOptions(), [], []),  # RSP-QL: the rsp-ql profile's program
    (CHECK / "qex.rq", "lars", rsplars.TranslationOptions(), ["cqels"], ["--profile", "cqels"]),
    (CHECK / "qex.rq", "lars", rsplars.TranslationOptions(mode="push"), [], ["--mode", "push"]),
]


@pytest.mark.parametrize("query, target, options, profile, argv", CASES)
def test_translate_equals_the_cli(cli, query, target, options, profile, argv):
    code, out, err = cli("translate", query, "--to", target, *argv)
    assert code == 0, err
    chosen = rsplars.ProfileOptions(*profile) if profile else None
    assert rsplars.translate(str(query), target, options=options, profile=chosen) == out


def test_translations_hold_the_compiled_programs():
    (only,) = rsplars.translations(Q2, options=rsplars.TranslationOptions(unit="m"))
    assert only.label == "Q" and only.compiled.mode == "push"
    assert rsplars.translate(Q2, "lars", options=rsplars.TranslationOptions(unit="m")).endswith("\n" + only.lars)
    from lars.syntax import parse_program

    assert parse_program(only.lars) == only.compiled.program
    members = rsplars.translations(Q1, options=rsplars.TranslationOptions(unit="m", period="5m",
                                                                          as_variant="cqels-all", assign=ASSIGN))
    assert len(members) == 4 and all(t.compiled.strategy == "tau2" for t in members)


def test_unknown_target_is_a_user_error():
    with pytest.raises(rsplars.RsplarsError, match="unknown target 'sql'"):
        rsplars.translate(Q1, "sql")


def test_unknown_window_bounds_are_a_user_error_naming_the_choices():
    options = rsplars.TranslationOptions(unit="m", period="5m", window_bounds="half-open")
    with pytest.raises(rsplars.RsplarsError, match="unknown window bounds 'half-open'; expected one of closed, "
                                                   "left-open, right-open"):
        rsplars.translate(Q1, "lars", options=options)
