"""``rsplars.run(..., engine="spark", spark=SparkOptions(...))`` and ``rsplars.agree(..., engine="spark")``
give what the sequential runs give (the oracle): the same evaluations, the same written answers, the
same agreement report; the Parquet tables land where ``SparkOptions.parquet`` says."""

from __future__ import annotations

from pathlib import Path

import pytest

import rsplars

ROOT = Path(__file__).resolve().parents[2]
RUNNING = ROOT / "tests" / "data" / "runs" / "running_example"
SEEDS = ROOT / "tests" / "data" / "queries" / "seeds"
Q1, Q2 = SEEDS / "s000_ex4_q1.rq", SEEDS / "s000_ex4_q2.rq"  # Dao-Tran, Beck, Eiter 2015, Ex. 4
S1, S2 = "http://example.org/rtgm/s1", "http://example.org/rtgm/s2"
STREAMS = {S1: RUNNING / "offers.nt", S2: RUNNING / "near.nt"}
EPSPARQL = ROOT / "examples" / "epsparql"

pytestmark = pytest.mark.spark


@pytest.mark.parametrize(("query", "options"), [(Q1, rsplars.TranslationOptions(unit="m", period="5m")),
                                                (Q2, rsplars.TranslationOptions(unit="m"))],
                         ids=["csparql-pull", "cqels-push"])
def test_run_on_spark_equals_the_sequential_run(spark, query, options, tmp_path) -> None:
    sequential = rsplars.run(query, STREAMS, RUNNING / "static.ttl", options=options)
    on_spark = rsplars.run(query, STREAMS, RUNNING / "static.ttl", options=options, engine="spark",
                           spark=rsplars.SparkOptions(master="local[2]", partitions=3, parquet=str(tmp_path / "pq")))
    assert on_spark.evaluations == sequential.evaluations
    assert on_spark.write("jsonl") == sequential.write("jsonl")
    assert any(ev.rows for ev in sequential.evaluations)  # answers at all
    assert sorted(p.name for p in (tmp_path / "pq").iterdir()) == ["answers", "evaluations"]


def test_run_on_spark_of_the_docstring_example(spark) -> None:
    q = "PREFIX : <http://example.org/>\nSELECT ?x WHERE { STREAM :s [RANGE 3s SLIDE 1s] { ?x :p ?y } }"
    data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1),
            (("<http://example.org/b>", "<http://example.org/p>", '"2"'), 2)]
    result = rsplars.run(q, streams={"http://example.org/s": data})
    on_spark = rsplars.run(q, streams={"http://example.org/s": data}, engine="spark",
                           spark=rsplars.SparkOptions(master="local[2]", partitions=4))
    assert on_spark.solutions() == result.solutions()
    assert on_spark.solutions()[2] == [{"x": "<http://example.org/a>"}, {"x": "<http://example.org/b>"}]


def test_epsparql_run_on_spark_equals_the_sequential_events(spark) -> None:
    stream = {"http://example.org/stock": EPSPARQL / "stock.stream"}
    sequential = rsplars.run(EPSPARQL / "rise.rq", stream)
    on_spark = rsplars.run(EPSPARQL / "rise.rq", stream, engine="spark", spark=rsplars.SparkOptions("local[2]", 3))
    assert on_spark.events and on_spark.solutions() == sequential.solutions()
    assert sum(len(ev.rows) for ev in sequential.evaluations) > 0
    with pytest.raises(rsplars.RsplarsError, match="does not run EP-SPARQL with --selection chronological"):
        rsplars.run(EPSPARQL / "rise.rq", stream, engine="spark", events=rsplars.EventOptions(selection="chronological"))


def test_agree_on_spark_gives_the_sequential_report(spark) -> None:
    sequential = rsplars.agree(Q1, STREAMS, RUNNING / "static.ttl", unit="m", period="5m", end=60)
    on_spark = rsplars.agree(Q1, STREAMS, RUNNING / "static.ttl", unit="m", period="5m", end=60, engine="spark",
                             spark=rsplars.SparkOptions(master="local[2]", partitions=4))
    assert on_spark.to_dict() == sequential.to_dict()
    assert on_spark.report.result.summary.intervals > 3
