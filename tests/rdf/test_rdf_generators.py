"""Stream generators: deterministic, well-formed, at the requested rate, and readable back."""

from __future__ import annotations

from collections import Counter

import pytest
from rdflib import Literal

from translator.rdf.generators import (
    G_CLASSIFY,
    IS_NEAR,
    NEAR_STREAM,
    OFFERS,
    OFFERS_STREAM,
    ON,
    REDUCE,
    coupon_scenario,
    random_stream,
)
from translator.rdf.static import load_static
from translator.rdf.streams import read_stream


def test_coupon_scenario_is_deterministic_and_seeded():
    a = coupon_scenario(duration=200, seed=7, offer_rate=0.3, near_rate=0.5)
    b = coupon_scenario(duration=200, seed=7, offer_rate=0.3, near_rate=0.5)
    c = coupon_scenario(duration=200, seed=8, offer_rate=0.3, near_rate=0.5)
    assert a.offers == b.offers and a.near == b.near and set(a.static) == set(b.static)
    assert (a.offers, a.near) != (c.offers, c.near)


def test_coupon_structure():
    sc = coupon_scenario(duration=300, shops=3, customers=2, offer_rate=0.2, near_rate=0.2,
                         reduce_range=(10, 30), seed=1)
    assert len(sc.offers) % 3 == 0 and sc.offers
    for i in range(0, len(sc.offers), 3):
        shop_offers, on, reduce = sc.offers[i:i + 3]
        assert shop_offers.triple[1] == OFFERS and on.triple[1] == ON and reduce.triple[1] == REDUCE
        assert shop_offers.triple[2] == on.triple[0] == reduce.triple[0]  # the same coupon
        assert shop_offers.t == on.t == reduce.t
        assert 10 <= int(reduce.triple[2]) <= 30
    assert all(e.triple[1] == IS_NEAR and e.stream_iri == NEAR_STREAM for e in sc.near)
    assert all(e.stream_iri == OFFERS_STREAM for e in sc.offers)
    for stream in (sc.offers, sc.near):
        times = [e.t for e in stream]
        assert times == sorted(times) and all(0 <= t < 300 for t in times)
    assert {s for s, p, o in sc.static} == {Literal("mbt"), Literal("rayban")}
    assert all(p == G_CLASSIFY and int(o) in (0, 1) for s, p, o in sc.static)


def test_stay_and_ping_repeat_reports():
    sc = coupon_scenario(duration=1000, near_rate=0.01, stay=10, ping=3, offer_rate=0, seed=3)
    assert sc.offers == []
    by_triple = Counter(e.triple for e in sc.near)
    # every visit reports at t, t+3, t+6, t+9 (cut at the end of the timeline)
    assert by_triple and max(by_triple.values()) >= 4


@pytest.mark.parametrize("rate", [0.5, 2.0])
def test_rate(rate):
    elements = random_stream(duration=4000, rate=rate, seed=11)
    assert abs(len(elements) - rate * 4000) < 0.05 * rate * 4000
    if rate > 1:
        assert max(Counter(e.t for e in elements).values()) > 1  # dense: several triples per point


def test_written_files_read_back(tmp_path):
    sc = coupon_scenario(duration=100, offer_rate=0.3, near_rate=0.3, stay=3, seed=5)
    paths = sc.write(tmp_path)
    offers = read_stream(paths["offers"], OFFERS_STREAM)
    near = read_stream(paths["near"], NEAR_STREAM)
    strip = lambda els: [(e.triple, e.t, e.stream_iri) for e in els]  # noqa: E731
    assert strip(offers) == strip(sc.offers) and strip(near) == strip(sc.near)
    assert set(load_static(paths["static"])) == set(sc.static)
    rnd = random_stream(duration=50, rate=3, seed=2)
    path = tmp_path / "r.nt"
    with path.open("w") as f:
        from translator.rdf.streams import write_ntriples
        write_ntriples(rnd, f)
    assert strip(read_stream(path, rnd[0].stream_iri)) == strip(rnd)
