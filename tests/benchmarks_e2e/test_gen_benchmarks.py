"""``rsplars gen citybench|srbench``: seeded, byte-identical output in the benchmarks'
vocabularies that ``rsplars run`` reads back, and a CityBench query answered on it."""

from __future__ import annotations

import json
from pathlib import Path

from translator.cli import main

SES = "http://www.insight-centre.org/dataset/SampleEventService#"
QUERIES = Path(__file__).resolve().parents[1] / "data" / "queries"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_gen_citybench_is_deterministic_and_runs_cqels_q1(capsys, tmp_path) -> None:
    services = ["--service", SES + "AarhusTrafficData182955", "--service", SES + "AarhusTrafficData158505"]
    for d in ("a", "b"):
        code, _, err = run(capsys, "gen", "citybench", *services, "--duration", "10", "--seed", "3",
                           "--output-dir", tmp_path / d)
        assert code == 0, err
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == ["AarhusTrafficData158505.nt", "AarhusTrafficData182955.nt", "events.nt", "sensors.nt"]
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    a = tmp_path / "a"
    code, out, err = run(capsys, "run", QUERIES / "cqels" / "Q1.txt", "--unit", "s",
                         "--stream", f"{SES}AarhusTrafficData182955={a / 'AarhusTrafficData182955.nt'}",
                         "--stream", f"{SES}AarhusTrafficData158505={a / 'AarhusTrafficData158505.nt'}",
                         "--static", a / "sensors.nt")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert records and any(r["answers"] for r in records)
    assert all('"^^<http://www.w3.org/2001/XMLSchema#double>' in a["v1"] for r in records for a in r["answers"])


def test_gen_srbench_float_observations(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "gen", "srbench", "--rate", "0.5", "--duration", "20", "--output-dir", tmp_path)
    assert code == 0, err
    text = (tmp_path / "observations.nt").read_text()
    assert "sensor-observation.owl#floatValue" in text and "XMLSchema#float>" in text
    code, _, err = run(capsys, "gen", "citybench", "--service", "http://example.org/unknown", "--duration", "5",
                       "--output-dir", tmp_path / "x")
    assert code == 2 and "not a CityBench service IRI" in err
