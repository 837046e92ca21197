"""The W3C SPARQL 1.0 tests (DAWG data-r2, ``tests/data/w3c-sparql10/``) through the command line.

Each ``mf:QueryEvaluationTest`` of the evaluation manifests runs through ``rsplars run`` as the
SPARQL 1.1 tests do (``test_sparql11_suite.py``: the test's data as ``--static`` and ``--named``, or
the query's own FROM / FROM NAMED read beside the query), its answers compared as bags
(``w3c_results``; REDUCED and ``mf:LaxCardinality`` with their lax cardinality). Every test passes
unless ``w3c_classification10`` lists it, and then it fails exactly as listed; rdflib's engine runs
every test too (the reference column of docs/conformance.md). Approval (``dawgt:approval``) and optional features
(``mf:requires``) are read from the manifests: every listed test is run, and docs/conformance.md says which
are not approved. Each syntax test runs through ``rsplars translate``: a positive one is read
(exit 0), a negative one is refused as a located syntax error (exit 2, no traceback).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from w3c_classification10 import SPARQL10, SYNTAX_FAILED  # noqa: E402
from w3c_conformance import W3C_SPARQL10  # noqa: E402
from w3c_manifest import SyntaxTest, W3CTest, all_tests10, syntax_tests  # noqa: E402
from w3c_runner import read_syntax_test  # noqa: E402
from w3c_suite_checks import (assert_names_tests_once, assert_rdflib_outcome, assert_conformance_table,  # noqa: E402
                              assert_rsplars_outcome)

TESTS = all_tests10()
SYNTAX = syntax_tests()


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_w3c_query_evaluation_test(test: W3CTest) -> None:
    assert_rsplars_outcome(test, SPARQL10)


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_rdflib_reference(test: W3CTest) -> None:
    assert_rdflib_outcome(test, SPARQL10)


def test_classification_names_tests_of_the_suite_once() -> None:
    assert_names_tests_once(TESTS, SPARQL10)


def test_conformance_table_is_the_classification() -> None:
    assert_conformance_table(TESTS, W3C_SPARQL10, SYNTAX)


def test_the_manifests_are_read_with_approval_requirements_and_cardinality() -> None:
    by_key = {t.key: t for t in TESTS}
    assert len(TESTS) == 283 and len(SYNTAX) == 199
    assert by_key["basic/base-prefix-1"].approved and not by_key["sort/sort-not-projected"].approved
    assert by_key["open-world/date-2"].requires == ("XsdDateOperations",)
    assert sum(not t.approved for t in TESTS) == 41 and sum(bool(t.requires) for t in TESTS) == 8  # as docs/conformance.md says
    assert all(t.lax_cardinality for t in TESTS if t.category == "reduced")
    assert by_key["dataset/dawg-dataset-01"].data == ()  # the query's FROM names its data


@pytest.mark.parametrize("test", SYNTAX, ids=[t.key for t in SYNTAX])
def test_w3c_syntax_test(test: SyntaxTest) -> None:
    """A positive syntax test is read (exit 0), a negative one refused with exit 2 and a located
    message, never a traceback; unless ``SYNTAX_FAILED`` lists it, and then the other way round."""
    code, err = read_syntax_test(test)
    assert "Traceback" not in err
    refused = code == 2 and f"{test.query}:" in err
    assert code in (0, 2)
    assert refused == ((not test.positive) != (test.key in SYNTAX_FAILED)), (test.key, code, err[-300:])


def test_syntax_classification_names_syntax_tests() -> None:
    assert set(SYNTAX_FAILED) <= {t.key for t in SYNTAX}
