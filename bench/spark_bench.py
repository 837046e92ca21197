"""Spark pipeline benchmark (not a test): sequential vs Spark ``local[2]`` on a long coupon stream.

    .venv/bin/python bench/spark_bench.py            # full run: 1,000,000 triples over 100,000 time points
    .venv/bin/python bench/spark_bench.py --quick    # smoke run (20,000 time points)

The workload is the agreement of Dao-Tran, Beck, Eiter 2015, §5 on the running example's coupon scenario
(``translator.rdf.generators.coupon_scenario``: coupons of three triples on the *offers* stream,
customers' ``isNear`` reports on the *near* stream): the C-SPARQL query (τ1, pull, period U) and
the CQELS query (τ2, push) of Example 4 without the FILTER and the static data, with windows of
10 s (offers) and 5 s (near), solved over the whole stream; the verdict of every interval
``[i·U, (i+1)·U]`` is computed from the answers. Cases, each in a fresh subprocess:

* ``sequential``: ``translator.evaluate.run.answers`` for both programs, then ``translator.agreement.judge``;
* ``spark``: ``spark_jobs.runs.run_agreement_spark`` on ``local[2]`` (both programs in one job,
  verdicts by Spark), including starting Spark and shipping the elements to Spark;
* ``spark-2x``: the same on a stream twice as long (same density).

Scaling on a Spark standalone cluster (``--cluster-workers 1,2``; a master and N workers of one core
each started on this machine by ``tests/spark_jobs/standalone.py``, the workers running the
shipped environment of ``make spark-env``, not the driver's): the same agreement for every number
of workers and every ``--time-points`` (``--scale 100000,1000000``: ≈ 1M and 10M triples), next
to one sequential run per length, with the wall time split into

* ``shipping``: starting the SparkSession on the cluster, the elements read by the executors from
  a Parquet file on storage they share (``spark_jobs.frames.read_elements``, as ``--elements``: the
  driver never holds the stream; the file is written before the timer, as a cluster's input is) and
  the packed environment to every executor (unpacked before its first task);
* ``solving``: the blocks solved (``spark_jobs.pipeline.solve_runs``, results cached);
* ``collecting``: the answers back on the driver and the verdicts judged there.

Results: ``bench/results/spark_bench.cluster.json`` (merged across invocations).

Stream generation is excluded from the wall times. Printed: wall times, the ratio sequential /
spark (target ≥ 1.6 on 2 cores), judged intervals per second, the 2× ratio (target ≤ 2.2), driver
peak memory (Python driver: peak RSS; Spark driver JVM: VmHWM) and whether the verdicts of the
sequential and the Spark run are identical. Results go to ``bench/results/spark_bench.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from recording import results_path, revision  # noqa: E402

EX = "http://example.org/"
PERIOD = 500  # pull period U in seconds (base unit s): 200 intervals on 100,000 time points

PULL_QUERY = f"""PREFIX : <{EX}>
SELECT ?shop ?product ?user
FROM STREAM <{EX}stream/offers> [RANGE 10s]
FROM STREAM <{EX}stream/near> [RANGE 5s]
WHERE {{ ?shop :offers ?coupon . ?coupon :on ?product . ?user :isNear ?shop . }}"""

PUSH_QUERY = f"""PREFIX : <{EX}>
SELECT ?shop ?product ?user
WHERE {{
  STREAM <{EX}stream/offers> [RANGE 10s] {{ ?shop :offers ?coupon . ?coupon :on ?product . }}
  STREAM <{EX}stream/near> [RANGE 5s] {{ ?user :isNear ?shop . }}
}}"""


def stream(time_points: int, seed: int = 7):
    """About 10 triples per time point: 2.5 coupons × 3 triples + 2.5 isNear reports."""
    from translator.rdf.generators import coupon_scenario
    from translator.rdf.streams import merge_streams

    scenario = coupon_scenario(duration=time_points, shops=200, customers=500, offer_rate=2.5, near_rate=1.25,
                               stay=2, ping=1, seed=seed)
    return merge_streams(scenario.streams)


def runs():
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase
    from translator.query.parse import parse

    base = TimeBase("s")
    return {
        "tau1_pull": compile_query(parse(PULL_QUERY, "csparql"), mode="pull", period=PERIOD, base=base),
        "tau2_push": compile_query(parse(PUSH_QUERY, "cqels"), mode="push", base=base),
    }


def _rss_kib() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _jvm_peak_kib() -> int | None:
    try:
        from pyspark import SparkContext

        pid = SparkContext._gateway.proc.pid  # type: ignore[union-attr]
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except Exception:  # noqa: BLE001 - best effort
        return None
    return None


def case(name: str, time_points: int, partitions: int | None) -> dict:
    """One case in this process; returns the measurements."""
    from translator.agreement import Solution, judge

    elements = stream(time_points)
    compiled = runs()
    load_before = os.getloadavg()[0]
    base_rss = _rss_kib()
    t0 = time.perf_counter()
    if name == "sequential":
        from translator.evaluate.run import answers

        streams = {}
        for label, c in compiled.items():
            streams[label] = {
                ev.t: frozenset(Solution.from_mapping(dict(zip(c.variables, row))) for row in ev.rows)
                for ev in answers(c, elements, ())
            }
        result = judge(streams["tau1_pull"], streams["tau2_push"], PERIOD)
        verdicts = [v.verdict.value for v in result.intervals]
        jvm = None
    else:
        from spark_jobs.options import SparkOptions
        from spark_jobs.runs import run_agreement_spark

        out = run_agreement_spark(compiled, elements, spark=SparkOptions("local[2]", partitions))
        verdicts = [r["verdict"] for r in out.verdicts]
        jvm = _jvm_peak_kib()
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "case": name,
        "time_points": time_points,
        "triples": len(elements),
        "wall_s": round(wall, 2),
        "intervals": len(verdicts),
        "agreeing": verdicts.count("agree"),
        "verdict_digest": hash(tuple(verdicts)) & 0xFFFFFFFF,
        "driver_peak_rss_mib": round(peak / 1024, 1),
        "driver_added_rss_mib": round((peak - base_rss) / 1024, 1),
        "jvm_peak_mib": None if jvm is None else round(jvm / 1024, 1),
        "load_avg_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def cluster_case(time_points: int, partitions: int | None, master: str) -> dict:
    """The agreement on a standalone cluster, timed by phase (see the module's docstring)."""
    from translator.agreement import Solution, judge

    import tempfile

    from spark_jobs.runs import start_spark
    from spark_jobs.frames import read_elements, time_range
    from spark_jobs.partition import elements_table
    from spark_jobs.pipeline import solve_runs
    from spark_jobs.solve_blocks import decode_row

    elements = stream(time_points)
    compiled = runs()
    storage = tempfile.TemporaryDirectory(prefix="rsplars-elements-")
    # the stream on storage every worker reads (docs/spark.md, "--elements"), written before the job
    # as a cluster's input is: the driver never ships the elements itself
    path = os.path.join(storage.name, "elements.parquet")
    w0 = time.perf_counter()
    table = elements_table(elements).drop(columns=["seq"]).rename(columns={"t": "time"})
    table.to_parquet(path, index=False)
    written = time.perf_counter() - w0
    n_triples = len(elements)
    del elements, table
    t0 = time.perf_counter()
    spark = start_spark(master)
    frame = read_elements(spark, path).cache()
    bounds = time_range(frame)
    t1 = time.perf_counter()
    results, _ = solve_runs(frame, compiled, (), partitions=partitions, bounds=bounds)
    results = results.cache()
    results.count()
    t2 = time.perf_counter()
    found: dict[str, dict[int, set]] = {label: {} for label in compiled}
    for record in results.toLocalIterator():
        rows = found[record["run"]].setdefault(int(record["t"]), set())
        if record["row"] is not None:
            rows.add(record["row"])
    streams = {label: {t: frozenset(Solution.from_mapping(dict(zip(compiled[label].variables, decode_row(r))))
                                    for r in rows) for t, rows in sorted(found[label].items())}
               for label in compiled}
    verdicts = [v.verdict.value for v in judge(streams["tau1_pull"], streams["tau2_push"], PERIOD).intervals]
    t3 = time.perf_counter()
    storage.cleanup()
    return {"case": "cluster", "time_points": time_points, "triples": n_triples,
            "elements_file_written_s": round(written, 2), "wall_s": round(t3 - t0, 2), "shipping_s": round(t1 - t0, 2), "solving_s": round(t2 - t1, 2),
            "collecting_s": round(t3 - t2, 2), "intervals": len(verdicts), "agreeing": verdicts.count("agree"),
            "verdict_digest": hash(tuple(verdicts)) & 0xFFFFFFFF, "load_avg_1min": round(os.getloadavg()[0], 2)}


def scaling(lengths: list[int], workers: list[int], partitions: int | None) -> None:
    """Sequential and cluster runs of every length on 1…N workers; merged into the results file."""
    sys.path.insert(0, str(ROOT / "tests" / "spark_jobs"))
    import tempfile

    from spark_jobs.shipping import build
    from standalone import Cluster

    shipped = build(ROOT / "build" / "spark-env")
    out = results_path("spark_bench", "cluster")
    data = json.loads(out.read_text()) if out.exists() else {"cases": {}}
    for n in lengths:
        seq = run_case("sequential", n, None)
        data["cases"][f"sequential-{n}"] = seq
        print(f"sequential: {seq['triples']:,} triples: {seq['wall_s']:.1f} s", flush=True)
        for k in workers:
            with tempfile.TemporaryDirectory(prefix="rsplars-cluster-") as folder:
                cluster = Cluster(Path(folder)).start(workers=k)
                try:
                    r = run_case("cluster", n, partitions or 4 * k, master=cluster.master_url,
                                 env={"RSPLARS_SPARK_ENV": str(ROOT / "build" / "spark-env")})
                finally:
                    cluster.stop()
            r.update(workers=k, speedup_over_sequential=round(seq["wall_s"] / r["wall_s"], 2),
                     verdicts_identical=r["verdict_digest"] == seq["verdict_digest"])
            data["cases"][f"cluster-{k}w-{n}"] = r
            print(f"{k} worker(s): {r['wall_s']:.1f} s = {r['speedup_over_sequential']:.2f}x sequential; shipping "
                  f"{r['shipping_s']:.1f} s, solving {r['solving_s']:.1f} s, collecting {r['collecting_s']:.1f} s; "
                  f"verdicts identical: {r['verdicts_identical']}", flush=True)
            data.update(revision(), shipped={"archive": shipped.archive.name, "py_files": shipped.py_files.name})
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(data, indent=2) + "\n")


