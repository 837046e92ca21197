"""Exact SPARQL expression evaluation at grounding time (D6).

The translations (``translator.translate.tau``) keep FILTER and BIND expressions as canonical SPARQL text
inside the external terms ``@sparql_test("expr", X1, …)`` and ``@sparql_value("expr", X1, …)``.
This module gives those functions a meaning: the text is parsed once (with the query grammar,
cached), the arguments are bound to the expression's variables in order of first occurrence, and
the expression is evaluated with the operator semantics of :mod:`translator.rdf.sparql_ops`
(SPARQL 1.1 §17). :data:`FUNCTIONS` is what an engine or the reference semantics is given.
"""

from __future__ import annotations

import math
import operator
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from lars.bounds import TERM_CACHE_SIZE
from lars.errors import UnsupportedError
from lars.model import Constant, Function, GroundTerm, Integer, String, Term
from lars.printer import format_term, string_text
from lars.evaluation import clingo_order
from translator.query import model as M
from translator.rdf import sparql_ops as ops
from translator.rdf.terms import NULL, from_lars, to_lars
from translator.rdf.timeunits import timezone
from translator.translate.fresh import ARITY as FRESH_ARITY, FRESH, Fresh, fresh_call, reads_fresh
from translator.translate.numeric_tests import number_of_text

if TYPE_CHECKING:  # rdflib is imported where terms are built (evaluate, ORDER BY keys of non-numbers)
    from fractions import Fraction

    from rdflib.term import Literal as RDFLiteral

    from translator.rdf.sparql_terms import Value

    Bindings = Mapping[str, Value]


def evaluate(e: M.Expr, bindings: Bindings, fresh: Fresh | None = None) -> Value:
    """The value of ``e`` under ``bindings`` (variable name → term, ``None`` = unbound): a term or
    an :class:`~translator.rdf.sparql_ops.ExprError`; never raises for bad values. ``fresh``: the
    solution RAND, UUID, STRUUID and BNODE are evaluated for (:mod:`translator.translate.fresh`)."""
    from rdflib import Literal as RDFLiteral, URIRef

    from translator.rdf import sparql_terms

    match e:
        case M.Var(name):
            return bindings.get(name)
        case M.IRI(value):
            return URIRef(value)
        case M.Literal(lexical, datatype, lang):
            return RDFLiteral(lexical, lang=lang, datatype=URIRef(datatype) if datatype else None, normalize=False)
        case M.BinaryOp(op, left, right):
            return sparql_terms.call(op, [evaluate(left, bindings, fresh), evaluate(right, bindings, fresh)])
        case M.UnaryOp(op, operand):
            return sparql_terms.call(op, [evaluate(operand, bindings, fresh)])
        case M.In(expr, values, negated):
            return _in(evaluate(expr, bindings, fresh), [evaluate(v, bindings, fresh) for v in values], negated)
        case M.FunctionCall(name, args) if name.upper() == "NOW" and len(args) == 3:  # translator.translate.now
            return sparql_terms.evaluation_datetime(*(evaluate(a, bindings, fresh) for a in args))
        case M.FunctionCall(name, args) if name.upper() in FRESH:
            return fresh_call(name, [evaluate(a, bindings, fresh) for a in args], fresh)
        case M.FunctionCall(name, args, base) if base is not None and name in ("IRI", "URI"):
            return sparql_terms.resolve_iri(sparql_terms.call(name, [evaluate(a, bindings, fresh) for a in args]), base)
        case M.FunctionCall(name, args):
            return sparql_terms.call(name, [evaluate(a, bindings, fresh) for a in args])
        case M.IRICall(iri, args, _) if URIRef(iri.value) in sparql_terms.CAST_TYPES and len(args) == 1:
            return sparql_terms.cast(URIRef(iri.value), evaluate(args[0], bindings, fresh))
    raise UnsupportedError(f"the expression {type(e).__name__}", "FILTER evaluation")


def _in(x: Value, values: list[Value], negated: bool) -> Value:
    """``x IN (v1, …)`` = ``x = v1 || …`` and ``NOT IN`` = ``x != v1 && …`` (SPARQL 1.1 §17.4.1.9-10)."""
    from translator.rdf import sparql_terms

    if negated:
        result: Value = sparql_terms.boolean(True)
        for v in values:
            result = sparql_terms.call("&&", [result, sparql_terms.call("!=", [x, v])])
        return result
    result = sparql_terms.boolean(False)
    for v in values:
        result = sparql_terms.call("||", [result, sparql_terms.call("=", [x, v])])
    return result


