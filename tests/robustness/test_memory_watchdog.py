"""--max-memory during an evaluation (docs/robustness.md, Limits): a single time point whose
grounding blows up (a join of two windows over thousands of atoms) is stopped by the watchdog
thread of translator.evaluate.memory before the system kills it: exit 2, a message naming the
evaluation time in progress and the rule whose join grows, the answers already written kept and
complete, no temporary file left, the element summary printed."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

from lars.model import Stream
from lars.streams import parse_ground_atom
from lars.syntax import parse_program
from translator.evaluate.memory import MemoryGuard, rule_growth

ROOT = Path(__file__).parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
JOIN = "pair(X,Y) :- p(X) [1], p(Y) [1].\nsingle(X) :- p(X) [1].\n"
BIG_AT, BIG = 300, 3000  # 3000 atoms at t=300: the join has 9,000,000 ground instances there
LIMIT_MB = 160  # the process starts at about 45 MB; unlimited, this run takes well over 1 GB


def _stream_text() -> str:
    lines = [f"{t}: p({t})" for t in range(BIG_AT)]
    lines.append(f"{BIG_AT}: " + ", ".join(f"p({i})" for i in range(BIG)))
    lines.append(f"{BIG_AT + 1}: p(1)")
    return "\n".join(lines) + "\n"


def _safety_net() -> None:  # should the watchdog fail, the shared machine is not exhausted
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))


def _rsplars(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator", *args], capture_output=True, text=True, env=ENV,
                          timeout=300, preexec_fn=_safety_net)


def _files(tmp_path):
    program, stream = tmp_path / "join.lars", tmp_path / "s.txt"
    program.write_text(JOIN)
    stream.write_text(_stream_text())
    return str(program), str(stream)


def _complete_up_to(err: str) -> int:
    m = re.search(r"over --max-memory 160 MB while evaluating t=(\d+); stopped \(the answers written are "
                  r"complete up to t=(\d+)\)", err)
    assert m, err
    assert int(m.group(2)) < int(m.group(1)) <= BIG_AT
    return int(m.group(2))


def _check_message(err: str) -> None:
    assert "Traceback" not in err
    assert "The join that grows: rule 1 of the program, pair(X,Y) :- p(X) [1], p(Y) [1]." in err
    assert f"holding {BIG + 1:,} x {BIG + 1:,} stream atoms at t={BIG_AT}" in err
    assert re.search(r"stream elements: \d+ read, \d+ used, 0 rejected", err)


def test_a_blowing_up_time_point_stops_cleanly_keeping_the_output_file(tmp_path):
    program, stream = _files(tmp_path)
    out = tmp_path / "out" / "answers.jsonl"
    out.parent.mkdir()
    done = _rsplars("lars", program, "--stream", stream, "--max-memory", str(LIMIT_MB), "--output", str(out))
    assert done.returncode == 2, done.stderr
    _check_message(done.stderr)
    last = _complete_up_to(done.stderr)
    records = [json.loads(line) for line in out.read_text().splitlines()]  # every line whole
    assert [r["t"] for r in records] == list(range(last + 1))
    assert records[-1]["atoms"] == sorted(f"pair({a},{b})" for a in (last - 1, last) for b in (last - 1, last)
                                          if a >= 0 and b >= 0) + [f"single({x})" for x in (last - 1, last) if x >= 0]
    assert sorted(p.name for p in out.parent.iterdir()) == ["answers.jsonl"]  # no temporary file left


def test_a_blowing_up_time_point_on_a_pipe(tmp_path):
    program, stream = _files(tmp_path)
    done = _rsplars("lars", program, "--stream", stream, "--max-memory", str(LIMIT_MB), "--format", "text")
    assert done.returncode == 2, done.stderr
    _check_message(done.stderr)
    last = _complete_up_to(done.stderr)
    lines = done.stdout.splitlines()
    assert [int(line.split(":")[0]) for line in lines] == list(range(last + 1))
    assert done.stdout.endswith("\n")


def test_rule_growth_names_the_join_at_its_largest():
    program = parse_program(JOIN)
    stream = Stream({0: (parse_ground_atom("p(0)"),), 5: tuple(parse_ground_atom(f"p({i})") for i in range(7))})
    (g,) = rule_growth(program, stream, 0)  # rule 2 joins nothing: not listed
    assert (g.rule, g.t, g.factors, g.instances) == (1, 5, (7, 7), 49)
    assert rule_growth(program, stream, 0, ahead=0)[0].factors == (1, 1)
    guard = MemoryGuard(100, program, stream)
    guard.note_time(0)
    text = guard.message_during(123.0, None)
    assert "while evaluating t=0; stopped (no answers written)" in text
    assert "holding 7 x 7 stream atoms at t=5 (grounded together with t=0) (up to 49 ground instances)" in text


def test_a_query_run_stopped_during_an_evaluation_names_the_window(tmp_path):
    """rsplars run: a SPARQL join over a window that gets 3,000 triples at t=100 (τ1 copies the
    window into a relation, then joins: the window that grows is named, at the time it peaks)."""
    stream = tmp_path / "s.nt"
    triple = '<http://ex.org/a{}> <http://ex.org/p> <http://ex.org/{}> "{}" .\n'
    stream.write_text("".join(triple.format(t, f"b{t}", t) for t in range(100))
                      + "".join(triple.format(i, f"c{i}", 100) for i in range(3000)) + triple.format(0, "z", 101))
    query = tmp_path / "q.rq"
    query.write_text("REGISTER QUERY q AS\nSELECT ?a ?b\nFROM STREAM <http://ex.org/s> [RANGE 2s STEP 1s]\n"
                     "WHERE { ?a <http://ex.org/p> ?x . ?b <http://ex.org/p> ?y }\n")
    out = tmp_path / "out" / "answers.jsonl"
    out.parent.mkdir()
    done = _rsplars("run", str(query), "--stream", f"http://ex.org/s={stream}", "--max-memory", str(LIMIT_MB),
                    "--output", str(out))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    last = _complete_up_to(done.stderr)
    # (at t=100 itself with the incremental engine; clingo grounds t=101 with it and names that)
    assert re.search(r"The largest window holds 3,00\d stream atoms(?: at t=10[01])?: striple\(S,P,O,\"<http://ex.org/s>\"\) "
                     r"\[2\]", done.stderr), done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["t"] for r in records] == list(range(last + 1))
    # the answers at t: every pair of subjects in the window [t-2, t] (a direct evaluation)
    for r in records:
        subjects = {f"<http://ex.org/a{u}>" for u in range(max(0, r["t"] - 2), r["t"] + 1)}
        assert {(x["a"], x["b"]) for x in r["answers"]} == {(a, b) for a in subjects for b in subjects}
    assert sorted(p.name for p in out.parent.iterdir()) == ["answers.jsonl"]
