"""EP-SPARQL runs cut into blocks: the look-back of the pattern's time bound finds every complex event
ending in a block, each reported once (by the block holding its end time); Spark's output equals the
sequential run byte for byte; unbounded patterns and policies are refused with named errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from translator.exits import EXIT_USAGE
from spark_jobs.epsparql_job import (
    PolicyPartitionError,
    UnboundedPatternError,
    event_answers_spark,
    event_block_solve,
    refuse_policy,
)
from spark_jobs.lookback import LookBack, look_back
from spark_jobs.point_blocks import point_blocks
from spark_jobs.point_jobs import solve_point_block
from translator.cli import main
from translator.evaluate.epsparql_run import EventEvaluation, event_answers
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.translate.epsparql import compile_epsparql
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

NS = "http://rsplars.invalid/bare#"
RISE = """SELECT ?company ?price1 ?price2
WHERE { ?company hasStockPrice ?price1 } SEQ { ?company hasStockPrice ?price2 }
FILTER ( ?price1 < ?price2 )
WITHIN 5
"""
#: an OPTIONALSEQ: the left events that a later one extends are not reported without it
OPTIONAL = """SELECT ?company ?p ?q
WHERE { ?company hasStockPrice ?p } OPTIONALSEQ { ?company hasDividend ?q }
WITHIN 3
"""
UNBOUNDED = "SELECT ?company WHERE { ?company hasStockPrice ?p } SEQ { ?company hasDividend ?q }"


def _elements(seed: int, length: int = 60) -> list[StreamElement]:
    """Prices and dividends of three companies, zero to three events per time point, gaps."""
    rng = random.Random(seed)
    out = []
    for t in range(length):
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            company = URIRef(NS + rng.choice(("acme", "globex", "initech")))
            predicate = URIRef(NS + rng.choice(("hasStockPrice", "hasStockPrice", "hasDividend")))
            out.append(StreamElement((company, predicate, Literal(rng.randint(1, 9), datatype=XSD.integer)), t,
                                     URIRef("http://example.org/stock")))
    return out


def _compiled(text: str):
    return compile_epsparql(parse(text, "epsparql"))


@pytest.mark.parametrize("query", [RISE, OPTIONAL])
@pytest.mark.parametrize("partitions", [1, 3, 7, 40])
def test_blocks_with_the_bound_as_look_back_give_the_sequential_events(query, partitions) -> None:
    compiled = _compiled(query)
    for seed in range(3):
        elements = _elements(seed)
        expected = list(event_answers(compiled, elements))
        got = list(event_answers_spark(compiled, elements, partitions=partitions, local=True))
        assert got == expected
        assert sum(len(ev.rows) for ev in expected) > 5  # complex events at all, some across block edges


def test_the_look_back_is_the_pattern_bound_and_shorter_one_loses_events() -> None:
    compiled = _compiled(RISE)
    assert compiled.bound == 5 and look_back(compiled.program) == LookBack(5)
    elements = _elements(1)
    expected = list(event_answers(compiled, elements))
    from translator.evaluate.epsparql_run import event_times
    from translator.evaluate.run import data_stream

    stream = data_stream(elements, 0, None)
    solve = event_block_solve(compiled, *stream.timeline)
    short = [EventEvaluation(t, rows)
             for block in point_blocks(stream.points, event_times(elements, None, None), LookBack(2), 6)
             for t, rows in solve_point_block(solve, block)]
    assert [ev.t for ev in short] == [ev.t for ev in expected]
    assert short != expected  # events starting before the block's look-back are missed: the bound is needed


def test_complex_events_across_a_block_edge_are_counted_once() -> None:
    compiled = _compiled(RISE)
    price = URIRef(NS + "hasStockPrice")
    acme = URIRef(NS + "acme")
    stream_iri = URIRef("http://example.org/stock")
    elements = [StreamElement((acme, price, Literal(v, datatype=XSD.integer)), t, stream_iri)
                for t, v in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6))]
    expected = list(event_answers(compiled, elements))
    for partitions in range(1, 7):  # every edge between two event times
        got = list(event_answers_spark(compiled, elements, partitions=partitions, local=True))
        assert got == expected
    # (1, 6) spans 5 ticks: found by the block holding 6 through its look-back, reported there only
    rows = [(s, e) for ev in expected for _, s, e in ev.rows]
    assert len(rows) == len(set(rows)) == 15 and (1, 6) in rows


def test_unbounded_patterns_and_policies_are_refused_by_name() -> None:
    with pytest.raises(UnboundedPatternError, match="time bound"):
        event_answers_spark(_compiled(UNBOUNDED), _elements(0), local=True)
    with pytest.raises(PolicyPartitionError, match="--selection chronological"):
        refuse_policy("chronological", "unrestricted")
    with pytest.raises(PolicyPartitionError, match="--consumption"):
        refuse_policy("unrestricted", "chronological")
    refuse_policy("unrestricted", "unrestricted")


def _write_stream(path: Path, elements: list[StreamElement]) -> None:
    lines = [f"<{e.triple[0]}> <{e.triple[1]}> {e.triple[2].n3()} [{e.t}] ." for e in elements]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.spark
def test_run_engine_spark_prints_the_sequential_output(spark, tmp_path, capsys) -> None:
    stream = tmp_path / "stock.stream"
    _write_stream(stream, _elements(7, 80))
    for name, text in (("rise.rq", RISE), ("optional.rq", OPTIONAL)):
        query = tmp_path / name
        query.write_text(text)
        for fmt in ("jsonl", "csv"):
            argv = ["run", str(query), "--stream", f"http://example.org/stock={stream}", "--format", fmt]
            assert main(argv) == 0
            sequential = capsys.readouterr().out
            assert main([*argv, "--engine", "spark", "--master", "local[2]", "--partitions", "5"]) == 0
            assert capsys.readouterr().out == sequential
            assert "acme" in sequential


@pytest.mark.spark
def test_run_engine_spark_refuses_unbounded_patterns_and_policies(spark, tmp_path, capsys) -> None:
    stream = tmp_path / "stock.stream"
    _write_stream(stream, _elements(3, 10))
    query = tmp_path / "q.rq"
    query.write_text(UNBOUNDED)
    base = ["run", str(query), "--stream", f"http://example.org/stock={stream}", "--engine", "spark",
            "--master", "local[2]"]
    assert main(base) == EXIT_USAGE
    assert "needs an EP-SPARQL pattern with a time bound" in capsys.readouterr().err
    query.write_text(RISE)
    assert main([*base, "--selection", "chronological"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "--selection chronological" in err and "Traceback" not in err



@pytest.mark.spark
def test_agree_with_an_epsparql_push_query_on_spark_gives_the_sequential_report(spark, tmp_path, capsys) -> None:
    examples = Path(__file__).parents[2] / "examples" / "epsparql"
    stream = tmp_path / "stock.stream"
    _write_stream(stream, [e for e in _elements(11, 60) if e.triple[1] == URIRef(NS + "hasStockPrice")])
    base = ["agree", "--pull", str(examples / "prices_cs.rq"), "--push", str(examples / "prices.rq"),
            "--stream", f"http://example.org/stock={stream}", "--window-bounds", "left-open", "--to", "60"]
    assert main([*base, "--report", str(tmp_path / "seq.json")]) == 0
    sequential = capsys.readouterr().out
    assert main([*base, "--report", str(tmp_path / "spark.json"), "--engine", "spark", "--master", "local[2]",
                 "--partitions", "4"]) == 0
    assert capsys.readouterr().out == sequential.replace("seq.json", "spark.json")
    assert (tmp_path / "spark.json").read_text() == (tmp_path / "seq.json").read_text()
    assert "agreeing: 12 (100.0%)" in sequential
