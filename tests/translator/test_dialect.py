"""Dialect detection and the window/duration model."""

from __future__ import annotations

from decimal import Decimal

import pytest

from translator.query.dialect import detect_dialect
from translator.query.errors import DialectMismatchError
from translator.query.model import Duration
from translator.query.parse import parse


@pytest.mark.parametrize(
    "text, dialect, reason",
    [
        ("SELECT ?x FROM STREAM <s> [RANGE 1s STEP 1s] WHERE { ?x ?p ?o }", "csparql", "FROM STREAM at 1:11"),
        ("REGISTER QUERY q AS SELECT * WHERE { ?x ?p ?o }", "csparql", "REGISTER QUERY at 1:1"),
        ("SELECT ?x WHERE {\n  STREAM <s> [NOW] { ?x ?p ?o } }", "cqels", "STREAM graph pattern at 2:3"),
        ("SELECT ?x WHERE { {?x ?p ?o} seq {?x ?q ?o} }", "epsparql", "SEQ at 1:30"),
        ("# STREAM in a comment\nSELECT ?x WHERE { ?x <http://e/STREAM> 'SEQ' }", "csparql", "plain SPARQL"),
    ],
)
def test_detection(text, dialect, reason):
    d = detect_dialect(text)
    assert d.dialect == dialect and reason in d.reason


def test_mixed_dialects_rejected():
    with pytest.raises(DialectMismatchError):
        detect_dialect("SELECT ?x FROM STREAM <s> [RANGE 1s] WHERE { {?a ?b ?c} SEQ {?a ?b ?d} }")


@pytest.mark.parametrize(
    "written, value, unit, ms",
    [("10m", 10, "m", 600_000), ("3000ms", 3000, "ms", 3000), ("24 h", 24, "h", 86_400_000),
     ("1.5s", Decimal("1.5"), "s", 1500), ("2D", 2, "d", 172_800_000)],
)
def test_durations_keep_written_units(written, value, unit, ms):
    q = parse(f"SELECT ?x WHERE {{ STREAM <http://s> [RANGE {written}] {{ ?x <http://p> ?y }} }}", "cqels")
    d = q.where.parts[0].window.range
    assert (d.value, d.unit, d.ms) == (value, unit, ms)


def test_xsd_duration_window():
    q = parse('PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n'
              'SELECT ?x WHERE { STREAM <http://s> [RANGE "PT1H30M"^^xsd:duration SLIDE "P1D"^^xsd:duration] { ?x <http://p> ?y } }', "cqels")
    w = q.where.parts[0].window
    assert (w.range.unit, w.range.lexical, w.range.ms, w.step.ms) == ("xsd:duration", "PT1H30M", 5_400_000, 86_400_000)
    assert Duration.from_xsd("P1W").ms == 7 * 86_400_000


@pytest.mark.parametrize(
    "window, kind, rows",
    [("[NOW]", "now", None), ("[ALL]", "all", None), ("[RANGE UNBOUNDED]", "all", None), ("[TRIPLES 5]", "triples", 5),
     ("[ROWS 7]", "rows", 7), ("[RANGE 5m TUMBLING]", "tumbling", None)],
)
def test_cqels_window_kinds(window, kind, rows):
    q = parse(f"SELECT ?x WHERE {{ STREAM ?s {window} {{ ?x <http://p> ?y }} }}", "cqels")
    w = q.where.parts[0].window
    assert (w.kind, w.rows) == (kind, rows)


def test_csparql_windows_and_named_stream():
    q = parse("SELECT ?x FROM NAMED STREAM <http://s> [RANGE TRIPLES 10] FROM STREAM <http://t> [range 1h tumbling] "
              "WHERE { GRAPH <http://s> { ?x <http://p> ?y } }", "csparql")
    s, t = q.dataset.streams
    assert (s.named, s.window.kind, s.window.rows) == (True, "triples", 10)
    assert (t.named, t.window.kind, t.window.range.ms) == (False, "tumbling", 3_600_000)


def test_case_insensitive_keywords_and_expressions():
    q = parse("prefix e: <http://e/> select distinct ?x (count(?y) as ?n) where { ?x e:p ?y "
              "filter(?y in (1, 2) && !bound(?z) || not exists { ?x e:q ?z }) } group by ?x having (count(?y) > 1) "
              "order by desc(?n) limit 5 offset 2", "csparql")
    assert q.form.modifier == "DISTINCT" and q.modifiers.limit == 5 and q.modifiers.offset == 2
    assert q.modifiers.order_by[0].descending
