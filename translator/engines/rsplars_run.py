"""``rsplars run`` as a live engine (``--live-engine rsplars[:PROFILE]``): the reference side of a live
comparison, run in its own process like the other engines, on the same timestamped N-Triples they read
(in the base unit), under an engine profile (docs/check.md, §2) or the query's own defaults."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass

from translator.engines.protocol import EngineError, EngineInput, EngineOutput


@dataclass
class RsplarsEngine:
    time_unit: str
    """The base unit of the run (``--unit``)."""
    profile: str | None = None
    name: str = "rsplars"

    def run(self, given: EngineInput) -> EngineOutput:
        output, log = given.workdir / f"{self.label()}.jsonl", given.workdir / f"{self.label()}.log"
        command = [sys.executable, "-m", "translator", "run", str(given.query), "--unit", self.time_unit]
        for stream in given.streams:
            command += ["--stream", f"{stream.iri}={stream.path}"]
        for path in given.static:
            command += ["--static", str(path)]
        if self.profile is not None:
            command += ["--profile", self.profile]
        start = time.perf_counter()
        with output.open("w", encoding="utf-8") as out, log.open("w", encoding="utf-8") as err:
            done = subprocess.run(command, stdout=out, stderr=err, cwd=given.workdir)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            said = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise EngineError(f"{self.label()} failed (exit {done.returncode}): {' '.join(said[-2:])}")
        return EngineOutput(output, "jsonl", self.time_unit, None, log, seconds)

    def label(self) -> str:
        return self.name if self.profile is None else f"{self.name}-{self.profile}"
