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
