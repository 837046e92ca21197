"""``--lars-engine`` takes effect on every path that solves a LARS program: ``run`` (files read as
they are evaluated), ``run --profile``, ``run`` of an EP-SPARQL query, ``agree`` (headline runs
and ``--profiles``), ``check``, the blocks of ``--jobs`` and of Spark. On each, both engines give
the same output, and the engine that ran is the one chosen: every solver built is recorded by the
name it gives through the engine contract (``lars.solver.Solver.engine``), never by its class.
Where an engine cannot run a path, the run stops with a clear error (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import translator.evaluate.engine as engine_module
from translator.cli import main

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples" / "running_example"
RUNNING = [
    "--unit", "m",
    "--stream", f"http://example.org/stream/offers={EX / 'offers.stream'}",
    "--stream", f"http://example.org/stream/near={EX / 'near.stream'}",
    "--static", str(EX / "static.n3"),
]
CHECK = ROOT / "tests" / "data" / "check"
LISTING1 = [str(CHECK / "listing1.rq"), "--stream", f"http://www.example.org/stream1={CHECK / 'listing1.nt'}",
            "--stream-time-unit", "ms"]
EPSPARQL = ROOT / "tests" / "data" / "epsparql"
ENGINES = ("asp", "incremental")


@pytest.fixture
def built(monkeypatch, tmp_path) -> Path:
    """Every solver ``make_solver`` builds writes its ``engine`` to the returned file (a file, so
    that the processes of ``--jobs``, forked after the patch, record too)."""
    log = tmp_path / "engines.log"
    original = engine_module.make_solver

    def recording(*args, **kwargs):
        solver = original(*args, **kwargs)
        with open(log, "a", encoding="utf-8") as f:
            f.write(solver.engine + "\n")
        return solver

    monkeypatch.setattr(engine_module, "make_solver", recording)
    return log


def _engines(log: Path) -> set[str]:
    got = set(log.read_text(encoding="utf-8").split()) if log.exists() else set()
    log.unlink(missing_ok=True)
    return got


def _both(capsys, built: Path, *argv: str) -> dict[str, str]:
    """The output of the command under each engine; asserts that only the chosen engine ran."""
    out = {}
    for engine in ENGINES:
        code = main([*argv, "--lars-engine", engine])
        got, err = capsys.readouterr()
        assert code == 0, err
        assert _engines(built) == {engine}
        out[engine] = got
    return out


def test_run(capsys, built):
    out = _both(capsys, built, "run", str(EX / "q2.rq"), *RUNNING, "--to", "30")
    assert out["asp"] == out["incremental"] and "rayban" in out["asp"]


def test_run_with_a_profile(capsys, built):
    out = _both(capsys, built, "run", *LISTING1, "--profile", "csparql")
    assert out["asp"] == out["incremental"] and "http://ex.org/r2" in out["asp"]


def test_run_of_an_epsparql_query(capsys, built):
    stream = f"http://example.org/S={EPSPARQL / 'rsepql_figure1.stream'}"
    out = _both(capsys, built, "run", str(EPSPARQL / "rsepql_seq.rq"), "--stream", stream)
    assert out["asp"] == out["incremental"] and '"@start": 2' in out["asp"]
    out = _both(capsys, built, "run", str(EPSPARQL / "rsepql_seq.rq"), "--stream", stream, "--selection", "recent")
    assert out["asp"] == out["incremental"]


def test_agree(capsys, built, tmp_path):
    reports = {}
    for engine in ENGINES:
        report = tmp_path / f"{engine}.json"
        code = main(["agree", "--pull", str(EX / "q1.rq"), "--push", str(EX / "q2.rq"), *RUNNING, "--period", "3m",
                     "--to", "50", "--jobs", "1", "--report", str(report), "--lars-engine", engine])
        assert code == 0, capsys.readouterr().err
        capsys.readouterr()
        assert _engines(built) == {engine}
        reports[engine] = json.loads(report.read_text(encoding="utf-8"))
    assert reports["asp"]["intervals"] == reports["incremental"]["intervals"]
    assert reports["asp"]["summary"]["disagreeing"] == 1


def test_agree_with_profiles(capsys, built):
    out = _both(capsys, built, "agree", *LISTING1, "--profiles", "csparql,cqels")
    assert out["asp"] == out["incremental"] and "csparql vs cqels" in out["asp"]


def test_check(capsys, built, tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"relations": [
        {"timestamp": 12000, "results": {"bindings": []}},
        {"timestamp": 22000, "results": {"bindings": [{"room": {"type": "uri", "value": "http://ex.org/r2"}}]}}]}))
    out = _both(capsys, built, "check", *LISTING1, "--answers", str(answers), "--answers-time-unit", "ms",
                "--profile", "csparql")
    assert out["asp"] == out["incremental"] and out["asp"].startswith("correct")


def _running_example_q2():
    """The running example's CQELS query compiled as ``rsplars run`` compiles it, with its data."""
    from translator.cli.commands.common import compile_variants, parse_query, read_data
    from translator.cli.main import build_parser

    args = build_parser().parse_args(["run", str(EX / "q2.rq"), *RUNNING])
    elements, facts = read_data(args)
    ((_, compiled),) = compile_variants(args, parse_query(args, args.query_file), elements)
    return compiled, elements, facts


