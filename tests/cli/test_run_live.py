"""``rsplars run --stream IRI=-``: a stream read from a pipe while it is evaluated
(``translator.evaluate.live``) gives the answers of the same stream read whole from a file, at
every evaluation time, with the same element summary; the answers at t are written and flushed as
soon as the first element after t has arrived (a subprocess fed step by step); files are read
lazily too and give the whole-file answers."""

from __future__ import annotations

import json
import os
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import translator.cli.commands.run as run_cmd
from translator.cli import main

ROOT = Path(__file__).resolve().parents[2]
E = "http://example.org/srbench/"
XSD_FLOAT = "http://www.w3.org/2001/XMLSchema#float"
PULL = f"""SELECT ?sensor ?obs ?value
FROM STREAM <{E}stream> [RANGE 4s STEP 2s]
WHERE {{ ?obs <{E}procedure> ?sensor . ?obs <{E}floatValue> ?value . FILTER (?value > 20.5) }}
"""
PUSH = f"""SELECT ?sensor ?obs ?value
WHERE {{ STREAM <{E}stream> [RANGE 3s] {{ ?obs <{E}procedure> ?sensor . ?obs <{E}floatValue> ?value . }}
        FILTER (?value > 20.5) }}
"""


def observations(seconds: int, per: int, seed: int = 4, gap: int = 0) -> list[str]:
    """SRBench-style lines: every observation a fresh IRI, 3 triples, some seconds without input."""
    rnd = random.Random(seed)
    lines, i = [], 0
    for t in range(seconds):
        if gap and t % gap == gap - 1:
            continue
        for _ in range(rnd.randint(0, per)):
            o = f"<{E}obs/{i}>"
            i += 1
            value = f"{rnd.randint(0, 40)}.{rnd.randint(1, 9)}"
            lines.append(f'{o} <{E}procedure> <{E}sensor/{rnd.randrange(4)}> "{t}" .')
            lines.append(f'{o} <{E}floatValue> "{value}"^^<{XSD_FLOAT}> "{t}" .')
            if rnd.random() < 0.1:  # a duplicate element: counted, used once
                lines.append(lines[-1])
            lines.append(f'{o} <{E}observedProperty> <{E}AirTemperature> "{t}" .')
    return lines


def rsplars(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "translator", *argv], input=stdin, capture_output=True,
                          env=env, cwd=ROOT, timeout=300, check=False)


