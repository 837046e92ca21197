"""``rsplars run`` unfolds the τ translation's chain of joins (``lars.incremental.unfold``): on CityBench Q12
(a windowed ``count`` with GROUP BY, FILTER and HAVING over a chain of four joins) the engine keeps
fewer relations than without unfolding, and its answers equal Oxigraph's and rdflib's at every
evaluation time (the oracle and data generator of ``test_cli_citybench_differential``)."""

from __future__ import annotations

import random

import pytest
from rdflib.plugins.sparql import prepareQuery

import translator.evaluate.engine as engine_module
from cli_helpers import jsonl
from test_cli_citybench_differential import (QUERIES, expected_answers, generate, oracle_query, same_value,
                                             write_graph, write_stream, zones)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context


@pytest.mark.parametrize("name", ["Q12.txt", "Q1.txt"])
def test_citybench_chain_is_unfolded_and_answers_equal_the_oracles(run_cli, tmp_path, monkeypatch, name):
    made = []
    make_solver = engine_module.make_solver

    def spy(*args, **kwargs):
        solver = make_solver(*args, **kwargs)
        made.append((solver, args, kwargs))
        return solver

    monkeypatch.setattr(engine_module, "make_solver", spy)
    query = QUERIES / "csparql" / name
    sparql, windows = oracle_query(query.read_text(), "csparql")
    patterns = zones(prepareQuery(sparql).algebra)
    streams = sorted(windows)
    matched = 0
    for seed in range(2):
        rng = random.Random(f"unfold/{name}/{seed}")
        elements, static = generate(patterns, streams, "csparql", rng, solutions=12)
        args = ["run", query, "--unit", "s"]
        for i, iri in enumerate(streams):
            write_stream(tmp_path / f"s{i}.nt", elements[iri])
            args += ["--stream", f"{iri}={tmp_path / f's{i}.nt'}"]
        write_graph(tmp_path / "static.nt", static.get(None, ()))
        args += ["--static", tmp_path / "static.nt"]
        code, out, err = run_cli(*args)
        assert code == 0, err
        for t, answers in jsonl(out).items():
            want = expected_answers(sparql, static, windows, elements, t, "csparql", "closed")
            have = {tuple(sorted((k, same_value(v)) for k, v in a.items())) for a in answers}
            assert have == want, (seed, t)
            matched += bool(want)
    assert matched, "some window has answers (the generated data exercise the joins)"
    # the engine rsplars run made: the chain's intermediate joins are unfolded, fewer relations kept
    solver, args, kwargs = made[-1]
    assert solver.engine == "incremental"  # (lars.solver.Solver.engine)
    plain = type(solver)(kwargs.get("native") or args[0], functions=kwargs["functions"], outputs=kwargs["outputs"],
                         stream_predicates=kwargs["stream_predicates"], unfold=False)
    kept = {r.head for r in solver.rules}
    assert {("ans20", 4), ("ans10", 5)} <= solver.unfolded if name == "Q12.txt" else {("ans10", 4), ("ans6", 4)} <= solver.unfolded
    assert not kept & solver.unfolded
    assert len(solver.order) + len(solver.unfolded) == len(plain.order)
    assert len(solver.rules) < len(plain.rules)