def check_supported(e: M.Expr) -> None:
    """Raise an :class:`UnsupportedError` at translation time for what :func:`evaluate` cannot do,
    so that it never surfaces in the middle of grounding."""
    match e:
        case M.Var() | M.IRI() | M.Literal():
            return
        case M.BinaryOp(_, left, right):
            check_supported(left)
            check_supported(right)
        case M.UnaryOp(_, operand):
            check_supported(operand)
        case M.In(expr, values, _):
            for sub in (expr, *values):
                check_supported(sub)
        case M.FunctionCall(name, args) if name.upper() == "NOW":
            if len(args) != 3:  # NOW() not bound to a run's clock (translator.translate.now.bind_now)
                raise UnsupportedError("the SPARQL function NOW outside a stream run", "translation to LARS",
                                       "NOW() is the evaluation time of a stream run with --epoch")
        case M.FunctionCall(name, args) if name.upper() in FRESH:  # translator.translate.fresh
            lo, hi = FRESH_ARITY[name.upper()]
            if not lo <= len(args) <= hi:
                raise UnsupportedError(f"{name.upper()} with {len(args)} argument(s)", "translation to LARS")
            for a in args:
                check_supported(a)
        case M.FunctionCall(name, args):
            from translator.rdf import sparql_terms

            key = sparql_terms.operator_key(name)
            if key not in sparql_terms.OPERATORS:
                raise UnsupportedError(f"the SPARQL function {name}", "translation to LARS",
                                       f"supported: {', '.join(sorted(k for k in sparql_terms.OPERATORS if k[0].isalpha()))}")
            for a in args:
                check_supported(a)
        case M.IRICall(iri, args, _):
            from rdflib import URIRef

            from translator.rdf import sparql_terms

            if URIRef(iri.value) not in sparql_terms.CAST_TYPES or len(args) != 1:
                raise UnsupportedError(f"the function call <{iri.value}>(…)", "translation to LARS",
                                       "supported: the casts xsd:string, boolean, integer, decimal, float, double, dateTime")
            check_supported(args[0])
        case M.Exists():
            raise UnsupportedError("EXISTS / NOT EXISTS", "translation to LARS")
        case M.Aggregate(name, _):
            raise UnsupportedError(f"the aggregate {name} inside an expression", "translation to LARS")
        case _:
            raise UnsupportedError(f"the expression {type(e).__name__}", "translation to LARS")


_PRINTED: dict[str, tuple[M.Expr, tuple[str, ...]]] = {}
"""Expressions the translator printed in this process, by their text (:func:`remember_expression`)."""


def remember_expression(text: str, expr: M.Expr) -> None:
    """``text`` is ``expr`` printed by ``translator.query.printer.expression_text``, whose parse
    gives ``expr`` back (tests/translator/test_expression_text.py): :func:`parse_expression` then
    returns it without loading a grammar (a run's first FILTER otherwise loads the CQELS one)."""
    if len(_PRINTED) < 4096:
        _PRINTED[text] = (expr, tuple(v.name for v in M.expression_variables(expr)))


def parse_expression(text: str) -> tuple[M.Expr, tuple[str, ...]]:
    """Parse canonical expression text (as :func:`translator.translate.normalize.expression` prints it) and
    return it with its variables in order of first occurrence."""
    got = _PRINTED.get(text)
    return got if got is not None else _parsed_expression(text)


@lru_cache(maxsize=4096)
def _parsed_expression(text: str) -> tuple[M.Expr, tuple[str, ...]]:
    from lars.errors import SourceError
    from translator.query.parse import parse

    source = f"SELECT * WHERE {{ FILTER({text}) }}"
    try:
        query = parse(source, "cqels", source="<expression>")
    except SourceError:  # names only the lenient grammar reads (the ?total-sensor of Barbieri et al. 2010, §2.2)
        query = parse(source, "csparql", source="<expression>", lenient=True)
    (part,) = query.where.parts
    assert isinstance(part, M.Filter)
    return part.expr, tuple(v.name for v in M.expression_variables(part.expr))


def _evaluated(text: str, args: Sequence[GroundTerm]) -> Value:
    """The value of the expression ``text`` for the arguments of ``@sparql_test``/``@sparql_value``:
    its variables' values, then — for an expression calling RAND, UUID, STRUUID or BNODE — where
    its value goes and the solution (``tau.expression_call``)."""
    expr, names = parse_expression(text)
    if len(args) == len(names):
        return evaluate(expr, {n: _value_of(a) for n, a in zip(names, args)})
    if not reads_fresh(text):
        raise ValueError(f"{text!r} reads {len(names)} variable(s), got {len(args)} argument(s)")
    own, extra = args[: len(names)], args[len(names):]
    bindings = {n: _value_of(a) for n, a in zip(names, own)}
    texts = tuple(format_term(a) for a in extra)
    fresh = Fresh((text, texts[0], *(format_term(a) for a in own)), texts[1:])
    return evaluate(expr, bindings, fresh)


_NOT_A_TERM = ops.ExprError("a graph name of the translation (default, stream), not an RDF term")


def _value_of(arg: GroundTerm) -> Value:
    """The RDF term of an argument; a constant of the translation that is no RDF term (the graph
    names ``default`` and ``stream`` of ``ans_i(…, D)``) is SPARQL's error value. An engine may
    evaluate a rule's built-ins in any order, so a test can meet a graph name bound to ``?g``
    before the rule's ``named_graph(?g), ?g ≠ default`` rejects it (``{ GRAPH ?g {…} } UNION {…}``
    under a FILTER on ?g, once ``lars.incremental`` unfolds the union): its value does not matter
    there, as that binding never reaches an answer."""
    if isinstance(arg, Constant) and arg != NULL:
        return _NOT_A_TERM
    return from_lars(arg)


def sparql_test(text: String, *args: GroundTerm) -> Integer:
    """``@sparql_test``: 1 iff the FILTER expression holds (EBV true; error or unbound → 0).
    Comparisons of numbers take the fast path of :mod:`translator.translate.numeric_tests`."""
    fast = _numeric_test(text.value)
    if fast is not None:
        got = fast([a.value if isinstance(a, String) else None for a in args])
        if got is not None:
            return _ONE if got else _ZERO
    from translator.rdf import sparql_terms

    return _ONE if sparql_terms.filter_holds(_evaluated(text.value, args)) else _ZERO


_ONE, _ZERO = Integer(1), Integer(0)


@lru_cache(maxsize=4096)
def _numeric_value(text: str):
    from translator.translate.numeric_tests import compile_numeric_value

    return compile_numeric_value(*parse_expression(text))


@lru_cache(maxsize=4096)
def _numeric_test(text: str):
    from translator.translate.numeric_tests import compile_numeric_test

    return compile_numeric_test(*parse_expression(text))


