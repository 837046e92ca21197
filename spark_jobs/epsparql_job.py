"""EP-SPARQL runs on Spark (``rsplars run EP_QUERY --engine spark``, docs/spark_jobs.md).

An EP-SPARQL query is push-evaluated: at every event time t it reports the complex events whose
interval ends at t (Anicic et al. 2011; ``translator.evaluate.epsparql_run.event_answers``). Its
LARS program (``translator.translate.epsparql.compile_epsparql``) reads the events through the window
``⊞^d`` of the pattern's time bound d (``WITHIN d``, a top-level ``getDURATION() < d``, or the longest
interval its structure allows): every event of a complex event ending at t lies in ``[t − d, t]``, and
so do the events an OPTIONAL form looks for. The window is the look-back of a block, exactly as for
the windows of C-SPARQL/CQELS queries (:mod:`spark_jobs.lookback`): a block owning the event times
``[a, z]`` reads the events in ``[a − d, z]`` and finds every complex event ending in ``[a, z]``.

A complex event near a block edge is counted once: it is reported at its end time only, and the
end time belongs to exactly one block (the one owning that evaluation time); events that started in
the block before are in the look-back, not reported again.

Refused, each with a named error (the sequential engine runs them):

* a pattern without a time bound (windows ``⊞^∞``): a complex event may span the whole stream, so no
  look-back is long enough (:class:`UnboundedPatternError`);
* a selection or consumption policy (Dell'Aglio et al. 2016, §4.3–4.4): the chronological and recent
  selections compare a match with every earlier match since the start of the stream, and consumption
  carries the consumed events from one evaluation to the next, so an evaluation depends on the whole
  history before it, not on a window (:class:`PolicyPartitionError`).
"""

from __future__ import annotations

from functools import partial
from typing import Iterator, Sequence

from lars.errors import RsplarsError
from lars.solver import Step
from spark_jobs.lookback import look_back
from spark_jobs.options import DEFAULT_MASTER
from spark_jobs.point_jobs import BlockSolve, solve_blocks_locally, solve_blocks_on_spark
from translator.evaluate.epsparql_run import EventEvaluation, event_bag, event_rows, event_times
from translator.evaluate.run import data_stream, the_answer
from translator.rdf.streams import StreamElement
from translator.translate.epsparql import EventCompiled


class UnboundedPatternError(RsplarsError):
    """An EP-SPARQL pattern without a time bound cannot be cut into blocks."""


class PolicyPartitionError(RsplarsError):
    """A selection or consumption policy makes an evaluation depend on the whole history."""


def refuse_policy(selection: str, consumption: str) -> None:
    """:class:`PolicyPartitionError` unless both policies are ``unrestricted`` (module docstring)."""
    given = [f"--{name} {value}" for name, value in (("selection", selection), ("consumption", consumption))
             if value != "unrestricted"]
    if given:
        raise PolicyPartitionError(
            f"--engine spark does not run EP-SPARQL with {' '.join(given)}: a selection policy compares each match "
            "with every earlier match since the start of the stream and consumption carries state from one "
            "evaluation to the next (Dell'Aglio et al. 2016, §4.3-4.4), so no block look-back suffices; run it "
            "with the sequential engine (--engine sequential)")


def event_block_solve(compiled: EventCompiled, lo: int, end: int, engine: str = "auto") -> BlockSolve:
    """How each block of an EP-SPARQL run is solved; :class:`UnboundedPatternError` without a bound."""
    if compiled.bound is None:
        raise UnboundedPatternError(
            "--engine spark needs an EP-SPARQL pattern with a time bound (WITHIN d, or FILTER (getDURATION() < d)): "
            "without one a complex event may span the whole stream, so the stream cannot be cut into blocks; "
            "add WITHIN d or run it with the sequential engine (--engine sequential)")
    return BlockSolve(compiled.program, lo, end, partial(event_step, compiled.answer_predicate, compiled.width), engine,
                      sparql_functions=True)


def event_step(predicate: str, width: int | None, step: Step) -> tuple[int, tuple]:
    """The complex events reported at one step (their interval ends at ``step.t``; a bag, the
    witness columns after ``width`` cut off), as a plain tuple (it pickles faster than an object;
    :class:`EventEvaluation` is built on the driver)."""
    return step.t, event_bag(event_rows(predicate, the_answer(step), width))


def event_answers_spark(compiled: EventCompiled, elements: Sequence[StreamElement], *, start: int | None = None,
                        end: int | None = None, engine: str = "auto", master: str = DEFAULT_MASTER,
                        partitions: int | None = None, local: bool = False) -> Iterator[EventEvaluation]:
    """``translator.evaluate.epsparql_run.event_answers`` block by block on Spark (``local``: in this
    process, the tests' reference): one :class:`EventEvaluation` per event time in ``[start, end]``."""
    stream = data_stream(elements, 0, None)
    lo, hi = stream.timeline
    solve = event_block_solve(compiled, lo, hi, engine)
    look = look_back(compiled.program)
    times = event_times(elements, start, end)
    if local:
        events = solve_blocks_locally(stream.points, times, look, solve, partitions or 4)
    else:
        events = solve_blocks_on_spark(stream.points, times, look, solve, master=master, partitions=partitions)
    return (EventEvaluation(t, rows) for t, rows in events)
