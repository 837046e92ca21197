"""The papers' worked examples reproduced with the operational parameters and profiles: the
examples of Dell'Aglio et al. 2014 (RSP-QL semantics: Examples 2, 6, 7, 8–13, and cases derived
from their definitions) and of Dell'Aglio et al. 2013 (CSRBench: Figs. 1, 2, 4, the oracle's
windower unit tests, an R2S case).

Expected values are the numbers printed in the papers or computed by hand from their definitions,
not outputs of this code. The time-varying G_shops (Dell'Aglio et al. 2014, Example 4,
``--static-during``) is in test_time_varying_static_graph.py; the expected outputs on the CSRBench data in
test_csrbench_recorded.py; the expiry bug hidden by IStream in test_window_expiry_hidden_by_istream.py.
"""

from __future__ import annotations

import pytest

from check_helpers import COUPON, NEARBY, evaluator, listing1, plain, rspql
from translator.evaluate.operational import Relation, apply_r2s
from translator.evaluate.profiles import PROFILES, Operational, with_overrides
from translator.evaluate.report_policy import Contents, Grid, Policy, Report, report_times

WCNC = frozenset({"window-close", "non-empty"})
CC = frozenset({"content-change"})
NEARBY_TIMES = {NEARBY: [2, 2, 5, 7, 12]}
CARL = ("carl", "a", "alice", "10% discount on ...")
EVE = ("eve", "a", "alice", "10% discount on ...")
DIANA = ("diana", "b", "bob", "free coffee at ...")


def rsp(report=WCNC, **kw) -> Operational:
    return with_overrides(PROFILES["rsp-ql"].params, report=report, **kw)


# ------------------------------------------------ Dell'Aglio et al. 2014 (RSP-QL semantics)


def test_t1_one_time_sparql_answer_under_a_policy():
    """Dell'Aglio et al. 2014, Example 2: ?person :owns :a over g_shops is :alice (the UNION branch over the window is empty)."""
    ev = rspql("owners_of_a.rq")
    rels = ev.relations(rsp(frozenset({"periodic"}), t0=(0,), period=20), 0, 20)
    assert plain(rels) == [(0, [("alice",)]), (20, [("alice",)])]  # at t0 = 0 the window (0, 0] is empty


@pytest.mark.parametrize("t0, alpha, expected", [(4, 4, [5, 7]), (5, 3, [7])])
def test_t2_time_based_window_left_open(t0, alpha, expected):
    """Dell'Aglio et al. 2014, Example 6: the window (4, 8] holds carl@5 and eve@7; (5, 8] only eve@7 (left end open)."""
    g = Grid(NEARBY, alpha, alpha, t0)
    lo, hi = g.scope(8, "left-open", True)
    times = Contents(NEARBY_TIMES).times[NEARBY]
    assert [t for t in times if lo <= t <= hi] == expected


def test_t3_present_window_at_9_is_w3():
    """Dell'Aglio et al. 2014, Example 7: WW1 = (5, 2, 1) gives W1 = (1,6], W2 = (3,8], W3 = (5,10]; at t = 9 the present window is
    W3 and holds eve@7 only (earliest_open, Dell'Aglio et al. 2014, Definition 13)."""
    g = Grid(NEARBY, 5, 2, 1)
    assert [(g.opening(i), g.opening(i) + 5) for i in range(3)] == [(1, 6), (3, 8), (5, 10)]
    assert g.scope(9, "left-open", False) == (6, 9)


T4_WW1 = {1: [], 2: ["diana-a", "eve-b"], 5: ["diana-a", "eve-b", "carl-a"], 6: ["diana-a", "eve-b", "carl-a"],
          7: ["carl-a", "eve-a"], 8: ["carl-a", "eve-a"], 9: ["eve-a"], 10: ["eve-a"], 11: [], 12: ["diana-b"],
          16: ["diana-b"], 17: [], 18: []}
