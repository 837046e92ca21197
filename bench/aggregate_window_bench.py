"""SPARQL aggregates over a sliding window: ``rsplars run`` against the pyoxigraph window baseline
(``bench/rdf_window_baseline.py``), whole process, on the SRBench-style stream of fresh
observation IRIs (not a test).

    python bench/aggregate_window_bench.py [--seconds 1200] [--per 30] [--asp] [--dir DIR] [--output FILE]
                                           [--against CHECKOUT]

``--against CHECKOUT`` also runs another checkout's rsplars in the same run (``bench/checkouts.py``).

Results (wall and CPU seconds, peak RSS, ratios, the load average, the commit measured):
``bench/results/aggregate_window_bench.json``.

Queries (``[RANGE 10s STEP 1s]``, ``GROUP BY ?sensor``): AVG and COUNT; MIN, MAX and SUM;
COUNT, MIN, MAX with HAVING. Answers are compared at every time point as values: oxigraph
prints floats in another lexical form (``28.4`` where rsplars keeps xsd:float's canonical
``2.84E1``), and sums floats in another order (rsplars adds the exact decimal values and rounds
once, oxigraph accumulates in float), so floats agree within 1e-6 relative or 1e-5 absolute
(summands up to 40, float's epsilon 2^-23). ``--asp`` also times the clingo engine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from rdf_window_baseline import E, write_srbench  # noqa: E402
from checkouts import compile_trees, rsplars_command  # noqa: E402
from recording import results_path, revision  # noqa: E402

WHERE = f"""FROM STREAM <{E}stream> [RANGE 10s STEP 1s]
WHERE {{ ?obs <{E}procedure> ?sensor .
        ?obs <{E}floatValue> ?value . }}
