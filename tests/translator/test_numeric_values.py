"""The fast path of ``@sparql_value`` for arithmetic on numbers (``compile_numeric_value`` in
``translator.translate.numeric_tests``, CityBench Q3's ``(?v1+?v3)/2``) against the general
evaluation (``expressions.evaluate`` over rdflib terms): the same canonical literal, or the same
error, on random expressions (``+ - * /``, unary ``-``/``+``, typed and negative constants) and
random arguments of every numeric type (and strings, IRIs, ill-typed and unbound ones, which the
general evaluation decides); and the exact decimal quotient against :mod:`decimal`'s own exact
division."""

from __future__ import annotations

from decimal import Context, Decimal

from hypothesis import example, given, settings
from hypothesis import strategies as st

from lars.model import Constant, String
from translator.rdf import sparql_ops as ops, sparql_terms
from translator.rdf.terms import from_lars, to_nt
from translator.translate.expressions import _parsed_expression, evaluate, sparql_value
from translator.translate.numeric_tests import compile_numeric_value

X = "http://www.w3.org/2001/XMLSchema#"
CONSTANTS = ["2", "0", "-3", "0.5", "2.50", "1e1", "-0.0", f'"3.25"^^<{X}float>', f'"0"^^<{X}decimal>', f'"7"^^<{X}short>',
             f'"NaN"^^<{X}double>', f'"-INF"^^<{X}float>', "(1 + 2)"]
VALUES = [f'"36.8"^^<{X}float>', f'"0.1"^^<{X}float>', f'"-0"^^<{X}integer>', f'"17"^^<{X}integer>', f'"3"^^<{X}integer>',
          f'"1E400"^^<{X}double>', f'"1.7976931348623157E308"^^<{X}double>', f'"3.4E38"^^<{X}float>', f'"NaN"^^<{X}float>',
          f'"INF"^^<{X}double>', f'"12"^^<{X}byte>', f'"300"^^<{X}byte>', f'" 5 "^^<{X}integer>', f'"abc"^^<{X}float>',
          f'"5"^^<{X}decimal>', f'"0.000"^^<{X}decimal>', f'"-2.50"^^<{X}decimal>', f'".5"^^<{X}decimal>', f'"3.25"^^<{X}float>',
          f'"30.5"^^<{X}double>', f'"7"^^<{X}long>', f'"16777217"^^<{X}float>', '"x"', '"7"', "<http://e/a>", None]


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["?a", "?b", "?a", "?b"] + CONSTANTS))
    kind = draw(st.sampled_from(["+", "-", "*", "/", "neg", "pos"]))
    if kind == "neg":
        return f"-({draw(expressions(depth - 1))})"
    if kind == "pos":
        return f"+({draw(expressions(depth - 1))})"
    return f"({draw(expressions(depth - 1))}) {kind} ({draw(expressions(depth - 1))})"


def general(expr, names, args) -> str | None:
    """The N-Triples text of the value ``evaluate`` gives, ``None`` for an error (or unbound)."""
    value = evaluate(expr, {n: from_lars(a) for n, a in zip(names, args)})
    return None if value is None or isinstance(value, ops.ExprError) else to_nt(value)


@settings(max_examples=800, deadline=None)
@given(text=expressions(), values=st.lists(st.sampled_from(VALUES), min_size=2, max_size=2))
# the canonical form of a decimal zero has no sign: what the next operator reads back
@example(text="-((1e1) * ((?a) * (-0.0)))", values=[f'"-0"^^<{X}integer>', None])
@example(text="(?a) + ((?a) / (+(-0.0)))", values=[f'"36.8"^^<{X}float>', None])
def test_fast_numeric_values_equal_the_general_evaluation(text, values) -> None:
    expr, names = _parsed_expression(text)
    args = [Constant("null") if v is None else String(v) for v in values[:len(names)]]
    expected = general(expr, names, args)
    got_value = sparql_value(String(text), *args)
    assert got_value == (Constant("null") if expected is None else String(expected))
    fast = compile_numeric_value(expr, names)
    if fast is None:
        return
    got = fast([a.value if isinstance(a, String) else None for a in args])
    numbers = all(isinstance(a, String) and sparql_terms.numeric(from_lars(a)) is not None for a in args)
    if numbers:
        assert got == expected  # numbers only: the fast path decides (None: the same error)
    else:
        assert got is None  # not a number: the general evaluation decides


