"""agree and check stopped by a signal (docs/robustness.md): they write their reports whole at the
end, so SIGINT/SIGTERM in the middle ends them cleanly with no report file at all (no temporary file
left either), a message saying so, no traceback, and the exit code of an interrupted run
(128 + the signal)."""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from translator.cli.commands.longrun import stop_cleanly
from translator.evaluate.fileio import write_atomic

ROOT = Path(__file__).parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
EX = ROOT / "examples"


def _handler_installed(pid: int, signum: int) -> bool:
    """Whether the process catches ``signum`` (``SigCgt`` of /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def _interrupt(argv: list[str], signum: int) -> tuple[int, str]:
    """Start ``rsplars argv``, wait until its clean-stop handlers are installed and it has worked
    for a moment, send ``signum``; (exit code, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "translator", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    deadline = time.monotonic() + 120
    while not _handler_installed(proc.pid, signal.SIGTERM):  # SIGTERM is caught only inside the command
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    time.sleep(0.2)
    assert proc.poll() is None, "the command ended before the signal: make its input larger"
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


@pytest.fixture(scope="module")
def coupons(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    done = subprocess.run([sys.executable, "-m", "translator", "gen", "coupons", "--rate", "2", "--duration", "6000",
                           "--seed", "3", "--output-dir", str(out)], capture_output=True, text=True, env=ENV)
    assert done.returncode == 0, done.stderr
    return ["--unit", "m", "--stream", f"http://example.org/stream/offers={out / 'offers.nt'}",
            "--stream", f"http://example.org/stream/near={out / 'near.nt'}", "--static", str(out / "static.n3")]


def test_agree_stopped_by_sigterm_writes_no_report(coupons, tmp_path):
    rx = EX / "running_example"
    reports = tmp_path / "reports"
    reports.mkdir()
    code, err = _interrupt(["agree", "--pull", str(rx / "q1.rq"), "--push", str(rx / "q2.rq"), "--period", "3m",
                            *coupons, "--report", str(reports / "r.json"), "--html", str(reports / "r.html")],
                           signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, err
    assert "rsplars: stopped by SIGTERM before the end: no report written" in err
    assert "Traceback" not in err
    assert list(reports.iterdir()) == []  # no report, no temporary file


def test_check_stopped_by_sigint_writes_no_report(tmp_path):
    rng = random.Random(1)
    stream = tmp_path / "temps.nt"
    stream.write_text("".join(
        f'<http://example.org/s{rng.randrange(50)}> <http://example.org/temp> '
        f'"{rng.randrange(20, 40)}"^^<http://www.w3.org/2001/XMLSchema#integer> "{i * 1000}" .\n' for i in range(30000)))
    reports = tmp_path / "reports"
    reports.mkdir()
    code, err = _interrupt(["check", str(EX / "check" / "hot.rq"), "--stream", f"http://example.org/temps={stream}",
                            "--stream-time-unit", "ms", "--answers-time-unit", "ms",
                            "--answers", str(EX / "check" / "csparql-answers.json"), "--profile", "csparql",
                            "--json", str(reports / "c.json"), "--html", str(reports / "c.html")], signal.SIGINT)
    assert code == 128 + signal.SIGINT, err
    assert "rsplars: stopped by SIGINT before the end: no report written" in err
    assert "Traceback" not in err
    assert list(reports.iterdir()) == []


def test_a_report_completed_before_the_signal_stays_and_is_named(tmp_path, capsys):
    first, second = tmp_path / "1.json", tmp_path / "2.json"

    def command(args: argparse.Namespace) -> int:
        write_atomic(first, "{}\n")  # one complete report (agree --as cqels-all writes one per member)
        os.kill(os.getpid(), signal.SIGTERM)  # the signal arrives while the second one is computed
        time.sleep(5)
        write_atomic(second, "{}\n")
        return 0

    assert stop_cleanly(command)(argparse.Namespace()) == 128 + signal.SIGTERM
    err = capsys.readouterr().err
    assert f"stopped by SIGTERM before the end: only the complete reports {first} were written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1.json"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is removed again


def test_abort_raised_inside_a_clingo_callback_keeps_its_signal():
    """A signal during grounding raises Abort inside a Python function clingo calls; clingo
    re-raises it as ``Abort(the_abort)``: the exit code must still be 128 + the signal (it was a
    TypeError and a traceback, seen once in the suite)."""
    import clingo

    from translator.evaluate.interrupts import Abort

    class Context:
        def f(self, x):
            raise Abort(signal.SIGINT)

    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "p(@f(1)).")
    with pytest.raises(Abort) as stop:
        ctl.ground([("base", [])], context=Context())
    assert stop.value.exit_code == 128 + signal.SIGINT


def test_a_signal_inside_a_clingo_callback_is_delivered_after_clingo_returns():
    """clingo ends the process when an exception is raised in some of its callbacks (statistics),
    so abort_on_signal recognises a frame inside clingo and does not raise there: the Abort comes
    once clingo has returned (here, where the block ends: this Control is not one of the engine's),
    with the signal's exit code."""
    import clingo

    from translator.evaluate.interrupts import Abort, abort_on_signal, calling_clingo

    seen = []

    class Context:
        def f(self, x):
            seen.append(calling_clingo(sys._getframe()) is caller)
            os.kill(os.getpid(), signal.SIGINT)  # handled here, inside the grounding callback
            return x

    assert calling_clingo(sys._getframe()) is None
    caller = sys._getframe()
    with pytest.raises(Abort) as stop:
        with abort_on_signal():
            ctl = clingo.Control(["--warn=none"])
            ctl.add("base", [], "p(@f(1)).")
            ctl.ground([("base", [])], context=Context())
            seen.append("ground returned")
    assert seen == [True, "ground returned"]
    assert stop.value.exit_code == 128 + signal.SIGINT


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "stop.py"
    script.write_text(
        "import os, signal, sys\nimport clingo\n"
        "from asp.interruption import running\n"
        "from translator.evaluate.interrupts import Abort, abort_on_signal\n"
        "try:\n"
        "    with abort_on_signal():\n" + body +
        "except Abort as stop:\n"
        "    sys.exit(stop.exit_code)\n")
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_signal_in_clingo_s_statistics_callback_stops_cleanly(tmp_path):
    """The case clingo cannot survive: an exception in its statistics callback ends the process
    ("error in SolveEventHandler::on_statistics going to terminate", exit 1). Under
    abort_on_signal the signal handled there stops the command once solve has returned: exit
    128 + SIGINT, and the code after the solve is not run."""
    done = _script(tmp_path,
                   "        ctl = clingo.Control(['0'])\n"
                   "        ctl.add('base', [], '{a;b}.')\n"
                   "        ctl.ground([('base', [])])\n"
                   "        with running(ctl):\n"
                   "            ctl.solve(on_statistics=lambda step, accu: os.kill(os.getpid(), signal.SIGINT))\n"
                   "        print('not stopped')\n")
    assert done.returncode == 128 + signal.SIGINT, done.stderr
    assert "terminate" not in done.stderr and "not stopped" not in done.stdout


def test_a_signal_in_the_model_callback_interrupts_the_solve(tmp_path):
    """A signal during a search that would enumerate 2^40 models: clingo is interrupted
    (``Control.interrupt``) and the run ends at once with 128 + SIGTERM, the solve's partial
    result unread."""
    done = _script(tmp_path,
                   "        ctl = clingo.Control(['0'])\n"
                   "        ctl.add('base', [], '{a(1..40)}.')\n"
                   "        ctl.ground([('base', [])])\n"
                   "        models = []\n"
                   "        def on_model(m):\n"
                   "            models.append(1)\n"
                   "            if len(models) == 3:\n"
                   "                os.kill(os.getpid(), signal.SIGTERM)\n"
                   "        with running(ctl):\n"
                   "            ctl.solve(on_model=on_model)\n"
                   "        print('not stopped')\n")
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert "not stopped" not in done.stdout and "Traceback" not in done.stderr


def test_the_clingo_engine_stops_after_the_grounding_in_which_the_signal_came(tmp_path):
    """A signal while clingo calls a grounding function of the engine (``asp.solver``): the
    ground call ends, the Abort comes before anything is solved, no step is produced after it."""
    done = _script(tmp_path,
                   "        from asp.solver import StreamSolver\n"
                   "        from lars.model import Integer\n"
                   "        from lars.streams import parse_stream_text\n"
                   "        from lars.syntax import parse_program\n"
                   "        def f(x):\n"
                   "            os.kill(os.getpid(), signal.SIGINT)\n"
                   "            return Integer(x.value + 1)\n"
                   "        program = parse_program('q(Y) :- p(X) [2], Y = @f(X).')\n"
                   "        stream = parse_stream_text('0: p(1)\\n1: p(2)\\n2: p(3)')\n"
                   "        for step in StreamSolver(program, functions={'f': f}).run(stream):\n"
                   "            print('step', step.t, flush=True)\n")
    assert done.returncode == 128 + signal.SIGINT, done.stderr
    assert "step" not in done.stdout and "Traceback" not in done.stderr


def test_a_signal_whose_abort_is_swallowed_still_stops_before_any_report_is_committed(tmp_path, capsys):
    """The handler's exception can land in code that swallows it (here a ``__del__``, as in an
    import lock's weak-reference callback: Python prints "Exception ignored in" and goes on). The
    signal is not lost: the atomic writer refuses to rename the report into place and the block
    ends with the signal's Abort."""
    import gc

    from translator.evaluate.fileio import write_atomic
    from translator.evaluate.interrupts import Abort, abort_on_signal

    class Landing:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)  # handled here, where exceptions are ignored

    report = tmp_path / "r.json"
    with pytest.raises(Abort) as stop:
        with abort_on_signal():
            Landing()
            gc.collect()
            write_atomic(report, "{}")
    assert stop.value.exit_code == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []
    assert "Exception ignored" not in capsys.readouterr().err  # no traceback printed for it either
