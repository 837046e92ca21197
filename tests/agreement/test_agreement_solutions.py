"""Solutions: hashable, sorted (var, term) pairs; unbound variables absent (Dao-Tran, Beck, Eiter 2015, §5, D5)."""

from __future__ import annotations

import pytest

from translator.agreement import AgreementError, Solution, answers_from_mappings, sorted_solutions


def test_from_mapping_sorts_drops_question_mark_and_unbound():
    s = Solution.from_mapping({"?shop": "<http://ex/b>", "percent": '"25"', "$gender": None})
    assert s.bindings == (("percent", '"25"'), ("shop", "<http://ex/b>"))
    assert s.to_mapping() == {"percent": '"25"', "shop": "<http://ex/b>"}


def test_equal_mappings_give_equal_hashable_solutions():
    a = Solution.from_mapping({"x": "<a>", "y": "<b>"})
    b = Solution.from_mapping({"?y": "<b>", "?x": "<a>"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_unbound_differs_from_bound():
    assert Solution.from_mapping({"x": "<a>", "y": None}) != Solution.from_mapping({"x": "<a>", "y": "<b>"})
    assert Solution.from_mapping({"x": "<a>", "y": None}) == Solution.from_mapping({"x": "<a>"})


def test_sorting_is_deterministic_across_variable_sets():
    sols = [Solution.from_mapping(m) for m in ({"y": "<a>"}, {"x": "<b>"}, {"x": "<a>", "y": "<c>"}, {"x": "<a>"})]
    assert [s.to_mapping() for s in sorted_solutions(sols)] == [
        {"x": "<a>"}, {"x": "<a>", "y": "<c>"}, {"x": "<b>"}, {"y": "<a>"},
    ]
    assert sorted_solutions(reversed(sols)) == sorted_solutions(sols)


@pytest.mark.parametrize(
    "bindings",
    [(("y", "<a>"), ("x", "<b>")), (("x", "<a>"), ("x", "<b>")), (("", "<a>"),), (("x", 3),)],
)
def test_malformed_bindings_are_rejected(bindings):
    with pytest.raises(AgreementError):
        Solution(bindings)


def test_variable_bound_twice_via_prefixes_is_rejected():
    with pytest.raises(AgreementError):
        Solution.from_mapping({"?x": "<a>", "x": "<b>"})


def test_answers_from_mappings_collapses_duplicates():
    answers = answers_from_mappings({10: [{"x": "<a>"}, {"?x": "<a>"}], 20: []})
    assert answers == {10: frozenset({Solution.from_mapping({"x": "<a>"})}), 20: frozenset()}
