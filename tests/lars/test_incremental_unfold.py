"""Unfolding intermediate predicates in the incremental engine (``lars.incremental.unfold``): with ``outputs``
and ``stream_predicates`` given (as ``rsplars run`` gives them), a predicate defined by one rule
and read by one positive literal is replaced by its definition. Checked against the reference
semantics (``lars.reference``, restricted to the outputs) and against the same engine without
unfolding, at every time point, on random non-recursive programs of chains of rules (joins on
shared variables, constants and repeated variables in heads and bodies, comparisons, negation,
predicates with two rules (unfolded as alternatives into one use) or two uses, facts beside a renaming, constraints) over streams of mostly fresh
terms that leave every window and come back; and on a CityBench query (the chain of joins the
τ translation gives is unfolded, and the answers equal pyoxigraph's)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lars.errors import RsplarsError
from lars.incremental import IncrementalSolver
from lars.incremental.unfold import MAX_ALTERNATIVES
from lars.model import Atom, Constant, Program, Stream, String
from lars.reference import expected_answers
from lars.syntax import parse_program

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_incremental import SETTINGS  # noqa: E402

VARS = ["X", "Y", "Z", "W"]
CONSTS = ["k0", "k1"]
WINDOWS = ["[2]", "[3]", "[now]", "[1]", "always [2]"]


@st.composite
def chain_programs(draw) -> tuple[Program, set[str]]:
    """Rules q0, q1, … each over stream literals ``e(_,_)``/``f(_,_)`` in windows and earlier
    predicates, joined on shared variables, with constants; the last predicate (and maybe others)
    is output. Most predicates have one rule and one use (unfolded); some get a second rule, a
    second use, a negated use, a fact or a constraint reading them (kept)."""
    arity: dict[str, int] = {}
    rules: list[str] = []
    n = draw(st.integers(2, 6))
    for k in range(n):
        name = f"q{k}"
        body: list[str] = []
        bound: list[str] = []
        for j in range(draw(st.integers(1, 3))):
            earlier = list(arity)
            if earlier and (j == 0 and draw(st.integers(0, 4)) > 0 or j > 0 and draw(st.integers(0, 4)) == 0):
                p = earlier[-1] if j == 0 else draw(st.sampled_from(earlier))  # mostly the chain's previous link
                args = [draw(st.sampled_from(VARS + CONSTS)) for _ in range(arity[p])]
                body.append(f"{p}({','.join(args)})" if args else p)
            else:
                pred = draw(st.sampled_from(["e", "f"]))
                args = [draw(st.sampled_from(VARS + CONSTS)) for _ in range(2)]
                body.append(f"{pred}({','.join(args)}) {draw(st.sampled_from(WINDOWS))}")
            bound += [a for a in args if a in VARS]
        bound = sorted(set(bound))
        if bound and draw(st.integers(0, 3)) == 0:
            body.append(f"{draw(st.sampled_from(bound))} != {draw(st.sampled_from(CONSTS))}")
        if bound and arity and draw(st.integers(0, 4)) == 0:
            p = draw(st.sampled_from(list(arity)))
            args = [draw(st.sampled_from(bound)) for _ in range(arity[p])]
            body.append(f"not {p}({','.join(args)})" if args else f"not {p}")
        size = draw(st.integers(0, 3))
        head = [draw(st.sampled_from(bound + CONSTS)) if bound else draw(st.sampled_from(CONSTS)) for _ in range(size)]
        arity[name] = size
        text = f"{name}({','.join(head)})" if head else name
        rules.append(f"{text} :- {', '.join(body)}.")
        if draw(st.integers(0, 7)) == 0:  # a second rule: unfolded as alternatives into one use, else kept
            pred = draw(st.sampled_from(["e", "f"]))
            pattern = [draw(st.sampled_from(["X", "Y"])) for _ in range(size)]
            rules.append(f"{name}({','.join(pattern)}) :- {pred}(X,Y) [2]." if size else f"{name} :- {pred}(X,Y) [2].")
        if draw(st.integers(0, 12)) == 0:
            fact = draw(st.sampled_from(CONSTS))  # beside a renaming, uses of the other constant read its rule only
            rules.append(f"{name}({','.join(fact for _ in range(size))})." if size else f"{name}.")
    names = list(arity)
    outputs = {names[-1]} | set(draw(st.lists(st.sampled_from(names), max_size=1)) if draw(st.integers(0, 3)) == 0 else ())
    if draw(st.integers(0, 8)) == 0:
        p = draw(st.sampled_from(names))
        args = ",".join("X" for _ in range(arity[p]))
        rules.append(f":- {p}({args}), e(X,X) [now]." if args else f":- {p}, e(X,X) [now].")
    return parse_program("\n".join(rules)), outputs


@st.composite
def fresh_ef_streams(draw) -> Stream:
    """``e``/``f`` atoms of mostly fresh terms; now and then a term seen before comes back after
    it has left every window, or one of the program's constants."""
    length = draw(st.integers(1, 16))
    points = {}
    seen: list = []
    for t in range(length):
        atoms = []
        for i in range(draw(st.integers(0, 4))):
            args = []
            for j in range(2):
                kind = draw(st.sampled_from(["fresh", "fresh", "back", "const", "same"]))
                if kind == "back" and seen:
                    args.append(draw(st.sampled_from(seen)))
                elif kind == "const":
                    args.append(Constant(draw(st.sampled_from(CONSTS))))
                elif kind == "same" and args:
                    args.append(args[0])
                else:
                    term = Constant(f"c{t}_{i}_{j}")
                    seen.append(term)
                    args.append(term)
            atoms.append(Atom(draw(st.sampled_from(["e", "f"])), tuple(args)))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, 0, length - 1)


