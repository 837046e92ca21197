"""``rsplars run`` on plain SPARQL 1.1 queries (no stream: ``--static`` / ``--named``), in this process."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    def answers(self) -> list[dict]:
        (record,) = self.records()
        return record["answers"]


def run_query(folder: Path, query: str, data: str = "", named: dict[str, str] | None = None, *options: str) -> Run:
    """``rsplars run`` of ``query`` over ``data`` (Turtle) and ``named`` graphs ({IRI: Turtle}), the
    files in ``folder``; jsonl output unless ``--format`` is among the options."""
    from translator.cli.main import main

    q = folder / "query.rq"
    q.write_text(query, encoding="utf-8")
    argv = ["run", str(q)]
    if data:
        d = folder / "data.ttl"
        d.write_text(data, encoding="utf-8")
        argv += ["--static", str(d)]
    for k, (iri, text) in enumerate((named or {}).items()):
        f = folder / f"named{k}.ttl"
        f.write_text(text, encoding="utf-8")
        argv += ["--named", f"{iri}={f}"]
    if "--format" not in options:
        argv += ["--format", "jsonl"]
    out = folder / "answers.out"
    argv += [*options, "--output", str(out)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return Run(code, out.read_text(encoding="utf-8") if out.exists() else "", err.getvalue())
