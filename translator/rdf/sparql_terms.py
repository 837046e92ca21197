"""SPARQL 1.1 operators and functions over rdflib terms, exactly (D6).

The numbers (:class:`Number`, :func:`numeric_lexical`, :func:`arith_value`, :func:`number_lexical`
…) are :mod:`translator.rdf.sparql_ops`'s, defined there without rdflib and re-exported here.

The FILTER and BIND translations (Dao-Tran, Beck, Eiter 2015, Fig. 1, ``LT(…)`` of the FILTER case) evaluate SPARQL
expressions at grounding time in Python, because clingo's integer arithmetic cannot express SPARQL's
value semantics (D6). This module is that evaluator, one function per operator of
`SPARQL 1.1 Query §17 <https://www.w3.org/TR/sparql11-query/#expressions>`_:

* values are rdflib terms; ``None`` is an unbound variable; :class:`ExprError` is the error value
  (§17.2: a type error, an unbound operand, division by zero …). Nothing raises: every operator
  returns a term or an :class:`ExprError`;
* :func:`filter_holds` is FILTER: the effective boolean value (§17.2.2), where an error or an
  unbound value is false;
* :data:`OPERATORS` maps a stable name (``"="``, ``"<"``, ``"+"``, ``"&&"``, ``"!"``, ``"REGEX"`` …)
  to its function; :func:`call` dispatches by name (function names are case-insensitive).

Semantics implemented (with the spec section):

* numbers (§17.3, XPath F&O §6): ``xsd:integer`` (and its derived types, range-checked), exact
  ``xsd:decimal`` (:class:`decimal.Decimal`), ``xsd:float`` (IEEE single precision) and
  ``xsd:double``, compared and computed after type promotion integer → decimal → float → double;
  ``integer / integer`` is a decimal (§17.4.1 ``op:numeric-divide``), rounded to 28 significant
  digits when it does not terminate; integer or decimal division by zero is an error, float/double
  division gives ±INF or NaN;
* ``=`` / ``!=`` by the operator table of §17.3: numbers by value, strings (simple literals and
  ``xsd:string``) by code points, booleans, ``xsd:dateTime`` by instant; otherwise ``RDFterm-equal``
  (§17.4.1.7): equal terms are equal, two *different literals* are a type error, anything else is
  not equal. ``<`` ``<=`` ``>`` ``>=`` on numbers, strings, booleans and dateTimes only;
* ``xsd:dateTime`` and ``xsd:date`` (a date as the first instant of its day) by XSD 1.1's partial
  order (§3.2.7.4): a value without a time zone stands for every time zone from −14:00 to +14:00,
  so against a zoned value it is ordered (and unequal) only when more than 14 hours apart, and
  otherwise the comparison is indeterminate, a type error for ``=``, ``!=``, ``<`` … alike (no
  implicit time zone); a date and a dateTime are never equal and not ordered (error for ``<`` …);
  ``T24:00:00`` is the next day's ``T00:00:00``. ORDER BY has its own total order
  (``translator.translate.expressions.sparql_order_key``: no zone read as Z);
* ``&&``, ``||`` with the error truth tables of §17.2, ``!``;
* functions of §17.4: BOUND, IF, COALESCE, sameTerm, isIRI/isURI, isBlank, isLiteral, isNumeric,
  STR, LANG, LANGMATCHES, DATATYPE, IRI/URI, STRLEN, SUBSTR, UCASE, LCASE, STRSTARTS, STRENDS,
  CONTAINS, STRBEFORE, STRAFTER, CONCAT, REGEX, REPLACE, ABS, ROUND, CEIL, FLOOR, YEAR, MONTH, DAY,
  HOURS, MINUTES, SECONDS, STRDT, STRLANG, ENCODE_FOR_URI, MD5, SHA1, SHA256, SHA384, SHA512, TZ,
  TIMEZONE, and the casts ``xsd:string|boolean|integer|decimal|float|double|dateTime(…)`` (§17.5,
  :func:`cast`); NOW (§17.4.5.1) on a stream as :func:`evaluation_datetime`, the evaluation time
  (``translator.translate.now``). Not here: RAND, UUID, STRUUID, BNODE, whose value is not a
  function of their arguments but of the solution (``translator.translate.fresh``).

Results are typed literals in canonical lexical form (XSD 1.1 §3.3: ``1.5``/``3.0`` for decimals,
``1.5E1``/``INF``/``NaN`` for doubles and floats). Where rdflib's own SPARQL engine deviates from
the spec, the spec is followed; ``docs/rdf-io.md`` lists the deviations.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from functools import lru_cache
from types import EllipsisType
from urllib.parse import urljoin
from typing import Callable, Sequence

from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from lars.bounds import TERM_CACHE_SIZE
from lars.errors import UnsupportedError
from translator.rdf.sparql_ops import known_types_unequal
from translator.rdf.sparql_ops import (  # noqa: F401 - the numbers, re-exported
    DECIMAL,
    DOUBLE,
    EXACT_CONTEXT,
    FLOAT,
    INTEGER,
    KIND_TYPE,
    NUMERIC_KIND,
    XSD_NS,
    VALUE_EXCEPTIONS,
    ExprError,
    Number,
    SparqlFunctionFailure,
    arith_value,
    compare_numbers,
    double_lexical,
    exact_quotient,
    is_error,
    number_lexical,
    numeric_lexical,
    promote,
    to_float32,
)
from translator.rdf.terms import from_nt, to_nt

Value = URIRef | BNode | Literal | None | ExprError


# ----------------------------------------------------------------------------- literal categories

TRUE = Literal("true", datatype=XSD.boolean)
FALSE = Literal("false", datatype=XSD.boolean)

#: xsd:integer and the types derived from it (XSD 1.1 §3.4), with their value ranges
INTEGER_RANGES: dict[URIRef, tuple[int | None, int | None]] = {
    URIRef(iri): (lo, hi) for iri, (kind, lo, hi) in NUMERIC_KIND.items() if kind == INTEGER
}
NUMERIC_TYPES = frozenset(INTEGER_RANGES) | {XSD.decimal, XSD.float, XSD.double}

_BOOLEAN_LEX = {"true": True, "1": True, "false": False, "0": False}
_DATETIME_LEX = re.compile(
    r"-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?\Z"
)


def numeric(term: Value) -> Number | None:
    """The value of a numeric literal with a valid lexical form, else ``None`` (ill-typed or
    not numeric: such literals are not numbers for SPARQL, §17.4.2.4 isNumeric)."""
    if not isinstance(term, Literal) or term.datatype not in NUMERIC_TYPES:
        return None
    return numeric_lexical(str(term), str(term.datatype))


def is_string(term: Value) -> bool:
    """A simple literal or ``xsd:string`` (the same thing in RDF 1.1)."""
    return isinstance(term, Literal) and not term.language and term.datatype in (None, XSD.string)


def is_string_literal(term: Value) -> bool:
    """A "string literal" of SPARQL 1.1 §17.4.3: simple, ``xsd:string`` or language-tagged."""
    return isinstance(term, Literal) and (bool(term.language) or term.datatype in (None, XSD.string))


def boolean_value(term: Value) -> bool | None:
    if isinstance(term, Literal) and term.datatype == XSD.boolean:
        return _BOOLEAN_LEX.get(str(term).strip())
    return None


def evaluation_datetime(epoch: Value, unit_ms: Value, t: Value) -> Value:
    """NOW() (§17.4.5.1) at evaluation time t of a run whose time 0 is ``epoch`` (a UTC
    ``xsd:dateTime``) and whose base unit lasts ``unit_ms`` milliseconds: epoch + t · unit as a
    UTC ``xsd:dateTime`` (decision D1, docs/decisions.md), seconds with their fraction only when
    it is not zero (canonical form, XSD 1.1 §3.3.7)."""
    from datetime import timedelta

    start = datetime_value(epoch)
    if start is None or not isinstance(unit_ms, Literal) or not isinstance(t, Literal):
        return ExprError("NOW needs the run's epoch, its unit and the evaluation time")
    try:
        when = start + timedelta(milliseconds=int(str(unit_ms)) * int(str(t)))
    except (ValueError, OverflowError):
        return ExprError("the evaluation time lies outside the dateTimes")
    lexical = when.strftime("%Y-%m-%dT%H:%M:%S")
    if when.microsecond:
        lexical += f".{when.microsecond:06d}".rstrip("0")
    return Literal(lexical + "Z", datatype=XSD.dateTime, normalize=False)


def datetime_value(term: Value) -> datetime | None:
    """The value of a valid ``xsd:dateTime`` (aware iff it has a time zone), else ``None``;
    ``24:00:00`` is the first instant of the next day (XSD 1.1 §3.3.7)."""
    if not isinstance(term, Literal) or term.datatype != XSD.dateTime:
        return None
    lex = str(term).strip()
    if not _DATETIME_LEX.match(lex):
        return None
    try:
        # Python accepts at most 6 fractional digits: truncate further digits
        lex = re.sub(r"(\.\d{6})\d+", r"\1", lex)
        midnight = re.search(r"T24:00:00(?:\.0+)?(?=Z|[+-]|\Z)", lex)
        if midnight:
            from datetime import timedelta

            lex = lex[: midnight.start()] + "T00:00:00" + lex[midnight.end():]
            return datetime.fromisoformat(lex.replace("Z", "+00:00")) + timedelta(days=1)
        return datetime.fromisoformat(lex.replace("Z", "+00:00"))
    except (ValueError, OverflowError):
        return None


_DATE_LEX = re.compile(r"(-?[0-9]{4,})-([0-9]{2})-([0-9]{2})(Z|[+-][0-9]{2}:[0-9]{2})?\Z")


def date_value(term: Value) -> datetime | None:
    """An ``xsd:date`` as the first instant of its day (XSD 1.1 §3.3.9: its time zone kept, aware
    iff it has one), else ``None``."""
    if not isinstance(term, Literal) or term.datatype != XSD.date:
        return None
    m = _DATE_LEX.match(str(term).strip())
    if not m:
        return None
    try:
        return datetime.fromisoformat(f"{m.group(1)}-{m.group(2)}-{m.group(3)}T00:00:00"
                                      + (m.group(4) or "").replace("Z", "+00:00"))
    except ValueError:
        return None


def _temporal(term: Value) -> tuple[URIRef, datetime] | None:
    when = datetime_value(term)
    if when is not None:
        return XSD.dateTime, when
    when = date_value(term)
    return None if when is None else (XSD.date, when)


#: the time zones an unzoned value may stand for (XSD 1.1 §3.2.7.4, D.2.2 Order relations)
_ZONE_SPAN_HOURS = 14

UNORDERED_TYPES = 3
""":func:`_compare`'s answer for values of two supported, disjoint value spaces (an ``xsd:date``
and an ``xsd:dateTime``): not equal, and not ordered."""


def _compare_instants(a: datetime, b: datetime) -> int | ExprError:
    """XSD 1.1's partial order of dateTimes (§3.2.7.4, op:dateTime-less-than / -equal of XPath
    F&O §10.4 without an implicit time zone): with or without time zones on both sides, by value;
    an unzoned value Q stands for every instant from Q at +14:00 to Q at −14:00, so a zoned P is
    below it only when below the earliest, above it only when above the latest; otherwise the order
    is indeterminate, which SPARQL reports as a type error (§17.3: an operand the operator cannot
    compare) — for ``=`` too (a determinate pair is never equal)."""
    from datetime import timedelta, timezone as tz

    if (a.tzinfo is None) == (b.tzinfo is None):
        return (a > b) - (a < b)
    flip = a.tzinfo is None
    zoned, local = (b, a) if flip else (a, b)
    earliest = local.replace(tzinfo=tz(timedelta(hours=_ZONE_SPAN_HOURS)))
    latest = local.replace(tzinfo=tz(timedelta(hours=-_ZONE_SPAN_HOURS)))
    if zoned < earliest:
        c = -1
    elif zoned > latest:
        c = 1
    else:
        return ExprError("a dateTime with a time zone and one without, less than 14 hours apart: indeterminate")
    return -c if flip else c


def number_literal(kind: int, value: int | Decimal | float) -> Literal:
    """A canonical literal for a computed number of the given kind."""
    return Literal(number_lexical(kind, value), datatype=KIND_TYPE[kind], normalize=False)


def boolean(flag: bool) -> Literal:
    return TRUE if flag else FALSE


def integer(value: int) -> Literal:
    return Literal(str(value), datatype=XSD.integer, normalize=False)


def _string_like(template: Literal, text: str) -> Literal:
    """A string literal with the language tag / datatype of ``template`` (§17.4.3)."""
    if template.language:
        return Literal(text, lang=template.language)
    return Literal(text, datatype=template.datatype if template.datatype == XSD.string else None)


# ----------------------------------------------------------------------------- evaluation helpers

ERROR = ExprError()


def _strict(fn: Callable[..., Value]) -> Callable[..., Value]:
    """Most operators: an unbound or error argument makes the result an error (§17.2)."""

    def wrapper(*args: Value) -> Value:
        for arg in args:
            if arg is None:
                return ExprError(f"unbound argument of {fn.__name__}")
            if isinstance(arg, ExprError):
                return arg
        return fn(*args)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def ebv(value: Value) -> bool | ExprError:
    """Effective boolean value (§17.2.2)."""
    if value is None:
        return ExprError("unbound")
    if isinstance(value, ExprError):
        return value
    if isinstance(value, Literal):
        if value.datatype == XSD.boolean:
            return bool(boolean_value(value))  # invalid lexical form: false
        if value.datatype in NUMERIC_TYPES:
            n = numeric(value)
            if n is None:
                return False
            return not (n.value == 0 or (isinstance(n.value, float) and math.isnan(n.value)))
        if is_string_literal(value):  # a "plain literal" (simple or language-tagged) or xsd:string
            return len(str(value)) > 0
    return ExprError("no effective boolean value")


def filter_holds(value: Value) -> bool:
    """FILTER semantics: keep the solution iff the EBV is true; error or unbound → False (D6)."""
    result = ebv(value)
    return result is True


# ------------------------------------------------------------------------------------ comparisons


def _same_term(a: Value, b: Value) -> bool:
    """RDF term identity (``sameTerm``): canonical N-Triples equality."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Literal) and isinstance(b, Literal):
        return to_nt(a) == to_nt(b)
    return a == b


