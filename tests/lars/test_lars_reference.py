"""lars.reference on cases computed by hand: window functions (LARS paper), the offer example of
Dao-Tran, Beck, Eiter 2015 (Ex. 5–7), a tram example after Beck et al. (AAAI 2015), all window kinds, D9–D11, no
answer stream, stratification, clingo built-ins, and the Ticker programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from lars.errors import UnsupportedError
from lars.model import Atom, Constant, Integer, PartitionWindow, Stream, TimeWindow, TupleWindow, Variable
from lars.printer import format_atom
from lars.reference import (
    answer_at,
    answer_stream_at,
    expected_answers,
    run,
    strata,
    time_window_bounds,
    window_view,
)
from lars.streams import parse_stream_text
from lars.syntax import parse_program

TICKER = Path(__file__).parent.parent / "data" / "lars" / "ticker"


def answers(program: str, stream: str, times, *, start: int | None = None) -> dict[int, list[str] | None]:
    """Reference answers as sorted strings (``None``: no answer stream)."""
    s = parse_stream_text(stream)
    if start is not None:
        s = Stream(s.points, start=start)
    out = run(parse_program(program), s, times)
    return {t: None if a is None else sorted(format_atom(x) for x in a) for t, a in out.items()}


# ------------------------------------------------------------------------------- window functions


def test_time_window_of_the_lars_paper() -> None:
    """⊞^{l=3,u=1,d=3} over the timeline [0, 9] (LARS paper example)."""
    window = TimeWindow(3, 1, 3)
    got = {t: time_window_bounds(window, t, 0, 9) for t in range(9)}
    assert got == {0: (0, 1), 1: (0, 1), 2: (0, 1), 3: (0, 4), 4: (0, 4), 5: (0, 4), 6: (3, 7), 7: (3, 7), 8: (3, 7)}


def test_time_window_is_cut_at_t_online() -> None:
    """D9: at reference time t the timeline is [tmin, t]; u > 0 cannot look past t."""
    window = TimeWindow(3, 1, 3)
    got = {t: time_window_bounds(window, t, 0) for t in range(10)}
    assert got == {0: (0, 0), 1: (0, 1), 2: (0, 1), 3: (0, 3), 4: (0, 4), 5: (0, 4), 6: (3, 6), 7: (3, 7), 8: (3, 7), 9: (6, 9)}
    assert time_window_bounds(TimeWindow(5), 12, 0) == (7, 12)  # ⊞^L = [t−L, t], L+1 points
    assert time_window_bounds(TimeWindow(0), 12, 0) == (12, 12)  # NOW
    assert time_window_bounds(TimeWindow(None), 12, 4) == (4, 12)  # ⊞^∞
    assert time_window_bounds(TimeWindow(10, 0, 4), 5, 2) == (2, 4)  # ⊞^{L,0,D}: slides every D
    assert time_window_bounds(TimeWindow(0, 0, 4), 5, 5) == (5, 4)  # empty: tmin past the window


def test_tuple_and_partition_windows_by_hand() -> None:
    stream = parse_stream_text("0: p(1), q(1)\n1: p(2)\n2: q(2), p(3)\n4: p(4)\n")
    w = window_view(TupleWindow(2), stream, 4, 0)
    assert (w.lo, w.hi) == (2, 4)
    assert w.kept is not None and w.kept[2] == {parse_atom_("p(3)")} and w.kept[4] == {parse_atom_("p(4)")}
    w = window_view(TupleWindow(5), stream, 1, 0)  # fewer atoms than n: from tmin
    assert (w.lo, w.hi) == (0, 1)
    key = Atom("q", (Variable("_"),))
    w = window_view(PartitionWindow(1, key), stream, 4, 0)  # the last q-atom only
    assert (w.lo, w.hi) == (2, 4)
    assert w.kept is not None and w.kept[2] == {parse_atom_("q(2)")} and not w.kept[4]
    w = window_view(TupleWindow(0), stream, 4, 0)
    assert (w.lo, w.hi) == (4, 4) and w.kept == {4: frozenset()}
    # a repeated atom at one time point counts once (υ(u) is a set), at its first arrival
    a, b, c = Atom("a"), Atom("b"), Atom("c")
    w = window_view(TupleWindow(2), Stream({0: (a, b, a), 1: (c,)}), 1, 0)
    assert (w.lo, w.hi) == (0, 1) and w.kept == {0: {b}, 1: {c}}


def parse_atom_(text: str) -> Atom:
    from lars.syntax import parse_atom

    return parse_atom(text)


# ----------------------------------------------------------------------------- paper examples


def test_offer_example_of_seed_000() -> None:
    """Dao-Tran, Beck, Eiter 2015, Ex. 5–7: Claire gets only shop b's offer, while isNear is in the 5-minute window."""
    program = """
    ans(Sh,Pr,Pe) :- offer(Sh,Pr,Pe) [30], isNear(Sh) [5], g_classify(Pr,Ge), Pe >= 20, Ge != 1.
    g_classify("mbt",1). g_classify("rayban",0).
    """
    stream = '10: offer(a,"mbt",30)\n15: offer(b,"rayban",25)\n18: isNear(a), isNear(b)\n50:\n'
    got = answers(program, stream, range(0, 51), start=0)
    facts = ['g_classify("mbt",1)', 'g_classify("rayban",0)']
    for t, atoms in got.items():
        expected = sorted(facts + (['ans(b,"rayban",25)'] if 18 <= t <= 23 else []))
        assert atoms == expected, t


