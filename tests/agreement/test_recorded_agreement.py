"""``rsplars agree QUERY --answers A --answers B`` (:mod:`translator.agreement.recorded_agreement`): two
recorded outputs interval by interval — in total (Dao-Tran, Beck, Eiter 2015, §5) and timed (the
report-policy-aware reading of Dell'Aglio et al. 2014) — with the cause of every interval that does
not agree: a difference of profile (both outputs correct under some setting) or a wrong engine.

Hand-made outputs (``examples/check/``), a property test on outputs ``rsplars run`` produces under two
random settings (the verdicts against the definitions computed here, both outputs explained), and the
command line (exit codes, reports, bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import URIRef

from translator.agreement.check import as_actual, read_answers, time_factor
from translator.agreement.inference import Setting, parameter_space, report_policies
from translator.agreement.multisets import SETS
from translator.agreement.recorded_agreement import compare_recorded, interval_readings
from translator.cli import main
from translator.evaluate.operational import Evaluator
from translator.evaluate.report_policy import WINDOW_MODELS
from translator.query.parse import parse
from translator.rdf.bags import Bag
from translator.rdf.streams import StreamElement, merge_streams, read_streams
from translator.rdf.timeunits import TimeSpec
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "check"
TEMPS = "http://example.org/temps"
AGREE = ["agree", str(EXAMPLE / "hot.rq"), "--stream", f"{TEMPS}={EXAMPLE / 'temps.nt'}", "--stream-time-unit", "ms"]


@pytest.fixture(scope="module")
def hot() -> Evaluator:
    q = parse((EXAMPLE / "hot.rq").read_text(), "csparql")
    elements = merge_streams(read_streams({TEMPS: str(EXAMPLE / "temps.nt")}, time=TimeSpec("s", "ms", None)))
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


def answers(path: Path | str, text: str | None = None):
    text = Path(path).read_text() if text is None else text
    return read_answers(text, str(path), time_factor=time_factor("ms", "s"))[1]


def rel(*values: str) -> frozenset:
    return frozenset(frozenset({("x", ("iri", v))}) for v in values)


# ------------------------------------------------------------------------------- the readings


def test_readings_of_one_interval_follow_the_definitions():
    """(t1, t2]: in total, the unions of the relations; timed, the same relations at the same times."""
    a = {2: rel("a"), 4: rel("b")}                      # a pull engine at 2 and 4
    b = {1: rel("a"), 3: rel("b"), 4: rel()}            # a push engine: a at 1, b at 3, an empty relation at 4
    assert interval_readings(a, b, 0, 2) == (True, False)
    assert interval_readings(a, b, 2, 4) == (True, False)
    assert interval_readings(a, b, 0, 4) == (True, False)
    assert interval_readings(a, {2: rel("a"), 4: rel("b")}, 0, 4) == (True, True)
    assert interval_readings(a, {2: rel("a")}, 2, 4) == (False, False)
    assert interval_readings({0: rel("a")}, {}, 0, 2) == (True, True)  # time 0 is in no interval (t1, t2]


# ---------------------------------------------------------------------------- hand-made outputs


def test_csparql_and_cqels_outputs_differ_by_profile_in_every_interval(hot):
    report = compare_recorded(hot, answers(EXAMPLE / "csparql-answers.json"), answers(EXAMPLE / "cqels-answers.json"),
                              parameter_space(hot), period=2)
    assert report["agree"] is False and report["intervals"] == 6 and report["agreeing_in_total"] == 0
    assert report["outputs"]["a"]["explained"] and report["outputs"]["b"]["explained"]
    assert "csparql" in report["outputs"]["a"]["profiles"] and "cqels" in report["outputs"]["b"]["profiles"]
    assert report["profile_difference"]["r2s"] == {"a": ["rstream"], "b": ["istream"]}
    assert "report" in report["profile_difference"]
    assert set(report["closest_pair"]["differ_in"]) == {"report", "r2s"}
    for row in report["timeline"]:
        assert row["verdict"] == "disagree" and row["cause"] == "a difference of profile"
    by_end = {row["end"]: row for row in report["timeline"]}
    assert by_end[8]["a_times"] == [7] and by_end[8]["b_times"] == [7]
    assert by_end[2]["explained_by"] == ["report"]  # CQELS' report at 1 s: its content-change policy
    assert by_end[4]["explained_by"] == []
    assert "all of them together" in by_end[4]["explanation"][0]


def test_a_wrong_engine_is_named_in_the_interval_of_its_first_mismatch(hot):
    """Under windows that open at t0 (windows closing at multiples of the step explain B: ``check --infer``)."""
    report = compare_recorded(hot, answers(EXAMPLE / "csparql-answers.json"), answers(EXAMPLE / "csparql-early.json"),
                              parameter_space(hot, window_alignment="t0"), period=2)
    assert [r["verdict"] for r in report["timeline"]] == ["agree", "disagree", "agree", "agree", "agree", "agree"]
    row = report["timeline"][1]
    assert row["cause"] == "at least one engine is wrong"
    assert row["explanation"][0].startswith("B is wrong") and "t = 3, in this interval" in row["explanation"][0]
    assert "early report of an open window" in row["explanation"][0]
    assert report["outputs"]["b"]["explained"] is False and "profile_difference" not in report


def test_the_same_relations_reported_at_other_times_agree_in_total(hot):
    text = (EXAMPLE / "csparql-answers.json").read_text().replace('"timestamp": 5000', '"timestamp": 6000')
    report = compare_recorded(hot, answers(EXAMPLE / "csparql-answers.json"), answers("moved.json", text),
                              parameter_space(hot), period=2)
    assert report["agree"] is True and report["agreeing"] == 5 and report["agreeing_in_total"] == 6
    [row] = [r for r in report["timeline"] if r["verdict"] != "agree"]
    assert row["verdict"] == "agree in total" and (row["start"], row["end"]) == (4, 6)
    assert row["a_times"] == [5] and row["b_times"] == [6]


def doubled(path: Path) -> str:
    """The output with the first binding of its first relation written twice."""
    data = json.loads(path.read_text())
    bindings = data["relations"][0]["results"]["bindings"]
    bindings.insert(0, bindings[0])
    return json.dumps(data)


def test_a_doubled_row_disagrees_as_bags_and_agrees_as_sets(hot):
    """An engine answers bags (SPARQL 1.1 §18.1.6): a row written twice is one more solution, and the
    engine that writes it is wrong; the set view (Dao-Tran, Beck, Eiter 2015, §5) does not see it."""
    a = answers(EXAMPLE / "csparql-answers.json")
    b = answers("doubled.json", doubled(EXAMPLE / "csparql-answers.json"))
    report = compare_recorded(hot, a, b, parameter_space(hot), period=2)
    assert report["compare"] == "bags" and report["agree"] is False
    [row] = [r for r in report["timeline"] if r["verdict"] != "agree"]
    assert row["verdict"] == "disagree" and row["cause"] == "at least one engine is wrong"
    assert row["b_times"] == [5] and any(row["b"].count(x) == 2 for x in row["b"])
    assert "B is wrong" in row["explanation"][0] and "2 times, expected 1" in " ".join(
        report["outputs"]["b"]["closest"]["mismatch"]["diagnosis"])
    as_sets = compare_recorded(hot, a, b, parameter_space(hot), period=2, compare="sets")
    assert as_sets["compare"] == "sets" and as_sets["agree"] is True and as_sets["agreeing"] == as_sets["intervals"]


def test_in_total_as_bags_is_the_multiset_union():
    """A row that persists is reported at every time it holds: the total of an interval has it as often
    as one relation has it most (the multiset union), not the sum over the reports."""
    one, two = Bag([next(iter(rel("a")))]), Bag([next(iter(rel("a")))] * 2)
    assert interval_readings({2: one}, {1: one, 2: one}, 0, 2) == (True, False)
    assert interval_readings({2: two}, {1: one, 2: one}, 0, 2) == (False, False)
    assert interval_readings({2: two}, {1: one, 2: one}, 0, 2, SETS) == (True, False)
    assert interval_readings({2: two}, {1: two, 2: one}, 0, 2) == (True, False)


# ------------------------------------------------------------------------------ property test


EX = "http://example.org/"
S = EX + "s"
NODES = [f"<{EX}{n}>" for n in "ab"]


@st.composite
def cases(draw):
    n = draw(st.integers(1, 5))
    stream = sorted(((draw(st.sampled_from(NODES)), draw(st.sampled_from(NODES)), draw(st.integers(0, 7)))
                     for _ in range(n)), key=lambda e: e[2])
    alpha = draw(st.integers(1, 3))
    beta = draw(st.integers(1, alpha))

    def setting():
        return Setting((draw(st.integers(0, max(beta - 1, alpha))),), draw(st.sampled_from(report_policies())),
                       draw(st.sampled_from(["arrivals", "strict"])), "time",
                       draw(st.sampled_from(["rstream", "istream", "dstream"])),
                       draw(st.sampled_from(["emit", "skip"])), draw(st.sampled_from(WINDOW_MODELS)))

    return stream, alpha, beta, setting(), setting(), draw(st.integers(1, 3))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_two_engines_outputs_are_judged_by_the_definitions_and_explained_by_their_settings(case):
    stream, alpha, beta, s_a, s_b, period = case
    q = parse(f"SELECT ?x ?y WHERE {{ STREAM <{S}> [RANGE {alpha}s SLIDE {beta}s] {{ ?x <{EX}p> ?y }} }}", "cqels")
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    elements = [StreamElement((URIRef(a[1:-1]), URIRef(EX + "p"), URIRef(b[1:-1])), t, URIRef(S)) for a, b, t in stream]
    ev = Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)
    space = parameter_space(ev, tick="time")
    h = max([t for *_, t in stream] + [max(z[0] for z in space.t0)]) + alpha + beta
    out_a = as_actual(ev.relations(s_a.operational(), None, h), ev.variables)
    out_b = as_actual(ev.relations(s_b.operational(), None, h), ev.variables)
    report = compare_recorded(ev, out_a, out_b, space, period=period)

    def by_t(out):
        merged: dict[int, set] = {}
        for r in out:
            merged.setdefault(r.t, set()).update(r.bindings)
        return merged

    a, b = by_t(out_a), by_t(out_b)
    for row in report["timeline"]:
        t1, t2 = row["start"], row["end"]
        a_in = {t: frozenset(v) for t, v in a.items() if t1 < t <= t2}
        b_in = {t: frozenset(v) for t, v in b.items() if t1 < t <= t2}
        total = set().union(*a_in.values()) == set().union(*b_in.values())
        assert row["verdict"] == ("agree" if a_in == b_in else "agree in total" if total else "disagree")
        if row["verdict"] != "agree":
            assert row["cause"] == "a difference of profile"
    assert report["outputs"]["a"]["explained"] and report["outputs"]["b"]["explained"]
    assert report["agree"] == all(r["verdict"] != "disagree" for r in report["timeline"])


# --------------------------------------------------------------------------------- command line


def test_cli_exit_codes_and_reports(tmp_path, capsys):
    report, html = tmp_path / "a.json", tmp_path / "a.html"
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json"), "--answers",
                 str(EXAMPLE / "cqels-answers.json"), "--report", str(report), "--html", str(html)])
    out = capsys.readouterr().out
    assert code == 1 and "0 of 6 intervals of 2 agree" in out and "a difference of profile" in out
    data = json.loads(report.read_text())
    assert data["agree"] is False and len(data["timeline"]) == 6
    page = html.read_text()
    assert 'class="disagree"' in page and "Profile difference" in page and "&lt;http://example.org/s1&gt;" in page
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json"), "--answers",
                 str(EXAMPLE / "csparql-answers.json")])
    assert code == 0 and "6 of 6 intervals of 2 agree" in capsys.readouterr().out
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json"), "--answers",
                 str(EXAMPLE / "cqels-answers.json"), "--period", "12"])
    out = capsys.readouterr().out  # over one long interval the totals coincide: the engines agree (§5)
    assert code == 0 and "0 of 1 intervals of 12 agree, 1 in total" in out and "agree in total" in out


def test_cli_bad_input_exit_2_located(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"relations": [\n  {"timestamp": 1000, "results": {"bindings": [}\n]}\n')
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json"), "--answers", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and f"{bad}:2:" in err and "Traceback" not in err
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json")])
    assert code == 2 and "two recorded outputs" in capsys.readouterr().err
    untimed = tmp_path / "untimed.json"
    untimed.write_text('{"relations": [{"results": {"bindings": []}}]}\n')
    code = main([*AGREE, "--answers", str(EXAMPLE / "csparql-answers.json"), "--answers", str(untimed)])
    assert code == 2 and "without a timestamp" in capsys.readouterr().err


def test_cli_names_the_view_and_pull_push_compares_sets_only(tmp_path, capsys):
    doubled_path = tmp_path / "doubled.json"
    doubled_path.write_text(doubled(EXAMPLE / "csparql-answers.json"))
    pair = ["--answers", str(EXAMPLE / "csparql-answers.json"), "--answers", str(doubled_path)]
    report, html = tmp_path / "a.json", tmp_path / "a.html"
    code = main([*AGREE, *pair, "--report", str(report), "--html", str(html)])
    out = capsys.readouterr().out
    assert code == 1 and "relations compared as bags" in out
    assert json.loads(report.read_text())["compare"] == "bags" and "relations compared as bags" in html.read_text()
    code = main([*AGREE, *pair, "--compare", "sets"])
    assert code == 0 and "relations compared as sets" in capsys.readouterr().out
    # two runs of rsplars, pull against push: the definition is over sets (Dao-Tran, Beck, Eiter 2015, §5)
    code = main([*AGREE, "--compare", "bags"])
    err = capsys.readouterr().err
    assert code == 2 and "defined over sets" in err and "Traceback" not in err
    pull_push = tmp_path / "pp.json"
    code = main([*AGREE, "--report", str(pull_push)])
    out = capsys.readouterr().out
    assert code in (0, 1) and "compared as: sets" in out
    assert json.loads(pull_push.read_text())["inputs"]["compare"] == "sets"
