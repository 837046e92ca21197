"""Completed blocks kept on disk (``--spark-state DIR``, docs/robustness.md): a Spark run that is
stopped or fails after some blocks were solved continues without solving them again.

Each block's answers (the rows ``run, t, row`` of :func:`spark_jobs.solve_blocks.solve_block`) are
written by the worker that solved it to ``DIR/block-B.parquet``, atomically (a temporary file
renamed into place), as soon as the block is done. ``DIR/job.json`` holds the run's fingerprint:
a digest of the programs, the static facts, the block plan (width, range, every program's
timeline) and the stream elements. A later run with the same fingerprint reads the finished
blocks from DIR and solves only the others; blocks are pure functions of their input (Dao-Tran,
Beck, Eiter 2015, §4; D9: the answers at t depend on the stream up to t), so the answers are the same. A DIR holding
another run's blocks is an error (it is never cleared silently). The workers must see DIR: a
local master, or a directory every executor shares.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Sequence

import pandas as pd

from lars.errors import RsplarsError

JOB_FILE = "job.json"


def fingerprint(runs: Sequence, static: Sequence, blocks, elements: pd.DataFrame) -> str:
    """The digest of what a block's answers depend on (module docstring)."""
    from lars.model import Program
    from lars.printer import format_program

    h = hashlib.sha256()
    for run in runs:
        h.update(run.label.encode())
        h.update(format_program(run.compiled.program).encode())
        h.update(repr((run.compiled.mode, run.compiled.period, run.compiled.answer_predicate,
                       tuple(run.compiled.variables), run.timeline)).encode())
    h.update(format_program(Program(tuple(static))).encode())
    h.update(repr(blocks).encode())
    columns = [c for c in ("seq", "t", "stream", "s", "p", "o") if c in elements.columns]
    h.update(pd.util.hash_pandas_object(elements[columns], index=False).values.tobytes())
    return h.hexdigest()


def block_path(directory: str, block: int) -> Path:
    return Path(directory) / f"block-{block}.parquet"


def prepare(directory: str, digest: str) -> list[int]:
    """Create ``directory`` if needed and return the blocks already solved there for this run;
    an error if it holds another run's blocks."""
    root = Path(directory)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RsplarsError(f"--spark-state {directory}: cannot create it: {err.strerror}") from None
    job = root / JOB_FILE
    blocks = sorted(int(p.name[len("block-"):-len(".parquet")]) for p in root.glob("block-*.parquet")
                    if p.name[len("block-"):-len(".parquet")].lstrip("-").isdigit())
    if job.exists():
        try:
            recorded = json.loads(job.read_text(encoding="utf-8")).get("fingerprint")
        except (OSError, ValueError, AttributeError):
            recorded = None
        if recorded != digest:
            raise RsplarsError(f"--spark-state {directory} holds the blocks of another run (another query, data, "
                               "range or --partitions): give an empty or new directory")
        return blocks
    if blocks:
        raise RsplarsError(f"--spark-state {directory} holds block files but no {JOB_FILE}: give an empty or new "
                           "directory")
    job.write_text(json.dumps({"fingerprint": digest}) + "\n", encoding="utf-8")
    return []


def save(directory: str, block: int, frame: pd.DataFrame) -> None:
    """Write one block's answers atomically (called by the worker that solved it)."""
    target = block_path(directory, block)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def load(directory: str, blocks: Sequence[int]) -> pd.DataFrame:
    """The saved answers of ``blocks``, concatenated (columns ``run, t, row``)."""
    frames = [pd.read_parquet(block_path(directory, b)) for b in blocks]
    if not frames:
        return pd.DataFrame({"run": pd.Series([], dtype=object), "t": pd.Series([], dtype="int64"),
                             "row": pd.Series([], dtype=object)})
    out = pd.concat(frames, ignore_index=True)
    out["t"] = out["t"].astype("int64")
    return out
