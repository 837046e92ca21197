"""Join order in the incremental engine (``lars.incremental.planning``, ``lars.incremental.unfold``):
no cross product where the body is connected.

* The plan seeded at a literal joins next a literal that shares a variable with those bound,
  before a literal whose bound positions are constants only (which would pair every binding
  with every row of it).
* A predicate whose rule is a cross product (its body falls apart into groups of literals that
  share no variable, as the τ translation gives for CSRBench Q6, Dell'Aglio et al. 2013, §6.3,
  whose patterns are joined in written order) is unfolded into its one use when the use's other
  literals join the groups: the product is not kept. When they do not (CityBench Q3's product of
  two static patterns), it is kept.

Both are checked against the reference semantics (``lars.reference``) on random streams, and the
plans and unfolded predicates are checked directly (so that the tests fail if the order or the
unfolding is undone).
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.incremental import IncrementalSolver
from lars.incremental.compiling import compile_program
from lars.model import Program, Stream
from lars.reference import expected_answers
from lars.syntax import parse_program

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_incremental import SETTINGS  # noqa: E402
from test_incremental_unfold import fresh_ef_streams  # noqa: E402

#: the rule's first literal is the seed; the constant-only literal is written before the shared one
CONSTANT_FIRST = "h(X,A) :- e(X,Y) [3], f(A,k0) [3], f(Y,A) [3].\n"
#: a product of two stars, joined by a third literal one rule later (Q6's shape)
PRODUCT = ("c(X,Y,Z,W) :- e(X,Y) [3], f(Z,W) [3].\n"
           "answer(X,W) :- c(X,Y,Z,W), e(Y,Z) [now].\n")


def test_a_literal_sharing_a_bound_variable_is_joined_before_a_constant_one() -> None:
    rules, _, _ = compile_program(parse_program(CONSTANT_FIRST), {"e", "f"})
    (rule,) = [r for r in rules if r.head[0] == "h"]
    seed = next(i for i, lit in enumerate(rule.lits) if lit.variables == {"X", "Y"})
    shared = next(i for i, lit in enumerate(rule.lits) if lit.variables == {"Y", "A"})
    constant = next(i for i, lit in enumerate(rule.lits) if lit.variables == {"A"})
    order = [step[1] for step in rule.plans[seed] if step[0] == "lit"]
    assert order == [shared, constant], rule.plans[seed]


def test_a_cross_product_is_unfolded_into_its_one_use() -> None:
    solver = IncrementalSolver(parse_program(PRODUCT), outputs={"answer"}, stream_predicates={"e", "f"})
    assert ("c", 4) in solver.unfolded
    (rule,) = [r for r in solver.rules if r.head == ("answer", 2)]
    for seed, lit in enumerate(rule.lits):  # no plan pairs a binding with a literal sharing nothing bound
        bound = set(lit.variables)
        for step in rule.plans[seed]:
            if step[0] == "lit":
                other = rule.lits[step[1]]
                assert not other.variables or other.variables & bound, (seed, rule.plans[seed])
                bound |= other.variables


#: a product whose use joins one of its groups only (CityBench Q3's shape): unfolded, the rule
#: would still be a product, joined again at every change of the other literal
PRODUCT_KEPT = ("c(Y,Z) :- e(Y,k0) [3], f(Z,k1) [3].\n"
                "answer(X,Y,Z) :- c(Y,Z), e(X,Y) [now].\n")


def test_a_cross_product_whose_use_does_not_join_its_groups_is_kept() -> None:
    solver = IncrementalSolver(parse_program(PRODUCT_KEPT), outputs={"answer"}, stream_predicates={"e", "f"})
    assert ("c", 2) not in solver.unfolded
    assert any(r.head == ("c", 2) for r in solver.rules)


def _answers(program: Program, stream: Stream, outputs: set[str]) -> list:
    solver = IncrementalSolver(program, outputs=outputs, stream_predicates={"e", "f"})
    times = list(range(stream.timeline[0], stream.timeline[1] + 1))
    return [step.answers for step in solver.run(stream, times)]


@settings(max_examples=40, **SETTINGS)
@given(text=st.sampled_from([CONSTANT_FIRST, PRODUCT, PRODUCT_KEPT,
                             # the product's groups meet through two literals, one of them negated
                             "c(X,Y,Z,W) :- e(X,Y) [2], f(Z,W) [3].\n"
                             "answer(X,W) :- c(X,Y,Z,W), f(Y,Z) [3], not e(W,X) [1].\n",
                             # a product of three groups, one of them a constant pattern
                             "c(X,Y,Z,W) :- e(X,Y) [2], f(Z,k1) [2], e(W,k0) [3].\n"
                             "answer(X,Z,W) :- c(X,Y,Z,W), f(Y,Z) [3], e(Z,W) [2].\n"]),
       stream=fresh_ef_streams())
def test_join_orders_equal_reference(text: str, stream: Stream) -> None:
    program = parse_program(text)
    outputs = {"h"} if text.startswith("h") else {"answer"}
    got = _answers(program, stream, outputs)
    for t, answers in zip(range(stream.timeline[0], stream.timeline[1] + 1), got):
        want = [tuple(a for a in answer if a.split("(", 1)[0] in outputs) for answer in expected_answers(program, stream, t)]
        assert answers == want, t
