"""Stars in the incremental engine (``lars.incremental.planning.Star``): literals of one rule over one
relation that share a variable at one position, as the triple patterns of a SPARQL subject. When a
batch of changed rows leaves no value of that variable with a row of the star's first literal
outside the batch (every subject's triples come together), only the first literal's seed is run.
Checked against the reference semantics (``lars.reference``) at every time point, on stars of
several shapes over random streams that mix fresh subjects (all their triples at one time point)
with subjects whose triples come at different time points, leave the window and come back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lars.incremental import IncrementalSolver
from lars.incremental.engine import Engine
from lars.model import Atom, Constant, Stream
from lars.reference import expected_answers
from lars.syntax import parse_program

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_incremental import SETTINGS  # noqa: E402

PROGRAMS = [
    # a subject's star of three patterns, one with a constant object
    "h(X,V,W) :- t(X,p,V) [2], t(X,q,W) [2], t(X,r,k0) [2].",
    # the same through a copy of the window (the τ translation's triple/4), with a join outside the star
    "c(S,P,O) :- t(S,P,O) [3].\ng(V) :- t(V,r,V) [1].\nh(X,V,W) :- c(X,p,V), g(V), c(X,q,W).",
    # the star's variable at the object's position, and a literal of the star read twice
    "h(X,S,U) :- t(S,p,X) [2], t(U,q,X) [2], t(U,q,X) [2].",
    # a star with a negated literal and a comparison beside it
    "h(X,V) :- t(X,p,V) [3], t(X,q,V) [3], not t(X,r,V) [1], V != k1.",
    # a variable twice in the first literal (no star is made on it) and a star on another one
    "h(X,V) :- t(X,p,X) [2], t(X,q,V) [2], t(V,r,X) [2].",
]
SUBJECTS = ["s0", "s1", "s2"]
OBJECTS = ["k0", "k1", "s0", "s1"]


@st.composite
def star_streams(draw) -> Stream:
    """Each time point: some fresh subjects with all three patterns at once, and some triples of
    the few recurring subjects (their stars spread over time points)."""
    length = draw(st.integers(1, 12))
    points = {}
    for t in range(length):
        atoms = []
        for n in range(draw(st.integers(0, 2))):  # fresh subjects, the whole star together
            s = Constant(f"f{t}_{n}")
            obj = Constant(draw(st.sampled_from(OBJECTS)))
            for p in draw(st.lists(st.sampled_from("pqr"), min_size=1, max_size=3, unique=True)):
                atoms.append(Atom("t", (s, Constant(p), obj if draw(st.booleans()) else Constant("k0"))))
        for _ in range(draw(st.integers(0, 3))):  # recurring subjects
            atoms.append(Atom("t", (Constant(draw(st.sampled_from(SUBJECTS))), Constant(draw(st.sampled_from("pqr"))),
                                    Constant(draw(st.sampled_from(OBJECTS))))))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, 0, length - 1)


@pytest.mark.parametrize("text", PROGRAMS)
@settings(max_examples=120, **SETTINGS)
@given(stream=star_streams())
def test_stars_equal_the_reference_semantics(text: str, stream: Stream) -> None:
    program = parse_program(text)
    solver = IncrementalSolver(program, outputs={"h"}, stream_predicates={"t"})
    times = list(range(stream.timeline[0], stream.timeline[1] + 1))
    got = [step.answers for step in solver.run(stream, times)]
    expected = [[tuple(a for a in answer if a.startswith("h(")) for answer in expected_answers(program, stream, t)]
                for t in times]
    assert got == expected


def test_a_star_is_found_and_its_later_seeds_are_skipped_on_fresh_subjects(monkeypatch) -> None:
    """The first program's rule has a star on X (position 0); on a stream of fresh subjects every
    batch is fresh, and the later literals' seeds do not run."""
    program = parse_program(PROGRAMS[0])
    solver = IncrementalSolver(program, outputs={"h"}, stream_predicates={"t"})
    (rule,) = [r for r in solver.rules if r.head == ("h", 3)]
    (star,) = rule.star.values()
    assert (star.first, star.pos) == (0, 0)
    verdicts: list[bool] = []
    original = Engine.star_is_fresh

    def spy(self, rel, s, rows):
        verdicts.append(original(self, rel, s, rows))
        return verdicts[-1]

    monkeypatch.setattr(Engine, "star_is_fresh", spy)
    atoms = {t: tuple(Atom("t", (Constant(f"o{t}"), Constant(p), Constant("k0"))) for p in "pqr") for t in range(5)}
    steps = list(solver.run(Stream(atoms, 0, 4)))
    assert verdicts and all(verdicts)
    assert steps[4].answers == [("h(o2,k0,k0)", "h(o3,k0,k0)", "h(o4,k0,k0)")]
    # a subject whose triples come at two time points: not fresh when its second part comes
    verdicts.clear()
    split = {0: (Atom("t", (Constant("o"), Constant("p"), Constant("k0"))),),
             1: (Atom("t", (Constant("o"), Constant("q"), Constant("k0"))), Atom("t", (Constant("o"), Constant("r"), Constant("k0"))))}
    steps = list(IncrementalSolver(program, outputs={"h"}, stream_predicates={"t"}).run(Stream(split, 0, 1)))
    assert False in verdicts and steps[1].answers == [("h(o,k0,k0)",)]