def test_blocks_of_jobs(built):
    """The processes of ``agree --jobs N`` (``spark_jobs.local.solve_local``) solve with the engine chosen."""
    from spark_jobs.local import solve_local

    compiled, elements, facts = _running_example_q2()
    rows = {}
    for engine in ENGINES:
        rows[engine] = solve_local({"q2": compiled}, elements, facts, end=50, jobs=2, engine=engine)
        assert _engines(built) == {engine}
    assert rows["asp"] == rows["incremental"] and any(rows["asp"]["q2"].values())


def test_print_asp_needs_clingo(capsys):
    code = main(["run", str(EX / "q2.rq"), *RUNNING, "--print-asp-at", "10", "--lars-engine", "incremental"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "--print-asp-at" in err and "Traceback" not in err


def test_spark_blocks_solve_with_the_engine_chosen(built):
    """What a Spark task runs on a block (``spark_jobs.solve_blocks.block_steps``) takes the engine."""
    from types import SimpleNamespace

    from spark_jobs.solve_blocks import block_steps
    from translator.evaluate.run import engine_input

    compiled, elements, facts = _running_example_q2()
    run = engine_input(compiled, elements, facts, end=30)
    lo, hi = run.stream.timeline
    steps = {}
    for engine in ENGINES:
        got = block_steps(compiled, facts, run.stream.points, SimpleNamespace(lo=lo, end=hi), run.times, engine)
        steps[engine] = [(t, sorted(rows)) for t, rows in got]
        assert _engines(built) == {engine}
    assert steps["asp"] == steps["incremental"] and any(rows for _, rows in steps["asp"])


@pytest.mark.spark
def test_spark(spark, capsys, monkeypatch):
    """``run --engine spark`` and ``agree --engine spark``: the same output with both engines, and the
    engine passed to every block of the job (``spark_jobs.pipeline.solve_runs``)."""
    import spark_jobs.pipeline as pipeline

    passed: list[str] = []
    original = pipeline.solve_runs

    def spy(*args, **kwargs):
        passed.append(kwargs["engine"])
        return original(*args, **kwargs)

    monkeypatch.setattr(pipeline, "solve_runs", spy)
    spark_options = ["--engine", "spark", "--master", "local[2]", "--partitions", "2"]
    out = {}
    for engine in ENGINES:
        assert main(["run", str(EX / "q2.rq"), *RUNNING, "--to", "30", *spark_options, "--lars-engine", engine]) == 0
        out[engine] = capsys.readouterr().out
        assert main(["agree", "--pull", str(EX / "q1.rq"), "--push", str(EX / "q2.rq"), *RUNNING, "--period", "3m",
                     "--to", "30", *spark_options, "--lars-engine", engine]) == 0
        out[engine] += capsys.readouterr().out
        assert passed == [engine, engine]
        passed.clear()
    assert out["asp"] == out["incremental"] and "rayban" in out["asp"]
