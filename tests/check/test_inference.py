"""``rsplars check --infer`` (:mod:`translator.agreement.inference`): every setting of t0, report
policy, tick, R2S, window bounds and empty relations under which a recorded output is correct
(Dell'Aglio et al. 2014, Definition 25 with every hidden parameter searched), the choices common to
all of them, and the closest settings with their first mismatch where none is correct.

Hand-made outputs (``examples/check/``: C-SPARQL's, CQELS' and C-SPARQL's with an early report, on
four readings), the CSRBench recorded answers of published passes (the engine's own profile is among
the answers, Dell'Aglio et al. 2013, §7), every correct setting judged again by ``check`` with that
setting, and bad input on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from translator.agreement.check import as_actual, check, read_answers, time_factor
from translator.agreement.inference import explanation, infer, parameter_space, sufficient_choices
from translator.agreement.inference_html import render_inference_html
from translator.cli import main
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.query.parse import parse
from translator.rdf.streams import merge_streams, read_streams
from translator.rdf.timeunits import TimeSpec
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "check"
TEMPS = "http://example.org/temps"
HOT = ["check", str(EXAMPLE / "hot.rq"), "--stream", f"{TEMPS}={EXAMPLE / 'temps.nt'}", "--stream-time-unit", "ms",
       "--answers-time-unit", "ms"]


def evaluator(query: Path, stream_iri: str, stream: Path, stream_unit: str) -> Evaluator:
    q = parse(query.read_text(), "csparql", source=str(query))
    elements = merge_streams(read_streams({stream_iri: str(stream)}, time=TimeSpec("s", stream_unit, None)))
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements)


def answers(path: Path):
    return read_answers(path.read_text(), str(path), time_factor=time_factor("ms", "s"))[1]


@pytest.fixture(scope="module")
def hot():
    return evaluator(EXAMPLE / "hot.rq", TEMPS, EXAMPLE / "temps.nt", "ms")


# ------------------------------------------------------------------------------ hand-made outputs


def test_cqels_output_is_explained_by_istream_and_skipped_empty_relations(hot):
    result = infer(hot, answers(EXAMPLE / "cqels-answers.json"), parameter_space(hot))
    assert result.explained and result.searched == parameter_space(hot).size > 500
    e = result.summary()
    assert e["choices"]["r2s"] == "istream" and e["choices"]["empty_relations"] == "skip"
    assert set(e["constrained"]["report"]) == {"content-change", "content-change,non-empty"}
    assert "cc_mode" in e["irrelevant"] and "tick" in e["irrelevant"]
    assert "cqels" in result.profiles() and "csparql" not in result.profiles()
    # the explanation is the correct set: every correct setting is one of the explanations, nothing else is
    projected = [{p: v for p, v in s.as_dict().items() if p not in e["irrelevant"]} for s in result.correct]
    assert all(x in e["explanations"] for x in projected) and all(x in projected for x in e["explanations"])


def test_every_correct_setting_is_correct_for_check_and_the_best_others_are_not(hot):
    """Independent of the search's sharing of evaluations: ``check`` with each setting fixed."""
    actual = answers(EXAMPLE / "csparql-answers.json")
    space = parameter_space(hot)
    result = infer(hot, actual, space)
    assert result.correct and "csparql" in result.profiles()
    for s in result.correct:
        assert check(hot, actual, s.operational(), t0_fixed=True, end=result.horizon, other_profiles=False).correct, s
    others = sorted((s for s in result.scores if s not in set(result.correct)), key=lambda s: -result.scores[s])
    for s in others[:40]:
        assert not check(hot, actual, s.operational(), t0_fixed=True, end=result.horizon, other_profiles=False).correct


