"""``--resume-from T``: continue a run that stopped after evaluation time T (docs/robustness.md).

The answers at an evaluation time depend only on the stream up to it (Dao-Tran, Beck, Eiter 2015, §4: the engine
evaluates the program on the window contents at t), so the evaluation times after T can be solved
on their own. IStream and DStream also need the answers at the previous evaluation time: that one
is solved again, silently (:func:`translator.evaluate.run.answers`, ``resume_after``). With
``--output FILE`` the records of FILE up to T are kept and the new ones appended (the file is
rewritten atomically); on stdout only the new records are printed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lars.errors import RsplarsError

_NT_TIME = re.compile(r'"(-?\d+)"\s*\.?\s*$')


def record_time(line: str, fmt: str) -> int | None:
    """The evaluation time of one output line (``None``: a header or an unreadable line)."""
    if fmt in ("jsonl", "sparql-json", "lars-jsonl"):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            return None
        t = record.get("t") if isinstance(record, dict) else None
        return t if isinstance(t, int) and not isinstance(t, bool) else None
    if fmt in ("csv", "tsv"):
        head = line.split("," if fmt == "csv" else "\t", 1)[0]
        return int(head) if head.lstrip("-").isdigit() else None
    if fmt == "ntriples":
        m = _NT_TIME.search(line)
        return int(m.group(1)) if m else None
    if fmt == "lars-text":
        m = re.match(r"\s*(-?\d+)\s*(?:\[[^\]]*\])?\s*:", line)
        return int(m.group(1)) if m else None
    raise RsplarsError(f"--resume-from: unknown output format {fmt!r}")


def kept_output(path: str | None, resume_from: int, fmt: str) -> str | None:
    """The part of an existing output file to keep when resuming after ``resume_from``: its header
    and its records up to that time, in order. ``None`` when there is no file to continue (stdout,
    or the file does not exist yet)."""
    if path is None or path == "-" or not Path(path).exists():
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RsplarsError(f"--resume-from: cannot read the output {path} to continue: {err}") from None
    kept = []
    lines = text.splitlines(keepends=True)
    for k, line in enumerate(lines):
        t = record_time(line, fmt)
        if t is None:
            if fmt in ("csv", "tsv") and k == 0 and line.startswith("t," if fmt == "csv" else "t\t"):
                kept.append(line)  # the header
                continue
            if line.strip():
                raise RsplarsError(f"--resume-from: {path}:{k + 1}: not a {fmt} record of a run "
                                   "(give the same --format as the stopped run)")
            continue
        if t <= resume_from:
            if not line.endswith("\n"):
                break  # the last line was cut off: it is not complete
            kept.append(line)
    return "".join(kept)
