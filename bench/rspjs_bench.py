"""RSP-JS and ``rsplars run`` on the same RSP-QL query and stream, answers compared (not a test).

    .venv/bin/python bench/rspjs_bench.py                  # CityBench Q5, 120 s of data
    .venv/bin/python bench/rspjs_bench.py --duration 30    # a shorter stream (variant duration30)

The query is CityBench Q5 in RSP-QL (``tests/data/rspql/citybench/Q5.rq``: one traffic window
``[RANGE PT3S STEP PT1S]``, a join with static cultural events and sensors, a distance FILTER) over
CityBench-like data (``translator.rdf.generators.citybench``, every sensor reporting every second, so
that no second is without an element: RSP-JS then reports every window). RSP-JS runs through
``--live-engine rsp-js``'s adapter (``translator.engines.rsp_js``: Node.js, ``engines/rsp-js/run.js``,
npm rsp-js 1.3.5; ``make rsp-js``); ``rsplars run`` runs with RSP-JS's window parameters as
docs/engines.md records them: window close, right-open windows ``[o, c)``, the first window opening at
step − range (``--t0 -2``), empty relations not emitted, RSTREAM. Both run as processes, timed from start
to exit (wall clock); each is run once (RSP-JS takes tens of seconds).

*Answers* (the finding recorded in docs/engines.md, "Deviations"): RSP-JS moves each window's origin by
one step for every binding it emits, so on this workload (about 15 bindings a second) it stops opening
windows where they belong and reports only some of them; the result counts the RSP-JS relations equal to
``rsplars run``'s at the same time and the times it leaves out.

Both outputs are read as ``rsplars check`` reads recorded outputs (bindings as sets, numeric
literals by value) and compared relation by relation up to RSP-JS's clock (the windows that close
before the stream's last element: RSP-JS reports a window only when a later element arrives). The
result says whether they are equal, and lists the first differing times if not.

The machine is shared (2 vCPUs): the load average is recorded. Results:
``bench/results/rspjs_bench.json`` (``rspjs_bench.duration<N>.json`` for another ``--duration``), with
the commit measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from recording import results_path, revision  # noqa: E402

QUERY = ROOT / "tests" / "data" / "rspql" / "citybench" / "Q5.rq"
STREAM = "http://www.insight-centre.org/dataset/SampleEventService#AarhusTrafficData158505"
DEFAULT_DURATION = 120
#: RSP-JS's windows of Q5 as rsplars' parameters (docs/engines.md): t0 = step - range = 1 - 3 s
RSPJS_PARAMETERS = ["--profile", "rsp-ql", "--t0", "-2", "--window-bounds", "right-open",
                    "--empty-relations", "skip", "--r2s", "rstream"]


def write_data(folder: Path, duration: int) -> tuple[list[str], int]:
    """The stream and static files; ``(--stream/--static options, number of stream elements)``."""
    from translator.rdf.generators import citybench
    from translator.rdf.streams import write_ntriples
    from translator.rdf.terms import to_nt

    data = citybench([STREAM], duration=duration, period=1, readings=2, tick=1, seed=zlib.crc32(b"Q5"))
    options, count = [], 0
    for iri, elements in data.streams.items():
        with (folder / "stream.nt").open("w") as f:
            count += write_ntriples(elements, f)
        options += ["--stream", f"{iri}={folder / 'stream.nt'}"]
    for name, graph in data.static.items():
        (folder / f"{name}.nt").write_text("".join(" ".join(to_nt(x) for x in tr) + " .\n" for tr in sorted(graph)))
        options += ["--static", str(folder / f"{name}.nt")]
    return options, count


def run_rsp_js(folder: Path, options: list[str]) -> tuple[float, Path, int | None]:
    from translator.engines.inputs import prepare_input
    from translator.engines.rsp_js import RspJsEngine
    from translator.rdf.streams import merge_streams, read_streams

    streams = [(options[k + 1].rsplit("=", 1)[0], options[k + 1].rsplit("=", 1)[1])
               for k in range(0, len(options), 2) if options[k] == "--stream"]
    static = [options[k + 1] for k in range(0, len(options), 2) if options[k] == "--static"]
    elements = merge_streams(read_streams(dict(streams)))
    given = prepare_input(QUERY, streams, elements, static, folder / "rsp-js", base_unit="s", engine_unit="ms")
    start = time.perf_counter()
    out = RspJsEngine().run(given)
    return time.perf_counter() - start, out.path, out.reported_until


def run_rsplars(folder: Path, options: list[str]) -> tuple[float, Path]:
    output = folder / "rsplars.jsonl"
    command = [sys.executable, "-m", "translator", "run", str(QUERY), *options, "--unit", "s", *RSPJS_PARAMETERS]
    start = time.perf_counter()
    with output.open("w") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"rsplars run failed: {done.stderr}")
    return seconds, output


def relations(path: Path, time_unit: str, until: int | None) -> dict[int, frozenset]:
    from translator.agreement.answers import read_answer_file
    from translator.agreement.check import time_factor

    answers = read_answer_file(path, fmt="jsonl", time_factor=time_factor(time_unit, "s"))
    return {r.t: r.bindings for r in answers.relations if r.t is not None and (until is None or r.t <= until)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--duration", type=int, default=DEFAULT_DURATION, help="seconds of CityBench data")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="rspjs-bench-") as tmp:
        folder = Path(tmp)
        options, elements = write_data(folder, args.duration)
        rsplars_s, rsplars_out = run_rsplars(folder, options)
        rspjs_s, rspjs_out, until_ms = run_rsp_js(folder, options)
        until = None if until_ms is None else until_ms // 1000
        ours, theirs = relations(rsplars_out, "s", until), relations(rspjs_out, "ms", until)
    differing = sorted(t for t in set(ours) | set(theirs) if ours.get(t) != theirs.get(t))
    slower, faster = max(rspjs_s, rsplars_s), min(rspjs_s, rsplars_s)
    result = {
        "benchmark": "rspjs_bench",
        **revision(),
        "python": platform.python_version(),
        "node": subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip(),
        "rsp_js": "1.3.5",
        "machine": platform.machine(),
        "load_before": round(load_before, 2),
        "query": str(QUERY.relative_to(ROOT)),
        "duration_s": args.duration,
        "stream_elements": elements,
        "rsplars_parameters": RSPJS_PARAMETERS,
        "compared_up_to": until,
        "rsp_js_wall_s": round(rspjs_s, 3),
        "rsplars_wall_s": round(rsplars_s, 3),
        "ratio_rsp_js_over_rsplars": round(rspjs_s / rsplars_s, 2),
        "relations": {"rsp_js": len(theirs), "rsplars": len(ours)},
        "bindings": {"rsp_js": sum(len(b) for b in theirs.values()), "rsplars": sum(len(b) for b in ours.values())},
        "answers_equal": not differing,
        "rsp_js_relations_equal_to_rsplars": sum(1 for t, b in theirs.items() if ours.get(t) == b),
        "rsplars_relations_missing_from_rsp_js": sorted(set(ours) - set(theirs))[:20],
        "differing_times": differing[:20],
        "load_after": round(os.getloadavg()[0], 2),
    }
    variant = "" if args.duration == DEFAULT_DURATION else f"duration{args.duration}"
    path = results_path("rspjs_bench", variant)
    path.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{QUERY.name}, {elements} elements ({args.duration} s): RSP-JS {rspjs_s:.2f} s, rsplars run "
          f"{rsplars_s:.2f} s, ratio {rspjs_s / rsplars_s:.1f}x ({'RSP-JS' if rspjs_s == slower else 'rsplars'} "
          f"slower by {slower / faster:.1f}x); answers up to t = {until} "
          + ("equal" if not differing else f"differ at {differing[:5]}") + f"; {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
