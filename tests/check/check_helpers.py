"""Helpers of the operational-profile and ``rsplars check`` tests: the papers' fixtures as an
:class:`translator.evaluate.operational.Evaluator`, relations as plain Python values."""

from __future__ import annotations

from pathlib import Path

from translator.evaluate.operational import Evaluator
from translator.query.parse import parse
from translator.rdf.static import load_dataset, static_facts
from translator.rdf.streams import merge_streams, read_streams
from translator.rdf.timeunits import TimeSpec
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

DATA = Path(__file__).resolve().parents[1] / "data" / "check"
EX = "http://example.org/"
NEARBY, COUPON = EX + "nearby", EX + "coupon"
RSPQL_STREAMS = {NEARBY: DATA / "nearby.stream", COUPON: DATA / "coupon.stream"}
CSR_STREAM = "http://www.example.org/stream1"


def evaluator(query_file: str, streams: dict, *, static=(), unit: str = "s", stream_unit: str | None = None,
              dialect: str | None = None) -> Evaluator:
    text = (DATA / query_file).read_text()
    q = parse(text, dialect or ("csparql" if "REGISTER" in text else "cqels"), source=query_file)
    elements = merge_streams(read_streams({k: str(v) for k, v in streams.items()}, time=TimeSpec(unit, stream_unit, None)))
    facts = static_facts(load_dataset([str(DATA / s) for s in static], {})) if static else ()
    compiled = compile_query(q, mode="none", base=TimeBase(unit))
    return Evaluator(compiled.query, compiled.strategy, TimeBase(unit), elements, facts)


def rspql(query_file: str = "qex.rq") -> Evaluator:
    return evaluator(query_file, RSPQL_STREAMS, static=("shops.ttl",))


def listing1() -> Evaluator:
    return evaluator("listing1.rq", {CSR_STREAM: DATA / "listing1.nt"}, stream_unit="ms")


def short(term: str | None) -> str | None:
    """``<http://example.org/carl>`` → ``carl``; literals as their lexical form."""
    if term is None:
        return None
    if term.startswith("<"):
        return term.strip("<>").rsplit("/", 1)[-1]
    return term.split('"')[1]


def plain(relations) -> list[tuple[int, list[tuple]]]:
    """Relations as ``[(t, sorted rows of short terms)]``."""
    return [(r.t, sorted(tuple(short(x) for x in row) for row in r.rows)) for r in relations]
