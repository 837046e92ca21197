"""The fast path of ``@sparql_test`` for comparisons of numbers (``translator.translate.numeric_tests``)
against the general evaluation (``expressions.evaluate`` over rdflib terms, ``sparql_ops``): the
same outcome on random conditions (``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, ``&&``, ``||``, ``!``,
negative and typed constants) and random arguments (every numeric type, ill-typed and
out-of-range lexical forms, blanks around the lexical, NaN, INF, strings, IRIs, unbound)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.model import Constant, String
from translator.rdf import sparql_terms
from translator.rdf.terms import from_lars
from translator.translate.expressions import _parsed_expression, evaluate, sparql_test
from translator.translate.numeric_tests import compile_numeric_test

X = "http://www.w3.org/2001/XMLSchema#"
CONSTANTS = ["30.5", "-5.0", "7", "1e1", "-0.0", "0", f'"3.25"^^<{X}float>', f'"NaN"^^<{X}double>', f'"-INF"^^<{X}float>',
             f'"100"^^<{X}byte>', f'"300"^^<{X}byte>', '"x"', "-(2.5)", "(1 + 2)"]
VALUES = [f'"36.8"^^<{X}float>', f'"-0"^^<{X}integer>', f'"1E400"^^<{X}double>', f'"NaN"^^<{X}float>', f'"INF"^^<{X}double>',
          f'"12"^^<{X}byte>', f'"300"^^<{X}byte>', f'" 5 "^^<{X}integer>', f'"abc"^^<{X}float>', f'"5"^^<{X}decimal>',
          f'"5."^^<{X}decimal>', f'".5"^^<{X}decimal>', f'"3.25"^^<{X}float>', f'"30.5"^^<{X}double>', f'"7"^^<{X}long>',
          f'"-1"^^<{X}nonNegativeInteger>', f'"16777217"^^<{X}float>', '"x"', '"7"', "<http://e/a>", f'"7"^^<{X}string>', None]


@st.composite
def conditions(draw, depth=2):
    if depth == 0 or draw(st.booleans()):
        left = draw(st.sampled_from(["?a", "?b"] + CONSTANTS))
        right = draw(st.sampled_from(["?a", "?b"] + CONSTANTS))
        if "?" not in left + right:
            right = "?a"
        return f"{left} {draw(st.sampled_from(['=', '!=', '<', '<=', '>', '>=']))} {right}"
    kind = draw(st.sampled_from(["&&", "||", "!"]))
    if kind == "!":
        return f"!({draw(conditions(depth - 1))})"
    return f"({draw(conditions(depth - 1))}) {kind} ({draw(conditions(depth - 1))})"


def general(expr, names, args) -> bool:
    bindings = {n: from_lars(a) for n, a in zip(names, args)}
    return sparql_terms.filter_holds(evaluate(expr, bindings))


@settings(max_examples=600, deadline=None)
@given(text=conditions(), values=st.lists(st.sampled_from(VALUES), min_size=2, max_size=2))
def test_fast_numeric_tests_equal_the_general_evaluation(text, values) -> None:
    expr, names = _parsed_expression(text)
    args = [Constant("null") if v is None else String(v) for v in values[:len(names)]]
    expected = general(expr, names, args)
    assert (sparql_test(String(text), *args).value == 1) == expected
    fast = compile_numeric_test(expr, names)
    if fast is not None:
        got = fast([a.value if isinstance(a, String) else None for a in args])
        assert got is None or got == expected
        if all(sparql_terms.numeric(from_lars(a)) is not None for a in args if isinstance(a, String)) and all(isinstance(a, String) for a in args):
            assert got is not None  # numbers only: the fast path decides


def test_the_common_filters_take_the_fast_path() -> None:
    for text in ("?value > 30.5", "?v >= 0 && ?v < 100", "!(?v = -5.0)", "?a < ?b || ?a > 7"):
        expr, names = _parsed_expression(text)
        assert compile_numeric_test(expr, names) is not None, text
    for text in ("?v > \"x\"", "STR(?v) = \"1\"", "?v + 1 > 2", "BOUND(?v)"):
        expr, names = _parsed_expression(text)
        assert compile_numeric_test(expr, names) is None, text


@settings(max_examples=400, deadline=None)
@given(text=conditions(), values=st.lists(st.sampled_from(VALUES), min_size=2, max_size=2))
def test_sparql_test_on_lars_texts_equals_the_general_evaluation(text, values) -> None:
    """``sparql_test.on_texts`` (what the incremental engine calls with its rows' texts) decides as
    the general evaluation does, or leaves the decision to it."""
    from lars.printer import format_term

    expr, names = _parsed_expression(text)
    args = [Constant("null") if v is None else String(v) for v in values[:len(names)]]
    got = sparql_test.on_texts([format_term(String(text)), *(format_term(a) for a in args)])
    assert got is None or (got.value == 1) == general(expr, names, args)
    if all(isinstance(a, String) and sparql_terms.numeric(from_lars(a)) is not None for a in args) and compile_numeric_test(expr, names):
        assert got is not None


def test_constant_arithmetic_is_computed_as_the_general_evaluation_computes_it() -> None:
    """A constant built with ``+ - * /`` is computed once by the fast path itself (as it computes
    BIND values), to the number ``evaluate`` gives; a constant that is no number (an error, a
    Boolean, a string) leaves the test to the general evaluation."""
    numbers = ["-(2.5)", "(1 + 2) / 4", "+(-0.0)", f'-"5"^^<{X}byte>', "2 * -(3.5e0)", f'"1.5"^^<{X}float> * 3',
               "(7 - 7) * -1", "1 / 3"]
    others = ['-("x")', "-(1 / 0)", "-(1 < 2)", f'-"abc"^^<{X}integer>']
    for constant in numbers + others:
        for op in ("<", "=", ">"):
            expr, names = _parsed_expression(f"?a {op} {constant}")
            fast = compile_numeric_test(expr, names)
            assert (fast is not None) == (constant in numbers), constant
            if fast is None:
                continue
            for v in VALUES:
                args = [Constant("null") if v is None else String(v)]
                got = fast([v])
                assert got is None or got == general(expr, names, args), (constant, op, v)
                if v is not None and sparql_terms.numeric(from_lars(args[0])) is not None:
                    assert got is not None, (constant, op, v)