def _sparql_test_on_texts(texts: Sequence[str]) -> Integer | None:
    """``sparql_test`` of its arguments' LARS texts (the engine's rows, ``lars.incremental``): the
    fast path of numbers only, ``None`` otherwise (the engine then calls :func:`sparql_test`)."""
    fast = _numeric_test_of_lars(texts[0])
    if fast is None:
        return None
    got = fast(texts[1:])
    return None if got is None else (_ONE if got else _ZERO)


@lru_cache(maxsize=4096)
def _numeric_test_of_lars(text: str):
    from lars.streams import parse_string_text
    from translator.translate.numeric_tests import compile_numeric_test

    string = parse_string_text(text)  # the expression, a LARS string
    return None if string is None else compile_numeric_test(*parse_expression(string.value), lars=True)


sparql_test.on_texts = _sparql_test_on_texts  # type: ignore[attr-defined]


def _sparql_value_on_texts(texts: Sequence[str]) -> String | None:
    """``sparql_value`` of its arguments' LARS texts: the fast path of arithmetic on numbers,
    ``None`` otherwise (the engine then calls :func:`sparql_value`)."""
    fast = _numeric_value_of_lars(texts[0])
    if fast is None:
        return None
    got = fast(texts[1:])
    return None if got is None else String(got)


@lru_cache(maxsize=4096)
def _numeric_value_of_lars(text: str):
    from lars.streams import parse_string_text
    from translator.translate.numeric_tests import compile_numeric_value

    string = parse_string_text(text)  # the expression, a LARS string
    return None if string is None else compile_numeric_value(*parse_expression(string.value), lars=True)


def sparql_value(text: String, *args: GroundTerm) -> String | Constant:
    """``@sparql_value``: the BIND value as an N-Triples string, ``null`` on error (§18.6 Extend).
    Arithmetic on numbers takes the fast path of :mod:`translator.translate.numeric_tests`."""
    fast = _numeric_value(text.value)
    if fast is not None:
        got = fast([a.value if isinstance(a, String) else None for a in args])
        if got is not None:
            return String(got)
    value = _evaluated(text.value, args)
    return to_lars(None if isinstance(value, ops.ExprError) else value)


sparql_value.on_texts = _sparql_value_on_texts  # type: ignore[attr-defined]


# ------------------------------------------------------------------ aggregates (translator.translate.aggregates)
#
# clingo aggregates compute on 32-bit integers and wrap around silently on overflow, so SPARQL
# values enter them only in pieces whose sums cannot overflow, and leave them through these
# functions as exact RDF terms (D6; docs/translation.md "Aggregates and result forms").
#
# SUM/AVG: every numeric value is written exactly as  Σ_i L_i · 2^(16·(B+i)) · 10^(-S)  with
# signed 16-bit limbs L_i (an integer: S = 0, B = 0; a decimal: S its scale, B = 0; a float or
# double m·2^e: S = 0, B = ⌊e/16⌋). The *part key* of limb i is p(S, B+i); one clingo #sum per part
# key and group adds the limbs (|sum| < 2^31 for at most MAX_SUM_ROWS values), and the few part
# sums of a group are folded in Python (@sparql_sum_add along the parts in clingo's term order),
# exactly (fractions), then rounded once to the result type. ±INF and NaN are the part keys
# ``inf``, ``ninf``, ``nan`` with limb 1 (their sums count them).
#
# MIN/MAX/SAMPLE: #min/#max over the order keys of @sparql_order_key, which clingo orders as
# SPARQL's ORDER BY orders the terms (docs/translation.md gives the order).

LIMB_BITS = 16

MAX_SUM_ROWS = 32767
"""More values than this in one group would let a limb's sum overflow: the aggregate is an error
(``agglimit``), noted on stderr by ``rsplars run``."""

_NONE = Constant("none")
_SPECIAL = {"nan": Constant("nan"), "inf": Constant("inf"), "ninf": Constant("ninf")}


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _number(term: GroundTerm) -> ops.Number | None:
    """The numeric value of a term (``None``: not a number, including ill-typed numerals); a
    numeric literal written without escapes is read from its text (no rdflib term)."""
    if not isinstance(term, String):
        return None
    got = number_of_text(term.value)
    if got is not None:
        return got
    try:
        node = from_lars(term)
    except ValueError:
        return None
    from translator.rdf import sparql_terms

    return sparql_terms.numeric(node) if node is not None else None