def _compare(a: Value, b: Value) -> int | ExprError | None:
    """Three-way comparison for the typed cases of the §17.3 table; ``None``: not such a pair
    (the caller falls back to RDF term equality). NaN compares as 'unordered' (returns 2)."""
    na, nb = numeric(a), numeric(b)
    if na is not None and nb is not None:
        return compare_numbers(na, nb)
    if is_string(a) and is_string(b):
        x, y = str(a), str(b)
        return (x > y) - (x < y)
    ba, bb = boolean_value(a), boolean_value(b)
    if ba is not None and bb is not None:
        return (ba > bb) - (ba < bb)
    ta, tb = _temporal(a), _temporal(b)
    if ta is not None and tb is not None:
        if ta[0] != tb[0]:
            return UNORDERED_TYPES
        return _compare_instants(ta[1], tb[1])
    return None


@_strict
def op_equal(a: Value, b: Value) -> Value:
    """``=`` (§17.3 table; RDFterm-equal §17.4.1.7 as fallback)."""
    c = _compare(a, b)
    if isinstance(c, ExprError):
        return c
    if c is not None:
        return boolean(c == 0)
    if _same_term(a, b):
        return TRUE
    if isinstance(a, Literal) and isinstance(b, Literal):
        if known_types_unequal(_typed(a), _typed(b)):
            return FALSE
        return ExprError("RDFterm-equal of two different literals")
    return FALSE


