"""``rsplars lars``: output formats, reference times, several/no answer streams, --print-asp,
atomic --output, and errors (FILE:LINE:COLUMN, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import clingo
import pytest

from translator.cli import main


@pytest.fixture
def files(tmp_path: Path):
    def make(program: str, stream: str) -> tuple[str, str]:
        p, s = tmp_path / "p.lars", tmp_path / "s.txt"
        p.write_text(program)
        s.write_text(stream)
        return str(p), str(s)

    return make


def test_jsonl_output_for_every_time_point(files, capsys) -> None:
    p, s = files("q(X) :- p(X) [1 sec].", "0: p(1)\n2: p(2)\n")
    assert main(["lars", p, "--stream", s]) == 0
    out = capsys.readouterr().out
    assert [json.loads(line) for line in out.splitlines()] == [
        {"t": 0, "atoms": ["q(1)"]},
        {"t": 1, "atoms": ["q(1)"]},
        {"t": 2, "atoms": ["q(2)"]},
    ]


def test_jsonl_stream_and_text_output_with_times(files, tmp_path: Path, capsys) -> None:
    p, _ = files("q(X) :- p(X) [1].", "")
    s = tmp_path / "s.jsonl"
    s.write_text('{"t": 0, "atoms": ["p(1)"]}\n{"t": 3, "atoms": ["p(\\"a b\\")"]}\n')
    assert main(["lars", p, "--stream", str(s), "--times", "1..3", "--format", "text"]) == 0
    assert capsys.readouterr().out == '1: q(1)\n2:\n3: q("a b")\n'


def test_no_and_several_answer_streams(files, capsys) -> None:
    p, s = files("a :- not b, x.  b :- not a, x.  :- y.", "0: x\n1: y\n2:\n")
    assert main(["lars", p, "--stream", s, "--models", "0"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == [
        {"t": 0, "atoms": None, "answers": [["a"], ["b"]], "more": False},
        {"t": 1, "atoms": None, "answers": []},
        {"t": 2, "atoms": []},
    ]
    assert "2 answer streams at t=0" in err and "no answer stream at t=1" in err
    assert main(["lars", p, "--stream", s, "--times", "0", "--format", "text"]) == 0
    out, err = capsys.readouterr()
    assert out == "0 [1/1+]: a\n" and "(and more)" in err


def test_print_asp_runs_in_plain_clingo(files, capsys) -> None:
    p, s = files("q(X) :- p(X) [2].  h at T :- p(X) at T [2], X = 3.  g :- h always [1].", "0: p(1)\n1: p(3)\n2: p(3)\n")
    assert main(["lars", p, "--stream", s, "--times", "2"]) == 0
    engine = json.loads(capsys.readouterr().out)["atoms"]
    assert main(["lars", p, "--stream", s, "--times", "2..2", "--print-asp"]) == 0
    text = capsys.readouterr().out
    assert "lars_dia(0,p(1))." in text
    ctl = clingo.Control(message_limit=0)
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    models: list[list[str]] = []
    ctl.solve(on_model=lambda m: models.append(sorted(str(x) for x in m.symbols(shown=True))))
    assert models == [engine] and engine == ["g", "h", "q(1)", "q(3)"]
    assert main(["lars", p, "--stream", s, "--print-asp"]) == 0
    assert "lars_dia(" not in capsys.readouterr().out.split("% rules")[1].split("#show")[-1]


def test_output_file_is_written_atomically(files, tmp_path: Path, capsys) -> None:
    p, s = files("q :- p.", "0: p\n")
    out = tmp_path / "out.jsonl"
    assert main(["lars", p, "--stream", s, "--output", str(out)]) == 0
    assert out.read_text() == '{"t": 0, "atoms": ["q"]}\n'
    assert capsys.readouterr().out == ""
    bad, _ = files("q :- lars_p.", "0: p\n")
    assert main(["lars", bad, "--stream", s, "--output", str(tmp_path / "never.jsonl")]) == 2
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(["p.lars", "s.txt", "out.jsonl"])


def test_program_errors_have_positions(files, capsys) -> None:
    p, s = files("q(X) :- p(X) [2 sec].\nr :- q(.\n", "0: p(1)\n")
    assert main(["lars", p, "--stream", s]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{p}:2:")


def test_stream_errors_have_positions(files, capsys) -> None:
    p, s = files("q :- p.", "0: p\nx: q\n")
    assert main(["lars", p, "--stream", s]) == 2
    assert capsys.readouterr().err.startswith(f"{s}:2:")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--times", "5..2"], "empty range"),
        (["--times", "a..b"], "expected A..B"),
        (["--times=-3..2"], "before the start"),
        (["--models", "-1"], "--models"),
    ],
)
def test_option_errors(files, capsys, extra, message) -> None:
    p, s = files("q :- p.", "0: p\n")
    assert main(["lars", p, "--stream", s, *extra]) == 2
    assert message in capsys.readouterr().err


def test_missing_files(files, capsys) -> None:
    p, s = files("q :- p.", "0: p\n")
    assert main(["lars", p + ".nope", "--stream", s]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["lars", p, "--stream", s + ".nope"]) == 2
    err = capsys.readouterr().err
    assert ".nope" in err and "Traceback" not in err


def test_unsafe_rule_is_a_user_error(files, capsys) -> None:
    p, s = files("u(X) :- not p(X).", "0: p(a)\n")
    assert main(["lars", p, "--stream", s]) == 2
    assert "unsafe" in capsys.readouterr().err
