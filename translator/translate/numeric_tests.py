"""FILTER tests over numbers without RDF terms: the fast path of ``@sparql_test`` (D6).

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

The same holds for the value of a BIND or SELECT expression built from ``+``, ``-``, ``*``, ``/``
(and unary ``-``, ``+``) over variables and numeric constants (CityBench Q3's ``(?v1+?v3)/2``):
:func:`compile_numeric_value` computes it with :func:`~translator.rdf.sparql_ops.arith_value` in
the kind the operators promote to (§17.3, XPath F&O §1.2) and writes its canonical literal, as
``evaluate`` does, or gives ``None`` where the general evaluation decides (an argument that is not a
number, an arithmetic error such as a decimal division by zero).
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Callable, Sequence

from lars.bounds import TERM_CACHE_SIZE
from translator.query import model as M
from translator.rdf import sparql_ops as ops

#: a typed literal's N-Triples text without escapes, its lexical form of printable ASCII (nothing
#: rdflib's converters would refuse where ``numeric_lexical`` reads a number): (lexical form, datatype IRI)
_TYPED = re.compile(r'"([ !#-\[\]-~]*)"\^\^<(http://www\.w3\.org/2001/XMLSchema#[A-Za-z]+)>')

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
    number = _number_of_lars_text if lars else number_of_text

    def run(texts: Sequence[str | None]) -> bool | None:
        nums = _numbers(texts, number)
        return None if nums is None else test(nums)

    return run


def _numbers(texts: Sequence[str | None], number: Callable[[str], "ops.Number | None"]) -> list[ops.Number] | None:
    """The numbers of the arguments' texts, or ``None`` if one is unbound or not a number."""
    nums = []
    for text in texts:
        n = number(text) if text is not None else None
        if n is None:
            return None
        nums.append(n)
    return nums


@lru_cache(maxsize=TERM_CACHE_SIZE)
def number_of_text(text: str) -> ops.Number | None:
    """The number of a typed literal's N-Triples text without escapes, ``None`` for any other text:
    the number of the literal ``from_nt(text)`` (``sparql_terms.numeric``) where it is not ``None``."""
    m = _TYPED.fullmatch(text)
    return ops.numeric_lexical(m.group(1), m.group(2)) if m is not None else None


#: the same typed literal's LARS text: the N-Triples text as a LARS string (its two quotes escaped)
_TYPED_LARS = re.compile(r'"\\"([^"\\]*)\\"\^\^<(http://www\.w3\.org/2001/XMLSchema#[A-Za-z]+)>"')


@lru_cache(maxsize=TERM_CACHE_SIZE)  # a value recurs in many rows (a reading joined with others): read once while it does
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
        case M.BinaryOp("&&" | "||" as op, left, right):
            p, q = _compile(left, index), _compile(right, index)
            if p is None or q is None:
                return None
            return _both(p, q) if op == "&&" else _either(p, q)
        case M.UnaryOp("!", operand):
            p = _compile(operand, index)
            return None if p is None else _negated(p)
    return None


def _both(p: Test, q: Test) -> Test:
    return lambda nums: p(nums) and q(nums)


def _either(p: Test, q: Test) -> Test:
    return lambda nums: p(nums) or q(nums)


def _negated(p: Test) -> Test:
    return lambda nums: not p(nums)


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


Operand = Callable[[Sequence[ops.Number]], ops.Number]


def _operand(e: M.Expr, index: dict[str, int]) -> Operand | None:
    match e:
        case M.Var(name) if name in index:
            i = index[name]
            return lambda nums: nums[i]
        case M.Literal(lexical, datatype, lang) if datatype and not lang:
            n = ops.numeric_lexical(lexical, datatype)  # of the literal evaluate() builds
            return None if n is None else _constant(n)
        case M.BinaryOp(op) | M.UnaryOp(op) if op in _ARITHMETIC and not M.expression_variables(e):
            # a constant such as -5.0 or (1 + 2) / 4: computed once, as :func:`_value` computes it
            # for variables (the number its canonical literal reads back as, as ``evaluate`` gives
            # it); any other operator gives a Boolean or an error, never a number
            constant = _value(e, index)
            n = None if constant is None else constant(())
            return None if n is None else _constant(n)
    return None


