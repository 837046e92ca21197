"""Incremental states of the external aggregates (``incremental`` of ``#@sparql_sum_of``,
``#@sparql_avg_of``, ``#@sparql_min_of``, ``#@sparql_max_of``; the protocol of
``lars.evaluation.external_aggregate``), and the canonical float form they print
(``translator.rdf.sparql_ops._float_lexical``).

Oracles: the functions applied to the whole multiset from scratch after every change (those are
checked against the portable rules and SPARQL engines in test_exactness.py and
test_numeric_vs_oracles.py), the portable rules' fold itself on the final multiset, and for the
float form the definition it replaces (every precision tried in turn from 1), kept here.
"""

from __future__ import annotations

import math
import random
import struct
from decimal import Decimal

import pytest
from hypothesis import example, given, settings, strategies as st
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from lars.model import Integer
from lars.printer import format_term
from translator.rdf import sparql_ops as ops, sparql_terms
from translator.rdf.terms import NULL, to_lars
from translator.translate.expressions import (
    MAX_SUM_ROWS,
    sparql_avg_of,
    sparql_avg_result,
    sparql_max_of,
    sparql_min_of,
    sparql_num_kind,
    sparql_sum_of,
    sparql_sum_result,
)

from test_exactness import fold_sum

FUNCTIONS = {"sum": sparql_sum_of, "avg": sparql_avg_of, "min": sparql_min_of, "max": sparql_max_of}

# a small pool, so that values repeat, leave and come back; every kind, the specials, non-numbers
_floats = st.floats(width=32, allow_nan=False, allow_infinity=False)
values = st.one_of(
    st.integers(-(2**70), 2**70).map(lambda v: sparql_terms.number_literal(ops.INTEGER, v)),
    st.integers(-5, 5).map(lambda v: sparql_terms.number_literal(ops.INTEGER, v)),
    st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**12), max_value=10**12, places=4)
    .map(lambda d: sparql_terms.number_literal(ops.DECIMAL, d)),
    _floats.map(lambda x: sparql_terms.number_literal(ops.FLOAT, x)),
    st.sampled_from([0.1, 0.2, 0.3, -0.1, 28.4, 2.0**-24, 1.0, 3.4e38]).map(lambda x: sparql_terms.number_literal(ops.FLOAT, x)),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: sparql_terms.number_literal(ops.DOUBLE, x)),
    st.sampled_from([
        sparql_terms.number_literal(ops.DOUBLE, math.nan), sparql_terms.number_literal(ops.FLOAT, math.inf),
        sparql_terms.number_literal(ops.DOUBLE, -math.inf), sparql_terms.number_literal(ops.FLOAT, -0.0),
        Literal("a"), URIRef("http://example.org/x"), Literal("abc", datatype=XSD.integer),
        Literal("1.5", datatype=XSD.decimal),
    ]),
).map(to_lars)


@st.composite
def histories(draw):
    """A pool of terms and a sequence of (term, ±times) changes that never takes a term below no
    tuple, emptying the group now and then."""
    pool = draw(st.lists(values, min_size=1, max_size=6, unique=True))
    held: dict = {}
    changes = []
    for _ in range(draw(st.integers(0, 40))):
        action = draw(st.integers(0, 9))
        if action == 0 and held:  # the group empties
            changes += [(t, -k) for t, k in held.items()]
            held.clear()
            continue
        term = draw(st.sampled_from(pool))
        if held.get(term) and action < 5:
            times = -draw(st.integers(1, held[term]))
        else:
            times = draw(st.integers(1, 3))
        held[term] = held.get(term, 0) + times
        if not held[term]:
            del held[term]
        changes.append((term, times))
    return changes


@settings(max_examples=400, deadline=None)
@given(histories(), st.sampled_from(sorted(FUNCTIONS)))
@example([(to_lars(sparql_terms.number_literal(ops.FLOAT, v)), 1) for v in (1.0, 2.0**-24, 2.0**-80)], "sum")  # a binary32 tie after binary64
@example([(to_lars(sparql_terms.number_literal(ops.DOUBLE, 2.0**-1000)), 1), (to_lars(sparql_terms.number_literal(ops.DOUBLE, 2.0**-1000)), -1),
          (to_lars(sparql_terms.number_literal(ops.INTEGER, 3)), 2)], "avg")  # the scale of a value that left
def test_incremental_state_equals_recomputation_after_every_change(changes, name):
    function = FUNCTIONS[name]
    state = function.incremental()
    multiset: dict = {}
    assert state.value() == function({})
    for term, times in changes:
        state.change(term, times)
        multiset[term] = multiset.get(term, 0) + times
        if not multiset[term]:
            del multiset[term]
        assert state.value() == function(multiset), (name, multiset)
        text_of = getattr(state, "text", None)  # the text without the term (SUM, AVG): the term's text
        assert text_of is None or text_of() == format_term(state.value()), (name, multiset)


