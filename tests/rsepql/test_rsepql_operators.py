"""RSEP-QL's FIRST, LAST and SEQ (Dell'Aglio et al. 2016, §4.2, Eqs. 4–7) through the LARS program
and the MATCH evaluation, against the independent evaluator of ``rsep_oracle.py`` (nested loops
over the stream items, the window functions of Def 3): on the running example's stream (Figure 1)
and on random streams, at every time point; plus the ties of FIRST/LAST and the substitution
``μ2(E1)`` of Eq. 7."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from rsep_oracle import evaluate
from translator.evaluate.rsepql_run import rsepql_answers, rsepql_evaluations
from translator.query.parse import parse
from translator.rdf.streams import read_stream
from translator.translate.rsepql import compile_rsepql

NS = "http://example.org/"
FIGURE1 = Path(__file__).resolve().parents[1] / "data" / "epsparql" / "rsepql_figure1.stream"

WINDOWS = {"lnd1": ("[LND 1]", ("lnd", 1)), "lnd5": ("[LND 5]", ("lnd", 5)),
           "tau5": ("[RANGE 5]", ("tau", 5, 1)), "tau7": ("[RANGE 7]", ("tau", 7, 1)),
           "tau4s2": ("[RANGE 4 STEP 2]", ("tau", 4, 2))}
E1 = (("?x", "p", "?y"),)
E2 = (("?y", "q", "?z"),)
#: MATCH expressions as written and as the oracle's trees (E1 on w1, E2 on w2)
EXPRESSIONS = {
    "E1 SEQ E2": lambda e1, e2: ("SEQ", e1, e2),
    "FIRST E1 SEQ E2": lambda e1, e2: ("SEQ", ("FIRST", e1), e2),
    "LAST E1 SEQ E2": lambda e1, e2: ("SEQ", ("LAST", e1), e2),
    "E1 SEQ LAST E2": lambda e1, e2: ("SEQ", e1, ("LAST", e2)),
    "FIRST (E1 SEQ E2)": lambda e1, e2: ("FIRST", ("SEQ", e1, e2)),
    "LAST E2": lambda e1, e2: ("LAST", e2),
    "FIRST E2": lambda e1, e2: ("FIRST", e2),
    "E2 SEQ E1 SEQ E2": lambda e1, e2: ("SEQ", ("SEQ", e2, e1), e2),
}


def query_text(expr: str, w1: str, w2: str, select: str = "*") -> str:
    return (f"PREFIX : <{NS}>\nSELECT {select}\nFROM NAMED :S WIN {WINDOWS[w1][0]} AS :w1\n"
            f"FROM NAMED :S WIN {WINDOWS[w2][0]} AS :w2\n"
            "EVENT ON :w1 { ?x :p ?y } AS E1\nEVENT ON :w2 { ?y :q ?z } AS E2\n"
            f"WHERE {{ MATCH {{ {expr} }} }}\n")


def oracle_items(elements):
    items: dict[int, set] = {}
    for e in elements:
        s, p, o = (str(x)[len(NS):] for x in e.triple)
        items.setdefault(e.t, set()).add((s, p, o))
    return sorted((t, frozenset(g)) for t, g in items.items())


def ours(text: str, elements, times) -> dict[int, Counter]:
    """The event mappings at each time, as a bag (every match counts)."""
    compiled = compile_rsepql(parse(text))
    out = {}
    for t, matches in rsepql_evaluations(compiled, elements, times=times):
        out[t] = Counter((frozenset((k, v[len(NS) + 1:-1]) for k, v in m.mu), m.start, m.end) for m in matches)
    return out


def projected(text: str, elements, times) -> dict[int, Counter]:
    """``rsepql_answers``: the SELECT's rows with their intervals, as a bag."""
    compiled = compile_rsepql(parse(text))
    return {ev.t: Counter((tuple(None if x is None else x[len(NS) + 1:-1] for x in row), s, e) for row, s, e in ev.rows)
            for ev in rsepql_answers(compiled, elements, times=times)}


def compare(expr: str, w1: str, w2: str, elements) -> None:
    items = oracle_items(elements)
    times = sorted({t for t, _ in items} | {t + 1 for t, _ in items})
    tree = EXPRESSIONS[expr](("E", WINDOWS[w1][1], E1), ("E", WINDOWS[w2][1], E2))
    expected = {t: evaluate(tree, items, t) for t in times}
    assert ours(query_text(expr, w1, w2), elements, times) == {t: Counter(r) for t, r in expected.items()}
    # SELECT ?x: a projection keeps every match (SPARQL 1.1 §18.5, Project)
    rows = {t: Counter(((dict(mu)["x"],) if "x" in dict(mu) else (None,), s, e) for mu, s, e in r)
            for t, r in expected.items()}
    assert projected(query_text(expr, w1, w2, "?x"), elements, times) == rows


def write_stream(path: Path, items) -> None:
    lines = [f"<{NS}{s}> <{NS}{p}> <{NS}{o}> [{t}] ." for t, triples in items for s, p, o in sorted(triples)]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def figure1():
    text = FIGURE1.read_text().replace("http://rsplars.invalid/bare#", NS)
    return text


@pytest.mark.parametrize("expr", sorted(EXPRESSIONS))
def test_figure_1_against_the_definitions(expr, figure1, tmp_path):
    path = tmp_path / "figure1.stream"
    path.write_text(figure1)
    compare(expr, "lnd1", "tau5", read_stream(path, NS + "S"))


@pytest.mark.parametrize("seed", range(12))
def test_random_streams_against_the_definitions(seed, tmp_path):
    rng = random.Random(seed)
    names = ["a1", "a2", "b1", "b2", "c1"]
    items = []
    for t in sorted(rng.sample(range(1, 14), rng.randint(3, 8))):
        triples = {(rng.choice(names), rng.choice("pq"), rng.choice(names)) for _ in range(rng.randint(1, 3))}
        items.append((t, triples))
    path = tmp_path / "s.stream"
    write_stream(path, items)
    elements = read_stream(path, NS + "S")
    w1, w2 = rng.choice(sorted(WINDOWS)), rng.choice(sorted(WINDOWS))
    for expr in sorted(EXPRESSIONS):
        compare(expr, w1, w2, elements)


def test_first_keeps_ties_and_seq_substitutes_before_first(figure1, tmp_path):
    """FIRST E2 at 8 holds both E2 matches at 6 (a strict order: ties are all first). FIRST E1 SEQ
    E2 takes the first E1 match *compatible with* each E2 match (μ2(E1), Eq. 7): C's E1 match is
    (a2,b2; 4), not the global first (a1,b1; 2)."""
    path = tmp_path / "figure1.stream"
    path.write_text(figure1)
    elements = read_stream(path, NS + "S")
    first_e2 = ours(query_text("FIRST E2", "lnd1", "tau5"), elements, [8])[8]
    assert {(dict(mu)["y"], s) for mu, s, _ in first_e2} == {("b1", 6), ("b2", 6)}
    seq = ours(query_text("FIRST E1 SEQ E2", "lnd1", "tau5"), elements, [8])[8]
    assert {(dict(mu)["x"], s, e) for mu, s, e in seq} == {("a1", 2, 6), ("a2", 4, 6), ("a2", 4, 8)}
