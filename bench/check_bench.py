"""``rsplars check`` on the published CSRBench cells (Dell'Aglio et al. 2013, Table 2: 7 queries × C-SPARQL,
CQELS, SPARQLstream), whole process, side by side with a direct Python evaluation of the oracle's
definition in the same run; and one judgement of a 1M-triple stream (not a test).

    .venv/bin/python bench/check_bench.py                # the 21 cells and the 1M-triple stream
    .venv/bin/python bench/check_bench.py --quick        # the cells only
    .venv/bin/python bench/check_bench.py --against DIR  # also another checkout's rsplars (A/B, bench/checkouts.py)

The cells: the queries of ``tests/data/csrbench_recorded/queries`` over the oracle's own folder of
Turtle files (``tests/data/csrbench_recorded/data``, file k at k s), each engine's recorded answers
(``…/answers``), each engine's own profile — CQELS with its tuple tick — and ``--ignore-timestamps``
(the oracle's comparison, Dell'Aglio et al. 2013, §6.1). A cell without a recorded answer file is
listed with the reason. Targets: ≤ 2 s a cell, ≤ 30 s for all, ≤ 60 s for the 1M stream.

*Oracle*: an independent implementation of the oracle's definition (Dell'Aglio et al. 2013, §6.1):
for every t0 in ``{0, …, max(β − 1, α)}``, the window contents per report (window close: ``[o, c)``
at each close c; content change: the window that holds t, cut at t, at every instant with data —
the oracle's windower, one report per instant), the plain SPARQL query (the query without its
window) by pyoxigraph on each content, R2S and empty relations as in the engine's properties, and
the recorded relations as a contiguous subsequence of the expected ones (bindings as sets, literals
whose label parses as a double compared as doubles, as the oracle does). It shares no code with
``rsplars``. Its verdict is recorded next to ``check``'s.

*1M triples*: the CSRBench stream repeated 66 times (1,002,408 triples) with fresh IRIs and times
shifted by 34 s per repetition; C-SPARQL's Q1 output on it is computed directly (windows of 10 s,
temperatures above 80 °F) and judged with timestamps (``rsplars check --profile csparql``).

*First, cold and warm*: each cell runs three times, as three processes with a user cache folder of
its own (``RSPLARS_CACHE_DIR``, ``translator.cache``): ``rsplars_first`` with the folder empty — the 34
Turtle files, the query and the grammar's parse tables are parsed and stored —; ``rsplars_cold``
with the stream's entry removed (new data: the files parsed again, the query and the parse tables
from the cache, as for any run after the first); ``rsplars`` (warm) with the folder filled (a
folder of Turtle files whose bytes were read before is not parsed again; docs/check.md §8). Their
verdicts must agree.

The machine is shared (2 vCPUs): the load average is recorded. Results:
``bench/results/check_bench.json`` (``check_bench.quick.json``), with the commit measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "csrbench_recorded"
STREAM_IRI = "http://cwi.nl/SRBench/observations"
sys.path.insert(0, str(ROOT / "bench"))
from checkouts import rsplars_command  # noqa: E402
from recording import results_path, revision  # noqa: E402

#: (engine, query, query file, recorded answer file or None, published verdict: True = pass)
CELLS = [
    ("csparql", "Q1", "q1", "csparql-answer-1.json", True),
    ("csparql", "Q2", "q2", "csparql-answer-2.json", True),
    ("csparql", "Q3", "q3", "csparql-answer-3.json", True),
    ("csparql", "Q4", "q4", "csparql-answer-4.json", True),
    ("csparql", "Q5", "q5", "csparql-answer-5.json", False),
    ("csparql", "Q6", "q6-5s", "csparql-answer-6.json", True),
    ("csparql", "Q7", "q7-value", "csparql-answer-7.json", True),
    ("cqels", "Q1", "q1", "cqels-answer-1.json", True),
    ("cqels", "Q2", "q2", "cqels-answer-2.json", True),
    ("cqels", "Q3", "q3", "cqels-answer-3.json", True),
    ("cqels", "Q4", "q4", "cqels-answer-4.json", False),
    ("cqels", "Q5", "q5", "cqels-answer-5.json", True),
    ("cqels", "Q6", "q6-5s-obs", "cqels-answer-6.json", False),
    ("cqels", "Q7", "q7", None, False),
    ("sparqlstream", "Q1", "q1", "sparqlstream-answer-1.json", True),
    ("sparqlstream", "Q2", "q2", "100sparqlstream-answer-2.json", True),
    ("sparqlstream", "Q3", "q3", "sparqlstream-answer-3.json", True),
    ("sparqlstream", "Q4", "q4", "sparqlstream-answer-4.json", False),
    ("sparqlstream", "Q5", "q5", "100sparqlstream-answer-5.json", True),
    ("sparqlstream", "Q6", "q6-5s", "sparqlstream-answer-6.json", True),
    ("sparqlstream", "Q7", "q7", "sparqlstream-answer-7.json", True),
]

MISSING = {
    ("cqels", "Q7"): "the oracle repository holds no cqels-answer-7.json",
}

#: the engines' properties (the oracle's csparql/cqels/sparqlstream.properties): report, R2S, empty relations
ENGINES = {
    "csparql": ("window-close", "rstream", "emit"),
    "cqels": ("content-change", "istream", "skip"),
    "sparqlstream": ("window-close", "rstream", "skip"),
}


def load() -> float:
    return os.getloadavg()[0]


# ------------------------------------------------------------------------------ rsplars check


def run_check(engine: str, query: str, answers: Path, stream: Path, stream_unit: str, *,
              ignore_timestamps: bool = True, cache: Path | None = None, checkout: Path | None = None) -> dict:
    """One ``rsplars check`` process; ``cache``: its user cache folder (``RSPLARS_CACHE_DIR``);
    ``checkout``: run that checkout's rsplars (default: this tree's)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if cache is not None:
        env["RSPLARS_CACHE_DIR"] = str(cache)
    with tempfile.TemporaryDirectory() as d:
        report = Path(d) / "report.json"
        argv = [*rsplars_command(checkout), "check", str(query), "--stream", f"{STREAM_IRI}={stream}",
                "--stream-time-unit", stream_unit, "--answers", str(answers), "--answers-time-unit", "ms",
                "--profile", engine, "--json", str(report)] + (["--ignore-timestamps"] if ignore_timestamps else [])
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode not in (0, 1):
            return {"wall_s": round(wall, 3), "error": done.stderr.strip()[-400:]}
        data = json.loads(report.read_text())
    return {"wall_s": round(wall, 3), "correct": data["correct"], "t0": data.get("matching_t0") or data.get("closest_t0"),
            "solver_runs": data.get("solver_runs")}


