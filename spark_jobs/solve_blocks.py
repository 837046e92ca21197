"""The per-block solver: one block's stream elements in, the answers at its evaluation times out.

:func:`solve_block` is a plain function of a pandas DataFrame (no Spark here; unit-tested directly)
that :mod:`spark_jobs.pipeline` runs through ``groupBy("block").applyInPandas``. It rebuilds the
LARS data stream of the block — its own elements and the look-back (:mod:`spark_jobs.lookback`) —
exactly as ``translator.evaluate.run.data_stream`` does (``striple(s, p, o, stream)`` atoms, arrival
order kept, the same atom twice at one time point is one atom), on the timeline of the whole stream,
and runs the engine of a sequential run (:func:`block_steps`) at the block's own evaluation times
for every program of the job (Dao-Tran, Beck, Eiter 2015, §4: the pull and the push program, and the
diagnosis runs).

Output rows: ``run`` (the program's label), ``t``, ``row`` — one answer (the JSON list of its
N-Triples terms, ``null`` for unbound) or ``None`` for an evaluation time, so that evaluation times
without answers are kept. Answers are rstream answers; R2S is applied afterwards over all blocks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

import pandas as pd

from lars.model import Atom, Rule, Stream
from spark_jobs.blocks import Blocks, Timeline
from translator.translate.compile import Compiled
from translator.rdf.terms import from_nt, to_lars
from translator.evaluate.run import RunError, Row, step_rows, the_answer
from translator.translate.tau import STRIPLE

#: the columns of the input of :func:`solve_block` (``t`` and the terms are null on marker rows)
INPUT_COLUMNS = ("block", "seq", "t", "stream", "s", "p", "o")
#: the columns of its output
OUTPUT_COLUMNS = ("run", "t", "row")


@dataclass(frozen=True)
class BlockRun:
    """One program to solve in every block: its label, the compiled query and its timeline."""

    label: str
    compiled: Compiled
    timeline: Timeline


@dataclass(frozen=True)
class BlockJob:
    """Everything a worker needs besides the block's rows (pickled once per task)."""

    runs: tuple[BlockRun, ...]
    static: tuple[Rule, ...]
    blocks: Blocks
    #: blocks before this one are not solved (``--resume-from``: their evaluation times are done)
    from_block: int | None = None
    #: a directory on the driver's file system where each attempt at a block leaves a mark
    #: (``B.start.*``, ``B.done``): a block whose worker crashed at every attempt is named by
    #: :func:`crashed_block` (local masters; elsewhere Spark's message alone is reported)
    progress: str | None = None
    #: ``--spark-state DIR``: each solved block's answers are saved there (:mod:`spark_jobs.state`);
    #: ``done``: the blocks already saved, not solved again
    state: str | None = None
    done: frozenset[int] = frozenset()
    #: the LARS engine (``translator.evaluate.engine.ENGINES``): the choice of a sequential run
    engine: str = "auto"


class BlockError(RunError):
    """A block that failed: the message names the block and the time range it covered."""


def _mark(progress: str | None, block: int, what: str) -> None:
    """Leave ``B.start.<unique>`` (an attempt began) or ``B.done`` in ``progress``."""
    if not progress:
        return
    import os
    import uuid

    name = f"{block}.start.{uuid.uuid4().hex}" if what == "start" else f"{block}.done"
    try:
        with open(os.path.join(progress, name), "w"):
            pass
    except OSError:  # not the driver's file system (a cluster): the marks are only a help
        pass


def crashed_block(progress: str, blocks: Blocks) -> str | None:
    """The block whose attempts all ended without finishing (its worker crashed), named with its
    time range; ``None`` if the marks do not show one. Among several unfinished blocks (Spark
    cancels the others when it gives up) the one with the most attempts."""
    import os
    from collections import Counter

    try:
        names = os.listdir(progress)
    except OSError:
        return None
    done = {n.split(".")[0] for n in names if n.endswith(".done")}
    starts = Counter(n.split(".")[0] for n in names if ".start." in n)
    open_blocks = [(count, int(b)) for b, count in starts.items() if b not in done and b.lstrip("-").isdigit()]
    if not open_blocks:
        return None
    attempts, block = max(open_blocks)
    a, b = blocks.own(block)
    return (f"block {block} covering the evaluation times {max(a, blocks.first)}..{min(b, blocks.last)} failed: "
            f"its Python worker crashed (ended without an error) at every attempt ({attempts} started)")


