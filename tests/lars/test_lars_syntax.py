"""lars.syntax and lars.printer: canonical text, Ticker's syntax, Unicode rendering, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from lars.errors import SourceError
from lars.model import (
    ALL,
    NOW,
    Arith,
    At,
    Atom,
    Box,
    Call,
    Comparison,
    Constant,
    Diamond,
    Function,
    Integer,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    String,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)
from lars.printer import format_atom, format_program, format_rule, format_term, format_window
from lars.syntax import parse_atom, parse_program

TICKER = Path(__file__).parent.parent / "data" / "lars" / "ticker"

X, Y, T = Variable("X"), Variable("Y"), Variable("T")


def p(*args):
    return Atom("p", tuple(args))


def rule_of(text: str) -> Rule:
    (rule,) = parse_program(text).rules
    return rule


# ------------------------------------------------------------------------------ parsing to the model


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("h :- p(X).", Literal(p(X))),
        ("h :- p(X) at T.", Literal(At(p(X), T))),
        ("h :- p(X) [10 sec].", Literal(Diamond(TimeWindow(10, 0, 1, "sec"), p(X)))),
        ("h :- p(X) in [10].", Literal(Diamond(TimeWindow(10), p(X)))),
        ("h :- p(X) always [10 s].", Literal(Box(TimeWindow(10, 0, 1, "s"), p(X)))),
        ("h :- p(X) always in [2 min].", Literal(Box(TimeWindow(120, 0, 1, "min"), p(X)))),
        ("h :- p(X) at T [5].", Literal(WindowAt(TimeWindow(5), p(X), T))),
        ("h :- p(X) at T in [3 #].", Literal(WindowAt(TupleWindow(3), p(X), T))),
        ("h :- not p(X) [2 #].", Literal(Diamond(TupleWindow(2), p(X)), negated=True)),
        ("h :- p(X) [30 step 10].", Literal(Diamond(TimeWindow(30, 0, 10), p(X)))),
        ("h :- p(X) [30 sec step 10 sec].", Literal(Diamond(TimeWindow(30, 0, 10, "sec"), p(X)))),
        ("h :- p(X) [3, 1, 3].", Literal(Diamond(TimeWindow(3, 1, 3), p(X)))),
        ("h :- p(X) [all, 1, 3].", Literal(Diamond(TimeWindow(None, 1, 3), p(X)))),
        ("h :- p(X) [now].", Literal(Diamond(NOW, p(X)))),
        ("h :- p(X) [all].", Literal(Diamond(ALL, p(X)))),
        ("h :- p(X) [1 h].", Literal(Diamond(TimeWindow(3600, 0, 1, "h"), p(X)))),
        (
            "h :- p(X) [3 # striple(_,_,_,s1)].",
            Literal(Diamond(PartitionWindow(3, Atom("striple", (Variable("_"),) * 3 + (Constant("s1"),))), p(X))),
        ),
        ("h :- p(X) [5, -1, 1].", Literal(Diamond(TimeWindow(5, -1, 1), p(X)))),
        ("h :- X = Y + 1.", Comparison("=", X, Arith("+", Y, Integer(1)))),
        ('h :- @test("?x > 2", X) = 1.', Comparison("=", Call("test", (String("?x > 2"), X)), Integer(1))),
        ("h :- p(@f()).", Literal(p(Call("f", ())))),
        ("h :- X != -2.", Comparison("!=", X, Integer(-2))),
        ("h :- X \\ 2 >= Y * 3 / 2.", Comparison(">=", Arith("\\", X, Integer(2)), Arith("/", Arith("*", Y, Integer(3)), Integer(2)))),
    ],
)
def test_body_forms(text: str, body: object) -> None:
    assert rule_of(text).body == (body,)


def test_heads_facts_constraints() -> None:
    program = parse_program('h at T :- p(T) at T [3].  v(5). s("a b", f(1, c)).  :- p(1), q.')
    assert program.rules[0].head == At(Atom("h"), T)
    assert program.rules[1] == Rule(Atom("v", (Integer(5),)), ())
    assert program.rules[2].head == Atom("s", (String("a b"), Function("f", (Integer(1), Constant("c")))))
    assert program.rules[3] == Rule(None, (Literal(p(Integer(1))), Literal(Atom("q"))))


def test_ticker_builtins_are_comparisons() -> None:
    rule = rule_of("h :- a(V,W), leq(18,V), lt(V,W), neq(V,W), incr(V,W), not lt(W,V).")
    assert rule.body[1:] == (
        Comparison("<=", Integer(18), Variable("V")),
        Comparison("<", Variable("V"), Variable("W")),
        Comparison("!=", Variable("V"), Variable("W")),
        Comparison("=", Variable("W"), Arith("+", Variable("V"), Integer(1))),
        Comparison(">=", Variable("W"), Variable("V")),
    )
    # other arities are ordinary atoms
    assert rule_of("h :- lt(1,2,3).").body == (Literal(Atom("lt", (Integer(1), Integer(2), Integer(3)))),)


def test_comments_and_keywords_as_constants() -> None:
    text = """
    % a comment
    h(at, in) :- p(not), // another
      /* a block
         comment */ q(step, now, all, always).
    """
    rule = rule_of(text)
    assert rule.head == Atom("h", (Constant("at"), Constant("in")))
    assert rule.body[1] == Literal(Atom("q", tuple(Constant(c) for c in ("step", "now", "all", "always"))))


def test_base_unit_conversion() -> None:
    assert rule_of("h :- p [2 min].").body[0].atom.window == TimeWindow(120, 0, 1, "min")
    ms = parse_program("h :- p [2 sec step 500 ms].", base_unit="ms")
    assert ms.rules[0].body[0].atom.window == TimeWindow(2000, 0, 500, None)
    with pytest.raises(SourceError, match="not a whole number of base ticks"):
        parse_program("h :- p [500 ms].")


def test_parse_atom() -> None:
    assert parse_atom('p(a,1,"s")') == p(Constant("a"), Integer(1), String("s"))
    assert parse_atom("q") == Atom("q")
    with pytest.raises(SourceError):
        parse_atom("X")


# ------------------------------------------------------------------------------------ printing


CANONICAL = """\
h(X) :- p(X) [10 sec], not q(X) always [3], r(X,Y) at T [5 #], s at T, X < Y + 1.
h at T :- p(T) at T [30 step 10], t(X) [3, 1, 3], u [now], v [all], w [all, 1, 3].
ans(S,P,E) :- offer(S,P,E) [3 # striple(_,_,_,s1)], E = (S - P) * 2, P != "a\\"b".
value(5).
:- p(1), not q.
k(-1,f(a,g(2))) :- X = 0 - Y, m(X,Y), X \\ 2 = 1, q at 3 [2 min].
c(@f(X,"s")) :- p(X) [5, -1, 1], @g() != X, r [all, -1, 2].
"""


def test_canonical_text_round_trips() -> None:
    program = parse_program(CANONICAL)
    assert format_program(program) == CANONICAL
    assert parse_program(format_program(program)) == program


@pytest.mark.parametrize("path", sorted(TICKER.glob("*.lars")), ids=lambda p: p.name)
def test_every_ticker_program_round_trips(path: Path) -> None:
    program = parse_program(path.read_text(), str(path))
    assert program.rules
    printed = format_program(program)
    assert parse_program(printed) == program
    assert format_program(parse_program(printed)) == printed


def test_ticker_program_reads_as_lars() -> None:
    program = parse_program((TICKER / "program.lars").read_text())
    assert format_program(program) == (
        "moreThanTwo :- third [10 sec].\n"
        "third at T :- car(C), rec(C) at T [3 #], not rec(C) [2 #].\n"
        "car(1).\ncar(2).\ncar(3).\ncar(4).\n"
    )
    mod = parse_program((TICKER / "cacheHopsEvalInst_mod.lars").read_text())
    orig = parse_program((TICKER / "cacheHopsEvalInst.lars").read_text())
    # the _mod file writes Ticker's built-ins as comparisons: both read the same (up to body order)
    assert [set(r.body) for r in orig.rules] == [set(r.body) for r in mod.rules]


def test_unicode_rendering() -> None:
    rule = rule_of("ans(S,P,E) :- offer(S,P,E) [30], isNear(S) always [5], not g(P) at T [3 #], P >= 20, S != 1.")
    assert format_rule(rule, unicode=True) == (
        "ans(S,P,E) ← ⊞^30 ◇ offer(S,P,E), ⊞^5 □ isNear(S), not ⊞^{#3} @_T g(P), P ≥ 20, S ≠ 1"
    )
    assert format_rule(rule_of("h at T :- a at T, b [3, 1, 3], c [all], d [now], e [3 # s(_,x)]."), unicode=True) == (
        "@_T h ← @_T a, ⊞^{3,1,3} ◇ b, ⊞^∞ ◇ c, ⊞^0 ◇ d, ⊞^{#3 s(_,x)} ◇ e"
    )
    assert format_window(TimeWindow(300, 0, 1, "sec"), unicode=True) == "⊞^{300 sec}"


def test_format_atom_and_terms() -> None:
    assert format_atom(p(Constant("a"), Integer(1), String("s"))) == 'p(a,1,"s")'
    assert format_atom(Atom("q")) == "q"
    assert format_term(Arith("-", X, Arith("-", Y, Integer(1)))) == "X - (Y - 1)"
    assert format_term(Arith("*", Arith("+", X, Y), Integer(2))) == "(X + Y) * 2"
    assert format_term(Arith("+", Arith("+", X, Y), Integer(2))) == "X + Y + 2"
    assert format_term(String('a"\\\nb')) == '"a\\"\\\\\\nb"'


def test_windows_print_in_their_unit() -> None:
    assert format_window(TimeWindow(120, 0, 1, "min")) == "[2 min]"
    assert format_window(TimeWindow(120, 0, 60, "min")) == "[2 min step 1 min]"
    assert format_window(TimeWindow(90, 0, 1, "min")) == "[90]"  # not whole minutes: base ticks
    assert format_window(TimeWindow(0, 0, 1, "sec")) == "[0 sec]"
    assert format_window(NOW) == "[now]"


# ------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("h :- p(X)", 1, 10, "unexpected end of input"),
        ("h :- p(X) [3 foo].", 1, 14, "unexpected 'foo'"),
        ("a.\nh :- 3.", 2, 6, "expected an atom"),
        ("a.\n\nh(X :- b.", 3, 5, "unexpected ':-'"),
        ("h :- p $ q.", 1, 8, "unexpected character '$'"),
        ("h :- p [3 step 0].", 1, 16, "at least one base tick"),
        ("X :- p.", 1, 1, "expected an atom"),
    ],
)
def test_parse_errors_have_positions(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(SourceError) as info:
        parse_program(text, "prog.lars")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert message in err.message
    rendered = str(err)
    assert rendered.startswith(f"prog.lars:{line}:{column}: ")
    assert "^" in rendered


def test_error_lists_what_was_expected() -> None:
    with pytest.raises(SourceError) as info:
        parse_program("h :- p [3 foo].")
    assert "step" in (info.value.expected or "")
    assert "time unit" in (info.value.expected or "")


def test_printed_program_type() -> None:
    assert format_program(Program(())) == ""