TRAM = """
exp(Id,Y) at T :- tram(Id,X) at T1 [10], line(Id,L), plan(L,X,Y,D), T = T1 + D.
gc(Id1,Id2,Y) :- exp(Id1,Y) [5], exp(Id2,Y) [5], Id1 != Id2.
line(a1,l1). line(a3,l3). plan(l1,b,m,8). plan(l3,h,m,3).
"""
TRAM_STREAM = "36: tram(a1,b)\n40: tram(a3,h)\n"
TRAM_FACTS = ["line(a1,l1)", "line(a3,l3)", "plan(l1,b,m,8)", "plan(l3,h,m,3)"]


def test_tram_example() -> None:
    """After Beck et al. (AAAI 2015), Ex. 1: trams a1 at b (36) and a3 at h (40); expected
    arrivals at m by the plan (@-heads); a good connection when both are expected within 5."""
    program = parse_program(TRAM)
    stream = Stream(parse_stream_text(TRAM_STREAM).points, start=0)
    at44 = answer_stream_at(program, stream, 44)
    assert at44 is not None
    assert {format_atom(a) for a in at44[43]} == {"exp(a3,m)", *TRAM_FACTS}
    assert {format_atom(a) for a in at44[44]} == {"exp(a1,m)", "gc(a1,a3,m)", "gc(a3,a1,m)", *TRAM_FACTS}
    got = answers(TRAM, TRAM_STREAM, [35, 36, 40, 42, 43, 44, 47, 50, 51], start=0)
    assert got[35] == sorted(TRAM_FACTS)
    # a1's expected arrival (44) lies after t: the @-head has nowhere to go, no answer stream (D9)
    assert got[36] is None and got[40] is None and got[42] is None and got[43] is None
    assert got[44] == sorted(["exp(a1,m)", "gc(a1,a3,m)", "gc(a3,a1,m)", *TRAM_FACTS])
    assert got[47] == sorted(TRAM_FACTS)  # exp(a3,m) holds at 43, not at 47
    at47 = answer_stream_at(program, stream, 47)
    assert at47 is not None and Atom("exp", (Constant("a3"), Constant("m"))) in at47[43]
    assert got[51] == sorted(TRAM_FACTS)


# ------------------------------------------------------------------------------- window kinds


def test_time_windows_step_box_and_at() -> None:
    program = """
    d :- a [3, 1, 3].
    bx :- a always [3, 1, 3].
    st :- b [2 step 3].
    w(T) :- a at T [1].
    """
    stream = "0: a\n1: a\n2: a, b\n3: b\n4: a\n5:\n6: a\n7: a\n8: a\n9: b\n"
    got = answers(program, stream, range(10))
    bx = {0, 1, 2}
    st = {3, 4, 5, 9}
    w = {0: [0], 1: [0, 1], 2: [1, 2], 3: [2], 4: [4], 5: [4], 6: [6], 7: [6, 7], 8: [7, 8], 9: [8]}
    for t in range(10):
        expected = ["d"] + (["bx"] if t in bx else []) + (["st"] if t in st else []) + [f"w({u})" for u in w[t]]
        assert got[t] == sorted(expected), t


