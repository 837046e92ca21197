"""``rsplars lars --engine spark``: reference times cut into blocks with the look-back of the program's
windows give the answers of a sequential run at every time point (the oracle: clingo over the whole
stream); the command prints the sequential lines byte for byte; programs whose windows reach
arbitrarily far back are refused by name."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from translator.exits import EXIT_USAGE
from lars.model import Atom, Integer, Stream
from lars.syntax import parse_program
from spark_jobs.lars_job import LarsPartitionError, lars_steps_spark, program_look_back
from spark_jobs.point_blocks import point_blocks
from translator.cli import main
from translator.evaluate.engine import make_solver

PROGRAMS = {
    "time windows": "seen(X) :- rec(X) [3]. steady(X) :- rec(X) always [2]. pair(X,Y) :- rec(X) [2 step 3], rec(Y), X < Y.",
    "tuple and partition windows": "last(X) :- rec(X) in [3 #]. ones(T) :- rec(1) at T in [2 # rec(1)]. "
                                   "twice(X) :- rec(X) at T in [4 #], rec(X) at U in [6 #], U < T.",
    "diamond over the whole stream": "ever(X) :- rec(X) [all]. fresh(X) :- rec(X), not old(X). old(X) :- rec(X) at T [6], T < 0.",
    "a constraint and two answer streams": "a(X) :- rec(X), not b(X). b(X) :- rec(X), not a(X). :- rec(5) [1], rec(1).",
}


def _stream(seed: int, length: int = 70) -> Stream:
    rng = random.Random(seed)
    points = {}
    for t in range(length):
        xs = rng.sample(range(1, 6), rng.choice((0, 1, 1, 2)))
        if xs:
            points[t] = tuple(Atom("rec", (Integer(x),)) for x in xs)
    return Stream(points)


def _triples(steps, models: int = 1) -> list:
    """(t, answers, more, delta); the delta only where it is defined for every engine (one model)."""
    return [(s.t, [tuple(a) for a in s.answers], s.more, s.delta if models == 1 else None) for s in steps]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("partitions", [1, 4, 9])
def test_blocks_give_the_answers_of_a_run_over_the_whole_stream(name, partitions) -> None:
    program = parse_program(PROGRAMS[name])
    models = 0 if "two answer" in name else 1
    for seed in range(2):
        stream = _stream(seed)
        lo, hi = stream.timeline
        times = list(range(lo, hi + 1))
        expected = _triples(make_solver(program, "asp", models=models).run(stream, times), models)
        got = _triples(lars_steps_spark(program, stream, times, models=models, partitions=partitions, local=True),
                       models)
        assert got == expected
        assert any(s[1] and s[1][0] for s in expected)  # answers at all


def test_a_block_without_its_look_back_gives_other_answers() -> None:
    """The look-back is needed: blocks cut without one differ from the run over the whole stream."""
    from spark_jobs.lars_job import answer_of
    from spark_jobs.lookback import LookBack
    from spark_jobs.point_jobs import BlockSolve, solve_point_block

    program = parse_program(PROGRAMS["time windows"])
    stream = _stream(3)
    lo, hi = stream.timeline
    times = list(range(lo, hi + 1))
    expected = [answer_of(s) for s in make_solver(program, "asp").run(stream, times)]
    solve = BlockSolve(program, lo, hi, answer_of)
    blind = [a for b in point_blocks(dict(stream.items()), times, LookBack(0), 8) for a in solve_point_block(solve, b)]
    assert blind != expected


@pytest.mark.parametrize(
    ("text", "feature"),
    [("q(X) :- p(X) always [all].", "□"), ("q(X) :- p(X) at T [all].", "@_T"), ("q(X,T) :- p(X) at T.", "@_T")],
)
def test_programs_reaching_arbitrarily_far_back_are_refused(text, feature) -> None:
    with pytest.raises(LarsPartitionError, match="cannot cut the stream into blocks") as info:
        program_look_back(parse_program(text))
    assert feature in str(info.value) and "--engine auto" in str(info.value)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.spark
def test_lars_engine_spark_prints_the_sequential_lines(spark, tmp_path, capsys) -> None:
    stream = _stream(5, 90)
    text = "\n".join(f"{t}: {', '.join(f'rec({a.args[0].value})' for a in atoms)}" for t, atoms in stream.items())
    stream_file = _write(tmp_path, "s.txt", text + "\n")
    for name, program_text in PROGRAMS.items():
        program = _write(tmp_path, "p.lars", program_text)
        extras = [[], ["--emit", "delta", "--format", "text", "--times", "3.."], ["--times", "5..60"]]
        if "two answer" in name:  # which one of several answer streams --models 1 lists is the solver's choice
            extras = [["--models", "0"], ["--models", "0", "--format", "text", "--times", "10..50"]]
        for extra in extras:
            argv = ["lars", str(program), "--stream", str(stream_file), *extra]
            assert main(argv) == 0, name
            sequential = capsys.readouterr().out
            assert main([*argv, "--engine", "spark", "--master", "local[2]", "--partitions", "5"]) == 0
            assert capsys.readouterr().out == sequential, (name, extra)


@pytest.mark.spark
def test_lars_engine_spark_refuses_whole_history_programs(spark, tmp_path, capsys) -> None:
    program = _write(tmp_path, "p.lars", "q(X) :- p(X) always [all].")
    stream_file = _write(tmp_path, "s.txt", "0: p(1)\n1: p(1)\n")
    assert main(["lars", str(program), "--stream", str(stream_file), "--engine", "spark", "--master", "local[2]"]) \
        == EXIT_USAGE
    err = capsys.readouterr().err
    assert "cannot cut the stream into blocks" in err and "Traceback" not in err
    program.write_text("q(X) :- p(X) [2].")
    assert main(["lars", str(program), "--stream", str(stream_file), "--engine", "spark", "--master", "local[2]",
                 "--emit", "delta", "--models", "0"]) == EXIT_USAGE
    assert "--emit delta with --models 1 only, not with --models 0" in capsys.readouterr().err
    program.write_text(PROGRAMS["a constraint and two answer streams"])
    assert main(["lars", str(program), "--stream", str(stream_file), "--engine", "spark", "--master", "local[2]"]) \
        == EXIT_USAGE
    assert "not stratified with --models 0 only" in capsys.readouterr().err


@pytest.mark.spark
def test_a_killed_worker_is_retried_and_a_failing_block_is_named(spark_fault, tmp_path, capsys) -> None:
    stream = _stream(8, 60)
    text = "\n".join(f"{t}: {', '.join(f'rec({a.args[0].value})' for a in atoms)}" for t, atoms in stream.items())
    stream_file = _write(tmp_path, "s.txt", text + "\n")
    program = _write(tmp_path, "p.lars", PROGRAMS["time windows"])
    argv = ["lars", str(program), "--stream", str(stream_file)]
    assert main(argv) == 0
    sequential = capsys.readouterr().out
    marker = tmp_path / "worker-exited"
    spark_fault(f"exit-once:{marker}")  # the first worker to start a block exits
    assert main([*argv, "--engine", "spark", "--master", "local[2]", "--partitions", "4"]) == 0
    assert marker.exists() and marker.read_text().startswith("block ")
    assert capsys.readouterr().out == sequential
    spark_fault("fail-block:2")
    assert main([*argv, "--engine", "spark", "--master", "local[2]", "--partitions", "4"]) == EXIT_USAGE
    err = capsys.readouterr().err
    look = program_look_back(parse_program(PROGRAMS["time windows"]))
    times = [b.times for b in point_blocks(dict(stream.items()), list(range(stream.timeline[0], stream.timeline[1] + 1)),
                                           look, 4)]
    assert f"block 2 covering the evaluation times {times[2][0]}..{times[2][-1]} failed" in err
    assert "injected fault in block 2" in err and "Traceback" not in err