NEARBY_NAMES = [(2, "diana-a"), (2, "eve-b"), (5, "carl-a"), (7, "eve-a"), (12, "diana-b")]


@pytest.mark.parametrize("t, content", sorted(T4_WW1.items()))
def test_t4_contents_of_ww1(t, content):
    lo, hi = Grid(NEARBY, 5, 2, 1).scope(t, "left-open", False)
    assert sorted(n for s, n in NEARBY_NAMES if lo <= s <= hi) == sorted(content)


def test_t4_ww2_undefined_before_t0_and_contents():
    g = Grid(COUPON, 2, 2, 0)
    assert Grid(NEARBY, 5, 2, 1).scope(0, "left-open", False) is None
    assert [t for t in range(0, 19) if g.scope(t, "left-open", False)[0] <= 8 <= t] == [8]
    assert [t for t in range(0, 19) if g.scope(t, "left-open", False)[0] <= 15 <= t] == [15, 16]


def test_t5_qex_rstream_at_8_and_16():
    """Dell'Aglio et al. 2014, Examples 8–10: P = WC[WW2] ∧ NC[WW2], WW1 = (5,2,1), WW2 = (2,2,0), RStream: ET = {8, 16}."""
    rels = rspql().relations(rsp(t0=(1, 0), report_windows=(1,)))
    assert plain(rels) == [(8, sorted([CARL, EVE])), (16, [DIANA])]


@pytest.mark.parametrize("r2s, expected", [
    ("istream", [(8, sorted([CARL, EVE])), (16, [DIANA])]),
    ("dstream", [(16, sorted([CARL, EVE]))]),
])
def test_t6_other_streaming_operators(r2s, expected):
    rels = rspql().relations(rsp(t0=(1, 0), report_windows=(1,), r2s=r2s, empty_relations="skip"))
    assert plain(rels) == expected


FIG4 = """<http://example.org/s1> <http://example.org/p> <http://example.org/o> "2" .
<http://example.org/s2> <http://example.org/p> <http://example.org/o> "2" .
<http://example.org/s3> <http://example.org/p> <http://example.org/o> "6" .
"""


@pytest.mark.parametrize("t0, first", [(0, ["s1", "s2"]), (1, ["s1", "s2", "s3"]), (2, ["s3"])])
def test_t7_t0_decides_the_first_window(tmp_path, t0, first):
    """Dell'Aglio et al. 2014, Example 11 (figure stream s1@2, s2@2, s3@6; α = 5, β = 2): the first window's content
    depends on t0 — reported at its close t0 + 5 under window close."""
    from check_helpers import DATA

    stream = tmp_path / "fig4.nt"
    stream.write_text(FIG4)
    query = tmp_path / "q.rq"
    query.write_text((DATA / "nearby_only.rq").read_text().replace(":isNearby ?shop", "<http://example.org/p> ?shop"))
    ev = evaluator(str(query), {NEARBY: stream})
    rels = ev.relations(rsp(frozenset({"window-close"}), t0=(t0,)), 0, t0 + 5)
    assert plain(rels) == [(t0 + 5, sorted((s, "o") for s in first))]


def test_t8_merged_default_graph_gives_the_named_windows_bindings():
    """Dell'Aglio et al. 2014, Example 12: Q^ex with its windows merged into the default graph (C-SPARQL) gives the same bindings
    at every instant as the named-window version (CQELS); only ET is the engine's."""
    for op in (rsp(t0=(1, 0), report_windows=(1,)), rsp(CC, t0=(1, 0)), rsp(frozenset({"periodic"}), t0=(1, 0), period=1)):
        assert plain(rspql("qex_csparql.rq").relations(op)) == plain(rspql().relations(op))


