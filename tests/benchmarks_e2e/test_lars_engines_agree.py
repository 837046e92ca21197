"""``rsplars run --lars-engine incremental`` against ``--lars-engine asp`` (clingo) on the benchmark
queries of ``test_benchmark_queries`` (whose answers, computed with the default engine, are
checked there against pyoxigraph and rdflib on every window): the same data, byte-identical
output. Every benchmark query translates into the incremental engine's fragment (those with
aggregates since ``lars.incremental.aggregates``): a refusal (exit 2) fails the test."""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import pytest

from test_benchmark_queries import EVENT_GRAPHS, base_unit, cases, generate, oracle_query, run  # noqa: E402
from translator.rdf.streams import write_ntriples
from translator.rdf.terms import to_nt


@pytest.mark.parametrize("path, dialect", cases())
def test_incremental_and_clingo_engines_give_the_same_answers(path: Path, dialect: str, tmp_path, capsys, request):
    text = path.read_text()
    _, windows = oracle_query(text, dialect)
    unit, ms_per_tick = base_unit(windows)
    convention = ("closed", "left-open", "right-open")[zlib.crc32(request.node.callspec.id.encode()) % 3]
    data, named = generate(path, dialect, windows, ms_per_tick)
    args = ["run", path, "--unit", unit, "--window-bounds", convention]
    for i, (iri, elements) in enumerate(sorted(data.streams.items())):
        if str(iri) not in windows:
            continue
        file = tmp_path / f"s{i}.nt"
        with file.open("w") as f:
            write_ntriples(elements, f)
        args += ["--stream", f"{iri}={file}"]
    for name, graph in data.static.items():
        file = tmp_path / f"{name}.nt"
        file.write_text("".join(" ".join(to_nt(x) for x in tr) + " .\n" for tr in sorted(graph)))
        if name in named:
            for short in EVENT_GRAPHS:
                args += ["--named", f"{short}={file}"]
        else:
            args += ["--static", file]
    steps = {step for _, step in windows.values() if step}
    if dialect == "csparql" and len(steps) > 1:
        args += ["--period", f"{math.gcd(*steps) // ms_per_tick}{unit}"]

    code, clingo_out, err = run(capsys, *args, "--lars-engine", "asp")
    assert code == 0, err
    code, incremental_out, err = run(capsys, *args, "--lars-engine", "incremental")
    assert code == 0, err  # (2: outside the fragment)
    assert clingo_out, "the query answers something at some time point"
    assert incremental_out == clingo_out
