"""The two sides of condition (ii) read off a parsed query (translator.agreement.query_patterns)."""

from __future__ import annotations

from translator.agreement.query_patterns import condition_ii_patterns
from translator.translate.compile import counterparts
from translator.query.parse import parse

EX = "<http://ex/"


def test_stream_static_and_graph_patterns_are_told_apart():
    q = parse("""PREFIX : <http://ex/>
SELECT * WHERE {
  STREAM <http://ex/s1> [RANGE 10s] { ?a :p ?b . ?b :q "x" }
  { STREAM <http://ex/s2> [NOW] { ?a :r ?c } } UNION { ?a :t ?c }
  OPTIONAL { ?a :u ?d }
  GRAPH <http://ex/g> { ?a :v ?e }
}""", "cqels")
    streams, static = condition_ii_patterns(q)
    assert streams == {
        "http://ex/s1": [("?a", EX + "p>", "?b"), ("?b", EX + "q>", '"x"')],
        "http://ex/s2": [("?a", EX + "r>", "?c")],
    }
    assert static == [("?a", EX + "t>", "?c"), ("?a", EX + "u>", "?d")]  # GRAPH addresses named graphs


def test_cautious_member_repeats_the_stream_pattern_as_static():
    q = parse("""PREFIX : <http://ex/>
SELECT ?a WHERE { STREAM <http://ex/s> [RANGE 10s] { ?a :p ?b } }""", "cqels")
    ((_, cautious),) = counterparts(q, "cqels-cautious")
    streams, static = condition_ii_patterns(cautious)
    assert streams == {"http://ex/s": [("?a", EX + "p>", "?b")]} and static == [("?a", EX + "p>", "?b")]


def test_csparql_query_has_no_stream_patterns():
    q = parse("""PREFIX : <http://ex/>
SELECT ?a FROM STREAM <http://ex/s> [RANGE 10s] WHERE { ?a :p ?b }""", "csparql")
    assert condition_ii_patterns(q) == ({}, [("?a", EX + "p>", "?b")])
