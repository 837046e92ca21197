"""Seeded, deterministic RDF stream generators for agreement studies (issue 5).

* :func:`coupon_scenario` — the running example of seed 000 (Examples 1–8, after Dell'Aglio et
  al.): shops push discount coupons (``:shop :offers :c . :c :on "product" . :c :reduce 25``) on an
  *offers* stream, customers' phones report ``:customer :isNear :shop`` on a *near* stream, and the
  static data classifies products by gender (``"product" :g_classify 0|1``). The vocabulary is the
  paper's, so the queries Q1 (C-SPARQL) and Q2 (CQELS) of Example 4 run on it unchanged.
* :func:`random_stream` — random triples over small pools of subjects, predicates and objects.

Arrivals follow a Poisson process with the given rate (events per time unit): exponential gaps,
each event at the integer time point ``⌊arrival time⌋``, so a high rate gives several triples at
one time point (the *dense input* of seed 000 §5). Everything is drawn from ``random.Random(seed)``:
the same arguments give the same stream. Write a stream with
:func:`translator.rdf.streams.write_ntriples`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from translator.rdf.streams import StreamElement, write_ntriples

EX = "http://example.org/"
OFFERS_STREAM = URIRef(EX + "stream/offers")
NEAR_STREAM = URIRef(EX + "stream/near")

#: the vocabulary of seed 000 Examples 2–7
OFFERS = URIRef(EX + "offers")
ON = URIRef(EX + "on")
REDUCE = URIRef(EX + "reduce")
IS_NEAR = URIRef(EX + "isNear")
G_CLASSIFY = URIRef(EX + "g_classify")

DEFAULT_PRODUCTS = ("mbt", "rayban", "nike", "levis", "swatch", "zara")


def product_names(n: int) -> tuple[str, ...]:
    """``n`` product names: the paper's first (``mbt``, ``rayban``, …), then ``product7``, …"""
    if n < 1:
        raise ValueError("need at least one product")
    return DEFAULT_PRODUCTS[:n] + tuple(f"product{k}" for k in range(len(DEFAULT_PRODUCTS) + 1, n + 1))


def _integer(n: int) -> Literal:
    return Literal(str(n), datatype=XSD.integer)


def arrivals(rng: random.Random, rate: float, duration: int, start: int = 0) -> Iterator[int]:
    """Time points of a Poisson process with ``rate`` events per time unit in ``[start, start+duration)``."""
    if rate <= 0:
        return
    t = float(start)
    while True:
        t += rng.expovariate(rate)
        if t >= start + duration:
            return
        yield int(t)


@dataclass(frozen=True)
class CouponScenario:
    """The generated data: two streams (elements in arrival order) and the static graph."""

    offers: list[StreamElement]
    near: list[StreamElement]
    static: Graph

    @property
    def streams(self) -> dict[URIRef, list[StreamElement]]:
        return {OFFERS_STREAM: self.offers, NEAR_STREAM: self.near} if self.offers or self.near else {}

    def write(self, directory: str | Path) -> dict[str, Path]:
        """Write ``offers.nt``, ``near.nt`` (timestamped N-Triples) and ``static.n3`` (N3, because
        the products are literal subjects as in the paper)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"offers": out / "offers.nt", "near": out / "near.nt", "static": out / "static.n3"}
        for name, elements in (("offers", self.offers), ("near", self.near)):
            with paths[name].open("w", encoding="utf-8") as f:
                write_ntriples(elements, f)
        paths["static"].write_text(self.static_text(), encoding="utf-8")
        return paths

    def static_text(self) -> str:
        """The static graph as N3 (literal subjects allowed), one triple a line, sorted: the same
        scenario always gives the same bytes (rdflib's serializer does not promise an order)."""
        from translator.rdf.terms import to_nt

        lines = sorted(" ".join(to_nt(x) for x in triple) + " ." for triple in self.static)
        return "".join(line + "\n" for line in lines)


def coupon_scenario(
    *,
    duration: int = 60,
    shops: int = 2,
    customers: int = 1,
    products: Sequence[str] = DEFAULT_PRODUCTS[:2],
    offer_rate: float = 0.1,
    near_rate: float = 0.1,
    stay: int = 1,
    ping: int = 1,
    reduce_range: tuple[int, int] = (5, 50),
    seed: int = 0,
    offers_stream: URIRef = OFFERS_STREAM,
    near_stream: URIRef = NEAR_STREAM,
) -> CouponScenario:
    """The coupon scenario of seed 000 Ex. 1–8 over ``[0, duration)``.

    ``offer_rate``: coupons per time unit (each coupon is three triples at one time point, in the
    order offers, on, reduce). ``near_rate``: visits per time unit; a visit of a random customer to
    a random shop lasts ``stay`` time units and is reported every ``ping`` units. ``reduce_range``:
    the inclusive range of discount percentages. Products get a random gender class (0 women,
    1 men) in the static graph.
    """
    if shops < 1 or customers < 1 or not products:
        raise ValueError("need at least one shop, one customer and one product")
    if stay < 1 or ping < 1:
        raise ValueError("stay and ping must be >= 1")
    rng = random.Random(seed)
    static = Graph()
    for product in products:
        static.add((Literal(product), G_CLASSIFY, _integer(rng.randint(0, 1))))

    offers: list[StreamElement] = []
    for n, t in enumerate(arrivals(rng, offer_rate, duration)):
        shop = URIRef(f"{EX}shop{rng.randrange(shops)}")
        coupon = URIRef(f"{EX}coupon{n}")
        product = Literal(rng.choice(list(products)))
        percent = _integer(rng.randint(*reduce_range))
        for triple in ((shop, OFFERS, coupon), (coupon, ON, product), (coupon, REDUCE, percent)):
            offers.append(StreamElement(triple, t, offers_stream))

    reports: list[tuple[int, int, StreamElement]] = []
    for n, t in enumerate(arrivals(rng, near_rate, duration)):
        triple = (URIRef(f"{EX}customer{rng.randrange(customers)}"), IS_NEAR,
                  URIRef(f"{EX}shop{rng.randrange(shops)}"))
        for u in range(t, min(t + stay, duration), ping):
            reports.append((u, n, StreamElement(triple, u, near_stream)))
    reports.sort(key=lambda r: (r[0], r[1]))  # time order; ties by visit order
    return CouponScenario(offers, [r[2] for r in reports], static)


def random_stream(
    *,
    duration: int = 100,
    rate: float = 1.0,
    subjects: int = 5,
    predicates: int = 3,
    objects: int = 5,
    literal_ratio: float = 0.3,
    seed: int = 0,
    stream: URIRef = URIRef(EX + "stream/random"),
) -> list[StreamElement]:
    """Random triples ``(:s_i, :p_j, :o_k | "k"^^xsd:integer)`` at ``rate`` per time unit."""
    rng = random.Random(seed)
    out: list[StreamElement] = []
    for t in arrivals(rng, rate, duration):
        s = URIRef(f"{EX}s{rng.randrange(subjects)}")
        p = URIRef(f"{EX}p{rng.randrange(predicates)}")
        k = rng.randrange(objects)
        o = _integer(k) if rng.random() < literal_ratio else URIRef(f"{EX}o{k}")
        out.append(StreamElement((s, p, o), t, stream))
    return out