@pytest.mark.parametrize("policy, expected", [
    (Policy(WCNC), [6, 8, 10, 12, 14, 16]),
    (Policy(CC), [2, 5, 7, 12]),
    (Policy(CC, "strict"), [2, 5, 7, 9, 11, 12, 17]),
])
def test_t9_evaluation_times_of_the_engines(policy, expected):
    reports = report_times([Grid(NEARBY, 5, 2, 1)], Contents(NEARBY_TIMES), policy, "left-open", 0, 40)
    assert [r.t for r in reports] == expected


def test_t9_contents_at_the_reports_with_the_engine():
    """Dell'Aglio et al. 2014, Example 13, the contents: the R2R answers of WW1 at the C-SPARQL and CQELS report times."""
    ev = rspql("nearby_only.rq")
    cs = plain(ev.relations(rsp(t0=(1,))))
    assert [(t, [f"{a}-{b}" for a, b in rows]) for t, rows in cs] == [
        (6, ["carl-a", "diana-a", "eve-b"]), (8, ["carl-a", "eve-a"]), (10, ["eve-a"]), (12, ["diana-b"]),
        (14, ["diana-b"]), (16, ["diana-b"])]
    cq = plain(ev.relations(rsp(CC, t0=(1,))))
    assert [(t, len(rows)) for t, rows in cq] == [(2, 2), (5, 3), (7, 2), (12, 1)]


def test_t10_theorem_1_fails_before_t_7():
    """Derived from Definition 13 and Theorem 1: WW' = (5,2,1) and WW'' = (5,2,3) differ at t = 3..6 and agree from 7 on."""
    g1, g2 = Grid(NEARBY, 5, 2, 1), Grid(NEARBY, 5, 2, 3)
    c = Contents(NEARBY_TIMES)
    differ = [t for t in range(3, 30) if c.span(NEARBY, *g1.scope(t, "left-open", False))
              != c.span(NEARBY, *g2.scope(t, "left-open", False))]
    assert differ == [3, 4, 5, 6]


@pytest.mark.parametrize("t0, expected", [
    ((1, 0), [(8, sorted([CARL, EVE])), (16, [DIANA])]),
    ((0, 0), [(8, sorted([CARL, EVE]))]),
    ((0, 1), [(9, sorted([CARL, EVE])), (15, [DIANA])]),
    ((1, 1), [(9, [EVE]), (15, [DIANA])]),
])
def test_t11_candidate_answers_for_the_t0_vectors(t0, expected):
    """Derived from Definition 25: the four members of rspqlQueries(Q^ex) (a = 0, β = 2 for both windows)."""
    rels = rspql().relations(rsp(t0=t0, report_windows=(1,), empty_relations="skip"))
    assert plain(rels) == expected


def test_t12_cqels_like_run_reports_diana_at_15():
    """Derived: CC (arrivals) over both windows, IStream: carl/eve at 8, diana at 15 (not 16)."""
    op = rsp(CC, t0=(1, 0), r2s="istream", empty_relations="skip")
    ev = rspql()
    assert [r.t for r in ev.plan(op)] == [2, 5, 7, 8, 12, 15]
    assert plain(ev.relations(op)) == [(8, sorted([CARL, EVE])), (15, [DIANA])]


def test_t13_or_across_windows_changes_dstream():
    """Derived: WC ∧ NC on each window, OR across WW1 and WW2: ET = {6, 8, …, 16}; RStream and IStream
    as for Examples 8–10, DStream emits carl and eve at 10 (not at 16 as with WW2 alone)."""
    op = rsp(t0=(1, 0), empty_relations="skip")
    ev = rspql()
    assert [r.t for r in ev.plan(op)] == [6, 8, 10, 12, 14, 16]
    assert plain(ev.relations(with_overrides(op, r2s="rstream"))) == [(8, sorted([CARL, EVE])), (16, [DIANA])]
    assert plain(ev.relations(with_overrides(op, r2s="istream"))) == [(8, sorted([CARL, EVE])), (16, [DIANA])]
    assert plain(ev.relations(with_overrides(op, r2s="dstream"))) == [(10, sorted([CARL, EVE]))]


