"""bench/agreement_density.py on a tiny grid: its shares equal ``rsplars gen`` + ``rsplars agree``
run on the same scenario (an independent path: files, CLI, real pull runs per period)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from translator.cli import main as rsplars

ROOT = Path(__file__).resolve().parents[2]


def load_bench():
    spec = importlib.util.spec_from_file_location("agreement_density", ROOT / "bench" / "agreement_density.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_cells_equal_the_cli(tmp_path, capsys, monkeypatch):
    bench = load_bench()
    monkeypatch.setattr(bench, "RATES", (0.5,))
    monkeypatch.setattr(bench, "PERIODS", (2, 5))
    monkeypatch.setattr(bench, "SEEDS", (7,))
    monkeypatch.setattr(bench, "DURATION", 40)
    monkeypatch.setattr(bench, "RESULTS", tmp_path / "results")
    assert bench.main([]) == 0
    capsys.readouterr()
    cells = json.loads((tmp_path / "results" / "agreement_density.json").read_text())["cells"]
    assert (tmp_path / "results" / "agreement_density.md").read_text().startswith("# Agreement")
    gen = tmp_path / "gen"
    sc = bench.SCENARIO
    assert rsplars(["gen", "coupons", "--rate", "0.5", "--duration", "40", "--seed", "7", "--shops", str(sc["shops"]),
                    "--customers", str(sc["customers"]), "--products", str(sc["products"]), "--stay", str(sc["stay"]),
                    "--ping", str(sc["ping"]), "--output-dir", str(gen)]) == 0
    for cell in cells:
        report = tmp_path / f"r{cell['period']}.json"
        assert rsplars(["agree", str(bench.QUERY), "--stream", f"http://example.org/stream/offers={gen / 'offers.nt'}",
                        "--stream", f"http://example.org/stream/near={gen / 'near.nt'}", "--static",
                        str(gen / "static.n3"), "--unit", "m", "--period", str(cell["period"]), "--to", "40",
                        "--other-window-bounds", "none", "--report", str(report)]) == 0
        capsys.readouterr()
        data = json.loads(report.read_text())
        assert (cell["intervals"], cell["agreeing"]) == (data["summary"]["intervals"], data["summary"]["agreeing"])
        assert cell["execution-mode"] == data["diagnosis"]["counts"]["execution-mode"]
    assert any(c["agreeing"] < c["intervals"] for c in cells)  # the comparison is not between trivial runs