def test_tuple_and_partition_windows_in_rules() -> None:
    program = """
    tp(X) :- p(X) [2 #].
    tb :- q(1) always [2 #].
    tat(X,T) :- p(X) at T [3 #].
    part(X) :- p(X) [2 # p(_)].
    """
    stream = "0: p(1), q(1)\n1: p(2)\n2: q(2), p(3)\n3:\n4: p(4)\n"
    got = answers(program, stream, range(5))
    assert got[0] == sorted(["tp(1)", "tb", "tat(1,0)", "part(1)"])
    assert got[1] == sorted(["tp(2)", "tat(1,0)", "tat(2,1)", "part(1)", "part(2)"])
    assert got[2] == sorted(["tp(3)", "tat(2,1)", "tat(3,2)", "part(2)", "part(3)"])
    assert got[3] == got[2]
    assert got[4] == sorted(["tp(3)", "tp(4)", "tat(3,2)", "tat(4,4)", "part(3)", "part(4)"])


# ------------------------------------------------------------------------------- D9 – D11


def test_derived_atoms_exist_only_at_t() -> None:
    """D10: rules apply at t only; a window over an intensional predicate sees it at t."""
    program = "d(X) :- p(X).  e(X) :- d(X) [5].  f(X) :- d(X) always [1]."
    got = answers(program, "0: p(1)\n1: p(1)\n2: p(2)\n", range(3))
    assert got == {0: ["d(1)", "e(1)", "f(1)"], 1: ["d(1)", "e(1)"], 2: ["d(2)", "e(2)"]}


def test_at_heads_put_atoms_in_the_past() -> None:
    program = parse_program("mark at T :- p at T [3].  seen :- mark always [1].")
    stream = parse_stream_text("0: p\n1: p\n2:\n3: p\n")
    assert {t: answer_at(program, stream, t) for t in range(4)} == {
        0: {Atom("mark"), Atom("seen")},
        1: {Atom("mark"), Atom("seen")},
        2: frozenset(),
        3: {Atom("mark")},
    }
    assert answer_stream_at(program, stream, 2) == {0: {Atom("mark")}, 1: {Atom("mark")}}
    assert answer_stream_at(program, stream, 3) == {0: {Atom("mark")}, 1: {Atom("mark")}, 3: {Atom("mark")}}


def test_facts_and_true_hold_at_every_time_point() -> None:
    program = "ok :- f always [5].  f.  tick(T) :- true at T [now], T \\ 2 = 0.  old :- f at 0."
    got = answers(program, "0:\n1:\n2:\n3:\n", range(4))
    assert got == {0: ["f", "ok", "old", "tick(0)"], 1: ["f", "ok", "old"], 2: ["f", "ok", "old", "tick(2)"], 3: ["f", "ok", "old"]}


def test_atom_in_stream_and_head() -> None:
    got = answers("p(X) :- q(X).  r(X) :- p(X) [1].", "0: p(1), q(2)\n1: q(3)\n", range(2))
    assert got == {0: ["p(1)", "p(2)", "r(1)", "r(2)"], 1: ["p(3)", "r(1)", "r(3)"]}


def test_timeline_starts_at_the_stream_start() -> None:
    program = "early :- p at 1.  none :- not p [all]."
    assert answers(program, "3: q\n", [3]) == {3: ["none"]}  # timeline [3, 3]: 1 is outside
    assert answers(program, "3: q\n", [3], start=0) == {3: ["none"]}
    assert answers(program, "1: p\n3: q\n", [3]) == {3: ["early"]}


# --------------------------------------------------------------------------- no answer stream


def test_no_answer_stream() -> None:
    assert answers(":- p, not q.  r :- p.", "0: p\n1: p, q\n", range(2)) == {0: None, 1: ["r"]}
    got = answers("h at T :- p(T).", "0: p(0), p(1)\n1: p(1)\n", range(2))
    assert got == {0: None, 1: ["h"]}  # at 0, @_1 h has no place in [0, 0]
    assert expected_answers(parse_program(":- p."), parse_stream_text("0: p\n"), 0) == []
    assert expected_answers(parse_program("q :- p."), parse_stream_text("0: p\n"), 0) == [("q",)]


def test_non_stratified_programs_are_refused() -> None:
    for text in ["a :- not b.  b :- not a.", "a :- not a [3].", (TICKER / "cacheHopsEvalInst.lars").read_text()]:
        with pytest.raises(UnsupportedError, match="non-stratified negation"):
            answer_at(parse_program(text), parse_stream_text("0: x\n"), 0)