def _typed(lit: Literal) -> tuple[str, str | None, str | None]:
    return str(lit), None if lit.datatype is None else str(lit.datatype), lit.language


@_strict
def op_not_equal(a: Value, b: Value) -> Value:
    """``!=``: the negation of ``=`` (errors stay errors; NaN != NaN is true)."""
    c = _compare(a, b)
    if isinstance(c, ExprError):
        return c
    if c is not None:
        return boolean(c != 0)
    eq = op_equal(a, b)
    return eq if isinstance(eq, ExprError) else boolean(eq == FALSE)


def _ordering(name: str, test: Callable[[int], bool]) -> Callable[[Value, Value], Value]:
    @_strict
    def op(a: Value, b: Value) -> Value:
        c = _compare(a, b)
        if c is None:
            return ExprError(f"{name} is not defined on these terms")
        if isinstance(c, ExprError):
            return c
        if c == UNORDERED_TYPES:
            return ExprError(f"{name} between an xsd:date and an xsd:dateTime")
        return boolean(c != 2 and test(c))

    op.__name__ = name
    op.__doc__ = f"``{name}`` on numbers, strings, booleans, dateTimes and dates (§17.3)."
    return op


op_less = _ordering("<", lambda c: c < 0)
op_less_equal = _ordering("<=", lambda c: c <= 0)
op_greater = _ordering(">", lambda c: c > 0)
op_greater_equal = _ordering(">=", lambda c: c >= 0)


# ------------------------------------------------------------------------------------- arithmetic



def _arith(name: str, a: Value, b: Value) -> Value:
    na, nb = numeric(a), numeric(b)
    if na is None or nb is None:
        return ExprError(f"{name} needs two numbers")
    kind = max(na.kind, nb.kind)
    if name == "/" and kind == INTEGER:
        kind = DECIMAL
    result = arith_value(name, kind, promote(na, kind), promote(nb, kind))
    return result if isinstance(result, ExprError) else number_literal(kind, result)


@_strict
def op_add(a: Value, b: Value) -> Value:
    """Binary ``+`` (op:numeric-add)."""
    return _arith("+", a, b)


@_strict
def op_multiply(a: Value, b: Value) -> Value:
    """``*`` (op:numeric-multiply)."""
    return _arith("*", a, b)


@_strict
def op_divide(a: Value, b: Value) -> Value:
    """``/`` (op:numeric-divide; integer / integer is a decimal)."""
    return _arith("/", a, b)


def op_plus(*args: Value) -> Value:
    """``+``: binary addition, or unary plus with one argument."""
    return op_add(*args) if len(args) == 2 else _unary_plus(*args)


def op_minus(*args: Value) -> Value:
    """``-``: binary subtraction, or unary minus with one argument."""
    return _subtract(*args) if len(args) == 2 else _unary_minus(*args)


@_strict
def _subtract(a: Value, b: Value) -> Value:
    return _arith("-", a, b)


