"""``rsplars agree --jobs N``: the runs solved block by block in local processes
(``spark_jobs.local``) give the answers of the sequential runs at every evaluation time, for every
program of an analysis (headline runs, diagnosis, the other window bounds), with time windows (the
sliced data stream) and tuple windows (the general partition); and the CLI's report is the same
byte for byte with one process and with two."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spark_jobs.local as local
from translator.agreement.compare import Comparison, Settings, as_solutions, programs_of, solve_sequentially
from translator.cli import main
from translator.query.parse import parse
from translator.rdf.generators import coupon_scenario, product_names
from translator.rdf.streams import ElementList, merge_streams, write_ntriples

EX = "http://example.org/"
PULL = f"""PREFIX : <{EX}>
SELECT ?shop ?product ?user
FROM STREAM <{EX}stream/offers> [RANGE 10s]
FROM STREAM <{EX}stream/near> [RANGE 5s]
WHERE {{ ?shop :offers ?coupon . ?coupon :on ?product . ?user :isNear ?shop . }}"""
PUSH = f"""PREFIX : <{EX}>
SELECT ?shop ?product ?user
WHERE {{
  STREAM <{EX}stream/offers> [RANGE 10s] {{ ?shop :offers ?coupon . ?coupon :on ?product . }}
  STREAM <{EX}stream/near> [RANGE 5s] {{ ?user :isNear ?shop . }}
}}"""
PULL_TUPLES = f"""PREFIX : <{EX}>
SELECT ?shop ?product ?user
FROM STREAM <{EX}stream/offers> [RANGE TRIPLES 12]
FROM STREAM <{EX}stream/near> [RANGE 5s]
WHERE {{ ?shop :offers ?coupon . ?coupon :on ?product . ?user :isNear ?shop . }}"""


def scenario(duration: int = 240, seed: int = 3):
    sc = coupon_scenario(duration=duration, shops=6, customers=8, products=product_names(3), offer_rate=1.5,
                         near_rate=1.0, stay=3, ping=1, seed=seed)
    return sc, ElementList(merge_streams(sc.streams))


@pytest.mark.parametrize("pull_text", [PULL, PULL_TUPLES], ids=["time-windows", "tuple-window"])
def test_blocks_in_processes_equal_the_sequential_runs(pull_text: str) -> None:
    _, elements = scenario()
    comparison = Comparison("t", parse(pull_text, "csparql"), parse(PUSH, "cqels"), "a", "b", "two-queries")
    programs = programs_of(comparison, Settings(period=20, unit="s"))
    assert set(programs) == {"tau1_pull", "tau2_push", "tau2_pull", "other_pull", "other_push"}
    expected = solve_sequentially(programs, elements, (), None)
    rows = local.solve_local(programs, elements, (), jobs=2)
    got = {label: as_solutions(programs[label].variables, rows[label].items()) for label in programs}
    for label in programs:
        assert got[label] == expected[label], label
    # the comparison is not vacuous: answers and evaluation times on both sides
    assert sum(len(a) for a in expected["tau2_push"].values()) > 100
    assert len(expected["tau1_pull"]) >= 12


def test_small_streams_and_unbounded_windows_stay_sequential() -> None:
    _, elements = scenario(duration=40)
    comparison = Comparison("t", parse(PULL, "csparql"), parse(PUSH, "cqels"), "a", "b", "two-queries")
    programs = programs_of(comparison, Settings(period=20, unit="s"))
    assert not local.can_run_locally(programs, elements, 2)  # below MIN_ELEMENTS
    assert not local.can_run_locally(programs, [None] * local.MIN_ELEMENTS, 1)  # one process


def test_agree_report_is_identical_with_one_and_two_processes(tmp_path: Path, capsys, monkeypatch) -> None:
    sc, _ = scenario(duration=200, seed=5)
    paths = sc.write(tmp_path / "data")
    (tmp_path / "pull.rq").write_text(PULL, encoding="utf-8")
    (tmp_path / "push.rq").write_text(PUSH, encoding="utf-8")
    monkeypatch.setattr(local, "MIN_ELEMENTS", 10)
    reports = []
    for jobs in ("1", "2"):
        report = tmp_path / f"report{jobs}.json"
        code = main(["agree", "--pull", str(tmp_path / "pull.rq"), "--push", str(tmp_path / "push.rq"),
                     "--stream", f"{EX}stream/offers={paths['offers']}", "--stream", f"{EX}stream/near={paths['near']}",
                     "--period", "20", "--jobs", jobs, "--report", str(report)])
        assert code == 0
        capsys.readouterr()
        reports.append(json.loads(report.read_text(encoding="utf-8")))
    assert reports[0] == reports[1]
    assert reports[0]["summary"]["intervals"] >= 9


def test_jobs_must_be_positive(tmp_path: Path, capsys) -> None:
    (tmp_path / "s.nt").write_text("", encoding="utf-8")
    with open(tmp_path / "s.nt", "w", encoding="utf-8") as f:
        write_ntriples([], f)
    code = main(["agree", "--pull", "x.rq", "--push", "y.rq", "--stream", f"{EX}stream/offers={tmp_path / 's.nt'}",
                 "--jobs", "0"])
    assert code == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
