"""Long runs that survive faults (docs/robustness.md): SIGTERM and SIGINT end a run cleanly, keeping
the answers already written and saying up to which time point they are complete; --resume-from T
continues it, and interrupted + resumed output equals an uninterrupted run's."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
EX = ROOT / "examples" / "running_example"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _rsplars(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, text=True, env=ENV,
                          timeout=600, **kw)


@pytest.fixture(scope="module")
def coupons(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    done = _rsplars("gen", "coupons", "--rate", "2", "--duration", "150", "--seed", "3", "--output-dir", str(out))
    assert done.returncode == 0, done.stderr
    return ["--unit", "m", "--stream", f"http://example.org/stream/offers={out / 'offers.nt'}",
            "--stream", f"http://example.org/stream/near={out / 'near.nt'}", "--static", str(out / "static.n3")]


@pytest.fixture(scope="module")
def long_coupons(tmp_path_factory):
    """The coupon streams eighty times longer: a run that cannot end between the test seeing its
    first answers and its signal arriving, even on a loaded machine (about 2 s of evaluation; the
    short one takes well under a second)."""
    out = tmp_path_factory.mktemp("gen_long")
    done = _rsplars("gen", "coupons", "--rate", "2", "--duration", "12000", "--seed", "3", "--output-dir", str(out))
    assert done.returncode == 0, done.stderr
    return ["--unit", "m", "--stream", f"http://example.org/stream/offers={out / 'offers.nt'}",
            "--stream", f"http://example.org/stream/near={out / 'near.nt'}", "--static", str(out / "static.n3")]


def _stopped_at(stderr: str) -> int:
    m = re.search(r"stopped by SIG\w+: the answers are complete up to t=(\d+).*--resume-from (\d+)", stderr)
    assert m, stderr
    assert m.group(1) == m.group(2)
    return int(m.group(1))


def test_sigterm_on_a_pipe_keeps_the_answers_and_resume_continues(long_coupons, tmp_path):
    argv = ["run", str(EX / "q2.rq"), *long_coupons]
    full = _rsplars(*argv)
    assert full.returncode == 0, full.stderr
    proc = subprocess.Popen([sys.executable, "-m", "translator", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    first = proc.stdout.readline()  # flushed per evaluation time: the pipe sees it at once
    proc.send_signal(signal.SIGTERM)
    # the rest through the same reader: communicate() reads the descriptor itself and would lose
    # what readline() had already buffered of the next lines (a race the faster engine won)
    rest = proc.stdout.read()
    err = proc.stderr.read()
    proc.wait(timeout=600)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
    written = (first + rest).splitlines()
    last = _stopped_at(err)
    assert json.loads(written[-1])["t"] == last
    assert len(written) < len(full.stdout.splitlines())  # it did stop early
    assert re.search(r"stream elements: \d+ read, \d+ used", err)  # the summary even when stopped
    resumed = _rsplars(*argv, "--resume-from", str(last))
    assert resumed.returncode == 0, resumed.stderr
    assert written + resumed.stdout.splitlines() == full.stdout.splitlines()


def test_sigint_with_output_file_keeps_it_and_resume_appends(long_coupons, tmp_path):
    out = tmp_path / "answers.csv"
    argv = ["run", str(EX / "q2.rq"), *long_coupons, "--r2s", "istream", "--format", "csv"]
    full = _rsplars(*argv)
    assert full.returncode == 0, full.stderr
    proc = subprocess.Popen([sys.executable, "-m", "translator", *argv, "--output", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # wait until the temporary output holds a few evaluations
        temps = list(tmp_path.glob(".answers.csv.*.tmp"))
        if temps and temps[0].stat().st_size > 2000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 128 + signal.SIGINT, err
    last = _stopped_at(err)
    kept = out.read_text().splitlines()
    assert kept[0] == "t,shop,product,percent" or kept[0].startswith("t,")
    assert all(int(line.split(",")[0]) <= last for line in kept[1:])
    assert len(kept) < len(full.stdout.splitlines())
    assert not list(tmp_path.glob(".answers.csv.*"))  # no temporary file left behind
    resumed = _rsplars(*argv, "--output", str(out), "--resume-from", str(last))
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_text() == full.stdout  # istream needs the answers before T: recomputed, not lost


def test_resume_from_needs_the_same_format(coupons, tmp_path):
    out = tmp_path / "a.jsonl"
    out.write_text('{"t": 0, "answers": []}\n')
    done = _rsplars("run", str(EX / "q2.rq"), *coupons, "--format", "csv", "--output", str(out), "--resume-from", "0")
    assert done.returncode == 2 and "same --format" in done.stderr and "Traceback" not in done.stderr
    assert out.read_text() == '{"t": 0, "answers": []}\n'  # untouched


def test_lars_resume_from_keeps_the_records_up_to_t_and_appends(tmp_path, capsys):
    from translator.cli import main

    program = tmp_path / "p.lars"
    program.write_text("q(X) :- p(X) [2].\n")
    stream = tmp_path / "s.txt"
    stream.write_text("".join(f"{t}: p({t % 3})\n" for t in range(12)))
    full = tmp_path / "full.txt"
    assert main(["lars", str(program), "--stream", str(stream), "--format", "text", "--output", str(full)]) == 0
    out = tmp_path / "out.txt"
    lines = full.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + "5: cut off")  # stopped at t=4; a torn last line
    assert main(["lars", str(program), "--stream", str(stream), "--format", "text", "--output", str(out),
                 "--resume-from", "4"]) == 0
    assert out.read_text() == full.read_text()
    capsys.readouterr()
    assert main(["lars", str(program), "--stream", str(stream), "--resume-from", "9"]) == 0
    assert [json.loads(x)["t"] for x in capsys.readouterr().out.splitlines()] == [10, 11]


def test_sigint_stops_the_clingo_engine_with_complete_evaluations_only(long_coupons, tmp_path):
    """``--lars-engine asp``: the signal comes while clingo grounds or solves (or between two
    evaluations); the run ends with 128 + SIGINT, the output file holds complete evaluations up
    to the time point the message names, and no temporary file is left."""
    out = tmp_path / "answers.csv"
    argv = ["run", str(EX / "q2.rq"), *long_coupons, "--r2s", "istream", "--format", "csv", "--lars-engine", "asp"]
    proc = subprocess.Popen([sys.executable, "-m", "translator", *argv, "--output", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # wait until the temporary output holds a few evaluations
        temps = list(tmp_path.glob(".answers.csv.*.tmp"))
        if temps and temps[0].stat().st_size > 2000:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 128 + signal.SIGINT, err
    assert "Traceback" not in err
    last = _stopped_at(err)
    kept = out.read_text().splitlines()
    assert kept[0].startswith("t,")
    assert kept[1:] and all(int(line.split(",")[0]) <= last for line in kept[1:])
    assert not list(tmp_path.glob(".answers.csv.*"))
