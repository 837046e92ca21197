"""The semijoin reduction of the stream (``translator.evaluate.semijoin``): the elements it marks as
unable to take part in a solution change no answer. The relations of an :class:`Evaluator` with its
content index (which skips the unmarked elements) equal those of the same evaluator solving one
run per window-width vector (``contents_index = None``, every element read), on random streams and
C-SPARQL queries (joins, cycles, a variable twice in a pattern, one-variable FILTERs, a FILTER on a
variable outside its group, OPTIONAL, UNION) under every profile; on the CSRBench queries judged
slowest before, and the reduction's own cases."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import Literal as RDFLiteral, URIRef

from lars.model import Atom, String
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.evaluate.semijoin import conjunctive_triples, supported
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase, pattern_algebra

EX = "http://example.org/"
S = EX + "s"
P, Q = f"<{EX}p>", f"<{EX}q>"
WHERES = {
    "chain": ("?x <http://example.org/p> ?y . ?y <http://example.org/q> ?z", "?x ?z"),
    "chain, filtered": ("?x <http://example.org/p> ?y . ?y <http://example.org/q> ?z FILTER(?z > 1)", "?x ?z"),
    "cycle": ("?x <http://example.org/p> ?y . ?y <http://example.org/p> ?z . ?z <http://example.org/q> ?x", "?x ?y ?z"),
    "loop": ("?x <http://example.org/p> ?x . ?x <http://example.org/q> ?v FILTER(?v < 3 && ?v > 0)", "?x ?v"),
    "star, any predicate": ("?x ?r ?y . ?x <http://example.org/q> ?v FILTER(?v >= 2)", "?x ?r ?v"),
    "filter outside its group": ("{ ?x <http://example.org/p> ?y FILTER(!BOUND(?v)) } ?y <http://example.org/q> ?v",
                                 "?x ?v"),
    "optional": ("?x <http://example.org/p> ?y OPTIONAL { ?y <http://example.org/q> ?v FILTER(?v > 1) }", "?x ?v"),
    "union": ("{ ?x <http://example.org/p> ?y } UNION { ?x <http://example.org/q> ?y FILTER(?y > 2) }", "?x ?y"),
    "count": ("?x <http://example.org/p> ?y . ?y <http://example.org/q> ?v FILTER(?v > 1)", "(COUNT(?v) AS ?n)"),
}
NODES = [URIRef(EX + n) for n in "abc"]
VALUES = [RDFLiteral(n) for n in range(4)]


def make_evaluator(stream, alpha: int, beta: int, where: str) -> Evaluator:
    body, select = WHERES[where]
    text = (f"REGISTER QUERY q AS SELECT {select} FROM STREAM <{S}> [RANGE {alpha}s STEP {beta}s] "
            f"WHERE {{ {body} }}")
    compiled = compile_query(parse(text, "csparql"), mode="none", base=TimeBase("s"))
    elements = [StreamElement(triple, t, URIRef(S)) for *triple, t in stream]
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


@st.composite
def cases(draw):
    n = draw(st.integers(1, 10))
    stream = []
    for _ in range(n):
        p = draw(st.sampled_from([URIRef(EX + "p"), URIRef(EX + "q"), URIRef(EX + "r")]))
        o = draw(st.sampled_from(VALUES if p == URIRef(EX + "q") else NODES))
        stream.append((draw(st.sampled_from(NODES)), p, o, draw(st.integers(0, 8))))
    stream.sort(key=lambda e: e[3])  # stable: the draw's order within an instant
    alpha = draw(st.integers(1, 4))
    beta = draw(st.integers(1, alpha))
    where = draw(st.sampled_from(sorted(WHERES)))
    profile = draw(st.sampled_from(sorted(PROFILES)))
    t0 = draw(st.integers(0, max(beta - 1, alpha)))
    return stream, alpha, beta, where, profile, t0


def rows_of(relations) -> list[tuple]:
    return [(r.t, r.report.prefix, r.rows) for r in relations]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_reduced_stream_gives_the_relations_of_the_whole_stream(case):
    stream, alpha, beta, where, profile, t0 = case
    fast, slow = make_evaluator(stream, alpha, beta, where), make_evaluator(stream, alpha, beta, where)
    assert fast.contents_index is not None
    slow.contents_index = None
    op = replace(PROFILES[profile].params, t0=(t0,))
    assert rows_of(fast.relations(op)) == rows_of(slow.relations(op))


def test_the_reduction_leaves_out_elements_no_solution_can_hold():
    stream = [(NODES[0], URIRef(EX + "p"), NODES[1], 0), (NODES[1], URIRef(EX + "q"), VALUES[3], 0),
              (NODES[2], URIRef(EX + "p"), NODES[0], 1), (NODES[0], URIRef(EX + "q"), VALUES[0], 1),
              (NODES[1], URIRef(EX + "q"), VALUES[1], 2)]
    ev = make_evaluator(stream, 3, 1, "chain, filtered")
    ev.relations(replace(PROFILES["cqels"].params, t0=(0,)))
    assert ev.contents_index is not None
    # a→b and b→3 join (3 > 1); c→a joins only a→0 (0 > 1 fails); b→1 fails the filter
    assert ev.contents_index.relevant[S] == [True, True, False, False, False]


def atoms(triples: list[tuple[str, str, str]]) -> dict[str, list[Atom]]:
    return {S: [Atom("striple", (String(s), String(p), String(o), String(f"<{S}>"))) for s, p, o in triples]}


def conjunctive(where: str):
    body, select = WHERES[where]
    q = parse(f"REGISTER QUERY q AS SELECT {select} FROM STREAM <{S}> [RANGE 1s STEP 1s] WHERE {{ {body} }}", "csparql")
    return conjunctive_triples(pattern_algebra(compile_query(q, mode="none").query.where))


def test_only_joins_and_filters_of_triple_patterns_are_reduced():
    assert conjunctive("optional") is None and conjunctive("union") is None
    chain = conjunctive("chain, filtered")
    assert chain is not None and len(chain.triples) == 2 and [v for v, _ in chain.tests] == ["z"]
    outside = conjunctive("filter outside its group")  # ?v is unbound in the FILTER's group: no test on it
    assert outside is not None and outside.tests == ()
    exists = parse(f"REGISTER QUERY q AS SELECT ?x FROM STREAM <{S}> [RANGE 1s STEP 1s] "
                   f"WHERE {{ ?x {P} ?y FILTER NOT EXISTS {{ ?y {Q} ?x }} }}", "csparql")
    assert conjunctive_triples(pattern_algebra(exists.where)) is None


def test_arc_consistency_keeps_every_triple_of_a_cycle_and_drops_dangling_ones():
    cycle = conjunctive("cycle")
    a, b, c, d = (f"<{EX}{n}>" for n in "abcd")
    triples = [(a, P, b), (b, P, c), (c, Q, a),  # a solution
               (a, P, d), (d, P, d),  # ?z = d has no q-triple back
               (b, Q, c)]
    got = supported(cycle, atoms(triples), test=FUNCTIONS["sparql_test"])[S]
    assert got == [True, True, True, False, False, False]
    loop = conjunctive("loop")  # ?x p ?x: subject and object equal
    got = supported(loop, atoms([(a, P, a), (b, P, c), (a, Q, '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'),
                                 (a, Q, '"5"^^<http://www.w3.org/2001/XMLSchema#integer>')]),
                    test=FUNCTIONS["sparql_test"])[S]
    assert got == [True, False, True, False]
    # without the FILTER test the values are not checked (matching more is safe)
    assert supported(loop, atoms([(a, P, a), (a, Q, '"5"^^<http://www.w3.org/2001/XMLSchema#integer>')]))[S] == [True, True]


@pytest.mark.parametrize("query", ["q3.rq", "q4.rq", "q6-5s-obs.rq"])
def test_csrbench_queries_keep_their_relations(query, tmp_path):
    """The whole CSRBench stream, against the same content chains adding every element."""
    from csrbench_data import DATA as CSR, STREAM_IRI, stream_lines
    from translator.rdf.streams import merge_streams, read_streams
    from translator.rdf.timeunits import TimeSpec

    path = tmp_path / "s.nt"
    path.write_text("\n".join(stream_lines()) + "\n")
    elements = merge_streams(read_streams({STREAM_IRI: str(path)}, time=TimeSpec("s", "ms", None)))
    compiled = compile_query(parse((CSR / "queries" / query).read_text(), "csparql", source=query), mode="none",
                             base=TimeBase("s"))
    fast, whole = (Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements) for _ in range(2))
    whole.reduce_stream = False
    for t0 in (0, 2):
        op = replace(PROFILES["cqels"].params, t0=(t0,))
        assert rows_of(fast.relations(op)) == rows_of(whole.relations(op))
    assert fast.contents_index is not None and whole.contents_index is not None
    kept, admitted = sum(fast.contents_index.relevant[STREAM_IRI]), sum(whole.contents_index.relevant[STREAM_IRI])
    assert 0 < kept < admitted / 10  # the query's filters leave few elements that can matter
