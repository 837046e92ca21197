"""Dell'Aglio et al. 2014, Example 4 and Definition 10: the time-varying graph G_shops — empty before 2,
g_shops on [2, 13] (both ends included), g'_shops (Alice has left) after 13 — given to ``rsplars run``
as ``--static-during 2..13=shops.ttl --static-during 14..=shops_after13.ttl``: each piece is LARS
rules ``triple(S,P,O,default) ← ⊞^0 @_T true, T ≥ from, T ≤ to`` (translator.rdf.static).

The expected answers are computed here from G_shops(t) of Example 4 (a direct evaluation), not by rsplars."""

from __future__ import annotations

import json

import pytest

from check_helpers import DATA
from translator.cli import main

EX = "http://example.org/"
G_SHOPS = {("alice", "a"), ("bob", "b")}           # owner owns shop, shop is a Shop (Example 1)
G_SHOPS_AFTER = {("bob", "b")}                      # g'_shops (Example 4)
DURING = ["--static-during", f"2..13={DATA / 'shops.ttl'}", "--static-during", f"14..={DATA / 'shops_after13.ttl'}"]
NEARBY = ["--stream", f"{EX}nearby={DATA / 'nearby.stream'}"]


def g_shops(t: int) -> set[tuple[str, str]]:
    """G_shops(t) of Dell'Aglio et al. 2014, Example 4."""
    return set() if t < 2 else G_SHOPS if t <= 13 else G_SHOPS_AFTER


def test_the_graph_at_each_instant(cli):
    """Evaluated at every instant 0 … 16 (periodic report, period 1 s): the owners of shops are
    those of G_shops(t) — none at 1, g_shops at 2 and at 13 (closed interval), g'_shops at 14. The
    query's stream branch (owners in S_nearby) never matches, so only the static graph answers."""
    code, out, err = cli("run", DATA / "shop_owners.rq", *NEARBY, *DURING, "--profile", "rsp-ql",
                         "--report-policy", "periodic", "--report-period", "1s", "--to", 16)
    assert code == 0, err
    got = {r["t"]: {(a["owner"].strip("<>").rsplit("/", 1)[-1], a["shop"].strip("<>").rsplit("/", 1)[-1])
                    for a in r["answers"]} for r in map(json.loads, out.splitlines())}
    assert got == {t: g_shops(t) for t in range(17)}
    assert got[1] == set() and got[2] == got[13] == G_SHOPS and got[14] == G_SHOPS_AFTER


def test_t5_with_the_time_varying_graph(cli):
    """T5 with G0 = G_shops as the paper defines it: at 16 the owner of :b comes from g'_shops."""
    code, out, err = cli("run", DATA / "qex.rq", *NEARBY, "--stream", f"{EX}coupon={DATA / 'coupon.stream'}",
                         *DURING, "--profile", "rsp-ql", "--t0", "1,0", "--report-window", 2, "--to", 20)
    assert code == 0, err
    rows = [(r["t"], sorted(a["shopper"] for a in r["answers"])) for r in map(json.loads, out.splitlines())]
    assert rows == [(8, [f"<{EX}carl>", f"<{EX}eve>"]), (16, [f"<{EX}diana>"])]


def test_without_the_later_piece_alice_stays_and_bob_goes(cli):
    """Dropping g'_shops: after 13 nothing holds (the pieces are the only static data)."""
    code, out, err = cli("run", DATA / "shop_owners.rq", *NEARBY, "--static-during", f"2..13={DATA / 'shops.ttl'}",
                         "--profile", "rsp-ql", "--report-policy", "periodic", "--report-period", "1s", "--to", 15)
    assert code == 0, err
    answers = {r["t"]: r["answers"] for r in map(json.loads, out.splitlines())}
    assert answers[13] and answers[14] == [] and answers[1] == []


@pytest.mark.parametrize("spec, message", [
    ("13..2=x.ttl", "FROM 13 is after TO 2"),
    ("2-13=x.ttl", "expected FROM..TO=FILE"),
    ("2..13", "expected FROM..TO=FILE"),
])
def test_bad_static_during(cli, spec, message):
    code, out, err = cli("run", DATA / "shop_owners.rq", *NEARBY, "--static-during", spec, "--profile", "rsp-ql")
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_static_during_on_a_stream_read_while_evaluated(tmp_path, capsys):
    """`rsplars run` reads N-Triples streams while it evaluates them (translator.evaluate.live): the
    time-varying static data must hold there too (it was dropped on that path)."""

    stream = tmp_path / "s.nt"
    stream.write_text('<http://e/a> <http://e/p> <http://e/b> "1" .\n<http://e/a> <http://e/p> <http://e/b> "3" .\n')
    static = tmp_path / "st.nt"
    static.write_text("<http://e/b> <http://e/q> <http://e/c> .\n")
    query = tmp_path / "q.rq"
    query.write_text("REGISTER QUERY q AS SELECT ?x ?z FROM STREAM <http://e/s> [RANGE 1s STEP 1s] "
                     "WHERE { ?x <http://e/p> ?y . ?y <http://e/q> ?z }\n")
    code = main(["run", str(query), "--stream", f"http://e/s={stream}", "--static-during", f"0..2={static}"])
    out, err = capsys.readouterr()
    assert code == 0, err
    hit = [{"x": "<http://e/a>", "z": "<http://e/c>"}]
    assert [json.loads(line) for line in out.splitlines()] == [
        {"t": 0, "answers": []}, {"t": 1, "answers": hit}, {"t": 2, "answers": hit}, {"t": 3, "answers": []}]
