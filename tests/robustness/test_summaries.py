"""The element summary (docs/robustness.md, nothing lost silently) on the runs that lacked it:
`run --profile …`, `agree --profiles A,B` and a live `rsplars lars --stream -`, which counts as it
reads; a live run stopped by a signal while it waits for input ends at once, cleanly. The counts are
checked against a direct count of the test's own stream text."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from translator.cli import main

ROOT = Path(__file__).parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
CHECK = ROOT / "examples" / "check"
TEMPS = "http://example.org/temps"
READING = '<http://example.org/s{}> <http://example.org/temp> "{}"^^<http://www.w3.org/2001/XMLSchema#integer> "{}" .\n'


def _summary(err: str) -> dict[str, int]:
    m = re.search(r"stream elements: (\d+) read, (\d+) used, (\d+) rejected.*?, (\d+) duplicates?", err)
    assert m, err
    return dict(zip(("read", "used", "rejected", "duplicates"), map(int, m.groups())))


def _temps(tmp_path, bad: bool = True) -> Path:
    """Five readings, one of them twice, and (``bad``) one malformed line: 7 records."""
    lines = [READING.format(1, 31, 1000), READING.format(2, 25, 3000), READING.format(2, 25, 3000),
             READING.format(1, 33, 4000), READING.format(2, 35, 7000), READING.format(3, 36, 9000)]
    if bad:
        lines.insert(3, '<http://example.org/s9> <http://example.org/temp> oops "3000" .\n')
    path = tmp_path / "temps.nt"
    path.write_text("".join(lines))
    return path


def _expected(path: Path, last: int) -> dict[str, int]:
    """A direct count: records, distinct well-formed ones up to ``last`` (ms), malformed, repeats."""
    lines = path.read_text().splitlines()
    good = [line for line in lines if "oops" not in line]
    stamps = {line: int(line.rsplit('"', 2)[-2]) for line in good}
    return {"read": len(lines), "used": len({line for line in good if stamps[line] <= last}),
            "rejected": len(lines) - len(good), "duplicates": len(good) - len(set(good))}


def test_run_with_a_profile_prints_the_summary(tmp_path, capsys):
    stream = _temps(tmp_path)
    argv = ["run", str(CHECK / "hot.rq"), "--stream", f"{TEMPS}={stream}", "--stream-time-unit", "ms",
            "--profile", "csparql"]
    assert main(argv) == 2  # the malformed element stops the run, located
    assert f"{stream}:4:" in capsys.readouterr().err
    assert main([*argv, "--skip-bad-elements"]) == 0
    captured = capsys.readouterr()
    last = max(json.loads(line)["t"] for line in captured.out.splitlines())
    assert f"skipped malformed element at {stream}:4:" in captured.err
    assert _summary(captured.err) == _expected(stream, last * 1000)


def test_agree_with_profiles_prints_the_summary(tmp_path, capsys):
    stream = _temps(tmp_path, bad=False)
    code = main(["agree", str(CHECK / "hot.rq"), "--stream", f"{TEMPS}={stream}", "--stream-time-unit", "ms",
                 "--profiles", "csparql,cqels"])
    assert code == 0
    assert _summary(capsys.readouterr().err) == _expected(stream, 9000)


LIVE_STREAM = "0: p(1), p(1), q(2)\n0: p(1)\n1: p(1), q(2), q(2)\n1: q(3)\n3: p(5)\n5: a, a, a\n6: a, a, a\n7: p(2)\n"  # t=6 repeats t=5


def _lars_expected(text: str, last: int | None) -> dict[str, int]:
    atoms = [(int(line.split(":")[0]), a.strip()) for line in text.splitlines()
             for a in re.split(r",\s*(?![^()]*\))", line.split(":", 1)[1])]
    distinct = set(atoms)
    used = {x for x in distinct if last is None or x[0] <= last}
    return {"read": len(atoms), "used": len(used), "rejected": 0, "duplicates": len(atoms) - len(distinct)}


def test_live_lars_counts_as_it_reads(tmp_path):
    program = tmp_path / "p.lars"
    program.write_text("r(X) :- p(X) [2].\n")
    stream_file = tmp_path / "s.txt"
    stream_file.write_text(LIVE_STREAM)
    for extra, last in (([], None), (["--times", "0..3"], 3)):
        live = subprocess.run([sys.executable, "-m", "translator", "lars", str(program), "--stream", "-", *extra],
                              input=LIVE_STREAM, capture_output=True, text=True, env=ENV, timeout=120)
        assert live.returncode == 0, live.stderr
        got = _summary(live.stderr)
        expected = _lars_expected(LIVE_STREAM, last)
        if last is None:
            assert got == expected
        else:  # how far a live run reads ahead of --times depends on what the pipe holds already
            assert got["used"] == expected["used"] and got["rejected"] == 0
            assert got["read"] <= expected["read"] and got["read"] - got["duplicates"] >= got["used"]
        whole = subprocess.run([sys.executable, "-m", "translator", "lars", str(program), "--stream",
                                str(stream_file), *extra], capture_output=True, text=True, env=ENV, timeout=120)
        assert whole.stdout == live.stdout  # the same answers as the stream read whole
        if last is None:
            assert _summary(whole.stderr) == got  # and the same counts


def test_live_lars_waiting_for_input_stops_at_the_first_signal(tmp_path):
    program = tmp_path / "p.lars"
    program.write_text("r(X) :- p(X) [2].\n")
    proc = subprocess.Popen([sys.executable, "-m", "translator", "lars", str(program), "--stream", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("0: p(1), p(1)\n1: p(2)\n")
    proc.stdin.flush()  # t=0 is complete once t=1 has begun; t=1 may still get lines
    ready, _, _ = select.select([proc.stdout], [], [], 120)
    assert ready
    first = proc.stdout.readline()
    assert json.loads(first) == {"t": 0, "atoms": ["r(1)"]}
    time.sleep(0.3)  # the run now waits for input
    proc.send_signal(signal.SIGTERM)
    rest, err = proc.communicate(timeout=60)  # closes stdin only after the signal was handled or not
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert rest == ""
    assert "stopped by SIGTERM: the answers are complete up to t=0" in err and "Traceback" not in err
    assert _summary(err) == {"read": 3, "used": 1, "rejected": 0, "duplicates": 1}
