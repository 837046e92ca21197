"""asp.encode: the documented shape of the encoding (docs/asp-encoding.md §3), on small programs."""

from __future__ import annotations

import pytest

from asp.encode import encode
from lars.errors import UnsupportedError
from lars.syntax import parse_program


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("%")]


def test_extensional_literals_become_externals() -> None:
    enc = encode(parse_program("q(X) :- p(X), r(X) [3 sec], s(X) always [2], u(X) at T [1 #], not v(X) [now]."), frozenset())
    assert lines(enc.text)[0] == (
        "q(X) :- lars_now(p(X)), lars_dia(0,r(X)), lars_at(2,u(X),T), not lars_dia(3,v(X)), lars_box(1,s(X))."
    )
    # the □ literal's variable is bound by the rest of the body: a copy for the empty window
    assert lines(enc.text)[1] == "q(X) :- lars_now(p(X)), lars_dia(0,r(X)), lars_at(2,u(X),T), not lars_dia(3,v(X)), not lars_nonempty(1)."
    assert "#external lars_box(1,A) : A = @lars_domain(box,1)." in enc.interface
    assert enc.stratified and enc.temporal  # lars_at carries time points


def test_time_free_programs_are_not_temporal() -> None:
    enc = encode(parse_program("q(X) :- p(X) [32].  r :- q(1) [3]."), frozenset())
    assert not enc.temporal
    assert "lars_idia(1,q(X1)) :- q(X1), lars_has_now(1)." in enc.text


def test_at_heads_and_intensional_windows() -> None:
    enc = encode(parse_program("h at T :- p at T [3].  seen :- h always [1]."), frozenset())
    text = enc.text
    assert "lars_hat(h,T) :- lars_b0(T), lars_tl(T)." in text
    assert ":- lars_b0(T), not lars_tl(T)." in text
    assert "h :- lars_hat(h,T), lars_now_t(T)." in text
    assert "lars_ibox(1,h) :- lars_icand(1,h); lars_iat(1,h,T) : lars_in(1,T)." in text
    assert "#show h/0." in text and "#show seen/0." in text


def test_predicates_in_stream_and_heads() -> None:
    program = parse_program("p(X) :- q(X).  r(X) :- p(X) [1].")
    mixed = encode(program, frozenset({("p", 1)})).text
    assert "lars_der(p(X)) :- lars_now(q(X))." in mixed
    assert "p(X1) :- lars_now(p(X1))." in mixed and "lars_idia(0,p(X1)) :- lars_dia(0,p(X1))." in mixed
    plain = encode(program, frozenset()).text
    assert "lars_der" not in plain


def test_non_stratified_programs_are_flagged() -> None:
    assert not encode(parse_program("a :- not b, x.  b :- not a, x.")).stratified


@pytest.mark.parametrize("text", ["lars_q :- p.", "q :- lars_p.", "q(lars_f(1)) :- p."])
def test_reserved_prefix(text: str) -> None:
    with pytest.raises(UnsupportedError, match="reserved"):
        encode(parse_program(text))


def test_pull_trigger_is_a_clock_condition_and_keeps_time_out_of_the_ground_program() -> None:
    """``trigger :- true at T [now], T \\ U = 0`` (Dao-Tran, Beck, Eiter 2015, §4.1): T = t, so the condition is decided
    per reference time in Python; the program stays time-free (one Control for the whole run)."""
    enc = encode(parse_program("trigger :- true at T [now], T \\ 5 = 0.  q(X) :- p(X) [3], trigger."), frozenset())
    assert lines(enc.text)[0] == "trigger :- lars_clock(0)."
    assert "#external lars_clock(0)." in enc.interface
    assert not enc.temporal
    (variable, comparisons), = enc.clocks
    assert variable == "T" and len(comparisons) == 1


@pytest.mark.parametrize("text", [
    "h(T) :- true at T [now], T \\ 5 = 0.",  # T in the head
    "h at T :- true at T [now], p [1].",  # T is the time of an @-head
    "h :- true at T [now], p at T [3].",  # T binds another @ literal
    "h :- true at T [now], p(X) [3], X < T.",  # a comparison with another variable
    "h :- true at T [3], T \\ 5 = 0.",  # not the now window: T ranges over three points
])
def test_other_uses_of_the_time_variable_stay_temporal(text: str) -> None:
    enc = encode(parse_program(text), frozenset())
    assert not enc.clocks and enc.temporal


@pytest.mark.parametrize("period", [1, 3, 5])
def test_clock_conditions_give_the_answers_of_the_reference(period: int) -> None:
    from engine_helpers import engine
    from lars.reference import expected_answers
    from lars.streams import parse_stream_text

    program = f"trigger :- true at T [now], T \\ {period} = 0, T >= 2.  q(X) :- p(X) [2], trigger."
    stream = "0: p(1)\n1: p(2)\n4: p(3)\n7: p(4)\n"
    got = engine(program, stream, range(0, 10), end=9)
    s = parse_stream_text(stream)
    from lars.model import Stream

    s = Stream(s.points, start=None, end=9)
    want = {t: list(expected_answers(parse_program(program), s, t)[0]) for t in range(0, 10)}
    assert got == want
    assert any("trigger" in atoms for atoms in got.values())
