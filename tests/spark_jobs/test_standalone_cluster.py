"""``rsplars agree``, ``rsplars run`` (C-SPARQL/CQELS and EP-SPARQL), ``rsplars lars`` and ``rsplars
check`` with ``--engine spark`` submitted to a Spark standalone cluster (a master and two workers on this machine, ``conftest.standalone_cluster``) whose workers
do not see the driver's environment: the job ships the packed dependencies and the project's zip
(``spark_jobs.shipping``, docs/spark.md "On a cluster"). The output must be byte-identical to the
sequential engine's, also when a worker is killed while the job runs."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from translator.cli import main

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples" / "running_example"
OFFERS, NEAR = "http://example.org/stream/offers", "http://example.org/stream/near"


def driver_env(shipped_env: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_")}
    env.update(RSPLARS_SPARK_ENV=str(shipped_env), PYTHONPATH=str(ROOT), SPARK_LOCAL_IP="127.0.0.1")
    return env


def submit(argv: list[str], shipped_env: Path, cwd: Path, **popen) -> subprocess.Popen:
    """``rsplars ARGV`` as its own process: the driver (a SparkSession on the cluster's master)."""
    return subprocess.Popen([sys.executable, "-m", "translator", *argv], env=driver_env(shipped_env), cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def finished(proc: subprocess.Popen, timeout: float = 240) -> bytes:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:  # a failed wait: no driver left behind
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()[-3000:]
    return out


def coupons(folder: Path, duration: int) -> list[str]:
    """A coupon stream of ``duration`` minutes (``rsplars gen coupons``) and the data options of it."""
    assert main(["gen", "coupons", "--rate", "0.5", "--duration", str(duration), "--seed", "3",
                 "--shops", "3", "--customers", "3", "--products", "4", "--output-dir", str(folder)]) == 0
    return ["--unit", "m", "--stream", f"{OFFERS}={folder / 'offers.nt'}", "--stream", f"{NEAR}={folder / 'near.nt'}",
            "--static", str(folder / "static.n3")]


def sequential(capsys, argv: list[str]) -> bytes:
    capsys.readouterr()
    assert main(argv) == 0
    return capsys.readouterr().out.encode()


PROBE = r"""
import json, os, subprocess, sys
from spark_jobs.context import build_spark

spark = build_spark(sys.argv[1])

def where(_):
    import pandas, translator
    plain = subprocess.run(["python3", "-c", "import translator"], capture_output=True)
    yield {"executable": sys.executable, "translator": translator.__file__, "pandas": pandas.__file__,
           "path": sys.path, "plain_python_has_rsplars": plain.returncode == 0}

print(json.dumps(spark.sparkContext.parallelize(range(2), 2).mapPartitions(where).collect()))
"""


def test_workers_run_the_shipped_environment(standalone_cluster, shipped_env, tmp_path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", PROBE, standalone_cluster.master_url], env=driver_env(shipped_env),
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = json.loads(finished(proc))
    assert len(seen) == 2
    from standalone import spark_home

    # Spark's own Python (pyspark.zip, py4j, jars) comes from SPARK_HOME, which for a pip-installed
    # pyspark lies inside the driver's environment; nothing else of that environment may be visible
    visible = {entry for worker in seen for entry in worker["path"] if not entry.startswith(str(spark_home()))}
    assert not [entry for entry in visible if entry.startswith((sys.prefix, str(ROOT)))], visible
    for worker in seen:
        assert worker["executable"].endswith("/environment/bin/python"), worker
        assert worker["executable"] != sys.executable
        assert "/environment/" in worker["pandas"]  # the dependencies come from the packed environment
        assert ".zip" in worker["translator"]  # the project from the shipped zip
        assert not worker["plain_python_has_rsplars"]  # the workers' own python3 has no rsplars


def test_agree_on_the_cluster_equals_sequential(standalone_cluster, shipped_env, tmp_path, capsys,
                                                monkeypatch) -> None:
    data = coupons(tmp_path, 240)
    base = ["agree", str(EX / "q1.rq"), "--as", "cqels-brave", "--period", "5m", *data, "--report", "report.json"]
    seq, cluster = tmp_path / "sequential", tmp_path / "cluster"  # the same relative report path in both
    seq.mkdir()
    cluster.mkdir()
    monkeypatch.chdir(seq)
    expected = sequential(capsys, base)
    proc = submit([*base, "--engine", "spark", "--master", standalone_cluster.master_url, "--partitions", "4"],
                  shipped_env, cluster)
    assert finished(proc) == expected
    assert (cluster / "report.json").read_bytes() == (seq / "report.json").read_bytes()
    summary = json.loads((seq / "report.json").read_text())["summary"]
    assert summary["agreeing"] > 0 and summary["disagreeing"] > 0  # a verdict of each kind is compared


def test_run_on_the_cluster_equals_sequential(standalone_cluster, shipped_env, tmp_path, capsys) -> None:
    data = coupons(tmp_path, 240)
    base = ["run", str(EX / "q2.rq"), *data]
    expected = sequential(capsys, base)
    out = tmp_path / "answers.jsonl"
    proc = submit([*base, "--output", str(out), "--engine", "spark", "--master", standalone_cluster.master_url,
                   "--partitions", "4"], shipped_env, tmp_path)
    finished(proc)
    assert out.read_bytes() == expected
    assert expected.count(b"\n") > 50 and b'"answers": [{' in expected


def test_the_users_pyspark_python_runs_the_workers(standalone_cluster, tmp_path, capsys) -> None:
    """No shipped environment, PYSPARK_PYTHON exported as the driver's interpreter (which has the
    project): the workers run it, and the job gives the sequential answers."""
    data = coupons(tmp_path, 60)
    base = ["run", str(EX / "q2.rq"), *data]
    expected = sequential(capsys, base)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_") and k != "RSPLARS_SPARK_ENV"}
    env.update(PYSPARK_PYTHON=sys.executable, PYTHONPATH=str(ROOT), SPARK_LOCAL_IP="127.0.0.1")
    out = tmp_path / "answers.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "translator", *base, "--output", str(out), "--engine", "spark",
                             "--master", standalone_cluster.master_url, "--partitions", "2"],
                            env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finished(proc)
    assert out.read_bytes() == expected and expected.count(b"\n") > 5


def test_workers_without_the_project_stop_the_job_with_the_fix(standalone_cluster, tmp_path) -> None:
    """No shipped environment and no PYSPARK_PYTHON: the workers run the nodes' ``python3``, which
    has no rsplars. The run stops before its job with exit 2, a message naming the interpreter and
    the fixes, no traceback and no output file."""
    data = coupons(tmp_path, 30)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_") and k != "RSPLARS_SPARK_ENV"}
    env.update(PYTHONPATH=str(ROOT), SPARK_LOCAL_IP="127.0.0.1")
    out = tmp_path / "answers.jsonl"
    done = subprocess.run([sys.executable, "-m", "translator", "run", str(EX / "q2.rq"), *data, "--output", str(out),
                           "--engine", "spark", "--master", standalone_cluster.master_url],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr[-3000:]
    assert "cannot import rsplars" in done.stderr and "No module named 'spark_jobs'" in done.stderr
    assert "make spark-env" in done.stderr and "export RSPLARS_SPARK_ENV=" in done.stderr
    assert "PYSPARK_PYTHON" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()


def stock_stream(path: Path, length: int, seed: int) -> Path:
    """Stock prices of three companies, one every second, in the papers' notation (EP-SPARQL's stream)."""
    rng = random.Random(seed)
    lines = ["@prefix : <http://rsplars.invalid/bare#> ."]
    lines += [f":{rng.choice(('acme', 'globex', 'initech'))} :hasStockPrice {rng.randint(1, 40)} [{t}] ."
              for t in range(1, length + 1)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_epsparql_run_on_the_cluster_equals_sequential(standalone_cluster, shipped_env, tmp_path, capsys) -> None:
    """Complex events of a SEQ within 5 s over 1,500 prices in blocks on the workers: each event once."""
    stream = stock_stream(tmp_path / "stock.stream", 1500, seed=11)
    base = ["run", str(ROOT / "examples" / "epsparql" / "rise.rq"), "--stream", f"http://example.org/stock={stream}"]
    expected = sequential(capsys, base)
    proc = submit([*base, "--engine", "spark", "--master", standalone_cluster.master_url, "--partitions", "6"],
                  shipped_env, tmp_path)
    assert finished(proc) == expected
    assert expected.count(b"\n") > 500


def test_lars_on_the_cluster_equals_sequential(standalone_cluster, shipped_env, tmp_path, capsys) -> None:
    """A LARS program with time windows over 2,000 time points, in blocks with the windows' look-back."""
    rng = random.Random(5)
    stream = tmp_path / "s.txt"
    stream.write_text("".join(f"{t}: {', '.join(f'rec({x})' for x in rng.sample(range(1, 6), rng.choice((1, 2))))}\n"
                              for t in range(2000)))
    program = tmp_path / "p.lars"
    program.write_text("seen(X) :- rec(X) [3]. steady(X) :- rec(X) always [2]. "
                       "pair(X,Y) :- rec(X) [2 step 3], rec(Y), X < Y.\n")
    base = ["lars", str(program), "--stream", str(stream)]
    expected = sequential(capsys, base)
    proc = submit([*base, "--engine", "spark", "--master", standalone_cluster.master_url, "--partitions", "6"],
                  shipped_env, tmp_path)
    assert finished(proc) == expected
    assert expected.count(b"\n") >= 2000


def test_check_of_several_outputs_on_the_cluster_equals_sequential(standalone_cluster, shipped_env, tmp_path,
                                                                   capsys) -> None:
    """Three recorded outputs judged as three tasks on the workers: each verdict as ``check`` alone."""
    ex = ROOT / "examples" / "check"
    base = ["check", str(ex / "hot.rq"), "--stream", f"http://example.org/temps={ex / 'temps.nt'}",
            "--stream-time-unit", "ms", "--answers-time-unit", "ms", "--profile", "csparql",
            *[a for name in ("csparql-answers.json", "csparql-early.json", "cqels-answers.json")
              for a in ("--answers", str(ex / name))]]
    capsys.readouterr()
    assert main(base) == 1  # the early report and CQELS' output are incorrect under csparql
    expected = capsys.readouterr().out.encode()
    proc = submit([*base, "--engine", "spark", "--master", standalone_cluster.master_url], shipped_env, tmp_path)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 1, err.decode()[-3000:]
    assert out == expected
    assert expected.count(b"== check ") == 3


def first_worker_running_python(cluster, proc: subprocess.Popen, timeout: float = 180):
    """The first worker whose executor starts a Python worker: the job's tasks are running."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, "no Python worker started on the cluster"
        for worker in cluster.workers:
            if worker.poll() is None and cluster.python_workers(worker):
                return worker
        time.sleep(0.1)


def test_job_survives_a_killed_worker(standalone_cluster, shipped_env, tmp_path, capsys) -> None:
    """kill -9 of a worker JVM, its executor and its Python workers while the job's first tasks run:
    Spark runs the lost tasks again on the other worker, and the output is unchanged."""
    data = coupons(tmp_path, 1500)
    base = ["agree", str(EX / "q1.rq"), "--as", "cqels-brave", "--period", "5m", *data]
    expected = sequential(capsys, base)
    proc = submit([*base, "--engine", "spark", "--master", standalone_cluster.master_url, "--partitions", "8"],
                  shipped_env, tmp_path)
    try:
        victim = first_worker_running_python(standalone_cluster, proc)
        python = standalone_cluster.python_workers(victim)
        killed = standalone_cluster.kill_worker(victim)
        assert python and set(python) <= set(killed)  # the worker, its executor and its Python workers
        assert proc.poll() is None, "the job ended before the worker was killed"
    finally:
        output = finished(proc)
    assert output == expected
    standalone_cluster.workers.remove(victim)
    standalone_cluster.add_worker(len(standalone_cluster.workers) + 1)  # two workers again for later tests
    standalone_cluster.wait_for_workers(2, 120)
