"""Run one W3C SPARQL evaluation test through the ``rsplars run`` command line and measure its
outcome: ``passed`` (the answers equal the expected result as :mod:`w3c_results` compares them:
bags, REDUCED's lax cardinality, ORDER BY's sequence), ``wrong`` (they do not),
``unsupported`` (exit 2 with ``unsupported in translation to LARS: …`` or a located
``FILE:LINE:COLUMN: unsupported: …``, the feature named), or
``error`` (anything else: another error message, another exit code). :func:`measure_rdflib`
measures rdflib's own SPARQL engine on the same test, compared the same way (the reference column).

The command line runs in this process (``translator.cli.main.main(argv)``, the same entry point as
``python -m translator``; :func:`run_cli_subprocess` runs it as a separate program), with the
query's ``qt:data`` files as ``--static`` and each ``qt:graphData`` file as ``--named IRI=FILE``
(its IRI is the file's IRI, as the suite names it). SELECT and ASK answers are read from
``--format jsonl``, CONSTRUCT triples from ``--format ntriples``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from w3c_manifest import SyntaxTest, W3CTest
from w3c_results import (ResultSet, has_duplicates, is_reduced, order_keys, read_expected, same_bag, same_order, same_set,
                         top_modifiers, value_keys, within_reduced)

UNSUPPORTED_MESSAGE = "unsupported in translation to LARS: "
LOCATED_UNSUPPORTED = ": unsupported: "  # FILE:LINE:COLUMN: unsupported: …, refused where the query is read
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
    """Run the test through ``rsplars run`` and compare (module docstring)."""
    expected = read_expected(test.result)
    graph = not isinstance(expected, (bool, ResultSet))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "answers"
        code, err = run_cli(arguments(test, "ntriples" if graph else "jsonl", out))
        if code != 0:
            unsupported = [line for line in err.splitlines() if UNSUPPORTED_MESSAGE in line or LOCATED_UNSUPPORTED in line]
            if code == 2 and unsupported:
                return Outcome("unsupported", unsupported[0])
            return Outcome("error", f"exit {code}: {err.strip()[-400:]}")
        text = out.read_text(encoding="utf-8")
    return compare(expected, cli_answers(expected, text), **modifiers(test))


@functools.cache
def modifiers(test: W3CTest) -> dict:
    """What the comparison needs of the query: its ORDER BY keys and whether its cardinality is lax
    (read once per test: rsplars' and rdflib's outcomes both need it)."""
    chain = top_modifiers(test.query.read_text(encoding="utf-8"))
    return {"order": order_keys(chain), "reduced": test.lax_cardinality or is_reduced(chain)}


def cli_answers(expected, text: str):
    """The answers of the CLI's output ``text`` (``--format jsonl`` or ``ntriples``) in the form
    of the expected result: a boolean, an rdflib graph, or rows over the expected variables."""
    if not isinstance(expected, (bool, ResultSet)):
        from rdflib import Graph

        return Graph().parse(data=text, format="nt")
    (record,) = [json.loads(line) for line in text.splitlines()]
    if isinstance(expected, bool):
        return record["answer"]
    return [tuple(answer.get(v) for v in expected.variables) for answer in record["answers"]]


def rdflib_answers(test: W3CTest, expected):
    """rdflib's own SPARQL engine on the test: the query over a dataset of the test's ``qt:data``
    (default graph) and ``qt:graphData`` (named graphs), ``FROM``/``FROM NAMED`` loaded by rdflib,
    the query's base the query file's IRI; the answers in the form of :func:`cli_answers`."""
    from rdflib import Dataset, URIRef, Variable

    from translator.rdf.terms import to_nt

    ds = Dataset(default_union=False)
    for path in test.data:
        ds.default_graph.parse(path, format=rdf_format(path))
    for iri, path in test.graph_data:
        ds.graph(URIRef(iri)).parse(path, format=rdf_format(path))
    result = ds.query(test.query.read_text(encoding="utf-8"), base=test.query.as_uri())
    # ``result.bindings``, not the rows: rdflib's iteration leaves out a solution that binds nothing
    if result.type == "ASK":
        return bool(result.askAnswer)
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return result.graph
    variables = expected.variables if isinstance(expected, ResultSet) else [str(v) for v in result.vars or ()]
    return [tuple(None if solution.get(Variable(v)) is None else to_nt(solution[Variable(v)]) for v in variables)
            for solution in result.bindings]


def rdf_format(path: Path) -> str:
    return {".rdf": "xml", ".nt": "nt", ".n3": "n3"}.get(path.suffix, "turtle")


def measure_rdflib(test: W3CTest) -> Outcome:
    """The outcome of rdflib's SPARQL engine on the test (the reference column of docs/conformance.md):
    ``passed``, ``wrong``, or ``error`` (an exception, named)."""
    expected = read_expected(test.result)
    try:
        got = rdflib_answers(test, expected)
    except Exception as failure:  # noqa: BLE001 - any exception of the reference engine is its outcome
        return Outcome("error", f"{type(failure).__name__}: {str(failure)[:300]}")
    return compare(expected, got, **modifiers(test))


def compare(expected, got, order: tuple[str | None, ...] | None = None, reduced: bool = False) -> Outcome:
    """The outcome of the answers ``got`` (:func:`cli_answers`) against the expected result
    (``w3c_results``: bags, REDUCED's lax cardinality, ORDER BY's sequence)."""
    if isinstance(expected, bool):
        return Outcome("passed" if got is expected else "wrong", f"ASK gave {got}, expected {expected}")
    if not isinstance(expected, ResultSet):
        from rdflib.compare import isomorphic

        ok = not isinstance(got, (bool, list)) and isomorphic(got, expected)
        return Outcome("passed" if ok else "wrong", "" if ok else f"graph of {len(got)} triples, expected {len(expected)}")
    if not isinstance(got, list):
        return Outcome("wrong", f"gave {type(got).__name__}, expected a result set")
    want = expected.rows
    duplicates = has_duplicates(want)
    as_set = same_set(got, want)
    ok = within_reduced(got, want) if reduced else same_bag(got, want)
    if ok and order is not None and expected.ordered and not same_order(got, want, expected.variables, order):
        keys = " ".join("?" + k if k else "(expression)" for k in order)
        return Outcome("wrong", f"the answers in another order than ORDER BY {keys}", duplicates, as_set)
    if ok:
        lexical = same_set(got, want, by_value=False) if reduced else same_bag(got, want, by_value=False)
        return Outcome("passed", duplicates=duplicates, as_set=as_set, lexical=lexical)
    detail = f"{len(got)} answers, expected {len(want)}"
    if as_set:
        return Outcome("wrong", detail + "; the same solutions, other cardinalities", duplicates, as_set)
    got_keys, want_keys = value_keys(got), value_keys(want)
    missing = [r for r, k in zip(want, want_keys) if k not in set(got_keys)][:3]
    extra = [r for r, k in zip(got, got_keys) if k not in set(want_keys)][:3]
    return Outcome("wrong", f"{detail}; missing {missing}; extra {extra}", duplicates, as_set)


def read_syntax_test(test: SyntaxTest) -> tuple[int, str]:
    """``rsplars translate QUERY --to model`` on a syntax test's query, in this process, its
    standard output discarded: (exit code, standard error)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return run_cli(["translate", str(test.query), "--to", "model"])
