"""The pyoxigraph window baseline of ``bench/fresh_bench.py`` for ``rsplars run`` (not a test).

What a user would otherwise write for a C-SPARQL query ``[RANGE L STEP D]`` pulled every D: keep
the window's triples in a pyoxigraph ``Store`` — add the triples of each new time point, remove
those that left the window ``[t − L, t]`` (closed bounds, rsplars' default, D2; a triple present at
several time points of the window is removed when its last occurrence leaves) — and ask the same
SPARQL query (the query without its window clause) at every pull time. It prints the answers as
``rsplars run`` does (``{"t": t, "answers": [{var: N-Triples term}]}`` per line), so the two can be
compared time point by time point.

    python bench/rdf_window_baseline.py STREAM.nt[,STREAM2.nt…] RANGE STEP QUERY.rq [--static FILE.nt] [--fresh-store] > answers.jsonl

``--fresh-store``: the other way a user would write it: the window's triples (each time point's
parsed once) loaded into a new ``Store`` at every pull time, nothing ever removed. Which of the two
is faster depends on the stream: pyoxigraph's store slows down as triples are added and removed
over a long run, a fresh store pays for loading the whole window at every pull. The benchmarks
compare ``rsplars run`` with the faster of the two.

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
from itertools import zip_longest
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

    fresh = "--fresh-store" in argv
    argv = [a for a in argv if a != "--fresh-store"]
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
    if fresh:
        return _fresh_stores(by_time, width, period, query, static_path)
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


def _fresh_stores(by_time: dict[int, list[str]], width: int, period: int, query: str, static_path: str | None) -> int:
    """``--fresh-store``: the window's triples (each time point's parsed once, when it arrives)
    loaded into a new ``Store`` at every pull time and queried there; nothing is ever removed."""
    from pyoxigraph import RdfFormat, Store, parse

    static = list(parse(Path(static_path).read_text(encoding="utf-8"), format=RdfFormat.N_TRIPLES)) if static_path else []
    triples_at: dict[int, list] = {}
    first, last = min(by_time), max(by_time)
    last += -(last - first) % period
    out = sys.stdout
    for t in range(first, last + 1):
        triples_at[t] = list(parse("".join(by_time.pop(t, ())), format=RdfFormat.N_TRIPLES)) if t in by_time else []
        for u in [u for u in triples_at if u < t - width]:
            del triples_at[u]
        if (t - first) % period:
            continue
        store = Store()
        store.extend(static)
        for quads in triples_at.values():
            store.extend(quads)
        solutions = store.query(query)
        names = [v.value for v in solutions.variables]
        answers = [{n: str(row[n]) for n in names if row[n] is not None} for row in solutions]
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


def same_answers(mine: Path, theirs: Path) -> tuple[bool, int, int]:
    """(equal at every time point, time points, rows) of two answer files, read line by line
    (a 7,200,000-triple run's answers do not fit in memory as rows): the same times in the same
    order, and at each the same rows as sets."""
    times = rows = 0
    with open(mine, encoding="utf-8") as a, open(theirs, encoding="utf-8") as b:
        for x, y in zip_longest(a, b):
            if x is None or y is None:
                return False, times, rows
            got, want = canonical(x), canonical(y)
            if got != want:
                return False, times, rows
            times += 1
            rows += sum(map(len, got.values()))
    return True, times, rows


#: the kept-store baseline is left out above this many triples: pyoxigraph's store slows down as
#: triples are added and removed (at 720,000 triples it took 4.8x the fresh store's time, 53 s
#: against 11 s, on the machine of docs/performance.md), so it is never the faster one there
KEPT_STORE_MAX_TRIPLES = 1_000_000


def bench(d: Path, quick: bool, measure, engine: str = "auto", lengths: tuple[int, ...] = (), variants: bool = True) -> dict:
    """``rsplars run`` against both baselines (the window kept in one store, a fresh store per
    evaluation) on the SRBench-style stream; memory at 4x the length; ``lengths``: further stream
    lengths (seconds of stream, 30 observations per second) of the main query, each against the
    faster baseline, with the peak RSS of each run (``bench/peak_rss.py``)."""
    root = Path(__file__).resolve().parent.parent
    py = sys.executable
    lars_engine = engine
    seconds, per = (60, 30) if quick else (600, 30)
    query = d / "srbench.rq"
    query.write_text(QUERY)
    print(f"rsplars run (--lars-engine {engine}) vs pyoxigraph window baselines: SRBench-style stream, {seconds} s x {per} observations x 4 triples")

    def run_cmd(stream: Path, q: Path = query) -> list[str]:
        return [py, "-m", "translator", "run", str(q), "--stream", f"{E}stream={stream}", "--unit", "s", "--lars-engine", lars_engine]

    def base_cmd(stream: Path, q: Path = query, range_: str = "10", step: str = "1") -> list[str]:
        return [py, str(root / "bench" / "rdf_window_baseline.py"), str(stream), range_, step, str(q)]

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

    def compare(label: str, stream: Path, triples: int, q: Path = query, range_: str = "10", step: str = "1",
                launcher: list[str] | None = None) -> dict:
        """rsplars run, the kept store and the fresh store, one after the other; the ratio to the faster."""
        tag = stream.stem + "." + q.stem
        wrap = (lambda cmd, name: [*launcher, str(d / f"{tag}.{name}.usage.json"), *cmd]) if launcher else (lambda cmd, name: cmd)
        engine_r = measure(wrap(run_cmd(stream, q), "rsplars"), save=d / f"{tag}.run.jsonl")
        sides = {}
        if triples <= KEPT_STORE_MAX_TRIPLES:
            sides["kept store"] = measure(wrap(base_cmd(stream, q, range_, step), "kept"), save=d / f"{tag}.kept.jsonl")
        sides["fresh store"] = measure(wrap([*base_cmd(stream, q, range_, step), "--fresh-store"], "fresh"),
                                       save=d / f"{tag}.fresh.jsonl")
        if launcher:  # the peaks of the commands themselves
            for name, r in (("rsplars", engine_r), ("kept", sides.get("kept store")), ("fresh", sides["fresh store"])):
                if r is not None:
                    r["peak_mib"] = json.loads((d / f"{tag}.{name}.usage.json").read_text())["peak_kib"] / 1024
        checks = {name: same_answers(d / f"{tag}.run.jsonl", d / f"{tag}.{'kept' if name == 'kept store' else 'fresh'}.jsonl")
                  for name in sides}
        identical = all(ok for ok, _, _ in checks.values())
        times, rows = next(iter(checks.values()))[1:]
        faster = min(sides, key=lambda name: sides[name]["seconds"])
        ratio = sides[faster]["seconds"] / engine_r["seconds"]
        for f in d.glob(f"{tag}.*.jsonl"):
            f.unlink()
        print(f"  {label:22} rsplars {engine_r['seconds']:8.2f} s {engine_r['peak_mib']:7.1f} MiB | "
              + " | ".join(f"{name} {r['seconds']:8.2f} s" for name, r in sides.items())
              + f" | ratio to the faster ({faster}) {ratio:5.2f}x | answers {'identical' if identical else 'DIFFER'} "
              f"at every time point ({times} time points, {rows} rows)", flush=True)
        return {"case": label, "triples": triples, "rsplars": engine_r, "baselines": sides, "faster_baseline": faster,
                "rsplars_triples_per_s": triples / engine_r["seconds"],
                "baseline_triples_per_s": triples / sides[faster]["seconds"], "ratio": ratio,
                "identical_answers": identical, "time_points": times, "rows": rows,
                **({} if "kept store" in sides else {"kept_store_left_out": f"more than {KEPT_STORE_MAX_TRIPLES:,} triples "
                                                     "(KEPT_STORE_MAX_TRIPLES: never the faster baseline there)"})}

    stream = d / "srbench.nt"
    triples = write_srbench(stream, seconds, per)
    main_row = compare(f"{triples:,} triples", stream, triples)
    longer = []
    for n in lengths:
        path = d / f"srbench_long_{n}.nt"
        got = write_srbench(path, n, per)
        longer.append(compare(f"{got:,} triples", path, got, launcher=[py, str(root / "bench" / "peak_rss.py")]))
        path.unlink()
    rows_v = []
    if variants:
        fresh_values = d / "srbench_fresh_values.nt"
        write_srbench(fresh_values, seconds, per, decimals=4)
        for name, (range_, step, _, _) in VARIANTS.items():
            vq = d / f"{name}.rq"
            vq.write_text(variant_query(name))
            source = fresh_values if name == "fresh_values" else stream
            row = compare(f"variant {name}", source, triples, vq, range_[:-1], step[:-1])
            row.update(variant=name, range=range_, step=step)
            rows_v.append(row)
    targets = [
        ("run srbench >= 1x the faster pyoxigraph baseline", main_row["ratio"] >= 1.0, main_row["ratio"]),
        ("run answers identical to pyoxigraph at every time point", main_row["identical_answers"], 1.0 if main_row["identical_answers"] else 0.0),
        ("run peak RSS 4x stream <= 1.2x", mem_ratio <= 1.2, mem_ratio),
    ]
    for row in longer:
        targets += [(f"run srbench {row['triples']:,} triples >= 3x the faster pyoxigraph baseline", row["ratio"] >= 3.0, row["ratio"]),
                    (f"run srbench {row['triples']:,} triples: answers identical at every time point", row["identical_answers"],
                     1.0 if row["identical_answers"] else 0.0)]
    if len(longer) >= 2:
        peak = longer[-1]["rsplars"]["peak_mib"] / longer[0]["rsplars"]["peak_mib"]
        targets.append((f"run peak RSS {longer[-1]['triples']:,} / {longer[0]['triples']:,} triples <= 1.2x", peak <= 1.2, peak))
    targets += [(f"run variant {v['variant']} >= 1x the faster pyoxigraph baseline (robustness, beyond the stated targets)", v["ratio"] >= 1.0, v["ratio"])
                for v in rows_v]
    if rows_v:
        same = all(v["identical_answers"] for v in rows_v)
        targets.append(("run variants' answers identical to pyoxigraph at every time point", same, 1.0 if same else 0.0))
    return {**main_row, "case": f"run srbench {seconds}s x {per} obs", "memory": {"runs": mem, "ratio": mem_ratio},
            "lengths": longer, "variants": rows_v, "targets": targets}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
