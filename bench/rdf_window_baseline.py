"""The pyoxigraph window baseline of ``bench/fresh_bench.py`` for ``rsplars run`` (not a test).

What a user would otherwise write for a C-SPARQL query ``[RANGE L STEP D]`` pulled every D: keep
the window's triples in a pyoxigraph ``Store`` — add the triples of each new time point, remove
those that left the window ``[t − L, t]`` (closed bounds, rsplars' default, D2; a triple present at
several time points of the window is removed when its last occurrence leaves) — and ask the same
SPARQL query (the query without its window clause) at every pull time. It prints the answers as
``rsplars run`` does (``{"t": t, "answers": [{var: N-Triples term}]}`` per line), so the two can be
compared time point by time point.

    python bench/rdf_window_baseline.py STREAM.nt[,STREAM2.nt…] RANGE STEP QUERY.rq [--static FILE.nt] > answers.jsonl

The stream is timestamped N-Triples with integer timestamps (``S P O "T" .``, docs/rdf-io.md §2.1),
in the same unit as RANGE and STEP; pull times run from the first to the last time point (D4: time
0 is a pull time). Several streams (comma-separated) with the same window are merged into the one
window, as C-SPARQL merges its streams' windows into the default graph (τ1); ``--static`` triples
are in the default graph at all times (the query's ``FROM <…>`` clauses are removed, as its
``FROM STREAM`` clauses, since the store's default graph is the dataset).

The module also holds the benchmark case (:func:`bench`): an SRBench-style stream — observations
with 4 triples each (type, procedure, observed property, float value), every observation a new
IRI — and a query with a FILTER on the float value. The float values are written in their
canonical lexical form with a non-zero decimal (``36.8``): oxigraph stores numeric literals as
numbers and would print ``"37.0"^^xsd:float`` back as ``"37"``, a different RDF term, while rsplars
keeps every term as written (D7).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

_LINE = re.compile(r'^(.*\S)\s+"(-?\d+)"(?:\^\^<[^>]*>)?\s*\.?\s*$')

E = "http://example.org/srbench/"
QUERY = f"""REGISTER QUERY hot AS
SELECT ?sensor ?obs ?value
FROM STREAM <{E}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{E}procedure> ?sensor .
        ?obs <{E}floatValue> ?value .
        FILTER (?value > 30.5) }}
"""
WINDOWLESS = f"""SELECT ?sensor ?obs ?value
WHERE {{ ?obs <{E}procedure> ?sensor .
        ?obs <{E}floatValue> ?value .
        FILTER (?value > 30.5) }}
"""


# Variants of the query on the same stream (besides the main target, QUERY): other window
# sizes and steps, more triple patterns, OPTIONAL, UNION, a FILTER that keeps most observations.
# (name: RANGE, STEP, SELECT variables, WHERE body)
_PAIR = f"?obs <{E}procedure> ?sensor . ?obs <{E}floatValue> ?value ."
VARIANTS = {
    "wide_filter": ("10s", "1s", "?sensor ?obs ?value", f"{_PAIR} FILTER (?value > -5.0)"),
    "three_patterns": ("10s", "1s", "?sensor ?obs ?value ?p",
                       f"{_PAIR} ?obs <{E}observedProperty> ?p . FILTER (?value > 30.5 && ?value < 35.0)"),
    "optional": ("10s", "1s", "?sensor ?obs ?value ?p",
                 f"{_PAIR} OPTIONAL {{ ?obs <{E}observedProperty> ?p }} FILTER (?value > 30.5)"),
    "union": ("10s", "1s", "?sensor ?obs ?value",
              f"{{ {_PAIR} FILTER (?value > 35.5) }} UNION {{ {_PAIR} FILTER (?value < -8.5) }}"),
    "range30_step1": ("30s", "1s", "?sensor ?obs ?value", f"{_PAIR} FILTER (?value > 30.5)"),
    "range60_step5": ("60s", "5s", "?sensor ?obs ?value", f"{_PAIR} FILTER (?value > 30.5)"),
    "tumbling5": ("5s", "5s", "?sensor ?obs ?value", f"{_PAIR} FILTER (?value > 30.5)"),
}
# the main query on a stream whose values have 4 decimals: nearly every FILTER test on a new value
VARIANTS["fresh_values"] = ("10s", "1s", "?sensor ?obs ?value", f"{_PAIR} FILTER (?value > 30.5)")


def variant_query(name: str) -> str:
    range_, step, select, body = VARIANTS[name]
    return f"""REGISTER QUERY {name} AS