def _constant(n: ops.Number) -> Operand:
    return lambda nums: n


Value = Callable[[Sequence[ops.Number]], "ops.Number | None"]
_ARITHMETIC = frozenset("+-*/")


def compile_numeric_value(expr: M.Expr, names: Sequence[str], *, lars: bool = False) -> Callable[[Sequence[str | None]], str | None] | None:
    """The fast value of the arithmetic expression ``expr`` (its variables ``names`` in argument
    order), or ``None`` if ``expr`` is not one. The function takes the arguments' texts (as
    :func:`compile_numeric_test`'s) and gives the N-Triples text of the value's canonical literal
    (``to_nt(number_literal(kind, value))``), or ``None`` when the general evaluation must decide."""
    if not isinstance(expr, (M.BinaryOp, M.UnaryOp)):
        return None  # a variable or a constant alone: no arithmetic to save
    index = {n: i for i, n in enumerate(names)}
    value = _value(expr, index)
    if value is None:
        return None
    number = _number_of_lars_text if lars else number_of_text
    kind_type = {kind: str(dt) for kind, dt in ops.KIND_TYPE.items()}

    def run(texts: Sequence[str | None]) -> str | None:
        nums = _numbers(texts, number)
        got = None if nums is None else value(nums)
        if got is None:
            return None
        return f'"{ops.number_lexical(got.kind, got.value)}"^^<{kind_type[got.kind]}>'

    return run


def _value(e: M.Expr, index: dict[str, int]) -> Value | None:
    """``e`` as a function of the arguments' numbers: each operator's result is the number its
    canonical literal denotes (a float result rounded to binary32, as reading the literal
    ``evaluate`` builds gives it back), so the next operator sees what it sees in ``evaluate``."""
    match e:
        case M.BinaryOp(op, left, right) if op in _ARITHMETIC:
            a, b = _value(left, index), _value(right, index)
            if a is None or b is None:
                return None

            def binary(nums: Sequence[ops.Number]) -> ops.Number | None:
                x, y = a(nums), b(nums)
                if x is None or y is None:
                    return None
                if x.kind == y.kind == ops.INTEGER:  # two integers: computed on ints (the common case)
                    if op == "/":
                        quotient = ops.integer_quotient(x.value, y.value)  # type: ignore[arg-type]
                        return None if isinstance(quotient, ops.ExprError) else _as_read_back(ops.DECIMAL, quotient)
                    return ops.Number(ops.INTEGER, x.value + y.value if op == "+" else x.value - y.value if op == "-" else x.value * y.value)  # type: ignore[operator]
                kind = x.kind if x.kind > y.kind else y.kind
                if op == "/" and kind == ops.INTEGER:
                    kind = ops.DECIMAL
                result = ops.arith_value(op, kind, ops.promote(x, kind), ops.promote(y, kind))
                if isinstance(result, ops.ExprError):
                    return None
                return _as_read_back(kind, result)

            return binary
        case M.UnaryOp(op, operand) if op in ("-", "+"):
            inner = _value(operand, index)
            if inner is None:
                return None
            if op == "+":  # the operand's canonical literal (``_unary_plus``): a decimal −0.0 is 0.0
                return lambda nums: None if (x := inner(nums)) is None else _as_read_back(x.kind, x.value)

            def negate(nums: Sequence[ops.Number]) -> ops.Number | None:
                x = inner(nums)
                if x is None:
                    return None
                return _as_read_back(x.kind, x.value.copy_negate() if isinstance(x.value, Decimal) else -x.value)  # exact, as _unary_minus

            return negate
    return _operand(e, index)


def _as_read_back(kind: int, value: int | Decimal | float) -> ops.Number:
    """The number that the canonical literal of ``value`` (``number_literal``) reads back as: a
    float rounded to binary32; a decimal zero positive (its canonical form ``0.0`` has no sign,
    while ``-0.0`` reads back as the double −0). Decimals keep their value, and their exponent
    changes nothing the canonical form shows."""
    if kind == ops.FLOAT:
        return ops.Number(kind, ops.to_float32(value))  # type: ignore[arg-type]
    if kind == ops.DECIMAL and not value:
        return ops.Number(kind, Decimal(0))
    return ops.Number(kind, value)
