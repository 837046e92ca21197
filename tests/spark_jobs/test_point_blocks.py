"""``spark_jobs.point_blocks`` without Spark: the look-back of a partition window whose key holds a
compound term with a wildcard (Beck, Dao-Tran, Eiter, Fink 2015, partition-based windows; the key's
instances are the partition, ``lars.windows.in_partition``, as in the clingo engine)."""

from __future__ import annotations

from lars.model import Atom, Function, Integer, Stream
from lars.syntax import parse_program
from spark_jobs.lars_job import answer_of, program_look_back
from spark_jobs.point_blocks import point_blocks
from spark_jobs.point_jobs import BlockSolve, solve_point_block
from translator.evaluate.engine import make_solver

PROGRAM = "last(X) :- rec(f(X)) in [1 # rec(f(_))]."


def _rec(name: str, x: int) -> Atom:
    return Atom("rec", (Function(name, (Integer(x),)),))


STREAM = Stream({0: (_rec("f", 0),), 2: (_rec("f", 2),), 5: (_rec("g", 5),), 6: (_rec("g", 6),), 7: (_rec("g", 7),)})


def test_a_block_reads_back_to_the_last_atom_of_a_compound_key_partition() -> None:
    """The last rec(f(_)) atom before the second block (from 5) is at 2: the block reads from 2 on.
    A matcher that compares ``f(_)`` with ``f(2)`` by equality finds no atom of the partition and
    reads back to the start of the stream (0)."""
    program = parse_program(PROGRAM)
    look = program_look_back(program)
    blocks = point_blocks(dict(STREAM.items()), list(range(0, 10)), look, 2)
    assert [b.times[0] for b in blocks] == [0, 5]
    assert min(blocks[1].points) == 2


def test_blocks_with_a_compound_key_give_the_answers_of_the_whole_stream() -> None:
    program = parse_program(PROGRAM)
    times = list(range(0, 10))
    expected = [answer_of(s) for s in make_solver(program, "asp").run(STREAM, times)]
    solve = BlockSolve(program, 0, 9, answer_of)
    blocks = point_blocks(dict(STREAM.items()), times, program_look_back(program), 2)
    got = [a for b in blocks for a in solve_point_block(solve, b)]
    assert got == expected
    assert any("last(2)" in str(a) for a in expected[5:])  # the partition's last atom is seen after 5
