"""The running example of Dell'Aglio et al. 2016 (Figure 1, Examples 8–10) for EP-SPARQL's SEQ under every
selection and consumption policy and every reading of the SEQ^c/SEQ^r quantifier (Eq. 11 as
printed disagrees with Example 10).

Stream: Figure 1, with the timestamps its examples give (``tests/data/epsparql/rsepql_figure1.stream``); query
``E1 SEQ E2`` with ``E1 = ?x p ?y``, ``E2 = ?y q ?z`` (EP-SPARQL's landmark window = the whole
stream up to t, Table 1 of Dell'Aglio et al. 2016). Named results:
A = (a1,b1,c1; 2,6), B = (a2,b2,c2; 4,6), C = (a2,b2,c2; 4,8), D = (a1,b1,c1; 2,10).
The expected sets below are the paper's, or computed by hand from its equations; the runs go through the LARS
operand program and the policy post-processing (translator.evaluate.epsparql_run).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.evaluate.epsparql_run import event_answers, policy_answers, policy_evaluations
from translator.query.parse import parse
from translator.rdf.streams import read_stream
from translator.translate.epsparql import compile_epsparql, compile_policy_operands

DATA = Path(__file__).resolve().parents[1] / "data" / "epsparql"
NS = "http://rsplars.invalid/bare#"
A = ("a1", "b1", "c1", 2, 6)
B = ("a2", "b2", "c2", 4, 6)
C = ("a2", "b2", "c2", 4, 8)
D = ("a1", "b1", "c1", 2, 10)


@pytest.fixture(scope="module")
def setting():
    query = parse((DATA / "rsepql_seq.rq").read_text(), source="rsepql_seq.rq")
    assert query.dialect == "epsparql"
    elements = read_stream(DATA / "rsepql_figure1.stream", "http://example.org/S")
    return query, elements


def named(match) -> tuple:
    b = match.binding()
    return (*(b[v][len(NS) + 1:-1] for v in ("x", "y", "z")), match.start, match.end)


def full(setting, times, selection="unrestricted", consumption="unrestricted", reading="per-mapping"):
    query, elements = setting
    compiled = compile_policy_operands(query)
    return {t: {named(m) for m in ms} for t, ms in policy_evaluations(
        compiled, elements, selection=selection, consumption=consumption, reading=reading, times=times)}


READINGS = ["per-mapping", "per-key", "greedy", "literal"]


def test_gt_s1_u1_unrestricted(setting):
    """Example 8 (its result corrected to (a2,b2,c2; 4,6)), unrestricted: SEQ + P^u at ET = {8, 10}."""
    assert full(setting, [8, 10]) == {8: {A, B, C}, 10: {A, B, C, D}}


@pytest.mark.parametrize("reading", READINGS)
def test_gt_c1_chronological_selection(setting, reading):
    """Example 10: SEQ^c at 8 is {A, B} under every reading (Eq. 10 read with NOT EXISTS)."""
    assert full(setting, [8], "chronological", reading=reading) == {8: {A, B}}


@pytest.mark.parametrize("reading,expected", [("per-mapping", {A, C}), ("per-key", {A, C}), ("greedy", {A, C}),
                                              ("literal", {C})])
def test_gt_r1_recent_selection(setting, reading, expected):
    """Example 10: the paper prints {A, C}; Eq. 11 read literally gives {C}."""
    assert full(setting, [8], "recent", reading=reading) == {8: expected}


@pytest.mark.parametrize("reading", READINGS)
def test_gt_c2_chronological_consumption(setting, reading):
    """Example 11: SEQ^c + P^c at ET = {8, 10}: {A, B}, then nothing (G1–G3 consumed)."""
    assert full(setting, [8, 10], "chronological", "chronological", reading) == {8: {A, B}, 10: set()}


@pytest.mark.parametrize("reading,expected", [("per-mapping", {8: {A, C}, 10: set()}),
                                              ("per-key", {8: {A, C}, 10: set()}),
                                              ("greedy", {8: {A, C}, 10: set()}),
                                              ("literal", {8: {C}, 10: {D}})])
def test_gt_r2_recent_consumption(setting, reading, expected):
    """§2 of the paper: SEQ^r + P^r at ET = {8, 10}; the literal Eq. 11 contradicts the paper twice."""
    assert full(setting, [8, 10], "recent", "recent", reading) == expected


def test_gt_d1_unrestricted_push(setting):
    """By hand: content-change evaluation (every event), unrestricted."""
    assert full(setting, None) == {2: set(), 4: set(), 6: {A, B}, 8: {A, B, C}, 10: {A, B, C, D}}


@pytest.mark.parametrize("reading", READINGS)
def test_gt_d2_d3_chronological_and_recent_push(setting, reading):
    """By hand: pushed, chronological and recent coincide: {A, B} at 6, nothing after."""
    for policy in ("chronological", "recent"):
        assert full(setting, None, policy, policy, reading) == {2: set(), 4: set(), 6: {A, B}, 8: set(), 10: set()}


def test_selection_without_consumption_reports_each_event_once(setting):
    """SEQ^c without consumption selects A, B again at 8 and 10; the answer stream reports them once."""
    query, elements = setting
    compiled = compile_policy_operands(query)
    assert full(setting, None, "chronological")[10] == {A, B}
    reported = {ev.t: ev.rows for ev in policy_answers(compiled, elements, selection="chronological")}
    assert [len(reported[t]) for t in (2, 4, 6, 8, 10)] == [0, 0, 2, 0, 0]


def test_unrestricted_consumption_consumes_every_match(setting):
    """Unrestricted selection with consumption (our reading: the justification of every match):
    after A, B at 6 all of G1–G3 is consumed, so C (needs a2 at 4) never appears."""
    assert full(setting, None, "unrestricted", "chronological") == {2: set(), 4: set(), 6: {A, B}, 8: set(),
                                                                     10: set()}


def test_lars_program_reports_each_complex_event_once_at_its_end(setting):
    """The default run (the LARS program, no policy): A and B at 6, C at 8, D at 10, each once."""
    query, elements = setting
    compiled = compile_epsparql(query)
    got = {ev.t: {(*(x[len(NS) + 1:-1] for x in row), s, e) for row, s, e in ev.rows}
           for ev in event_answers(compiled, elements)}
    assert got == {2: set(), 4: set(), 6: {A, B}, 8: {C}, 10: {D}}


# ------------------------------------------------- random streams against the equations themselves

from hypothesis import given, settings, strategies as st  # noqa: E402
from rdflib import URIRef  # noqa: E402

from translator.rdf.streams import StreamElement  # noqa: E402


def equations(events, times, selection, consumption, reading):
    """Eqs. 7, 10 (NOT EXISTS), 11 and P^c/P^r for E1 = ?x p ?y, E2 = ?y q ?z over point events,
    written directly from Dell'Aglio et al. 2016, §4.2–4.4 (reading per-mapping: the quantifier over E2
    matches with the same mapping; literal: over all of them). Returns {t: {(x, y, z, t1, t3)}}."""
    consumed: set = set()
    out = {}
    for t in times:
        avail = [e for e in events if e[3] <= t and e not in consumed]
        e1 = [e for e in avail if e[1] == "p"]
        e2 = [e for e in avail if e[1] == "q"]
        cand = {m2: [m1 for m1 in e1 if m1[2] == m2[0] and m1[3] < m2[3]] for m2 in e2}
        cand = {m2: ms for m2, ms in cand.items() if ms}
        chosen = []
        for m2, ms in cand.items():
            if selection == "unrestricted":
                chosen += [(m1, m2) for m1 in ms]
                continue
            rivals = [r for r in cand if reading == "literal" or (r[0], r[2]) == (m2[0], m2[2])]
            if selection == "chronological":
                if any(r[3] < m2[3] for r in rivals):
                    continue
                chosen += [(m1, m2) for m1 in ms if not any(o[3] < m1[3] for o in ms)]
            else:
                if any(r[3] > m2[3] for r in rivals):
                    continue
                chosen += [(m1, m2) for m1 in ms if not any(o[3] > m1[3] for o in ms)]
        if consumption != "unrestricted":
            for m1, m2 in chosen:
                consumed |= {m1, m2}
        out[t] = {(m1[0], m1[2], m2[2], m1[3], m2[3]) for m1, m2 in chosen}
    return out


point_event = st.tuples(st.sampled_from(["a1", "a2", "b1", "b2"]), st.sampled_from(["p", "q"]),
                        st.sampled_from(["b1", "b2", "c1"]), st.integers(1, 6))


@settings(max_examples=30, deadline=None)
@given(st.lists(point_event, min_size=1, max_size=8, unique=True),
       st.sampled_from(["unrestricted", "chronological", "recent"]), st.booleans(),
       st.sampled_from(["per-mapping", "literal"]))
def test_policies_equal_the_equations_on_random_streams(setting, raw, selection, consume, reading):
    query, _ = setting
    elements = [StreamElement((URIRef(NS + s), URIRef(NS + p), URIRef(NS + o)), t, URIRef("http://e/s"))
                for s, p, o, t in sorted(raw, key=lambda e: e[3])]
    times = sorted({e[3] for e in raw})
    consumption = selection if consume and selection != "unrestricted" else (
        "chronological" if consume else "unrestricted")
    got = full((query, elements), times, selection, consumption, reading)
    assert got == equations(raw, times, selection, consumption, reading)