def _only(answers: list, names: set[str]) -> list:
    return [tuple(a for a in answer if a.split("(", 1)[0] in names) for answer in answers]


def _run(program: Program, stream: Stream, outputs: set[str], unfold: bool) -> tuple[IncrementalSolver, list]:
    solver = IncrementalSolver(program, outputs=outputs, stream_predicates={"e", "f"}, unfold=unfold)
    times = list(range(stream.timeline[0], stream.timeline[1] + 1))
    return solver, [step.answers for step in solver.run(stream, times)]


@settings(max_examples=300, **SETTINGS)
@given(case=chain_programs(), stream=fresh_ef_streams())
def test_unfolded_chains_equal_reference_and_the_engine_without_unfolding(case, stream: Stream) -> None:
    program, outputs = case
    solver, got = _run(program, stream, outputs, True)
    assert not solver.unfolded & solver.outputs
    _, plain = _run(program, stream, outputs, False)
    assert got == plain
    for t, answers in zip(range(stream.timeline[0], stream.timeline[1] + 1), got):
        assert answers == _only(expected_answers(program, stream, t), outputs), t


def test_unfolding_takes_the_chain_and_keeps_what_it_must() -> None:
    program = parse_program(
        "a(X,Y) :- e(X,Y) [3].\n"
        "b(X,Y,Z) :- a(X,Y), f(Y,Z) [2].\n"          # one rule, one use: unfolded
        "c(Y,k0) :- b(X,Y,Z), Z != k1.\n"            # one rule, one use: unfolded (a constant in the head)
        "d(Y) :- c(Y,k0), not g(Y).\n"               # read by two rules: kept
        "g(Y) :- f(Y,Y) [now].\n"                    # read negated: kept
        "answer(Y) :- d(Y).\n"
        "other(Y) :- d(Y), e(Y,Y) [1].\n")
    solver = IncrementalSolver(program, outputs={"answer", "other"}, stream_predicates={"e", "f"})
    assert solver.unfolded == {("a", 2), ("b", 3), ("c", 2)}
    assert {r.head for r in solver.rules} == {("d", 1), ("g", 1), ("answer", 1), ("other", 1)}
    # without the stream's predicates, an intermediate atom could come from the stream (D11): each
    # predicate has a second rule, its copy from the stream, and is unfolded with both rules while
    # a rule of the program becomes at most MAX_ALTERNATIVES rules (d, read twice, is kept)
    unsure = IncrementalSolver(program, outputs={"answer"})
    assert unsure.unfolded == {("a", 2), ("b", 3), ("c", 2)}
    assert sum(r.head == ("d", 1) for r in unsure.rules) == MAX_ALTERNATIVES + 1  # and its own copy
    # without outputs, every predicate is read: kept
    assert not IncrementalSolver(program, stream_predicates={"e", "f"}).unfolded


