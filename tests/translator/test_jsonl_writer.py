"""The ``jsonl`` answer writer (``translator.evaluate.writers``) encodes each answer once while it
recurs (``AnswerTexts``); its lines must be byte for byte ``json.dumps`` of the record built the
plain way, ``{"t": t, "answers": solution_dicts(variables, rows)}``, whatever the answers (unbound
variables, non-ASCII and escaped text, a variable selected twice) and however they recur."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from translator.evaluate.run import Evaluation, solution_dicts
from translator.evaluate.writers import WRITERS, AnswerTexts
from translator.rdf.bags import Bag

TERMS = st.one_of(st.none(), st.sampled_from(['<http://e/a>', '<http://e/é>', '"x"', '"a\\"b"', '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
                                              '"été"@fr', '_:b1']),
                  st.text(max_size=5).map(lambda s: json.dumps(s, ensure_ascii=False)))


@st.composite
def runs(draw):
    variables = draw(st.lists(st.sampled_from(["a", "b", "c", "zz", "é"]), min_size=1, max_size=4))
    pool = draw(st.lists(st.tuples(*[TERMS] * len(variables)), max_size=8))
    steps = draw(st.lists(st.lists(st.sampled_from(pool), max_size=6) if pool else st.just([]), max_size=5))
    return variables, [Bag(rows) for rows in steps]  # a row drawn twice: a solution that occurs twice


@settings(max_examples=300, deadline=None)
@given(run=runs())
def test_jsonl_lines_equal_json_dumps_of_the_record(run) -> None:
    variables, steps = run
    out = io.StringIO()
    write = WRITERS["jsonl"](out, SimpleNamespace(form="select", variables=tuple(variables)))
    expected = []
    for t, rows in enumerate(steps):
        write(Evaluation(t, rows))
        expected.append(json.dumps({"t": t, "answers": solution_dicts(variables, rows)}, ensure_ascii=False) + "\n")
    assert out.getvalue() == "".join(expected)


@settings(max_examples=200, deadline=None)
@given(run=runs(), limit=st.sampled_from([1, 2, 3]))
def test_answer_texts_with_a_small_cache(run, limit) -> None:
    """The cache emptied while answers recur changes nothing."""
    variables, steps = run
    texts = AnswerTexts(variables, limit=limit)
    for rows in steps:
        plain = json.dumps(solution_dicts(variables, rows), ensure_ascii=False)
        assert "[" + texts.joined(rows) + "]" == plain
        assert len(texts.cache) <= limit and all(len(m) <= limit for m in texts.members)


@settings(max_examples=300, deadline=None)
@given(run=runs(), data=st.data())
def test_jsonl_lines_with_changes_equal_json_dumps_of_the_record(run, data) -> None:
    """With ``Evaluation.change`` (as ``rsplars run`` gives it under RStream), only the solutions
    that came and went are placed: the lines stay those of the plain record, every solution as
    often as it occurs. The changes are the multiset differences ``rows == base - minus + plus``;
    some are relative to another base than the previous rows, which the writer must not trust."""
    variables, steps = run
    out = io.StringIO()
    write = WRITERS["jsonl"](out, SimpleNamespace(form="select", variables=tuple(variables)))
    expected = []
    previous = Bag()
    everything = sorted({row for rows in steps for row in rows}, key=repr)
    for t, rows in enumerate(steps):
        base = previous
        if data.draw(st.integers(0, 3)) == 0:  # a change from other rows (a new object, never the writer's)
            base = Bag(data.draw(st.lists(st.sampled_from(everything), max_size=4)) if everything else [])
        plus, minus = rows - base, base - rows
        assert base - minus + plus == rows
        write(Evaluation(t, rows, (base, plus, minus) if data.draw(st.integers(0, 3)) else None))
        record = solution_dicts(variables, rows)
        assert len(record) == len(rows)  # each solution as often as it occurs
        expected.append(json.dumps({"t": t, "answers": record}, ensure_ascii=False) + "\n")
        previous = rows
    assert out.getvalue() == "".join(expected)
