"""SPARQL 1.1 sub-queries (§12, §18.2.1) translated to LARS (``translator.translate.subqueries``),
against two independent engines (Oxigraph and rdflib, ``tests/oracles.py``).

* Static data through ``rsplars run Q --static D``: projection, ``SELECT *``, expressions,
  DISTINCT, GROUP BY / aggregates / HAVING inside the sub-query (the per-sensor maximum joined
  back to find its observation), sub-queries in sub-queries, in OPTIONAL, UNION, MINUS, GRAPH and
  FILTER EXISTS, and scoping: a variable the sub-query does not project never joins with an outer
  variable of the same name.
* Windows: C-SPARQL ``FROM STREAM`` and RSP-QL ``WINDOW`` with the sub-query reading the window,
  compared at every evaluation time with the oracle on the window's content (D2,
  ``tests/window_oracle.py``); both the incremental engine and the reference semantics.
* Property tests: random sub-queries (projection, DISTINCT, aggregation) joined, OPTIONAL, in a
  UNION or on the right of MINUS with a random outer pattern that reuses the sub-query's variable
  names, on random small graphs and on the windows of a random C-SPARQL stream.
* What stays unsupported (LIMIT / OFFSET in a sub-query, aggregation inside ``STREAM ?s``) is
  a named error with its position, exit code 2; printing in another dialect keeps sub-queries.

Answers are sets (D5): the oracle's solutions are compared as sets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import Literal, Namespace, URIRef

from lars import reference
from lars.model import Atom, Program, Stream
from translator.cli import main
from translator.evaluate.run import answers
from translator.query.dialect_print import print_in_dialect
from translator.query.parse import parse
from translator.rdf.static import static_facts
from translator.rdf.streams import StreamElement
from translator.rdf.terms import from_lars, to_lars, to_nt
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
import oracles
from window_oracle import window_content

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context

EX = Namespace("http://example.org/")
PREFIX = "PREFIX : <http://example.org/>\n"
S1 = EX.s1

OBSERVATIONS = [
    (EX.o1, EX.sensor, EX.a), (EX.o1, EX.value, Literal(3)),
    (EX.o2, EX.sensor, EX.a), (EX.o2, EX.value, Literal(5)),
    (EX.o3, EX.sensor, EX.b), (EX.o3, EX.value, Literal(7)),
    (EX.o4, EX.sensor, EX.b), (EX.o4, EX.value, Literal(2)),
    (EX.o5, EX.sensor, EX.c), (EX.o5, EX.value, Literal(5)),
    (EX.a, EX.room, EX.r1), (EX.b, EX.room, EX.r2), (EX.c, EX.room, EX.r1),
    (EX.a, EX.label, Literal("sensor a")), (EX.o1, EX.room, EX.r9),
]
NAMED = {str(EX.g1): [(EX.a, EX.room, EX.r3), (EX.o2, EX.value, Literal(4)), (EX.zz, EX.sensor, EX.a)],
         str(EX.g2): [(EX.b, EX.room, EX.r2)]}

BOTH = ("oxigraph", "rdflib")
SCOPING = ("oxigraph",)
"""rdflib 7 evaluates a sub-query joined after a pattern with that pattern's bindings, its own
variables included (SPARQL 1.1 §18.2.1 evaluates the sub-select on its own): where the sub-query
has a variable it does not project, named as an outer one, only Oxigraph is right."""
RDFLIB_DECIMAL = ("oxigraph",)
"""rdflib multiplies two xsd:integer values into an xsd:decimal (XPath op:numeric-multiply gives an integer)."""
ORDERING = ("oxigraph",)
"""Numeric ``>``/``>=`` only: Oxigraph is right on them (``oracles.oxigraph_is_right_on`` excludes
ordering comparisons for the IRIs and language strings of the random queries)."""
GRAPH_VAR = ("rdflib",)
"""Oxigraph 0.5 leaves ?g unbound in ``GRAPH ?g { { SELECT … } }``; SPARQL §18.6 binds it to each named graph."""

STATIC_QUERIES = {
    "per-sensor maximum joined back to its observation": ("""
        SELECT ?s ?o ?max WHERE {
          ?o :sensor ?s ; :value ?max .
          { SELECT ?s (MAX(?v) AS ?max) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s }
        }""", SCOPING),
    "a non-projected variable of the same name outside is another variable": ("""
        SELECT ?s ?o WHERE {
          ?s :room ?o .
          { SELECT ?s WHERE { ?o :sensor ?s } }
        }""", SCOPING),
    "a non-projected variable only inside: projected away": ("""
        SELECT * WHERE { ?s :room ?r . { SELECT ?r WHERE { ?s :room ?r } } }""", BOTH),
    "SELECT * of a sub-query": ("""
        SELECT ?s ?v ?r WHERE { ?s :room ?r . { SELECT * WHERE { ?o :sensor ?s ; :value ?v } } }""", BOTH),
    "expressions and DISTINCT": ("""
        SELECT ?s ?double WHERE { { SELECT DISTINCT ?s (?v * 2 AS ?double) WHERE { ?o :sensor ?s ; :value ?v } } }""", RDFLIB_DECIMAL),
    "a projected variable the sub-query never binds is unbound": ("""
        SELECT ?s ?nothing WHERE { ?s :room ?r . { SELECT ?s ?nothing WHERE { ?o :sensor ?s } } }""", BOTH),
    "COUNT and HAVING per room": ("""
        SELECT ?r ?n WHERE {
          { SELECT ?r (COUNT(?s) AS ?n) WHERE { ?s :room ?r } GROUP BY ?r HAVING (COUNT(?s) > 1) }
        }""", BOTH),
    "aggregates without GROUP BY: one group": ("""
        SELECT ?total ?avg WHERE { { SELECT (SUM(?v) AS ?total) (AVG(?v) AS ?avg) WHERE { ?o :value ?v } } }""", BOTH),
    "an expression over aggregates and a grouped key": ("""
        SELECT ?s ?spread WHERE {
          { SELECT ?s ((MAX(?v) - MIN(?v)) AS ?spread) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s }
        }""", BOTH),
    "a sub-query inside a sub-query": ("""
        SELECT ?r ?best WHERE {
          ?s :room ?r .
          { SELECT ?s ?best WHERE {
              ?o :sensor ?s ; :value ?best .
              { SELECT ?s (MAX(?v) AS ?best) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s }
          } }
        }""", SCOPING),
    "in OPTIONAL": ("""
        SELECT ?s ?r ?n WHERE {
          ?s :room ?r .
          OPTIONAL { SELECT ?s (COUNT(?o) AS ?n) WHERE { ?o :sensor ?s } GROUP BY ?s HAVING (COUNT(?o) > 1) }
        }""", BOTH),
    "in UNION": ("""
        SELECT ?s ?x WHERE {
          { SELECT ?s (MIN(?v) AS ?x) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s }
          UNION { ?s :label ?x }
        }""", BOTH),
    "in MINUS": ("""
        SELECT ?s ?r WHERE {
          ?s :room ?r .
          MINUS { SELECT ?s WHERE { ?o :sensor ?s ; :value ?v FILTER(?v > 6) } }
        }""", ORDERING),
    "in GRAPH <g>": ("""
        SELECT ?s ?r WHERE { GRAPH :g1 { { SELECT ?s ?r WHERE { ?s :room ?r } } } }""", BOTH),
    "in GRAPH ?g": ("""
        SELECT ?g ?s WHERE { GRAPH ?g { { SELECT ?s WHERE { ?s :room ?r } } } }""", GRAPH_VAR),
    "aggregating in GRAPH ?g: a group per named graph, also without solutions": ("""
        SELECT ?g ?n WHERE { GRAPH ?g { SELECT (COUNT(*) AS ?n) WHERE { ?s :room ?r FILTER(?r != :r2) } } }""", GRAPH_VAR),
    "SELECT * inside GRAPH ?g: a variable only on the right of MINUS is not the graph's": ("""
        SELECT ?g ?x ?y WHERE { GRAPH ?g { { SELECT * WHERE { ?x :room ?y MINUS { ?g :sensor ?x } } } } }""",
                                                                                                 GRAPH_VAR),
    "aggregating in GRAPH <g>": ("""
        SELECT ?n WHERE { GRAPH :g1 { { SELECT (COUNT(*) AS ?n) WHERE { ?x ?p ?y } } } }""", BOTH),
    "in FILTER EXISTS": ("""
        SELECT ?s ?r WHERE {
          ?s :room ?r .
          FILTER EXISTS { SELECT ?s WHERE { ?o :sensor ?s ; :value ?v FILTER(?v >= 5) } }
        }""", ORDERING),
    "in FILTER NOT EXISTS": ("""
        SELECT ?s ?r WHERE {
          ?s :room ?r .
          FILTER NOT EXISTS { SELECT ?s WHERE { ?o :sensor ?s ; :value ?v FILTER(?v >= 5) } }
        }""", ORDERING),
    "ORDER BY alone changes nothing": ("""
        SELECT ?s ?v WHERE { { SELECT ?s ?v WHERE { ?o :sensor ?s ; :value ?v } ORDER BY DESC(?v) } }""", BOTH),
    "outer aggregates over a sub-query": ("""
        SELECT ?r (COUNT(?s) AS ?n) (MAX(?m) AS ?top) WHERE {
          ?s :room ?r .
          { SELECT ?s (MAX(?v) AS ?m) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s }
        } GROUP BY ?r""", SCOPING),
    "the sub-query's trailing VALUES": ("""
        SELECT ?s ?r WHERE { ?s :room ?r . { SELECT ?s WHERE { ?o :sensor ?s } VALUES ?s { :a :c } } }""", BOTH),
}


def write_data(folder: Path) -> tuple[Path, Path, Path]:
    from rdflib import Graph

    paths = []
    for name, triples in (("default", OBSERVATIONS), *((iri.rsplit("/", 1)[1], ts) for iri, ts in NAMED.items())):
        g = Graph()
        for tr in triples:
            g.add(tr)
        path = folder / f"{name}.nt"
        g.serialize(path, format="nt", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]


def run_rows(capsys, tmp_path: Path, text: str) -> tuple[tuple[str, ...], set[tuple]]:
    query = tmp_path / "q.rq"
    query.write_text(text)
    default, g1, g2 = write_data(tmp_path)
    code = main(["run", str(query), "--static", str(default), "--named", f"{EX.g1}={g1}", "--named", f"{EX.g2}={g2}",
                 "--dialect", "csparql"])
    out, err = capsys.readouterr()
    assert code == 0, err
    (record,) = [json.loads(line) for line in out.splitlines()]
    names = compile_query(parse(text, "csparql"), mode="none").variables
    return names, {tuple(a.get(n) for n in names) for a in record["answers"]}


@pytest.mark.parametrize("name", list(STATIC_QUERIES))
def test_static_sub_queries_equal_the_oracles(name, capsys, tmp_path) -> None:
    where, right = STATIC_QUERIES[name]
    text = PREFIX + where
    names, ours = run_rows(capsys, tmp_path, text)
    expected = [normal(oracles.rows(text, OBSERVATIONS, NAMED, names, oracle)) for oracle in right]
    assert all(e == expected[0] for e in expected), ("the oracles disagree", text, expected)
    assert normal(ours) == expected[0], text
    assert ours, "an empty answer tests little"  # every case above has answers


def test_scoping_is_visible_in_the_answers(capsys, tmp_path) -> None:
    """The outer ?o (a room) and the sub-query's ?o (an observation) never meet: joined on their
    name, the answers would be empty."""
    _, ours = run_rows(capsys, tmp_path, PREFIX + STATIC_QUERIES[
        "a non-projected variable of the same name outside is another variable"][0])
    assert (f"<{EX.a}>", f"<{EX.r1}>") in ours


# ------------------------------------------------------------------------------------------ windows


def lars_stream(elements, end: int) -> Stream:
    points: dict[int, list[Atom]] = {}
    for time, (s, p, o) in elements:
        atom = Atom("striple", (to_lars(s), to_lars(p), to_lars(o), to_lars(S1)))
        if atom not in points.setdefault(time, []):
            points[time].append(atom)
    return Stream({t: tuple(a) for t, a in points.items()}, 0, end)


def reference_rows(compiled, facts, stream: Stream, t: int) -> set[tuple]:
    answer = reference.answer_at(Program((*compiled.program.rules, *facts)), stream, t, functions=FUNCTIONS)
    assert answer is not None
    return {tuple(None if from_lars(a) is None else to_nt(from_lars(a)) for a in atom.args[:len(compiled.variables)])
            for atom in answer if atom.predicate == compiled.answer_predicate}


def normal(rows: set[tuple]) -> set[tuple]:
    return {tuple(oracles.number(x) or x for x in row) for row in rows}


STREAM_ELEMENTS = [
    (0, (EX.o1, EX.sensor, EX.a)), (0, (EX.o1, EX.value, Literal(3))),
    (1, (EX.o2, EX.sensor, EX.a)), (1, (EX.o2, EX.value, Literal(8))),
    (2, (EX.o3, EX.sensor, EX.b)), (2, (EX.o3, EX.value, Literal(4))),
    (4, (EX.o4, EX.sensor, EX.a)), (4, (EX.o4, EX.value, Literal(1))),
    (5, (EX.o5, EX.sensor, EX.b)), (5, (EX.o5, EX.value, Literal(6))),
]
STATIC_ROOMS = [(EX.a, EX.room, EX.r1), (EX.b, EX.room, EX.r2)]
MAX_JOINED_BACK = """?o :sensor ?s ; :value ?max .
  {{ SELECT ?s (MAX(?v) AS ?max) WHERE {{ {inner} }} GROUP BY ?s }}"""


def check_over_windows(text: str, dialect: str, oracle_text: str, graph_of_window: str | None, length: int,
                       step: int, convention: str, elements=STREAM_ELEMENTS) -> None:
    compiled = compile_query(parse(text, dialect), mode="none", bounds=convention)
    facts = static_facts(oracles.rdflib_dataset(STATIC_ROOMS))
    stream = lars_stream(elements, 6)
    from_engine = {ev.t: set(ev.rows) for ev in answers(
        compiled, [StreamElement(tr, t, URIRef(str(S1))) for t, tr in elements], facts, start=0, end=6)}
    answered = 0
    for t in range(7):
        content = window_content(elements, length, step, t, convention)
        if graph_of_window is None:
            default, named = set(STATIC_ROOMS) | content, None
        else:
            default, named = set(STATIC_ROOMS), {graph_of_window: content}
        expected = normal(oracles.rows(oracle_text, default, named, compiled.variables, "oxigraph"))  # SCOPING
        assert normal(reference_rows(compiled, facts, stream, t)) == expected, (t, text)
        assert normal(from_engine[t]) == expected, (t, text)
        answered += bool(expected)
    assert answered >= 2, "answers at a few times at least, or the comparison tests little"


@pytest.mark.parametrize("convention", ["closed", "left-open", "right-open"])
def test_csparql_sub_query_reads_the_window(convention) -> None:
    """C-SPARQL (τ1): the sub-query's triple patterns match the default graph into which the
    window's content is merged, the same content as the outer query's at every time."""
    where = MAX_JOINED_BACK.format(inner="?o :sensor ?s ; :value ?v") + " ?s :room ?r ."
    text = f"{PREFIX}SELECT ?s ?o ?max ?r FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ {where} }}"
    oracle = f"{PREFIX}SELECT ?s ?o ?max ?r WHERE {{ {where} }}"
    check_over_windows(text, "csparql", oracle, None, 3, 1, convention)


@pytest.mark.parametrize("convention", ["closed", "right-open"])
def test_rspql_window_inside_a_sub_query(convention) -> None:
    """RSP-QL: ``WINDOW :w { … }`` inside the sub-query and outside it read one window's content
    (read by the oracle as the named graph :w)."""
    inner = "WINDOW :w { ?o :sensor ?s ; :value ?v }"
    text = (f"{PREFIX}SELECT ?s ?o ?max ?r FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S] WHERE {{ "
            f"WINDOW :w {{ ?o :sensor ?s ; :value ?max }} ?s :room ?r . "
            f"{{ SELECT ?s (MAX(?v) AS ?max) WHERE {{ {inner} }} GROUP BY ?s }} }}")
    oracle = (f"{PREFIX}SELECT ?s ?o ?max ?r WHERE {{ GRAPH :w {{ ?o :sensor ?s ; :value ?max }} ?s :room ?r . "
              f"{{ SELECT ?s (MAX(?v) AS ?max) WHERE {{ GRAPH :w {{ ?o :sensor ?s ; :value ?v }} }} GROUP BY ?s }} }}")
    check_over_windows(text, "rspql", oracle, str(EX.w), 4, 2, convention)


def test_rspql_sub_query_inside_a_window_pattern() -> None:
    """RSP-QL: ``WINDOW :w { { SELECT … } }``, the sub-query matched in the window's content."""
    text = (f"{PREFIX}SELECT ?s ?r ?n FROM NAMED WINDOW :w ON <{S1}> [RANGE PT3S STEP PT1S] WHERE {{ ?s :room ?r . "
            "WINDOW :w { { SELECT ?s (COUNT(?o) AS ?n) (MIN(?v) AS ?low) WHERE { ?o :sensor ?s ; :value ?v } "
            "GROUP BY ?s HAVING (MIN(?v) < 5) } } }")
    oracle = (f"{PREFIX}SELECT ?s ?r ?n WHERE {{ ?s :room ?r . GRAPH :w {{ {{ SELECT ?s (COUNT(?o) AS ?n) "
              "(MIN(?v) AS ?low) WHERE { ?o :sensor ?s ; :value ?v } GROUP BY ?s HAVING (MIN(?v) < 5) } } }")
    check_over_windows(text, "rspql", oracle, str(EX.w), 3, 1, "closed")


