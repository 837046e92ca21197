"""The row reader (``lars.streams.iter_stream_rows``) checks every line by the pass that reads it
(no separate check pass): on any text it gives what the atom reader (``iter_stream_text``) gives —
the same rows and counts, or the same located error (message, line, column, quoted line,
expected) — and the error the check pass (``scan_stream_text_file``) reports. Its canonical fast
path (``_CANON_LINE_RE``, ``_canonical_rows``) is compared on lines built to hit it and to just
miss it (leading zeros, signs, blanks, mixed predicates and arities, strings, nesting, variables)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import pytest

from lars.accounting import Accounting
from lars.errors import SourceError
from lars.printer import format_term
from lars.streams import _CANON_LINE_RE, _canonical_rows, _uniform_line, iter_stream_rows, iter_stream_text, scan_stream_text_file

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TERMS = ["a", "b7", "o1_2", "x_Y", "0", "7", "12", "007", "-3", "-0", "+1", '"s, t"', 'f(a,"x")', "c_1", "X", "_", "1a", ""]


def _run(reader, lines):
    """``(points, (read, duplicates))`` or the error's location and text."""
    count = Accounting()
    try:
        points = reader(lines, count)
    except SourceError as err:
        return ("error", err.message, err.line, err.column, err.expected, str(err))
    return points, (count.read, count.duplicates)


def _by_atoms(lines, count):
    out = {}
    for t, atoms in iter_stream_text(lines, "s.txt", accounting=count):
        got: dict = {}
        for a in atoms:
            got.setdefault((a.predicate, len(a.args)), set()).add(tuple(format_term(x) for x in a.args))
        out[t] = got
    return out


def _by_rows(lines, count):
    return {t: {sig: set(rows) for sig, rows in got.items()} for t, got in iter_stream_rows(lines, "s.txt", accounting=count)
            if got is not None}


@st.composite
def stream_lines(draw) -> list[str]:
    """Lines mostly in the canonical form (one predicate, ", " between atoms), some just off it,
    some malformed; time points increasing, sometimes not."""
    term = st.sampled_from(TERMS)
    lines = []
    t = draw(st.integers(0, 3))
    for _ in range(draw(st.integers(1, 8))):
        t += draw(st.sampled_from([0, 1, 1, 1, 2, -1]))
        pred = draw(st.sampled_from(["p", "p", "q", "xp", "P"]))
        arity = draw(st.integers(0, 3))
        atoms = []
        for _ in range(draw(st.integers(0, 5))):
            name = pred if draw(st.booleans()) else draw(st.sampled_from(["p", "q", "xp"]))
            n = arity if draw(st.integers(0, 4)) else draw(st.integers(0, 3))
            args = [draw(term) if draw(st.integers(0, 5)) == 0 else draw(st.sampled_from(["a", "o1_2", "0", "12", "v3"]))
                    for _ in range(n)]
            sep = draw(st.sampled_from([",", ",", ",", ", "]))
            atoms.append(f"{name}({sep.join(args)})" if n else name)
        joint = draw(st.sampled_from([", ", ", ", ", ", ",", " , ", ",  "]))
        body = joint.join(atoms) + draw(st.sampled_from(["", "", " ", ",", "\t", " %"]))
        prefix = draw(st.sampled_from([f"{t}: ", f"{t}: ", f"{t}:", f" {t} : ", "x: ", f"{t} "]))
        lines.append(prefix + body)
        if draw(st.integers(0, 6)) == 0:
            lines.append(draw(st.sampled_from(["", "% comment", lines[-1]])))
    return lines


@settings(max_examples=400, **SETTINGS)
@given(lines=stream_lines())
def test_row_reader_equals_atom_reader_or_fails_alike(lines) -> None:
    assert _run(_by_rows, lines) == _run(_by_atoms, lines)


@settings(max_examples=150, **SETTINGS)
@given(lines=stream_lines())
def test_row_reader_fails_where_the_check_pass_fails(lines, tmp_path_factory) -> None:
    path = tmp_path_factory.mktemp("s") / "s.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        scan_stream_text_file(str(path))
        checked = None
    except SourceError as err:
        checked = (err.message, err.line, err.column, err.expected)
    got = _run(_by_rows, lines)
    assert (got[1:5] if got[0] == "error" else None) == checked


