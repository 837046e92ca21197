"""translator.evaluate.lars_input: the LARS stream a command names, from a file or standard input,
read whole or while it is evaluated."""

from __future__ import annotations

import io

import pytest

from lars.errors import RsplarsError, SourceError
from lars.model import Atom
from translator.evaluate.lars_input import read_stream, read_stream_live, stdin_ready


def test_read_stream_auto_and_stdin(tmp_path, monkeypatch) -> None:
    text_file = tmp_path / "s.txt"
    text_file.write_text("% comment\n0: p\n")
    json_file = tmp_path / "s.jsonl"
    json_file.write_text('\n% comment\n{"t": 0, "atoms": ["p"]}\n')
    assert read_stream(str(text_file)) == read_stream(str(json_file))
    assert read_stream(str(json_file), format="jsonl").at(0) == (Atom("p"),)
    with pytest.raises(SourceError):
        read_stream(str(json_file), format="text")
    monkeypatch.setattr("sys.stdin", io.StringIO("7: q\n"))
    assert read_stream("-").at(7) == (Atom("q"),)
    with pytest.raises(SourceError, match="cannot read"):
        read_stream(str(tmp_path / "missing.txt"))
    with pytest.raises(RsplarsError, match="unknown stream format"):
        read_stream(str(text_file), format="csv")
    text_file.write_bytes(b"0: p\n1: \xff\n")
    with pytest.raises(SourceError, match="not UTF-8"):
        read_stream(str(text_file))


def test_live_reading_pulls_time_points_on_demand(monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("0: p\n0: q\n2: r\n"))
    live = read_stream_live("-")
    assert live.points == {} and live.begun == 0  # time point 0 has begun, not yet complete
    live.read_past(0)
    assert live.points[0] == (Atom("p"), Atom("q")) and not live.done
    live.read_past(2)
    assert live.points[2] == (Atom("r"),) and live.done and live.timeline == (0, 2)
    assert stdin_ready()  # a replaced standard input is read as a file


def test_live_reading_of_json_lines_and_errors(tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"t": 1, "atoms": ["p"]}\n{"t": 3, "atoms": []}\n')
    live = read_stream_live(str(path))
    live.read_past(3)
    assert live.points == {1: (Atom("p"),), 3: ()} and live.done
    with pytest.raises(RsplarsError, match="unknown stream format"):
        read_stream_live(str(path), format="csv")
    with pytest.raises(SourceError, match="cannot read"):
        read_stream_live(str(tmp_path / "missing.txt"))
