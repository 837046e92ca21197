"""Exact SPARQL expression evaluation at grounding time (spec D6).

The translations (``translator.translate.tau``) keep FILTER and BIND expressions as canonical SPARQL text
inside the external terms ``@sparql_test("expr", X1, …)`` and ``@sparql_value("expr", X1, …)``.
This module gives those functions a meaning: the text is parsed once (with the query grammar,
cached), the arguments are bound to the expression's variables in order of first occurrence, and
the expression is evaluated with the operator semantics of :mod:`translator.rdf.sparql_ops`
(SPARQL 1.1 §17). :data:`FUNCTIONS` is what an engine or the reference semantics is given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Mapping, Sequence

from rdflib import Literal as RDFLiteral, URIRef
from rdflib.term import Node

from lars.errors import UnsupportedError
from lars.model import Constant, Function, GroundTerm, Integer, String
from translator.query import model as M
from translator.rdf import sparql_ops as ops
from translator.rdf.terms import from_lars, to_lars

Bindings = Mapping[str, Node | None]
Value = Node | None | ops.ExprError


def evaluate(e: M.Expr, bindings: Bindings) -> Value:
    """The value of ``e`` under ``bindings`` (variable name → term, ``None`` = unbound): a term or
    an :class:`~translator.rdf.sparql_ops.ExprError`; never raises for bad values."""
    match e:
        case M.Var(name):
            return bindings.get(name)
        case M.IRI(value):
            return URIRef(value)
        case M.Literal(lexical, datatype, lang):
            return RDFLiteral(lexical, lang=lang, datatype=URIRef(datatype) if datatype else None, normalize=False)
        case M.BinaryOp(op, left, right):
            return ops.call(op, [evaluate(left, bindings), evaluate(right, bindings)])
        case M.UnaryOp(op, operand):
            return ops.call(op, [evaluate(operand, bindings)])
        case M.In(expr, values, negated):
            return _in(evaluate(expr, bindings), [evaluate(v, bindings) for v in values], negated)
        case M.FunctionCall(name, args):
            return ops.call(name, [evaluate(a, bindings) for a in args])
        case M.IRICall(iri, args, _) if URIRef(iri.value) in ops.CAST_TYPES and len(args) == 1:
            return ops.cast(URIRef(iri.value), evaluate(args[0], bindings))
    raise UnsupportedError(f"the expression {type(e).__name__}", "FILTER evaluation")


def _in(x: Value, values: list[Value], negated: bool) -> Value:
    """``x IN (v1, …)`` = ``x = v1 || …`` and ``NOT IN`` = ``x != v1 && …`` (SPARQL 1.1 §17.4.1.9-10)."""
    if negated:
        result: Value = ops.boolean(True)
        for v in values:
            result = ops.call("&&", [result, ops.call("!=", [x, v])])
        return result
    result = ops.boolean(False)
    for v in values:
        result = ops.call("||", [result, ops.call("=", [x, v])])
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
        case M.FunctionCall(name, args):
            key = ops.operator_key(name)
            if key not in ops.OPERATORS:
                raise UnsupportedError(f"the SPARQL function {name}", "translation to LARS",
                                       f"supported: {', '.join(sorted(k for k in ops.OPERATORS if k[0].isalpha()))}")
            for a in args:
                check_supported(a)
        case M.IRICall(iri, args, _):
            if URIRef(iri.value) not in ops.CAST_TYPES or len(args) != 1:
                raise UnsupportedError(f"the function call <{iri.value}>(…)", "translation to LARS",
                                       "supported: the casts xsd:string, boolean, integer, decimal, float, double, dateTime")
            check_supported(args[0])
        case M.Exists():
            raise UnsupportedError("EXISTS / NOT EXISTS", "translation to LARS")
        case M.Aggregate(name, _):
            raise UnsupportedError(f"the aggregate {name} inside an expression", "translation to LARS")
        case _:
            raise UnsupportedError(f"the expression {type(e).__name__}", "translation to LARS")


@lru_cache(maxsize=4096)
def parse_expression(text: str) -> tuple[M.Expr, tuple[str, ...]]:
    """Parse canonical expression text (as :func:`translator.translate.normalize.expression` prints it) and
    return it with its variables in order of first occurrence."""
    from lars.errors import SourceError
    from translator.query.parse import parse

    source = f"SELECT * WHERE {{ FILTER({text}) }}"
    try:
        query = parse(source, "cqels", source="<expression>")
    except SourceError:  # names only the lenient grammar reads (seed 004's ?total-sensor)
        query = parse(source, "csparql", source="<expression>", lenient=True)
    (part,) = query.where.parts
    assert isinstance(part, M.Filter)
    return part.expr, tuple(v.name for v in M.expression_variables(part.expr))


def _bindings(text: str, args: Sequence[GroundTerm]) -> tuple[M.Expr, dict[str, Node | None]]:
    expr, names = parse_expression(text)
    if len(args) != len(names):
        raise ValueError(f"{text!r} reads {len(names)} variable(s), got {len(args)} argument(s)")
    return expr, {n: from_lars(a) for n, a in zip(names, args)}  # type: ignore[arg-type]


def sparql_test(text: String, *args: GroundTerm) -> Integer:
    """``@sparql_test``: 1 iff the FILTER expression holds (EBV true; error or unbound → 0)."""
    expr, bindings = _bindings(text.value, args)
    return Integer(1 if ops.filter_holds(evaluate(expr, bindings)) else 0)


def sparql_value(text: String, *args: GroundTerm) -> String | Constant:
    """``@sparql_value``: the BIND value as an N-Triples string, ``null`` on error (§18.6 Extend)."""
    expr, bindings = _bindings(text.value, args)
    value = evaluate(expr, bindings)
    return to_lars(None if isinstance(value, ops.ExprError) else value)


# ------------------------------------------------------------------ aggregates (translator.translate.aggregates)
#
# clingo aggregates compute on 32-bit integers and wrap around silently on overflow, so SPARQL
# values enter them only in pieces whose sums cannot overflow, and leave them through these
# functions as exact RDF terms (spec D6; docs/translation.md "Aggregates and result forms").

INTEGER_LIMIT = 2**63
"""Integers ``|v| < 2^63`` (xsd:long) are aggregated exactly; a larger one makes the aggregate an error."""

LIMB_BITS = 16
LIMBS = 4
"""SUM/AVG split each integer into 4 signed 16-bit limbs (``sign(v)·(|v| >> 16k & 0xFFFF)``):
a limb's sum over at most :data:`MAX_SUM_ROWS` values stays below 2^31."""

