"""translator.evaluate.interrupts and fileio.atomic_output(keep_on=…) without processes: a stop
lands between evaluations, every evaluation is written whole, a kept output is committed."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

from translator.evaluate.fileio import atomic_output
from translator.evaluate.interrupts import Interrupted, StopFlag, drive
from translator.evaluate.resume import kept_output


@dataclass(frozen=True)
class Ev:
    t: int


def _writer(buffer):
    def write(ev):
        buffer.write(f"{ev.t}: a\n")
        buffer.write(f"{ev.t}: b\n")  # two lines per evaluation: never split

    return write


def test_stop_after_the_evaluation_in_progress():
    flag, out, buffer = StopFlag(), io.StringIO(), io.StringIO()

    def evaluations():
        for t in range(10):
            if t == 3:
                flag.signum = 15  # the signal arrives while t=3 is being solved
            yield Ev(t)

    with pytest.raises(Interrupted) as stop:
        drive(evaluations(), _writer(buffer), buffer, out, flag)
    assert (stop.value.last_t, stop.value.written, stop.value.exit_code) == (3, 4, 143)
    assert out.getvalue() == "".join(f"{t}: a\n{t}: b\n" for t in range(4))


def test_second_signal_keeps_the_last_complete_time():
    flag, out, buffer = StopFlag(), io.StringIO(), io.StringIO()

    def evaluations():
        yield Ev(0)
        yield Ev(1)
        raise Interrupted(2)  # raised by the handler during the solving of t=2

    with pytest.raises(Interrupted) as stop:
        drive(evaluations(), _writer(buffer), buffer, out, flag)
    assert stop.value.last_t == 1 and out.getvalue().count("\n") == 4


def test_atomic_output_commits_on_kept_errors_only(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(Interrupted):
        with atomic_output(target, keep_on=(Interrupted,)) as out:
            out.write("0: a\n")
            raise Interrupted(2, 0, 1)
    assert target.read_text() == "0: a\n"
    with pytest.raises(RuntimeError):
        with atomic_output(target, keep_on=(Interrupted,)) as out:
            out.write("other\n")
            raise RuntimeError("boom")
    assert target.read_text() == "0: a\n"  # untouched
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_kept_output_per_format(tmp_path):
    p = tmp_path / "o"
    p.write_text("t,x\n1,a\n1,b\n3,c\n5,d\n")
    assert kept_output(str(p), 3, "csv") == "t,x\n1,a\n1,b\n3,c\n"
    p.write_text('{"t": 1, "answers": []}\n{"t": 4, "answers": []}\n')
    assert kept_output(str(p), 3, "jsonl") == '{"t": 1, "answers": []}\n'
    p.write_text('<a> <b> <c> "2" .\n<a> <b> <d> "6" .\n')
    assert kept_output(str(p), 3, "ntriples") == '<a> <b> <c> "2" .\n'
    assert kept_output(str(tmp_path / "missing"), 3, "csv") is None
