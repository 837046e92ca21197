"""The generic adapter: any engine started by a command line with placeholders (docs/engines.md,
"Any engine by its command line"), e.g. ``java -jar yasper.jar {query} {stream}``.

Placeholders (each replaced by one shell-quoted word): ``{query}`` the query file; ``{stream}`` the
first stream's file as the user gave it, ``{stream_nt}`` the same stream as timestamped N-Triples in the
engine's time unit, ``{stream_iri}`` its IRI; ``{streams}`` every ``IRI=FILE`` of the timestamped
N-Triples, space-separated words; ``{static}`` the first static data file; ``{output}`` a file in the
working folder the engine writes to, and ``{workdir}`` that folder. Without ``{output}`` the engine's
standard output is its output. The command runs without a shell (``shlex`` splits it), in the working
folder; its standard error goes to ``engine.log`` there.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from translator.engines.protocol import EngineError, EngineInput, EngineOutput

PLACEHOLDERS = ("query", "stream", "stream_nt", "stream_iri", "streams", "static", "output", "workdir")


def command_words(template: str, given: EngineInput, output: Path) -> list[str]:
    """The words of ``template`` with its placeholders filled in (:class:`EngineError` for an unknown one)."""
    first = given.streams[0] if given.streams else None
    values = {
        "query": [str(given.query)],
        "stream": [first.source] if first else [],
        "stream_nt": [str(first.path)] if first else [],
        "stream_iri": [first.iri] if first else [],
        "streams": [f"{s.iri}={s.path}" for s in given.streams],
        "static": [str(given.static[0])] if given.static else [],
        "output": [str(output)],
        "workdir": [str(given.workdir)],
    }
    try:
        words = shlex.split(template)
    except ValueError as err:
        raise EngineError(f"--engine-command: not a command line: {err}") from None
    out: list[str] = []
    for word in words:
        if word.startswith("{") and word.endswith("}") and word[1:-1] in values:
            out += values[word[1:-1]]
            continue
        for name, value in values.items():
            word = word.replace("{" + name + "}", " ".join(value))
        if "{" in word and "}" in word and word[word.index("{") + 1:word.index("}")].isidentifier():
            unknown = word[word.index("{"):word.index("}") + 1]
            raise EngineError(f"--engine-command: unknown placeholder {unknown} (expected "
                              + ", ".join("{" + p + "}" for p in PLACEHOLDERS) + ")")
        out.append(word)
    if not out:
        raise EngineError("--engine-command is empty")
    return out


@dataclass
class CommandEngine:
    """An engine started by ``template``; its output is read as ``output_format`` with timestamps in
    ``time_unit``."""

    template: str
    output_format: str = "auto"
    time_unit: str = "s"
    name: str = "command"
    timeout: float | None = None

    def run(self, given: EngineInput) -> EngineOutput:
        output, log = given.workdir / "engine-output.txt", given.workdir / "engine.log"
        words = command_words(self.template, given, output)
        to_file = "{output}" in self.template
        start = time.perf_counter()
        try:
            with log.open("w", encoding="utf-8") as err:
                if to_file:
                    done = subprocess.run(words, stdout=subprocess.DEVNULL, stderr=err, cwd=given.workdir,
                                          timeout=self.timeout)
                else:
                    with output.open("w", encoding="utf-8") as out:
                        done = subprocess.run(words, stdout=out, stderr=err, cwd=given.workdir, timeout=self.timeout)
        except FileNotFoundError:
            raise EngineError(f"--engine-command: cannot start {words[0]!r}: no such program") from None
        except PermissionError:
            raise EngineError(f"--engine-command: cannot start {words[0]!r}: not executable") from None
        except subprocess.TimeoutExpired:
            raise EngineError(f"the engine did not finish within {self.timeout} s (log: {log})") from None
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
            raise EngineError(f"the engine failed (exit {done.returncode}): {' '.join(tail) or 'no message'} "
                              f"(command: {shlex.join(words)}; log: {log})")
        if not output.is_file():
            raise EngineError(f"the engine wrote no {output} (the command's {{output}})")
        return EngineOutput(output, self.output_format, self.time_unit, None, log, seconds)
