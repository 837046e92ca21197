"""R2R keyed by window content (``translator.evaluate.window_contents``) against the evaluation it
replaces: for every profile (CQELS with its tuple tick), several t0 and two queries (a filter and
an AVG), the relations of an :class:`Evaluator` with its content index equal those of the same
evaluator solving one run per window-width vector and partial instant (``contents_index = None``),
on 20 s of the CSRBench stream cut to three stations. Also the chains and the cases that keep the old way."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from csrbench_data import DATA as CSR, STREAM_IRI, stream_lines
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.evaluate.window_contents import CHAIN_WIDTH, chains, content_only
from translator.query.parse import parse
from translator.rdf.streams import merge_streams, read_streams
from translator.rdf.timeunits import TimeSpec
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase


def evaluator(query: str, stream: Path) -> Evaluator:
    text = (CSR / "queries" / query).read_text()
    q = parse(text, "csparql", source=query)
    elements = merge_streams(read_streams({STREAM_IRI: str(stream)}, time=TimeSpec("s", "ms", None)))
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("contents") / "s.nt"
    kept = [line for line in stream_lines() if int(line.rsplit('"', 2)[-2]) < 20000
            and ("Instant_" in line.split(" ")[0] or any(code in line for code in ("C1192", "C0837", "C0694")))]
    path.write_text("\n".join(kept) + "\n")
    return path


@pytest.mark.parametrize("query", ["q5.rq", "q4.rq"])
@pytest.mark.parametrize("profile", ["csparql", "cqels", "sparqlstream", "rsp-ql"])
def test_content_keys_give_the_per_width_relations(query, profile, stream):
    fast, slow = evaluator(query, stream), evaluator(query, stream)
    assert fast.contents_index is not None
    slow.contents_index = None
    for t0 in (0, 2, 3):
        op = replace(PROFILES[profile].params, t0=(t0,))
        got, want = fast.relations(op), slow.relations(op)
        assert [(r.t, r.report.prefix, r.rows) for r in got] == [(r.t, r.report.prefix, r.rows) for r in want]
        assert got  # the stream has reports under every profile
    assert fast.solver_runs < slow.solver_runs or profile != "cqels"


def test_chains_share_starts_and_grow_at_their_ends():
    keys = [((0, 3),), ((0, 5),), ((2, 5),), ((0, 4),), (None,), ((2, 7),)]
    got = {tuple(chain) for chain in chains(keys)}
    assert got == {(((0, 3),), ((0, 4),), ((0, 5),)), (((2, 5),), ((2, 7),)), ((None,),)}
    two = chains([((0, 3), (0, 1)), ((0, 4), (0, 1)), ((0, 5), (0, 1)), ((0, 4), (0, 2))])
    assert sorted(len(chain) for chain in two) == [1, 3]
    for chain in two:  # every chain grows in every window
        assert all(all(b[1] >= a[1] for a, b in zip(x, y)) for x, y in zip(chain, chain[1:]))


def test_only_programs_of_the_window_contents_take_content_keys():
    """``□``, ``@_T`` and time-varying static data read more than the contents."""
    from lars.model import At, Atom, Box, Diamond, Literal, Program, Rule, TimeWindow, Variable, WindowAt

    wide = TimeWindow(CHAIN_WIDTH, 0, 1)
    b = Atom("b", ())
    assert content_only(Program((Rule(Atom("a", ()), (Literal(Diamond(wide, b)),)),)), ())
    assert not content_only(Program((Rule(Atom("a", ()), (Literal(Diamond(TimeWindow(3, 0, 1), b)),)),)), ())
    assert not content_only(Program((Rule(Atom("a", ()), (Literal(Box(wide, b)),)),)), ())
    assert not content_only(Program((Rule(Atom("a", ()), (Literal(WindowAt(wide, b, Variable("T"))),)),)), ())
    assert not content_only(Program((Rule(At(b, Variable("T")), ()),)), ())
    assert not content_only(Program(()), (Rule(b, (Literal(Diamond(TimeWindow(0, 0, 1), Atom("true", ()))),)),))
    assert content_only(Program(()), (Rule(b, ()),))


@pytest.mark.parametrize("profile", ["cqels", "csparql"])
def test_the_keys_of_a_plan_in_one_pass_are_those_of_each_report(profile, stream):
    ev = evaluator("q4.rq", stream)
    for t0 in (0, 3):
        reports = ev.plan(replace(PROFILES[profile].params, t0=(t0,)))
        assert any(r.prefix is not None for r in reports) == (profile == "cqels")  # the tuple tick's prefixes
        assert ev.contents_index.keys(reports) == [ev.contents_index.key(r) for r in reports]
