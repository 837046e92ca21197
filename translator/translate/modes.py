"""Push- and pull-based execution modes as LARS programs (Dao-Tran, Beck, Eiter 2015, §4.1, D3, D4).

``trigger(P)`` adds the body atom ``trigger`` to every rule of P with a non-empty body; then

* push:  ``π(P)    = trigger(P) ∪ {trigger ← ⊞^0 ◇ p(X̄) | p an input predicate of the stream}``
* pull:  ``π(P, U) = trigger(P) ∪ {trigger ← ⊞^0 @_T true, T mod U = 0}``

Per D3 the push trigger ranges over the stream's *input* predicates (``striple/4`` for RDF
streams): the paper's ``p ∈ A^I`` contradicts its Proposition 1, and a trigger over static
``triple/4`` would fire at every time point. Per D4 time 0 is a pull time. Proposition 1 (push =
plain program at time points with input, nothing derived elsewhere; pull = plain program at
multiples of U) is checked by the tests.
"""

from __future__ import annotations

from typing import Iterable

from lars.model import (
    NOW,
    TRUE,
    Arith,
    Atom,
    Comparison,
    Diamond,
    Integer,
    Literal,
    Program,
    Rule,
    Variable,
    WindowAt,
)
from translator.translate.tau import STRIPLE

TRIGGER = Atom("trigger")
RDF_INPUT = ((STRIPLE, 4),)
"""The input predicate of a translated RSP query: ``striple(S, P, O, stream)``."""


def with_trigger(program: Program) -> tuple[Rule, ...]:
    """``trigger(P)``: every rule with a non-empty body also needs ``trigger``; facts stay as they are."""
    return tuple(Rule(r.head, (*r.body, Literal(TRIGGER))) if r.body else r for r in program.rules)


def push(program: Program, input_predicates: Iterable[tuple[str, int]] = RDF_INPUT) -> Program:
    """``π(P)``: evaluate whenever some input atom arrives (CQELS, data-driven)."""
    triggers = []
    for name, arity in input_predicates:
        atom = Atom(name, tuple(Variable(f"X{k}") for k in range(1, arity + 1)))
        triggers.append(Rule(TRIGGER, (Literal(Diamond(NOW, atom)),)))
    return Program((*with_trigger(program), *triggers))


def pull(program: Program, period: int) -> Program:
    """``π(P, U)``: evaluate at every multiple of the period U (C-SPARQL, time-driven)."""
    if period < 1:
        raise ValueError(f"the pull period must be a positive number of ticks, got {period}")
    t = Variable("T")
    body = (
        Literal(WindowAt(NOW, TRUE, t)),
        Comparison("=", Arith("\\", t, Integer(period)), Integer(0)),
    )
    return Program((*with_trigger(program), Rule(TRIGGER, body)))
