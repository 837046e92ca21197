"""The partitioned run without Spark: the blocks of :mod:`spark_jobs.pipeline` solved by a pool of
local processes (``rsplars agree --jobs N``, docs/performance.md).

The plan is the Spark run's (:func:`spark_jobs.pipeline.make_plan`): blocks of whole pull intervals,
each solved from its own elements and its look-back (:mod:`spark_jobs.lookback`), which the
partitioned-run tests show to give the sequential answers at every evaluation time (Dao-Tran, Beck,
Eiter 2015, §4, D9: the answer at t depends only on the stream up to t, and through the windows only
on a bounded part of it). What differs is only where the blocks run: every (program, block) pair is
one task of a ``fork`` pool, and the workers read the data stream the parent built once (inherited,
not shipped). A time-window look-back slices the data stream by time directly; tuple windows and
``⊞^∞`` take the general partition of :func:`spark_jobs.partition.partition`.

Answers come back as rstream answers (``{label: {t: Bag}}``: the multiset of solutions, visible
rows, every evaluation time present, empty answers included), as
:func:`translator.evaluate.run.answers` yields them.
"""

from __future__ import annotations

import bisect
import multiprocessing
import os
from typing import Mapping, Sequence

from lars.errors import RsplarsError
from lars.model import Atom, Rule
from spark_jobs.lookback import PartitionError
from spark_jobs.pipeline import Plan, make_plan
from translator.evaluate.run import RunError
from translator.rdf.bags import Bag
from translator.rdf.streams import ElementList, StreamElement
from translator.translate.compile import Compiled

#: below this many stream elements a single process is faster (the pool and the blocks' look-back
#: cost more than they save)
MIN_ELEMENTS = 20_000
#: blocks per process: blocks differ in cost, a few per process balance the processes
BLOCKS_PER_JOB = 4

_JOB: dict = {}  # the job of the current pool, inherited by the forked workers


def default_jobs() -> int:
    """The processes ``--jobs`` defaults to: the CPUs this process may use, at most 4."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def can_run_locally(programs: Mapping[str, Compiled], elements: Sequence[StreamElement], jobs: int) -> bool:
    """Whether :func:`solve_local` pays off and is exact here: several processes, a stream long enough,
    ``fork`` available, and programs whose look-back is bounded (:class:`PartitionError` otherwise)."""
    if jobs < 2 or len(elements) < MIN_ELEMENTS or "fork" not in multiprocessing.get_all_start_methods():
        return False
    from spark_jobs.lookback import combined

    try:
        combined(c.program for c in programs.values())
    except PartitionError:
        return False
    return True


def solve_local(programs: Mapping[str, Compiled], elements: Sequence[StreamElement], static: Sequence[Rule] = (),
                *, start: int | None = None, end: int | None = None, jobs: int = 2,
                engine: str = "auto") -> dict[str, dict[int, Bag]]:
    """``{label: {t: rstream rows}}`` of every program at every evaluation time, solved block by
    block in ``jobs`` processes (module docstring) by the LARS engine ``engine``."""
    elements = elements if isinstance(elements, ElementList) else ElementList(elements)
    times = [e.t for e in elements]
    lo, hi = (min(times), max(times)) if times else (None, None)
    plan = make_plan(programs, lo, hi, start, end, max(1, jobs) * BLOCKS_PER_JOB)
    blocks = plan.blocks
    look = plan.look
    if look.tuples or look.first_occurrences:  # the general partition (tuple windows, ⊞^∞)
        from spark_jobs.partition import elements_table, partition
        from spark_jobs.solve_blocks import block_points

        parts = {b: block_points(pdf) for b, pdf in partition(elements_table(elements), look, blocks)}
    else:
        parts = None
    tasks = [(label, b) for label in programs for b in range(blocks.first_block, blocks.last_block + 1)]
    # the costly programs first (push and every-time-point runs evaluate far more often than pull)
    tasks.sort(key=lambda task: programs[task[0]].mode == "pull")
    _JOB.clear()
    _JOB.update(plan=plan, programs=dict(programs), static=tuple(static), parts=parts,
                points=elements.lars_points(), engine=engine)
    if parts is None:
        _JOB["sorted"] = sorted(_JOB["points"])
    out: dict[str, dict[int, Bag]] = {label: {} for label in programs}
    try:
        with multiprocessing.get_context("fork").Pool(max(1, jobs), initializer=_worker_signals) as pool:
            for label, answers, error in pool.imap_unordered(_task, tasks):
                if error is not None:
                    raise RunError(error)
                out[label].update(answers)
    finally:
        _JOB.clear()
    return {label: dict(sorted(answers.items())) for label, answers in out.items()}


def _worker_signals() -> None:
    """A worker ends quietly when the pool terminates it (SIGTERM) or the user interrupts the run:
    the handlers of the parent's clean stop (``translator.evaluate.interrupts``) are not inherited."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool


def _block_points(b: int) -> Mapping[int, tuple[Atom, ...]]:
    parts = _JOB["parts"]
    if parts is not None:
        return parts.get(b, {})
    plan: Plan = _JOB["plan"]
    a, z = plan.blocks.own(b)
    ordered = _JOB["sorted"]
    i = bisect.bisect_left(ordered, a - plan.look.ticks)  # the time points a window of the block reaches
    j = bisect.bisect_right(ordered, z)
    points = _JOB["points"]
    return {t: points[t] for t in ordered[i:j]}


def _task(task: tuple[str, int]) -> tuple[str, dict[int, Bag], str | None]:
    """One program over one block: its rstream answers at the block's own evaluation times."""
    from spark_jobs.solve_blocks import block_steps

    label, b = task
    plan: Plan = _JOB["plan"]
    compiled: Compiled = _JOB["programs"][label]
    timeline = plan.timeline(label)
    a, z = plan.blocks.own(b)
    try:
        points = _block_points(b)
        times = timeline.times(a, z, [t for t in points if a <= t <= z])
        answers: dict[int, Bag] = {}
        if not times:
            return label, answers, None
        previous = Bag()
        for t, rows in block_steps(compiled, _JOB["static"], points, timeline, times, _JOB["engine"]):
            got = Bag.of_witnessed(rows, compiled.width)
            if got == previous:
                got = previous  # one object for an answer that stays (smaller to send back)
            answers[t] = previous = got
        return label, answers, None
    except RsplarsError as err:
        return label, {}, f"block {b} ({a}..{z}) of {label}: {err}"