def _limbs(m: int) -> list[int]:
    """The signed 16-bit limbs of ``m`` (least significant first; ``[0]`` for 0)."""
    sign, a, out = (-1 if m < 0 else 1), abs(m), []
    while a:
        out.append(sign * (a & 0xFFFF))
        a >>= LIMB_BITS
    return out or [0]


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _exact(term: GroundTerm) -> tuple[int, int, int, int, int, int, int] | None:
    """(kind, m, e2, e10, NaN, +INF, -INF) of a number, whose exact value is m / (2^e2 · 10^e10)
    (e2 > 0 only for floats and doubles, e10 > 0 only for decimals): the limbs of the portable
    encoding (:func:`_pieces`) and the native sums (:func:`_sum`, integers only) both start from it;
    ``None``: not a number."""
    n = _number(term)
    if n is None:
        return None
    if n.kind in (ops.FLOAT, ops.DOUBLE):
        x = float(n.value)
        if math.isnan(x):
            return n.kind, 0, 0, 0, 1, 0, 0
        if math.isinf(x):
            return (n.kind, 0, 0, 0, 0, 1, 0) if x > 0 else (n.kind, 0, 0, 0, 0, 0, 1)
        num, den = x.as_integer_ratio()  # den = 2^k
        return n.kind, num, den.bit_length() - 1, 0, 0, 0, 0
    if n.kind == ops.DECIMAL:
        sign, digits, exponent = Decimal(n.value).as_tuple()
        assert isinstance(exponent, int)  # a finite decimal ("n", "N", "F": NaN and infinities)
        m = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
        return (n.kind, m * 10**exponent, 0, 0, 0, 0, 0) if exponent >= 0 else (n.kind, m, 0, -exponent, 0, 0, 0)
    return n.kind, int(n.value), 0, 0, 0, 0, 0


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _pieces(term: GroundTerm) -> tuple[tuple[GroundTerm, int], ...]:
    """``((part key, limb), …)`` of a value (module comment above); a non-number: ``((none, 0),)``."""
    got = _exact(term)
    if got is None:
        return ((_NONE, 0),)
    _, m, e2, scale, nan, inf, ninf = got
    if nan or inf or ninf:
        return ((_SPECIAL["nan" if nan else "inf" if inf else "ninf"], 1),)
    b = -e2 // LIMB_BITS  # a float m·2^-e2: its limbs start at block b (integers and decimals: e2 = 0)
    m <<= -e2 - LIMB_BITS * b
    return tuple((Function("p", (Integer(scale), Integer(b + i))), limb) for i, limb in enumerate(_limbs(m)))


def sparql_num_kind(term: GroundTerm) -> Integer:
    """``@sparql_num_kind(X)``: the promotion kind of a number (0 integer, 1 decimal, 2 float,
    3 double; XPath F&O §1.2) or -1 for anything else (SUM/AVG of it is an error)."""
    n = _number(term)
    return Integer(-1 if n is None else n.kind)


def sparql_nlimbs(term: GroundTerm) -> Integer:
    """``@sparql_nlimbs(X)``: how many limbs X has (at least 1)."""
    return Integer(len(_pieces(term)))


def sparql_part_key(term: GroundTerm, i: Integer) -> GroundTerm:
    """``@sparql_part_key(X, I)``: the part key ``p(S, P)`` (or ``nan``/``inf``/``ninf``) of limb I."""
    pieces = _pieces(term)
    return pieces[i.value][0] if 0 <= i.value < len(pieces) else _NONE


def sparql_part_limb(term: GroundTerm, i: Integer) -> Integer:
    """``@sparql_part_limb(X, I)``: the signed 16-bit limb I of X (0 if there is none)."""
    pieces = _pieces(term)
    return Integer(pieces[i.value][1] if 0 <= i.value < len(pieces) else 0)


def _text(term: Term) -> str:
    """The text of a string argument of an accumulator built here (``acc("n/d", …)``, ``gc(T)``)."""
    assert isinstance(term, String), term
    return term.value


def _int(term: Term) -> int:
    """The value of an integer argument of an accumulator or part key built here."""
    assert isinstance(term, Integer), term
    return term.value


def _acc(acc: GroundTerm) -> tuple[Fraction, int, int, int]:
    from fractions import Fraction  # the exact sums of the clingo program only (not the native run's)

    if isinstance(acc, Function) and acc.name == "acc":
        text, nan, inf, ninf = acc.args
        return Fraction(_text(text)), _int(nan), _int(inf), _int(ninf)
    return Fraction(0), 0, 0, 0  # the start of a fold


def sparql_sum_add(acc: GroundTerm, key: GroundTerm, total: Integer) -> Function:
    """``@sparql_sum_add(A, P, S)``: the accumulator ``acc("n/d", NaNs, INFs, -INFs)`` plus the sum S
    of the limbs with part key P (exact; the start of a fold is the integer 0)."""
    value, nan, inf, ninf = _acc(acc)
    if key == _SPECIAL["nan"]:
        nan += total.value
    elif key == _SPECIAL["inf"]:
        inf += total.value
    elif key == _SPECIAL["ninf"]:
        ninf += total.value
    elif isinstance(key, Function) and key.name == "p":
        from fractions import Fraction

        scale, position = (_int(a) for a in key.args)
        value += Fraction(total.value) * Fraction(2) ** (LIMB_BITS * position) / Fraction(10) ** scale
    return Function("acc", (String(str(value)), Integer(nan), Integer(inf), Integer(ninf)))


def _float32_of(q: Fraction) -> float:
    """The binary32 value nearest to q (ties to even), without double rounding."""
    return _float32_of_ratio(q.numerator, q.denominator)


def _float32_of_ratio(num: int, den: int) -> float:
    """The binary32 value nearest to num/den (den > 0; ties to even), without double rounding:
    num/den rounded to binary64 (Python's integer division is correctly rounded), then to binary32,
    unless that binary64 value is a binary32 tie that num/den is not, when the side of num/den decides."""
    try:
        d = num / den  # correctly rounded to binary64
    except OverflowError:
        return math.inf if num > 0 else -math.inf
    f = ops.to_float32(d)
    if math.isinf(f):
        return f
    p, r = d.as_integer_ratio()
    if p * den == num * r:  # d is num/den exactly
        return f
    lo, hi = ops.to_float32(math.nextafter(d, -math.inf)), ops.to_float32(math.nextafter(d, math.inf))
    if lo == hi:  # d is no binary32 tie: rounding d to binary32 is rounding num/den
        return f
    return hi if num * r > p * den else lo  # d is a tie but num/den is not: the side of num/den


def _rounded_value(kind: int, value: Fraction, nan: int, inf: int, ninf: int) -> int | Decimal | float:
    """The exact sum as a number of the result kind (SPARQL 1.1 §18.5.1.3 Sum = op:numeric-add,
    whose type is the promoted type of the values; rounded once, to nearest)."""
    return _rounded_ratio(kind, value.numerator, value.denominator, nan, inf, ninf)


