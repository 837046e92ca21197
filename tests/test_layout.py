"""The folders are the pipeline's stages and imports flow one way.

One query is followed from its text to an agreement verdict through the public library functions,
and each step lives in the stage folder docs/layout.md names, in pipeline order. The import
rules themselves are the import-linter contracts of ``pyproject.toml``, checked here as well as by
``make lint`` (so a plain ``pytest`` run also fails on an import back up the pipeline).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from cli.cli_helpers import Q1, Q2, RUNNING, S1, S2

ROOT = Path(__file__).resolve().parents[1]


def test_one_query_from_text_to_verdict_through_the_stages_in_order():
    from asp.solver import StreamSolver
    from translator.agreement.compare import Comparison, Settings, compare
    from translator.evaluate.run import answers
    from translator.query.parse import parse
    from translator.rdf.static import load_dataset, static_facts
    from translator.rdf.streams import merge_streams, read_streams
    from translator.rdf.timeunits import TimeSpec
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase

    steps = [parse, compile_query, StreamSolver, answers, compare]
    stages = [step.__module__.split(".")[:2] for step in steps]
    assert stages == [["translator", "query"], ["translator", "translate"], ["asp", "solver"],
                      ["translator", "evaluate"], ["translator", "agreement"]]

    q1 = parse(Q1.read_text(), source=str(Q1))
    q2 = parse(Q2.read_text(), source=str(Q2))
    elements = merge_streams(read_streams({S1: RUNNING / "offers.stream", S2: RUNNING / "near.stream"},
                                          time=TimeSpec("m")))
    facts = static_facts(load_dataset([RUNNING / "static.ttl"]))
    compiled = compile_query(q2, base=TimeBase("m"))
    at_18 = [ev for ev in answers(compiled, elements, facts) if ev.t == 18]
    assert len(at_18) == 1 and len(at_18[0].rows) == 1  # Dao-Tran, Beck, Eiter 2015, Ex. 8: shop b, rayban, 25

    report = compare(Comparison("Q1 vs Q2", q1, q2, str(Q1), str(Q2), "two-queries"), elements, facts,
                     Settings(period=6, unit="m", time_to=18, diagnosis=False))
    assert [(v.start, v.end) for v in report.result.intervals] == [(0, 6), (6, 12), (12, 18)]
    assert report.result.intervals[-1].pull  # Q1 pulled at 18 sees the Ex. 8 answer too


def test_import_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert lint, "import-linter is in the test extra (pip install -e '.[test]')"
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout


def test_test_modules_have_names_of_their_own():
    """pytest imports the test folders' modules by their base names (the folders are not packages): two
    test files of one name in two folders stop the whole run at collection."""
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
