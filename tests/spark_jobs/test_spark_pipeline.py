"""The partitioned run on Spark (``local[2]``, the shared SparkSession fixture): the blocks Spark's window functions
build equal the plain-Python partition, and answers, R2S, verdicts, Parquet output and the
spark-submit entry point equal the sequential run (the oracle). Few jobs, each covering much."""

from __future__ import annotations

import json

import pytest

from spark_cases import as_evaluations, cqels, csparql, edge_stream, sequential
from spark_jobs.options import SparkOptions
from spark_jobs.runs import run_agreement_spark, run_answers_spark
from spark_jobs.frames import elements_frame, with_blocks
from spark_jobs.partition import elements_table, partition
from spark_jobs.pipeline import solve_runs
from translator.agreement import Solution, judge
from translator.cli import main as rsplars

pytestmark = pytest.mark.spark

RUNS = {
    "range-push": cqels("RANGE 3s", "push"),
    "step-pull": cqels("RANGE 4s SLIDE 2s", "pull", 4),
    "tuple-pull": cqels("TRIPLES 2", "pull", 4),
    "all-push": cqels("RANGE UNBOUNDED", "push"),
    "csparql-pull": csparql("RANGE 4s STEP 2s", 2),
    "join-push": cqels("RANGE 3s", "push", other="TRIPLES 1"),
}


def test_spark_blocks_and_answers_equal_plain_partition_and_sequential(spark) -> None:
    stream = edge_stream()
    frame = elements_frame(spark, stream)
    results, plan = solve_runs(frame, RUNS, partitions=3)
    out = results.toPandas()
    for label, compiled in RUNS.items():
        assert as_evaluations(out, label, compiled.width) == sequential(compiled, stream), label
    # what every block got: Spark window functions == the plain-Python reference
    spark_rows = {tuple(r) for r in with_blocks(frame, plan.look, plan.blocks)
                  .select("block", "seq", "t", "stream", "s", "p", "o").collect()}
    plain = {(b, *(None if v != v else v for v in row)) for b, part in partition(elements_table(stream), plan.look, plan.blocks)
             for row in part[["seq", "t", "stream", "s", "p", "o"]].itertuples(index=False)}
    markers = {(b, None, None, None, None, None, None) for b in range(plan.blocks.first_block, plan.blocks.last_block + 1)}
    assert spark_rows == plain | markers


@pytest.mark.parametrize("r2s", ["istream", "dstream"])
def test_r2s_on_spark_equals_sequential(spark, r2s) -> None:
    stream = edge_stream()
    compiled = cqels("TRIPLES 2", "push")
    got = list(run_answers_spark(compiled, stream, end=30, r2s=r2s, spark=SparkOptions("local[2]", 3)))
    assert got == sequential(compiled, stream, end=30, r2s=r2s)


def test_agreement_on_spark_equals_sequential_verdicts(spark, tmp_path) -> None:
    stream = edge_stream()
    runs = {"tau1_pull": csparql("RANGE 4s STEP 4s", 4), "tau2_push": cqels("RANGE 4s", "push"),
            "tau2_pull": cqels("RANGE 4s", "pull", 4)}
    result = run_agreement_spark(runs, stream, spark=SparkOptions("local[2]", 3, parquet=str(tmp_path)))

    def solutions(label):
        compiled = runs[label]
        return {ev.t: frozenset(Solution.from_mapping(dict(zip(compiled.variables, row))) for row in ev.rows)
                for ev in sequential(compiled, stream)}

    expected = {label: solutions(label) for label in runs}
    assert result.answers == expected
    verdicts = judge(expected["tau1_pull"], expected["tau2_push"], 4)
    columns = ("index", "start", "end", "verdict", "pull_answers", "push_answers", "missing", "extra", "push_times")
    assert [tuple(r[c] for c in columns) for r in result.verdicts] == [
        (v.index, v.start, v.end, v.verdict.value, len(v.pull), len(v.push), len(v.missing), len(v.extra),
         len(v.push_times)) for v in verdicts.intervals
    ]
    assert {r["verdict"] for r in result.verdicts} == {"agree", "disagree"}  # the stream exercises both
    written = spark.read.parquet(str(tmp_path / "verdicts")).orderBy("index").collect()
    assert [r["verdict"] for r in written] == [r["verdict"] for r in result.verdicts]
    answers = spark.read.parquet(str(tmp_path / "answers")).filter("run = 'tau2_push'").collect()
    assert sum(len(a) for a in expected["tau2_push"].values()) == len(answers)
    assert all(set(r["bindings"]) <= {"x", "y"} for r in answers)


def test_submit_entry_point_matches_rsplars_run(spark, data_dir, tmp_path, capsys) -> None:
    from spark_jobs.submit import main as submit

    d = data_dir / "spark"
    streams = ["--stream", f"http://example.org/s1={d / 's1.nt'}", "--stream", f"http://example.org/s2={d / 's2.nt'}"]
    common = ["--static", str(d / "static.ttl"), "--unit", "s"]
    assert rsplars(["run", str(d / "pull.rq"), *streams, *common]) == 0
    expected = capsys.readouterr().out
    assert expected.count("\n") > 5
    assert submit(["run", str(d / "pull.rq"), "--elements", str(d / "elements.csv"), *common,
                   "--master", "local[2]", "--partitions", "3"]) == 0
    assert capsys.readouterr().out == expected
    report = tmp_path / "agree.json"
    assert submit(["agree", str(d / "pull.rq"), str(d / "push.rq"), *streams, *common, "--master", "local[2]",
                   "--diagnose", "--json", str(report)]) == 0
    table = capsys.readouterr().out
    data = json.loads(report.read_text())
    assert data["summary"]["intervals"] == 8 and "intervals" in table
    bad = tmp_path / "bad.csv"
    bad.write_text("time,stream,s,p,o\n1,http://example.org/s1,<http://example.org/a>,<http://example.org/p>,<oops\n")
    assert submit(["run", str(d / "pull.rq"), "--elements", str(bad), "--master", "local[2]"]) == 2
    assert "malformed RDF term" in capsys.readouterr().err
