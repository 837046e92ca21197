"""Many ``rsplars check`` verdicts at once: ``--answers`` repeated and ``--batch FILE``, judged one by one
or in parallel on Spark; each item's output and JSON report are those of ``rsplars check`` run alone on
that item (the oracle: the sequential command, item by item)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from translator.exits import EXIT_FAILURE, EXIT_OK, EXIT_USAGE
from translator.cli import main

EX = Path(__file__).parents[2] / "examples" / "check"
BASE = [str(EX / "hot.rq"), "--stream", f"http://example.org/temps={EX / 'temps.nt'}", "--stream-time-unit", "ms",
        "--answers-time-unit", "ms"]
#: (answers file, profile, extra options): correct, an early report, another engine's policy, a fixed t0
ITEMS = [
    ("csparql-answers.json", "csparql", []),
    ("csparql-early.json", "csparql", []),
    ("cqels-answers.json", "cqels", []),
    ("cqels-answers.json", "csparql", ["--t0", "1"]),
]


def _alone(capsys, answers: str, profile: str, extra: list[str], report: Path) -> tuple[int, str, str]:
    code = main(["check", *BASE, "--answers", str(EX / answers), "--profile", profile, *extra,
                 "--json", str(report)])
    captured = capsys.readouterr()
    return code, captured.out, report.read_text()


def _sections(out: str) -> list[str]:
    """The items' outputs of a several-item run, without their ``== check K/N`` lines."""
    parts = out.split("== check ")[1:]
    return [part.split("\n", 1)[1] for part in parts]


def _batch(tmp_path: Path, name: str) -> Path:
    lines = ["# outputs of two engines under two profiles", ""]
    for k, (answers, profile, extra) in enumerate(ITEMS):
        words = [*BASE, "--answers", str(EX / answers), "--profile", profile, *extra,
                 "--json", str(tmp_path / f"{name}{k}.json")]
        lines.append(shlex.join(words))
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_batch_judged_in_order_gives_each_item_its_own_output(tmp_path, capsys) -> None:
    alone = [_alone(capsys, a, p, x, tmp_path / f"alone{k}.json") for k, (a, p, x) in enumerate(ITEMS)]
    assert [code for code, _, _ in alone] == [EXIT_OK, EXIT_FAILURE, EXIT_OK, EXIT_FAILURE]
    code = main(["check", "--batch", str(_batch(tmp_path, "seq"))])
    out = capsys.readouterr().out
    assert code == EXIT_FAILURE
    assert _sections(out) == [o for _, o, _ in alone]
    for k, (_, _, report) in enumerate(alone):
        assert (tmp_path / f"seq{k}.json").read_text() == report


def test_repeated_answers_number_the_reports(tmp_path, capsys) -> None:
    code = main(["check", *BASE, "--profile", "csparql", "--answers", str(EX / "csparql-answers.json"),
                 "--answers", str(EX / "csparql-early.json"), "--json", str(tmp_path / "r.json")])
    out = capsys.readouterr().out
    assert code == EXIT_FAILURE
    assert out.count("== check ") == 2 and "== check 2/2: " in out
    first, second = (json.loads((tmp_path / f"r.{k}.json").read_text()) for k in (1, 2))
    assert first["correct"] is True and second["correct"] is False
    _, _, alone = _alone(capsys, "csparql-early.json", "csparql", [], tmp_path / "alone.json")
    assert second == json.loads(alone)


def test_bad_batch_lines_are_located(tmp_path, capsys) -> None:
    batch = tmp_path / "bad.txt"
    batch.write_text("# fine\n" + shlex.join([*BASE, "--answers", "x.json", "--profile", "csparql"]) + "\n"
                     + shlex.join([*BASE, "--profile", "csparql", "--bogus"]) + "\n")
    assert main(["check", "--batch", str(batch)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"{batch}:3:1" in err and "--bogus" in err
    batch.write_text(shlex.join([*BASE, "--profile", "csparql"]) + "\n")
    assert main(["check", "--batch", str(batch)]) == EXIT_USAGE
    assert f"{batch}:1:1" in capsys.readouterr().err
    assert main(["check", "--batch", str(batch), *BASE]) == EXIT_USAGE
    assert "not both" in capsys.readouterr().err


def test_an_item_with_bad_input_reports_its_error_and_the_others_still_run(tmp_path, capsys) -> None:
    code = main(["check", *BASE, "--profile", "csparql", "--answers", str(tmp_path / "missing.json"),
                 "--answers", str(EX / "csparql-answers.json")])
    captured = capsys.readouterr()
    assert code == EXIT_USAGE
    assert "missing.json" in captured.err and "correct: equals" in captured.out


@pytest.mark.spark
def test_batch_on_spark_equals_each_sequential_check(spark, tmp_path, capsys) -> None:
    alone = [_alone(capsys, a, p, x, tmp_path / f"alone{k}.json") for k, (a, p, x) in enumerate(ITEMS)]
    code = main(["check", "--batch", str(_batch(tmp_path, "par")), "--engine", "spark", "--master", "local[2]"])
    out = capsys.readouterr().out
    assert code == EXIT_FAILURE
    assert _sections(out) == [o for _, o, _ in alone]
    for k, (_, _, report) in enumerate(alone):
        assert (tmp_path / f"par{k}.json").read_text() == report
    # one item on Spark prints exactly what the sequential command prints
    code_one, out_one, _ = alone[1]
    assert main(["check", *BASE, "--answers", str(EX / "csparql-early.json"), "--profile", "csparql",
                 "--engine", "spark", "--master", "local[2]"]) == code_one
    assert capsys.readouterr().out == out_one