def test_an_early_report_is_explained_by_no_setting_and_the_closest_says_why(hot):
    """Under windows that open at t0 nothing explains the report at 3 of a window that closes at 4;
    windows that close at multiples of the step do (t0 = 1: the first window [-1, 3) closes at 3)."""
    early = answers(EXAMPLE / "csparql-early.json")
    aligned = infer(hot, early, parameter_space(hot, actual=early))
    assert aligned.explained and {(s.t0, s.window_alignment) for s in aligned.correct} == {((1,), "step")}
    result = infer(hot, early, parameter_space(hot, window_alignment="t0"))
    assert not result.explained and result.summary()["choices"] == {}
    assert len(result.closest) == 3
    first = result.closest[0]
    assert first["mismatch"]["timestamp"] == 3 and first["mismatch"]["expected"] is None
    assert first["mismatch"]["diagnosis"][0].startswith("early report of an open window")
    scores = [c["score"] for c in result.closest]
    assert scores == sorted(scores, reverse=True)


def test_explanation_names_choices_irrelevant_and_constrained_parameters():
    """A small space by hand: the output is correct for t0 ∈ {0, 1} with R2S istream only, whatever
    the empty-relation policy."""
    from translator.agreement.inference import Space

    space = Space(((0,), (1,)), (frozenset({"window-close"}),), ("arrivals",), ("time",), ("rstream", "istream"),
                  ("emit", "skip"), ("closed",))
    correct = [s for s in space.settings() if s.r2s == "istream"]
    e = explanation(correct, space, set(space.settings()))
    assert e["choices"] == {"report": "window-close", "cc_mode": "arrivals", "tick": "time", "r2s": "istream",
                            "window_bounds": "closed"}
    assert e["irrelevant"] == ["t0", "empty_relations"] and e["constrained"] == {}
    assert e["explanations"] == [{"report": "window-close", "cc_mode": "arrivals", "tick": "time", "r2s": "istream",
                                  "window_bounds": "closed"}]
    one = [s for s in correct if s.t0 == (0,)]
    e = explanation(one, space, set(space.settings()))
    assert e["choices"]["t0"] == 0 and e["irrelevant"] == ["empty_relations"]
    assert sufficient_choices(set(correct), space.settings()) == {"size": 1, "choices": [{"r2s": "istream"}]}
    assert sufficient_choices(set(one), space.settings()) == {"size": 2, "choices": [{"t0": 0, "r2s": "istream"}]}


def test_the_smallest_sufficient_choices_leave_only_correct_settings_and_none_smaller_does(hot):
    """By brute force over the searched settings: each sufficient set of choices admits only correct
    settings, and no set of fewer parameters does."""
    import itertools

    from translator.agreement.inference import PARAMETERS

    result = infer(hot, answers(EXAMPLE / "cqels-answers.json"), parameter_space(hot))
    suff = result.summary()["sufficient"]
    correct = set(result.correct)
    for choice in suff["choices"]:
        matching = [s for s in result.scores if all(s.as_dict()[p] == v for p, v in choice.items())]
        assert matching and all(s in correct for s in matching)
    for subset in itertools.combinations(PARAMETERS, suff["size"] - 1):
        groups: dict = {}
        for s in result.scores:
            groups.setdefault(tuple(s.value(p) for p in subset), []).append(s in correct)
        assert not any(all(g) for g in groups.values())


def test_options_given_fix_their_parameter(hot):
    space = parameter_space(hot, r2s="rstream", window_bounds="right-open", t0=(1,))
    assert space.r2s == ("rstream",) and space.window_bounds == ("right-open",) and space.t0 == ((1,),)
    result = infer(hot, answers(EXAMPLE / "cqels-answers.json"), space)
    assert not result.explained and all(c["setting"]["r2s"] == "rstream" for c in result.closest)


