"""xsd:dateTime and xsd:date comparisons (SPARQL 1.1 §17.3 op:dateTime-equal/-less-than, XSD 1.1
§3.2.7.4's partial order): a value without a time zone stands for every zone from −14:00 to +14:00,
so against a zoned value it compares only when more than 14 hours apart, else a type error."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal
from rdflib.namespace import XSD

from translator.rdf.sparql_ops import ExprError
from translator.rdf.sparql_terms import call

OPS = ("=", "!=", "<", "<=", ">", ">=")
TRUTH = {"=": lambda c: c == 0, "!=": lambda c: c != 0, "<": lambda c: c < 0, "<=": lambda c: c <= 0,
         ">": lambda c: c > 0, ">=": lambda c: c >= 0}


def dt(text: str) -> Literal:
    return Literal(text, datatype=XSD.dateTime, normalize=False)


def date(text: str) -> Literal:
    return Literal(text, datatype=XSD.date, normalize=False)


def result(op, a, b):
    got = call(op, [a, b])
    return "error" if isinstance(got, ExprError) else str(got) == "true"


def test_the_fourteen_hour_boundary() -> None:
    local = dt("2008-10-01T12:00:00")
    assert result("<", dt("2008-09-30T21:59:59Z"), local) is True  # below local at +14:00
    assert result("<", dt("2008-09-30T22:00:00Z"), local) == "error"  # = local at +14:00: indeterminate
    assert result("=", dt("2008-10-01T12:00:00Z"), local) == "error"
    assert result(">", dt("2008-10-02T02:00:01Z"), local) is True  # above local at −14:00
    assert result(">", dt("2008-10-02T02:00:00Z"), local) == "error"
    assert result("=", dt("2008-10-03T00:00:00Z"), local) is False  # determinate: unequal
    assert result("!=", local, dt("2008-10-03T00:00:00Z")) is True


def test_dates_24_00_and_types() -> None:
    assert result("=", dt("1999-12-31T24:00:00"), dt("2000-01-01T00:00:00")) is True
    assert result("=", dt("2002-04-02T23:00:00-04:00"), dt("2002-04-03T02:00:00-01:00")) is True
    assert result(">", date("2006-08-23"), date("2006-08-22Z")) is True  # 24 hours apart
    assert result("=", date("2006-08-23"), date("2006-08-23Z")) == "error"
    assert result("<", date("2006-08-23+02:00"), date("2006-08-23Z")) is True
    assert result("!=", dt("2006-08-23T09:00:00+01:00"), date("2006-08-23")) is True  # disjoint value spaces
    assert result("<", dt("2006-08-23T09:00:00+01:00"), date("2006-08-23")) == "error"


MOMENTS = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2030, 1, 1)).map(lambda d: d.replace(microsecond=0))
ZONES = st.one_of(st.none(), st.integers(-14 * 4, 14 * 4).map(lambda q: timezone(timedelta(minutes=15 * q))))


def lexical(moment: datetime, zone) -> str:
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if zone is None:
        return text
    minutes = int(zone.utcoffset(None).total_seconds() // 60)
    return text + ("Z" if minutes == 0 else f"{'+' if minutes > 0 else '-'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}")


ALL_ZONES = [timezone(timedelta(minutes=15 * q)) for q in range(-14 * 4, 14 * 4 + 1)]


@settings(max_examples=300, deadline=None)
@given(a=MOMENTS, za=ZONES, b=MOMENTS, zb=ZONES)
def test_as_the_partial_order_defines(a, za, b, zb) -> None:
    """Against a direct reading of the partial order: an unzoned value takes, in turn, every zone
    from −14:00 to +14:00 (quarter hours); the same comparison under all of them is the answer,
    different ones make it indeterminate (a type error); two unzoned values compare as written."""
    if za is None and zb is None:
        outcomes = {(a > b) - (a < b)}
    else:
        xs = [a.replace(tzinfo=z) for z in ([za] if za else ALL_ZONES)]
        ys = [b.replace(tzinfo=z) for z in ([zb] if zb else ALL_ZONES)]
        outcomes = {(x > y) - (x < y) for x in xs for y in ys}
    for op in OPS:
        want = TRUTH[op](next(iter(outcomes))) if len(outcomes) == 1 else "error"
        assert result(op, dt(lexical(a, za)), dt(lexical(b, zb))) == want, (op, lexical(a, za), lexical(b, zb))


def test_order_by_sorts_mixed_zones(rsplars) -> None:
    """ORDER BY has a total order: mixed zones sort without dropping a row (no zone read as Z)."""
    data = "".join(f'<http://e/{k}> <http://e/at> "{v}"^^<http://www.w3.org/2001/XMLSchema#dateTime> .\n'
                   for k, v in enumerate(["2008-10-01T12:00:00", "2008-10-01T11:00:00Z", "2008-10-01T13:00:00+00:00"]))
    run = rsplars("SELECT ?s ?d WHERE { ?s <http://e/at> ?d } ORDER BY ?d", data)
    assert run.code == 0, run.err
    assert [a["s"] for a in run.answers()] == ["<http://e/1>", "<http://e/0>", "<http://e/2>"]
