"""Reading answers back (``translator.evaluate.run``): the regex split of an answer atom and the
sorted solution dicts, against their direct definitions (the LARS parser and ``to_nt``/``from_lars``;
``sorted(d.items())`` as the sort key)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lars.model import Constant, Integer, String
from lars.printer import format_term
from lars.streams import parse_ground_atom
from translator.evaluate import run
from translator.evaluate.run import _row_of, solution_dicts
from translator.rdf.terms import from_lars, to_nt

IRIS = st.sampled_from(["<http://e/o/1>", "<http://e/a,b>", "<http://e/\u00e9>", "<urn:x>", "<>", "<http://e/a\\u0020b>"])
LITERALS = st.sampled_from(['"36.8"^^<http://www.w3.org/2001/XMLSchema#float>', '"x"', '"a,b"', '"x"@EN', '"q\\"uote"',
                            '"x"^^<http://www.w3.org/2001/XMLSchema#string>', '"line\\nbreak"', '_:b1',
                            '"2.84E1"^^<http://www.w3.org/2001/XMLSchema#double>', '"-3"^^<http://www.w3.org/2001/XMLSchema#integer>',
                            '"a\\tb"^^<http://e/d>', '"q\\"x"^^<http://e/d>', '"x"^^<http://e/a\\u0020b>', '""^^<http://e/d>',
                            '"\u00e9"^^<http://e/d>', '"x"@en',
                            # quotes, commas and backslashes where the split of an atom at its '","' could go wrong
                            '"a\\",\\"b"', '"a\\","', '"\\",\\""^^<http://e/d>', '"a\\\\"', '"\\\\\\","', '","'])
ARGS = st.one_of(IRIS.map(String), LITERALS.map(String), st.just(Constant("null")), st.integers(-5, 5).map(Integer))


def _direct(text: str) -> tuple:
    atom = parse_ground_atom(text)
    return tuple(None if (term := from_lars(a)) is None else to_nt(term) for a in atom.args)


@settings(max_examples=300, deadline=None)
@given(args=st.lists(ARGS, min_size=1, max_size=4))
def test_answer_atoms_read_as_the_parser_reads_them(args) -> None:
    """Also the split at '","' of atoms whose arguments are all strings escaping nothing but quotes."""
    text = f"answer({','.join(format_term(a) for a in args)})"
    _row_of.cache_clear()
    run._ARG_TEXTS.clear()
    run._PIECE_TEXTS.clear()
    assert _row_of(text) == _direct(text)
    _row_of.cache_clear()  # again, each argument's text from the cache of arguments
    assert _row_of(text) == _direct(text)


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(*(st.one_of(st.none(), st.sampled_from(["<a>", "<b>", '"1"', '"x"'])) for _ in range(3))), max_size=8),
       variables=st.permutations(["zeta", "alpha", "mid"]))
def test_solution_dicts_sorted_as_by_their_items(rows, variables) -> None:
    want = sorted(({v: t for v, t in zip(variables, row) if t is not None} for row in set(rows)), key=lambda d: sorted(d.items()))
    got = solution_dicts(list(variables), set(rows))
    assert got == want
    assert [list(d) for d in got] == [list(d) for d in want]  # the members in the variables' order


@st.composite
def answer_runs(draw):
    """Answer streams of a run: sorted atom texts of ``answer`` (from a pool in which several atoms
    may read back as one row: ``"x"`` and ``"x"^^xsd:string``) and of other predicates, each step
    with its delta to the previous one, or none."""
    pool = draw(st.lists(st.lists(ARGS, min_size=2, max_size=2), min_size=1, max_size=6))
    atoms = [f"answer({','.join(format_term(a) for a in args)})" for args in pool] + ["answe(1)", "answer2(1)", "ans1(2)", "answer"]
    atoms += [f"answer({format_term(String(x))},1)" for x in ('"x"', '"x"^^<http://www.w3.org/2001/XMLSchema#string>')]
    steps = draw(st.lists(st.sets(st.sampled_from(atoms), max_size=6), min_size=1, max_size=8))
    with_delta = draw(st.lists(st.booleans(), min_size=len(steps), max_size=len(steps)))
    return steps, with_delta


@settings(max_examples=300, deadline=None)
@given(run=answer_runs(), width=st.sampled_from([None, 1]))
def test_rows_kept_from_the_deltas_equal_the_rows_read_again(run, width) -> None:
    """``evaluations`` keeps the witnessed answer rows from the steps' deltas; at every step its
    answer is the multiset of visible rows of all the answer atoms read again (also when two atoms
    give one row, and after a step without delta), ``width=1``: one visible column and one hidden
    (two atoms that differ in the hidden column are two solutions). The change it gives the writers
    is exact: ``rows == base - minus + plus``."""
    from types import SimpleNamespace

    from lars.solver import Step
    from translator.evaluate.run import evaluations, step_rows
    from translator.rdf.bags import Bag

    steps, with_delta = run
    compiled = SimpleNamespace(answer_predicate="answer", modifiers=None, width=width)
    made, by_rows, before = [], [], set()
    for t, (atoms, delta) in enumerate(zip(steps, with_delta)):
        d = (tuple(sorted(atoms - before)), tuple(sorted(before - atoms))) if delta else None
        made.append(Step(t, [tuple(sorted(atoms))], delta=d))
        # the same steps with the change also as rows (lars.incremental.Step.rows): the arguments' texts
        rows: dict = {}
        for k, side in enumerate((atoms - before, before - atoms)):
            for atom in side:
                name = atom.partition("(")[0]
                rows.setdefault(name, ([], []))[k].append(tuple(format_term(a) for a in parse_ground_atom(atom).args))
        by_rows.append(Step(t, [tuple(sorted(atoms))], delta=d, rows=rows if delta else None))
        before = atoms
    want = [Bag.of_witnessed(step_rows(compiled, s.answers[0]), width) for s in made]
    for given_steps in (made, by_rows):
        got = list(evaluations(compiled, given_steps, "rstream", None))
        assert [ev.rows for ev in got] == want
        for k, ev in enumerate(got):
            if ev.change is not None:
                base, plus, minus = ev.change
                assert base is got[k - 1].rows and base - minus + plus == ev.rows
                assert not set(plus.distinct()) & set(minus.distinct())
        # IStream and DStream: the multiset differences of consecutive answers (decision D13)
        for r2s, diff in (("istream", lambda now, then: now - then), ("dstream", lambda now, then: then - now)):
            streamed = [ev.rows for ev in evaluations(compiled, given_steps, r2s, None)]
            assert streamed == [diff(now, then) for now, then in zip(want, [Bag(), *want])]


@settings(max_examples=500, deadline=None)
@given(args=st.lists(st.one_of(st.lists(st.sampled_from(['a', ',', '"', '\\', '","', '",', ',"', '<', ' ']), max_size=4).map("".join).map(String), st.just(Constant("null")), st.integers(-5, 5).map(Integer)),
                     min_size=1, max_size=4))
def test_string_arguments_split_as_the_regex_splits_them(args) -> None:
    """``_string_pieces`` (an atom cut at its '","') gives the arguments the regex split gives, or
    nothing; it gives them when every argument is a string without quote or backslash."""
    from translator.evaluate.run import _ARGS, _string_pieces

    text = f"answer({','.join(format_term(a) for a in args)})"
    pieces = _string_pieces(text)
    if pieces is not None:
        assert all(isinstance(a, String) for a in args)
        assert ['"' + p + '"' for p in pieces] == _ARGS.findall(text, text.index("(") + 1) == [format_term(a) for a in args]
    if all(isinstance(a, String) and '"' not in a.value and "\\" not in a.value for a in args):
        assert pieces is not None
