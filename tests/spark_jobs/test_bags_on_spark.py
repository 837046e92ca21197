"""Multisets on Spark (docs/decisions.md D5, D13): a query whose answers hold duplicates (``SELECT ?x``
over ``?x :p ?y``: the hidden column ?y tells them apart) gives on Spark the evaluations of the
sequential run (the oracle) — RStream, IStream/DStream as multiset differences, ORDER BY over the
hidden ?y with LIMIT in its order — and the agreement's verdicts compare the set view."""

from __future__ import annotations

import pytest

from spark_cases import EX, edge_stream, sequential
from spark_jobs.options import SparkOptions
from spark_jobs.runs import run_agreement_spark, run_answers_spark
from translator.agreement import Solution, judge
from translator.evaluate.run import R2S
from translator.query.parse import parse
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

pytestmark = pytest.mark.spark


def projected(window: str, mode: str, period: int | None = None, modifiers: str = ""):
    """``SELECT ?x`` of ``?x :p ?y`` on s1 under ``window`` (CQELS), with ``modifiers``."""
    text = f"PREFIX : <{EX}>\nSELECT ?x WHERE {{ STREAM <{EX}s1> [{window}] {{ ?x :p ?y }} }} {modifiers}"
    return compile_query(parse(text, "cqels"), mode=mode, period=period, base=TimeBase("s"))


def test_bags_on_spark_equal_the_sequential_run(spark, tmp_path) -> None:
    stream = edge_stream()
    compiled = projected("RANGE 3s", "push")
    assert compiled.hidden  # the witness of the solutions that SELECT ?x makes equal
    for r2s in R2S:
        got = list(run_answers_spark(compiled, stream, end=30, r2s=r2s, spark=SparkOptions("local[2]", 3)))
        assert got == sequential(compiled, stream, end=30, r2s=r2s), r2s
        if r2s == "rstream":
            assert any(n > 1 for ev in got for _, n in ev.rows.items())  # duplicates occur
    ordered = projected("RANGE 3s", "push", modifiers="ORDER BY DESC(?y) ?x LIMIT 2")
    for r2s in ("rstream", "istream"):
        got = list(run_answers_spark(ordered, stream, end=30, r2s=r2s, spark=SparkOptions("local[2]", 3)))
        want = sequential(ordered, stream, end=30, r2s=r2s)
        assert [(ev.t, list(ev.rows)) for ev in got] == [(ev.t, list(ev.rows)) for ev in want], r2s


def test_agreement_on_spark_compares_the_set_view(spark, tmp_path) -> None:
    stream = edge_stream()
    text = f"PREFIX : <{EX}>\nSELECT ?x FROM STREAM <{EX}s1> [RANGE 4s STEP 4s] WHERE {{ ?x :p ?y }}"
    pull = compile_query(parse(text, "csparql"), mode="pull", period=4, base=TimeBase("s"))
    runs = {"tau1_pull": pull, "tau2_push": projected("RANGE 4s", "push")}
    result = run_agreement_spark(runs, stream, spark=SparkOptions("local[2]", 3, parquet=str(tmp_path)))

    def solutions(label):
        compiled = runs[label]
        return {ev.t: frozenset(Solution.from_mapping(dict(zip(compiled.variables, row))) for row in ev.rows)
                for ev in sequential(compiled, stream)}

    expected = {label: solutions(label) for label in runs}
    assert result.answers == expected
    verdicts = judge(expected["tau1_pull"], expected["tau2_push"], 4)
    assert [(r["index"], r["verdict"], r["pull_answers"], r["push_answers"]) for r in result.verdicts] == [
        (v.index, v.verdict.value, len(v.pull), len(v.push)) for v in verdicts.intervals]
    # the Parquet answers: every solution as often as it occurs
    written = spark.read.parquet(str(tmp_path / "answers")).filter("run = 'tau2_push'").collect()
    bag_sizes = sum(len(ev.rows) for ev in sequential(runs["tau2_push"], stream))
    assert len(written) == bag_sizes > sum(len(a) for a in expected["tau2_push"].values())
    assert all(set(r["bindings"]) == {"x"} for r in written)
