"""--max-memory (docs/robustness.md): a run over the limit stops cleanly with a message naming the
window that grows, keeps the answers written, and is never killed by the system."""

from __future__ import annotations

import json

from lars.model import Stream
from lars.streams import parse_ground_atom
from lars.syntax import parse_program
from translator.cli import main
from translator.evaluate.memory import MemoryGuard, default_limit_mb, resolve_limit, rss_mb, window_use

PROGRAM = "seen(X) :- p(X) [all].\nrecent(X) :- p(X) [2].\nlast(X) :- p(X) [1 #].\n"


def _stream(n: int) -> Stream:
    return Stream({t: (parse_ground_atom(f"p({t})"),) for t in range(n)})


def test_window_use_ranks_the_unbounded_window_first():
    program = parse_program(PROGRAM)
    uses = window_use(program, _stream(50), 49)
    assert [(u.rule, u.atoms) for u in uses] == [(1, 50), (2, 3), (3, 1)]
    assert "[all]" in uses[0].text or "∞" in uses[0].text


def test_limits():
    assert resolve_limit(0) is None
    assert resolve_limit(123) == 123
    assert resolve_limit(None) == default_limit_mb()
    assert default_limit_mb() is None or default_limit_mb() > 0
    assert rss_mb() > 1


def test_guard_passes_under_the_limit():
    MemoryGuard(10**7, parse_program(PROGRAM), _stream(3)).check(2)
    MemoryGuard(None).check(2)


def test_lars_run_over_the_limit_stops_naming_the_window(tmp_path, capsys, monkeypatch):
    import translator.evaluate.memory as memory

    monkeypatch.setattr(memory, "SAMPLE_INTERVAL", 3600.0)  # the check between evaluation times only
    program = tmp_path / "p.lars"
    program.write_text(PROGRAM)
    stream = tmp_path / "s.txt"
    stream.write_text("".join(f"{t}: p({t})\n" for t in range(20)))
    out = tmp_path / "out.jsonl"
    code = main(["lars", str(program), "--stream", str(stream), "--max-memory", "1", "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "over --max-memory 1 MB after evaluating t=0" in err
    assert "The largest window holds 1 stream atoms" in err and "(rule 1 of the program)" in err
    assert "unbounded" in err
    assert [json.loads(x)["t"] for x in out.read_text().splitlines()] == [0]  # kept, complete up to t=0
    assert main(["lars", str(program), "--stream", str(stream), "--max-memory", "0"]) == 0


def test_rss_follows_the_process_and_a_forked_child_reads_its_own() -> None:
    """``rss_mb`` keeps the statm file open between reads: it still sees memory grow, and a forked
    child reads its own memory, not its parent's."""
    import os

    before = rss_mb()
    block = bytearray(64 * 2**20)
    block[::4096] = b"1" * len(block[::4096])  # touch every page
    assert rss_mb() >= before + 60
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its memory as it grows by 128 MiB
        start = rss_mb()
        more = bytearray(128 * 2**20)
        more[::4096] = b"1" * len(more[::4096])
        os.write(write, str(rss_mb() - start).encode())
        os._exit(0)
    os.close(write)
    grown = float(os.read(read, 64).decode())
    os.waitpid(pid, 0)
    assert grown >= 120  # read from the child's statm (its parent's did not grow)
    del block


def test_watchdog_pace_follows_the_headroom() -> None:
    """The watchdog samples every SAMPLE_INTERVAL near the limit and less often further from it, but
    never later than growth at GROWTH_MB_PER_S from the last sample would need to cross the limit,
    and at least every MAX_SAMPLE_INTERVAL."""
    from translator.evaluate.memory import GROWTH_MB_PER_S, MAX_SAMPLE_INTERVAL, SAMPLE_INTERVAL, sample_interval

    limit = 8000.0
    pauses = [sample_interval(used, limit) for used in (50.0, 4000.0, 7800.0, 7990.0, 9000.0)]
    assert pauses == sorted(pauses, reverse=True)
    assert pauses[0] == MAX_SAMPLE_INTERVAL and pauses[-1] == pauses[-2] == SAMPLE_INTERVAL
    for used in (50.0, 4000.0, 7800.0, 7990.0):
        pause = sample_interval(used, limit)
        assert SAMPLE_INTERVAL <= pause <= MAX_SAMPLE_INTERVAL
        assert used + pause * GROWTH_MB_PER_S <= limit or pause == SAMPLE_INTERVAL
    assert sample_interval(50.0, limit, least=3600.0) == 3600.0  # a test that turns sampling off keeps it off
