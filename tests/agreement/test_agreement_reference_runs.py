"""Agreement on answers computed by the LARS reference semantics (``lars.reference``), not by hand.

The running example of Dao-Tran, Beck, Eiter 2015 (Ex. 1–7) written as τ1-style (C-SPARQL: stream triples merged into
the default graph) and τ2-style (CQELS: stream graph patterns read the stream) LARS programs, run
in push and pull mode (``translator.translate.modes``, Dao-Tran, Beck, Eiter 2015, §4.1) at every time point of [0, 30]. The
verdicts must equal the definition computed naively on these answers, and the hand-computed
expectations; the diagnosis must find the cause each scenario was built to exhibit.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import pytest

from agreement_oracles import naive_verdicts
from lars.model import Diamond, Literal, Program, Rule, TimeWindow
from lars.printer import format_term
from lars.reference import run
from lars.streams import parse_stream_text
from lars.syntax import parse_program
from translator.agreement import BoundsAlternative, Cause, Runs, Solution, diagnose, judge
from translator.translate.modes import pull, push

STATIC = "triple(mbt,g_classify,1). triple(rayban,g_classify,0).\n"
# a static triple sharing the stream pattern ?user :isNear ?shop violates condition (ii)
SHARED = "triple(claire,isNear,b).\n"
TAU1 = """
triple(S,P,O) :- striple(S,P,O,offers) [30].
triple(S,P,O) :- striple(S,P,O,near) [5].
ans(Sh,Pr,Pe) :- triple(Sh,offers,C), triple(C,reduce,Pe), triple(C,on,Pr), triple(U,isNear,Sh),
                 triple(Pr,g_classify,Ge), Pe >= 20, Ge != 1.
"""
TAU2 = """
ans(Sh,Pr,Pe) :- striple(Sh,offers,C,offers) [30], striple(C,reduce,Pe,offers) [30], striple(C,on,Pr,offers) [30],
                 striple(U,isNear,Sh,near) [5], triple(Pr,g_classify,Ge), Pe >= 20, Ge != 1.
"""
STREAM = """
10: striple(a,offers,c1,offers), striple(c1,reduce,30,offers), striple(c1,on,mbt,offers)
15: striple(b,offers,c2,offers), striple(c2,reduce,25,offers), striple(c2,on,rayban,offers)
18: striple(claire,isNear,a,near), striple(claire,isNear,b,near)
"""
HORIZON = 30
B = Solution.from_mapping({"shop": "b", "product": "rayban", "percent": "25"})


def right_open(program: Program) -> Program:
    """Every ``⊞^L`` (L > 0) becomes ``[t−L, t)`` (D2 ``right-open``; TimeWindow u = −1)."""

    def window(lit):
        if isinstance(lit, Literal) and isinstance(lit.atom, Diamond) and isinstance(lit.atom.window, TimeWindow):
            w = lit.atom.window
            if w.l and w.u == 0:
                return dataclasses.replace(lit, atom=dataclasses.replace(lit.atom, window=dataclasses.replace(w, u=-1)))
        return lit

    return Program(tuple(Rule(r.head, tuple(window(b) for b in r.body)) for r in program.rules))


@lru_cache(maxsize=None)
def answers(translation: str, mode: str, period: int = 0, bounds: str = "closed", shared: bool = False):
    """``t -> frozenset[Solution]`` of the ``ans`` atoms at every t in [0, HORIZON]."""
    program = parse_program(STATIC + (SHARED if shared else "") + (TAU1 if translation == "tau1" else TAU2))
    if bounds == "right-open":
        program = right_open(program)
    moded = push(program) if mode == "push" else pull(program, period)
    stream = dataclasses.replace(parse_stream_text(STREAM), start=0, end=HORIZON)
    out = {}
    for t, atoms in run(moded, stream, range(HORIZON + 1)).items():
        assert atoms is not None, f"no answer stream at {t}"
        out[t] = frozenset(
            Solution.from_mapping(dict(zip(("shop", "product", "percent"), map(format_term, a.args))))
            for a in atoms
            if a.predicate == "ans"
        )
    return out


@pytest.mark.parametrize(("period", "disagreeing"), [(3, [(18, 21)]), (5, []), (10, [])])
def test_running_example_verdicts_equal_the_definition(period, disagreeing):
    pulled, pushed = answers("tau1", "pull", period), answers("tau2", "push")
    result = judge(pulled, pushed, period)
    naive = naive_verdicts(pulled, pushed, period)
    assert [(v.index, v.agrees, set(v.missing), set(v.extra)) for v in result.intervals] == [
        (i, ok, missing, extra) for i, _, _, ok, missing, extra in naive
    ]
    assert [(v.start, v.end) for v in result.intervals if not v.agrees] == disagreeing
    assert pushed[18] == {B}  # the only push answer: when isNear arrives


def test_running_example_disagreement_is_the_execution_mode():
    runs = Runs(answers("tau1", "pull", 3), answers("tau2", "pull", 3), answers("tau2", "push"))
    d = diagnose(runs, 3)
    assert [(x.start, x.end, x.sorted_causes) for x in d.intervals] == [(18, 21, [Cause.EXECUTION_MODE])]
    assert d.intervals[0].mode.missing == {B}


def test_shared_static_pattern_is_diagnosed_as_dataset_construction():
    # τ1 also finds claire near b in the static data: it answers b as long as b's offer is in its
    # 30-minute window, τ2 only while the streamed isNear is in its 5-minute window
    runs = Runs(answers("tau1", "pull", 10, shared=True), answers("tau2", "pull", 10, shared=True), answers("tau2", "push", shared=True))
    d = diagnose(runs, 10)
    assert [(v.start, v.end, v.verdict.value) for v in d.headline.intervals] == [
        (0, 10, "agree"), (10, 20, "agree"), (20, 30, "disagree"),
    ]
    assert [(x.start, x.end, x.sorted_causes) for x in d.intervals] == [(20, 30, [Cause.DATASET])]
    assert d.intervals[0].dataset_only_tau1 == {B}


def test_right_open_bounds_diagnosed_against_closed():
    # with [t−5, t) the push evaluation at 18 does not see the isNear that just arrived: push never
    # answers, pull at 20 does; under closed bounds the runs agree
    runs = Runs(
        answers("tau1", "pull", 5, "right-open"),
        answers("tau2", "pull", 5, "right-open"),
        answers("tau2", "push", 0, "right-open"),
        window_bounds="right-open",
    )
    other = BoundsAlternative("closed", answers("tau1", "pull", 5), answers("tau2", "push"))
    d = diagnose(runs, 5, other=other)
    assert all(not a for a in runs.tau2_push.values())
    assert [(x.start, x.end, x.sorted_causes) for x in d.intervals] == [
        (15, 20, [Cause.EXECUTION_MODE, Cause.WINDOW_BOUNDS])
    ]
