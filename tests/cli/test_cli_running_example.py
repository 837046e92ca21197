"""Dao-Tran, Beck, Eiter 2015, Ex. 1–8 end to end through the CLI, from the query texts: offers at 10 and 15, Claire
near shops a and b at 18; at 18 the answer of Q1 (C-SPARQL, pull) and of Q2 (CQELS, push) is
shop b, "rayban", 25 (Ex. 8) — with the streams in the papers' notation, in timestamped N-Triples
and in TriG. The expected answers are the paper's; the other time points are computed by hand
from the window definitions (Table 1, D2) and written next to each assertion."""

from __future__ import annotations

import pytest

from cli_helpers import Q1, Q2, SHOP_B_RAYBAN_25, jsonl, running_example_data

FORMATS = ["stream", "nt", "trig"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_q2_cqels_push_answers_at_input_times(run_cli, fmt):
    code, out, err = run_cli("run", Q2, *running_example_data(fmt))
    assert code == 0, err
    # push (the CQELS default): evaluated exactly at the time points with input
    assert jsonl(out) == {10: [], 15: [], 18: [SHOP_B_RAYBAN_25]}


@pytest.mark.parametrize("fmt", FORMATS)
def test_q1_csparql_pull_answers_at_multiples_of_the_period(run_cli, fmt):
    code, out, err = run_cli("run", Q1, *running_example_data(fmt), "--period", "6m")
    assert code == 0, err
    # pull every 6 minutes from 0; the last element (18) is a multiple: evaluations 0, 6, 12, 18.
    # Nobody is near a shop before 18; at 18 mbt is for men (gender 1) and is filtered out.
    assert jsonl(out) == {0: [], 6: [], 12: [], 18: [SHOP_B_RAYBAN_25]}


@pytest.mark.parametrize("bounds, times", [
    # isNear arrives at 18 and the near window is [RANGE 5m]: it holds at t iff 18 is in the window
    ("closed", range(18, 24)),      # [t-5, t]   : t = 18..23
    ("left-open", range(18, 23)),   # (t-5, t]   : t = 18..22
    ("right-open", range(19, 24)),  # [t-5, t)   : t = 19..23
])
def test_q1_window_bounds_conventions(run_cli, bounds, times):
    code, out, err = run_cli("run", Q1, *running_example_data("nt"), "--period", "1m", "--to", "30",
                             "--window-bounds", bounds)
    assert code == 0, err
    got = jsonl(out)
    assert sorted(got) == list(range(0, 31))
    assert {t for t, answers in got.items() if answers} == set(times)
    assert all(answers == [SHOP_B_RAYBAN_25] for answers in got.values() if answers)


def test_q1_and_q2_agree_at_18_in_every_format(run_cli):
    """The same answer at 18 whatever the stream format, for both dialects."""
    seen = set()
    for fmt in FORMATS:
        for query, extra in ((Q1, ["--period", "1m"]), (Q2, [])):
            code, out, err = run_cli("run", query, *running_example_data(fmt), *extra,
                                     "--from", "18", "--to", "18")
            assert code == 0, err
            answers = jsonl(out)
            assert answers == {18: [SHOP_B_RAYBAN_25]}
            seen.add(out)
    assert len(seen) == 1


def test_q2_without_static_data_has_no_answer(run_cli):
    """The gender classification is static data: without it the join with ?gender is empty."""
    args = running_example_data("stream")
    i = args.index("--static")
    code, out, _ = run_cli("run", Q2, *(args[:i] + args[i + 2:]))
    assert code == 0 and jsonl(out) == {10: [], 15: [], 18: []}