@_strict
def _unary_minus(a: Value) -> Value:
    n = numeric(a)
    if n is None:
        return ExprError("unary - needs a number")
    value = n.value.copy_negate() if isinstance(n.value, Decimal) else -n.value  # exact
    return number_literal(n.kind, value)


@_strict
def _unary_plus(a: Value) -> Value:
    n = numeric(a)
    if n is None:
        return ExprError("unary + needs a number")
    return number_literal(n.kind, n.value)


# ----------------------------------------------------------------------------------------- logic


def op_not(a: Value) -> Value:
    """``!`` (fn:not of the EBV)."""
    v = ebv(a)
    return v if isinstance(v, ExprError) else boolean(not v)


def op_or(a: Value, b: Value) -> Value:
    """``||`` with the error table of §17.2: true if either side is true, else error if either
    side is an error, else false."""
    x, y = ebv(a), ebv(b)
    if x is True or y is True:
        return TRUE
    if isinstance(x, ExprError):
        return x
    if isinstance(y, ExprError):
        return y
    return FALSE


def op_and(a: Value, b: Value) -> Value:
    """``&&`` with the error table of §17.2: false if either side is false, else error if either
    side is an error, else true."""
    x, y = ebv(a), ebv(b)
    if x is False or y is False:
        return FALSE
    if isinstance(x, ExprError):
        return x
    if isinstance(y, ExprError):
        return y
    return TRUE


# ------------------------------------------------------------------------ functional forms §17.4.1


def fn_bound(a: Value) -> Value:
    """BOUND(?x) (§17.4.1.1); the argument is the variable's value (``None`` if unbound)."""
    if isinstance(a, ExprError):
        return a
    return boolean(a is not None)


def fn_if(cond: Value, then: Value, otherwise: Value) -> Value:
    """IF (§17.4.1.2): error if the condition's EBV is an error, else the chosen branch."""
    c = ebv(cond)
    if isinstance(c, ExprError):
        return c
    chosen = then if c else otherwise
    return ExprError("unbound") if chosen is None else chosen


def fn_coalesce(*args: Value) -> Value:
    """COALESCE (§17.4.1.4): the first argument that is bound and not an error."""
    for arg in args:
        if arg is not None and not isinstance(arg, ExprError):
            return arg
    return ExprError("COALESCE: no bound argument")


@_strict
def fn_same_term(a: Value, b: Value) -> Value:
    """sameTerm (§17.4.1.8)."""
    return boolean(_same_term(a, b))


# ------------------------------------------------------------------------ term functions §17.4.2


@_strict
def fn_is_iri(a: Value) -> Value:
    """isIRI / isURI (§17.4.2.1)."""
    return boolean(isinstance(a, URIRef))


@_strict
def fn_is_blank(a: Value) -> Value:
    """isBlank (§17.4.2.2)."""
    return boolean(isinstance(a, BNode))


@_strict
def fn_is_literal(a: Value) -> Value:
    """isLiteral (§17.4.2.3)."""
    return boolean(isinstance(a, Literal))


@_strict
def fn_is_numeric(a: Value) -> Value:
    """isNumeric (§17.4.2.4): a numeric literal with a valid lexical form (range included)."""
    return boolean(numeric(a) is not None)


@_strict
def fn_str(a: Value) -> Value:
    """STR (§17.4.2.5): the lexical form or the IRI as a simple literal; error on a blank node."""
    if isinstance(a, (URIRef, Literal)):
        return Literal(str(a))
    return ExprError("STR of a blank node")


@_strict
def fn_lang(a: Value) -> Value:
    """LANG (§17.4.2.6); the tag in lower case, its canonical form (D7, tags are case-insensitive)."""
    if isinstance(a, Literal):
        return Literal((a.language or "").lower())
    return ExprError("LANG of a non-literal")


@_strict
def fn_datatype(a: Value) -> Value:
    """DATATYPE (§17.4.2.7): xsd:string for simple literals, rdf:langString for tagged ones."""
    if not isinstance(a, Literal):
        return ExprError("DATATYPE of a non-literal")
    if a.language:
        return RDF.langString
    return a.datatype or XSD.string


@_strict
def fn_iri(a: Value) -> Value:
    """IRI / URI (§17.4.2.8) of an IRI or a simple literal; the base IRI is applied by
    :func:`resolve_iri` where the query has one."""
    if isinstance(a, URIRef):
        return a
    if is_string(a):
        return URIRef(str(a))
    return ExprError("IRI of a non-string")


def resolve_iri(value: Value, base: str) -> Value:
    """The result of IRI/URI resolved against the query's base IRI (SPARQL 1.1 §17.4.2.8: "the IRI
    is resolved against the base IRI"; RFC 3986 §5.2); absolute IRIs and errors pass unchanged."""
    if isinstance(value, URIRef) and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", str(value)):
        return URIRef(urljoin(base, str(value)))
    return value


# ---------------------------------------------------------------------- string functions §17.4.3


def _compatible(a: Literal, b: Literal) -> bool:
    """Argument compatibility (§17.4.3.1.2)."""
    if not (is_string_literal(a) and is_string_literal(b)):
        return False
    if b.language:
        return a.language is not None and a.language.lower() == b.language.lower()
    return True


@_strict
def fn_strlen(a: Value) -> Value:
    """STRLEN (§17.4.3.2): the number of characters (code points)."""
    if not is_string_literal(a):
        return ExprError("STRLEN of a non-string")
    return integer(len(str(a)))


def _integer_arg(a: Value) -> int | None:
    n = numeric(a)
    return n.value if n is not None and n.kind == INTEGER else None  # type: ignore[return-value]


def fn_substr(source: Value, start: Value, length: Value | EllipsisType = ...) -> Value:
    """SUBSTR (§17.4.3.3, fn:substring): 1-based ``start``; ``start``/``length`` are xsd:integer."""
    args = (source, start) if length is ... else (source, start, length)
    return _substr(*args)


@_strict
def _substr(source: Value, start: Value, length: Value = None) -> Value:
    if not is_string_literal(source):
        return ExprError("SUBSTR of a non-string")
    s = _integer_arg(start)
    n = None if length is None else _integer_arg(length)
    if s is None or (length is not None and n is None):
        return ExprError("SUBSTR needs integer positions")
    text = str(source)
    chars = [c for p, c in enumerate(text, start=1) if p >= s and (n is None or p < s + n)]
    return _string_like(source, "".join(chars))  # type: ignore[arg-type]


