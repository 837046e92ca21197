"""The CSRBench oracle's own data folder, as it is (``tests/data/csrbench_recorded/data``, 34 Turtle files
``data_XX.ttl``, graph XX at application time XX·1000 ms; Dell'Aglio et al. 2013, §6.3), read with
``--stream IRI=FOLDER --stream-time-unit s``: the same 15,188 timestamped triples as the stream
``csrbench_data.py`` rebuilds from the authors' observation table (an independent source), and the same
verdict of ``check`` over either."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

from csrbench_data import STREAM_IRI, write_stream
from translator.cli import main
from translator.rdf.streams import read_stream
from translator.rdf.timeunits import TimeSpec

DATA = Path(__file__).resolve().parents[1] / "data"
FOLDER = DATA / "csrbench_recorded" / "data"
RECORDED = DATA / "csrbench_recorded"
STATION = re.compile(r"(?<=_)[A-Z]+[0-9]+(?=_2004|$)")


def test_the_oracle_s_34_files_are_the_rebuilt_stream(tmp_path):
    assert len(list(FOLDER.glob("data_*.ttl"))) == 34
    from_folder = read_stream(FOLDER, STREAM_IRI, time=TimeSpec(stream_unit="s", unit="ms"))
    from_table = read_stream(write_stream(tmp_path / "stream.nt"), STREAM_IRI, time=TimeSpec(stream_unit="ms", unit="ms"))
    assert len(from_folder) == len(from_table) == 15188
    # the rebuilt stream names stations whose LSD code the answers never show by number (``ID3028``,
    # csrbench_data.py): equal up to station names, and equal outright where it knows the code
    assert collections.Counter((tuple(map(anonymous, e.triple)), e.t) for e in from_folder) == \
        collections.Counter((tuple(map(anonymous, e.triple)), e.t) for e in from_table)
    known = {(e.triple, e.t) for e in from_table if "_ID" not in "".join(map(str, e.triple))}
    assert len(known) > 1000 and known <= {(e.triple, e.t) for e in from_folder}


def anonymous(term) -> str:
    """A term with its station code replaced (System_C0692, Observation_…_C0692_2004_…)."""
    return STATION.sub("STATION", str(term))


def verdict(stream_arg: str, unit: str, tmp_path, capsys) -> tuple[int, bool]:
    report = tmp_path / f"report-{unit}.json"
    code = main(["check", str(RECORDED / "queries" / "q1.rq"), "--stream", f"{STREAM_IRI}={stream_arg}",
                 "--stream-time-unit", unit, "--answers", str(RECORDED / "answers" / "sparqlstream-answer-1.json"),
                 "--answers-time-unit", "ms", "--profile", "sparqlstream", "--ignore-timestamps", "--json", str(report)])
    capsys.readouterr()
    return code, json.loads(report.read_text())["correct"]


def test_check_over_the_folder_gives_the_verdict_over_the_rebuilt_stream(tmp_path, capsys):
    """SPARQLstream's Q1 (a pass in the paper's Table 2)."""
    assert verdict(str(FOLDER), "s", tmp_path, capsys) == verdict(str(write_stream(tmp_path / "s.nt")), "ms", tmp_path,
                                                                   capsys) == (0, True)


def test_a_wrongly_named_file_in_a_stream_folder_is_named(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "data_00.ttl").write_text("@prefix : <http://e/> .\n:a :b :c .\n")
    (folder / "data_last.ttl").write_text("@prefix : <http://e/> .\n:a :b :c .\n")
    code = main(["run", str(RECORDED / "queries" / "q1.rq"), "--stream", f"{STREAM_IRI}={folder}"])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err and "data_last.ttl" in err and "NAME<k>.ttl" in err
