"""The corpus of malformed inputs mutated from real ones (tests/data/mutated, written by
tests/robustness/mutated_corpus.py): every file is rejected with a located error
``FILE:LINE:COLUMN`` at the line of its mutation (or, for an error only visible at the end, at or
after it), exit 2, no traceback, and no output (no file left, nothing on stdout) — while its unmutated source is accepted."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from translator.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from mutated_corpus import CORPUS, DATA, build  # noqa: E402

MANIFEST = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
IRI = "http://example.org/s"
QUERY = f"REGISTER QUERY q AS\nSELECT ?s ?p ?o\nFROM STREAM <{IRI}> [RANGE 10s STEP 10s]\nWHERE {{ ?s ?p ?o }}\n"
STREAM_ARGS = {  # how each RDF stream source is read (its timestamps' unit)
    "rdf/csrbench/listing1.nt": ["--stream-time-unit", "ms"],
    "spark/s1.nt": [],
    "rdf/running_example/offers.stream": [],
    "rdf/csrbench/observations.trig": ["--stream-time-unit", "ms"],
}


def _argv(kind: str, source: str, path: Path, out: Path, tmp_path: Path) -> list[str]:
    if kind == "query":  # translate writes to stdout only: nothing may be printed
        return ["translate", str(path), "--to", "lars"]
    if kind == "program":
        return ["lars", str(path), "--stream", str(DATA / "lars" / "stream.txt"), "--output", str(out)]
    if kind == "lars-stream":
        return ["lars", str(DATA / "lars" / "ticker" / "program.lars"), "--stream", str(path), "--output", str(out)]
    query = tmp_path / "q.rq"
    query.write_text(QUERY)
    return ["run", str(query), "--stream", f"{IRI}={path}", *STREAM_ARGS[source], "--output", str(out)]


def test_the_corpus_is_what_the_mutations_give():
    built = build()
    assert [e["name"] for e in built] == [e["name"] for e in MANIFEST]
    assert len(built) >= 30 and {e["kind"] for e in built} == {"query", "program", "rdf-stream", "lars-stream"}
    for entry in built:
        assert (CORPUS / entry["name"]).read_text(encoding="utf-8") == entry["text"], entry["name"]


@pytest.mark.parametrize("source, kind", sorted({(e["source"], e["kind"]) for e in MANIFEST}))
def test_the_sources_are_accepted(source, kind, tmp_path, capsys):
    out = tmp_path / "out" / "result"
    out.parent.mkdir()
    code = main(_argv(kind, source, DATA / source, out, tmp_path))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert (captured.out if kind == "query" else out.read_text()).strip()


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_each_mutant_gets_a_located_error_and_leaves_no_output(entry, tmp_path, capsys):
    path = CORPUS / entry["name"]
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code = main(_argv(entry["kind"], entry["source"], path, out_dir / "result", tmp_path))
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2, err
    assert captured.out == ""
    assert "Traceback" not in err
    m = re.search(rf"^{re.escape(str(path))}:(\d+):(\d+): \S", err, re.M)
    assert m, err
    line, column = int(m.group(1)), int(m.group(2))
    if entry["lines"]:
        assert line in entry["lines"], (entry["mutation"], err)
    else:
        assert line >= entry["min_line"], (entry["mutation"], err)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1, err
    assert list(out_dir.iterdir()) == []  # no output, no temporary file


FIRST_PER_SOURCE = list({e["source"]: e for e in reversed(MANIFEST)}.values())


@pytest.mark.parametrize("entry", FIRST_PER_SOURCE, ids=[e["name"] for e in FIRST_PER_SOURCE])
def test_no_traceback_on_the_real_stderr(entry, tmp_path):
    """In a process of its own (logging included: rdflib logged a bad xsd:long with a traceback)."""
    import os
    import subprocess

    root = Path(__file__).parents[2]
    path = CORPUS / entry["name"]
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    done = subprocess.run([sys.executable, "-m", "translator",
                           *_argv(entry["kind"], entry["source"], path, out_dir / "result", tmp_path)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: \S", done.stderr, re.M), done.stderr
    assert list(out_dir.iterdir()) == []