def test_a_join_on_no_shared_variable_is_not_unfolded() -> None:
    """``h`` joins ``p`` and ``q`` on nothing (a product): each change of q would go through p's
    whole body, so p is kept, and so is q; the chain inside p (keyed on Y) is unfolded."""
    program = parse_program("r(X,Y) :- e(X,Y) [2].\np(X,Z) :- r(X,Y), f(Y,Z) [2].\n"
                            "q(W) :- f(W,W) [2].\nh(X,W) :- p(X,Z), q(W).\n")
    solver = IncrementalSolver(program, outputs={"h"}, stream_predicates={"e", "f"})
    assert solver.unfolded == {("r", 2)}


def test_a_stream_atom_outside_the_declared_predicates_is_an_error() -> None:
    program = parse_program("a(X) :- e(X,Y) [2].\nanswer(X) :- a(X).\n")
    stream = Stream({0: (Atom("e", (Constant("u"), Constant("v"))),), 1: (Atom("a", (Constant("w"),)),)}, 0, 1)
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e"})
    assert solver.unfolded == {("a", 1)}
    with pytest.raises(RsplarsError, match="a/1 at t=1"):
        list(solver.run(stream))
    # declared, the atom of a holds at its time point (D11) and nothing is unfolded
    steps = list(IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e", "a"}).run(stream))
    assert [s.answers for s in steps] == [[("answer(u)",)], [("answer(u)", "answer(w)")]]


TAU_SHAPE = (
    'triple(S,P,O,stream) :- striple(S,P,O,"<s>") [4].\n'
    'ans2(X,Y) :- triple(X,"<p>",Y,default).\n'
    'ans2(X,Y) :- triple(X,"<p>",Y,stream).\n'
    'ans3(X,Z) :- triple(X,"<q>",Z,default).\n'
    'ans3(X,Z) :- triple(X,"<q>",Z,stream).\n'
    'answer(X,Y,Z) :- ans2(X,Y), ans3(X,Z).\n')


def _striples(rows: dict[int, list[tuple[str, str, str]]]) -> Stream:
    return Stream({t: tuple(Atom("striple", (Constant(s), String(p), Constant(o), String("<s>"))) for s, p, o in atoms)
                   for t, atoms in rows.items()}, 0, max(rows))


def test_rules_that_can_never_apply_are_dropped_and_the_window_rule_is_unfolded_into_each_use() -> None:
    """The τ translation's shape: every pattern read from the default graph (no static data: no
    ``triple(…, default)`` can hold, those rules are dropped) and from the stream's window, whose
    rule is a renaming unfolded into both of its uses; then the chain is unfolded."""
    program = parse_program(TAU_SHAPE)
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"striple"})
    assert solver.unfolded == {("triple", 4), ("ans2", 2), ("ans3", 2)}
    ((rule,),) = [[r for r in solver.rules if r.head == ("answer", 3)]]
    assert [lit.rel[3] for lit in rule.lits] == [("striple", 4), ("striple", 4)]  # the window, twice
    stream = _striples({0: [("o1", "<p>", "s1"), ("o1", "<q>", "v1")], 2: [("o2", "<q>", "v2"), ("o2", "<p>", "s2")],
                        4: [("o1", "<q>", "v3")], 6: [], 9: [("o2", "<p>", "s3")]})
    times = list(range(0, 10))
    got = [step.answers for step in solver.run(stream, times)]
    plain = [step.answers for step in IncrementalSolver(program, outputs={"answer"}, stream_predicates={"striple"}, unfold=False).run(stream, times)]
    assert got == plain == [_only(expected_answers(program, stream, t), {"answer"}) for t in times]
    assert got[4] == [("answer(o1,s1,v1)", "answer(o1,s1,v3)", "answer(o2,s2,v2)")]


def test_a_fact_or_a_rule_that_may_give_the_atom_keeps_the_rule() -> None:
    """With static data (a ``triple(…, default)`` fact) the default graph's rules stay (ans2 has
    two rules then, unfolded as alternatives into its one use), and so does a rule whose head has
    a variable where the literal has a constant; a rule whose literal no head matches goes, then
    the rules that read only what it gave."""
    static = parse_program(TAU_SHAPE + 'triple(o9,"<p>",s9,default).\n')
    solver = IncrementalSolver(static, outputs={"answer"}, stream_predicates={"striple"})
    assert {("ans2", 2), ("ans3", 2)} <= solver.unfolded and sum(r.head == ("answer", 3) for r in solver.rules) == 2
    steps = list(solver.run(_striples({0: [("o9", "<q>", "v9")], 1: []}), [0, 1]))
    assert [s.answers for s in steps] == [[("answer(o9,s9,v9)",)], [("answer(o9,s9,v9)",)]]
    program = parse_program('a(X,k0) :- e(X,Y) [2].\nb(X) :- a(X,k1).\nc(X) :- b(X).\nanswer(X) :- c(X).\n'
                            'answer(X) :- a(X,k0).\nd(X,Y) :- f(X,Y) [2].\nanswer(X) :- d(X,k1).\n')
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e", "f"})
    heads = [r.head for r in solver.rules]
    assert ("b", 1) not in heads and ("c", 1) not in heads  # a(X,k1) never holds: b's rule, then c's, go
    assert heads.count(("answer", 1)) == 2  # a(X,k0) and d(X,k1) may hold (a variable in d's head)


