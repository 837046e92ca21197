"""The row reader (``lars.streams.iter_stream_rows``) checks every line by the pass that reads it
(no separate check pass): on any text it gives what the atom reader (``iter_stream_text``) gives —
the same rows and counts, or the same located error (message, line, column, quoted line,
expected) — and the error the check pass (``scan_stream_text_file``) reports. Its canonical fast
path (``_CANON_LINE_RE``, ``_canonical_rows``) is compared on lines built to hit it and to just
miss it (leading zeros, signs, blanks, mixed predicates and arities, strings, nesting, variables)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from lars.accounting import Accounting
from lars.errors import SourceError
from lars.printer import format_term
from lars.streams import _CANON_LINE_RE, _canonical_rows, iter_stream_rows, iter_stream_text, scan_stream_text_file

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


def test_canonical_rows_only_for_one_predicate_and_arity() -> None:
    assert _canonical_rows(" p(a,b), p(c,0)") == (("p", 2), ["a", "b", "c", "0"], 2)
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
