"""``rsplars agree`` through ``main([...])``: hand-computed verdicts on small streams for each cause
(dataset (ii), execution mode (iii), window bounds; agreeing and disagreeing), the verdicts against
the definition of Dao-Tran, Beck, Eiter 2015, §5 applied by a naive loop to two ``rsplars run`` outputs (the running
example and generated streams that are not in the repository), reports and exit codes.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from translator.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "running_example"
SCHEMA = Path(__file__).resolve().parents[2] / "translator" / "agreement" / "report.schema.json"
OFFERS = "http://example.org/stream/offers"
NEAR = "http://example.org/stream/near"
EX_DATA = [
    "--stream", f"{OFFERS}={EXAMPLE / 'offers.stream'}",
    "--stream", f"{NEAR}={EXAMPLE / 'near.stream'}",
    "--static", str(EXAMPLE / "static.n3"),
    "--unit", "m",
]

# ------------------------------------------------------------------------------------ helpers


def agree(capsys, tmp_path: Path, *argv: str) -> tuple[int, dict, str]:
    """Run ``rsplars agree … --report`` and return (exit code, JSON report, stdout)."""
    report = tmp_path / "report.json"
    code = main(["agree", *argv, "--report", str(report)])
    out = capsys.readouterr().out
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return code, data, out


def run_jsonl(capsys, tmp_path: Path, name: str, *argv: str) -> dict[int, set[frozenset]]:
    """``rsplars run … --output FILE`` → ``{t: {solution as frozenset of (var, term)}}``."""
    path = tmp_path / name
    assert main(["run", *argv, "--output", str(path)]) == 0
    capsys.readouterr()
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out[record["t"]] = {frozenset(a.items()) for a in record["answers"]}
    return out


def naive_verdicts(pull: dict, push: dict, period: int, end: int) -> list[tuple[int, bool, set, set]]:
    """Dao-Tran, Beck, Eiter 2015, §5 by the letter: [i·U, (i+1)·U] agrees iff the union of the push answers at every
    t in (i·U, (i+1)·U] equals the pull answer at (i+1)·U. → [(i, agrees, missing, extra)]."""
    out = []
    i = 0
    while (i + 1) * period <= end:
        union: set = set()
        for t in range(i * period + 1, (i + 1) * period + 1):
            union |= push.get(t, set())
        pulled = pull[(i + 1) * period]
        out.append((i, union == pulled, pulled - union, union - pulled))
        i += 1
    return out


def report_verdicts(report: dict) -> list[tuple[int, bool, set, set]]:
    def answer(items):
        return {frozenset(a.items()) for a in items}

    return [(v["index"], v["verdict"] == "agree", answer(v["missing"]), answer(v["extra"])) for v in report["intervals"]]


def causes(report: dict) -> dict[int, list[str]]:
    return {d["index"]: d["causes"] for d in report["diagnosis"]["intervals"]}


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------- hand-computed verdicts, one cause at a time

# One stream s, one triple at time 5; SELECT ?x WHERE { STREAM s [RANGE 10] { ?x :p ?y } }; U = 5.
# Closed window [t-10, t]: the triple is pulled at 5, 10, 15; pushed at 5 only. Hence
#   [0,5] agree; [5,10] disagree (pulled at 10, nothing pushed in (5,10]): execution mode;
#   [10,15] disagree under closed bounds, agree under left-open ((5,15] misses 5): + window bounds;
#   [15,20] agree (both empty).
WINDOW_QUERY = """PREFIX : <http://ex/>
SELECT ?x WHERE { STREAM <http://ex/s> [RANGE 10s] { ?x :p ?y } }
"""
ONE_TRIPLE = '<http://ex/a> <http://ex/p> <http://ex/o> "5" .\n'


@pytest.fixture
def window_case(tmp_path: Path) -> list[str]:
    q = write(tmp_path, "q.rq", WINDOW_QUERY)
    s = write(tmp_path, "s.nt", ONE_TRIPLE)
    return [q, "--stream", f"http://ex/s={s}", "--period", "5", "--to", "20"]


def test_execution_mode_and_window_bounds_by_hand(capsys, tmp_path, window_case):
    code, report, out = agree(capsys, tmp_path, *window_case)
    assert code == 0
    a = frozenset({("x", "<http://ex/a>")})
    assert report_verdicts(report) == [(0, True, set(), set()), (1, False, {a}, set()),
                                       (2, False, {a}, set()), (3, True, set(), set())]
    assert causes(report) == {1: ["execution-mode"], 2: ["execution-mode", "window-bounds"]}
    assert report["diagnosis"]["other_window_bounds"] == "left-open"
    assert report["summary"]["first_disagreement"] == {"index": 1, "start": 5, "end": 10}
    assert report["summary"]["share_agreeing"] == 0.5
    assert report["static_check"]["condition_ii_holds"] is True
    assert "execution-mode,window-bounds" in out


def test_left_open_bounds_by_hand(capsys, tmp_path, window_case):
    # (t-10, t]: pulled at 5 and 10 only: [10,15] now agrees; the other convention (closed) keeps
    # [5,10] disagreeing, so its only cause is the execution mode.
    code, report, _ = agree(capsys, tmp_path, *window_case, "--window-bounds", "left-open")
    assert code == 0
    assert [v[1] for v in report_verdicts(report)] == [True, False, True, True]
    assert causes(report) == {1: ["execution-mode"]}
    assert report["diagnosis"]["other_window_bounds"] == "closed"


def test_fail_on_disagree_and_no_diagnosis(capsys, tmp_path, window_case):
    code, report, _ = agree(capsys, tmp_path, *window_case, "--fail-on-disagree", "--no-diagnosis")
    assert code == 1
    assert report["diagnosis"] is None
    code, report, _ = agree(capsys, tmp_path, *window_case, "--fail-on-disagree", "--to", "5")
    assert code == 0 and report["summary"]["intervals"] == 1 and report["summary"]["all_agree"]


# Condition (ii): stream pattern ?x :p :o; the stream has :a :p :o at 5; RANGE 3; U = 5.
# τ1 also matches the static default graph, τ2 only the stream.
DATASET_QUERY = """PREFIX : <http://ex/>
SELECT ?x WHERE { STREAM <http://ex/s> [RANGE 3s] { ?x :p :o } }
"""


def test_dataset_cause_by_hand(capsys, tmp_path):
    # static :b :p :o matches the stream pattern: τ1 pulls {a, b} at 5 and {b} at 10, τ2 pulls {a}
    # at 5 and {} at 10, τ2 pushes {a} at 5. Both intervals disagree, by the dataset only.
    q = write(tmp_path, "q.rq", DATASET_QUERY)
    s = write(tmp_path, "s.nt", '<http://ex/a> <http://ex/p> <http://ex/o> "5" .\n')
    static = write(tmp_path, "static.nt", "<http://ex/b> <http://ex/p> <http://ex/o> .\n")
    code, report, out = agree(capsys, tmp_path, q, "--stream", f"http://ex/s={s}", "--static", static,
                              "--period", "5", "--to", "10")
    assert code == 0
    b = frozenset({("x", "<http://ex/b>")})
    assert report_verdicts(report) == [(0, False, {b}, set()), (1, False, {b}, set())]
    assert causes(report) == {0: ["dataset"], 1: ["dataset"]}
    assert report["diagnosis"]["intervals"][0]["dataset"] == {"only_tau1": [{"x": "<http://ex/b>"}], "only_tau2": []}
    check = report["static_check"]
    assert check["condition_ii_holds"] is False
    assert check["overlaps"] == [{"side": "stream-pattern-matches-static", "pattern": ["?x", "<http://ex/p>", "<http://ex/o>"],
                                  "stream": "http://ex/s", "witness": ["<http://ex/b>", "<http://ex/p>", "<http://ex/o>"],
                                  "matches": 1}]
    assert "condition (ii) violated" in out


def test_dataset_condition_holds_and_agrees(capsys, tmp_path):
    # the static triple does not match the stream pattern: τ1 and τ2 build the same dataset, and
    # with U = 5 the only evaluation with the triple in the window ([2,5]) is at 5 for both modes.
    q = write(tmp_path, "q.rq", DATASET_QUERY)
    s = write(tmp_path, "s.nt", '<http://ex/a> <http://ex/p> <http://ex/o> "5" .\n')
    static = write(tmp_path, "static.nt", "<http://ex/b> <http://ex/q> <http://ex/o> .\n")
    code, report, _ = agree(capsys, tmp_path, q, "--stream", f"http://ex/s={s}", "--static", static,
                            "--period", "5", "--to", "10", "--fail-on-disagree")
    assert code == 0
    assert [v[1] for v in report_verdicts(report)] == [True, True]
    assert report["static_check"]["condition_ii_holds"] is True
    assert report["diagnosis"]["counts"] == {"dataset": 0, "execution-mode": 0, "window-bounds": 0, "unexplained": 0}


def test_static_pattern_matching_stream_data_is_listed(capsys, tmp_path):
    # ?x :q ?z is a static pattern, but the stream carries :q triples (the other side of (ii))
    q = write(tmp_path, "q.rq", """PREFIX : <http://ex/>
SELECT ?x WHERE { STREAM <http://ex/s> [RANGE 3s] { ?x :p :o } ?x :q ?z }
""")
    s = write(tmp_path, "s.nt", '<http://ex/a> <http://ex/p> <http://ex/o> "5" .\n<http://ex/a> <http://ex/q> <http://ex/z> "5" .\n')
    code, report, _ = agree(capsys, tmp_path, q, "--stream", f"http://ex/s={s}", "--period", "5", "--to", "10")
    assert code == 0
    (overlap,) = report["static_check"]["overlaps"]
    assert overlap["side"] == "static-pattern-matches-stream" and overlap["pattern"] == ["?x", "<http://ex/q>", "?z"]
    # τ1 merges :a :q :z into the default graph and answers a at 5; τ2 finds no static :q triple
    assert causes(report) == {0: ["dataset"]}


# ------------------------------------- the running example of Dao-Tran, Beck, Eiter 2015: hand-computed and by run


@pytest.mark.parametrize("period, disagreeing", [(5, []), (10, []), (3, [6])])
def test_running_example_by_hand(capsys, tmp_path, period, disagreeing):
    # Claire near a and b at 18 (window 5): the coupon of b (25 %, rayban, window 30) is pushed at 18
    # and pulled at every multiple of U in [18, 23]: with U = 3 at 18 and 21, and (18, 21] has no push.
    code, report, _ = agree(capsys, tmp_path, "--pull", str(EXAMPLE / "q1.rq"), "--push", str(EXAMPLE / "q2.rq"),
                            *EX_DATA, "--period", f"{period}m", "--to", "50")
    assert code == 0
    assert [v["index"] for v in report["intervals"] if v["verdict"] == "disagree"] == disagreeing
    assert report["inputs"]["mode"] == "two-queries"
    assert [q["translation"] for q in report["inputs"]["queries"]] == ["tau1", "tau2"]
    assert all(c == ["execution-mode"] for c in causes(report).values())


@pytest.mark.parametrize("period", [3, 5])
def test_running_example_equals_the_definition_on_run_outputs(capsys, tmp_path, period):
    pull = run_jsonl(capsys, tmp_path, "pull.jsonl", str(EXAMPLE / "q1.rq"), *EX_DATA, "--period", f"{period}m", "--to", "50")
    push = run_jsonl(capsys, tmp_path, "push.jsonl", str(EXAMPLE / "q2.rq"), *EX_DATA, "--to", "50")
    assert sorted(pull) == list(range(0, 50 + 1, period))  # every multiple of U, time 0 included
    _, report, _ = agree(capsys, tmp_path, "--pull", str(EXAMPLE / "q1.rq"), "--push", str(EXAMPLE / "q2.rq"),
                         *EX_DATA, "--period", f"{period}m", "--to", "50")
    assert report_verdicts(report) == naive_verdicts(pull, push, period, 50)


@pytest.mark.parametrize("seed, rate, period", [(3, 0.4, 5), (11, 1.5, 4)])
def test_generated_streams_equal_the_definition_on_run_outputs(capsys, tmp_path, seed, rate, period):
    """Streams made by ``rsplars gen`` (not in the repository): one query, cs(Q) against cq(Q) brave."""
    gen = tmp_path / "gen"
    assert main(["gen", "coupons", "--rate", str(rate), "--duration", "40", "--seed", str(seed), "--shops", "3",
                 "--customers", "2", "--products", "4", "--output-dir", str(gen)]) == 0
    capsys.readouterr()
    data = ["--stream", f"{OFFERS}={gen / 'offers.nt'}", "--stream", f"{NEAR}={gen / 'near.nt'}",
            "--static", str(gen / "static.n3"), "--unit", "m"]
    q1 = str(EXAMPLE / "q1.rq")
    pull = run_jsonl(capsys, tmp_path, "pull.jsonl", q1, *data, "--period", str(period) + "m", "--to", "40")
    push = run_jsonl(capsys, tmp_path, "push.jsonl", q1, *data, "--as", "cqels-brave", "--to", "40")
    _, report, _ = agree(capsys, tmp_path, q1, *data, "--period", str(period) + "m", "--to", "40")
    expected = naive_verdicts(pull, push, period, 40)
    assert {agrees for _, agrees, _, _ in expected} == {True, False}  # both verdicts occur: a real check
    assert report_verdicts(report) == expected
    assert report["inputs"]["mode"] == "cqels-brave"
    assert report["diagnosis"]["counts"]["unexplained"] == 0


# ------------------------------------------------------------------------- reports and options


def test_reports_validate_and_html_plot(capsys, tmp_path, window_case):
    html = tmp_path / "r.html"
    code, report, _ = agree(capsys, tmp_path, *window_case, "--html", str(html))
    assert code == 0
    jsonschema.validate(report, json.loads(SCHEMA.read_text(encoding="utf-8")))
    text = html.read_text(encoding="utf-8")
    assert text.count('class="mark agree"') == 2 and text.count('class="mark disagree"') == 2
    assert report["inputs"]["period"] == 5 and report["inputs"]["to"] == 20 and report["inputs"]["from"] is None


def test_cqels_all_writes_one_report_per_member(capsys, tmp_path):
    report = tmp_path / "all.json"
    code = main(["agree", str(EXAMPLE / "q1.rq"), *EX_DATA, "--period", "5m", "--to", "30", "--as", "cqels-all",
                 "--report", str(report), "--no-diagnosis"])
    out = capsys.readouterr().out
    assert code == 0
    paths = sorted(tmp_path.glob("all.*.json"))
    assert [p.name for p in paths] == [f"all.{k}.json" for k in range(1, 5)]  # 2^|S| members, |S| = 2
    assert all(json.loads(p.read_text())["inputs"]["mode"] == "cqels-all" for p in paths)
    assert out.count("== ") == 4


def test_default_period_from_the_window_step(capsys, tmp_path):
    q = write(tmp_path, "q.rq", """PREFIX : <http://ex/>
SELECT ?x WHERE { STREAM <http://ex/s> [RANGE 10s SLIDE 5s] { ?x :p ?y } }
""")
    s = write(tmp_path, "s.nt", ONE_TRIPLE)
    code, report, _ = agree(capsys, tmp_path, q, "--stream", f"http://ex/s={s}", "--no-diagnosis")
    assert code == 0 and report["inputs"]["period"] == 5


@pytest.mark.parametrize("argv, message", [
    (["--pull", "A"], "give one QUERY, or both --pull"),
    (["Q", "--pull", "A", "--push", "B"], "not both"),
    (["{q}", "--from", "9", "--to", "3"], "--from 9 is after --to 3"),
])
def test_usage_errors(capsys, tmp_path, argv, message):
    q = write(tmp_path, "q.rq", WINDOW_QUERY)
    s = write(tmp_path, "s.nt", ONE_TRIPLE)
    argv = [a.replace("{q}", q) for a in argv]
    assert main(["agree", *argv, "--stream", f"http://ex/s={s}", "--period", "5"]) == 2
    assert message in capsys.readouterr().err


def test_missing_period_is_a_user_error(capsys, tmp_path):
    q = write(tmp_path, "q.rq", WINDOW_QUERY)
    s = write(tmp_path, "s.nt", ONE_TRIPLE)
    assert main(["agree", q, "--stream", f"http://ex/s={s}"]) == 2
    err = capsys.readouterr().err
    assert "--period" in err and "Traceback" not in err


def test_from_selects_the_complete_intervals_after_it(capsys, tmp_path, window_case):
    code, report, _ = agree(capsys, tmp_path, *window_case, "--from", "3")
    assert code == 0
    assert [v["index"] for v in report["intervals"]] == [1, 2, 3]  # [0,5] starts before 3
    assert report["summary"]["range"] == {"from": 3, "to": 20}


def test_csparql_push_query_is_replaced_by_its_brave_counterpart(capsys, tmp_path):
    """--pull Q1 --push Q1 (both C-SPARQL) is the one-query comparison cs(Q1) vs brave cq(Q1)."""
    args = [*EX_DATA, "--period", "3m", "--to", "30", "--no-diagnosis"]
    _, two, _ = agree(capsys, tmp_path, "--pull", str(EXAMPLE / "q1.rq"), "--push", str(EXAMPLE / "q1.rq"), *args)
    _, one, _ = agree(capsys, tmp_path, str(EXAMPLE / "q1.rq"), *args)
    assert two["intervals"] == one["intervals"]
    assert [v["verdict"] for v in one["intervals"]].count("disagree") == 1
    assert two["inputs"]["mode"] == "two-queries" and one["inputs"]["mode"] == "cqels-brave"
