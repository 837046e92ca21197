"""Agreement against input rate and pull period (Dao-Tran, Beck, Eiter 2015, §5's "rather unlikely" claim).

Dao-Tran, Beck, Eiter 2015, §5 argues that under dense input C-SPARQL (pull, period U) and CQELS (push) will rarely
agree, because "the snapshots taken at time points near the beginning of an interval will have high
chances to collect more input than the snapshot at its end". This study measures it.

Setup: the running example's query (``examples/running_example/q1.rq``: coupons ≥ 20 % on products
not for men, at shops a customer is near; windows RANGE 30m on offers and RANGE 5m on near) on
generated coupon streams (``translator.rdf.generators.coupon_scenario``, the generator behind
``rsplars gen coupons``): 3 shops, 3 customers, 4 products, a visit lasts one minute, offers and
visits both arrive at ``rate`` per minute (Poisson), over ``DURATION`` minutes. For every rate,
seed and period U: ``cs(Q)`` translated with τ1 and pulled every U minutes against its brave ``cq(Q)``
translated with τ2 and pushed, judged on every ``[i·U, (i+1)·U]`` inside ``[0, DURATION]`` (Dao-Tran,
Beck, Eiter 2015, §5, ``translator.agreement.judge``). The data satisfies condition (ii) (streams and static data share
no pattern; checked per scenario), and the cause of each disagreement is split by also pulling the
τ2 program (``translator.agreement.diagnose``), so dataset vs execution mode is measured, not assumed.

Two shares per cell, averaged over the seeds (intervals pooled):

* **agree**: agreeing intervals / all intervals;
* **agree (active)**: the same among *active* intervals, those where the pull answer or the push
  union is non-empty (two empty answers agree trivially; sparse input makes many of those).

Writes ``bench/results/agreement_density.json`` (every cell and run) and ``.md`` (the tables).
Run: ``.venv/bin/python bench/agreement_density.py [--quick]`` (105 s of CPU; 5.5 min wall on a busy shared 2-core machine; --quick: 1 seed).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from translator.agreement import Runs, diagnose  # noqa: E402
from translator.agreement.query_patterns import condition_ii_patterns  # noqa: E402
from translator.agreement.static_check import check_condition_ii  # noqa: E402
from translator.agreement.compare import collect_answers  # noqa: E402
from translator.translate.compile import assign_by_data, compile_query, counterparts  # noqa: E402
from translator.translate.normalize import TimeBase  # noqa: E402
from translator.query.parse import parse  # noqa: E402
from translator.rdf.generators import coupon_scenario, product_names  # noqa: E402
from translator.rdf.static import static_facts  # noqa: E402
from translator.rdf.streams import merge_streams  # noqa: E402
from translator.rdf.terms import to_nt  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from recording import RESULTS, revision  # noqa: E402

QUERY = ROOT / "examples" / "running_example" / "q1.rq"
RATES = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)  # offers and visits per minute (each)
PERIODS = (1, 2, 5, 10, 15, 30)  # pull period U in minutes
SEEDS = (1, 2, 3)
DURATION = 240  # minutes
CHECKED_PERIOD = 5  # the period whose pull run is compared with the every-time-point run
SCENARIO = {"shops": 3, "customers": 3, "products": 4, "stay": 1, "ping": 1}


def scenario_data(rate: float, seed: int):
    """(stream elements in time order, static facts, condition (ii) holds?) of one generated scenario."""
    from rdflib import Dataset

    sc = coupon_scenario(duration=DURATION, shops=SCENARIO["shops"], customers=SCENARIO["customers"],
                         products=product_names(SCENARIO["products"]), offer_rate=rate, near_rate=rate,
                         stay=SCENARIO["stay"], ping=SCENARIO["ping"], seed=seed)
    ds = Dataset()
    for triple in sc.static:
        ds.default_graph.add(triple)
    elements = merge_streams(sc.streams)
    return elements, static_facts(ds), sc


def every_time_point(query, strategy: str, elements, facts) -> dict:
    """The answers of ``query`` under ``strategy`` at every time point of [0, DURATION] (mode none).

    By Proposition 1 (3) of Dao-Tran, Beck, Eiter 2015 (tested in tests/translator and tests/asp), the pull run with
    period U answers exactly these at the multiples of U: one run serves every period. ``main``
    re-checks this on one period per scenario against a real pull run.
    """
    compiled = compile_query(query, strategy=strategy, mode="none", base=TimeBase("m"))
    return collect_answers(compiled, elements, facts, end=DURATION)


def at_multiples(answers: dict, period: int) -> dict:
    return {t: a for t, a in answers.items() if t % period == 0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one seed only")
    args = ap.parse_args(argv)
    seeds = SEEDS[:1] if args.quick else SEEDS
    query = parse(QUERY.read_text(encoding="utf-8"), "csparql", source=str(QUERY))
    started = time.perf_counter()
    cpu_started = time.process_time()
    runs: list[dict] = []
    for rate in RATES:
        for seed in seeds:
            elements, facts, sc = scenario_data(rate, seed)
            stream_triples: dict[str, list] = {}
            for e in elements:
                stream_triples.setdefault(str(e.stream_iri), []).append(tuple(to_nt(x) for x in e.triple))
            triples = {iri: set(ts) for iri, ts in stream_triples.items()}
            ((_, push_query),) = counterparts(query, "cqels-brave", assign_by_data(query, triples))
            stream_patterns, static_patterns = condition_ii_patterns(push_query)
            static_nt = [tuple(to_nt(x) for x in t) for t in sc.static]
            condition_ii = check_condition_ii(stream_patterns, static_patterns, static_nt, stream_triples).condition_ii_holds
            push_compiled = compile_query(push_query, strategy="tau2", mode="push", base=TimeBase("m"))
            tau2_push = collect_answers(push_compiled, elements, facts, end=DURATION)
            tau1_all = every_time_point(query, "tau1", elements, facts)
            tau2_all = every_time_point(push_query, "tau2", elements, facts)
            check = compile_query(query, strategy="tau1", mode="pull", period=CHECKED_PERIOD, base=TimeBase("m"))
            if collect_answers(check, elements, facts, end=DURATION) != at_multiples(tau1_all, CHECKED_PERIOD):
                raise AssertionError(f"Proposition 1 (3) fails on rate {rate} seed {seed}: pull != plain at k·U")
            for period in PERIODS:
                diagnosis = diagnose(Runs(at_multiples(tau1_all, period), at_multiples(tau2_all, period), tau2_push),
                                     period, end=DURATION)
                verdicts = diagnosis.headline.intervals
                active = [v for v in verdicts if v.pull or v.push]
                runs.append({
                    "rate": rate, "seed": seed, "period": period,
                    "stream_triples": len(elements), "time_points_with_input": len({e.t for e in elements}),
                    "condition_ii_holds": condition_ii,
                    "intervals": len(verdicts), "agreeing": sum(v.agrees for v in verdicts),
                    "active": len(active), "active_agreeing": sum(v.agrees for v in active),
                    "only_missing": sum(1 for v in verdicts if not v.agrees and v.missing and not v.extra),
                    "only_extra": sum(1 for v in verdicts if not v.agrees and v.extra and not v.missing),
                    "both": sum(1 for v in verdicts if v.missing and v.extra),
                    "causes": dict(diagnosis.counts),
                })
            print(f"rate {rate}/min seed {seed}: {len(elements)} triples, "
                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    cells = aggregate(runs)
    RESULTS.mkdir(parents=True, exist_ok=True)
    meta = {**revision(), "query": str(QUERY.relative_to(ROOT)), "duration_minutes": DURATION, "rates_per_minute": list(RATES),
            "periods_minutes": list(PERIODS), "seeds": list(seeds), "scenario": SCENARIO,
            "seconds": round(elapsed, 1), "cpu_seconds": round(time.process_time() - cpu_started, 1), "python": platform.python_version(), "machine": platform.machine()}
    (RESULTS / "agreement_density.json").write_text(
        json.dumps({"meta": meta, "cells": cells, "runs": runs}, indent=2) + "\n", encoding="utf-8")
    (RESULTS / "agreement_density.md").write_text(markdown(meta, cells), encoding="utf-8")
    print(markdown(meta, cells))
    return 0


def aggregate(runs: list[dict]) -> list[dict]:
    """One cell per (rate, period): counts pooled over the seeds."""
    cells: dict[tuple[float, int], dict] = {}
    for r in runs:
        c = cells.setdefault((r["rate"], r["period"]), {
            "rate": r["rate"], "period": r["period"], "seeds": 0, "intervals": 0, "agreeing": 0, "active": 0,
            "active_agreeing": 0, "only_missing": 0, "only_extra": 0, "both": 0, "dataset": 0,
            "execution-mode": 0, "unexplained": 0, "condition_ii_holds": True, "stream_triples": 0})
        c["seeds"] += 1
        for key in ("intervals", "agreeing", "active", "active_agreeing", "only_missing", "only_extra", "both",
                    "stream_triples"):
            c[key] += r[key]
        for key in ("dataset", "execution-mode", "unexplained"):
            c[key] += r["causes"][key]
        c["condition_ii_holds"] &= r["condition_ii_holds"]
    out = []
    for c in cells.values():
        c["share_agreeing"] = round(c["agreeing"] / c["intervals"], 4) if c["intervals"] else None
        c["share_agreeing_active"] = round(c["active_agreeing"] / c["active"], 4) if c["active"] else None
        out.append(c)
    return sorted(out, key=lambda c: (c["rate"], c["period"]))


def markdown(meta: dict, cells: list[dict]) -> str:
    by = {(c["rate"], c["period"]): c for c in cells}
    rates, periods = meta["rates_per_minute"], meta["periods_minutes"]

    def table(key: str) -> list[str]:
        lines = ["| rate (/min) | " + " | ".join(f"U = {u} min" for u in periods) + " |",
                 "|---:|" + "---:|" * len(periods)]
        for rate in rates:
            row = []
            for u in periods:
                c = by[(rate, u)]
                share = c[key]
                row.append("–" if share is None else f"{100 * share:.0f} %")
            lines.append(f"| {rate:g} | " + " | ".join(row) + " |")
        return lines

    disagreeing = sum(c["intervals"] - c["agreeing"] for c in cells)
    lines = [
        "# Agreement of C-SPARQL (pull) and CQELS (push) against input rate and pull period",
        "",
        f"Generated by `bench/agreement_density.py` at commit {meta['commit']}{' (with uncommitted changes)' if meta['dirty'] else ''} "
        f"in {meta['seconds']} s ({meta['cpu_seconds']} s CPU). Query `{meta['query']}` (Q1 of Dao-Tran, Beck, Eiter 2015, "
        f"Example 4: cs(Q) with τ1 pulled every U min vs brave cq(Q) with τ2 pushed); coupon streams of "
        f"{meta['duration_minutes']} min, offers and visits each at *rate* per minute (Poisson), "
        f"{meta['scenario']['shops']} shops, {meta['scenario']['customers']} customers, "
        f"{meta['scenario']['products']} products; seeds {', '.join(map(str, meta['seeds']))} pooled; "
        "closed window bounds.",
        "",
        "Share of agreeing intervals `[i·U, (i+1)·U]` in `[0, " + str(meta["duration_minutes"]) + "]`:",
        "",
        *table("share_agreeing"),
        "",
        "Among *active* intervals only (pull answer or push union non-empty; two empty answers agree trivially):",
        "",
        *table("share_agreeing_active"),
        "",
        f"Condition (ii) holds on every scenario: {all(c['condition_ii_holds'] for c in cells)}. "
        f"Causes of the {disagreeing} disagreements: "
        f"dataset {sum(c['dataset'] for c in cells)}, execution mode {sum(c['execution-mode'] for c in cells)}, "
        f"unexplained {sum(c['unexplained'] for c in cells)}. Kinds: push-only answers (extra) only "
        f"{sum(c['only_extra'] for c in cells)}, pull-only answers (missing) only "
        f"{sum(c['only_missing'] for c in cells)}, both {sum(c['both'] for c in cells)}.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
