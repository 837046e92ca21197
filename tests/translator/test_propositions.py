"""Proposition 1 of seed 000 (§4.1) as a property, through the reference semantics
(``lars.reference``) and through the clingo engine (``asp.solver``).

For a LARS program P and a stream S (random stratified programs with every window kind, from the
generator of ``tests/asp/test_asp_property.py``, imported, and random streams):

* push: ``π(P)`` (``translator.modes.push`` with the stream's input predicates, D3) has at every
  time point t with input (υ(t) ≠ ∅) the answer of P at t plus ``trigger``; at every other time
  point nothing is derived (the answer is P's facts only);
* pull: ``π(P, U)`` has at every multiple of U (time 0 included, D4) the answer of P plus
  ``trigger``; at every other time point nothing is derived: P's facts, and input atoms at t of a
  predicate that also occurs in rule heads (they hold as input, D10).

"The answer of P at t" is computed by the reference semantics on P itself, so the property ties
the mode translations to the plain program, not to themselves. Proposition 2 (τ, τ1, τ2 agree with
SPARQL without streams) is ``test_tau_vs_rdflib.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asp.solver import StreamSolver
from lars.model import Atom, Integer, Program, Stream
from lars.printer import format_atom
from lars.reference import expected_answers
from translator.modes import TRIGGER, pull, push


def _generator():
    """The random stratified program and stream generator of the engine's property test."""
    path = Path(__file__).resolve().parents[1] / "asp" / "test_asp_property.py"
    spec = importlib.util.spec_from_file_location("asp_property_generators", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
programs, streams = GEN.programs, GEN.streams


def input_predicates(stream: Stream) -> set[tuple[str, int]]:
    return {(a.predicate, len(a.args)) for _, atoms in stream.items() for a in atoms}


def nothing_derived(program: Program, stream: Stream, t: int) -> list[tuple[str, ...]]:
    """The answer at t when no rule fires: P's facts, and the input atoms at t of predicates that
    are also intensional (they hold at t as input, not derived; the generator's ``m``)."""
    heads = program.intensional()
    inputs = {a for a in stream.at(t) if (a.predicate, len(a.args)) in heads}
    return [tuple(sorted({format_atom(r.head) for r in program.rules if r.is_fact}
                         | {format_atom(a) for a in inputs}))]


def with_trigger(answers: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return [tuple(sorted((*a, format_atom(TRIGGER)))) for a in answers]


def expected(program: Program, stream: Stream, t: int, fires: bool) -> list[tuple[str, ...]]:
    """Proposition 1: P's answer (plus ``trigger``) where the mode fires, nothing derived elsewhere."""
    return with_trigger(expected_answers(program, stream, t)) if fires else nothing_derived(program, stream, t)


SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(program=programs(), stream=streams())
def test_proposition_1_push(program: Program, stream: Stream) -> None:
    moded = push(program, sorted(input_predicates(stream)))
    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    want = {t: expected(program, stream, t, bool(stream.at(t))) for t in times}
    assert {t: expected_answers(moded, stream, t) for t in times} == want  # reference semantics
    assert {s.t: s.answers for s in StreamSolver(moded).run(stream, times)} == want  # engine


@SETTINGS
@given(program=programs(), stream=streams(), period=st.integers(1, 4))
def test_proposition_1_pull(program: Program, stream: Stream, period: int) -> None:
    moded = pull(program, period)
    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    want = {t: expected(program, stream, t, t % period == 0) for t in times}
    assert {t: expected_answers(moded, stream, t) for t in times} == want
    assert {s.t: s.answers for s in StreamSolver(moded).run(stream, times)} == want


def test_push_trigger_ignores_static_data() -> None:
    """D3: a fact of the program (background data) does not fire push; stream input does."""
    from lars.syntax import parse_program

    program = parse_program("f(1).\nh(X) :- f(X).\n")
    stream = Stream({2: (Atom("p", (Integer(1),)),)}, 0, 3)
    moded = push(program, [("p", 1)])
    assert [expected_answers(moded, stream, t) for t in range(4)] == [
        [("f(1)",)], [("f(1)",)], [("f(1)", "h(1)", "trigger")], [("f(1)",)]]