def test_cqels_stream_pattern_inside_a_sub_query() -> None:
    """CQELS (τ2): a sub-query whose STREAM pattern counts the window's observations per sensor."""
    text = (f"{PREFIX}SELECT ?s ?r ?n WHERE {{ ?s :room ?r . {{ SELECT ?s (COUNT(?o) AS ?n) WHERE {{ "
            f"STREAM <{S1}> [RANGE 3s SLIDE 1s] {{ ?o :sensor ?s }} }} GROUP BY ?s }} }}")
    oracle = (f"{PREFIX}SELECT ?s ?r ?n WHERE {{ ?s :room ?r . {{ SELECT ?s (COUNT(?o) AS ?n) WHERE {{ "
              f"GRAPH <{S1}> {{ ?o :sensor ?s }} }} GROUP BY ?s }} }}")
    check_over_windows(text, "cqels", oracle, str(S1), 3, 1, "closed")


# ---------------------------------------------------------------------------------- property test

NODES = [EX.a, EX.b, EX.c]
NUMBERS = [Literal(1), Literal(2), Literal(-3), Literal(0)]
data_triples = st.one_of(
    st.tuples(st.sampled_from(NODES), st.just(EX.p), st.sampled_from(NUMBERS)),
    st.tuples(st.sampled_from(NODES), st.just(EX.q), st.sampled_from(NODES)),
)
LEAVES = ["?x :p ?v .", "?x :q ?y .", "?y :p ?w .", "?y :q ?x ."]