def _rounded_ratio(kind: int, num: int, den: int, nan: int, inf: int, ninf: int) -> int | Decimal | float:
    """:func:`_rounded_value` of the exact sum num/den (den > 0, not necessarily in lowest terms)."""
    if nan or (inf and ninf):
        return math.nan
    if inf or ninf:
        return math.inf if inf else -math.inf
    if kind == ops.INTEGER:
        whole = abs(num) // den  # int(Fraction): towards zero
        return -whole if num < 0 else whole
    if kind == ops.DECIMAL:
        from fractions import Fraction

        value = Fraction(num, den)
        return ops.EXACT_CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))
    if kind == ops.FLOAT:
        return _float32_of_ratio(num, den)
    try:
        return num / den  # float(Fraction(num, den)): correctly rounded
    except OverflowError:
        return math.inf if num > 0 else -math.inf


def _rounded(kind: int, value: Fraction, nan: int, inf: int, ninf: int) -> RDFLiteral:
    """The exact sum as a literal of the result kind (:func:`_rounded_value`)."""
    from translator.rdf import sparql_terms

    return sparql_terms.number_literal(kind, _rounded_value(kind, value, nan, inf, ninf))


def sparql_sum_result(acc: GroundTerm, kind: Integer) -> String:
    """``@sparql_sum_result(A, T)``: SUM of the group as a literal of kind T."""
    return to_lars(_rounded(kind.value, *_acc(acc)))  # type: ignore[return-value]


def sparql_avg_result(acc: GroundTerm, kind: Integer, count: Integer) -> String | Constant:
    """``@sparql_avg_result(A, T, C)``: AVG = Sum / Count with ``op:numeric-divide`` (SPARQL 1.1
    §18.5.1.4: an integer or decimal sum gives an xsd:decimal; a float a float, a double a double)."""
    from translator.rdf import sparql_terms

    if count.value == 0:
        return to_lars(sparql_terms.integer(0))
    value = sparql_terms.call("/", [_rounded(kind.value, *_acc(acc)), sparql_terms.integer(count.value)])
    return to_lars(None if isinstance(value, ops.ExprError) else value)


def sparql_integer(n: Integer) -> String:
    """``@sparql_integer(N)``: the clingo integer N (a #count) as an xsd:integer term
    (``to_lars(sparql_terms.integer(N))``, written from the text)."""
    return String(f'"{n.value}"^^<{ops.KIND_TYPE[ops.INTEGER]}>')


# ---------------------------------------------------------------- MIN / MAX / SAMPLE: term order

_NO_INT, _NO_STR = Integer(0), String("")


def _key(a: int, b: int, c: int, d: int, e: str, term: GroundTerm) -> Function:
    return Function("k", (Integer(a), Integer(b), Integer(c), Integer(d), String(e), term))


@lru_cache(maxsize=TERM_CACHE_SIZE)
def sparql_order_key(term: GroundTerm) -> Function:
    """``@sparql_order_key(X)``: ``k(A, B, C, D, E, X)`` such that clingo's order of these terms
    (integers and strings compared in order, strings by code points) is the order of SPARQL 1.1
    §15.1 ORDER BY, completed as documented in docs/translation.md: blank nodes < IRIs < literals;
    literals: numbers (by exact value; NaN after INF, where Oxigraph puts it) < booleans < dateTimes (by instant, no zone = Z)
    < simple/xsd:string literals (code points) < language-tagged strings < other literals
    (datatype IRI, then the term); ties by the term's N-Triples text. A number is read without
    rdflib (:func:`_number`); any other term is read as an rdflib term."""
    n = _number(term)  # a numeric literal: its key from its value alone
    if n is not None:
        if isinstance(n.value, float) and (math.isnan(n.value) or math.isinf(n.value)):
            cls = 6 if math.isnan(n.value) else 5 if n.value > 0 else 1
            return _key(2, 0, cls, 0, "", term)
        d = Decimal(n.value) if not isinstance(n.value, float) else Decimal(float(n.value))  # exact
        if d == 0:
            return _key(2, 0, 3, 0, "", term)
        digits = "".join(map(str, d.as_tuple().digits)).rstrip("0")
        exponent = d.adjusted()
        if d > 0:
            return _key(2, 0, 4, exponent, digits, term)
        return _key(2, 0, 2, -exponent, "".join(str(9 - int(c)) for c in digits) + "~", term)
    from rdflib import BNode, Literal as RDFLiteral, URIRef

    from translator.rdf import sparql_terms

    node = from_lars(term) if isinstance(term, String) else None
    if isinstance(node, BNode):
        return _key(0, 0, 0, 0, str(node), term)
    if isinstance(node, URIRef):
        return _key(1, 0, 0, 0, str(node), term)
    if not isinstance(node, RDFLiteral):
        return _key(3, 0, 0, 0, "", term)
    flag = sparql_terms.boolean_value(node)
    if flag is not None:
        return _key(2, 1, int(flag), 0, "", term)
    when = sparql_terms.datetime_value(node)
    if when is not None:
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
        return _key(2, 2, when.year, 0, when.strftime("%m-%dT%H:%M:%S.%f"), term)
    if sparql_terms.is_string(node):
        return _key(2, 3, 0, 0, str(node), term)
    if node.language:
        return _key(2, 4, 0, 0, str(node), term)
    return _key(2, 5, 0, 0, str(node.datatype), term)


