"""CityBench queries as written (C-SPARQL), on CityBench-style streams of fresh observation IRIs and
a static sensor repository: ``rsplars run`` against the faster of the two pyoxigraph window
baselines (``bench/rdf_window_baseline.py``: the window kept in one store, or a fresh store per
evaluation, ``--fresh-store``), whole process, side by side (not a test).

    python bench/citybench_bench.py [--seconds 4800] [--per 3] [--queries Q1,Q3,Q12] [--dir DIR] [--output FILE]
                                    [--against CHECKOUT]

``--against CHECKOUT`` also runs the rsplars of another checkout of the project (e.g. a
``git worktree`` of an earlier commit) on the same files in the same run, with the same
interpreter and packages, so that a change is measured A/B beside the same baseline.

The queries are CityBench's own C-SPARQL files (``tests/data/queries/csparql/``, copied from
github.com/CityBench/Benchmark, GPL-3.0, see that folder's README), unchanged: two traffic streams
joined through the static repository (Q1, Q3 with its arithmetic ``((?v1+?v3)/2)``), and a
windowed ``count`` with GROUP BY, FILTER and HAVING (Q12), all ``[range 3000ms step 1s]``.

The data imitate CityBench's Aarhus traffic streams (SSN/SAO, as its generator writes them):
every second each traffic service emits ``--per`` events, each of four observations (congestion
level, estimated time, average speed, vehicle count), every observation a new IRI::

    ses:Observation-<n>  a ssn:Observation ; ssn:observedProperty ses:Property-<service>-<kind> ;
                         sao:hasValue "<integer>"^^xsd:integer ; ssn:observedBy ses:<service> .

and the static repository types each property (``ses:Property-… a ct:CongestionLevel``). The
stream behind Q12 (``AarhusTrafficData186979``) carries the observations of several services, so
that its GROUP BY has several groups.

Results (wall and CPU seconds, peak RSS, ratios, the load average, the commit measured):
``bench/results/citybench_bench.json``.
Answers are compared at every time point as values (Q3's average is an xsd:decimal, whose lexical
form oxigraph writes differently: ``6`` where rsplars writes ``6.0``) and as multisets: both sides
answer SPARQL's bags (D5; Q12 gives one ``?obCnt`` row per group, and groups of equal counts repeat
it). A checkout given by ``--against`` that answers sets is compared as sets.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import aggregate_window_bench  # noqa: E402
from aggregate_window_bench import same_values, timed, values  # noqa: E402
from checkouts import compile_trees, rsplars_command  # noqa: E402
from recording import results_path, revision  # noqa: E402

SES = "http://www.insight-centre.org/dataset/SampleEventService#"
SSN = "http://purl.oclc.org/NET/ssnx/ssn#"
SAO = "http://purl.oclc.org/NET/sao/"
CT = "http://www.insight-centre.org/citytraffic#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
KINDS = ("CongestionLevel", "EstimatedTime", "AverageSpeed", "VehicleCount")
QUERY_DIR = ROOT / "tests" / "data" / "queries" / "csparql"
# query: (its streams, in the order --stream gives them; the services whose observations each carries)
QUERIES = {
    "Q1": {"AarhusTrafficData182955": ["AarhusTrafficData182955"], "AarhusTrafficData158505": ["AarhusTrafficData158505"]},
    "Q3": {"AarhusTrafficData182955": ["AarhusTrafficData182955"], "AarhusTrafficData158505": ["AarhusTrafficData158505"]},
    "Q12": {"AarhusTrafficData186979": [f"AarhusTrafficData{186979 + k}" for k in range(8)]},
}
RANGE_S, STEP_S = 3, 1  # [range 3000ms step 1s], in the streams' unit (seconds)


def write_static(path: Path, services: list[str]) -> int:
    """The sensor repository: every property of every service typed by its kind."""
    with open(path, "w", encoding="utf-8") as f:
        for service in services:
            for kind in KINDS:
                f.write(f"<{SES}Property-{service}-{kind}> <{RDF_TYPE}> <{CT}{kind}> .\n")
    return 4 * len(services)


def write_stream(path: Path, services: list[str], seconds: int, per: int, seed: int, first_id: int) -> int:
    """``per`` events per second and service, four observations each, every observation new."""
    rnd = random.Random(seed)
    n = first_id
    with open(path, "w", encoding="utf-8") as f:
        for t in range(seconds):
            for _ in range(per):
                for service in services:
                    for kind in KINDS:
                        o = f"<{SES}Observation-{n}>"
                        n += 1
                        value = rnd.randrange(0, 100)
                        f.write(f'{o} <{RDF_TYPE}> <{SSN}Observation> "{t}" .\n')
                        f.write(f'{o} <{SSN}observedProperty> <{SES}Property-{service}-{kind}> "{t}" .\n')
                        f.write(f'{o} <{SAO}hasValue> "{value}"^^<{XSD_INTEGER}> "{t}" .\n')
                        f.write(f'{o} <{SSN}observedBy> <{SES}{service}> "{t}" .\n')
    return n - first_id


def distinct(answers: dict[int, list]) -> dict[int, list]:
    """The answers of each time point as a set (kept in the order :func:`values` sorts them)."""
    return {t: list(dict.fromkeys(rows)) for t, rows in answers.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4800,
                        help="stream length (default 4800: the faster baseline needs more than 10 s)")
    parser.add_argument("--per", type=int, default=3, help="events per second and service (4 observations each)")
    parser.add_argument("--queries", default=",".join(QUERIES))
    parser.add_argument("--dir", help="keep the files here (default: a temporary directory)")
    parser.add_argument("--output", help="default: bench/results/citybench_bench[.QUERIES-NNNs].json (the part when "
                        "--queries or --seconds is not the default, e.g. citybench_bench.q12-20s.json)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="runs per command, medians reported (default 1)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="also run the rsplars of this checkout")
    args = parser.parse_args(argv)
    against = revision(args.against) if args.against else None
    aggregate_window_bench.REPEAT = max(1, args.repeat)
    load_before = os.getloadavg()
    compile_trees(args.against)
    d = Path(args.dir or tempfile.mkdtemp(prefix="citybench"))
    d.mkdir(parents=True, exist_ok=True)
    services = sorted({s for streams in QUERIES.values() for carried in streams.values() for s in carried})
    static = d / "SensorRepository.nt"
    write_static(static, services)
    py = sys.executable
    results = []
    next_id = 0
    print(f"CityBench-style streams: {args.seconds} s, {args.per} events/s per service, 4 observations each (fresh IRIs)")
    for name in args.queries.split(","):
        streams = QUERIES[name]
        files = []
        observations = 0
        for k, (stream, carried) in enumerate(streams.items()):
            path = d / f"{name}.{stream}.nt"
            made = write_stream(path, carried, args.seconds, args.per, seed=100 * k + len(name), first_id=next_id)
            next_id += made
            observations += made
            files.append((stream, path))
        triples = 4 * observations
        query = QUERY_DIR / f"{name}.txt"
        run = ["run", str(query), "--unit", "s", "--static", str(static),
               *(a for stream, path in files for a in ("--stream", f"{SES}{stream}={path}"))]
        mine = timed([*rsplars_command(None), *run], d / f"{name}.rsplars.jsonl")
        other = timed([*rsplars_command(args.against), *run], d / f"{name}.against.jsonl") if args.against else None
        base_cmd = [py, str(ROOT / "bench" / "rdf_window_baseline.py"), ",".join(str(p) for _, p in files),
                    str(RANGE_S), str(STEP_S), str(query), "--static", str(static)]
        kept = timed(base_cmd, d / f"{name}.oxigraph.jsonl")
        fresh = timed([*base_cmd, "--fresh-store"], d / f"{name}.oxigraph-fresh.jsonl")
        got = values(d / f"{name}.rsplars.jsonl")
        ok, rows = same_values(got, values(d / f"{name}.oxigraph.jsonl"))
        ok_fresh, _ = same_values(got, values(d / f"{name}.oxigraph-fresh.jsonl"))
        base = min(kept, fresh)  # the faster baseline (by wall time)
        ratio = base[0] / mine[0]
        compared = {}
        if other is not None:
            ok_other = same_values(distinct(values(d / f"{name}.against.jsonl")), distinct(got))[0]
            compared = {"against": {**against, "wall_s": other[0], "cpu_s": other[1], "peak_mib": other[2],
                                    "ratio_wall": base[0] / other[0], "ratio_cpu": base[1] / other[1],
                                    "equal_sets": ok_other}}
        results.append({"query": name, "streams": len(files), "triples": triples,
                        "rsplars": {"wall_s": mine[0], "cpu_s": mine[1], "peak_mib": mine[2]}, **compared,
                        "pyoxigraph": {"wall_s": kept[0], "cpu_s": kept[1], "peak_mib": kept[2]},
                        "pyoxigraph_fresh_store": {"wall_s": fresh[0], "cpu_s": fresh[1], "peak_mib": fresh[2]},
                        "faster_baseline": "kept store" if base is kept else "fresh store",
                        "ratio_wall": ratio, "ratio_cpu": base[1] / mine[1], "equal_values": ok and ok_fresh, "rows": rows})
        print(f"  {name:4} {len(files)} stream(s) {triples:7} triples | rsplars {mine[0]:6.2f} s ({mine[1]:5.2f} s CPU, {mine[2]:5.1f} MiB) | "
              f"pyoxigraph kept store {kept[0]:6.2f} s, fresh store {fresh[0]:6.2f} s | ratio to the faster {ratio:5.2f}x wall, "
              f"{base[1] / mine[1]:5.2f}x CPU | answers {'equal as values' if ok and ok_fresh else 'DIFFER'} at every time point "
              f"({rows} rows)", flush=True)
        if other is not None:
            print(f"       against {against['commit']}: {other[0]:6.2f} s ({other[1]:5.2f} s CPU, {other[2]:5.1f} MiB) | "
                  f"ratio to the faster {base[0] / other[0]:5.2f}x wall, {base[1] / other[1]:5.2f}x CPU | answers "
                  f"{'equal as sets' if compared['against']['equal_sets'] else 'DIFFER'}", flush=True)
    default = args.queries == ",".join(QUERIES) and args.seconds == 4800 and args.per == 3
    variant = "" if default else "-".join([*args.queries.lower().split(","), f"{args.seconds}s", *([f"{args.per}per"] if args.per != 3 else [])])
    out = Path(args.output) if args.output else results_path("citybench_bench", variant)
    out.write_text(json.dumps({**revision(), "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                                             "load_before": load_before, "load_after": os.getloadavg(),
                                             "seconds": args.seconds, "per": args.per, "repeat": args.repeat, "cases": results}, indent=2) + "\n")
    print(f"written {out}")
    return 0 if all(r["equal_values"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
