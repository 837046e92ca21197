"""``rsplars gen coupons|generic``: deterministic for a seed, well-formed timestamped N-Triples that
the stream reader reads back, at the requested rate, with the paper's vocabulary, and clear errors."""

from __future__ import annotations

import math

import pytest
from rdflib import Literal, URIRef

from translator.cli import main
from translator.rdf.static import load_dataset
from translator.rdf.streams import read_stream

EX = "http://example.org/"


def gen(capsys, *argv: str) -> str:
    assert main(["gen", *argv]) == 0
    return capsys.readouterr().out


def test_same_seed_same_bytes_other_seed_other_stream(capsys):
    a = gen(capsys, "coupons", "--rate", "0.5", "--duration", "100", "--seed", "7")
    b = gen(capsys, "coupons", "--rate", "0.5", "--duration", "100", "--seed", "7")
    c = gen(capsys, "coupons", "--rate", "0.5", "--duration", "100", "--seed", "8")
    assert a == b and a != c and a


def test_merged_output_reads_back_in_time_order(capsys, tmp_path):
    path = tmp_path / "s.nt"
    assert main(["gen", "coupons", "--rate", "1", "--duration", "50", "--seed", "1", "--output", str(path)]) == 0
    elements = read_stream(path, "http://ex/s")
    times = [e.t for e in elements]
    assert times == sorted(times) and 0 <= times[0] and times[-1] < 50
    predicates = {str(e.triple[1]) for e in elements}
    assert predicates == {EX + "offers", EX + "on", EX + "reduce", EX + "isNear"}


def test_output_dir_streams_and_static_data(capsys, tmp_path):
    assert main(["gen", "coupons", "--rate", "0.3", "--duration", "60", "--seed", "2", "--products", "8",
                 "--shops", "4", "--customers", "3", "--output-dir", str(tmp_path)]) == 0
    offers = read_stream(tmp_path / "offers.nt", EX + "stream/offers")
    near = read_stream(tmp_path / "near.nt", EX + "stream/near")
    # every coupon: three triples at one time point, in the order offers, on, reduce
    assert len(offers) % 3 == 0
    for k in range(0, len(offers), 3):
        shop, on, reduce = offers[k:k + 3]
        assert {shop.t, on.t, reduce.t} == {shop.t}
        assert shop.triple[1] == URIRef(EX + "offers") and on.triple[1] == URIRef(EX + "on")
        assert reduce.triple[1] == URIRef(EX + "reduce") and 5 <= int(reduce.triple[2]) <= 50
        assert shop.triple[2] == on.triple[0] == reduce.triple[0]
    assert {str(e.triple[0]) for e in near} <= {f"{EX}customer{i}" for i in range(3)}
    assert {str(e.triple[2]) for e in near} <= {f"{EX}shop{i}" for i in range(4)}
    static = list(load_dataset([tmp_path / "static.n3"]).default_graph)
    assert {s for s, _, _ in static} == {Literal(p) for p in ("mbt", "rayban", "nike", "levis", "swatch", "zara",
                                                             "product7", "product8")}
    assert all(p == URIRef(EX + "g_classify") and int(o) in (0, 1) for _, p, o in static)


def test_static_output_is_deterministic(capsys, tmp_path):
    for name in ("a.n3", "b.n3"):
        gen(capsys, "coupons", "--rate", "0.2", "--duration", "10", "--products", "5", "--static-output",
            str(tmp_path / name))
    assert (tmp_path / "a.n3").read_bytes() == (tmp_path / "b.n3").read_bytes()


@pytest.mark.parametrize("rate", [0.5, 3.0])
def test_rate_is_the_mean_number_of_events(capsys, rate):
    duration = 400
    text = gen(capsys, "generic", "--rate", str(rate), "--duration", str(duration), "--seed", "5")
    n = len(text.splitlines())
    mean = rate * duration
    assert abs(n - mean) < 5 * math.sqrt(mean)  # Poisson: 5 standard deviations


def test_coupon_rate_counts_coupons(capsys, tmp_path):
    assert main(["gen", "coupons", "--rate", "2", "--near-rate", "0", "--duration", "200", "--seed", "4",
                 "--output-dir", str(tmp_path)]) == 0
    coupons = len(read_stream(tmp_path / "offers.nt", "http://ex/o")) // 3
    assert abs(coupons - 400) < 5 * math.sqrt(400)
    assert (tmp_path / "near.nt").read_text() == ""


def test_dense_input_puts_several_triples_at_one_time_point(capsys):
    text = gen(capsys, "generic", "--rate", "5", "--duration", "20", "--seed", "0")
    times = [line.rsplit('"', 2)[1] for line in text.splitlines()]
    assert len(times) > len(set(times))


@pytest.mark.parametrize("argv, message", [
    (["generic", "--rate", "-1", "--duration", "5"], "--rate must not be negative"),
    (["generic", "--rate", "1", "--duration", "0"], "--duration must be at least 1"),
    (["coupons", "--rate", "1", "--duration", "5", "--shops", "0"], "at least one shop"),
    (["coupons", "--rate", "1", "--duration", "5", "--min-percent", "60"], "above --max-percent"),
    (["coupons", "--rate", "1", "--duration", "5", "--output", "x", "--output-dir", "y"], "not both"),
])
def test_user_errors(capsys, argv, message):
    assert main(["gen", *argv]) == 2
    assert message in capsys.readouterr().err
