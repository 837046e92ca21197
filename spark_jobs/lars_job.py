"""``rsplars lars PROGRAM --stream FILE --engine spark``: a LARS program over a long stream, block by
block on Spark (docs/spark_jobs.md).

The reference times are cut into blocks of consecutive times; a block owning ``[a, z]`` reads the time
points its look-back reaches (:mod:`spark_jobs.point_blocks`: the program's widest time window, the last
n atoms of a tuple window, the first occurrences under ``◇ ⊞^∞``), read off the program's rules
(:func:`spark_jobs.lookback.look_back`). The answer at t depends only on the stream up to t (D9,
docs/decisions.md), so each block computes the answers at its own times exactly as a sequential run
does; each time point's answer comes from the one block that owns it. Programs whose windows need the
whole history point by point (``□`` or ``@`` over ``⊞^∞``, ``@_T`` without a window) are refused with
:class:`LarsPartitionError`.

``--emit delta`` compares each answer with the previous time point's on the driver, with the rule of
the engines (``lars.solver.Step.delta``): a change is printed when both time points have exactly one
answer stream. Only with ``--models 1``: with more models the engines say so only where they did not
solve again, which a block cannot know (the command refuses ``--emit delta`` with ``--models`` ≠ 1).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from lars.errors import RsplarsError
from lars.model import Program, Stream
from lars.solver import Step
from spark_jobs.lookback import LookBack, PartitionError, look_back
from spark_jobs.options import DEFAULT_MASTER
from spark_jobs.point_jobs import BlockSolve, solve_blocks_locally, solve_blocks_on_spark


class LarsPartitionError(RsplarsError):
    """A LARS program whose windows reach arbitrarily far back: no block look-back suffices."""


#: what a block gives back per time point: ``(t, answer streams, more)`` — a plain tuple, which pickles
#: several times faster than an object (blocks of a long stream send back one per time point)
Answer = tuple[int, tuple[tuple[str, ...], ...], bool]


def answer_of(step: Step) -> Answer:
    return (step.t, tuple(tuple(a) for a in step.answers), step.more)


def program_look_back(program: Program) -> LookBack:
    """The program's look-back, or :class:`LarsPartitionError` naming the window that prevents one."""
    try:
        return look_back(program)
    except PartitionError as err:
        raise LarsPartitionError(
            f"--engine spark cannot cut the stream into blocks for this program: {err.feature} needs every time "
            "point since the start of the stream; run it with --engine auto, asp or incremental") from None


def check_listed_models(program: Program, models: int) -> None:
    """A program that is not stratified may have several answer streams at a time point; which ``models``
    of them a run lists depends on the solver's search order so far (clingo enumerates ``models + 1``
    and lists the first of those in sorted order), which a block that starts later cannot repeat.
    All of them (``--models 0``) are the same however they were found: :class:`LarsPartitionError`
    otherwise."""
    from lars.errors import UnsupportedError
    from lars.evaluation import strata

    if models == 0:
        return
    try:
        strata(program)
    except UnsupportedError:
        raise LarsPartitionError(
            f"--engine spark lists the answer streams of a program that is not stratified with --models 0 only, not "
            f"--models {models}: which of several answer streams a run lists depends on the solver's search order "
            "so far") from None


def with_deltas(answers: Iterable[Answer], models: int) -> Iterator[Step]:
    """The steps of a sequential run rebuilt from the answers in time order (module docstring)."""
    previous: Answer | None = None
    for answer in answers:
        t, streams, more = answer
        delta = None
        if models == 1 and previous is not None and len(previous[1]) == 1 and len(streams) == 1 \
                and not previous[2] and not more:
            now, before = set(streams[0]), set(previous[1][0])
            delta = (tuple(sorted(now - before)), tuple(sorted(before - now)))
        yield Step(t, [*streams], more, delta=delta)
        previous = answer


def lars_steps_spark(program: Program, stream: Stream, times: Sequence[int], *, models: int = 1,
                     master: str = DEFAULT_MASTER, partitions: int | None = None,
                     local: bool = False) -> Iterator[Step]:
    """The steps of ``solver.run(stream, times)`` computed block by block (``local``: in this process,
    the tests' reference); every block runs the engine ``auto`` chooses."""
    look = program_look_back(program)
    check_listed_models(program, models)
    lo, hi = stream.timeline
    solve = BlockSolve(program, lo, hi, answer_of, "auto", models)
    points = dict(stream.items())
    if local:
        answers = solve_blocks_locally(points, list(times), look, solve, partitions or 4)
    else:
        answers = solve_blocks_on_spark(points, list(times), look, solve, master=master, partitions=partitions)
    return with_deltas(answers, models)