def test_a_tuple_tick_beyond_the_budget_is_not_searched_and_said_so(tmp_path):
    """Two readings at 1 s: a tuple tick evaluates the instant after the first one (one partial
    instant); with a budget of 0 those settings are left out, and counted."""
    lines = (EXAMPLE / "temps.nt").read_text().splitlines()
    stream = tmp_path / "temps.nt"
    stream.write_text("\n".join([lines[0], lines[0].replace("/s1>", "/s3>"), *lines[1:]]) + "\n")
    ev = evaluator(EXAMPLE / "hot.rq", TEMPS, stream, "ms")
    space = parameter_space(ev)
    tuple_cc = [s for s in space.settings() if s.tick == "tuple" and "content-change" in s.report]
    result = infer(ev, answers(EXAMPLE / "cqels-answers.json"), space, max_tuple_evaluations=0)
    [reason] = result.unsearched
    assert "tuple tick" in reason and result.unsearched[reason] == len(tuple_cc)
    assert result.searched + len(tuple_cc) == space.size
    assert infer(ev, answers(EXAMPLE / "cqels-answers.json"), space, max_tuple_evaluations=1).unsearched == {}


def test_two_windows_the_rsp_ql_example_is_explained_by_its_own_profile():
    """Dell'Aglio et al. 2014, Examples 9–10 (two windows, ``WC ∧ NC``, RStream, windows (o, c]): the
    output of the rsp-ql profile is explained by settings that all report on window close with the
    non-empty guard, emit empty relations and use left-open windows; t0 is searched per window."""
    from check_helpers import rspql

    ev = rspql()
    output = as_actual(ev.relations(PROFILES["rsp-ql"].params), ev.variables)
    space = parameter_space(ev)
    assert all(len(z) == 2 for z in space.t0) and len(space.t0) == 6 * 3
    result = infer(ev, output, space)
    e = result.summary()
    assert e["choices"] == {"report": "window-close,non-empty", "empty_relations": "emit",
                            "window_bounds": "left-open"}
    assert [0, 0] in result.profiles()["rsp-ql"]["t0"]
    for s in result.correct:
        assert check(ev, output, s.operational(), t0_fixed=True, end=result.horizon, other_profiles=False).correct


# -------------------------------------------------------------------------------- command line


def test_cli_infer_exit_codes_reports_and_profile(tmp_path, capsys):
    report, html = tmp_path / "r.json", tmp_path / "r.html"
    code = main([*HOT, "--answers", str(EXAMPLE / "cqels-answers.json"), "--infer", "--profile", "cqels",
                 "--json", str(report), "--html", str(html)])
    out = capsys.readouterr().out
    assert code == 0 and "explained: correct under" in out and "profile cqels: explains the output" in out
    data = json.loads(report.read_text())
    assert data["correct"] is True and data["profile_explains"] is True
    assert data["inference"]["explanation"]["choices"]["r2s"] == "istream"
    assert len(data["inference"]["correct"]) == data["inference"]["correct_settings"]
    page = html.read_text()
    assert "explained: correct under" in page and "<td>istream</td>" in page and "cqels: t0 =" in page
    code = main([*HOT, "--answers", str(EXAMPLE / "csparql-early.json"), "--infer", "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 1 and "not explained" in out and "early report of an open window" in out
    data = json.loads(report.read_text())
    assert data["correct"] is False and data["inference"]["closest"][0]["mismatch"]["timestamp"] == 3
    page = render_inference_html(data)
    assert "unexplained" in page and "Closest settings" in page and "early report of an open window" in page


def test_cli_infer_bad_input_is_located_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"relations": [\n  {"timestamp": 1000, "results": {"bindings": [}\n]}\n')
    report = tmp_path / "r.json"
    code = main([*HOT, "--answers", str(bad), "--infer", "--json", str(report)])
    err = capsys.readouterr().err
    assert code == 2 and f"{bad}:2:" in err and "Traceback" not in err and not report.exists()
    code = main([*HOT, "--answers", str(EXAMPLE / "cqels-answers.json"), "--infer", "--report-period", "2s"])
    assert code == 2 and "--report-period" in capsys.readouterr().err

