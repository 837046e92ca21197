"""Faults on Spark (docs/robustness.md): a Python worker that dies at its first block is replaced
and the task retried, with answers identical to the sequential run; a block that fails for good
names the time range it covered."""

from __future__ import annotations

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
    from spark_jobs.session import TASK_ATTEMPTS, with_retries

    assert with_retries("local[2]") == f"local[2,{TASK_ATTEMPTS}]"
    assert with_retries("local[*]") == f"local[*,{TASK_ATTEMPTS}]"
    assert with_retries("local[2,3]") == "local[2,3]"
    assert with_retries("spark://h:7077") == "spark://h:7077"


def test_killed_worker_is_retried_with_identical_answers(spark, capsys, monkeypatch, tmp_path):
    assert main(ARGV) == 0
    sequential = capsys.readouterr().out
    marker = tmp_path / "worker-exited"
    monkeypatch.setenv("RSPLARS_FAULT", f"exit-once:{marker}")
    assert main([*ARGV, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 0
    parallel = capsys.readouterr().out
    assert marker.exists(), "no worker exited: the fault was not injected"
    assert marker.read_text().startswith("block ")
    assert parallel == sequential
    assert "rayban" in sequential


def test_block_failing_for_good_names_its_time_range(spark, capsys, monkeypatch):
    from spark_jobs.blocks import Blocks

    monkeypatch.setenv("RSPLARS_FAULT", "fail-block:1")
    assert main([*ARGV, "--engine", "spark", "--master", "local[2]", "--partitions", "3"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    # the blocks of this run: pull times 0..51 (U = 3) in about 3 blocks of whole intervals
    from spark_jobs.blocks import Timeline

    blocks = Blocks.of([Timeline.of("pull", 3, 0, 21, None, 50)], 3)
    a, b = blocks.own(1)
    assert f"block 1 covering the evaluation times {max(a, blocks.first)}..{min(b, blocks.last)} failed" in err
    assert "injected fault in block 1" in err
