"""The incremental engine with ``outputs`` (``lars.incremental.IncrementalSolver(outputs=…)``, what
``rsplars run`` uses): only the atoms of the output predicates are given, and stream atoms that no
output can depend on are dropped as they are read (``stream_filters``, a demand analysis over the
constants of the rules). Checked against the reference semantics (``lars.reference``) restricted to
the output predicates, on

* the random programs of ``test_incremental`` (windows ◇/□/@, negation, comparisons, assignments,
  self-joins, facts, constraints) with a random set of output predicates;
* RDF-shaped programs (``triple(S,P,O,g) :- striple(S,P,O,st) [w]`` and rules that keep triples of
  a few constant predicates, joins, negation, a comparison) over streams of fresh IRIs whose
  predicates mostly match no pattern, and where IRIs leave every window and come back.

The batch delta rule (``_Batch``) and the term parser without the LARS grammar are checked here
too, against the row-by-row path and ``parse_ground_atom``."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.incremental import IncrementalSolver, stream_filters
from lars.incremental.rules import NEG, WIN
from lars.incremental.texts import parse_term
from lars.model import Atom, Constant, Function, Integer, Program, Stream, String
from lars.printer import format_term
from lars.reference import expected_answers
from lars.streams import LiveStream, parse_ground_atom
from lars.syntax import parse_program

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_incremental import SETTINGS, fresh_streams, programs  # noqa: E402


def _only(answers: list, names: set[str]) -> list:
    return [tuple(a for a in answer if a.split("(", 1)[0] in names) for answer in answers]


@settings(max_examples=150, **SETTINGS)
@given(program=programs(), stream=fresh_streams(), data=st.data())
def test_outputs_equal_reference_restricted(program: Program, stream: Stream, data) -> None:
    heads = sorted({r.head.predicate for r in program.rules if r.head is not None})
    names = set(data.draw(st.lists(st.sampled_from(heads), unique=True))) if heads else set()
    tmin, tmax = stream.timeline
    times = list(range(tmin, tmax + 1))
    steps = list(IncrementalSolver(program, outputs=names).run(stream, times))
    for step in steps:
        assert step.answers == _only(expected_answers(program, stream, step.t), names), step.t


PREDICATES = ["type", "proc", "value", "prop", "other", "noise"]


@st.composite
def rdf_programs(draw) -> tuple[Program, set[str]]:
    """A translated-query shape: the window's triples, rules keeping triples of constant
    predicates (some of them negated, joined, compared), an answer predicate."""
    w = draw(st.sampled_from(["[2]", "[3]", "[now]", "[2, 0, 1]"]))
    kind = draw(st.sampled_from(["", "", " always"]))
    rules = [f"tr(S,P,O,st) :- striple(S,P,O,g1){kind} {w}.",
             f"tr(S,P,O,st) :- striple(S,P,O,g2) {draw(st.sampled_from(['[2]', '[0]']))}."]
    pats = []
    for i in range(draw(st.integers(1, 3))):
        p = draw(st.sampled_from(PREDICATES[:4]))
        graph = draw(st.sampled_from(["st", "st", "dflt"]))
        rules.append(f"a{i}(S,O,dflt) :- tr(S,\"{p}\",O,{graph}).")
        pats.append(i)
    body = [f"a{pats[0]}(S,O,dflt)"]
    if len(pats) > 1:
        body.append(f"a{pats[1]}(S,O2,dflt)")
    if draw(st.booleans()):
        body.append(f"not tr(S,\"{draw(st.sampled_from(PREDICATES))}\",O,st)")
    if draw(st.booleans()):
        body.append(f"O != \"{draw(st.sampled_from(['v0', 'v1']))}\"")
    rules.append(f"b(S,O) :- {', '.join(body)}.")
    rules.append("answer(S,O) :- b(S,O), trig.")
    rules.append("trig :- true at T [now], T \\ 2 = 0." if draw(st.booleans()) else "trig.")
    if draw(st.booleans()):
        rules.append('tr("s0","proc","v1",dflt).')
    return parse_program("\n".join(rules)), {"answer"}


@st.composite
def rdf_streams(draw) -> Stream:
    """``striple(S,P,O,g)``: fresh subjects, mostly predicates no pattern matches, subjects and
    objects that leave every window and come back."""
    length = draw(st.integers(1, 18))
    seen = [String("s0")]
    points = {}
    for t in range(length):
        atoms = []
        for i in range(draw(st.integers(0, 3))):  # an observation: triples of one subject and object
            s = draw(st.sampled_from(seen)) if draw(st.integers(0, 3)) == 0 else String(f"o{t}_{i}")
            seen.append(s)
            o = String(draw(st.sampled_from(["v0", "v1", "v2"]))) if draw(st.booleans()) else draw(st.sampled_from(seen))
            for p in draw(st.lists(st.sampled_from(PREDICATES), min_size=1, max_size=4, unique=True)):
                g = Constant(draw(st.sampled_from(["g1", "g1", "g2", "g3"])))
                atoms.append(Atom("striple", (s, String(p), o, g)))
        if atoms:
            points[t] = tuple(dict.fromkeys(atoms))
    return Stream(points, 0, length - 1)


@settings(max_examples=200, **SETTINGS)
@given(case=rdf_programs(), stream=rdf_streams())
def test_rdf_shaped_programs_drop_only_what_no_answer_needs(case, stream: Stream) -> None:
    program, names = case
    solver = IncrementalSolver(program, outputs=names)
    # every window over the stream reads constant predicates (or, all of them unfolded away, no
    # window reads the stream: its rows are never kept)
    windows = {(lit.rel[1] if lit.rel[0] == NEG else lit.rel) for r in solver.rules for lit in r.lits}
    assert ("striple", 4) in solver.filters or not any(rel[0] == WIN and rel[3] == ("striple", 4) for rel in windows)
    times = list(range(stream.timeline[0], stream.timeline[1] + 1))
    steps = list(solver.run(stream, times))
    for step in steps:
        assert step.answers == _only(expected_answers(program, stream, step.t), names), step.t
    if stream.points:  # read live: the timeline starts at the first time point with data
        live = list(IncrementalSolver(program, outputs=names).run(LiveStream(iter(sorted(stream.points.items())))))
        cut = Stream(stream.points, start=min(stream.points), end=max(stream.points))
        assert [s.answers for s in live] == [_only(expected_answers(program, cut, s.t), names) for s in live]
        assert [s.t for s in live] == list(range(min(stream.points), max(stream.points) + 1))


def test_stream_filter_keeps_the_needed_predicates_only() -> None:
    program = parse_program('tr(S,P,O,st) :- striple(S,P,O,g1) [3].\n'
                            'a(S,O) :- tr(S,"proc",O,st).\n'
                            'b(S) :- tr(S,"value",O,st), not tr(S,"noise",O,st).\n'
                            'answer(S,O) :- a(S,O), b(S).\n'
                            'c(S) :- tr(S,"other",O,st).\n')
    solver = IncrementalSolver(program, outputs={"answer"})
    ((checks,),) = [solver.filters[("striple", 4)]]
    assert dict(checks) == {1: {'"proc"', '"value"', '"noise"'}, 3: {"g1"}}  # c/1 is needed by nothing
    assert stream_filters(solver.rules, solver.order, {s for s in solver.order if s[0] in ("answer", "c")})[("striple", 4)] \
        == [((1, frozenset({'"proc"', '"value"', '"noise"', '"other"'})), (3, frozenset({"g1"})))]
    # a window that reads every predicate: nothing can be dropped
    assert not IncrementalSolver(parse_program(program_text := 'answer(S) :- striple(S,P,O,G) [2].'), outputs={"answer"}).filters, program_text
    # no outputs given: every atom of every predicate, nothing dropped
    assert not IncrementalSolver(program).filters


def test_batches_equal_row_by_row() -> None:
    """The same run with the batch plans removed (every rule row by row) gives the same answers."""
    text = ('h(X,Z) :- p(X,Y) [2], p(Y,Z) [2].\n'
            'k(X) :- p(X,X) [3], p(X,Y) [3], not p(Y,X) [3].\n'
            'm(X,W) :- p(X,Y) [1], W = Y + 1, W > 2, not q(W).\n'
            'q(X) :- r(X) [2], not r(X) [0].\n'
            'n(X) :- q(X), r(Y) [3], X != Y.\n')
    program = parse_program(text)
    points = {t: tuple(dict.fromkeys([Atom("p", (Integer(t % 3), Integer((t * 7) % 4))), Atom("p", (Integer(t % 2), Integer(t % 2))),
                                      Atom("r", (Integer(t % 5),))])) for t in range(30)}
    stream = Stream(points)
    batched = IncrementalSolver(program)
    assert any(r.batch for r in batched.rules)
    plain = IncrementalSolver(program)
    for r in plain.rules:
        r.batch.clear()
    got = [s.answers for s in batched.run(stream)]
    assert got == [s.answers for s in plain.run(stream)]
    assert got == [expected_answers(program, stream, t) for t in range(30)]


@settings(max_examples=300, **SETTINGS)
@given(term=st.recursive(
    st.one_of(st.integers(-1000, 1000).map(Integer), st.text(max_size=6).map(String),
              st.from_regex(r"[a-z][A-Za-z0-9_]{0,5}", fullmatch=True).map(Constant)),
    lambda inner: st.builds(Function, st.sampled_from(["f", "g"]), st.lists(inner, min_size=1, max_size=3).map(tuple)),
    max_leaves=5))
def test_term_texts_parse_back_as_the_lars_parser_does(term) -> None:
    text = format_term(term)
    assert parse_term(text) == parse_ground_atom(f"x({text})").args[0] == term