def test_a_renaming_read_negated_or_a_join_read_twice_is_kept() -> None:
    program = parse_program('a(X) :- e(X,Y) [2].\nb(X,Y) :- e(X,Z) [2], f(Z,Y) [2].\n'
                            'answer(X) :- f(X,X) [1], not a(X).\nanswer(Y) :- b(X,Y).\nanswer(X) :- b(X,X), f(X,X) [1].\n')
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e", "f"})
    assert solver.unfolded == set()


def test_a_negated_literal_that_never_holds_keeps_its_rule() -> None:
    """``not a(X,k1)`` when no ``a(…, k1)`` can hold: true, not dead; the rule stays and derives."""
    program = parse_program('a(X,k0) :- f(X,Y) [2].\nanswer(X) :- e(X,Y) [2], not a(X,k1).\n')
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e", "f"})
    stream = Stream({0: (Atom("e", (Constant("u"), Constant("v"))), Atom("f", (Constant("u"), Constant("v"))))}, 0, 0)
    assert [s.answers for s in solver.run(stream)] == [[("answer(u)",)]] == [_only(expected_answers(program, stream, 0), {"answer"})]


@st.composite
def tau_with_static_data(draw) -> tuple[Program, Stream]:
    """The τ translation's shape with static data: ``triple(…, default)`` facts beside the
    window's renaming rule, over few subjects, so that stream triples join static ones."""
    subjects = ["o1", "o2", "o3"]
    facts = [f'triple({draw(st.sampled_from(subjects))},"<{draw(st.sampled_from("pq"))}>",{draw(st.sampled_from(["s1", "v1"]))},default).'
             for _ in range(draw(st.integers(1, 3)))]
    rows = {t: [(draw(st.sampled_from(subjects)), f"<{draw(st.sampled_from('pq'))}>", draw(st.sampled_from(["s2", "v2", "v3"])))
                for _ in range(draw(st.integers(0, 3)))] for t in range(draw(st.integers(1, 10)))}
    return parse_program(TAU_SHAPE + "\n".join(facts) + "\n"), _striples(rows)


@settings(max_examples=100, **SETTINGS)
@given(case=tau_with_static_data())
def test_the_window_rule_beside_static_facts_is_unfolded_into_the_stream_uses(case) -> None:
    """``triple`` has facts (the static data) and one rule (the window's renaming): the uses that
    read ``triple(…, stream)`` read the window's relation instead, those reading ``triple(…,
    default)`` the facts; the answers equal the reference semantics and the engine without
    unfolding at every time point."""
    program, stream = case
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"striple"})
    assert ("triple", 4) not in {r.head for r in solver.rules} and ("triple", 4) not in solver.unfolded
    assert all(lit.rel[0] == "#win" for r in solver.rules for lit in r.lits if lit.args and lit.args[-1] == Constant("stream"))
    times = list(range(stream.timeline[0], stream.timeline[1] + 1))
    got = [step.answers for step in solver.run(stream, times)]
    plain = [step.answers for step in IncrementalSolver(program, outputs={"answer"}, stream_predicates={"striple"}, unfold=False).run(stream, times)]
    assert got == plain == [_only(expected_answers(program, stream, t), {"answer"}) for t in times]


def test_a_use_that_may_read_both_the_facts_and_the_rule_keeps_the_rule() -> None:
    program = parse_program('a(X,Y) :- e(X,Y) [2].\na(k0,k1).\nanswer(X) :- a(X,k1), f(X,X) [1].\n'
                            'answer(X) :- a(X,k0).\n')
    solver = IncrementalSolver(program, outputs={"answer"}, stream_predicates={"e", "f"})
    assert ("a", 2) in {r.head for r in solver.rules}