def sparql_key_term(key: GroundTerm) -> GroundTerm:
    """``@sparql_key_term(k(…, X))``: X."""
    if not isinstance(key, Function) or key.name != "k" or len(key.args) != 6:
        raise ValueError(f"not a key made by @sparql_order_key: {key!r}")
    return key.args[5]  # type: ignore[return-value]


# ------------------------------------------------------------------------------------ GROUP_CONCAT


def sparql_is_string(term: GroundTerm) -> Integer:
    """``@sparql_is_string(X)``: 1 iff X is a string literal (simple, xsd:string or language-
    tagged); GROUP_CONCAT of anything else is an error (as Oxigraph; SPARQL 1.1 §18.5.1.7 concatenates strings)."""
    from translator.rdf import sparql_terms

    node = from_lars(term) if isinstance(term, String) else None
    return Integer(1 if sparql_terms.is_string_literal(node) else 0)


def sparql_concat_add(acc: GroundTerm, term: GroundTerm, times: Integer, separator: String) -> Function:
    """``@sparql_concat_add(A, X, N, Sep)``: the accumulator ``gc(Text)`` with X's lexical form
    appended N times (N solutions have X), separated by Sep (anything but ``gc(…)`` starts a fold)."""
    parts = [_text(acc.args[0])] if isinstance(acc, Function) else []
    parts += [str(from_lars(term))] * times.value
    return Function("gc", (String(separator.value.join(parts)),))


def sparql_concat_result(acc: GroundTerm) -> String:
    """``@sparql_concat_result(A)``: the simple literal of the concatenation. Never language-tagged,
    even when every value has the same tag: the separator is a simple literal, so the CONCAT that
    SPARQL 1.1 §18.5.1.7 applies drops the tag (W3C rdf-tests ``agg-groupconcat-04``/``-06`` as
    revised in 2026; Oxigraph and QLever agree)."""
    from rdflib import Literal as RDFLiteral

    assert isinstance(acc, Function), acc
    return to_lars(RDFLiteral(_text(acc.args[0])))  # type: ignore[return-value]


# ------------------------------------------------------- the same aggregates, evaluated directly
# External aggregates of the LARS program (``lars.model.AggregateAssignment``, ``#@name{…}``) for
# the engines of Python (lars.reference, lars.incremental): each gets the multiset of a group's
# values (term -> number of solutions with it) and gives the term that the portable encoding above
# gives clingo — the same exact sum rounded once, the same order of terms, the same errors and the
# same limit — with one call per group instead of limbs, part sums and a fold.

_NULL = Constant("null")


def _sum(values: Mapping[GroundTerm, int]) -> tuple[int, int, int, int, int, int, int] | None:
    """(kind, numerator, denominator, NaNs, +INFs, -INFs, count) of a group's values (term ->
    number of solutions): the exact sum is numerator/denominator (not in lowest terms); ``None``
    for an error: a non-number, or more values than the portable encoding adds exactly
    (``MAX_SUM_ROWS``). The values added one by one to a :class:`_SumState`."""
    state = _SumState(_sum_number)  # its totals only
    for term, times in values.items():
        state.change(term, times)
        if state.errors:
            return None
    return state.totals()


def functions_noting_limits(on_limit: Callable[[], None]) -> dict[str, Callable[..., GroundTerm]]:
    """:data:`FUNCTIONS` with SUM's and AVG's external aggregates telling ``on_limit`` whenever a
    group holds more values than the portable encoding adds exactly (``MAX_SUM_ROWS``: the
    aggregate is then ``null``). Their states tell it as the group's values change — so exactly when
    the portable program's ``agglimit`` rule holds, which the native program leaves out
    (``aggregates.native_rules``) — and the functions when they are applied to such a group. One
    call per run of ``rsplars run``, for its note (``translator.evaluate.run.answers``)."""

    def noting(function: Callable[[Mapping[GroundTerm, int]], GroundTerm], result: Callable) -> Callable:
        def applied(values: Mapping[GroundTerm, int]) -> GroundTerm:
            if sum(values.values()) > MAX_SUM_ROWS:
                on_limit()
            return function(values)

        applied.incremental = lambda: _SumState(result, on_limit)  # type: ignore[attr-defined]
        return applied

    return {**FUNCTIONS, "sparql_sum_of": noting(sparql_sum_of, _sum_number), "sparql_avg_of": noting(sparql_avg_of, _avg_number)}


def _number_term(kind: int, value) -> String:
    """The canonical term of a computed number (``to_lars(sparql_terms.number_literal(kind, value))``);
    those of non-zero floats and doubles cached (a window's sums and averages come back)."""
    return _cached_number(_FLOAT_TERMS, String, kind, value)


def _number_text(kind: int, value) -> str:
    """``format_term(_number_term(kind, value))``, without building the term (cached as the terms)."""
    return _cached_number(_FLOAT_TEXTS, string_text, kind, value)


def _cached_number(cache: dict, make: Callable[[str], object], kind: int, value):
    """``make`` of the N-Triples text of a computed number, kept in ``cache`` for non-zero floats
    and doubles (bounded)."""
    cached = kind >= ops.FLOAT and value and value == value  # not ±0.0 (equal as keys, not in form), not NaN
    got = cache.get((kind, value)) if cached else None
    if got is None:
        got = make(_number_nt(kind, value))
        if cached:
            if len(cache) >= _FLOAT_TERMS_MAX:
                cache.clear()
            cache[kind, value] = got
    return got


def _number_nt(kind: int, value) -> str:
    """The N-Triples text of a computed number (``to_nt(sparql_terms.number_literal(kind, value))``)."""
    return f'"{ops.number_lexical(kind, value)}"^^<{ops.KIND_TYPE[kind]}>'