@_strict
def fn_ucase(a: Value) -> Value:
    """UCASE (§17.4.3.4)."""
    if not is_string_literal(a):
        return ExprError("UCASE of a non-string")
    return _string_like(a, str(a).upper())  # type: ignore[arg-type]


@_strict
def fn_lcase(a: Value) -> Value:
    """LCASE (§17.4.3.5)."""
    if not is_string_literal(a):
        return ExprError("LCASE of a non-string")
    return _string_like(a, str(a).lower())  # type: ignore[arg-type]


def _string_test(name: str, test: Callable[[str, str], bool]) -> Callable[[Value, Value], Value]:
    @_strict
    def fn(a: Value, b: Value) -> Value:
        if not (isinstance(a, Literal) and isinstance(b, Literal) and _compatible(a, b)):
            return ExprError(f"{name}: incompatible arguments")
        return boolean(test(str(a), str(b)))

    fn.__name__ = name
    fn.__doc__ = f"{name} (§17.4.3) on argument-compatible string literals."
    return fn


fn_strstarts = _string_test("STRSTARTS", str.startswith)
fn_strends = _string_test("STRENDS", str.endswith)
fn_contains = _string_test("CONTAINS", lambda a, b: b in a)


@_strict
def fn_strbefore(a: Value, b: Value) -> Value:
    """STRBEFORE (§17.4.3.9)."""
    if not (isinstance(a, Literal) and isinstance(b, Literal) and _compatible(a, b)):
        return ExprError("STRBEFORE: incompatible arguments")
    i = str(a).find(str(b))
    if i < 0:
        return Literal("")
    return _string_like(a, str(a)[:i])


@_strict
def fn_strafter(a: Value, b: Value) -> Value:
    """STRAFTER (§17.4.3.10)."""
    if not (isinstance(a, Literal) and isinstance(b, Literal) and _compatible(a, b)):
        return ExprError("STRAFTER: incompatible arguments")
    i = str(a).find(str(b))
    if i < 0:
        return Literal("")
    return _string_like(a, str(a)[i + len(str(b)):])


def fn_concat(*args: Value) -> Value:
    """CONCAT (§17.4.3.12): keeps a language tag (or xsd:string) shared by every argument."""
    for arg in args:
        if arg is None or isinstance(arg, ExprError):
            return arg if isinstance(arg, ExprError) else ExprError("unbound argument of CONCAT")
        if not is_string_literal(arg):
            return ExprError("CONCAT of a non-string")
    text = "".join(str(a) for a in args)
    langs = {a.language.lower() if a.language else None for a in args}  # type: ignore[union-attr]
    if args and len(langs) == 1 and None not in langs:
        return Literal(text, lang=langs.pop())
    return Literal(text)


_FLAGS = {"i": re.IGNORECASE, "s": re.DOTALL, "m": re.MULTILINE, "x": re.VERBOSE}


@lru_cache(maxsize=1024)
def _regex(pattern: str, flags: str) -> re.Pattern[str] | None:
    """An XPath regular expression (F&O §5.6.1) as a Python pattern, or None if invalid.

    ``q`` quotes the pattern; ``$`` outside a character class only matches at the very end unless
    ``m`` is given (Python's ``$`` would also match before a final newline); ``\\p{…}`` and other
    XSD-only escapes are not supported by Python and make the pattern invalid.
    """
    if any(f not in "ismxq" for f in flags):
        return None
    flag_bits = 0
    for f in flags:
        flag_bits |= _FLAGS.get(f, 0)
    if "q" in flags:
        source = re.escape(pattern)
    else:
        source = _translate_dollar(pattern, multiline="m" in flags)
    try:
        return re.compile(source, flag_bits)
    except re.error:
        return None


def _translate_dollar(pattern: str, *, multiline: bool) -> str:
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "$" and not in_class:
            out.append("(?=\\n|\\Z)" if multiline else "\\Z")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def fn_regex(text: Value, pattern: Value, flags: Value | EllipsisType = ...) -> Value:
    """REGEX (§17.4.3.14): XPath fn:matches with flags ``s m i x q``."""
    args = (text, pattern) if flags is ... else (text, pattern, flags)
    return _regex_match(*args)


@_strict
def _regex_match(text: Value, pattern: Value, flags: Value = Literal("")) -> Value:
    if not (is_string_literal(text) and is_string(pattern) and is_string(flags)):
        return ExprError("REGEX: text must be a string literal, pattern and flags simple literals")
    compiled = _regex(str(pattern), str(flags))
    if compiled is None:
        return ExprError("REGEX: invalid pattern or flags")
    return boolean(compiled.search(str(text)) is not None)


def fn_replace(arg: Value, pattern: Value, replacement: Value, flags: Value | EllipsisType = ...) -> Value:
    """REPLACE (§17.4.3.15): XPath fn:replace (``$n`` group references, ``\\$`` and ``\\\\``)."""
    args = (arg, pattern, replacement) if flags is ... else (arg, pattern, replacement, flags)
    return _replace(*args)


_REPLACEMENT = re.compile(r"\\[\\$]|\$[0-9]+|[\\$]")


def _expand(replacement: str, match: re.Match[str], groups: int) -> str:
    """One XPath replacement string for ``match``: ``$n`` is group n (the longest prefix of the
    digits naming an existing group; a group that did not match is empty), ``\\$`` and ``\\\\``
    are literal characters."""

    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token.startswith("\\"):
            return token[1]
        digits = token[1:]
        while len(digits) > 1 and int(digits) > groups:
            digits = digits[:-1]
        n = int(digits)
        value = (match.group(n) or "") if n <= groups else ""
        return value + token[1 + len(digits):]

    return _REPLACEMENT.sub(one, replacement)


@_strict
def _replace(arg: Value, pattern: Value, replacement: Value, flags: Value = Literal("")) -> Value:
    if not (is_string_literal(arg) and is_string(pattern) and is_string(replacement) and is_string(flags)):
        return ExprError("REPLACE: wrong argument types")
    compiled = _regex(str(pattern), str(flags))
    if compiled is None or compiled.match(""):
        return ExprError("REPLACE: invalid pattern, or one that matches the empty string")
    rep = str(replacement)
    if any(m.group(0) in ("\\", "$") for m in _REPLACEMENT.finditer(rep)):
        return ExprError("REPLACE: a lone \\ or $ in the replacement")
    if "q" in str(flags):
        return _string_like(arg, compiled.sub(lambda m: rep, str(arg)))  # type: ignore[arg-type]
    return _string_like(arg, compiled.sub(lambda m: _expand(rep, m, compiled.groups), str(arg)))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- numeric functions §17.4.4


