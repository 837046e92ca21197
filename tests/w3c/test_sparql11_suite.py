"""The W3C SPARQL 1.1 query-evaluation tests (``tests/data/w3c-sparql11/``) through ``rsplars run``.

Each ``mf:QueryEvaluationTest`` of the suite's manifests is run through the command line over its
``qt:data`` (``--static``) and ``qt:graphData`` (``--named IRI=FILE``), without a stream: a query
without streams is plain SPARQL (Dao-Tran, Beck, Eiter 2015, Proposition 2). Its answers are
compared with the expected result as SPARQL's tests compare them (``w3c_results``: sets, blank nodes
up to renaming, numbers by value within their datatype; where the query has ORDER BY, the sequence of
the rows' ORDER BY keys too). Every test passes unless ``w3c_classification`` lists it, and then it fails
exactly as listed: refused *by name* for an unsupported feature, a set equal to a bag with
duplicates, or a failure whose reason is written in the README. The README's conformance table is
the one ``w3c_conformance`` generates from the same lists.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from w3c_classification import BY_VALUE, DUPLICATES, FAILED, UNSUPPORTED, expected_status  # noqa: E402
from w3c_conformance import END, START, table  # noqa: E402
from w3c_manifest import SUITE, W3CTest, all_tests  # noqa: E402
from w3c_results import order_variables, read_expected, same_solutions  # noqa: E402
from w3c_runner import UNSUPPORTED_MESSAGE, arguments, compare, measure, run_cli_subprocess  # noqa: E402

TESTS = all_tests()
BY_KEY = {t.key: t for t in TESTS}
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize("test", TESTS, ids=[t.key for t in TESTS])
def test_w3c_query_evaluation_test(test: W3CTest) -> None:
    outcome = measure(test)
    assert outcome.status == expected_status(test.key), (test.key, outcome)
    if test.key in UNSUPPORTED:  # refused by name, never answered
        assert UNSUPPORTED[test.key][1] in outcome.detail, outcome.detail
    if outcome.status == "passed":  # equal lexical forms too, but where the classification says
        assert outcome.lexical == (test.key not in BY_VALUE), (test.key, outcome)
    if test.key in DUPLICATES:  # only the duplicates differ: the answers are the expected bag's set
        assert outcome.duplicates and outcome.as_set, outcome


def test_classification_names_tests_of_the_suite_once() -> None:
    listed = [*UNSUPPORTED, *DUPLICATES, *FAILED]
    assert len(listed) == len(set(listed))
    assert set(listed) | BY_VALUE <= set(BY_KEY)
    assert not BY_VALUE & set(listed)


def test_readme_conformance_table_is_the_classification() -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(START), text.index(END) + len(END)
    assert text[start:end] == table(TESTS), "regenerate with: python tests/w3c/w3c_conformance.py"


def test_the_comparison_sees_a_wrong_answer() -> None:
    """The runner's comparison fails on an answer that differs in one term, one number, or one
    solution, and accepts a renaming of blank nodes (so that a pass means equal answers)."""
    expected = read_expected(SUITE / "bind" / "bind04.srx")
    variables, rows = expected
    good = json.dumps({"t": 0, "answers": [{v: x for v, x in zip(variables, r) if x is not None} for r in rows]})
    assert compare(expected, good).status == "passed"
    assert compare(expected, json.dumps({"t": 0, "answers": []})).status == "wrong"
    changed = json.loads(good)
    first = changed["answers"][0]
    first[next(iter(first))] = '"other"'
    assert compare(expected, json.dumps(changed)).status == "wrong"
    assert same_solutions([("_:a", "<x>"), ("_:b", "<y>")], [("_:c", "<x>"), ("_:d", "<y>")])
    assert not same_solutions([("_:a", "<x>"), ("_:a", "<y>")], [("_:c", "<x>"), ("_:d", "<y>")])
    two = '"2"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    assert same_solutions([(two,)], [('"2.0"^^<http://www.w3.org/2001/XMLSchema#decimal>',)])
    assert not same_solutions([(two,)], [('"2"^^<http://www.w3.org/2001/XMLSchema#integer>',)])
    assert compare(True, '{"t": 0, "answer": false}\n').status == "wrong"


def test_the_comparison_sees_answers_out_of_order() -> None:
    """Where the query has ORDER BY, the runner compares the sequence of the ORDER BY keys: the
    expected rows reversed are wrong, rows that tie on the keys may be swapped."""
    test = BY_KEY["property-path/pp14"]
    order = order_variables(test.query.read_text(encoding="utf-8"))
    assert order == ("X", "Y")
    variables, rows = expected = read_expected(test.result)

    def text(rows) -> str:
        return json.dumps({"t": 0, "answers": [{v: x for v, x in zip(variables, r) if x is not None} for r in rows]})

    assert compare(expected, text(rows), order).status == "passed"
    assert compare(expected, text(rows[::-1]), order).status == "wrong"
    assert compare(expected, text(rows[::-1])).status == "passed"  # without ORDER BY, a set
    assert compare(expected, text(rows[::-1]), ("Z",)).status == "passed"  # ties on every key


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
    assert compare(read_expected(test.result), (tmp_path / "out.jsonl").read_text()).status == "passed"