@pytest.mark.parametrize("line", [
    "0: p(a,b), p(c,0), p(o1_2,12)", "0: p(a), p(b,c)", "0: p(a), xp(b)", "0: xp(a), p(b)", "0: p(a), q", "0: q, p(a)",
    "0: p(007)", "0: p(-1)", "0: p( a)", "0: p(a) ,p(b)", "0: p(A)", "0: p(a)  ", "0:p(a)", "0: p(1a)", "0: p(a_B9)",
    "0: p(a),p(b)", "0: p(a), p(b), ", "0: p", "0: p, q", "0: p(a), p(b)\r", "0: p(é)", "0: p(a), p((b))",
])
def test_fast_path_lines(line: str) -> None:
    """Lines at the edge of the canonical fast path: the same result as the atom reader."""
    assert _run(_by_rows, [line]) == _run(_by_atoms, [line])


def test_uniform_lines_only_for_one_predicate_and_arity() -> None:
    assert _uniform_line("0: p(a,b), p(c,0) ", 2) == (("p", 2), ["a,b", "c,0"])
    assert _uniform_line("0: p(o1_2)", 2) == (("p", 1), ["o1_2"])
    for line in ["0: p(a), pq(b)", "0: pq(a), p(b)", "0: p(a,b), p(c)", "0: p(a), p(b,c)", "0: p(a), q", "0: q",
                 "0: p(01)", "0: p(a),p(b)", "0: p(a, b)", "0: p(a)) ", "0: p(a", "0: p(A)", "0: p(1a)", "0: p(a), p(b),"]:
        assert _uniform_line(line, 2) is None, line


def test_canonical_rows_only_for_one_predicate_and_arity() -> None:
    assert _canonical_rows(" p(a,b), p(c,0)") == (("p", 2), ["a,b", "c,0"])
    for body in ["p(a), xp(b)", "p(a), p(b,c)", "p(a,b), p(c)", "p(a), q", "q", ""]:
        assert _CANON_LINE_RE.fullmatch(body) is not None
        assert _canonical_rows(body) is None, body
    for body in ["p(01)", "p(-1)", "p( a)", "p(a),p(b)", "p(A)", 'p("a")']:
        assert _CANON_LINE_RE.fullmatch(body) is None, body


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_bad_line_raises_once_the_points_before_it_are_read(where: str) -> None:
    good = [f"{t}: p(o{t},v{t}), p(o{t}x,v1)" for t in range(6)]
    at = {"start": 0, "middle": 3, "end": 5}[where]
    lines = list(good)
    lines[at] = f"{at}: p(o{at},v{at}), p(o{at}x,V1)"
    got = []
    with pytest.raises(SourceError) as info:
        for t, rows in iter_stream_rows(lines, "s.txt"):
            if rows is not None:
                got.append(t)
    assert (info.value.line, info.value.column) == (at + 1, lines[at].index("V1") + 1)
    assert "ground" in info.value.message and str(info.value).startswith(f"s.txt:{at + 1}:")
    assert lines[at] in str(info.value)  # the line quoted, a caret under the column
    assert got == list(range(at))  # the complete time points before it, not its own


# ------------------------------------------------------------------ atoms only □ reads, dropped when isolated

BOX_PROGRAMS = [
    "a(X,Y) :- p(X,Y) always [1].",
    "a(X,Y) :- p(X,Y) always [3].",
    "a(X,Y) :- p(X,Y) always [all].",
    "a(X) :- q(X), p(X,Y) always [2].\nb(X) :- q(X), not p(X,X) always [1].",
    "a(X,Y) :- p(X,Y) always [2], r(Y) always [1].\nb(Y) :- r(Y) [1].",  # r read by ◇ too: kept whole
    "a(X,Y) :- p(X,Y) always [0].",  # [0]: one point, nothing may be dropped
    "a(X,Y) :- p(X,Y) always [2].\nb(X,Y) :- p(X,Y) [1].",  # p read by ◇ too
]


def test_isolated_box_signatures() -> None:
    from lars.streams import isolated_box_signatures
    from lars.syntax import parse_program

    got = [isolated_box_signatures(parse_program(text)) for text in BOX_PROGRAMS]
    assert got == [{("p", 2)}, {("p", 2)}, {("p", 2)}, {("p", 2)}, {("p", 2)}, set(), set()]
    assert isolated_box_signatures(parse_program("a(X) :- p(X) always [2 sec].\nc :- p(1) at 3.")) == set()
    assert isolated_box_signatures(parse_program("a(X) :- p(X) always [3, 0, 2].")) == set()  # step 2


