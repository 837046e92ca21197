"""FILTER tests over numbers without RDF terms: the fast path of ``@sparql_test`` (spec D6).

A FILTER condition built only from comparisons (``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``) between
variables and numeric constants, joined by ``&&``, ``||`` and ``!`` (``?value > 30.5``,
``?v >= 0 && ?v < 100``), is compiled once into a function of its arguments' N-Triples texts. When
every argument is a numeric literal written ``"lexical"^^<xsd:…>`` (no escape), the test reads the
numbers with :func:`translator.rdf.sparql_ops.numeric_lexical` and compares them with
:func:`~translator.rdf.sparql_ops.compare_numbers` — the functions the general evaluation uses — so
no error can arise (two numbers always compare; NaN is unordered) and ``&&``, ``||``, ``!`` are the
Boolean operators; it is the value :func:`translator.translate.expressions.evaluate` gives, without
building an rdflib term per value (a stream of fresh measurements has a new value per element).
Any other argument (unbound, a string, an IRI, an ill-typed literal, an escape) returns ``None``:
the general evaluation decides.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from rdflib import Literal as RDFLiteral, URIRef

from translator.query import model as M
from translator.rdf import sparql_ops as ops

#: a typed literal's N-Triples text without escapes: (lexical form, datatype IRI)
_TYPED = re.compile(r'"([^"\\]*)"\^\^<(http://www\.w3\.org/2001/XMLSchema#[A-Za-z]+)>')

_COMPARE: dict[str, Callable[[int], bool]] = {  # on compare_numbers' result (2: unordered)
    "=": lambda c: c == 0,
    "!=": lambda c: c != 0,
    "<": lambda c: c == -1,
    "<=": lambda c: c in (-1, 0),
    ">": lambda c: c == 1,
    ">=": lambda c: c in (0, 1),
}

Test = Callable[[Sequence[ops.Number]], bool]


def compile_numeric_test(expr: M.Expr, names: Sequence[str], *, lars: bool = False) -> Callable[[Sequence[str]], bool | None] | None:
    """The fast test of ``expr`` (its variables ``names`` in argument order), or ``None`` if
    ``expr`` is not such a condition. The test takes the arguments' N-Triples texts (``None`` for
    an unbound one; ``lars``: their LARS texts, ``format_term(to_lars(term))``, as the engine keeps
    them) and gives the FILTER's outcome, or ``None`` when an argument is not a number."""
    index = {n: i for i, n in enumerate(names)}
    test = _compile(expr, index)
    if test is None:
        return None
    number = _number_of_lars_text if lars else _number_of_text

    def run(texts: Sequence[str | None]) -> bool | None:
        nums = []
        for text in texts:
            n = number(text) if text is not None else None
            if n is None:
                return None
            nums.append(n)
        return test(nums)

    return run


def _number_of_text(text: str) -> ops.Number | None:
    m = _TYPED.fullmatch(text)
    return ops.numeric_lexical(m.group(1), m.group(2)) if m is not None else None


#: the same typed literal's LARS text: the N-Triples text as a LARS string (its two quotes escaped)
_TYPED_LARS = re.compile(r'"\\"([^"\\]*)\\"\^\^<(http://www\.w3\.org/2001/XMLSchema#[A-Za-z]+)>"')


def _number_of_lars_text(text: str) -> ops.Number | None:
    m = _TYPED_LARS.fullmatch(text)
    return ops.numeric_lexical(m.group(1), m.group(2)) if m is not None else None


def _compile(e: M.Expr, index: dict[str, int]) -> Test | None:
    match e:
        case M.BinaryOp(op, left, right) if op in _COMPARE:
            a, b = _operand(left, index), _operand(right, index)
            if a is None or b is None:
                return None
            holds = _COMPARE[op]
            if isinstance(left, M.Var) and not isinstance(right, M.Var):  # ?v op constant
                i, compare = index[left.name], _against(b([]))
                return lambda nums: holds(compare(nums[i]))
            return lambda nums: holds(ops.compare_numbers(a(nums), b(nums)))
        case M.BinaryOp("&&", left, right):
            a, b = _compile(left, index), _compile(right, index)
            return None if a is None or b is None else (lambda nums: a(nums) and b(nums))
        case M.BinaryOp("||", left, right):
            a, b = _compile(left, index), _compile(right, index)
            return None if a is None or b is None else (lambda nums: a(nums) or b(nums))
        case M.UnaryOp("!", operand):
            a = _compile(operand, index)
            return None if a is None else (lambda nums: not a(nums))
    return None


def _against(constant: ops.Number) -> Callable[[ops.Number], int]:
    """``compare_numbers(n, constant)`` with the constant promoted once per kind (``n``'s kind
    varies with the value: an xsd:float variable against a decimal constant promotes the constant
    to xsd:float at every call otherwise)."""
    promoted: dict[int, ops.Number] = {}

    def compare(n: ops.Number) -> int:
        kind = n.kind if n.kind > constant.kind else constant.kind
        c = promoted.get(kind)
        if c is None:
            c = promoted[kind] = ops.Number(kind, ops.promote(constant, kind))
        return ops.compare_numbers(n, c)

    return compare


def _operand(e: M.Expr, index: dict[str, int]) -> Callable[[Sequence[ops.Number]], ops.Number] | None:
    match e:
        case M.Var(name) if name in index:
            i = index[name]
            return lambda nums: nums[i]
        case M.Literal(lexical, datatype, lang) if datatype and not lang:
            n = ops.numeric(RDFLiteral(lexical, datatype=URIRef(datatype), normalize=False))  # as evaluate() builds it
            return None if n is None else (lambda nums: n)
        case M.UnaryOp() | M.BinaryOp() if not M.expression_variables(e):  # a constant such as -5.0
            from translator.translate.expressions import evaluate

            value = evaluate(e, {})
            n = None if isinstance(value, ops.ExprError) else ops.numeric(value)
            return None if n is None else (lambda nums: n)
    return None
