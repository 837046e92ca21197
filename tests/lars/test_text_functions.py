"""Grounding-time functions that also read their arguments' texts (``on_texts``, ``lars.incremental``):
the incremental engine decides a comparison ``@f(…) op k``, and computes an assignment
``X = @f(…)``, on the rows' texts when the function can, and on the terms otherwise; the answers
are the reference semantics' either way, and the texts are really used (a function whose
``on_texts`` disagrees changes them)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.incremental import IncrementalSolver
from lars.model import Integer, String
from lars.reference import expected_answers
from lars.streams import parse_stream_text
from lars.syntax import parse_program

PROGRAM = 'big(X) :- v(X) [3], @ge("10", X) = 1.\n'


def ge(limit: String, x) -> Integer:
    """1 iff x is an integer or a numeric string at least ``limit``."""
    value = x.value if isinstance(x, Integer) else int(x.value) if isinstance(x, String) and x.value.lstrip("-").isdigit() else None
    return Integer(1 if value is not None and value >= int(limit.value) else 0)


def ge_texts(texts):
    """The same on texts, for integers only (anything else: undecided)."""
    limit, x = texts
    if not x.lstrip("-").isdigit():
        return None
    return Integer(1 if int(x) >= int(limit.strip('"')) else 0)


def wrong_texts(texts):
    return Integer(1)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.lists(st.one_of(st.integers(-20, 30).map(str), st.sampled_from(['"12"', '"x"', "a"])), max_size=4),
                       min_size=1, max_size=8))
def test_comparisons_decided_on_texts_equal_the_reference(points) -> None:
    _texts_equal_terms_and_reference(PROGRAM, "ge", ge, ge_texts, points)


def test_the_engine_uses_the_texts() -> None:
    program = parse_program(PROGRAM)
    stream = parse_stream_text("0: v(1), v(11)\n")
    ge.on_texts = wrong_texts
    try:
        got = [s.answers for s in IncrementalSolver(program, functions={"ge": ge}).run(stream)]
    finally:
        del ge.on_texts
    assert got == [[("big(1)", "big(11)")]]  # the wrong text function was asked
    assert [s.answers for s in IncrementalSolver(program, functions={"ge": ge}).run(stream)] == [[("big(11)",)]]


ASSIGNMENT = "half(X, H) :- v(X) [2], H = @half(X).\n"


def half(x):
    """An integer halved (truncated), a numeric string halved as a string, else the term itself."""
    if isinstance(x, Integer):
        return Integer(x.value // 2)
    if isinstance(x, String) and x.value.lstrip("-").isdigit():
        return String(str(int(x.value) // 2))
    return x


def half_texts(texts):
    """The same on texts, for integers only (anything else: undecided)."""
    (x,) = texts
    return Integer(int(x) // 2) if x.lstrip("-").isdigit() else None


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.lists(st.one_of(st.integers(-20, 30).map(str), st.sampled_from(['"12"', '"x"', "a"])), max_size=4),
                       min_size=1, max_size=8))
def test_assignments_computed_on_texts_equal_the_reference(points) -> None:
    _texts_equal_terms_and_reference(ASSIGNMENT, "half", half, half_texts, points)


def test_the_engine_assigns_from_the_texts() -> None:
    program = parse_program(ASSIGNMENT)
    stream = parse_stream_text("0: v(7)\n")
    half.on_texts = lambda texts: Integer(0)
    try:
        got = [s.answers for s in IncrementalSolver(program, functions={"half": half}).run(stream)]
    finally:
        del half.on_texts
    assert got == [[("half(7,0)",)]]  # the wrong text function was asked
    assert [s.answers for s in IncrementalSolver(program, functions={"half": half}).run(stream)] == [[("half(7,3)",)]]


def _texts_equal_terms_and_reference(text: str, name: str, fn, on_texts, points) -> None:
    """The engine with ``fn.on_texts`` gives the answers it gives without it, and those are the
    reference semantics' at every time point of the stream ``T: v(x), …`` of ``points``."""
    program = parse_program(text)
    stream = parse_stream_text("\n".join(f"{t}: " + ", ".join(f"v({x})" for x in xs) for t, xs in enumerate(points)) + "\n")
    fn.on_texts = on_texts
    try:
        got = [s.answers for s in IncrementalSolver(program, functions={name: fn}).run(stream)]
    finally:
        del fn.on_texts
    expected = [s.answers for s in IncrementalSolver(program, functions={name: fn}).run(stream)]
    assert got == expected
    assert expected == [expected_answers(program, stream, t, functions={name: fn}) for t in range(len(points))]