@settings(max_examples=150, deadline=None)
@given(histories())
def test_sum_and_avg_states_equal_the_portable_fold(changes):
    """The final SUM/AVG of the states against the portable rules' fold (limbs, part sums, the fold
    in clingo's order) of the multiset, one value per solution."""
    sums, avgs = sparql_sum_of.incremental(), sparql_avg_of.incremental()
    multiset: dict = {}
    for term, times in changes:
        sums.change(term, times)
        avgs.change(term, times)
        multiset[term] = multiset.get(term, 0) + times
    terms = [t for t, k in multiset.items() for _ in range(k)]
    kinds = [sparql_num_kind(t).value for t in terms]
    if any(k < 0 for k in kinds):
        want_sum = want_avg = NULL
    elif not terms:
        want_sum = want_avg = to_lars(sparql_terms.integer(0))
    else:
        acc, _ = fold_sum(terms)
        want_sum = sparql_sum_result(acc, Integer(max(kinds)))
        want_avg = sparql_avg_result(acc, Integer(max(kinds)), Integer(len(terms)))
    assert sums.value() == want_sum
    assert avgs.value() == want_avg


def test_states_refuse_more_values_than_the_portable_encoding_adds():
    """MAX_SUM_ROWS values are summed; one more is an error (``null``), one fewer again a sum."""
    one = to_lars(sparql_terms.integer(1))
    state = sparql_sum_of.incremental()
    state.change(one, MAX_SUM_ROWS)
    assert state.value() == to_lars(sparql_terms.integer(MAX_SUM_ROWS))
    state.change(one, 1)
    assert state.value() == NULL == sparql_sum_of({one: MAX_SUM_ROWS + 1})
    state.change(one, -1)
    assert state.value() == to_lars(sparql_terms.integer(MAX_SUM_ROWS))


def test_min_state_finds_the_next_extreme_when_the_extreme_leaves():
    terms = [to_lars(sparql_terms.integer(v)) for v in (5, 3, 9)]
    state = sparql_min_of.incremental()
    for t in terms:
        state.change(t, 1)
    assert state.value() == terms[1]
    state.change(terms[1], -1)
    assert state.value() == terms[0]
    state.change(terms[0], -1)
    state.change(terms[2], -1)
    assert state.value() == NULL


# ---------------------------------------------------------------------- the canonical float form


def _float_lexical_by_every_precision(x: float) -> str:
    """The definition: the least precision 1..9 whose ``%g`` rounding reads back as x, in the
    canonical form ``d.dddEn`` (through Decimal)."""
    for precision in range(1, 10):
        text = f"{x:.{precision}g}"
        if ops.to_float32(float(text)) == x:
            break
    sign, digits, exponent = Decimal(text).normalize().as_tuple()
    mantissa = "".join(map(str, digits))
    return f"{'-' if sign else ''}{mantissa[0]}.{mantissa[1:] or '0'}E{exponent + len(mantissa) - 1}"


def _binary32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def test_float_form_by_bisection_equals_every_precision_in_turn():
    """Random bit patterns (every binade, subnormals), every power of two (where bisection alone
    would be wrong), the largest and smallest values, and decimals of one digit after the point."""
    rnd = random.Random(7)
    xs = [_binary32(rnd.getrandbits(32)) for _ in range(20000)]
    xs += [s * math.ldexp(1.0, e) for e in range(-149, 128) for s in (1, -1)]
    xs += [_binary32(b) for b in (*range(1, 300), *range(0x7F7FFF00, 0x7F800000), *range(0x00800000 - 50, 0x00800000 + 50))]
    xs += [ops.to_float32(round(rnd.uniform(-50, 50), 1)) for _ in range(5000)]
    # near short decimals of every length and scale (those whose form is short), and averages
    xs += [ops.to_float32(rnd.randrange(10 ** (d - 1), 10**d) * 10.0 ** rnd.randint(-45, 38 - d)) for d in range(1, 10) for _ in range(3000)]
    xs += [ops.to_float32(ops.to_float32(sum(round(rnd.uniform(-50, 50), 1) for _ in range(n))) / n) for n in range(1, 40) for _ in range(200)]
    xs = [x for x in xs if x and not math.isnan(x) and not math.isinf(x)]
    wrong = [x for x in xs if ops.double_lexical(x, single=True) != _float_lexical_by_every_precision(x)]
    assert not wrong, wrong[:5]


@settings(max_examples=2000, deadline=None)
@given(st.floats(width=32, allow_nan=False, allow_infinity=False).filter(bool))
def test_float_form_equals_every_precision_in_turn(x):
    assert ops.double_lexical(x, single=True) == _float_lexical_by_every_precision(x)


@pytest.mark.parametrize("x, text", [(28.4, "2.84E1"), (0.1, "1.0E-1"), (-3.3, "-3.3E0"), (2.0**-149, "1.0E-45"),
                                     (3.4028234663852886e38, "3.4028235E38"), (1.0, "1.0E0"), (16777216.0, "1.6777216E7")])
def test_float_form_by_hand(x, text):
    assert ops.number_lexical(ops.FLOAT, x) == text
