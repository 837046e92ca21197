"""RSP-JS run live (the real engine: npm rsp-js 1.3.5 through engines/rsp-js/run.js, installed by
`make rsp-js`), as the Spark tests run real Spark: its own example, the window behaviour docs/engines.md
records, a CityBench query judged live, the comparison with `rsplars run`, and the errors when Node.js
or the package is missing."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from translator.engines import EngineError
from translator.engines.inputs import prepare_input
from translator.engines.rsp_js import RUNNER_DIR, RspJsEngine
from translator.rdf.generators import citybench
from translator.rdf.streams import read_stream, write_ntriples
from translator.rdf.terms import to_nt

DATA = Path(__file__).resolve().parents[1] / "data"
ENGINES = DATA / "engines"
EXAMPLE = ENGINES / "rspjs_example.rq"
STREAM1 = "https://rsp.js/stream1"


def timestamped(path: Path, times: list[int], subject: str = "https://rsp.js/test_subject_") -> Path:
    """RSP-JS's generate_data: one element per time, subject k at the k-th time (ms)."""
    path.write_text("".join(f'<{subject}{k}> <http://rsp.js/test_property> <http://rsp.js/test_object> "{t}" .\n'
                            for k, t in enumerate(times)))
    return path


def run_rsp_js(tmp_path: Path, query: Path, stream: Path, iri: str = STREAM1, unit: str = "ms") -> list[dict]:
    elements = read_stream(stream, iri)
    given = prepare_input(query, [(iri, str(stream))], elements, [], tmp_path / "run", base_unit=unit,
                          engine_unit="ms")
    out = RspJsEngine().run(given)
    assert out.log is not None and out.log.stat().st_size > 0, "RSP-JS's own printing went to the log"
    return [json.loads(line) for line in out.path.read_text().splitlines()]


def subjects(report: dict) -> list[int]:
    return sorted(int(a["s"].rsplit("_", 1)[1][:-1]) for a in report["answers"])


def test_its_own_example_gives_twenty_bindings(tmp_path):
    """src/rsp.test.ts: [RANGE 10 STEP 2] over ten elements at t = 0..9 gives 2 + 4 + 6 + 8 bindings."""
    reports = run_rsp_js(tmp_path, EXAMPLE, timestamped(tmp_path / "s.nt", list(range(10))))
    assert sum(len(r["answers"]) for r in reports) == 20
    assert [tuple(r["window"]) for r in reports] == [(-8, 2), (-6, 4), (-4, 6), (-2, 8)]
    assert [r["t"] for r in reports] == [2, 4, 6, 8]
    for r in reports:  # [o, c): the elements o <= t < c (element k is at t = k)
        assert subjects(r) == [t for t in range(10) if r["window"][0] <= t < r["window"][1]]


def test_windows_are_right_open_and_only_the_latest_closed_window_reports(tmp_path):
    """[RANGE 4 STEP 2]: dense data shows [o, c) (the element at c is not in the window closing at c);
    after a gap, an element reports only the latest window closed before it, once."""
    query = tmp_path / "q.rq"
    query.write_text(EXAMPLE.read_text().replace("[RANGE 10 STEP 2]", "[RANGE 4 STEP 2]"))
    dense = run_rsp_js(tmp_path / "dense", query, timestamped(tmp_path / "dense.nt", list(range(10))))
    assert [(tuple(r["window"]), subjects(r)) for r in dense] == [
        ((c - 4, c), [t for t in range(10) if c - 4 <= t < c]) for c in (2, 4, 6, 8)]
    gap = run_rsp_js(tmp_path / "gap", query, timestamped(tmp_path / "gap.nt", [0, 1, 9]))
    assert [(tuple(r["window"]), subjects(r)) for r in gap] == [((0, 4), [0, 1])]  # [-2, 2) is never reported


def test_every_emitted_binding_moves_the_window_origin_by_one_step(tmp_path):
    """RSP-JS's register() adds the slide to the window's t0 for every binding it emits, and scope() opens
    the windows of an element from that t0: with ten elements per instant, 20 bindings at the first report
    move t0 to 40 > t, and the windows [4, 8), [6, 10) are never opened, so never reported (with one element
    per instant, as in its own example, t0 stays behind the elements and every window reports)."""
    query = tmp_path / "q.rq"
    query.write_text(EXAMPLE.read_text().replace("[RANGE 10 STEP 2]", "[RANGE 4 STEP 2]"))
    times = [t for t in range(10) for _ in range(10)]
    stream = tmp_path / "many.nt"
    stream.write_text("".join(f'<https://rsp.js/e_{k}> <http://rsp.js/p> <http://rsp.js/o> "{t}" .\n'
                              for k, t in enumerate(times)))
    reports = run_rsp_js(tmp_path, query, stream)
    assert [(tuple(r["window"]), len(r["answers"])) for r in reports] == [((-2, 2), 20), ((0, 4), 40), ((2, 6), 40)]


def test_the_example_is_judged_live_and_explained_by_windows_opening_before_zero(cli, tmp_path):
    stream = timestamped(tmp_path / "s.nt", list(range(10)))
    base = ["check", EXAMPLE, "--stream", f"{STREAM1}={stream}", "--unit", "ms", "--live-engine", "rsp-js"]
    code, out, err = cli(*base, "--profile", "rsp-ql")
    assert code == 1, err
    assert out.startswith("incorrect") and "diagnosis:" in out
    assert "judged up to t = 8" in err  # the engine's clock stops at its last element, 9
    code, out, err = cli(*base, "--profile", "rsp-ql", "--registration", "-8", "--window-bounds",
                         "right-open", "--empty-relations", "skip", "--json", tmp_path / "r.json")
    assert code == 0, out + err
    assert out.startswith("correct: equals the expected output for t0 = -8")
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["live_engine"]["engine"] == "rsp-js" and report["correct"] is True
    code, out, err = cli(*base, "--infer", "--registration", "-8")
    assert code == 0, out + err
    assert "t0 = -8" in out and "window_bounds = right-open" in out


