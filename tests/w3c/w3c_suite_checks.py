"""The assertions the W3C suite tests make of each test and of each classification
(``test_sparql11_suite.py``, ``test_sparql10_suite.py``): a measured outcome is the classified one,
a classification names tests of its suite once, and docs/conformance.md holds the generated table."""

from __future__ import annotations

from pathlib import Path

from w3c_classification import Classification
from w3c_conformance import Suite, table
from w3c_manifest import W3CTest
from w3c_runner import measure, measure_rdflib

CONFORMANCE = Path(__file__).resolve().parents[2] / "docs" / "conformance.md"


def assert_rsplars_outcome(test: W3CTest, c: Classification) -> None:
    """rsplars' outcome on the test through ``rsplars run`` is the classified one."""
    outcome = measure(test)
    assert outcome.status == c.expected_status(test.key), (test.key, outcome)
    if test.key in c.unsupported:  # refused by name, never answered
        assert c.unsupported[test.key][1] in outcome.detail, outcome.detail
    if outcome.status == "passed":  # equal lexical forms too, but where the classification says
        assert outcome.lexical == (test.key not in c.by_value), (test.key, outcome)
    if test.key in c.duplicates:  # only the duplicates differ: the answers are the expected bag's set
        assert outcome.duplicates and outcome.as_set, outcome


def assert_rdflib_outcome(test: W3CTest, c: Classification) -> None:
    """rdflib's outcome on the test is the classified one (the reference column of docs/conformance.md)."""
    outcome = measure_rdflib(test)
    assert outcome.status == c.expected_rdflib(test.key), (test.key, outcome)


def assert_names_tests_once(tests: list[W3CTest], c: Classification) -> None:
    from w3c_classification import CAUSES

    keys = {t.key for t in tests}
    listed = [*c.unsupported, *c.duplicates, *c.failed]
    assert len(listed) == len(set(listed))
    assert set(listed) | c.by_value | set(c.rdflib_failed) <= keys
    assert not c.by_value & set(listed)
    assert all(cause in CAUSES and status in ("wrong", "error") for status, cause, _ in c.failed.values())
    assert {status for status, _ in c.rdflib_failed.values()} <= {"wrong", "error"}


def assert_conformance_table(tests: list[W3CTest], suite: Suite, syntax=None) -> None:
    text = CONFORMANCE.read_text(encoding="utf-8")
    start, end = text.index(suite.start), text.index(suite.end) + len(suite.end)
    assert text[start:end] == table(tests, suite, syntax), "regenerate with: python tests/w3c/w3c_conformance.py"
