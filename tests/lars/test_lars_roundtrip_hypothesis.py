"""Property: for generated programs, parse(format(program)) == program, and the stream scanner
reads every printed ground atom as lars.syntax.parse_atom does."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.model import (
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
from lars.printer import format_atom, format_program
from lars.streams import parse_ground_atom, parse_stream_jsonl, parse_stream_text
from lars.syntax import UNIT_MS, parse_atom, parse_program

names = st.sampled_from(["p", "q", "r2", "s_x", "offer", "a", "at", "in", "now", "step"])
predicates = st.sampled_from(["p", "q", "r2", "s_x", "offer", "a", "trigger"])
variables = st.sampled_from(["X", "Y", "T", "Z1", "_", "Var_2"]).map(Variable)
strings = st.text(alphabet=st.sampled_from('ab "\\\n\t%:,()é'), max_size=6).map(String)
integers = st.integers(-50, 50).map(Integer)
constants = names.map(Constant)

ground_terms = st.recursive(
    st.one_of(integers, constants, strings),
    lambda inner: st.builds(Function, names, st.lists(inner, min_size=1, max_size=3).map(tuple)),
    max_leaves=5,
)
terms = st.recursive(
    st.one_of(integers, constants, strings, variables),
    lambda inner: st.one_of(
        st.builds(Function, names, st.lists(inner, min_size=1, max_size=3).map(tuple)),
        st.builds(Arith, st.sampled_from(["+", "-", "*", "/", "\\"]), inner, inner),
        st.builds(Call, names, st.lists(inner, max_size=2).map(tuple)),
    ),
    max_leaves=6,
)
atoms = st.builds(Atom, predicates, st.lists(terms, max_size=3).map(tuple))
ground_atoms = st.builds(Atom, predicates, st.lists(ground_terms, max_size=3).map(tuple))
time_terms = st.one_of(variables.filter(lambda v: v.name != "_"), integers, st.builds(Arith, st.just("+"), variables, integers))


@st.composite
def time_windows(draw) -> TimeWindow:
    unit = draw(st.sampled_from([None, "sec", "min", "h"]))
    scale = 1 if unit is None else UNIT_MS[unit] // 1000
    l = draw(st.one_of(st.none(), st.integers(0, 40)))
    u = draw(st.integers(-1, 5))
    d = draw(st.integers(1, 10))
    shape = draw(st.sampled_from(["range", "step", "lud"]))
    if shape == "range":
        u, d = 0, 1
    elif shape == "step":
        u = 0
    if (l is None and (shape == "range" or (u, d) == (0, 1))) or (u == -1 and shape == "lud"):
        unit, scale = None, 1  # [all] has no unit; u = -1 is one base tick
    l = None if l is None else l * scale
    return TimeWindow(l, u * scale, d * scale, unit)


windows = st.one_of(
    time_windows(),
    st.builds(TupleWindow, st.integers(0, 20)),
    st.builds(PartitionWindow, st.integers(0, 20), atoms),
)
extended = st.one_of(
    atoms,
    st.builds(At, atoms, time_terms),
    st.builds(Diamond, windows, atoms),
    st.builds(Box, windows, atoms),
    st.builds(WindowAt, windows, atoms, time_terms),
)
body_elements = st.one_of(
    st.builds(Literal, extended, st.booleans()),
    st.builds(Comparison, st.sampled_from(["=", "!=", "<", "<=", ">", ">="]), terms, terms),
)
heads = st.one_of(atoms, st.builds(At, atoms, time_terms), st.none())
rules = st.builds(Rule, heads, st.lists(body_elements, max_size=4).map(tuple)).filter(
    lambda r: r.head is not None or r.body
)
programs = st.lists(rules, max_size=5).map(lambda rs: Program(tuple(rs)))




@settings(max_examples=300, deadline=None)
@given(programs)
def test_print_parse_round_trip(program: Program) -> None:
    text = format_program(program)
    assert parse_program(text) == program
    assert format_program(parse_program(text)) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(ground_atoms, min_size=1, max_size=4, unique=True))
def test_stream_readers_agree_with_grammar(atoms: list[Atom]) -> None:
    texts = [format_atom(a) for a in atoms]
    for atom, text in zip(atoms, texts):
        assert parse_ground_atom(text) == atom
        assert parse_atom(text) == atom
    line = "0: " + ", ".join(texts)  # the fast path for flat atoms, the scanner for nested ones
    assert parse_stream_text(line).at(0) == tuple(atoms)
    assert parse_stream_jsonl(json.dumps({"t": 0, "atoms": texts})).at(0) == tuple(atoms)
