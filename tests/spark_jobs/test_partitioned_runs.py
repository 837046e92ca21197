"""The partitioned run without Spark: look-back read off the LARS windows, evaluation times per
block, and block-by-block answers equal to the sequential run (the oracle) on streams with
elements on interval, block and window edges, for time, step, tuple and unbounded windows."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.model import Stream
from lars.syntax import parse_program
from spark_cases import S1, S2, WINDOWS, as_evaluations, cqels, csparql, edge_stream, element, partitioned, sequential
from spark_jobs.blocks import Blocks, PlanError, Timeline
from spark_jobs.lookback import LookBack, PartitionError, TupleNeed, look_back
from spark_jobs.partition import elements_table, partition
from spark_jobs.pipeline import make_plan
from spark_jobs.solve_blocks import BlockJob, solve_rows
from translator.evaluate.run import data_stream, evaluation_times
from translator.query.parse import parse
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

# ------------------------------------------------------------------------------------ look-back


@pytest.mark.parametrize(
    ("window", "bounds", "ticks"),
    [
        ("RANGE 3s", "closed", 3),  # ⊞^3: [t−3, t]
        ("RANGE 3s", "left-open", 2),  # ⊞^2: (t−3, t]
        ("RANGE 3s", "right-open", 3),  # ⊞^{3,−1,1}: [t−3, t)
        ("RANGE 4s SLIDE 2s", "closed", 5),  # ⊞^{4,0,2}: [t'−4, t'], t' ≥ t−1
        ("NOW", "closed", 0),
    ],
)
def test_time_look_back_follows_the_window_and_its_bounds(window, bounds, ticks) -> None:
    assert look_back(cqels(window, "push", bounds=bounds).program) == LookBack(ticks)


def test_tuple_and_unbounded_look_back() -> None:
    tuples = look_back(cqels("TRIPLES 2", "pull", 4).program)
    assert tuples.ticks == 0 and not tuples.first_occurrences
    (need,) = tuples.tuples
    assert need.n == 2 and need.key is not None and need.key.predicate == "striple"
    assert look_back(cqels("RANGE UNBOUNDED", "push").program) == LookBack(0, (), True)
    assert look_back(cqels("RANGE UNBOUNDED", "push", bounds="right-open").program) == LookBack(0, (), True)
    both = look_back(cqels("RANGE 3s", "push", other="TRIPLES 1").program)
    assert both.ticks == 3 and [n.n for n in both.tuples] == [1]


def test_look_back_of_general_lars_windows() -> None:
    program = parse_program("q(X) :- p(X) always [5 step 3]. r(X) :- p(X) at T [2 #]. s :- u [all].")
    assert look_back(program) == LookBack(7, (TupleNeed(2, None),), True)


@pytest.mark.parametrize(
    "text",
    ["q(X) :- p(X) always [all].", "q(X) :- p(X) at T [all].", "q(X,T) :- p(X) at T."],
)
def test_programs_needing_the_whole_history_are_rejected(text) -> None:
    with pytest.raises(PartitionError, match="sequential engine"):
        look_back(parse_program(text))


# ----------------------------------------------------------------------------- evaluation times


@settings(max_examples=150, deadline=None)
@given(
    times=st.lists(st.integers(-3, 30), max_size=6),
    mode=st.sampled_from(["push", "pull", "none"]),
    period=st.integers(1, 5),
    start=st.none() | st.integers(-3, 30),
    end=st.none() | st.integers(-3, 35),
    split=st.integers(1, 6),
)
def test_timeline_and_blocks_give_the_sequential_evaluation_times(times, mode, period, start, end, split) -> None:
    """Block by block, the evaluation times are exactly ``translator.evaluate.run.evaluation_times``."""
    elements = [element(t, "a", "b") for t in sorted(times)]
    compiled = cqels("RANGE 3s", mode, period if mode == "pull" else None)
    stream = data_stream(elements, 0, None)
    if end is not None:
        stream = Stream(stream.points, stream.start, max(end, stream.timeline[0]))
    try:
        expected = list(evaluation_times(compiled, stream, start, end))
    except Exception:
        with pytest.raises(PlanError):
            Timeline.of(mode, compiled.period, min(times, default=None), max(times, default=None), start, end)
        return
    line = Timeline.of(mode, compiled.period, min(times, default=None), max(times, default=None), start, end)
    blocks = Blocks.of([line], split)
    got = []
    for b in range(blocks.first_block, blocks.last_block + 1):
        a, z = blocks.own(b)
        got += line.times(a, z, times)
    assert got == expected
    if expected and mode == "pull":
        assert line.end == max(stream.timeline[1], expected[-1])
        assert blocks.width % period == 0


# ------------------------------------------------------------------ partitioned == sequential


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize(("mode", "period"), [("push", None), ("pull", 4), ("none", None)])
def test_block_by_block_equals_sequential_on_edge_stream(window, mode, period) -> None:
    stream = edge_stream()
    compiled = cqels(window, mode, period)
    expected = sequential(compiled, stream)
    for parts in (1, 3, 8):
        assert as_evaluations(partitioned({"r": compiled}, stream, parts), width=compiled.width) == expected, parts


@pytest.mark.parametrize("engine", ["asp", "incremental"])
@pytest.mark.parametrize("window", ["RANGE 3s", "RANGE 4s SLIDE 2s", "RANGE UNBOUNDED"])
def test_blocks_solved_by_either_lars_engine_equal_sequential(window, engine) -> None:
    """``BlockJob.engine`` (``run --engine spark --lars-engine``): the blocks are solved by the
    engine chosen, and both give the sequential answers."""
    stream = edge_stream()
    for compiled in (cqels(window, "push"), csparql("RANGE 4s STEP 2s", 2)):
        expected = sequential(compiled, stream)
        assert as_evaluations(partitioned({"r": compiled}, stream, 4, engine=engine), width=compiled.width) == expected


def test_blocks_use_the_engine_chosen() -> None:
    """The incremental engine refuses a tuple window (outside its fragment): a block asked to use
    it fails with the block named, so the choice is not ignored; ``auto`` falls back to clingo."""
    from spark_jobs.solve_blocks import BlockError

    stream = edge_stream()
    compiled = cqels("TRIPLES 2", "push")
    with pytest.raises(BlockError, match="block .* failed: NotInFragment: .*tuple"):
        partitioned({"r": compiled}, stream, 3, engine="incremental")
    assert as_evaluations(partitioned({"r": compiled}, stream, 3, engine="auto"), width=compiled.width) == sequential(compiled, stream)


@pytest.mark.parametrize("bounds", ["left-open", "right-open"])
def test_other_bounds_conventions_and_csparql_pull(bounds) -> None:
    stream = edge_stream()
    runs = {
        "range": cqels("RANGE 4s", "push", bounds=bounds),
        "step": csparql("RANGE 4s STEP 2s", 2, bounds=bounds),
        "all": cqels("RANGE UNBOUNDED", "pull", 4, bounds=bounds),
        "join": cqels("RANGE 3s", "push", bounds=bounds, other="TRIPLES 1"),
    }
    out = partitioned(runs, stream, 5)
    for label, compiled in runs.items():
        assert as_evaluations(out, label, compiled.width) == sequential(compiled, stream), label


def test_from_to_and_time_zero() -> None:
    stream = edge_stream()
    for compiled in (cqels("RANGE 3s", "pull", 4), cqels("TRIPLES 2", "push")):
        for start, end in ((0, 12), (5, 23), (8, None), (None, 40)):
            got = as_evaluations(partitioned({"r": compiled}, stream, 3, start=start, end=end), width=compiled.width)
            assert got == sequential(compiled, stream, start=start, end=end), (start, end)


@pytest.mark.parametrize(
    ("window", "mode", "weaken"),
    [
        ("RANGE 3s", "push", lambda look: LookBack(look.ticks - 1)),
        ("RANGE 4s SLIDE 2s", "push", lambda look: LookBack(look.ticks - 1)),
        # push evaluates where an atom arrives, which fills one slot itself: pull needs all n
        ("TRIPLES 2", "pull", lambda look: LookBack(0, tuple(TupleNeed(n.n - 1, n.key) for n in look.tuples))),
        ("RANGE UNBOUNDED", "push", lambda look: LookBack()),
    ],
)
def test_too_short_look_back_is_caught_by_the_edge_stream(window, mode, weaken) -> None:
    """The oracle can fail: less look-back than the windows need loses elements at block edges."""
    stream = edge_stream()
    compiled = cqels(window, mode, 4 if mode == "pull" else None)
    times = [e.t for e in stream]
    plan = make_plan({"r": compiled}, min(times), max(times), None, None, 8)
    rows = solve_rows(BlockJob(plan.runs, (), plan.blocks),
                      partition(elements_table(stream), weaken(plan.look), plan.blocks))
    assert as_evaluations(rows) != sequential(compiled, stream)


triples = st.tuples(st.integers(0, 40), st.sampled_from("abc"), st.sampled_from("bcd"), st.sampled_from([S1, S2]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.lists(triples, min_size=1, max_size=25),
    window=st.sampled_from(WINDOWS),
    other=st.sampled_from([None, "RANGE 2s", "TRIPLES 3", "RANGE UNBOUNDED"]),
    mode=st.sampled_from(["push", "pull"]),
    period=st.integers(1, 6),
    parts=st.integers(1, 9),
)
def test_random_streams_block_by_block_equal_sequential(raw, window, other, mode, period, parts) -> None:
    stream = sorted((element(t, x, y, s, "p" if s == S1 else "q") for t, x, y, s in raw), key=lambda e: e.t)
    compiled = cqels(window, mode, period if mode == "pull" else None, other=other)
    assert as_evaluations(partitioned({"r": compiled}, stream, parts), width=compiled.width) == sequential(compiled, stream)


def test_elements_table_writes_each_lexical_form_as_given() -> None:
    """The table's term texts are cached per term: literals of one value but two lexical forms
    ("01" and "1" as xsd:integer) keep their own forms, as in the sequential run."""
    from rdflib import Literal, URIRef
    from rdflib.namespace import XSD

    from translator.rdf.streams import StreamElement

    u = URIRef("http://example.org/x")
    one, zero_one = Literal("1", datatype=XSD.integer), Literal("01", datatype=XSD.integer, normalize=False)
    table = elements_table([StreamElement((u, u, zero_one), 0, u), StreamElement((u, u, one), 1, u)])
    assert table["o"].tolist() == [f'"01"^^<{XSD.integer}>', f'"1"^^<{XSD.integer}>']


@pytest.mark.parametrize("engine", ["asp", "incremental"])
@pytest.mark.parametrize("where", [
    "STREAM <http://example.org/s1> [RANGE 4s SLIDE 2s] { ?x :p+ ?y }",  # a closure: recursion within a time point
    "STREAM <http://example.org/s1> [RANGE 3s] { ?x (:p/:p)|^:p ?y }",
    "{ SELECT ?x (COUNT(?y) AS ?n) WHERE { STREAM <http://example.org/s1> [RANGE 4s SLIDE 2s] { ?x :p* ?y } } GROUP BY ?x }",
])
def test_property_paths_and_sub_queries_block_by_block_equal_sequential(where, engine) -> None:
    """Property paths (recursive rules) and an aggregating sub-query need no more look-back than
    their windows: the blocks give the sequential answers with either LARS engine."""
    text = f"PREFIX : <http://example.org/>\nSELECT * WHERE {{ {where} }}"
    compiled = compile_query(parse(text, "cqels"), mode="push", base=TimeBase("s"))
    stream = edge_stream()
    expected = sequential(compiled, stream)
    assert any(ev.rows for ev in expected)
    for parts in (1, 3, 8):
        assert as_evaluations(partitioned({"r": compiled}, stream, parts, engine=engine), width=compiled.width) == expected, parts