# ------------------------------------------------------- Dell'Aglio et al. 2013 (CSRBench)

R1, R2 = ("r1",), ("r2",)


def test_g1_open_closed_and_active_windows():
    """Dell'Aglio et al. 2013, Fig. 4: ω = 3, β = 2, t0 = 1; Scope(6) = [3,6), Scope(4) = [1,4), Scope(5) = [3,6), Scope(7) = [5,8)."""
    g = Grid("s", 3, 2, 1)
    assert {t: g.opening(g.earliest_open(t)) for t in (4, 5, 6, 7)} == {4: 1, 5: 3, 6: 3, 7: 5}
    assert g.scope(6, "right-open", True) == (3, 5)  # the window [3, 6) at its close


@pytest.mark.parametrize("t0, expected", [
    (0, [(10, [R1]), (20, [R2])]),
    (1, [(11, [R1]), (21, [R2])]),
    (2, [(12, []), (22, [R2])]),
    (3, [(13, []), (23, [])]),
    (4, [(14, []), (24, [])]),
])
def test_g2_listing1_depends_on_t0(t0, expected):
    """Dell'Aglio et al. 2013, Listing 1 (RANGE 10s STEP 10s) over the oracle's stream, window-close reports of the
    non-empty windows, R2R results per t0."""
    rels = listing1().relations(with_overrides(PROFILES["csparql"].params, t0=(t0,)))
    assert plain(rels) == expected


@pytest.mark.parametrize("profile, t0, expected", [
    ("csparql", 0, [(10, [R1]), (20, [R2])]),
    ("sparqlstream", 0, [(10, [R1]), (20, [R2])]),
    ("cqels", 0, [(3, [R1]), (15, [R2])]),
    ("csparql", 2, [(12, []), (22, [R2])]),       # the variant: C-SPARQL notifies the empty relation
    ("sparqlstream", 2, [(22, [R2])]),
])
def test_g3_report_policies_of_the_three_engines(profile, t0, expected):
    rels = listing1().relations(with_overrides(PROFILES[profile].params, t0=(t0,)))
    assert plain(rels) == expected


def test_g3_cqels_reports_and_their_contents():
    """Dell'Aglio et al. 2013, Fig. 2, the CQELS row: reports at 1, 3, 12, 15 (arrivals); the strict reading adds the expiry at 10."""
    ev = listing1()
    op = with_overrides(PROFILES["cqels"].params, report=CC, empty_relations="emit", r2s="rstream")
    assert plain(ev.relations(op)) == [(1, []), (3, [R1]), (12, []), (15, [R2])]
    strict = with_overrides(op, cc_mode="strict")
    assert [r.t for r in ev.plan(strict, 0, 16)] == [1, 3, 10, 12, 15]


@pytest.mark.parametrize("alpha, beta, t0, scopes", [
    (10000, 3000, 0, [(0, 10000), (3000, 13000), (6000, 16000), (9000, 19000), (12000, 22000)]),
    (10000, 3000, 2000, [(2000, 12000), (5000, 15000), (8000, 18000), (11000, 21000), (14000, 24000)]),
    (10000, 1000, 0, [(0, 10000), (1000, 11000), (2000, 12000), (3000, 13000), (4000, 14000), (5000, 15000)]),
    (1000, 1000, 2000, [(2000, 3000), (3000, 4000), (4000, 5000), (5000, 6000), (6000, 7000)]),
])
def test_g4_window_close_scopes(alpha, beta, t0, scopes):
    """The CSRBench oracle's WindowerWindowCloseTest (ms): successive scopes [o, c) of the window-close reports."""
    g = Grid("s", alpha, beta, t0)
    closes = list(g.closing_times(0, scopes[-1][1]))
    assert [(lo, hi + 1) for lo, hi in (g.scope(c, "right-open", True) for c in closes)] == scopes


