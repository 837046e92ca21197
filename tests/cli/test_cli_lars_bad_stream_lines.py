"""``rsplars lars`` on a stream file with a bad line, read while evaluated (each line checked by
the pass that reads it): the located error FILE:LINE:COLUMN, exit 2, no traceback; with
``--output`` no file (and no temporary file) left, wherever the bad line is; on stdout the answers
of the time points before it (complete, and said so), nothing with ``--check-first``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from translator.cli import main

PROGRAM = "a(X,Y) :- p(X,Y) [2].\nb(X,Y) :- p(X,Y) always [1].\n"
GOOD = [f"{t}: p(o{t},v{t % 3}), p(o{t}x,v1), p(c,d)" for t in range(8)]


def _files(tmp_path: Path, lines: list[str]) -> tuple[str, str]:
    p, s = tmp_path / "p.lars", tmp_path / "s.txt"
    p.write_text(PROGRAM)
    s.write_text("\n".join(lines) + "\n")
    return str(p), str(s)


def _bad(at: int, how: str) -> list[str]:
    lines = list(GOOD)
    lines[at] = {"variable": lines[at].replace("p(c,d)", "p(c,D)"),
                 "prefix": lines[at].replace(f"{at}:", "x:", 1),
                 "back": lines[at].replace(f"{at}:", "0:", 1) if at else lines[at].replace("p(c,d)", "p(c,"),
                 "open": lines[at] + ", p("}[how]
    return lines


@pytest.mark.parametrize("how", ["variable", "prefix", "back", "open"])
@pytest.mark.parametrize("at", [0, 4, 7])
def test_output_file_is_never_left(tmp_path: Path, capsys, at: int, how: str) -> None:
    p, s = _files(tmp_path, _bad(at, how))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    assert main(["lars", p, "--stream", s, "--output", str(out_dir / "a.jsonl")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert re.search(rf"^{re.escape(s)}:{at + 1}:\d+: \S", captured.err, re.M), captured.err
    assert captured.err.startswith(f"{s}:{at + 1}:")  # the error first, before the element summary
    assert list(out_dir.iterdir()) == []  # no output, no temporary file


def test_stdout_gets_the_answers_before_the_bad_line(tmp_path: Path, capsys) -> None:
    p, s = _files(tmp_path, GOOD)
    assert main(["lars", p, "--stream", s]) == 0
    whole = capsys.readouterr().out.splitlines()
    assert len(whole) == 8
    p, s = _files(tmp_path, _bad(4, "variable"))
    assert main(["lars", p, "--stream", s]) == 2
    captured = capsys.readouterr()
    # t=3 is complete once line 5 (t=4) has begun; t=4 is not evaluated
    assert captured.out.splitlines() == whole[:4]
    assert [json.loads(line)["t"] for line in captured.out.splitlines()] == [0, 1, 2, 3]
    assert captured.err.startswith(f"{s}:5:")
    assert "the answers printed are complete up to t=3" in captured.err and "--check-first" in captured.err


def test_check_first_prints_nothing(tmp_path: Path, capsys) -> None:
    p, s = _files(tmp_path, _bad(4, "variable"))
    assert main(["lars", p, "--stream", s, "--check-first"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{s}:5:")
    p, s = _files(tmp_path, GOOD)
    assert main(["lars", p, "--stream", s, "--check-first"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 8


def test_an_error_after_the_last_evaluation_time_is_found(tmp_path: Path, capsys) -> None:
    """``--times`` ending before the bad line: the rest of the file is still read and checked."""
    p, s = _files(tmp_path, _bad(7, "variable"))
    assert main(["lars", p, "--stream", s, "--times", "0..2"]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 3
    assert captured.err.startswith(f"{s}:8:") and "after the last evaluation time" in captured.err
    out = tmp_path / "a.jsonl"
    assert main(["lars", p, "--stream", s, "--times", "0..2", "--output", str(out)]) == 2
    assert not out.exists()


def test_a_decreasing_time_point_before_the_last_line(tmp_path: Path, capsys) -> None:
    """The last line's time point bounds the run; a line going back before it is still an error."""
    lines = list(GOOD)
    lines[5] = lines[5].replace("5:", "1:", 1)
    p, s = _files(tmp_path, lines)
    assert main(["lars", p, "--stream", s, "--output", str(tmp_path / "a.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{s}:6:1: time point 1 comes after 4")
    assert not (tmp_path / "a.jsonl").exists()


def test_the_clingo_engine_reads_the_same_way(tmp_path: Path, capsys) -> None:
    p, s = _files(tmp_path, _bad(4, "open"))
    out = tmp_path / "a.jsonl"
    assert main(["lars", p, "--stream", s, "--engine", "asp", "--output", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"{s}:5:")
    assert not out.exists()
