"""Run one W3C SPARQL 1.1 evaluation test through the ``rsplars run`` command line and measure its
outcome: ``passed`` (the answers equal the expected result, :mod:`w3c_results`), ``wrong`` (they do
not, or not in the order of the query's ORDER BY), ``unsupported`` (exit 2 with ``unsupported in translation to LARS: …``, the feature named),
or ``error`` (anything else: another error message, another exit code).

The command line runs in this process (``translator.cli.main.main(argv)``, the same entry point as
``python -m translator``; :func:`run_cli_subprocess` runs it as a separate program), with the
query's ``qt:data`` files as ``--static`` and each ``qt:graphData`` file as ``--named IRI=FILE``
(its IRI is the file's IRI, as the suite names it). SELECT and ASK answers are read from
``--format jsonl``, CONSTRUCT triples from ``--format ntriples``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from w3c_manifest import W3CTest
from w3c_results import has_duplicates, order_variables, project, read_expected, same_order, same_solutions

UNSUPPORTED_MESSAGE = "unsupported in translation to LARS: "
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outcome:
    """What a test measured: ``status`` (module docstring), ``detail`` (the error message, or what
    differs), and whether the expected result holds a duplicate solution."""

    status: str
    detail: str = ""
    duplicates: bool = False
    as_set: bool = False  # the answers equal the expected result read as a set
    lexical: bool = True  # ... and every number has the expected result's lexical form


def arguments(test: W3CTest, fmt: str, output: Path | None = None) -> list[str]:
    """The ``rsplars run`` arguments of a test."""
    argv = ["run", str(test.query), "--format", fmt]
    for path in test.data:
        argv += ["--static", str(path)]
    for iri, path in test.graph_data:
        argv += ["--named", f"{iri}={path}"]
    if output is not None:
        argv += ["--output", str(output)]
    return argv


def run_cli(argv: list[str]) -> tuple[int, str]:
    """``rsplars ARGV`` in this process: (exit code, standard error)."""
    from translator.cli.main import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's own usage errors
            code = int(stop.code or 0)
    return code, err.getvalue()


def run_cli_subprocess(argv: list[str]) -> subprocess.CompletedProcess:
    """``python -m translator ARGV`` as a separate program, from the project's root."""
    return subprocess.run([sys.executable, "-m", "translator", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "RSPLARS_CACHE_DIR": os.environ.get("RSPLARS_CACHE_DIR", "")})


def measure(test: W3CTest) -> Outcome:
    """Run the test and compare (module docstring)."""
    expected = read_expected(test.result)
    graph = isinstance(expected, tuple) and expected[0] == "graph"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "answers"
        code, err = run_cli(arguments(test, "ntriples" if graph else "jsonl", out))
        if code != 0:
            message = next((line for line in err.splitlines() if "rsplars:" in line or ": " in line), err.strip())
            unsupported = [line for line in err.splitlines() if UNSUPPORTED_MESSAGE in line]
            if code == 2 and unsupported:
                return Outcome("unsupported", unsupported[0])
            return Outcome("error", f"exit {code}: {err.strip()[-400:] or message}")
        text = out.read_text(encoding="utf-8")
    return compare(expected, text, order_variables(test.query.read_text(encoding="utf-8")))


def compare(expected, text: str, order: tuple[str, ...] | None = None) -> Outcome:
    """The outcome of the CLI's output ``text`` against the expected result."""
    if isinstance(expected, bool):
        (record,) = [json.loads(line) for line in text.splitlines()]
        got = record["answer"]
        return Outcome("passed" if got == expected else "wrong", f"ASK gave {got}, expected {expected}")
    if expected[0] == "graph":
        from rdflib import Graph
        from rdflib.compare import isomorphic

        g = Graph()
        g.parse(data=text, format="nt")
        ok = isomorphic(g, expected[1])
        return Outcome("passed" if ok else "wrong", "" if ok else f"graph of {len(g)} triples, expected {len(expected[1])}")
    variables, rows = expected
    (record,) = [json.loads(line) for line in text.splitlines()]
    got = [tuple(answer.get(v) for v in variables) for answer in record["answers"]]
    want = project(variables, rows, variables)
    duplicates = has_duplicates(want)
    as_set = same_solutions(got, want)
    if as_set and not duplicates and order is not None and not same_order(got, want, variables, order):
        return Outcome("wrong", f"the answers in another order than ORDER BY {' '.join('?' + v for v in order)}",
                       duplicates, as_set)
    if as_set and not duplicates:
        return Outcome("passed", lexical=same_solutions(got, want, by_value=False))
    detail = f"{len(got)} answers, expected {len(want)}"
    if not as_set:
        missing = [r for r in set(want) if r not in set(got)][:3]
        extra = [r for r in set(got) if r not in set(want)][:3]
        detail += f"; missing {missing}; extra {extra}"
    return Outcome("wrong", detail, duplicates, as_set)