def run_case(name: str, time_points: int, partitions: int | None, master: str | None = None,
             env: dict | None = None) -> dict:
    cmd = [sys.executable, __file__, "--case", name, "--time-points", str(time_points)]
    if partitions:
        cmd += ["--partitions", str(partitions)]
    if master:
        cmd += ["--master", master]
    env = {**{k: v for k, v in os.environ.items() if not (master and k.startswith("PYSPARK_"))},
           "PYTHONHASHSEED": "0", **(env or {})}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"case {name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="20,000 time points instead of 100,000")
    p.add_argument("--time-points", type=int, help="stream length in time points (default 100,000)")
    p.add_argument("--partitions", type=int, help="blocks for the Spark runs (default: 4 per core)")
    p.add_argument("--sweep-partitions", metavar="K,K,…",
                   help="instead of the three cases: Spark local[2] with each number of blocks (and one sequential "
                        "run) on --time-points; the cases are added to the results file as partitions-K")
    p.add_argument("--cluster-workers", metavar="K,K,…",
                   help="instead of the three cases: the scaling runs on a standalone cluster of K workers each")
    p.add_argument("--scale", metavar="N,N,…", help="time points of the scaling runs (default: --time-points)")
    p.add_argument("--case", help=argparse.SUPPRESS)
    p.add_argument("--master", help=argparse.SUPPRESS)
    args = p.parse_args()
    n = args.time_points or (20_000 if args.quick else 100_000)
    if args.case:
        result = cluster_case(n, args.partitions, args.master) if args.case == "cluster" else \
            case(args.case, n, args.partitions)
        print(json.dumps(result))
        return
    if args.cluster_workers:
        lengths = [int(x) for x in args.scale.split(",")] if args.scale else [n]
        scaling(lengths, [int(k) for k in args.cluster_workers.split(",")], args.partitions)
        return
    if args.sweep_partitions:
        sweep(n, [int(k) for k in args.sweep_partitions.split(",")])
        return
    results = {}
    for name, length in (("spark", n), ("sequential", n), ("spark-2x", 2 * n)):
        results[name] = run_case("sequential" if name == "sequential" else "spark", length, args.partitions)
        r = results[name]
        print(f"{name:>10}: {r['triples']:>9,} triples over {length:,} time points: {r['wall_s']:8.1f} s, "
              f"{r['intervals']:,} intervals ({r['agreeing']:,} agree), driver peak RSS {r['driver_peak_rss_mib']} MiB"
              + (f", Spark driver JVM peak {r['jvm_peak_mib']} MiB" if r["jvm_peak_mib"] else "")
              + f", load average before/after {r['load_avg_1min']}", flush=True)
    seq, spk, spk2 = results["sequential"], results["spark"], results["spark-2x"]
    speedup = seq["wall_s"] / spk["wall_s"]
    growth = spk2["wall_s"] / spk["wall_s"]
    summary = {
        "speedup_sequential_over_spark": round(speedup, 2),
        "intervals_per_s_spark": round(spk["intervals"] / spk["wall_s"], 1),
        "intervals_per_s_sequential": round(seq["intervals"] / seq["wall_s"], 1),
        "time_ratio_2x_stream": round(growth, 2),
        "verdicts_identical": seq["verdict_digest"] == spk["verdict_digest"] and seq["intervals"] == spk["intervals"],
        "targets_met": {"speedup>=1.6": speedup >= 1.6, "2x<=2.2": growth <= 2.2},
    }
    print(f"speed-up sequential/spark local[2]: {speedup:.2f}x (target >= 1.6); "
          f"intervals/s: spark {summary['intervals_per_s_spark']}, sequential {summary['intervals_per_s_sequential']}; "
          f"2x stream: {growth:.2f}x the time (target <= 2.2); verdicts identical: {summary['verdicts_identical']}")
    out = results_path("spark_bench", f"{n}tp" if args.time_points else "quick" if args.quick else "")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**revision(), "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                           "load_avg_at_end": os.getloadavg()},
                               "cases": results, "summary": summary}, indent=2) + "\n")


def sweep(n: int, partitions: list[int]) -> None:
    """Wall time against the number of blocks, measured in one run next to a sequential run of the same
    stream; merged into ``bench/results/spark_bench.json`` (other cases kept)."""
    out = results_path("spark_bench")
    data = json.loads(out.read_text()) if out.exists() else {"cases": {}}
    seq = run_case("sequential", n, None)
    data["cases"][f"sequential-{n}"] = seq
    data.update(revision())
    print(f"sequential: {seq['wall_s']:8.1f} s on {n:,} time points", flush=True)
    for k in partitions:
        r = {**run_case("spark", n, k), "partitions": k}
        data["cases"][f"partitions-{k}"] = r
        same = r["verdict_digest"] == seq["verdict_digest"]
        print(f"spark local[2], {k:>3} blocks: {r['wall_s']:8.1f} s = {seq['wall_s'] / r['wall_s']:.2f}x sequential; "
              f"verdicts identical: {same}; load average before/after {r['load_avg_1min']}", flush=True)
    out.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
