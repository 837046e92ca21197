"""Faults on Spark (docs/robustness.md): a Python worker that dies at its first block is replaced
and the task retried, with answers identical to the sequential run; a block that fails for good
names the time range it covered. The faults are the tests' own: the workers of the tests'
SparkSession fail on demand (``spark_fault``, ``tests/spark_workers/fault_daemon.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from translator.cli import main

pytestmark = pytest.mark.spark

EX = Path(__file__).parents[2] / "examples" / "running_example"
DATA = [
    "--unit", "m",
    "--stream", f"http://example.org/stream/offers={EX / 'offers.stream'}",
    "--stream", f"http://example.org/stream/near={EX / 'near.stream'}",
    "--static", str(EX / "static.n3"),
]
ARGV = ["run", str(EX / "q1.rq"), *DATA, "--period", "3m", "--to", "50"]


def test_local_masters_retry_tasks():
    from spark_jobs.context import TASK_ATTEMPTS, with_retries

    assert with_retries("local[2]") == f"local[2,{TASK_ATTEMPTS}]"
    assert with_retries("local[*]") == f"local[*,{TASK_ATTEMPTS}]"
    assert with_retries("local[2,3]") == "local[2,3]"
    assert with_retries("spark://h:7077") == "spark://h:7077"


def test_killed_worker_is_retried_with_identical_answers(spark_fault, capsys, tmp_path):
    assert main(ARGV) == 0
    sequential = capsys.readouterr().out
    marker = tmp_path / "worker-exited"
    spark_fault(f"exit-once:{marker}")
    assert main([*ARGV, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 0
    parallel = capsys.readouterr().out
    assert marker.exists(), "no worker exited: the fault was not injected"
    assert marker.read_text().startswith("block ")
    assert parallel == sequential
    assert "rayban" in sequential


def test_block_failing_for_good_names_its_time_range(spark_fault, capsys):
    from spark_jobs.blocks import Blocks

    spark_fault("fail-block:1")
    assert main([*ARGV, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    # the blocks of this run: pull times 0..51 (U = 3) in about 3 blocks of whole intervals
    from spark_jobs.blocks import Timeline

    blocks = Blocks.of([Timeline.of("pull", 3, 0, 21, None, 50)], 3)
    a, b = blocks.own(1)
    assert f"block 1 covering the evaluation times {max(a, blocks.first)}..{min(b, blocks.last)} failed" in err
    assert "injected fault in block 1" in err


def _blocks():
    from spark_jobs.blocks import Blocks, Timeline

    return Blocks.of([Timeline.of("pull", 3, 0, 21, None, 50)], 3)  # the blocks of ARGV (see above)


def test_worker_crashing_at_every_attempt_names_the_blocks_time_range(spark_fault, capsys):
    spark_fault("exit-block:1")  # the worker exits whenever it starts block 1
    assert main([*ARGV, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    blocks = _blocks()
    a, b = blocks.own(1)
    m = re.search(rf"spark job failed: block 1 covering the evaluation times {max(a, blocks.first)}\.\."
                  rf"{min(b, blocks.last)} failed: its Python worker crashed \(ended without an error\) at every "
                  r"attempt \((\d+) started\)", err)
    assert m, err
    assert int(m.group(1)) >= 4  # local[2,4]: four attempts per task (spark_jobs.context.TASK_ATTEMPTS)


@pytest.mark.parametrize("r2s, after", [("rstream", 0), ("istream", 3)])
def test_resume_does_not_solve_the_blocks_already_done(spark_fault, capsys, r2s, after):
    """Block 0 fails whenever it is solved: resuming after its evaluation times must not solve it,
    and gives the sequential resumed run's answers."""
    _, end0 = _blocks().own(0)
    resume = end0 + after  # IStream compares with the previous evaluation time: resume inside block 1
    argv = [*ARGV, "--r2s", r2s, "--resume-from", str(resume)]
    assert main(argv) == 0
    sequential = capsys.readouterr().out
    assert sequential and all(json.loads(line)["t"] > resume for line in sequential.splitlines())
    spark_fault("fail-block:0")
    assert main([*argv, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == sequential
    assert main([*ARGV, "--r2s", r2s, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 2
    assert "injected fault in block 0" in capsys.readouterr().err  # without --resume-from block 0 is solved


def test_spark_state_keeps_solved_blocks_and_a_rerun_does_not_solve_them(spark_fault, capsys, tmp_path):
    """--spark-state DIR: every solved block is saved; a rerun reads the saved blocks (a fault in
    them is never met) and solves only those missing, with the sequential run's answers."""
    assert main([*ARGV, "--r2s", "istream"]) == 0
    sequential = capsys.readouterr().out
    state = tmp_path / "state"
    argv = [*ARGV, "--r2s", "istream", "--engine", "spark", "--master", "local[2]", "--partitions", "3",
            "--spark-state", str(state)]
    assert main(argv) == 0
    assert capsys.readouterr().out == sequential
    saved = sorted(p.name for p in state.glob("block-*.parquet"))
    blocks = _blocks()
    assert saved == [f"block-{b}.parquet" for b in range(blocks.first_block, blocks.last_block + 1)]
    (state / "block-1.parquet").unlink()  # as if the run had stopped before block 1 was done
    spark_fault("fail-block:0")  # block 0 must be read, not solved
    assert main(argv) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == sequential
    assert (state / "block-1.parquet").exists()  # solved again and saved
    spark_fault("fail-block:1")
    assert main(argv) == 0  # now every block is saved: nothing is solved
    assert capsys.readouterr().out == sequential
    other = [a if a != "50" else "45" for a in argv]  # another range: another run
    assert main(other) == 2
    assert "holds the blocks of another run" in capsys.readouterr().err