def encode_row(row: Row) -> str:
    """The canonical text of one answer (also the join key of R2S and of the verdicts)."""
    return json.dumps(list(row), ensure_ascii=False, separators=(",", ":"))


def decode_row(text: str) -> Row:
    return tuple(json.loads(text))


@lru_cache(maxsize=200_000)
def _term(text: str):
    return to_lars(from_nt(text))


@lru_cache(maxsize=4096)
def _stream_term(iri: str):
    iri = iri.strip()
    return _term(iri if iri.startswith("<") else f"<{iri}>")


def block_points(pdf: pd.DataFrame) -> dict[int, tuple[Atom, ...]]:
    """The data stream of the block's rows: time → atoms in arrival order (``seq``), deduplicated."""
    rows = pdf[pdf["t"].notna()]
    if rows.empty:
        return {}
    rows = rows.sort_values(["t", "seq"], kind="stable")
    points: dict[int, dict[Atom, None]] = {}
    for t, stream, s, p, o in zip(rows["t"].tolist(), rows["stream"].tolist(), rows["s"].tolist(),
                                  rows["p"].tolist(), rows["o"].tolist()):
        atom = Atom(STRIPLE, (_term(s), _term(p), _term(o), _stream_term(stream)))
        points.setdefault(int(t), {})[atom] = None
    return {t: tuple(atoms) for t, atoms in points.items()}


def solve_block(key: tuple, pdf: pd.DataFrame, job: BlockJob) -> pd.DataFrame:
    """The answers of every program of ``job`` at the evaluation times of block ``key[0]``; an error
    in the block is re-raised as :class:`BlockError` naming the block's time range."""
    block = int(key[0])
    a, b = job.blocks.own(block)
    _mark(job.progress, block, "start")
    try:
        out = _solve_block(block, a, b, pdf, job)
        if job.state:
            from spark_jobs.state import save

            save(job.state, block, out)
        _mark(job.progress, block, "done")
        return out
    except BlockError:
        raise
    except Exception as err:  # noqa: BLE001 - named with the block's time range, then re-raised
        raise BlockError(f"block {block} covering the evaluation times {max(a, job.blocks.first)}.."
                         f"{min(b, job.blocks.last)} failed: {type(err).__name__}: {err}") from err


def block_steps(compiled: Compiled, static: Sequence[Rule], points, timeline: Timeline, times: Sequence[int],
                engine: str = "auto") -> Iterator[tuple[int, Iterator[Row]]]:
    """``(t, answer rows)`` of one program over one block's data stream ``points`` at ``times``,
    solved by the engine a sequential run takes (``translator.evaluate.engine.make_solver``:
    ``auto`` is the incremental engine when the program is in its fragment, clingo otherwise), on
    the timeline of the whole stream. Shared by the Spark workers and the local processes of
    ``agree --jobs`` (:mod:`spark_jobs.local`)."""
    from translator.evaluate.engine import make_solver
    from translator.translate.expressions import FUNCTIONS

    stream = Stream(points, timeline.lo, max(timeline.end, timeline.lo))
    program, native = compiled.engine_programs(static)
    solver = make_solver(program, engine, functions=FUNCTIONS, native=native)
    for step in solver.run(stream, times):
        yield step.t, step_rows(compiled, the_answer(step))


def _solve_block(block: int, a: int, b: int, pdf: pd.DataFrame, job: BlockJob) -> pd.DataFrame:
    points = block_points(pdf)
    own_times = [t for t in points if a <= t <= b]
    out_run: list[str] = []
    out_t: list[int] = []
    out_row: list[str | None] = []
    for run in job.runs:
        times = run.timeline.times(a, b, own_times)
        if not times:
            continue
        for t, rows in block_steps(run.compiled, job.static, points, run.timeline, times, job.engine):
            out_run.append(run.label)
            out_t.append(t)
            out_row.append(None)
            for row in set(rows):
                out_run.append(run.label)
                out_t.append(t)
                out_row.append(encode_row(row))
    return pd.DataFrame({"run": pd.Series(out_run, dtype=object), "t": pd.Series(out_t, dtype="int64"),
                         "row": pd.Series(out_row, dtype=object)})


def solve_rows(job: BlockJob, blocks: Sequence[tuple[int, pd.DataFrame]]) -> pd.DataFrame:
    """:func:`solve_block` over several blocks, concatenated (the pure-Python partitioned run)."""
    frames = [solve_block((b,), pdf, job) for b, pdf in blocks]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(OUTPUT_COLUMNS))
