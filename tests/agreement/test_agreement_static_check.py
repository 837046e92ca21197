"""Static check of condition (ii) (Dao-Tran, Beck, Eiter 2015, §5): shared patterns between static and stream data."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from translator.agreement.static_check import check_condition_ii, matches, render_static_check

EX = "http://ex/"
OFFERS, NEAR = f"<{EX}offers-stream>", f"<{EX}near-stream>"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


# the running example of Dao-Tran, Beck, Eiter 2015 (Ex. 2, 4): offers and isNear on streams, g_classify static
STREAM_PATTERNS = {
    OFFERS: [("?shop", iri("offers"), "?coupon"), ("?coupon", iri("reduce"), "?percent"), ("?coupon", iri("on"), "?product")],
    NEAR: [("?user", iri("isNear"), "?shop")],
}
STATIC_PATTERNS = [("?product", iri("g_classify"), "?gender")]
STATIC = [('"mbt"', iri("g_classify"), '"1"'), ('"rayban"', iri("g_classify"), '"0"')]
STREAMS = {
    OFFERS: [(iri("a"), iri("offers"), iri("c1")), (iri("c1"), iri("reduce"), '"30"'), (iri("c1"), iri("on"), '"mbt"')],
    NEAR: [('"claire"', iri("isNear"), iri("a")), ('"claire"', iri("isNear"), iri("b"))],
}


def test_running_example_satisfies_condition_ii():
    check = check_condition_ii(STREAM_PATTERNS, STATIC_PATTERNS, STATIC, STREAMS)
    assert check.condition_ii_holds and check.overlaps == ()
    assert render_static_check(check).startswith("condition (ii) holds")


def test_stream_pattern_matching_static_data():
    static = STATIC + [('"claire"', iri("isNear"), iri("a")), ('"bob"', iri("isNear"), iri("b"))]
    check = check_condition_ii(STREAM_PATTERNS, STATIC_PATTERNS, static, STREAMS)
    assert [(o.side, o.pattern, o.stream, o.witness, o.matches) for o in check.overlaps] == [
        ("stream-pattern-matches-static", ("?user", iri("isNear"), "?shop"), NEAR, ('"bob"', iri("isNear"), iri("b")), 2)
    ]
    assert not check.condition_ii_holds


def test_static_pattern_matching_stream_data():
    streams = {**STREAMS, OFFERS: STREAMS[OFFERS] + [('"mbt"', iri("g_classify"), '"0"')]}
    check = check_condition_ii(STREAM_PATTERNS, STATIC_PATTERNS, STATIC, streams)
    assert [(o.side, o.pattern, o.stream, o.matches) for o in check.overlaps] == [
        ("static-pattern-matches-stream", ("?product", iri("g_classify"), "?gender"), OFFERS, 1)
    ]
    text = render_static_check(check)
    assert "violated" in text and "static pattern" in text and OFFERS in text


def test_both_kinds_sorted_deterministically():
    static = STATIC + [(iri("b"), iri("offers"), iri("c2"))]
    streams = {NEAR: STREAMS[NEAR] + [('"x"', iri("g_classify"), '"1"')], OFFERS: STREAMS[OFFERS]}
    check = check_condition_ii(STREAM_PATTERNS, STATIC_PATTERNS, static, streams)
    assert [o.side for o in check.overlaps] == ["static-pattern-matches-stream", "stream-pattern-matches-static"]
    reversed_input = check_condition_ii(
        dict(reversed(list(STREAM_PATTERNS.items()))), STATIC_PATTERNS, list(reversed(static)), dict(reversed(list(streams.items())))
    )
    assert reversed_input == check


def test_variable_predicate_matches_everything():
    check = check_condition_ii({OFFERS: [("?s", "?p", "?o")]}, [], STATIC, {})
    assert check.overlaps[0].matches == 2


def test_repeated_variables_must_bind_the_same_term():
    assert matches(("?x", iri("p"), "?x"), (iri("a"), iri("p"), iri("a")))
    assert not matches(("?x", iri("p"), "?x"), (iri("a"), iri("p"), iri("b")))
    assert matches(("?x", iri("p"), "$y"), (iri("a"), iri("p"), iri("b")))
    assert not matches((iri("a"), iri("p"), "?o"), (iri("b"), iri("p"), iri("c")))


terms = st.sampled_from([iri("a"), iri("b"), '"1"', "_:b0"])


@given(st.tuples(terms, terms, terms), st.lists(st.booleans(), min_size=3, max_size=3))
def test_generalising_a_triple_always_matches_it(triple, make_var):
    pattern = tuple(f"?v{k}" if var else term for k, (term, var) in enumerate(zip(triple, make_var)))
    assert matches(pattern, triple)
    # one shared variable over all positions matches iff the positions are all equal
    assert matches(("?v", "?v", "?v"), triple) == (len(set(triple)) == 1)
