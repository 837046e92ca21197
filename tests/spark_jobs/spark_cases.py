"""Shared cases of the partitioned-run tests: queries with every window kind, and streams with
elements exactly on block, interval and window edges. The oracle is always the sequential run
``translator.evaluate.run.answers`` over the whole stream."""

from __future__ import annotations

from typing import Iterable, Mapping

import pandas as pd
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from translator.translate.compile import Compiled, compile_query
from translator.translate.normalize import TimeBase
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.evaluate.run import Evaluation, answers
from translator.rdf.bags import Bag

EX = "http://example.org/"
S1 = URIRef(EX + "s1")
S2 = URIRef(EX + "s2")

#: windows of Table 1 (Dao-Tran, Beck, Eiter 2015, §4.2): time, step (SLIDE), tuple, unbounded, now
WINDOWS = ("RANGE 3s", "RANGE 4s SLIDE 2s", "TRIPLES 2", "RANGE UNBOUNDED", "NOW")


def cqels(window: str, mode: str, period: int | None = None, bounds: str = "closed", other: str | None = None) -> Compiled:
    """``?x :p ?y`` on s1 under ``window``, joined with ``?y :q ?z`` on s2 under ``other`` if given."""
    second = f"STREAM <{EX}s2> [{other}] {{ ?y :q ?z }}" if other else ""
    text = f"PREFIX : <{EX}>\nSELECT * WHERE {{ STREAM <{EX}s1> [{window}] {{ ?x :p ?y }} {second} }}"
    return compile_query(parse(text, "cqels"), mode=mode, period=period, bounds=bounds, base=TimeBase("s"))


def csparql(window: str, period: int, bounds: str = "closed") -> Compiled:
    """The C-SPARQL counterpart (τ1: the window's triples merged into the default graph), pull."""
    text = f"PREFIX : <{EX}>\nSELECT * FROM STREAM <{EX}s1> [{window}] WHERE {{ ?x :p ?y }}"
    return compile_query(parse(text, "csparql"), mode="pull", period=period, bounds=bounds, base=TimeBase("s"))


def element(t: int, x: str, y: str, stream: URIRef = S1, predicate: str = "p") -> StreamElement:
    obj = Literal(y, datatype=XSD.integer) if y.isdigit() else URIRef(EX + y)
    return StreamElement((URIRef(EX + x), URIRef(EX + predicate), obj), t, stream)


def edge_stream() -> list[StreamElement]:
    """Elements on multiples of 4 (pull interval and block edges for U = 4), one tick either side,
    at 0, repeated at one time point (an exact duplicate and distinct triples in arrival order),
    and on the second stream s2; gaps longer than every window."""
    out = [
        element(0, "a", "b"), element(3, "a", "c"), element(4, "b", "c"), element(4, "a", "b"),
        element(4, "b", "c"), element(5, "c", "d"), element(8, "a", "d"), element(8, "c", "q", S2, "q"),
        element(9, "d", "b"), element(11, "a", "7"), element(12, "b", "b"), element(12, "c", "c"),
        element(12, "d", "d"), element(13, "b", "7", S2, "q"), element(16, "a", "b"), element(20, "e", "c"),
        element(21, "a", "c"), element(24, "b", "d"), element(31, "c", "b"), element(32, "a", "b"),
    ]
    return sorted(out, key=lambda e: e.t)


def sequential(compiled: Compiled, elements: Iterable[StreamElement], *, start=None, end=None,
               r2s: str = "rstream") -> list[Evaluation]:
    return list(answers(compiled, list(elements), (), start=start, end=end, r2s=r2s))


def as_evaluations(frame: pd.DataFrame, label: str | None = None, width: int | None = None) -> list[Evaluation]:
    """Rows ``run, t, row`` of the per-block solver (witnessed rows, one per solution) back into
    evaluations in time order: the multisets of their first ``width`` columns (``None``: all)."""
    from spark_jobs.solve_blocks import decode_row

    rows: dict[int, list] = {}
    for run, t, row in zip(frame["run"], frame["t"], frame["row"]):
        if label is not None and run != label:
            continue
        bucket = rows.setdefault(int(t), [])
        if row is not None:
            bucket.append(decode_row(row))
    return [Evaluation(t, Bag.of_witnessed(r, width)) for t, r in sorted(rows.items())]


def partitioned(runs: Mapping[str, Compiled], elements: list[StreamElement], partitions: int, *,
                start=None, end=None, static=(), engine: str = "auto") -> pd.DataFrame:
    """The partitioned run in plain Python: plan, partition, solve every block with ``engine``."""
    from spark_jobs.partition import elements_table, partition
    from spark_jobs.pipeline import make_plan
    from spark_jobs.solve_blocks import BlockJob, solve_rows

    times = [e.t for e in elements]
    plan = make_plan(runs, min(times, default=None), max(times, default=None), start, end, partitions)
    job = BlockJob(plan.runs, tuple(static), plan.blocks, engine=engine)
    return solve_rows(job, partition(elements_table(elements), plan.look, plan.blocks))