GROUP BY ?sensor
"""
QUERIES = {
    "avg_count": "REGISTER QUERY a AS\nSELECT ?sensor (AVG(?value) AS ?avg) (COUNT(?obs) AS ?n)\n" + WHERE,
    "min_max_sum": "REGISTER QUERY m AS\nSELECT ?sensor (MIN(?value) AS ?lo) (MAX(?value) AS ?hi) (SUM(?value) AS ?total)\n" + WHERE,
    "count_having": "REGISTER QUERY c AS\nSELECT ?sensor (COUNT(?obs) AS ?n) (MIN(?value) AS ?lo) (MAX(?value) AS ?hi)\n" + WHERE
    + "HAVING (COUNT(?obs) > 6)\n",
}
_TYPED = re.compile(r'^"([^"]*)"\^\^<http://www.w3.org/2001/XMLSchema#(\w+)>$')


def _value(term: str):
    m = _TYPED.match(term)
    if not m:
        return term
    return float(m.group(1)) if m.group(2) in ("float", "double", "decimal") else int(m.group(1))


def values(path: Path) -> dict[int, list]:
    out = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        rows = [tuple(sorted((k, _value(v)) for k, v in row.items())) for row in record["answers"]]
        out[record["t"]] = sorted(rows, key=lambda r: repr([v for _, v in r if not isinstance(v, float)]))
    return out


def same_values(a: dict, b: dict) -> tuple[bool, int]:
    if a.keys() != b.keys():
        return False, 0
    rows = 0
    for t in a:
        if len(a[t]) != len(b[t]):
            return False, rows
        for x, y in zip(a[t], b[t]):
            rows += 1
            for (k1, v1), (k2, v2) in zip(x, y):
                if k1 != k2:
                    return False, rows
                if isinstance(v1, float) and isinstance(v2, float):
                    if abs(v1 - v2) > 1e-5 and abs(v1 - v2) > 1e-6 * max(abs(v1), abs(v2)):
                        return False, rows
                elif v1 != v2:
                    return False, rows
    return True, rows


REPEAT = 1  # --repeat: runs per command; the medians are reported


def timed(cmd: list[str], out: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of the whole process, measured
    by ``bench/peak_rss.py`` (a forked child of this process would report this process's size):
    the median wall and CPU time of ``REPEAT`` runs, and the largest peak."""
    runs = [_timed_once(cmd, out) for _ in range(REPEAT)]
    walls, cpus = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
    return walls[len(runs) // 2], cpus[len(runs) // 2], max(r[2] for r in runs)


def _timed_once(cmd: list[str], out: Path) -> tuple[float, float, float]:
    report = out.with_suffix(".usage.json")
    with out.open("w") as f:
        proc = subprocess.run([sys.executable, str(ROOT / "bench" / "peak_rss.py"), str(report), *cmd],
                              stdout=f, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr}")
    usage = json.loads(report.read_text())
    return usage["wall_s"], usage["cpu_s"], usage["peak_kib"] / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=1200,
                        help="stream length (default 1200: the baseline needs more than 10 s)")
    parser.add_argument("--per", type=int, default=30, help="observations per second")
    parser.add_argument("--asp", action="store_true", help="also time --lars-engine asp (clingo)")
    parser.add_argument("--dir", help="keep the files here (default: a temporary directory)")
    parser.add_argument("--output", help="default: bench/results/aggregate_window_bench[.NNNs][.PERper][.asp].json "
                        "(the parts for options other than the defaults)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="runs per command, medians reported (default 1)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="also run the rsplars of this checkout")
    args = parser.parse_args(argv)
    against = revision(args.against) if args.against else None
    global REPEAT
    REPEAT = max(1, args.repeat)
    load_before = os.getloadavg()
    results: list[dict] = []
    compile_trees(args.against)
    d = Path(args.dir or tempfile.mkdtemp(prefix="aggbench"))
    d.mkdir(parents=True, exist_ok=True)
    stream = d / "s.nt"
    triples = write_srbench(stream, args.seconds, args.per)
    print(f"SRBench-style stream: {args.seconds} s x {args.per} observations x 4 triples = {triples} triples (fresh IRIs)")
    py = sys.executable
    for name, text in QUERIES.items():
        query = d / f"{name}.rq"
        query.write_text(text)
        run = ["run", str(query), "--stream", f"{E}stream={stream}", "--unit", "s"]
        inc = timed([*rsplars_command(), *run, "--lars-engine", "incremental"], d / f"{name}.incremental.jsonl")
        base = timed([py, str(ROOT / "bench" / "rdf_window_baseline.py"), str(stream), "10", "1", str(query)], d / f"{name}.oxigraph.jsonl")
        ok, rows = same_values(values(d / f"{name}.incremental.jsonl"), values(d / f"{name}.oxigraph.jsonl"))
        row = {"query": name, "triples": triples, "rsplars": {"wall_s": inc[0], "cpu_s": inc[1], "peak_mib": inc[2]},
               "pyoxigraph": {"wall_s": base[0], "cpu_s": base[1], "peak_mib": base[2]},
               "ratio_wall": base[0] / inc[0], "ratio_cpu": base[1] / inc[1], "equal_values": ok, "rows": rows}
        results.append(row)
        if args.against:
            other = timed([*rsplars_command(args.against), *run, "--lars-engine", "incremental"], d / f"{name}.against.jsonl")
            row["against"] = {**against, "wall_s": other[0], "cpu_s": other[1], "peak_mib": other[2],
                              "ratio_wall": base[0] / other[0], "ratio_cpu": base[1] / other[1],
                              "equal_values": same_values(values(d / f"{name}.against.jsonl"),
                                                          values(d / f"{name}.incremental.jsonl"))[0]}
        line = (f"  {name:13} rsplars (incremental) {inc[0]:7.2f} s ({inc[1]:6.2f} s CPU) | pyoxigraph {base[0]:6.2f} s ({base[1]:5.2f} s CPU) | "
                f"ratio {base[0] / inc[0]:5.2f}x wall, {base[1] / inc[1]:5.2f}x CPU | "
                f"answers {'equal as values' if ok else 'DIFFER'} at every time point ({rows} rows)")
        if args.against:
            line += (f" | against {against['commit']}: {row['against']['wall_s']:7.2f} s, ratio "
                     f"{row['against']['ratio_wall']:5.2f}x wall, {row['against']['ratio_cpu']:5.2f}x CPU")
        if args.asp:
            asp = timed([*rsplars_command(), *run, "--lars-engine", "asp"], d / f"{name}.asp.jsonl")
            same = (d / f"{name}.asp.jsonl").read_bytes() == (d / f"{name}.incremental.jsonl").read_bytes()
            line += (f" | clingo {asp[0]:7.2f} s ({asp[1]:6.2f} s CPU; incremental {asp[1] / inc[1]:4.1f}x less CPU), "
                     f"output {'byte-identical' if same else 'DIFFERENT'}")
            row["clingo"] = {"wall_s": asp[0], "cpu_s": asp[1], "peak_mib": asp[2], "byte_identical": same}
        print(line, flush=True)
    out = Path(args.output) if args.output else results_path(
        "aggregate_window_bench", f"{args.seconds}s" if args.seconds != 1200 else "",
        f"{args.per}per" if args.per != 30 else "", "asp" if args.asp else "")
    out.write_text(json.dumps({**revision(), "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                                             "load_before": load_before, "load_after": os.getloadavg(),
                                             "seconds": args.seconds, "per": args.per, "repeat": REPEAT, "cases": results}, indent=2) + "\n")
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