MAX_SUM_ROWS = 32767
"""More values than this in one group would let a limb's sum overflow: the aggregate is an error."""


def _exact_integer(term: GroundTerm) -> int | None:
    """The value of an xsd:integer-family literal (valid lexical form, ``|v| < 2^63``), else None."""
    node = from_lars(term)
    number = ops.numeric(node) if node is not None else None
    if number is None or number.kind != ops.INTEGER or not -INTEGER_LIMIT < int(number.value) < INTEGER_LIMIT:
        return None
    return int(number.value)


def sparql_is_int(term: GroundTerm) -> Integer:
    """``@sparql_is_int(X)``: 1 iff X is an integer that SUM/AVG/MIN/MAX aggregate exactly."""
    return Integer(0 if _exact_integer(term) is None else 1)


def sparql_limb(term: GroundTerm, k: Integer) -> Integer:
    """``@sparql_limb(X, K)``: the K-th signed 16-bit limb of the integer X (0 if X is none)."""
    value = _exact_integer(term)
    if value is None:
        return Integer(0)
    sign = -1 if value < 0 else 1
    return Integer(sign * ((abs(value) >> (LIMB_BITS * k.value)) & ((1 << LIMB_BITS) - 1)))


def _from_limbs(limb_sums: Sequence[GroundTerm]) -> int:
    total = 0
    for k, s in enumerate(limb_sums):
        if not isinstance(s, Integer):
            raise ValueError(f"limb sum {s!r} is not an integer")
        total += s.value << (LIMB_BITS * k)
    return total


def sparql_sum(*limb_sums: GroundTerm) -> String:
    """``@sparql_sum(S0, …, S3)``: the exact sum ``Σ Sk·2^(16k)`` as an xsd:integer term."""
    return to_lars(ops.integer(_from_limbs(limb_sums)))  # type: ignore[return-value]


def sparql_avg(*args: GroundTerm) -> String | Constant:
    """``@sparql_avg(S0, …, S3, C)``: SUM/COUNT with ``op:numeric-divide`` (an xsd:decimal,
    SPARQL 1.1 §18.5.1.4); the average of no values is ``"0"^^xsd:integer``."""
    *limbs, count = args
    if not isinstance(count, Integer):
        raise ValueError(f"count {count!r} is not an integer")
    if count.value == 0:
        return to_lars(ops.integer(0))  # type: ignore[return-value]
    value = ops.call("/", [ops.integer(_from_limbs(limbs)), ops.integer(count.value)])
    return to_lars(None if isinstance(value, ops.ExprError) else value)


def sparql_integer(n: Integer) -> String:
    """``@sparql_integer(N)``: the clingo integer N (a #count) as an xsd:integer term."""
    return to_lars(ops.integer(n.value))  # type: ignore[return-value]


def sparql_int_key(term: GroundTerm) -> Function:
    """``@sparql_int_key(X)``: ``k(H, M, L, X)`` with ``v = H·2^32 + M·2^16 + L`` (``0 ≤ M, L <
    2^16``): clingo orders these terms as their values (then by the term's text), so ``#min`` and
    ``#max`` over them find the least and greatest integer exactly. Only for integers (see
    :func:`sparql_is_int`); anything else gets ``k(0,0,0,X)``."""
    value = _exact_integer(term) or 0
    return Function("k", (Integer(value >> 32), Integer((value >> 16) & 0xFFFF), Integer(value & 0xFFFF), term))


def sparql_key_term(key: GroundTerm) -> GroundTerm:
    """``@sparql_key_term(k(H, M, L, X))``: X."""
    if not isinstance(key, Function) or key.name != "k" or len(key.args) != 4:
        raise ValueError(f"not a key made by @sparql_int_key: {key!r}")
    return key.args[3]  # type: ignore[return-value]


FUNCTIONS: dict[str, Callable[..., GroundTerm]] = {
    "sparql_test": sparql_test,
    "sparql_value": sparql_value,
    "sparql_is_int": sparql_is_int,
    "sparql_limb": sparql_limb,
    "sparql_sum": sparql_sum,
    "sparql_avg": sparql_avg,
    "sparql_integer": sparql_integer,
    "sparql_int_key": sparql_int_key,
    "sparql_key_term": sparql_key_term,
}
"""The external functions of translated programs, by name (``lars.model.Call.name``)."""
