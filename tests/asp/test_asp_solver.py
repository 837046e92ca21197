"""The clingo engine (asp.solver) on cases computed by hand: the LARS paper's examples, every window
kind and operator, D9–D11, no / several answer streams, grounding-time functions, and the
multi-shot vs one-shot regression check (STYLE.md §3)."""

from __future__ import annotations

import clingo
import pytest

from asp.solver import AspError, StreamSolver, solve_at_once
from asp.windows import time_window_bounds
from lars.model import TRUE, Atom, Constant, Integer, Literal, Program, Rule, Stream, TimeWindow, Variable, WindowAt
from lars.streams import parse_stream_text
from lars.syntax import parse_program

from engine_helpers import engine

# ------------------------------------------------------------------------------- paper examples


def test_time_window_of_the_lars_paper() -> None:
    """⊞^{l=3,u=1,d=3} on the timeline [0, 9] (Beck et al. 2015): t∈{0,1,2} → [0,1],
    t∈{3,4,5} → [0,4], t∈{6,7,8} → [3,7]. Offline (window not cut at t): t' = ⌊t/3⌋·3,
    [max(0, t'−3), min(t'+1, 9)]."""
    w = TimeWindow(3, 1, 3)
    offline = {t: (max(0, (t // 3) * 3 - 3), min((t // 3) * 3 + 1, 9)) for t in range(9)}
    assert offline == {0: (0, 1), 1: (0, 1), 2: (0, 1), 3: (0, 4), 4: (0, 4), 5: (0, 4), 6: (3, 7), 7: (3, 7), 8: (3, 7)}
    # online (D9) the engine cuts the window at t: min(t'+1, t)
    assert {t: time_window_bounds(w, t, 0) for t in range(9)} == {
        0: (0, 0), 1: (0, 1), 2: (0, 1), 3: (0, 3), 4: (0, 4), 5: (0, 4), 6: (3, 6), 7: (3, 7), 8: (3, 7)
    }
    # the same through the engine: w(T) for every point T of the window (⊞^{3,1,3} @_T true)
    T = Variable("T")
    program = Program((Rule(Atom("w", (T,)), (Literal(WindowAt(w, TRUE, T)),)),))
    stream = Stream({0: (), 9: ()}, start=0, end=9)
    got = solve_at_once(program, stream, range(10))
    for t, (lo, hi) in {t: time_window_bounds(w, t, 0) for t in range(10)}.items():
        assert got[t] == [tuple(sorted(f"w({u})" for u in range(lo, hi + 1)))], t


TRAM = """
exp(Id,Y) at T :- tram(Id,X) at T1 [10], line(Id,L), plan(L,X,Y,D), T = T1 + D.
gc(Id1,Id2,Y) :- exp(Id1,Y) [5], exp(Id2,Y) [5], Id1 != Id2.
line(a1,l1). line(a3,l3). plan(l1,b,m,8). plan(l3,h,m,3).
"""
TRAM_FACTS = ["line(a1,l1)", "line(a3,l3)", "plan(l1,b,m,8)", "plan(l3,h,m,3)"]


def test_tram_example() -> None:
    """After Beck et al. (AAAI 2015), Ex. 1: tram a1 at b at 36 (8 minutes to m), a3 at h at 40
    (3 minutes to m). Expected arrivals are @-heads; a good connection gc needs both expected
    within the last 5 minutes. By hand: exp(a3,m) at 43, exp(a1,m) at 44; while an arrival lies
    after t the @-head has no place in [0, t], so there is no answer stream (36..43)."""
    got = engine(TRAM, "36: tram(a1,b)\n40: tram(a3,h)\n", [35, 36, 40, 43, 44, 47, 49, 50], start=0)
    facts = sorted(TRAM_FACTS)
    assert got[35] == facts
    assert got[36] is None and got[40] is None and got[43] is None
    assert got[44] == sorted(["exp(a1,m)", "gc(a1,a3,m)", "gc(a3,a1,m)", *TRAM_FACTS])
    assert got[47] == facts  # exp(a3,m) holds at 43 only; nothing at 47
    assert got[49] == facts and got[50] == facts


def test_offer_example_of_seed_000() -> None:
    """Dao-Tran, Beck, Eiter 2015, Ex. 5–7: Claire (near a and b from 18) gets only shop b's offer; it lasts while
    isNear is in the 5-minute window, 18..23."""
    program = """
    ans(Sh,Pr,Pe) :- offer(Sh,Pr,Pe) [30], isNear(Sh) [5], g_classify(Pr,Ge), Pe >= 20, Ge != 1.
    g_classify("mbt",1). g_classify("rayban",0).
    """
    stream = '10: offer(a,"mbt",30)\n15: offer(b,"rayban",25)\n18: isNear(a), isNear(b)\n50:\n'
    got = engine(program, stream, range(0, 51), start=0)
    facts = ['g_classify("mbt",1)', 'g_classify("rayban",0)']
    for t, atoms in got.items():
        assert atoms == sorted(facts + (['ans(b,"rayban",25)'] if 18 <= t <= 23 else [])), t


# ------------------------------------------------------------------------------- window kinds


def test_time_windows_sliding_step_box_at() -> None:
    program = """
    d :- a [3, 1, 3].
    bx :- a always [3, 1, 3].
    st :- b [2 step 3].
    w(T) :- a at T [1].
    gap :- a always [2].
    """
    stream = "0: a\n1: a\n2: a, b\n3: b\n4: a\n5:\n6: a\n7: a\n8: a\n9: b\n"
    got = engine(program, stream, range(10))
    # by hand: windows at t (online): [3,1,3] -> as in the paper test; [2 step 3] = ⊞^{2,0,3}
    bx = {0, 1, 2}  # [0,0], [0,1], [0,1] all a; from 3 on b-only point 3 or gap 5 is inside
    st = {3, 4, 5, 9}  # t'=3: [1,3] has b at 2,3; t'=0: [0,0]; t'=6: [4,6] no b; t'=9: [7,9] b at 9
    gap = {0, 1, 2, 8}  # a at every point of [t-2, t] ∩ [0, t]
    w = {0: [0], 1: [0, 1], 2: [1, 2], 3: [2], 4: [4], 5: [4], 6: [6], 7: [6, 7], 8: [7, 8], 9: [8]}
    for t in range(10):
        expected = ["d"] + (["bx"] if t in bx else []) + (["st"] if t in st else []) + (["gap"] if t in gap else [])
        assert got[t] == sorted(expected + [f"w({u})" for u in w[t]]), t


def test_now_and_unbounded_windows() -> None:
    program = "n :- a [now].  ever :- b [all].  always_a :- a always [all]."
    got = engine(program, "0: a\n1: a, b\n2:\n3: a\n", range(4))
    assert got == {0: ["always_a", "n"], 1: ["always_a", "ever", "n"], 2: ["ever"], 3: ["ever", "n"]}


def test_tuple_windows_with_ties_at_the_cut() -> None:
    """⊞^{#2}: the last 2 stream atoms in arrival order; at t=2 the cut falls inside time point 2
    (q(2) arrived before p(3), so only p(3) is kept there)."""
    program = """
    tp(X) :- p(X) [2 #].
    tq(X) :- q(X) [2 #].
    tb :- q(1) always [2 #].
    tat(X,T) :- p(X) at T [3 #].
    """
    stream = "0: p(1), q(1)\n1: p(2)\n2: q(2), p(3)\n3:\n4: p(4)\n"
    got = engine(program, stream, range(5))
    assert got[0] == sorted(["tp(1)", "tq(1)", "tb", "tat(1,0)"])  # both atoms of 0; q(1) at every point of [0,0]
    assert got[1] == sorted(["tp(2)", "tq(1)", "tat(1,0)", "tat(2,1)"])  # {q(1)@0, p(2)@1}: □q(1) fails at 1
    assert got[2] == sorted(["tp(3)", "tq(2)", "tat(2,1)", "tat(3,2)"])
    assert got[3] == got[2]
    assert got[4] == sorted(["tp(3)", "tp(4)", "tat(3,2)", "tat(4,4)"])  # cut inside 2: p(3) only


def test_partition_windows() -> None:
    """⊞^{#n} per partition (the stream atoms matching the key): the last q-atom is kept whatever
    number of p-atoms arrive after it."""
    program = "lastq(X) :- q(X) [1 # q(_)].  lastp(X) :- p(X) [1 # p(_)].  anyq(X) :- q(X) [1 #]."
    got = engine(program, "0: q(1), p(1)\n1: p(2)\n2: p(3), q(2)\n3: p(4)\n", range(4))
    assert got == {
        0: ["anyq(1)"][:0] + ["lastp(1)", "lastq(1)"],
        1: ["lastp(2)", "lastq(1)"],
        2: ["anyq(2)", "lastp(3)", "lastq(2)"],
        3: ["lastp(4)", "lastq(2)"],
    }


def test_windows_over_derived_atoms_D10() -> None:
    """D10: windows over an intensional predicate see only what the evaluation at t derives."""
    got = engine("d(X) :- p(X).  e(X) :- d(X) [5].  f(X) :- d(X) always [1].", "0: p(1)\n1: p(1)\n2: p(2)\n", range(3))
    assert got == {0: ["d(1)", "e(1)", "f(1)"], 1: ["d(1)", "e(1)"], 2: ["d(2)", "e(2)"]}


def test_at_heads_and_windows_over_them() -> None:
    got = engine("mark at T :- p at T [3].  seen :- mark always [1].", "0: p\n1: p\n2:\n3: p\n", range(4))
    assert got == {0: ["mark", "seen"], 1: ["mark", "seen"], 2: [], 3: ["mark"]}


def test_facts_true_and_arithmetic() -> None:
    program = "ok :- f always [5].  f.  tick(T) :- true at T [now], T \\ 2 = 0.  old :- f at 0.  next(Y) :- n(X), Y = X + 1."
    got = engine(program, "0: n(1)\n1:\n2: n(5)\n3:\n", range(4))
    assert got == {
        0: ["f", "next(2)", "ok", "old", "tick(0)"],
        1: ["f", "ok", "old"],
        2: ["f", "next(6)", "ok", "old", "tick(2)"],
        3: ["f", "ok", "old"],
    }


def test_atom_both_in_stream_and_head() -> None:
    got = engine("p(X) :- q(X).  r(X) :- p(X) [1].", "0: p(1), q(2)\n1: q(3)\n", range(2))
    assert got == {0: ["p(1)", "p(2)", "r(1)", "r(2)"], 1: ["p(3)", "r(1)", "r(3)"]}


def test_negation_comparisons_and_anonymous_variables() -> None:
    program = "h(X) :- r(X), not s(X,_).  lt(X) :- r(X), X < 2.  ne(X) :- r(X), X != 1.  nw :- r(1), not s(2,b) [3]."
    got = engine(program, "0: s(2,b)\n1: r(1), r(2), s(1,a)\n", [1])
    assert got == {1: ["h(2)", "lt(1)", "ne(2)"]}
    got = engine(program, "0: s(2,b)\n9: r(1)\n", [9])
    assert got == {9: ["h(1)", "lt(1)", "nw"]}


def test_answers_print_as_format_atom() -> None:
    """Answers are printed as lars.printer.format_atom prints atoms (strings with escapes too)."""
    from lars.model import String
    from lars.printer import format_atom

    atoms = [Atom("p", (String(v),)) for v in ['a\tb', 'q"x', "back\\s", "nl\nx", "uni é"]] + [Atom("p", (Integer(-3),))]
    program = parse_program("q(X) :- p(X).")
    got = solve_at_once(program, Stream({0: tuple(atoms)}), [0])[0]
    assert got == [tuple(sorted(format_atom(Atom("q", a.args)) for a in atoms))]


def test_right_open_windows() -> None:
    assert engine("h :- p [2, -1, 1].", "0: p\n1:\n2:\n3:\n", range(4)) == {0: [], 1: ["h"], 2: ["h"], 3: []}


# ------------------------------------------------------------------------ no / several answers


def test_no_answer_stream() -> None:
    assert engine(":- p, not q.  r :- p.", "0: p\n1: p, q\n", range(2)) == {0: None, 1: ["r"]}
    # at 0, @_1 h has no place in the timeline [0, 0]: the rule acts as a constraint
    assert engine("h at T :- p(T).", "0: p(0), p(1)\n1: p(1)\n", range(2)) == {0: None, 1: ["h"]}


def test_several_answer_streams() -> None:
    program = "a :- not b, x.  b :- not a, x."
    assert engine(program, "0: x\n1: y\n", range(2), models=0) == {0: [["a"], ["b"]], 1: []}
    steps = list(StreamSolver(parse_program(program), models=1).run(parse_stream_text("0: x\n1: y\n")))
    assert len(steps[0].answers) == 1 and steps[0].more  # one listed, more exist
    assert steps[1].answers == [()] and not steps[1].more
    steps = list(StreamSolver(parse_program(program + " :- a."), models=0).run(parse_stream_text("0: x\n")))
    assert steps[0].answers == [("b",)] and not steps[0].more


def test_grounding_time_functions() -> None:
    functions = {"double": lambda x: Integer(2 * x.value), "name": lambda: Constant("n")}
    program = parse_program("h(X, @double(X), @name()) :- p(X), @double(X) > 2.  k(Y) :- q(Y), Y = @double(2).")
    steps = list(StreamSolver(program, functions=functions).run(parse_stream_text("0: p(1), p(2), q(3), q(4)\n")))
    assert steps[0].answers == [("h(2,4,n)", "k(4)")]
    with pytest.raises(Exception, match="double"):
        list(StreamSolver(program).run(parse_stream_text("0: p(1)\n")))


def test_unsafe_rules_are_reported() -> None:
    with pytest.raises(AspError, match="unsafe"):
        list(StreamSolver(parse_program("u(X) :- not p(X).")).run(parse_stream_text("0: p(a)\n")))


def test_reserved_names_are_refused() -> None:
    from lars.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="reserved"):
        list(StreamSolver(parse_program("lars_x :- p.")).run(parse_stream_text("0: p\n")))


# --------------------------------------------------------------- multi-shot vs one-shot (STYLE §3)

REGRESSION_PROGRAMS = [
    "q(X) :- p(X) [2].  r :- a always [1].  s(X) :- p(X) at T [3], T >= 1.",
    "h at T :- p(X) at T [2], X = 3.  g :- h [5].  b :- h always [1].  f(5).",
    "t(X) :- p(X) [2 #].  u(X) :- p(X) [1 # p(_)].  v :- a always [2 #].",
    "tick(T) :- true at T [now], T \\ 2 = 0.  st :- a [3 step 2].  n :- not a [2].",
]
REGRESSION_STREAM = "0: a, p(1)\n1: p(2), a\n2: b, p(3)\n3: p(1), p(3)\n5: a\n6: p(3)\n7: a, p(2), p(3)\n"


def _plain_clingo(text: str) -> list[tuple[str, ...]]:
    """A fresh clingo on the printed ASP text (as a user would run it)."""
    ctl = clingo.Control(["0"], message_limit=0)
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    found: list[tuple[str, ...]] = []
    ctl.solve(on_model=lambda m: found.append(tuple(sorted(str(s) for s in m.symbols(shown=True)))))
    return found


@pytest.mark.parametrize("text", REGRESSION_PROGRAMS)
def test_multi_shot_equals_one_shot(text: str) -> None:
    """One Control across all time points == a fresh Control per time point == plain clingo on
    ``--print-asp`` text; also with tiny epochs (rebuilt every other time point)."""
    program = parse_program(text)
    stream = parse_stream_text(REGRESSION_STREAM)
    times = range(0, 8)
    multi = {s.t: s.answers for s in StreamSolver(program).run(stream, times)}
    small_epochs = {s.t: s.answers for s in StreamSolver(program, epoch_span=2, lookahead=0).run(stream, times)}
    assert small_epochs == multi
    for t in times:
        one = list(StreamSolver(program).run(stream, [t]))
        assert one[0].answers == multi[t], t
        assert _plain_clingo(StreamSolver(program).asp_text(stream, t)) == multi[t], t


def test_bounded_atoms_keep_one_control() -> None:
    """A stream whose distinct atoms are all seen early: one Control for the whole run."""
    stream = Stream({t: tuple(Atom("p", (Integer(i),)) for i in range(t % 3, 5)) for t in range(200)})
    solver = StreamSolver(parse_program("q(X) :- p(X) [3].  r(X) :- p(X) always [2]."))
    steps = list(solver.run(stream))
    assert len(steps) == 200 and solver.epochs == 1
    assert steps[150].answers == [tuple(sorted([f"q({i})" for i in range(5)] + [f"r({i})" for i in range(2, 5)]))]


def test_find_literals_agrees_with_symbolic_atoms() -> None:
    from clingo.control import Control
    from clingo.symbol import Function, Number

    from asp.symbols import find_literals

    ctl = Control(["--models=0"])
    ctl.add("base", [], '#external e(1). #external e(2). a(X) :- e(X). b("s"). #show a/1. #show b/1.')
    ctl.ground([("base", [])])
    wanted = [Function("e", [Number(2)]), Function("e", [Number(3)]), Function("e", [Number(1)])]
    atoms = ctl.symbolic_atoms
    assert find_literals(atoms, wanted) == [atoms[wanted[0]].literal, None, atoms[wanted[2]].literal]
    assert None not in (atoms[wanted[0]].literal, atoms[wanted[2]].literal)


def test_answers_and_deltas_follow_atoms_that_come_go_and_return() -> None:
    """The single answer is updated from the model's symbols (``_Run._update_answer``): an atom
    that leaves and comes back, in the same epoch and across epochs, is printed again, and every
    delta is the set difference of two consecutive answers."""
    content = {0: [1], 1: [1, 2], 2: [2], 3: [1], 4: [], 5: [1, 3], 6: [3], 7: [1, 2, 3], 8: [], 9: [2]}
    stream = Stream({t: tuple(Atom("p", (Integer(i),)) for i in ids) for t, ids in content.items()})
    for span in (100, 2):
        solver = StreamSolver(parse_program("q(X) :- p(X)."), reuse=False, epoch_span=span, lookahead=0)
        previous: set[str] | None = None
        for step in solver.run(stream, range(10)):
            expected = {f"q({i})" for i in content[step.t]}
            assert step.answers == [tuple(sorted(expected))], (span, step.t)
            if previous is not None and step.delta is not None:
                assert step.delta == (tuple(sorted(expected - previous)), tuple(sorted(previous - expected))), (span, step.t)
            previous = expected


def test_the_engine_uses_only_the_public_clingo_api() -> None:
    """clingo's cffi module and the handles behind its objects are not its API."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for path in sorted((root / "asp").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "clingo._internal" not in text and "._rep" not in text, path
