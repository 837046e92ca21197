"""Runs and agreements on Spark: ``rsplars.run(..., engine="spark", spark=SparkOptions(...))`` and
``rsplars.agree(..., engine="spark")``, as ``rsplars run|agree --engine spark`` (docs/spark.md).

The timeline is cut into blocks, each block reads the stream elements its windows reach (its
look-back) and the blocks are solved in parallel, one LARS engine each; the answer at t depends only
on the stream up to t and, through the windows, on a bounded part of it (Dao-Tran, Beck, Eiter 2015,
§4), so the evaluations are those of the sequential run (:mod:`spark_jobs.runs`). EP-SPARQL patterns
with a time bound run block by block too (:mod:`spark_jobs.epsparql_job`). Needs pyspark and Java
(``pip install 'rsplars[spark]'``); :class:`SparkOptions` says where Spark runs.

Not on Spark (a clear :class:`~lars.errors.RsplarsError`): engine profiles and RSP-QL queries under
their default profile (the report policy keeps state from one window to the next), RSEP-QL, EP-SPARQL
with a selection or consumption policy, and queries without streams (evaluated once).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from lars.errors import RsplarsError
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from rsplars.queries import QueryInput, as_query
from rsplars.run_requests import check_run_request
from spark_jobs.options import ENGINES, SparkOptions
from translator.options import EventOptions, ProfileOptions, TranslationOptions

if TYPE_CHECKING:  # pragma: no cover
    from rsplars.running import RunResult

__all__ = ["ENGINES", "SparkOptions", "agreement_solver", "run_on_spark", "spark_settings"]


def spark_settings(engine: str, spark: SparkOptions | None) -> SparkOptions | None:
    """The Spark settings of a run with ``engine`` (``sequential`` or ``spark``): ``None`` for a
    sequential run, ``spark`` (default :class:`SparkOptions`) on Spark."""
    if engine not in ENGINES:
        raise RsplarsError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if spark is not None and not isinstance(spark, SparkOptions):
        raise RsplarsError(f"spark: expected SparkOptions(master=…, partitions=…), got {type(spark).__name__}")
    if engine == "sequential":
        if spark is not None:
            raise RsplarsError("spark=SparkOptions(…) needs engine='spark'")
        return None
    return spark if spark is not None else SparkOptions()


def run_on_spark(query: QueryInput, streams: Mapping[str, StreamInput] | None, static: StaticInput,
                 named: Mapping[str, str | os.PathLike[str]] | None, *, options: TranslationOptions,
                 profile: ProfileOptions | None, events: EventOptions, start: int | None, end: int | None,
                 r2s: str | None, lars_engine: str, stream_time_unit: str | None, epoch: str | None,
                 static_during: Sequence[StaticDuring], spark: SparkOptions) -> RunResult:
    """:func:`rsplars.run` on Spark (module docstring): the same :class:`~rsplars.running.RunResult`."""
    from rsplars.running import RunResult, _bind_now
    from rsplars.translating import dialect_profile
    from spark_jobs.runs import run_answers_spark
    from translator.translate.variants import check_stream_iris, compile_variants

    parsed = as_query(query)
    notes = [f"note: {n}" for n in parsed.notes]
    if not streams:
        raise RsplarsError("engine='spark' needs streams: a query without streams is evaluated once, sequentially")
    check_run_request(options, start, end)
    if parsed.dialect == "rsepql":
        raise RsplarsError("RSEP-QL queries do not run on Spark: run them with engine='sequential'")
    if parsed.dialect == "epsparql":
        return _events_on_spark(parsed, streams, options, profile, events, start, end, r2s, lars_engine,
                                stream_time_unit, epoch, spark, notes)
    if dialect_profile(parsed, options, profile, r2s) is not None:
        raise RsplarsError("engine profiles (and RSP-QL queries, run under the rsp-ql profile unless a mode or "
                           "period is given) do not run on Spark: a report policy carries state from one window to "
                           "the next; run them with engine='sequential'")
    parsed = _bind_now(parsed, options.unit, epoch)
    data = read_data(streams, static, named, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during)
    check_stream_iris(parsed, data.stream_iris, notes)
    ((_, compiled),) = compile_variants(parsed, options, data.elements, notes)
    evaluations = tuple(run_answers_spark(compiled, data.elements, data.facts, start=start, end=end,
                                          r2s=r2s or "rstream", spark=spark, engine=lars_engine))
    return RunResult(parsed, compiled, evaluations, tuple(notes))


def _events_on_spark(query: Any, streams: Mapping[str, StreamInput], options: TranslationOptions,
                     profile: ProfileOptions | None, events: EventOptions, start: int | None, end: int | None,
                     r2s: str | None, lars_engine: str, stream_time_unit: str | None, epoch: str | None,
                     spark: SparkOptions, notes: list[str]) -> RunResult:
    """An EP-SPARQL run block by block (:func:`spark_jobs.epsparql_job.event_answers_spark`): a pattern
    with a time bound, no selection or consumption policy."""
    from rsplars.running import RunResult
    from spark_jobs.epsparql_job import event_answers_spark, refuse_policy
    from translator.translate.epsparql import compile_epsparql
    from translator.translate.normalize import TimeBase

    if options.as_variant or options.strategy or options.mode not in (None, "push"):
        raise RsplarsError("EP-SPARQL queries are translated as event patterns and pushed: as_variant, strategy "
                           "and mode pull/none do not apply")
    if profile is not None:
        raise RsplarsError("engine profiles need windows; EP-SPARQL has none (Dell'Aglio et al. 2013, §7)")
    if r2s not in (None, "rstream"):
        raise RsplarsError("r2s does not apply to EP-SPARQL: each complex event is reported once, when detected")
    refuse_policy(events.selection, events.consumption)
    compiled = compile_epsparql(query, base=TimeBase(options.unit))
    notes.extend(f"warning: {w}" for w in compiled.warnings)
    data = read_data(streams, None, None, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch)
    found = event_answers_spark(compiled, data.elements, start=start, end=end, engine=lars_engine,
                                master=spark.master, partitions=spark.partitions)
    return RunResult(query, compiled, tuple(found), tuple(notes), events=True)


def agreement_solver(spark: SparkOptions, lars_engine: str) -> Callable[[Any, Any, Any, int | None], Any]:
    """The ``solve`` of :func:`translator.agreement.compare.compare` on Spark: every program of the
    comparison solved over the same blocks in one Spark job (:func:`spark_jobs.runs.run_agreement_spark`),
    the answers judged on the driver as in a sequential agreement."""

    def solve(programs: Any, elements: Any, facts: Any, last: int | None) -> Any:
        from spark_jobs.runs import run_agreement_spark

        return run_agreement_spark(programs, elements, facts, end=last, spark=spark, engine=lars_engine).answers

    return solve