def whole_file_run(capsys, monkeypatch, *argv: str) -> tuple[str, str]:
    """The run over files read whole (the path before live reading), in-process: (stdout, stderr)."""
    monkeypatch.setattr(run_cmd, "LIVE_FILES", False)
    assert main(["run", *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def summary(err: str) -> str:
    return next(line for line in err.splitlines() if "stream elements:" in line)


@pytest.mark.parametrize("query, extra", [(PULL, ()), (PUSH, ()), (PULL, ("--r2s", "istream")),
                                          (PUSH, ("--r2s", "dstream", "--format", "csv"))],
                         ids=["pull", "push", "pull-istream", "push-dstream-csv"])
def test_pipe_gives_the_answers_of_the_file(tmp_path: Path, capsys, monkeypatch, query: str, extra) -> None:
    lines = observations(40, 3, gap=7)
    stream = tmp_path / "obs.nt"
    stream.write_text("\n".join(lines) + "\n", encoding="utf-8")
    q = tmp_path / "q.rq"
    q.write_text(query, encoding="utf-8")
    expected, expected_err = whole_file_run(capsys, monkeypatch, str(q), "--stream", f"{E}stream={stream}", *extra)
    piped = rsplars("run", str(q), "--stream", f"{E}stream=-", *extra, stdin=stream.read_bytes())
    assert piped.returncode == 0, piped.stderr.decode()
    assert piped.stdout.decode() == expected
    assert summary(piped.stderr.decode()) == summary(expected_err)
    assert "duplicates" in summary(expected_err) and ", 0 duplicates" not in summary(expected_err)
    monkeypatch.setattr(run_cmd, "LIVE_FILES", True)  # a file read lazily: the same again
    assert main(["run", str(q), "--stream", f"{E}stream={stream}", *extra]) == 0
    lazy = capsys.readouterr()
    assert lazy.out == expected
    assert summary(lazy.err) == summary(expected_err)
    if "--format" not in extra:
        records = [json.loads(x) for x in expected.splitlines()]
        assert sum(len(r["answers"]) for r in records) > 20  # not vacuous


def test_pipe_with_to_stops_there_and_counts_the_rest(tmp_path: Path, capsys, monkeypatch) -> None:
    lines = observations(30, 2)
    stream = tmp_path / "obs.nt"
    stream.write_text("\n".join(lines) + "\n", encoding="utf-8")
    q = tmp_path / "q.rq"
    q.write_text(PULL, encoding="utf-8")
    expected, expected_err = whole_file_run(capsys, monkeypatch, str(q), "--stream", f"{E}stream={stream}",
                                            "--from", "4", "--to", "20")
    piped = rsplars("run", str(q), "--stream", f"{E}stream=-", "--from", "4", "--to", "20", stdin=stream.read_bytes())
    assert piped.returncode == 0, piped.stderr.decode()
    assert piped.stdout.decode() == expected
    assert [json.loads(x)["t"] for x in expected.splitlines()] == list(range(4, 21, 2))
    # the pipe is read only as far as the run needs (a point after --to), the file whole: the
    # elements used are the same, those read differ by what lies after --to
    assert used(piped.stderr.decode()) == used(expected_err) > 0
    assert read(piped.stderr.decode()) < read(expected_err)


def used(err: str) -> int:
    return int(re.search(r"(\d+) used", summary(err)).group(1))


def read(err: str) -> int:
    return int(re.search(r"(\d+) read", summary(err)).group(1))


def _read_line(proc: subprocess.Popen, timeout: float) -> str | None:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        return None
    return proc.stdout.readline().decode()


def test_answers_at_t_are_flushed_before_later_input_is_written(tmp_path: Path, capsys, monkeypatch) -> None:
    """Feed the stream time point by time point; after the first element of t+1 is written, the
    answers at every pull time <= t must arrive on stdout before anything else is written."""
    lines = observations(16, 2, seed=9)
    by_time: dict[int, list[str]] = {}
    for line in lines:
        by_time.setdefault(int(line.rsplit('"', 2)[1]), []).append(line)
    stream = tmp_path / "obs.nt"
    stream.write_text("\n".join(lines) + "\n", encoding="utf-8")
    q = tmp_path / "q.rq"
    q.write_text(PULL, encoding="utf-8")
    expected, _ = whole_file_run(capsys, monkeypatch, str(q), "--stream", f"{E}stream={stream}")
    expected_lines = expected.splitlines()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "translator", "run", str(q), "--stream", f"{E}stream=-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert proc.stdin is not None
    got: list[str] = []
    try:
        times = sorted(by_time)
        for k, t in enumerate(times):
            proc.stdin.write(("\n".join(by_time[t]) + "\n").encode())
            proc.stdin.flush()
            if k == 0:
                continue
            # the first element of t is in: every pull time before t is complete and must come out now
            due = [x for x in expected_lines if json.loads(x)["t"] < t]
            deadline = time.monotonic() + 60
            while len(got) < len(due):
                line = _read_line(proc, max(0.0, deadline - time.monotonic()))
                assert line, f"the answers before t={t} were not flushed while the input waits (got {len(got)} of {len(due)})"
                got.append(line.rstrip("\n"))
            assert got == due
        proc.stdin.close()
        rest = proc.stdout.read().decode() if proc.stdout else ""
        got += rest.splitlines()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert got == expected_lines
    assert "stream elements:" in (proc.stderr.read().decode() if proc.stderr else "")


def test_two_streams_from_stdin_are_refused(tmp_path: Path, capsys) -> None:
    q = tmp_path / "q.rq"
    q.write_text(f"SELECT ?s WHERE {{ STREAM <{E}a> [RANGE 3s] {{ ?s ?p ?o }} STREAM <{E}b> [RANGE 3s] {{ ?s ?p ?o }} }}",
                 encoding="utf-8")
    assert main(["run", str(q), "--stream", f"{E}a=-", "--stream", f"{E}b=-"]) == 2
    assert "standard input" in capsys.readouterr().err


def test_a_bad_line_from_the_pipe_is_located(tmp_path: Path) -> None:
    q = tmp_path / "q.rq"
    q.write_text(PULL, encoding="utf-8")
    lines = observations(5, 2)
    lines.insert(4, f'<{E}obs/x> <{E}procedure> "oops "3" .')
    piped = rsplars("run", str(q), "--stream", f"{E}stream=-", stdin=("\n".join(lines) + "\n").encode())
    assert piped.returncode == 2
    err = piped.stderr.decode()
    assert "<stdin>:5:" in err and "Traceback" not in err


def test_an_empty_pipe_is_an_empty_stream(tmp_path: Path, capsys, monkeypatch) -> None:
    q = tmp_path / "q.rq"
    q.write_text(PULL, encoding="utf-8")
    empty = tmp_path / "empty.nt"
    empty.write_text("", encoding="utf-8")
    expected, _ = whole_file_run(capsys, monkeypatch, str(q), "--stream", f"{E}stream={empty}", "--to", "6")
    piped = rsplars("run", str(q), "--stream", f"{E}stream=-", "--to", "6", stdin=b"# nothing yet\n")
    assert piped.returncode == 0, piped.stderr.decode()
    assert piped.stdout.decode() == expected
    assert [json.loads(x)["t"] for x in expected.splitlines()] == [0, 2, 4, 6]