_FLOAT_TERMS: dict = {}
_FLOAT_TEXTS: dict = {}
_FLOAT_TERMS_MAX = TERM_CACHE_SIZE


_ZERO_TERM = String(f'"0"^^<{ops.KIND_TYPE[ops.INTEGER]}>')
_EMPTY = object()  # no value in the group: SUM and AVG are 0


def _sum_number(got: tuple[int, int, int, int, int, int, int] | None) -> "tuple[int, object] | object | None":
    """SUM of :func:`_sum`'s tuple as (kind, value); ``_EMPTY`` for no value, ``None`` for an error."""
    if got is None:
        return None
    kind, num, den, nan, inf, ninf, count = got
    if not count:
        return _EMPTY
    return kind, _rounded_ratio(kind, num, den, nan, inf, ninf)


def _avg_number(got: tuple[int, int, int, int, int, int, int] | None) -> "tuple[int, object] | object | None":
    """AVG of :func:`_sum`'s tuple as (kind, value): the rounded sum divided by the count with
    op:numeric-divide (an integer sum as a decimal); ``_EMPTY`` for no value, ``None`` for an error."""
    if got is None:
        return None
    kind, num, den, nan, inf, ninf, count = got
    if not count:
        return _EMPTY
    value = _rounded_ratio(kind, num, den, nan, inf, ninf)
    if kind >= ops.FLOAT:  # op:numeric-divide of floats by a positive count: the IEEE quotient
        return kind, value / count
    if kind == ops.INTEGER:
        kind, value = ops.DECIMAL, Decimal(value)
    quotient = ops.arith_value("/", kind, value, Decimal(count))
    return None if isinstance(quotient, ops.ExprError) else (kind, quotient)


def _as_term(number) -> GroundTerm:
    """The term of :func:`_sum_number`'s or :func:`_avg_number`'s result (no value: 0; an error: ``null``)."""
    return _NULL if number is None else _ZERO_TERM if number is _EMPTY else _number_term(*number)


def _as_text(number) -> str:
    """``format_term(_as_term(number))``, without building the term."""
    return _NULL_TEXT if number is None else _ZERO_TEXT if number is _EMPTY else _number_text(*number)


_NULL_TEXT = format_term(_NULL)
_ZERO_TEXT = format_term(_ZERO_TERM)


def _sum_term(got: tuple[int, int, int, int, int, int, int] | None) -> GroundTerm:
    """SUM's term from :func:`_sum`'s tuple (no value: 0; an error: ``null``)."""
    return _as_term(_sum_number(got))


def _avg_term(got: tuple[int, int, int, int, int, int, int] | None) -> GroundTerm:
    """AVG's term from :func:`_sum`'s tuple (:func:`_avg_number`; no value: 0; an error: ``null``)."""
    return _as_term(_avg_number(got))


def sparql_sum_of(values: Mapping[GroundTerm, int]) -> GroundTerm:
    """``#@sparql_sum_of{Z, X̄ : …}``: SUM, as ``@sparql_sum_result`` after the portable fold
    (no value: 0; an error: ``null``)."""
    return _sum_term(_sum(values))


def sparql_avg_of(values: Mapping[GroundTerm, int]) -> GroundTerm:
    """``#@sparql_avg_of{…}``: AVG, as ``@sparql_avg_result`` after the portable fold: the rounded
    sum divided by the count with op:numeric-divide (an integer sum as a decimal)."""
    return _avg_term(_sum(values))


class _SumState:
    """The running state of SUM/AVG over a multiset that changes a tuple at a time (the
    ``incremental`` protocol of ``lars.evaluation.external_aggregate``): how many values of each
    kind, non-numbers, NaNs and ±INFs, and the exact sum ``total / (2^e2 · 10^e10)`` with the
    integer arithmetic of :func:`_sum` (e2 and e10 only grow while the group has values: a value
    with a finer scale rescales the total; reset when the group is empty). Its value is the
    function's on the current multiset: the same tuple as :func:`_sum` up to the common
    denominator, which no rounding depends on (:func:`_rounded_ratio`)."""

    __slots__ = ("kinds", "errors", "count", "total", "e2", "e10", "nan", "inf", "ninf", "result", "on_limit")

    def __init__(self, result: Callable, on_limit: Callable[[], None] | None = None) -> None:
        self.kinds = [0, 0, 0, 0]
        self.errors = self.count = self.total = self.e2 = self.e10 = self.nan = self.inf = self.ninf = 0
        self.result = result  # the function's number from totals() (``_sum_number``, ``_avg_number``)
        self.on_limit = on_limit  # told when the values come to be more than MAX_SUM_ROWS (functions_noting_limits)

    def change(self, term: GroundTerm, times: int) -> None:
        """``times`` more tuples (fewer, if negative) whose first term is ``term``."""
        self.count += times
        if self.count > MAX_SUM_ROWS and self.on_limit is not None:
            self.on_limit()
        got = _exact(term)
        if got is None:
            self.errors += times
        else:
            kind, m, a, b, x, y, z = got
            self.kinds[kind] += times
            if x or y or z:
                self.nan += times * x
                self.inf += times * y
                self.ninf += times * z
            elif m:
                if a > self.e2:
                    self.total <<= a - self.e2
                    self.e2 = a
                if b > self.e10:
                    self.total *= 10 ** (b - self.e10)
                    self.e10 = b
                self.total += times * (m << (self.e2 - a)) * (10 ** (self.e10 - b) if b != self.e10 else 1)
        if not self.count:
            self.total = self.e2 = self.e10 = 0

    def totals(self) -> tuple[int, int, int, int, int, int, int] | None:
        """:func:`_sum`'s tuple of the current multiset (``None``: an error)."""
        if self.errors or self.count > MAX_SUM_ROWS:
            return None
        kinds = self.kinds
        kind = 3 if kinds[3] else 2 if kinds[2] else 1 if kinds[1] else 0
        return kind, self.total, (1 << self.e2) * 10**self.e10, self.nan, self.inf, self.ninf, self.count

    def value(self) -> GroundTerm:
        return _as_term(self.result(self.totals()))

    def text(self) -> str:
        """``format_term(self.value())`` without building the term (``lars.evaluation.external_aggregate``).
        AVG of floats (with integers or none, no decimal, double or special value: sensor readings)
        straight from the state: the exact sum m / 2^e2 rounded once to binary32, divided by the
        count (:func:`_avg_number`'s steps, without its tuple)."""
        kinds = self.kinds
        if (self.result is _avg_number and kinds[2] and not kinds[3] and not self.e10 and 0 < self.count <= MAX_SUM_ROWS
                and not (self.errors or self.nan or self.inf or self.ninf)):
            return _number_text(ops.FLOAT, ops.to_float32(_float32_of_ratio(self.total, 1 << self.e2) / self.count))
        return _as_text(self.result(self.totals()))