@st.composite
def sparse_streams(draw) -> str:
    """Mostly canonical one-predicate lines of atoms that are fresh, recur after a while, or run
    over consecutive time points; gaps, repeated lines, several lines per time point, lines not in
    the canonical form."""
    pool = [f"p(o{i},v{i % 2})" for i in range(8)] + ["p(a,a)", "p(0,a)"]
    lines = []
    t = draw(st.integers(0, 2))
    fresh = 100
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(["next", "next", "next", "gap", "same", "repeat"]))
        if kind == "repeat" and lines:
            t += 1
            lines.append(f"{t}: " + lines[-1].split(":", 1)[1].strip())
            continue
        t += {"next": 1, "gap": draw(st.integers(2, 3)), "same": 0, "repeat": 1}[kind] if lines else 0
        atoms = draw(st.lists(st.sampled_from(pool), max_size=5))
        for _ in range(draw(st.integers(0, 2))):
            fresh += 1
            atoms.append(f"p(o{fresh},v1)")
        if draw(st.integers(0, 2)) == 0:  # other predicates: not one-predicate lines
            atoms += draw(st.lists(st.sampled_from(["q(o1)", "q(a)", "r(v1)", "r(a)"]), max_size=2))
        joint = draw(st.sampled_from([", ", ", ", ", ", ", ", ", ", ","]))
        lines.append(f"{t}: " + joint.join(atoms))
    return "\n".join(lines) + "\n"


@settings(max_examples=250, **SETTINGS)
@given(program_text=st.sampled_from(BOX_PROGRAMS), text=sparse_streams(), times_from=st.integers(0, 3))
@example(program_text=BOX_PROGRAMS[0], text="0: p(a,b)\n1: p(a,b), p(c,c)\n2: p(a,b)\n3: p(e,e)\n", times_from=0)  # kept for the point before
@example(program_text=BOX_PROGRAMS[0], text="0: p(c,c)\n1: p(a,b)\n2: p(a,b), p(d,d)\n", times_from=0)  # kept for the point after
@example(program_text=BOX_PROGRAMS[0], text="0: p(a,b), p(c,c)\n1: p(d,d)\n2: p(a,b)\n4: p(a,b)\n5: p(a,b), p(e,e)\n", times_from=0)  # first, gaps
@example(program_text=BOX_PROGRAMS[5], text="0: p(c,c)\n1: p(a,b)\n2: p(d,d)\n", times_from=0)  # [0]: nothing dropped
@example(program_text=BOX_PROGRAMS[3], text="0: q(a)\n1: p(a,a), p(b,b)\n2: q(a), p(a,b)\n3: p(a,a), q(a)\n", times_from=0)
def test_dropping_isolated_atoms_changes_no_answer(program_text: str, text: str, times_from: int, tmp_path_factory) -> None:
    """``rsplars lars``'s reading (rows, isolated atoms of □-only signatures dropped) gives the
    answers of the reference semantics (``lars.reference``) on the whole stream, at every time."""
    from lars.incremental import IncrementalSolver
    from lars.reference import expected_answers
    from lars.streams import isolated_box_signatures, parse_stream_text, read_stream_counted
    from lars.syntax import parse_program

    program = parse_program(program_text)
    path = tmp_path_factory.mktemp("s") / "s.txt"
    path.write_text(text, encoding="utf-8")
    count = Accounting()
    stream, (first, last), sizes = read_stream_counted(str(path), count, rows=True,
                                                      drop=isolated_box_signatures(program))
    times = range(first + times_from, last + 2)
    got = {s.t: s.answers for s in IncrementalSolver(program).run(stream, times)}
    stream.drain()
    whole = parse_stream_text(text)
    assert got == {t: expected_answers(program, whole, t) for t in times}
    want = Accounting()
    atoms = dict(iter_stream_text(text.splitlines(), accounting=want))
    assert (count.read, count.duplicates) == (want.read, want.duplicates)
    assert sizes == {t: len(a) for t, a in atoms.items()}  # counted as read, before any atom is dropped