SELECT {select}
FROM STREAM <{E}stream> [RANGE {range_} STEP {step}]
WHERE {{ {body} }}
"""


def write_srbench(path: Path, seconds: int, per_second: int, seed: int = 1, decimals: int = 1) -> int:
    """Observations ``<obs/i>``, 4 triples each, ``per_second`` per second; returns the triples.
    ``decimals``: the digits after the point of the values (1: about 500 distinct values, which
    recur; 4: nearly every value new, as real measurements are)."""
    rnd = random.Random(seed)
    i = 0
    with open(path, "w", encoding="utf-8") as f:
        for t in range(seconds):
            for _ in range(per_second):
                o = f"<{E}obs/{i}>"
                i += 1
                # written in xsd:float's canonical form with a non-zero last decimal: oxigraph
                # stores floats as numbers and gives "37.0" back as "37", rsplars keeps the
                # lexical form (at most 6 significant digits: the text is the float's shortest)
                if decimals == 1:
                    value = round(rnd.uniform(-10.0, 40.0), 1)
                    if value == int(value):
                        value += 0.1 if value >= 0 else -0.1
                        value = round(value, 1)
                else:
                    value = f"{rnd.uniform(-10.0, 40.0):.{decimals}f}"
                    if value.endswith("0"):
                        value = value[:-1] + "1"
                sensor = rnd.randrange(50)
                f.write(f'{o} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{E}Observation> "{t}" .\n')
                f.write(f'{o} <{E}procedure> <{E}sensor/{sensor}> "{t}" .\n')
                f.write(f'{o} <{E}observedProperty> <{E}AirTemperature> "{t}" .\n')
                f.write(f'{o} <{E}floatValue> "{value}"^^<http://www.w3.org/2001/XMLSchema#float> "{t}" .\n')
    return 4 * seconds * per_second


def main(argv: list[str]) -> int:
    from pyoxigraph import RdfFormat, Store, parse

    static_path = None
    if "--static" in argv:
        i = argv.index("--static")
        static_path = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    stream_paths, range_, step, query_path = argv
    width, period = int(range_), int(step)
    text = Path(query_path).read_text(encoding="utf-8")
    query = re.sub(r"(?is)^.*?\bSELECT\b", "SELECT", text, count=1)
    query = re.sub(r"(?i)FROM\s+STREAM\s+<[^>]*>\s*\[[^\]]*\]", "", query)
    query = re.sub(r"(?i)FROM\s+<[^>]*>", "", query)
    by_time: dict[int, list[str]] = defaultdict(list)
    for stream_path in stream_paths.split(","):
        with open(stream_path, encoding="utf-8") as f:
            for line in f:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                m = _LINE.match(line)
                if m is None:
                    raise SystemExit(f"rdf_window_baseline: cannot read {line!r}")
                by_time[int(m.group(2))].append(m.group(1) + " .\n")
    if not by_time:
        return 0
    store = Store()
    count: Counter = Counter()
    if static_path:  # counted once more: a stream triple leaving the window never removes it
        for q in parse(Path(static_path).read_text(encoding="utf-8"), format=RdfFormat.N_TRIPLES):
            if count[q] == 0:
                store.add(q)
            count[q] += 1
    triples_at: dict[int, list] = {}
    first, last = min(by_time), max(by_time)
    last += -(last - first) % period  # as rsplars run: up to the last input rounded up to a pull time
    out = sys.stdout
    for t in range(first, last + 1):
        new = list(parse("".join(by_time.pop(t, ())), format=RdfFormat.N_TRIPLES)) if t in by_time else []
        triples_at[t] = new
        for q in new:
            if count[q] == 0:
                store.add(q)
            count[q] += 1
        for u in [u for u in triples_at if u < t - width]:
            for q in triples_at.pop(u):
                count[q] -= 1
                if count[q] == 0:
                    del count[q]
                    store.remove(q)
        if (t - first) % period:
            continue
        answers = []
        solutions = store.query(query)
        names = [v.value for v in solutions.variables]
        for row in solutions:
            answers.append({n: str(row[n]) for n in names if row[n] is not None})
        out.write(json.dumps({"t": t, "answers": answers}, ensure_ascii=False) + "\n")
    return 0


def canonical(jsonl: str) -> dict[int, list]:
    """``{t: sorted rows}`` of a jsonl answer file (rows as sorted (var, term) tuples)."""
    out = {}
    for line in jsonl.splitlines():
        if line.strip():
            record = json.loads(line)
            out[record["t"]] = sorted(tuple(sorted(row.items())) for row in record["answers"])
    return out


def bench(d: Path, quick: bool, measure, engine: str = "auto") -> dict:
    """``rsplars run`` against this baseline on the SRBench-style stream; memory at 4× the length."""
    root = Path(__file__).resolve().parent.parent
    py = sys.executable
    lars_engine = engine
    seconds, per = (60, 30) if quick else (600, 30)
    query = d / "srbench.rq"
    query.write_text(QUERY)
    print(f"rsplars run (--lars-engine {engine}) vs pyoxigraph window baseline: SRBench-style stream, {seconds} s x {per} observations x 4 triples")

    def run_cmd(stream: Path) -> list[str]:
        return [py, "-m", "translator", "run", str(query), "--stream", f"{E}stream={stream}", "--unit", "s", "--lars-engine", lars_engine]

    # memory first: a child's peak RSS counts the pages it shares with this process when forked,
    # which grows with the answers read back for the comparisons
    mem = []
    short = seconds // 4
    for n in (short, seconds):
        path = d / f"srbench_{n}.nt"
        write_srbench(path, n, per, seed=2)
        r = measure(run_cmd(path))
        r.update(seconds_of_stream=n, triples=4 * n * per)
        mem.append(r)
        print(f"  memory: {n:5} s of stream: {r['seconds']:7.2f} s, peak {r['peak_mib']:7.1f} MiB", flush=True)
    mem_ratio = mem[1]["peak_mib"] / mem[0]["peak_mib"]
    print(f"  rsplars run peak RSS ratio 4x longer / shorter: {mem_ratio:.2f} (target <= 1.2)")
    stream = d / "srbench.nt"
    triples = write_srbench(stream, seconds, per)
    base_cmd = [py, str(root / "bench" / "rdf_window_baseline.py"), str(stream), "10", "1", str(query)]
    engine = measure(run_cmd(stream), save=d / "run_answers.jsonl")
    base = measure(base_cmd, save=d / "oxigraph_answers.jsonl")
    got = canonical((d / "run_answers.jsonl").read_text())
    identical = got == canonical((d / "oxigraph_answers.jsonl").read_text())
    ratio = base["seconds"] / engine["seconds"]
    print(f"  rsplars run {triples / engine['seconds']:>10,.0f} triples/s {engine['seconds']:7.2f} s {engine['peak_mib']:7.1f} MiB | "
          f"pyoxigraph {triples / base['seconds']:>10,.0f} triples/s {base['seconds']:7.2f} s | ratio {ratio:5.2f}x | answers {'identical' if identical else 'DIFFER'} at every time point "
          f"({len(got)} time points, {sum(map(len, got.values()))} rows)", flush=True)
    variants = []
    fresh_values = d / "srbench_fresh_values.nt"
    write_srbench(fresh_values, seconds, per, decimals=4)
    for name, (range_, step, _, _) in VARIANTS.items():
        vq = d / f"{name}.rq"
        vq.write_text(variant_query(name))
        source = fresh_values if name == "fresh_values" else stream
        cmd = run_cmd(source)
        cmd[cmd.index(str(query))] = str(vq)
        mine = measure(cmd, save=d / f"{name}.run.jsonl")
        theirs = measure([py, str(root / "bench" / "rdf_window_baseline.py"), str(source), range_[:-1], step[:-1], str(vq)],
                         save=d / f"{name}.oxigraph.jsonl")
        got_v = canonical((d / f"{name}.run.jsonl").read_text())
        same = got_v == canonical((d / f"{name}.oxigraph.jsonl").read_text())
        r = theirs["seconds"] / mine["seconds"]
        variants.append({"variant": name, "range": range_, "step": step, "rsplars": mine, "baseline": theirs,
                         "ratio": r, "identical_answers": same, "rows": sum(map(len, got_v.values()))})
        print(f"  variant {name:15} [RANGE {range_:>3} STEP {step}] rsplars {mine['seconds']:6.2f} s | pyoxigraph {theirs['seconds']:6.2f} s | "
              f"ratio {r:5.2f}x | answers {'identical' if same else 'DIFFER'} ({sum(map(len, got_v.values()))} rows)", flush=True)
    return {
        "case": f"run srbench {seconds}s x {per} obs",
        "triples": triples,
        "rsplars": engine,
        "baseline": base,
        "rsplars_triples_per_s": triples / engine["seconds"],
        "baseline_triples_per_s": triples / base["seconds"],
        "ratio": ratio,
        "identical_answers": identical,
        "memory": {"runs": mem, "ratio": mem_ratio},
        "variants": variants,
        "targets": [
            ("run srbench >= 1x pyoxigraph baseline", ratio >= 1.0, ratio),
            ("run answers identical to pyoxigraph at every time point", identical, 1.0 if identical else 0.0),
            ("run peak RSS 4x stream <= 1.2x", mem_ratio <= 1.2, mem_ratio),
            *((f"run variant {v['variant']} >= 1x pyoxigraph baseline (robustness, not an issue target)", v["ratio"] >= 1.0, v["ratio"])
              for v in variants),
            ("run variants' answers identical to pyoxigraph at every time point", all(v["identical_answers"] for v in variants),
             1.0 if all(v["identical_answers"] for v in variants) else 0.0),
        ],
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
