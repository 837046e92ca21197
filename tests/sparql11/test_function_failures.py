"""A SPARQL function that raises an exception outside SPARQL's own errors (§17.2) is a bug: the run
stops with exit 1 and "internal error … please report it", never dropping rows silently."""

from __future__ import annotations

import pytest

from translator.rdf import sparql_terms
from translator.rdf.sparql_ops import ExprError

DATA = '<http://e/a> <http://e/p> "abc" .\n<http://e/b> <http://e/p> "de" .\n'
QUERY = 'SELECT ?s WHERE { ?s <http://e/p> ?o FILTER(STRLEN(?o) > 2) }'


@pytest.fixture
def broken_strlen(monkeypatch):
    def broken(a):
        raise TypeError("a deliberate bug")

    monkeypatch.setitem(sparql_terms.OPERATORS, "STRLEN", broken)


def test_the_query_works_with_the_real_function(rsplars) -> None:
    run = rsplars(QUERY, DATA)
    assert (run.code, run.answers()) == (0, [{"s": "<http://e/a>"}])


@pytest.mark.parametrize("engine", ["incremental", "asp"])
def test_a_broken_function_stops_the_run(rsplars, broken_strlen, engine: str, monkeypatch) -> None:
    monkeypatch.delenv("RSPLARS_TRACEBACK", raising=False)
    run = rsplars(QUERY, DATA, None, "--lars-engine", engine, "--no-cache")
    assert run.code == 1, (run.out, run.err)
    assert "internal error" in run.err and "please report" in run.err and "STRLEN" in run.err
    assert "Traceback" not in run.err
    assert run.out == ""  # no answers written before the failure


def test_the_traceback_on_request(rsplars, broken_strlen, monkeypatch) -> None:
    monkeypatch.setenv("RSPLARS_TRACEBACK", "1")
    run = rsplars(QUERY, DATA, None, "--no-cache")
    assert run.code == 1 and "Traceback" in run.err and "a deliberate bug" in run.err


def test_bad_values_stay_sparql_errors(monkeypatch) -> None:
    """ValueError and ArithmeticError (a lexical form or a number out of range) are §17.2 errors."""
    def overflowing(a):
        raise OverflowError("too large")

    monkeypatch.setitem(sparql_terms.OPERATORS, "ABS", overflowing)
    assert isinstance(sparql_terms.call("ABS", [sparql_terms.integer(1)]), ExprError)