def _rounding(name: str, decimal_mode: str, float_fn: Callable[[float], float]) -> Callable[[Value], Value]:
    @_strict
    def fn(a: Value) -> Value:
        n = numeric(a)
        if n is None:
            return ExprError(f"{name} of a non-number")
        if n.kind == INTEGER:
            return number_literal(INTEGER, n.value)
        if n.kind == DECIMAL:
            return number_literal(DECIMAL, Decimal(n.value).quantize(Decimal(1), rounding=decimal_mode, context=EXACT_CONTEXT))
        x = float(n.value)
        if math.isnan(x) or math.isinf(x):
            return number_literal(n.kind, x)
        return number_literal(n.kind, float_fn(x))

    fn.__name__ = name
    fn.__doc__ = f"{name} (§17.4.4): the type of the argument is kept (integer types → xsd:integer)."
    return fn


def _round_half_up(x: float) -> float:
    """fn:round: the nearest integer, halves towards positive infinity; keeps -0.0."""
    if abs(x) >= 2.0**52:  # already an integer
        return x
    r = math.floor(x)
    if x - r >= 0.5:  # exact: x - floor(x) has no rounding error below 2**52
        r += 1
    if r == 0 and (x < 0 or math.copysign(1, x) < 0):
        return -0.0
    return float(r)


def _decimal_round_half_up(d: Decimal) -> Decimal:
    return EXACT_CONTEXT.add(d, Decimal("0.5")).quantize(Decimal(1), rounding=ROUND_FLOOR, context=EXACT_CONTEXT)


def _ceil(x: float) -> float:
    r = float(math.ceil(x))
    return -0.0 if r == 0 and (x < 0 or math.copysign(1, x) < 0) else r


def _floor(x: float) -> float:
    return x if x == 0 else float(math.floor(x))


fn_ceil = _rounding("CEIL", ROUND_CEILING, _ceil)
fn_floor = _rounding("FLOOR", ROUND_FLOOR, _floor)
fn_round_float = _rounding("ROUND", ROUND_HALF_UP, _round_half_up)


@_strict
def fn_round(a: Value) -> Value:
    """ROUND (§17.4.4.3, fn:round): halves are rounded towards positive infinity."""
    n = numeric(a)
    if n is not None and n.kind == DECIMAL:
        return number_literal(DECIMAL, _decimal_round_half_up(Decimal(n.value)))
    return fn_round_float(a)


@_strict
def fn_abs(a: Value) -> Value:
    """ABS (§17.4.4.1)."""
    n = numeric(a)
    if n is None:
        return ExprError("ABS of a non-number")
    value = n.value.copy_abs() if isinstance(n.value, Decimal) else abs(n.value)  # exact
    return number_literal(n.kind, value)


# ------------------------------------------------------------------- date/time functions §17.4.5


def _datetime_part(name: str, part: Callable[[datetime], int]) -> Callable[[Value], Value]:
    @_strict
    def fn(a: Value) -> Value:
        d = datetime_value(a)
        if d is None:
            return ExprError(f"{name} of a non-dateTime")
        return integer(part(d))

    fn.__name__ = name
    fn.__doc__ = f"{name} (§17.4.5) of an xsd:dateTime."
    return fn


fn_year = _datetime_part("YEAR", lambda d: d.year)
fn_month = _datetime_part("MONTH", lambda d: d.month)
fn_day = _datetime_part("DAY", lambda d: d.day)
fn_hours = _datetime_part("HOURS", lambda d: d.hour)
fn_minutes = _datetime_part("MINUTES", lambda d: d.minute)


@_strict
def fn_seconds(a: Value) -> Value:
    """SECONDS (§17.4.5.7): an xsd:decimal with the fractional seconds of the lexical form."""
    if datetime_value(a) is None:
        return ExprError("SECONDS of a non-dateTime")
    m = re.search(r"T\d{2}:\d{2}:(\d{2}(?:\.\d+)?)", str(a))
    return number_literal(DECIMAL, Decimal(m.group(1)))  # type: ignore[union-attr]


# --------------------------------------------- more functions of §17.4: RDF terms, hashes, time zones


@_strict
def fn_strdt(lex: Value, datatype: Value) -> Value:
    """STRDT (§17.4.2.11): a literal with the lexical form of a simple literal and a datatype IRI."""
    if not (is_string(lex) and isinstance(datatype, URIRef)):
        return ExprError("STRDT needs a simple literal and an IRI")
    return Literal(str(lex), datatype=datatype, normalize=False)


_LANGTAG = re.compile(r"[A-Za-z]+(?:-[A-Za-z0-9]+)*\Z")


@_strict
def fn_strlang(lex: Value, tag: Value) -> Value:
    """STRLANG (§17.4.2.12): a language-tagged literal from a simple literal and a tag."""
    if not (is_string(lex) and is_string(tag)) or not _LANGTAG.match(str(tag)):
        return ExprError("STRLANG needs a simple literal and a language tag")
    return Literal(str(lex), lang=str(tag))


@_strict
def fn_encode_for_uri(a: Value) -> Value:
    """ENCODE_FOR_URI (§17.4.3.11): percent-encode every character but the unreserved ones (UTF-8)."""
    from urllib.parse import quote

    if not is_string_literal(a):
        return ExprError("ENCODE_FOR_URI needs a string literal")
    return Literal(quote(str(a), safe="-_.~"))


def _hash(name: str, algorithm: str) -> Callable[[Value], Value]:
    import hashlib

    @_strict
    def fn(a: Value) -> Value:
        if not is_string(a):
            return ExprError(f"{name} needs a simple literal or xsd:string")
        return Literal(hashlib.new(algorithm, str(a).encode("utf-8")).hexdigest())

    fn.__name__ = name
    fn.__doc__ = f"{name} (§17.4.6): the lower-case hex digest of the UTF-8 string, a simple literal."
    return fn