# ---------------------------------------------------------------- the oracle's definition, directly


def plain_query(text: str) -> tuple[str, int, int]:
    """The query without REGISTER and its window, and the window's α, β in seconds."""
    window = re.search(r"\[RANGE (\d+)s STEP (\d+)s\]", text)
    assert window, "a query of the bench has one [RANGE Ns STEP Ms] window"
    lines = [line for line in text.splitlines() if not line.startswith(("REGISTER", "FROM STREAM"))]
    return "\n".join(lines), int(window[1]), int(window[2])


def instants() -> dict[int, list]:
    import pyoxigraph

    out = {}
    for f in sorted((DATA / "data").glob("data_*.ttl")):
        k = int(f.stem.split("_")[1])
        out[k] = list(pyoxigraph.parse(f.read_bytes(), pyoxigraph.RdfFormat.TURTLE))
    return out


def term_key(term) -> tuple:
    import pyoxigraph

    if isinstance(term, pyoxigraph.NamedNode):
        return ("iri", term.value)
    if isinstance(term, pyoxigraph.BlankNode):
        return ("bnode",)
    try:
        return ("num", float(term.value))
    except ValueError:
        return ("lit", term.value, term.language or (term.datatype.value if term.datatype else None))


def json_key(x: dict) -> tuple:
    if x["type"] == "uri":
        return ("iri", x["value"])
    if x["type"] == "bnode":
        return ("bnode",)
    try:
        return ("num", float(x["value"]))
    except ValueError:
        return ("lit", x["value"], x.get("xml:lang") or x.get("datatype"))


def recorded(path: Path) -> list[frozenset]:
    out = []
    for rel in json.loads(path.read_text())["relations"]:
        rows = set()
        for b in rel["results"]["bindings"]:
            b = b.get("binding", b)
            rows.add(frozenset((v, json_key(x)) for v, x in b.items()))
        out.append(frozenset(rows))
    return out