def names_in(text: str) -> set[str]:
    return {n for n in ("x", "y", "v", "w") if f"?{n}" in text}


leaf = st.sampled_from(LEAVES)
#: (the WHERE text, the variables bound in each of its solutions)
inner_where = st.one_of(
    leaf.map(lambda p: (p, names_in(p))),
    st.tuples(leaf, leaf).map(lambda p: (f"{p[0]} {p[1]}", names_in(p[0] + p[1]))),
    st.tuples(leaf, leaf).map(lambda p: (f"{p[0]} OPTIONAL {{ {p[1]} }}", names_in(p[0]))),
    st.tuples(leaf, leaf).map(lambda p: (f"{{ {p[0]} }} UNION {{ {p[1]} }}", names_in(p[0]) & names_in(p[1]))),
)


@st.composite
def sub_queries(draw) -> tuple[str, str]:
    """(a sub-query, its oracle reading): the same text — aggregation reads every solution of the
    sub-query's WHERE, duplicates included (SPARQL's multisets, D5)."""
    where, bound = draw(inner_where)
    names = sorted(names_in(where))
    projected = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
    if bound and draw(st.booleans()):  # grouped by a projected variable, or one group, with aggregates
        # over variables bound in every solution: rsplars skips unbound values, SPARQL 1.1's
        # SUM/MIN/MAX over them is an error (docs/translation.md, aggregates)
        arguments = sorted(bound)
        functions = ["COUNT(*)", *(f"{f}(?{v})" for f in ("COUNT", "MIN", "MAX", "SUM") for v in arguments
                                   if f in ("COUNT", "MIN", "MAX") or v in ("v", "w"))]
        aggs = draw(st.lists(st.sampled_from(functions), min_size=1, max_size=2, unique=True))
        keys = projected[:1] if draw(st.booleans()) else []
        select = " ".join([f"?{k}" for k in keys] + [f"({a} AS ?r{i})" for i, a in enumerate(aggs)])
        group = f" GROUP BY ?{keys[0]}" if keys else ""
        text = f"{{ SELECT {select} WHERE {{ {where} }}{group} }}"
        return text, text
    distinct = draw(st.sampled_from(["", "DISTINCT "]))
    text = f"{{ SELECT {distinct}{' '.join('?' + n for n in projected)} WHERE {{ {where} }} }}"
    return text, text


