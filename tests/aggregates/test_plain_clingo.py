"""Aggregate queries as plain clingo input: ``rsplars run --print-asp-at T`` (the program, the static
facts, the external atoms true at T, and the ``#script (python)`` block of the grounding-time
functions) solved by clingo in a separate process (``python -m clingo --enable-python``) derives
the answers ``rsplars run`` prints at T — the ASP text is a faithful, self-contained export.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lars.streams import parse_ground_atom
from translator.cli import main
from translator.rdf.terms import from_lars, to_nt

DATA = Path(__file__).resolve().parents[1] / "data" / "aggregates"
SEEDS = Path(__file__).resolve().parents[1] / "data" / "queries" / "seeds"


def clingo_answers(path: Path, variables: list[str]) -> list[dict[str, str]]:
    proc = subprocess.run([sys.executable, "-m", "clingo", "--enable-python", "--outf=2", "0", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 10, 30), proc.stderr
    result = json.loads(proc.stdout)
    (model,) = [w["Value"] for call in result["Call"] for w in call.get("Witnesses", [])]
    out = []
    for text in model:
        if text.startswith("answer("):
            terms = [from_lars(a) for a in parse_ground_atom(text).args]
            out.append({v: to_nt(x) for v, x in zip(variables, terms) if x is not None})
    return sorted(out, key=lambda d: sorted(d.items()))


def check(capsys, tmp_path: Path, args: list[str], variables: list[str], times: list[int]) -> None:
    assert main(["run", *args]) == 0
    records = {r["t"]: r["answers"] for r in map(json.loads, capsys.readouterr().out.splitlines())}
    for t in times:
        lp = tmp_path / f"at{t}.lp"
        assert main(["run", *args, "--print-asp-at", str(t), "--output", str(lp)]) == 0
        assert "#script (python)" in lp.read_text()
        assert clingo_answers(lp, variables) == sorted(records[t], key=lambda d: sorted(d.items())), t


def test_csparql_aggregate_in_plain_clingo(capsys, tmp_path):
    args = [str(SEEDS / "s004_q2.rq"), "--stream", f"http://streams.org/citytollgates.trdf={DATA / 'tolls_p1.nt'}",
            "--unit", "m", "--window-bounds", "left-open", "--from", "100", "--to", "114"]
    check(capsys, tmp_path, args, ["tollgate", "passages"], [102, 104, 110, 114])


def test_group_by_sum_avg_min_max_in_plain_clingo(capsys, tmp_path):
    query = tmp_path / "q.rq"
    query.write_text("""PREFIX x: <http://stockexchange.org/exchanges#>
SELECT ?broker (SUM(?amount) AS ?total) (AVG(?amount) AS ?avg) (MIN(?amount) AS ?low) (COUNT(*) AS ?n)
FROM STREAM <http://stockexchange.org/market.trdf> [RANGE 4m STEP 2m]
WHERE { ?broker x:does ?tx . ?tx x:with ?amount . }
GROUP BY ?broker HAVING (COUNT(*) >= 1)""")
    args = [str(query), "--stream", f"http://stockexchange.org/market.trdf={DATA / 'd5_market.nt'}", "--unit", "m"]
    check(capsys, tmp_path, args, ["broker", "total", "avg", "low", "n"], [2, 4, 6, 8, 10])