def oracle(engine: str, query_text: str, graphs: dict[int, list], actual: list[frozenset]) -> dict:
    import pyoxigraph

    query, alpha, beta = plain_query(query_text)
    report, r2s, empty = ENGINES[engine]
    last = max(graphs)
    cache: dict[tuple, frozenset] = {}

    def answer(content: tuple[int, ...]) -> frozenset:
        got = cache.get(content)
        if got is None:
            store = pyoxigraph.Store()
            store.extend(pyoxigraph.Quad(t.subject, t.predicate, t.object) for k in content for t in graphs[k])
            result = store.query(query)
            got = cache[content] = frozenset(frozenset((v.value, term_key(s[v])) for v in result.variables
                                                       if s[v] is not None) for s in result)
        return got

    start = time.perf_counter()
    matching = None
    for t0 in range(0, max(beta - 1, alpha) + 1):
        contents = []
        if report == "window-close":
            c = t0 + alpha
            while c <= last + alpha + beta:
                content = tuple(k for k in range(c - alpha, c) if k in graphs)
                if content:  # the non-empty-content guard of all three engines' properties
                    contents.append(content)
                c += beta
        else:  # content change: the window holding t, cut at t, once per instant with data
            for t in sorted(k for k in graphs if k >= t0):
                o = t0 + max(0, (t - t0 - alpha) // beta + 1) * beta
                contents.append(tuple(k for k in range(o, t + 1) if k in graphs))
        expected, previous = [], frozenset()
        for content in contents:
            rows = answer(content)
            out = rows - previous if r2s == "istream" else rows
            previous = rows
            if out or empty == "emit":
                expected.append(out)
        n = len(actual)
        if any(expected[i:i + n] == actual for i in range(len(expected) - n + 1)):
            matching = t0
            break
    return {"wall_s": round(time.perf_counter() - start, 3), "correct": matching is not None, "t0": matching,
            "distinct_contents": len(cache)}


# ------------------------------------------------------------------------------------ 1M triples


def million(folder: Path, repeats: int = 66) -> tuple[Path, Path, int]:
    """The CSRBench stream repeated with fresh IRIs and shifted times, and C-SPARQL's Q1 output on it."""
    sys.path.insert(0, str(ROOT / "tests" / "check"))
    from csrbench_data import stream_lines

    base = stream_lines()
    hot = []  # (t ms, sensor, obs) of the temperatures > 80 of the base stream
    value = {}
    for line in base:
        if "#floatValue>" in line:
            m = re.match(r'<([^>]*)> <[^>]*> "([^"]*)"', line)
            value[m[1]] = float(m[2])
    result_of, sensor_of, temperature = {}, {}, set()
    for line in base:
        s, p, o = line.split(" ", 2)
        if p.endswith("#result>"):
            result_of[s[1:-1]] = o.split(" ")[0][1:-1]
        elif p.endswith("#procedure>"):
            sensor_of[s[1:-1]] = o.split(" ")[0][1:-1]
        elif p.endswith("#observedProperty>") and "_AirTemperature" in o:
            temperature.add((s[1:-1], int(line.rsplit('"', 2)[-2])))
    for obs, t in temperature:
        if value.get(result_of[obs], 0) > 80:
            hot.append((t, sensor_of[obs], obs))
    stream = folder / "million.nt"
    count = 0
    with stream.open("w") as f:
        for k in range(repeats):
            shift = k * 34000
            suffix = f"_r{k}"
            for line in base:
                body, t = line.rsplit(' "', 1)
                body = re.sub(r"(ssw/(?:Observation|MeasureData|Instant)_[A-Za-z0-9_]*?_\d\d_\d\d_\d\d)>",
                              rf"\1{suffix}>", body)
                f.write(f'{body} "{int(t[:-3]) + shift}" .\n')
                count += 1
    windows: dict[int, list] = {}
    last = (repeats * 34 - 1)
    for c in range(10, last + 10 + 10 + 1, 10):
        if c - 10 <= last:
            windows[c] = []
    for k in range(repeats):
        for t, sensor, obs in hot:
            s = (t + k * 34000) // 1000
            windows[(s // 10 + 1) * 10].append({"sensor": {"type": "uri", "value": sensor},
                                                "obs": {"type": "uri", "value": f"{obs}_r{k}"}})
    answers = folder / "million-answers.json"
    answers.write_text(json.dumps({"relations": [{"timestamp": c * 1000, "results": {"bindings": b}}
                                                 for c, b in sorted(windows.items())]}))
    return stream, answers, count


# ------------------------------------------------------------------------------------------ main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the cells only, no 1M-triple stream")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="also run the rsplars of this checkout (warm)")
    args = parser.parse_args()
    graphs = instants()
    cells = []
    for engine, name, query, answers, published in CELLS:
        cell = {"engine": engine, "query": name, "query_file": f"{query}.rq", "published": published,
                "load_before": round(load(), 2)}
        if answers is None:
            cell["missing"] = MISSING[(engine, name)]
            cells.append(cell)
            print(f"{engine:13} {name}: no recorded answers ({cell['missing']})", flush=True)
            continue
        cell["answers"] = answers
        path = DATA / "answers" / answers
        text = (DATA / "queries" / f"{query}.rq").read_text()
        with tempfile.TemporaryDirectory() as cache:  # a cache folder of the cell's own, empty at first
            folder = Path(cache) / "rsplars"
            cell_args = (engine, DATA / "queries" / f"{query}.rq", path, DATA / "data", "s")
            cell["rsplars_first"] = run_check(*cell_args, cache=folder)
            for entry in folder.glob("turtle-folder-*"):
                entry.unlink()  # the stream read as new data; the query and the parse tables stay cached
            cell["rsplars_cold"] = run_check(*cell_args, cache=folder)
            cell["rsplars"] = run_check(*cell_args, cache=folder)
        if args.against:
            with tempfile.TemporaryDirectory() as cache:
                folder = Path(cache) / "rsplars"
                run_check(*cell_args, cache=folder, checkout=args.against)  # fills its cache
                cell["against"] = run_check(*cell_args, cache=folder, checkout=args.against)
        if len({cell[k].get("correct") for k in ("rsplars_first", "rsplars_cold", "rsplars")}) != 1:
            cell["rsplars"]["error"] = "the verdict from the cache differs from the verdict without it"
        cell["oracle"] = oracle(engine, text, graphs, recorded(path))
        cells.append(cell)
        r, o = cell["rsplars"], cell["oracle"]
        print(f"{engine:13} {name}: published {'pass' if published else 'fail'}; rsplars "
              f"{r.get('correct')} in {cell['rsplars_first']['wall_s']} s first, {cell['rsplars_cold']['wall_s']} s "
              f"cold, {r['wall_s']} s warm; "
              f"oracle {o['correct']} in {o['wall_s']} s", flush=True)
    timed = [c["rsplars"]["wall_s"] for c in cells if "rsplars" in c]
    cold = [c["rsplars_cold"]["wall_s"] for c in cells if "rsplars_cold" in c]
    first = [c["rsplars_first"]["wall_s"] for c in cells if "rsplars_first" in c]
    result = {
        "benchmark": "check_bench",
        **revision(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cells": cells,
        "measured": ("whole process, three times per cell with a user cache folder of the cell's own: "
                     "rsplars_first with the folder empty (the Turtle files, the query and the parse tables "
                     "parsed and stored), rsplars_cold with the stream's entry removed (new data: the Turtle "
                     "files parsed, the query and the parse tables from the cache), rsplars with the folder "
                     "filled (warm: a judgement of data read before)"),
        "python_bytecode_cache": "off (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on",
        "cells_judged": len(timed),
        "rsplars_total_s": round(sum(timed), 3),
        "rsplars_max_s": max(timed),
        "rsplars_cold_total_s": round(sum(cold), 3),
        "rsplars_cold_max_s": max(cold),
        "rsplars_first_total_s": round(sum(first), 3),
        "rsplars_first_max_s": max(first),
        "oracle_total_s": round(sum(c["oracle"]["wall_s"] for c in cells if "oracle" in c), 3),
        **({"against": {**revision(args.against),
                        "total_s": round(sum(c["against"]["wall_s"] for c in cells if "against" in c), 3),
                        "same_verdicts": all(c["against"].get("correct") == c["rsplars"].get("correct")
                                             for c in cells if "against" in c)}} if args.against else {}),
        "targets": {"cell_s": 2, "all_cells_s": 30, "million_s": 60},
    }
    if not args.quick:
        with tempfile.TemporaryDirectory() as d:
            start = time.perf_counter()
            stream, answers, count = million(Path(d))
            generated = time.perf_counter() - start
            got = run_check("csparql", DATA / "queries" / "q1.rq", answers, stream, "ms", ignore_timestamps=False,
                            cache=Path(d) / "cache")  # an N-Triples file: its elements are read, not cached
            other = run_check("csparql", DATA / "queries" / "q1.rq", answers, stream, "ms", ignore_timestamps=False,
                              cache=Path(d) / "cache-against", checkout=args.against) if args.against else None
        result["million"] = {"triples": count, "generate_s": round(generated, 3), "load_before": round(load(), 2),
                             **got, **({"against": other} if other else {})}
        print(f"1M triples ({count:,}): rsplars check {got.get('correct')} in {got['wall_s']} s"
              + (f"; against {result['against']['commit']}: {other.get('correct')} in {other['wall_s']} s" if other else ""),
              flush=True)
    out = results_path("check_bench", "quick" if args.quick else "")
    out.write_text(json.dumps(result, indent=2) + "\n")
    if args.against:
        print(f"cells, warm, in all: rsplars {result['rsplars_total_s']} s, against {result['against']['commit']} "
              f"{result['against']['total_s']} s; same verdicts: {result['against']['same_verdicts']}")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
