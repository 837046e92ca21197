"""The bundled RSP-JS adapter: runs ``engines/rsp-js/run.js`` (RSP-JS, Bonte, github.com/pbonte/RSP-JS,
npm ``rsp-js`` 1.3.5) with Node.js on the query and the streams; the runner writes one JSON line per
report, ``{"t": close, "window": [open, close], …, "answers": [{var: N-Triples term}]}``, with times in
milliseconds, RSP-JS's clock (docs/engines.md, "RSP-JS").

The runner and its pinned dependencies are installed into the repository by ``make rsp-js`` (``npm ci``
in ``engines/rsp-js``); ``RSPLARS_RSP_JS_DIR`` names another installed copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from translator.engines.protocol import EngineError, EngineInput, EngineOutput

#: the runner in the repository (engines/rsp-js next to the translator package)
RUNNER_DIR = Path(__file__).resolve().parents[2] / "engines" / "rsp-js"

INSTALL_HINT = ("install Node.js (18 or later) and npm, then run `make rsp-js` in the rsplars checkout "
                "(npm ci in engines/rsp-js)")


def runner_dir() -> Path:
    return Path(os.environ.get("RSPLARS_RSP_JS_DIR", RUNNER_DIR))


def node_command() -> str:
    """The ``node`` executable, or :class:`EngineError` saying what to install."""
    node = shutil.which("node")
    if node is None:
        raise EngineError(f"RSP-JS needs Node.js: `node` is not on PATH; {INSTALL_HINT}")
    return node


def check_installed(folder: Path) -> Path:
    """The runner script of ``folder``, once ``rsp-js`` is installed there."""
    script = folder / "run.js"
    if not script.is_file():
        raise EngineError(f"{script}: the RSP-JS runner is missing; {INSTALL_HINT}")
    if not (folder / "node_modules" / "rsp-js" / "package.json").is_file():
        raise EngineError(f"{folder}/node_modules/rsp-js is not installed; {INSTALL_HINT}")
    return script


@dataclass
class RspJsEngine:
    """RSP-JS through ``engines/rsp-js/run.js``."""

    name: str = "rsp-js"
    time_unit: str = "ms"
    timeout: float | None = None

    def run(self, given: EngineInput) -> EngineOutput:
        node = node_command()
        script = check_installed(runner_dir())
        output, log = given.workdir / "rsp-js.jsonl", given.workdir / "rsp-js.log"
        command = [node, str(script), "--query", str(given.query), "--output", str(output), "--log", str(log)]
        for stream in given.streams:
            command += ["--stream", f"{stream.iri}={stream.path}"]
        for path in given.static:
            command += ["--static", str(path)]
        start = time.perf_counter()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=self.timeout,
                                  cwd=given.workdir)
        except subprocess.TimeoutExpired:
            raise EngineError(f"RSP-JS did not finish within {self.timeout} s (log: {log})") from None
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip() or "no message").splitlines()
            raise EngineError(f"RSP-JS failed (exit {done.returncode}): {' '.join(said[-3:])} (log: {log})")
        lasts = [s.last_t for s in given.streams if s.last_t is not None]
        # a window reports when an element later than its close arrives (docs/engines.md): the windows
        # closing at or after the last element of their stream are never reported
        until = min(lasts) - 1 if lasts else None
        return EngineOutput(output, "jsonl", self.time_unit, until, log, seconds)
