"""CSRBench Listing 1 (Dell'Aglio et al. 2013, RANGE 10s STEP 10s) over the CSRBench oracle's own test stream
(m1, m2 detected at r1 at 1 s and 3 s, at r2 at 12 s and 15 s; ``tests/data/rdf/csrbench``), with
the results that Dell'Aglio et al. 2013, Fig. 1 gives for windows starting at 0: {r1} at 10, {r2} at 20
(C-SPARQL model: window close, Rstream)."""

from __future__ import annotations

import pytest

from cli_helpers import DATA, jsonl

QUERY = DATA / "queries" / "seeds" / "s002_listing1.rq"
STREAM = "http://www.example.org/stream1=" + str(DATA / "rdf" / "csrbench" / "listing1.nt")
R1, R2 = {"room": "<http://ex.org/r1>"}, {"room": "<http://ex.org/r2>"}


@pytest.mark.parametrize("bounds", ["closed", "left-open", "right-open"])
def test_listing1_reports_r1_at_10_and_r2_at_20(run_cli, bounds):
    # no element lies on a window border (1, 3, 12, 15 s), so the three conventions agree (D2)
    code, out, err = run_cli("run", QUERY, "--stream", STREAM, "--stream-time-unit", "ms", "--unit", "s",
                             "--window-bounds", bounds)
    assert code == 0, err
    assert jsonl(out) == {0: [], 10: [R1], 20: [R2]}  # pull every STEP = 10 s, up to 15 rounded up


def test_listing1_in_milliseconds_and_istream(run_cli):
    code, out, err = run_cli("run", QUERY, "--stream", STREAM, "--stream-time-unit", "ms", "--unit", "ms",
                             "--window-bounds", "right-open", "--r2s", "istream", "--to", "30000")
    assert code == 0, err
    assert jsonl(out) == {0: [], 10000: [R1], 20000: [R2], 30000: []}


@pytest.mark.parametrize("m1, m2, expected", [
    # m2 at exactly 10 s: [0,10] and (0,10] hold m1@1 and m2@10, [0,10) misses m2
    (1000, 10000, {"closed": [R1], "left-open": [R1], "right-open": []}),
    # m1 at exactly 0 s as well: (0,10] misses m1, [0,10) misses m2, only [0,10] holds both
    (0, 10000, {"closed": [R1], "left-open": [], "right-open": []}),
    # m1 at 0, m2 at 9 s: only the left-open (0,10] misses one (m1)
    (0, 9000, {"closed": [R1], "left-open": [], "right-open": [R1]}),
])
def test_listing1_window_borders_show_the_conventions(run_cli, tmp_path, m1, m2, expected):
    """Detections on the borders of the tumbling window [RANGE 10s STEP 10s] evaluated at 10 (D2)."""
    stream = tmp_path / "s.nt"
    stream.write_text(f'<http://ex.org/m1> <http://ex.org/detectedAt> <http://ex.org/r1> "{m1}"\n'
                      f'<http://ex.org/m2> <http://ex.org/detectedAt> <http://ex.org/r1> "{m2}"\n')
    for bounds, at10 in expected.items():
        code, out, err = run_cli("run", QUERY, "--stream", f"http://www.example.org/stream1={stream}",
                                 "--stream-time-unit", "ms", "--window-bounds", bounds, "--to", "10")
        assert code == 0, err
        assert jsonl(out) == {0: [], 10: at10}, bounds