def _timezone_offset(a: Value) -> tuple[bool, int] | None:
    """(has a time zone, offset in minutes) of a valid xsd:dateTime, else None."""
    if datetime_value(a) is None:
        return None
    m = re.search(r"(Z|[+-]\d{2}:\d{2})\Z", str(a).strip())
    if m is None:
        return (False, 0)
    if m.group(1) == "Z":
        return (True, 0)
    sign = -1 if m.group(1)[0] == "-" else 1
    return (True, sign * (int(m.group(1)[1:3]) * 60 + int(m.group(1)[4:6])))


@_strict
def fn_tz(a: Value) -> Value:
    """TZ (§17.4.5.9): the time zone part of a dateTime as a simple literal ("" if none)."""
    if _timezone_offset(a) is None:
        return ExprError("TZ of a non-dateTime")
    m = re.search(r"(Z|[+-]\d{2}:\d{2})\Z", str(a).strip())
    return Literal(m.group(1) if m else "")


@_strict
def fn_timezone(a: Value) -> Value:
    """TIMEZONE (§17.4.5.8): the time zone as an xsd:dayTimeDuration; an error without one."""
    tz = _timezone_offset(a)
    if tz is None or not tz[0]:
        return ExprError("TIMEZONE of a dateTime without time zone")
    minutes = tz[1]
    if minutes == 0:
        return Literal("PT0S", datatype=XSD.dayTimeDuration, normalize=False)
    hours, rest = divmod(abs(minutes), 60)
    text = ("-" if minutes < 0 else "") + "PT" + (f"{hours}H" if hours else "") + (f"{rest}M" if rest else "")
    return Literal(text, datatype=XSD.dayTimeDuration, normalize=False)


# ------------------------------------------------------------------------ casts §17.5 (XPath constructors)

def _xpath_string(num: Number) -> str:
    """A number cast to xsd:string (XPath F&O 3.1 §19.1.2): integers and decimals without a
    trailing ``.0``; a float or double of magnitude in [1e-6, 1e6) as that decimal, else in the
    canonical exponent form (``1.0E7``, ``INF``, ``NaN``)."""

    def decimal_text(d: Decimal) -> str:
        d = d.normalize(EXACT_CONTEXT)
        return str(int(d)) if d == d.to_integral_value() else format(d, "f")

    if num.kind == INTEGER:
        return str(num.value)
    if num.kind == DECIMAL:
        return decimal_text(Decimal(num.value))
    x = float(num.value)
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    if not math.isnan(x) and not math.isinf(x) and 1e-6 <= abs(x) < 1e6:
        text = double_lexical(x, single=num.kind == FLOAT)  # shortest digits, as E-notation
        return decimal_text(Decimal(text.replace("E", "e")))
    return double_lexical(x, single=num.kind == FLOAT)


CAST_TYPES = (XSD.string, XSD.boolean, XSD.integer, XSD.decimal, XSD.float, XSD.double, XSD.dateTime)


def cast(target: URIRef, a: Value) -> Value:
    """``xsd:T(a)`` (SPARQL 1.1 §17.5, the XPath casting table restricted to the types SPARQL
    lists): from an IRI only to xsd:string; from a string by the target's lexical space (leading
    and trailing whitespace removed); between numbers and booleans by value (a float or double to
    xsd:integer truncates; NaN or INF to integer or decimal is an error); anything else is an error."""
    if a is None or isinstance(a, ExprError):
        return a if isinstance(a, ExprError) else ExprError("unbound argument of a cast")
    if target not in CAST_TYPES:
        return ExprError(f"no cast to {target}")
    if isinstance(a, BNode):
        return ExprError("a blank node cannot be cast")
    if isinstance(a, URIRef):
        return Literal(str(a), datatype=XSD.string) if target == XSD.string else ExprError("an IRI casts only to xsd:string")
    if a.language:
        return ExprError("a language-tagged literal cannot be cast")
    num, flag = numeric(a), boolean_value(a)
    if target == XSD.string:
        if num is not None:
            return Literal(_xpath_string(num), datatype=XSD.string)
        if flag is not None:
            return Literal("true" if flag else "false", datatype=XSD.string)
        if a.datatype in NUMERIC_TYPES or a.datatype == XSD.boolean:
            return ExprError("ill-typed literal")
        return Literal(str(a), datatype=XSD.string)
    if is_string(a):
        lex = str(a).strip()
        candidate = Literal(lex, datatype=target, normalize=False)
        valid = {XSD.boolean: boolean_value, XSD.dateTime: datetime_value}.get(target, numeric)(candidate)
        if valid is None:
            return ExprError(f"{lex!r} is not in the lexical space of {target}")
        if target == XSD.boolean:
            return boolean(valid)  # type: ignore[arg-type]
        if target == XSD.dateTime:
            return Literal(lex, datatype=XSD.dateTime, normalize=False)
        return number_literal(valid.kind, valid.value)  # type: ignore[union-attr]
    if target == XSD.dateTime:
        return Literal(str(a).strip(), datatype=XSD.dateTime, normalize=False) if datetime_value(a) else ExprError("not a dateTime")
    if flag is not None:
        if target == XSD.boolean:
            return boolean(flag)
        kind = {XSD.integer: INTEGER, XSD.decimal: DECIMAL, XSD.float: FLOAT, XSD.double: DOUBLE}[target]
        return number_literal(kind, int(flag))
    if num is None:
        return ExprError("only strings, numbers and booleans can be cast")
    if target == XSD.boolean:
        return boolean(not (num.value == 0 or (isinstance(num.value, float) and math.isnan(num.value))))
    kind = {XSD.integer: INTEGER, XSD.decimal: DECIMAL, XSD.float: FLOAT, XSD.double: DOUBLE}[target]
    value = num.value
    if kind in (INTEGER, DECIMAL) and isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return ExprError("NaN or INF cast to an exact number")
        value = Decimal(value)
    if kind == INTEGER:
        return number_literal(INTEGER, int(value))  # truncation towards zero
    if kind == DECIMAL:
        return number_literal(DECIMAL, Decimal(value))
    return number_literal(kind, float(value))


# ----------------------------------------------------------------------------------- dispatching

