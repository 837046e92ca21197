"""The W3C SPARQL 1.1 query-evaluation tests (``tests/data/w3c-sparql11/``) through ``rsplars run``.

Each ``mf:QueryEvaluationTest`` of the suite's manifests is run through the command line over its
``qt:data`` (``--static``) and ``qt:graphData`` (``--named IRI=FILE``), without a stream: a query
without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2). Its answers are
compared with the expected result as SPARQL's tests compare them (``w3c_results``: bags, blank nodes
up to one renaming, numbers by value within their datatype; where the query has ORDER BY, the sequence
of the rows' ORDER BY keys too). Every test passes unless ``w3c_classification`` lists it, and then it
fails exactly as listed: refused *by name* for an unsupported feature, a set equal to a bag with
duplicates, or a failure whose reason is written in docs/conformance.md. rdflib's own engine runs every test
too, compared the same way (the reference column there). The conformance table of docs/conformance.md is the
one ``w3c_conformance`` generates from the same lists.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from w3c_classification import SPARQL11, UNSUPPORTED  # noqa: E402
from w3c_conformance import W3C_SPARQL11  # noqa: E402
from w3c_manifest import SUITE, W3CTest, all_tests  # noqa: E402
from w3c_results import ResultSet, order_keys, read_expected, same_bag, top_modifiers, within_reduced  # noqa: E402
from w3c_runner import UNSUPPORTED_MESSAGE, arguments, cli_answers, compare, run_cli_subprocess  # noqa: E402
from w3c_suite_checks import (assert_names_tests_once, assert_rdflib_outcome, assert_conformance_table,  # noqa: E402
                              assert_rsplars_outcome)

TESTS = all_tests()
BY_KEY = {t.key: t for t in TESTS}


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_w3c_query_evaluation_test(test: W3CTest) -> None:
    assert_rsplars_outcome(test, SPARQL11)


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_rdflib_reference(test: W3CTest) -> None:
    assert_rdflib_outcome(test, SPARQL11)


def test_classification_names_tests_of_the_suite_once() -> None:
    assert_names_tests_once(TESTS, SPARQL11)


def test_conformance_table_is_the_classification() -> None:
    assert_conformance_table(TESTS, W3C_SPARQL11)


def _jsonl(variables, rows) -> str:
    return json.dumps({"t": 0, "answers": [{v: x for v, x in zip(variables, r) if x is not None} for r in rows]})


def test_the_comparison_sees_a_wrong_answer() -> None:
    """The runner's comparison fails on an answer that differs in one term, one number, or one
    solution, and accepts a renaming of blank nodes (so that a pass means equal answers)."""
    expected = read_expected(SUITE / "bind" / "bind04.srx")
    assert isinstance(expected, ResultSet)

    def outcome(text: str) -> str:
        return compare(expected, cli_answers(expected, text)).status

    good = _jsonl(expected.variables, expected.rows)
    assert outcome(good) == "passed"
    assert outcome(json.dumps({"t": 0, "answers": []})) == "wrong"
    changed = json.loads(good)
    first = changed["answers"][0]
    first[next(iter(first))] = '"other"'
    assert outcome(json.dumps(changed)) == "wrong"
    two = '"2"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    assert same_bag([(two,)], [('"2.0"^^<http://www.w3.org/2001/XMLSchema#decimal>',)])
    assert not same_bag([(two,)], [('"2"^^<http://www.w3.org/2001/XMLSchema#integer>',)])
    assert not same_bag([(two,)], [('"2.0"^^<http://www.w3.org/2001/XMLSchema#decimal>',)], by_value=False)
    assert compare(True, False).status == "wrong"


def test_the_comparison_counts_solutions_as_a_bag() -> None:
    """Solutions are counted (a missing or an extra copy is wrong), blank nodes are renamed by one
    bijection across all rows, and REDUCED accepts any count between one and the bag's."""
    a, b = ("<a>", "<x>"), ("<b>", "<x>")
    assert same_bag([a, b, a], [a, a, b])
    assert not same_bag([a, b], [a, a, b]) and not same_bag([a, a, a, b], [a, a, b])
    assert same_bag([("_:a", "<x>"), ("_:b", "<y>")], [("_:c", "<x>"), ("_:d", "<y>")])
    assert not same_bag([("_:a", "<x>"), ("_:a", "<y>")], [("_:c", "<x>"), ("_:d", "<y>")])
    assert same_bag([("_:a",), ("_:a",), ("_:b",)], [("_:d",), ("_:c",), ("_:d",)])
    assert not same_bag([("_:a",), ("_:a",)], [("_:c",), ("_:d",)])
    assert within_reduced([a, b], [a, a, b]) and within_reduced([a, a, b], [a, a, b])
    assert not within_reduced([a, a, a, b], [a, a, b]) and not within_reduced([a], [a, a, b])
    expected = ResultSet(["s", "o"], [a, a, b])
    assert compare(expected, [a, b]).detail.endswith("the same solutions, other cardinalities")
    assert compare(expected, [a, b], reduced=True).status == "passed"


def test_the_comparison_sees_answers_out_of_order() -> None:
    """Where the query has ORDER BY, the runner compares the sequence of the ORDER BY keys: the
    expected rows reversed are wrong, rows that tie on the keys may be swapped; a key the answers
    do not show (an expression) compares the rows' sequence."""
    test = BY_KEY["property-path/pp14"]
    order = order_keys(top_modifiers(test.query.read_text(encoding="utf-8")))
    assert order == ("X", "Y")
    expected = read_expected(test.result)
    rows = expected.rows
    assert compare(expected, rows, order).status == "passed"
    assert compare(expected, rows[::-1], order).status == "wrong"
    assert compare(expected, rows[::-1]).status == "passed"  # without ORDER BY, a bag
    tied = ResultSet(["x", "y"], [("<a>", "<1>"), ("<a>", "<2>"), ("<b>", "<3>")])
    first, second, third = tied.rows
    assert compare(tied, [second, first, third], ("x",)).status == "passed"  # tied on ?x
    assert compare(tied, [first, third, second], ("x",)).status == "wrong"
    assert order_keys(top_modifiers("SELECT ?s { ?s ?p ?o } ORDER BY str(?o)")) == (None,)
    assert compare(expected, rows[1:] + rows[:1], (None,)).status == "wrong"
    assert compare(expected, rows, (None,)).status == "passed"


@pytest.mark.parametrize("key", ["bind/bind04", "functions/in01", "aggregates/agg-empty-group-count-graph",
                                 "exists/exists01", "property-path/pp12", "subquery/subquery01"])
def test_a_sample_through_a_separate_process(key: str, tmp_path: Path) -> None:
    """The same outcome when ``python -m translator run`` runs as its own program: SELECT, ASK,
    named graphs (``--named``), FILTER EXISTS, a property path, and a feature refused by name (exit 2, no traceback)."""
    test = BY_KEY[key]
    done = run_cli_subprocess(arguments(test, "jsonl", tmp_path / "out.jsonl"))
    if key in UNSUPPORTED:
        assert done.returncode == 2
        assert UNSUPPORTED_MESSAGE + UNSUPPORTED[key][1].split(" (")[0] in done.stderr
        assert "Traceback" not in done.stderr
        return
    assert done.returncode == 0, done.stderr
    expected = read_expected(test.result)
    assert compare(expected, cli_answers(expected, (tmp_path / "out.jsonl").read_text())).status == "passed"