@pytest.mark.parametrize("alpha, beta, t0, scopes", [
    (10, 3, 0, [(0, 2), (0, 4), (3, 13), (6, 16)]),
    (10, 3, 2, [(2, 4), (5, 13), (8, 16)]),
    (1, 1, 0, [(1, 2), (3, 4), (12, 13), (15, 16)]),
    (1, 1, 5, [(12, 13), (15, 16)]),
])
def test_g4_content_change_scopes(alpha, beta, t0, scopes):
    """The CSRBench oracle's WindowerContentChangeTest (data at 1, 3, 12, 15 s; u = 1 s): the scope of each report is
    [o, τ + u), the window holding τ cut at the current instant; data before t0 is ignored."""
    reports = report_times([Grid("s", alpha, beta, t0)], Contents({"s": [1, 3, 12, 15]}), Policy(CC),
                           "right-open", 0, 30)
    assert [(r.scopes[0][0], r.scopes[0][1] + 1) for r in reports] == scopes


def _rel(t, rows):
    return (Report(t, ((t - 10, t - 1),), True), frozenset(rows))


@pytest.mark.parametrize("r2s, empty, expected", [
    ("rstream", "emit", [(10, [R1]), (20, [R2]), (30, [R2])]),
    ("istream", "emit", [(10, [R1]), (20, [R2]), (30, [])]),
    ("istream", "skip", [(10, [R1]), (20, [R2])]),
    ("dstream", "emit", [(20, [R1]), (30, [])]),
])
def test_g7_r2s_worked_example(r2s, empty, expected):
    """R2S by hand: R_10 = {r1}, R_20 = {r2}, R_30 = {r2}; DStream emits nothing at the first step."""
    reports = [_rel(10, [R1]), _rel(20, [R2]), _rel(30, [R2])]
    out: list[Relation] = apply_r2s(reports, r2s, empty)
    assert [(r.t, sorted(r.rows)) for r in out] == expected


def test_t9_a_tuple_driven_engine_evaluates_twice_at_2():
    """Dell'Aglio et al. 2014, Example 13, for a tuple-driven engine: diana-a and eve-b both arrive at 2; with a tuple tick the CC engine evaluates after
    each (in arrival order), without it once."""
    ev = rspql("nearby_only.rq")
    tuple_tick = plain(ev.relations(rsp(CC, t0=(1,), tick="tuple")))
    assert tuple_tick[:2] == [(2, [("diana", "a")]), (2, [("diana", "a"), ("eve", "b")])]
    assert [t for t, _ in tuple_tick] == [2, 2, 5, 7, 12]
    assert [t for t, _ in plain(ev.relations(rsp(CC, t0=(1,), tick="time")))] == [2, 5, 7, 12]
    istream = plain(ev.relations(rsp(CC, t0=(1,), tick="tuple", r2s="istream")))
    assert istream[:2] == [(2, [("diana", "a")]), (2, [("eve", "b")])]


def test_a_window_that_has_not_started_is_empty(tmp_path):
    """G_WW is undefined before t0 (Dell'Aglio et al. 2014, Definition 13): with WW1 starting at 9, the nearby window is
    empty at WW2's close 8, although zed arrives at 8; with WW1 starting at 7 it holds zed@8."""
    from check_helpers import DATA

    nearby = tmp_path / "nearby.stream"
    lines = (DATA / "nearby.stream").read_text().splitlines()
    nearby.write_text("\n".join([*lines[:4], ":zed :isNearby :a [8] .", *lines[4:]]) + "\n")
    ev = evaluator("qex.rq", {NEARBY: nearby, COUPON: DATA / "coupon.stream"}, static=("shops.ttl",))
    zed = ("zed", "a", "alice", "10% discount on ...")
    assert plain(ev.relations(rsp(t0=(9, 0), report_windows=(1,)))) == [(8, []), (16, [DIANA])]
    assert plain(ev.relations(rsp(t0=(7, 0), report_windows=(1,)))) == [(8, [zed]), (16, [DIANA])]