@pytest.fixture(scope="module")
def citybench_q5(tmp_path_factory):
    """CityBench Q5 in RSP-QL (one traffic window, static events and sensors) on a generated stream whose
    sensors report every 2 s, so that some seconds have no element."""
    query = DATA / "rspql" / "citybench" / "Q5.rq"
    stream = "http://www.insight-centre.org/dataset/SampleEventService#AarhusTrafficData158505"
    data = citybench([stream], duration=20, period=2, readings=2, tick=1, seed=zlib.crc32(b"Q5"))
    folder = tmp_path_factory.mktemp("q5")
    args = []
    for iri, elements in data.streams.items():
        with (folder / "s.nt").open("w") as f:
            write_ntriples(elements, f)
        args += ["--stream", f"{iri}={folder / 's.nt'}"]
        times = sorted({e.t for e in elements})
    for name, graph in data.static.items():
        (folder / f"{name}.nt").write_text("".join(" ".join(to_nt(x) for x in tr) + " .\n" for tr in sorted(graph)))
        args += ["--static", folder / f"{name}.nt"]
    return query, args, times


def test_citybench_query_judged_live_finds_the_windows_a_gap_drops(cli, tmp_path, citybench_q5):
    """Under RSP-JS's windows (t0 = step - range, [o, c), empty relations not emitted) the first mismatch
    is the first window close c (from the first close after the first element) after which the next element
    comes later than the next close: RSP-JS then reports only that later window, and c's relation is lost."""
    query, args, times = citybench_q5
    code, out, err = cli("check", query, *args, "--live-engine", "rsp-js", "--profile", "rsp-ql",
                         "--registration", "-2", "--window-bounds", "right-open", "--empty-relations", "skip",
                         "--json", tmp_path / "r.json")
    assert code == 1, out + err
    report = json.loads((tmp_path / "r.json").read_text())
    following = {c: min(t for t in times if t > c) for c in range(times[0] + 1, times[-1])}
    dropped = [c for c, t in following.items() if t > c + 1]
    assert report["mismatch"]["timestamp"] == dropped[0]
    assert report["mismatch"]["actual"] is None and "dropped relation" in " ".join(report["mismatch"]["diagnosis"])


def test_agree_compares_a_live_rsp_js_run_with_a_live_rsplars_run(cli, tmp_path):
    stream = timestamped(tmp_path / "s.nt", list(range(10)))
    code, out, err = cli("agree", EXAMPLE, "--stream", f"{STREAM1}={stream}", "--unit", "ms",
                         "--live-engine", "rsp-js", "--live-engine", "rsplars:rsp-ql", "--report", tmp_path / "a.json")
    assert code == 1, out + err  # rsplars' rsp-ql windows (o, c] start at 0: the first closes at 10
    report = json.loads((tmp_path / "a.json").read_text())
    assert report["intervals"] == 4 and report["agreeing"] == 0
    assert report["outputs"]["b"]["explained"] and "rsp-ql" in report["outputs"]["b"]["profiles"]
    assert "live run rsp-js" in err and "live run rsplars:rsp-ql" in err


def test_missing_node_is_an_error_saying_what_to_install(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no node on it
    stream = timestamped(tmp_path / "s.nt", [0, 1, 2])
    code, out, err = cli("check", EXAMPLE, "--stream", f"{STREAM1}={stream}", "--unit", "ms",
                         "--live-engine", "rsp-js", "--profile", "rsp-ql")
    assert code == 2 and out == ""
    assert "Node.js" in err and "make rsp-js" in err and "Traceback" not in err


def test_missing_package_is_an_error_saying_what_to_install(cli, tmp_path, monkeypatch):
    folder = tmp_path / "runner"
    folder.mkdir()
    (folder / "run.js").write_text((RUNNER_DIR / "run.js").read_text())  # the runner without node_modules
    monkeypatch.setenv("RSPLARS_RSP_JS_DIR", str(folder))
    stream = timestamped(tmp_path / "s.nt", [0, 1, 2])
    code, out, err = cli("check", EXAMPLE, "--stream", f"{STREAM1}={stream}", "--unit", "ms",
                         "--live-engine", "rsp-js", "--profile", "rsp-ql")
    assert code == 2 and out == ""
    assert "node_modules/rsp-js is not installed" in err and "make rsp-js" in err


def test_a_failing_run_is_an_error_with_the_runners_message(tmp_path):
    bad = tmp_path / "bad.nt"
    bad.write_text('<https://rsp.js/s> <https://rsp.js/p> "unterminated "1" .\n')
    given = prepare_input(EXAMPLE, [(STREAM1, str(bad))], [], [], tmp_path / "run", base_unit="ms", engine_unit="ms")
    (tmp_path / "run" / "stream-1.nt").write_text(bad.read_text())  # the runner reads the bad line itself
    with pytest.raises(EngineError, match=r"RSP-JS failed \(exit 2\).*stream-1\.nt:1:1"):
        RspJsEngine().run(given)


def test_a_window_rsp_js_cannot_read_is_an_error(tmp_path):
    """RSP-JS's parser needs RANGE and STEP; without them it runs without windows and never reports."""
    query = tmp_path / "q.rq"
    query.write_text(EXAMPLE.read_text().replace("[RANGE 10 STEP 2]", "[RANGE 10]"))
    with pytest.raises(EngineError, match="RSP-JS's parser reads no window from the query"):
        run_rsp_js(tmp_path, query, timestamped(tmp_path / "s.nt", [0, 1, 2]))