sparql_sum_of.incremental = lambda: _SumState(_sum_number)  # type: ignore[attr-defined]
sparql_avg_of.incremental = lambda: _SumState(_avg_number)  # type: ignore[attr-defined]


def term_order(term: GroundTerm) -> tuple:
    """A Python sort key of a term in SPARQL's ORDER BY order of :func:`sparql_order_key`
    (SPARQL 1.1 §15.1, completed to a total order as docs/translation.md documents): clingo's
    order of the term's key, which MIN/MAX pick by too."""
    return _order_of(term)


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _order_of(term: GroundTerm) -> tuple:
    """clingo's order of ``@sparql_order_key(term)`` (distinct terms: distinct keys, the term is
    the key's last argument)."""
    return clingo_order(sparql_order_key(term))


def _extreme(values: Mapping[GroundTerm, int], pick) -> GroundTerm:
    if not values:
        return _NULL  # MIN/MAX/SAMPLE of no value: an error
    return pick(values, key=_order_of)  # = sparql_key_term(pick(the keys, key=clingo_order))


def sparql_min_of(values: Mapping[GroundTerm, int]) -> GroundTerm:
    """``#@sparql_min_of{…}``: MIN (and SAMPLE), the least value in the order of ``@sparql_order_key``."""
    return _extreme(values, min)


def sparql_max_of(values: Mapping[GroundTerm, int]) -> GroundTerm:
    """``#@sparql_max_of{…}``: MAX, the greatest value in the order of ``@sparql_order_key``."""
    return _extreme(values, max)


class _ExtremeState:
    """The running state of MIN/MAX (the ``incremental`` protocol of
    ``lars.evaluation.external_aggregate``): the distinct values with their numbers of tuples and
    the extreme one with its order, updated when a better value comes, forgotten (found again
    among the values when asked) when it goes."""

    __slots__ = ("values", "best", "best_order", "pick", "better")

    def __init__(self, pick, better) -> None:
        self.values: dict[GroundTerm, int] = {}
        self.best: GroundTerm | None = None
        self.best_order: tuple = ()
        self.pick, self.better = pick, better

    def change(self, term: GroundTerm, times: int) -> None:
        """``times`` more tuples (fewer, if negative) whose first term is ``term``."""
        values = self.values
        before = values.get(term, 0)
        got = before + times
        if got:
            values[term] = got
            if not before and self.best is not None:
                order = _order_of(term)
                if self.better(order, self.best_order):
                    self.best, self.best_order = term, order
        else:
            del values[term]
            if term == self.best:
                self.best = None

    def value(self) -> GroundTerm:
        if self.best is None:
            if not self.values:
                return _NULL
            self.best = self.pick(self.values, key=_order_of)
            self.best_order = _order_of(self.best)
        return self.best


sparql_min_of.incremental = lambda: _ExtremeState(min, operator.lt)  # type: ignore[attr-defined]
sparql_max_of.incremental = lambda: _ExtremeState(max, operator.gt)  # type: ignore[attr-defined]
# the value of a non-empty multiset is the first term least/greatest by an injective key (distinct
# terms: distinct keys): the incremental engine picks it among the texts of its groups' terms
sparql_min_of.extreme = (min, _order_of)  # type: ignore[attr-defined]
sparql_max_of.extreme = (max, _order_of)  # type: ignore[attr-defined]


FUNCTIONS: dict[str, Callable[..., GroundTerm]] = {
    "sparql_test": sparql_test,
    "sparql_value": sparql_value,
    "sparql_num_kind": sparql_num_kind,
    "sparql_nlimbs": sparql_nlimbs,
    "sparql_part_key": sparql_part_key,
    "sparql_part_limb": sparql_part_limb,
    "sparql_sum_add": sparql_sum_add,
    "sparql_sum_result": sparql_sum_result,
    "sparql_avg_result": sparql_avg_result,
    "sparql_integer": sparql_integer,
    "sparql_order_key": sparql_order_key,
    "sparql_key_term": sparql_key_term,
    "sparql_is_string": sparql_is_string,
    "sparql_concat_add": sparql_concat_add,
    "sparql_concat_result": sparql_concat_result,
    "sparql_sum_of": sparql_sum_of,
    "sparql_avg_of": sparql_avg_of,
    "sparql_min_of": sparql_min_of,
    "sparql_max_of": sparql_max_of,
}
"""The external functions of translated programs, by name (``lars.model.Call.name``)."""