def test_strata_order() -> None:
    program = parse_program("c :- not b.  b :- a, not x.  a :- x.  d :- c, a.")
    layers = [[r.head.predicate for r in layer] for layer in strata(program)]
    assert layers.index(["a"]) < layers.index(["b"]) < layers.index(["c"]) < layers.index(["d"])


def test_stratified_negation() -> None:
    program = "d :- not s.  s :- not h.  b :- not s, not h.  h :- not p."
    got = answers(program, "0: p\n1: q\n", range(2))
    assert got == {0: ["s"], 1: ["d", "h"]}


# ------------------------------------------------------------------------------- built-ins


def test_clingo_arithmetic_and_order() -> None:
    program = """
    r(X / 2, X \\ 2) :- n(X).
    n(-7). n(7).
    v(1). v(a). v("s"). v(f(1)).
    small(X) :- v(X), X < b.
    big(X) :- v(X), X > "a".
    und :- n(X), Y = X + a.
    zero :- n(X), Y = X / 0.
    """
    got = answers(program, "0:\n", [0])[0]
    assert got is not None
    derived = [a for a in got if not a.startswith(("n(", "v("))]
    assert derived == sorted(["r(-3,-1)", "r(3,1)", "small(1)", "small(a)", 'big("s")', "big(f(1))"])


def test_anonymous_variables_and_unsafe_rules() -> None:
    assert answers("h(X) :- r(X), not s(X,_).", "0: r(1), r(2), s(1,a)\n", [0]) == {0: ["h(2)"]}
    assert answers("h :- s(_,_) always [1].", "0: s(1,a)\n1: s(1,a), s(2,b)\n", [1]) == {1: ["h"]}
    # a variable nothing binds ranges over the active domain (constants of program, stream, timeline)
    assert answers("u(X) :- not p(X).", "0: p(a), q(b)\n", [0]) == {0: ["u(0)", "u(b)"]}


# ---------------------------------------------------------------------------- Ticker programs


def test_ticker_mmedia_runs() -> None:
    program = parse_program((TICKER / "MMedia.lars").read_text())
    stream = parse_stream_text("0: alpha(25)\n1:\n")
    values = {"value(5)", "value(15)", "value(25)"}
    assert {format_atom(a) for a in answer_at(program, stream, 0)} == {"high", "lfu", "done"} | values
    assert {format_atom(a) for a in answer_at(program, stream, 1)} == {"random"} | values
    at1 = answer_stream_at(program, stream, 1)
    assert at1 is not None and Atom("high") in at1[0]


def test_ticker_program_runs() -> None:
    program = parse_program((TICKER / "program.lars").read_text())
    stream = parse_stream_text("0: rec(1)\n1: rec(2)\n2: rec(3)\n")
    cars = {f"car({i})" for i in range(1, 5)}
    assert {format_atom(a) for a in answer_at(program, stream, 1)} == cars
    assert {format_atom(a) for a in answer_at(program, stream, 2)} == {"moreThanTwo"} | cars
    at2 = answer_stream_at(program, stream, 2)
    assert at2 is not None and Atom("third") in at2[0] and Atom("third") not in at2[2]


def test_reference_time_before_the_stream() -> None:
    with pytest.raises(ValueError):
        answer_at(parse_program("a."), parse_stream_text("3: p\n"), 2)



def test_right_open_windows_and_calls() -> None:
    """u = −1 (lars.model's right-open extension, D2): [t−L, t) ends one tick before t."""
    assert time_window_bounds(TimeWindow(3, -1, 1), 10, 0) == (7, 9)
    assert time_window_bounds(TimeWindow(None, -1, 1), 10, 0) == (0, 9)
    assert answers("h :- p [2, -1, 1].", "0: p\n1:\n2:\n3:\n", range(4)) == {0: [], 1: ["h"], 2: ["h"], 3: []}
    functions = {"double": lambda x: Integer(2 * x.value), "name": lambda: Constant("n")}
    program = parse_program("h(X, @double(X), @name()) :- p(X), @double(X) > 2.  k(Y) :- q(Y), Y = @double(2).")
    got = run(program, parse_stream_text("0: p(1), p(2), q(3), q(4)\n"), [0], functions=functions)[0]
    assert got is not None
    assert sorted(format_atom(a) for a in got) == ["h(2,4,n)", "k(4)"]
    with pytest.raises(UnsupportedError, match="@double"):
        answer_at(program, parse_stream_text("0: p(1)\n"), 0)