outer = st.sampled_from(["?x :q ?y .", "?x :p ?v .", "?y :p ?x .", ""])
combine = st.sampled_from(["{o} {s}", "{o} OPTIONAL {s}", "{{ {o} }} UNION {s}", "{o} MINUS {s}"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sub=sub_queries(), outer_text=outer, how=combine, data=st.lists(data_triples, max_size=9))
def test_random_sub_queries_equal_the_oracles(sub, outer_text, how, data) -> None:
    text = f"{PREFIX}SELECT * WHERE {{ {how.format(o=outer_text, s=sub[0])} }}"
    oracle = f"{PREFIX}SELECT * WHERE {{ {how.format(o=outer_text, s=sub[1])} }}"
    compiled = compile_query(parse(text, "csparql"), mode="none")
    facts = static_facts(oracles.rdflib_dataset(data))
    expected = oracles.rows(oracle, data, None, compiled.variables, "oxigraph")  # SCOPING: not rdflib
    assert normal(reference_rows(compiled, facts, Stream({}, 0, 0), 0)) == normal(expected), text
    (ev,) = list(answers(compiled, [], facts, start=0, end=0))
    assert normal(set(ev.rows)) == normal(expected), text


element = st.tuples(st.integers(0, 6), data_triples)
stream_data = st.lists(element, max_size=8).map(lambda es: sorted(es, key=lambda e: e[0]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sub=sub_queries(), outer_text=outer, how=combine, data=st.lists(data_triples, max_size=5),
       elements=stream_data, w=st.sampled_from([(2, 1), (3, 1), (4, 2)]),
       convention=st.sampled_from(["closed", "left-open", "right-open"]))
def test_random_sub_queries_over_windows_equal_the_oracles(sub, outer_text, how, data, elements, w, convention) -> None:
    """C-SPARQL (τ1): the sub-query and the outer pattern read static data merged with the
    window's content; the oracle reads that snapshot at every time."""
    length, step = w
    where = how.format(o=outer_text, s=sub[0])
    text = f"{PREFIX}SELECT * FROM STREAM <{S1}> [RANGE {length}s STEP {step}s] WHERE {{ {where} }}"
    oracle = f"{PREFIX}SELECT * WHERE {{ {how.format(o=outer_text, s=sub[1])} }}"
    compiled = compile_query(parse(text, "csparql"), mode="none", bounds=convention)
    facts = static_facts(oracles.rdflib_dataset(data))
    stream = lars_stream(elements, 6)
    from_engine = {ev.t: set(ev.rows) for ev in answers(
        compiled, [StreamElement(tr, t, URIRef(str(S1))) for t, tr in elements], facts, start=0, end=6)}
    for t in range(7):
        snapshot = set(data) | window_content(elements, length, step, t, convention)
        expected = normal(oracles.rows(oracle, snapshot, None, compiled.variables, "oxigraph"))  # SCOPING
        assert normal(reference_rows(compiled, facts, stream, t)) == expected, (t, text)
        assert normal(from_engine[t]) == expected, (t, text)


# ------------------------------------------------------------------------------ errors and printing


@pytest.mark.parametrize("modifier, name", [("LIMIT 1", "LIMIT"), ("OFFSET 1", "OFFSET"),
                                            ("ORDER BY ?s LIMIT 2", "LIMIT")])
def test_limit_and_offset_in_a_sub_query_are_named_with_their_position(modifier, name, capsys, tmp_path) -> None:
    query = tmp_path / "q.rq"
    query.write_text(f"{PREFIX}SELECT ?s WHERE {{\n  ?s :room ?r .\n  {{ SELECT ?s WHERE {{ ?o :sensor ?s }} {modifier} }}\n}}\n")
    code = main(["translate", str(query), "--to", "lars", "--mode", "none"])
    _, err = capsys.readouterr()
    assert code == 2
    assert f"{name} in a sub-query" in err and "at 4:5" in err, err
    assert "Traceback" not in err


def test_aggregating_sub_query_per_stream_variable_is_named(capsys, tmp_path) -> None:
    query = tmp_path / "q.rq"
    query.write_text(PREFIX + "SELECT ?st ?n WHERE { STREAM ?st [RANGE 3s] { { SELECT (COUNT(*) AS ?n) "
                     "WHERE { ?s ?p ?o } } } }")
    code = main(["translate", str(query), "--to", "lars", "--mode", "none"])
    _, err = capsys.readouterr()
    assert code == 2 and "sub-query with GROUP BY or aggregates inside STREAM ?var" in err, err


@pytest.mark.parametrize("target", ["rspql", "csparql", "cqels"])
def test_printing_in_another_dialect_keeps_the_sub_query(target) -> None:
    text = (f"{PREFIX}SELECT ?s ?max FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S] WHERE {{ "
            "WINDOW :w { ?o :sensor ?s ; :value ?max } "
            "{ SELECT ?s (MAX(?v) AS ?max) WHERE { WINDOW :w { ?o :sensor ?s ; :value ?v } } GROUP BY ?s } }")
    query = parse(text, "rspql")
    printed, _ = print_in_dialect(query, target)
    assert "SELECT ?s (MAX(?v) AS ?max)" in printed
    again = parse(printed, target)
    assert print_in_dialect(again, target)[0] == printed
    before = compile_query(query, mode="none")
    after = compile_query(again, mode="none")
    assert before.variables == after.variables


def test_printed_dialects_of_a_csparql_sub_query_give_its_answers() -> None:
    """A C-SPARQL query whose sub-query reads the window, printed in RSP-QL and CQELS
    (``dialect_print`` rewrites the sub-query's patterns too): the same answers at every time."""
    text = (f"{PREFIX}SELECT ?s ?o ?max FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ "
            + MAX_JOINED_BACK.format(inner="?o :sensor ?s ; :value ?v") + " }")
    facts = static_facts(oracles.rdflib_dataset(STATIC_ROOMS))
    elements = [StreamElement(tr, t, URIRef(str(S1))) for t, tr in STREAM_ELEMENTS]

    def rows(query) -> dict[int, set]:
        compiled = compile_query(query, mode="none")
        return {ev.t: set(ev.rows) for ev in answers(compiled, elements, facts, start=0, end=6)}

    original = rows(parse(text, "csparql"))
    assert any(original.values())
    for target in ("rspql", "cqels"):
        printed, _ = print_in_dialect(parse(text, "csparql"), target)
        assert rows(parse(printed, target)) == original, printed


def test_values_after_an_aggregating_sub_query_is_a_located_error(capsys, tmp_path) -> None:
    """SPARQL joins a sub-query's trailing VALUES with its groups' solutions (§18.2.4.3), not with
    its WHERE: refused at the sub-query's position, as after an aggregating query."""
    query = tmp_path / "q.rq"
    query.write_text(PREFIX + "SELECT * WHERE {\n  { SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } VALUES ?n { 1 } }\n}\n")
    code = main(["translate", str(query), "--to", "lars", "--mode", "none"])
    _, err = capsys.readouterr()
    assert code == 2 and f"{query}:3:5" in err and "VALUES clause after a sub-query that aggregates" in err, err