def test_arithmetic_takes_the_fast_path() -> None:
    for text in ("(?v1 + ?v3) / 2", "?a * 1.8 + 32", "-?a", "?a - -(2.5)"):
        expr, names = _parsed_expression(text)
        assert compile_numeric_value(expr, names) is not None, text
    for text in ("?a", "STR(?a)", "?a > 1", "ABS(?a) + 1", "CONCAT(?a, ?b)"):
        expr, names = _parsed_expression(text)
        assert compile_numeric_value(expr, names) is None, text


def test_lars_texts_read_as_the_n_triples_texts() -> None:
    from lars.printer import format_term

    expr, names = _parsed_expression("(?v1 + ?v3) / 2")
    fast = compile_numeric_value(expr, names, lars=True)
    args = [String(f'"7"^^<{X}integer>'), String(f'"4"^^<{X}integer>')]
    assert fast([format_term(a) for a in args]) == general(expr, names, args) == f'"5.5"^^<{X}decimal>'


_EXACT = Context(prec=100_000)


def _quotient_by_decimal(x: Decimal, y: Decimal) -> Decimal | None:
    """The exact quotient as ``decimal`` computes it at a precision that holds it (the former
    implementation of ``arith_value``'s decimal division)."""
    q = _EXACT.divide(x, y)
    return q if _EXACT.multiply(q, y) == x and len(q.as_tuple().digits) < 1000 else None


DIVISORS = st.builds(lambda k, m, e, s: Decimal(s * k * m).scaleb(e),
                     st.sampled_from([1, 2, 3, 4, 5, 7, 8, 16, 25, 40, 125, 1024, 3125, 2**40]),
                     st.sampled_from([1, 3, 10, 100, 9]), st.integers(-6, 6), st.sampled_from([1, -1]))


@settings(max_examples=1500, deadline=None)
@given(x=st.builds(lambda n, e: Decimal(n).scaleb(e), st.integers(-10**12, 10**12), st.integers(-8, 8)) | st.sampled_from(
    [Decimal("0"), Decimal("-0"), Decimal("0.000"), Decimal("1E+5"), Decimal("6.00")]), y=DIVISORS)
def test_exact_quotient_is_decimals_exact_division(x, y) -> None:
    """Same coefficient, exponent and sign (``repr``) as ``decimal``'s exact division, or ``None``
    for the same non-terminating (or too long) quotients."""
    assert repr(ops.exact_quotient(x, y)) == repr(_quotient_by_decimal(x, y))


@settings(max_examples=800, deadline=None)
@given(a=st.integers(-10**6, 10**6) | st.sampled_from([0, 1, -1, 10**30]),
       b=st.integers(-10**4, 10**4) | st.sampled_from([0, 3, -7, 2**20, 5**9]))
def test_integer_quotient_is_the_quotient_of_the_promoted_decimals(a, b) -> None:
    """Two integers divided on ints (the fast path's common case) give what the general operator
    gives for their decimals: the same ``repr`` (sign, coefficient, exponent), or an error."""
    got, expected = ops.integer_quotient(a, b), ops.arith_value("/", ops.DECIMAL, Decimal(a), Decimal(b))
    if isinstance(expected, ops.ExprError):
        assert isinstance(got, ops.ExprError)
    else:
        assert repr(got) == repr(expected)


def test_exact_quotient_digit_limit() -> None:
    for k in (1400, 1420, 1430, 1450, 2000):  # 1/2^k has k digits after the point
        y = Decimal(2**k)
        assert repr(ops.exact_quotient(Decimal(1), y)) == repr(_quotient_by_decimal(Decimal(1), y))


@settings(max_examples=400, deadline=None)
@given(text=expressions(), values=st.lists(st.sampled_from(VALUES), min_size=2, max_size=2))
def test_sparql_value_on_lars_texts_equals_the_general_evaluation(text, values) -> None:
    """``sparql_value.on_texts`` (what the incremental engine calls with its rows' texts for an
    assignment) gives the general evaluation's value, or leaves the decision to it."""
    from lars.printer import format_term

    expr, names = _parsed_expression(text)
    args = [Constant("null") if v is None else String(v) for v in values[:len(names)]]
    got = sparql_value.on_texts([format_term(String(text)), *(format_term(a) for a in args)])
    expected = general(expr, names, args)
    assert got is None or got == String(expected)
    if expected is not None and all(isinstance(a, String) and sparql_terms.numeric(from_lars(a)) is not None for a in args) \
            and compile_numeric_value(expr, names) is not None:
        assert got is not None