OPERATORS: dict[str, Callable[..., Value]] = {
    "=": op_equal,
    "!=": op_not_equal,
    "<": op_less,
    "<=": op_less_equal,
    ">": op_greater,
    ">=": op_greater_equal,
    "+": op_plus,
    "-": op_minus,
    "*": op_multiply,
    "/": op_divide,
    "!": op_not,
    "&&": op_and,
    "||": op_or,
    "BOUND": fn_bound,
    "IF": fn_if,
    "COALESCE": fn_coalesce,
    "SAMETERM": fn_same_term,
    "ISIRI": fn_is_iri,
    "ISURI": fn_is_iri,
    "ISBLANK": fn_is_blank,
    "ISLITERAL": fn_is_literal,
    "ISNUMERIC": fn_is_numeric,
    "STR": fn_str,
    "LANG": fn_lang,
    "DATATYPE": fn_datatype,
    "IRI": fn_iri,
    "URI": fn_iri,
    "STRLEN": fn_strlen,
    "SUBSTR": fn_substr,
    "UCASE": fn_ucase,
    "LCASE": fn_lcase,
    "STRSTARTS": fn_strstarts,
    "STRENDS": fn_strends,
    "CONTAINS": fn_contains,
    "STRBEFORE": fn_strbefore,
    "STRAFTER": fn_strafter,
    "CONCAT": fn_concat,
    "REGEX": fn_regex,
    "REPLACE": fn_replace,
    "ABS": fn_abs,
    "ROUND": fn_round,
    "CEIL": fn_ceil,
    "FLOOR": fn_floor,
    "YEAR": fn_year,
    "MONTH": fn_month,
    "DAY": fn_day,
    "HOURS": fn_hours,
    "MINUTES": fn_minutes,
    "SECONDS": fn_seconds,
    "STRDT": fn_strdt,
    "STRLANG": fn_strlang,
    "ENCODE_FOR_URI": fn_encode_for_uri,
    "MD5": _hash("MD5", "md5"),
    "SHA1": _hash("SHA1", "sha1"),
    "SHA256": _hash("SHA256", "sha256"),
    "SHA384": _hash("SHA384", "sha384"),
    "SHA512": _hash("SHA512", "sha512"),
    "TZ": fn_tz,
    "TIMEZONE": fn_timezone,
}
"""Operator name → function. Symbols as written in SPARQL (unary ``-``/``+`` are ``"-"``/``"+"``
with one argument), function names in upper case."""


@_strict
def fn_langmatches(tag: Value, range_: Value) -> Value:
    """LANGMATCHES (§17.4.3.13, RFC 4647 basic filtering; ``*`` matches any non-empty tag)."""
    if not (is_string(tag) and is_string(range_)):
        return ExprError("LANGMATCHES needs simple literals")
    t, r = str(tag).lower(), str(range_).lower()
    if r == "*":
        return boolean(t != "")
    return boolean(t == r or t.startswith(r + "-"))


OPERATORS["LANGMATCHES"] = fn_langmatches  # defined after the table

#: allowed argument counts per operator
ARITY: dict[str, tuple[int, int | None]] = {
    "+": (1, 2), "-": (1, 2), "!": (1, 1), "BOUND": (1, 1), "IF": (3, 3), "COALESCE": (0, None),
    "CONCAT": (0, None), "SUBSTR": (2, 3), "REGEX": (2, 3), "REPLACE": (3, 4),
    "SAMETERM": (2, 2), "LANGMATCHES": (2, 2), "STRDT": (2, 2), "STRLANG": (2, 2), "STRSTARTS": (2, 2), "STRENDS": (2, 2),
    "CONTAINS": (2, 2), "STRBEFORE": (2, 2), "STRAFTER": (2, 2),
    **{op: (2, 2) for op in ("=", "!=", "<", "<=", ">", ">=", "*", "/", "&&", "||")},
}


def operator_key(name: str) -> str:
    """The :data:`OPERATORS` key of a name as written in a query (case-insensitive functions)."""
    return name if name in OPERATORS else name.upper()


def call(name: str, args: Sequence[Value]) -> Value:
    """Apply operator ``name`` to ``args``: a term, or an :class:`ExprError`; never raises for
    bad values. An unknown operator or a wrong number of arguments is an
    :class:`~lars.errors.UnsupportedError` (a translation problem, not a value). A function that
    raises anything but :data:`~translator.rdf.sparql_ops.VALUE_EXCEPTIONS` has a bug:
    :class:`~translator.rdf.sparql_ops.SparqlFunctionFailure`, which stops the run."""
    key = operator_key(name)
    fn = OPERATORS.get(key)
    if fn is None:
        raise UnsupportedError(f"SPARQL function {name}", "FILTER evaluation",
                               f"supported: {', '.join(sorted(OPERATORS))}")
    lo, hi = ARITY.get(key, (1, 1))
    if len(args) < lo or (hi is not None and len(args) > hi):
        raise UnsupportedError(f"{key} with {len(args)} argument(s)", "FILTER evaluation")
    try:
        return fn(*args)
    except VALUE_EXCEPTIONS as err:  # a value the function cannot handle: SPARQL's error (§17.2)
        return ExprError(f"{name}: {type(err).__name__}: {err}")
    except Exception as err:  # a bug: it stops the run rather than make a FILTER false silently
        shown = ", ".join("unbound" if a is None else a.reason if isinstance(a, ExprError) else to_nt(a) for a in args)
        raise SparqlFunctionFailure(f"the SPARQL function {name}({shown}) failed: {type(err).__name__}: {err}") from err


# ------------------------------------------------------------- N-Triples adapters (clingo context)


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _term(text: str) -> Value:
    return from_nt(text)


def _from_text(text: str | None) -> Value:
    return None if text is None or text == "null" else _term(text)


def call_nt(name: str, args: Sequence[str | None]) -> str | None:
    """:func:`call` on N-Triples texts (``None`` or ``"null"``: unbound), for grounding-time use
    (e.g. a clingo context function). Returns the result's N-Triples text, or ``None`` for an
    error — which BIND leaves unbound (§18.6 Extend) and which, inside an expression, behaves
    exactly like an unbound operand (§17.2; BOUND only takes a variable), so a nested call can
    pass the ``None`` on."""
    result = call(name, [_from_text(a) for a in args])
    if result is None or isinstance(result, ExprError):
        return None
    return to_nt(result)


def holds_nt(text: str | None) -> bool:
    """FILTER on an N-Triples value: :func:`filter_holds` (``None``/``"null"``: false)."""
    return filter_holds(_from_text(text))
