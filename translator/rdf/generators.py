"""Seeded, deterministic RDF stream generators for agreement studies.

* :func:`coupon_scenario` — the running example of Dao-Tran, Beck, Eiter 2015 (Examples 1–8, after Dell'Aglio et
  al.): shops push discount coupons (``:shop :offers :c . :c :on "product" . :c :reduce 25``) on an
  *offers* stream, customers' phones report ``:customer :isNear :shop`` on a *near* stream, and the
  static data classifies products by gender (``"product" :g_classify 0|1``). The vocabulary is the
  paper's, so the queries Q1 (C-SPARQL) and Q2 (CQELS) of Example 4 run on it unchanged.
* :func:`random_stream` — random triples over small pools of subjects, predicates and objects.

Arrivals follow a Poisson process with the given rate (events per time unit): exponential gaps,
each event at the integer time point ``⌊arrival time⌋``, so a high rate gives several triples at
one time point (the *dense input* of Dao-Tran, Beck, Eiter 2015, §5). Everything is drawn from ``random.Random(seed)``:
the same arguments give the same stream. Write a stream with
:func:`translator.rdf.streams.write_ntriples`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence, cast

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from translator.rdf.streams import StreamElement, Triple, write_ntriples

EX = "http://example.org/"
OFFERS_STREAM = URIRef(EX + "stream/offers")
NEAR_STREAM = URIRef(EX + "stream/near")

#: the vocabulary of Dao-Tran, Beck, Eiter 2015, Examples 2–7
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

        # rdflib types a graph's terms as any Node: this graph holds the IRIs and literals made here
        lines = sorted(" ".join(to_nt(x) for x in triple) + " ." for triple in cast("Iterable[Triple]", self.static))
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
    """The coupon scenario of Dao-Tran, Beck, Eiter 2015, Ex. 1–8 over ``[0, duration)``.

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


# ------------------------------------------------------------------ benchmark vocabularies

SSN = "http://purl.oclc.org/NET/ssnx/ssn#"
SAO = "http://purl.oclc.org/NET/sao/"
CT = "http://www.insight-centre.org/citytraffic#"
SES = "http://www.insight-centre.org/dataset/SampleEventService#"
OM_OWL = "http://knoesis.wright.edu/ssw/ont/sensor-observation.owl#"
WEATHER = "http://knoesis.wright.edu/ssw/ont/weather.owl#"
SSW = "http://knoesis.wright.edu/ssw/"
SRBENCH_STREAM = URIRef("http://www.cwi.nl/SRBench/observations")

#: CityBench's sensor kinds (CityBench, Ali et al. ISWC 2015): the service IRI prefix, the
#: observed property classes (ct:…) of its sensors and the range of their values
CITYBENCH_KINDS: dict[str, tuple[tuple[str, ...], tuple[float, float]]] = {
    "AarhusTrafficData": (("CongestionLevel", "EstimatedTime"), (0.0, 5.0)),
    "AarhusParkingData": (("ParkingVacancy",), (0.0, 3.0)),
    "AarhusWeatherData": (("Temperature", "Humidity", "WindSpeed"), (-2.0, 3.0)),
    "AarhusPollutionData": (("API",), (0.0, 4.0)),
    "UserLocationService": (("Location",), (0.0, 0.0)),
}


def _double(x: float) -> Literal:
    return Literal(repr(float(x)), datatype=XSD.double)


def _decimal(x: str) -> Literal:
    return Literal(x, datatype=XSD.decimal)


@dataclass(frozen=True)
class BenchmarkData:
    """Generated benchmark data: stream elements per stream IRI (time order) and static graphs by
    name (``sensors``: the sensor repository; ``events``: cultural/library events)."""

    streams: dict[URIRef, list[StreamElement]]
    static: dict[str, Graph]

    def write(self, directory: str | Path) -> dict[str, Path]:
        """Write one timestamped N-Triples file per stream (named after the IRI's local name) and
        ``NAME.nt`` per static graph, sorted: the same data always give the same bytes."""
        from translator.rdf.terms import to_nt

        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths: dict[str, Path] = {}
        for iri, elements in self.streams.items():
            name = str(iri).rstrip("/#").replace("#", "/").rsplit("/", 1)[-1]
            paths[str(iri)] = out / f"{name}.nt"
            with paths[str(iri)].open("w", encoding="utf-8") as f:
                write_ntriples(elements, f)
        for name, graph in self.static.items():
            paths[name] = out / f"{name}.nt"
            # rdflib types a graph's terms as any Node: this graph holds the IRIs and literals made here
            lines = sorted(" ".join(to_nt(x) for x in triple) + " .\n" for triple in cast("Iterable[Triple]", graph))
            paths[name].write_text("".join(lines), encoding="utf-8")
        return paths


def citybench_kind(service: str) -> str:
    """The CityBench sensor kind of a service IRI (``…#AarhusTrafficData158505`` → traffic)."""
    local = service.rsplit("#", 1)[-1]
    for kind in CITYBENCH_KINDS:
        if local.startswith(kind):
            return kind
    raise ValueError(f"not a CityBench service IRI: {service}")


def citybench(
    services: Sequence[str],
    *,
    duration: int = 20,
    period: int = 2,
    events: int = 3,
    readings: int = 1,
    tick: int = 1,
    seed: int = 0,
) -> BenchmarkData:
    """CityBench-like data (Ali, Gao, Mileo, ISWC 2015; vocabulary of its annotated Aarhus streams):

    * one stream per service IRI (``ses:AarhusTrafficData158505``, ``ses:AarhusParkingData…``,
      ``ses:AarhusWeatherData0``, ``ses:AarhusPollutionData…``, ``ses:UserLocationService``): every
      ``period`` time units (jittered, some observations skipped) ``readings`` observations per property
      ``?ob a ssn:Observation; ssn:observedProperty ?p; sao:hasValue ?v; ssn:observedBy <service>``
      with an ``xsd:double`` value — for the location service ``?v`` is a node with
      ``ct:hasLatitude`` / ``ct:hasLongitude``;
    * static ``sensors`` (SensorRepository.rdf): each property ``?p a ct:<Class>;
      ssn:isPropertyOf ?foi``, ``?foi ct:hasStartLatitude/ct:hasStartLongitude`` (xsd:double);
    * static ``events`` (AarhusCulturalEvents.rdf / AarhusLibraryEvents.rdf): ``?e a sao:Point,
      ssn:Observation;
      ssn:featureOfInterest ?foi; sao:value "title"``, ``?foi ct:hasFirstNode ?node``, the node's
      ``ct:hasLatitude/ct:hasLongitude``. Coordinates lie on a 0.1° grid near Aarhus so that
      distance filters hold for some pairs and not others.

    ``tick`` scales the time points (``1000`` writes seconds as milliseconds and puts half of the
    observations between two seconds).
    """
    rng = random.Random(seed)
    grid = [56.1 + 0.1 * k for k in range(4)]
    rdf_type = URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    sensors, event_graph = Graph(), Graph()
    properties: dict[str, list[URIRef]] = {}
    for service in services:
        kind = citybench_kind(service)
        classes, _ = CITYBENCH_KINDS[kind]
        foi = URIRef(f"{service}-foi")
        sensors.add((foi, URIRef(CT + "hasStartLatitude"), _double(rng.choice(grid))))
        sensors.add((foi, URIRef(CT + "hasStartLongitude"), _double(10.1 + 0.1 * rng.randrange(4))))
        for cls in classes:
            prop = URIRef(f"{service}-{cls}")
            properties.setdefault(service, []).append(prop)
            sensors.add((prop, rdf_type, URIRef(CT + cls)))
            sensors.add((prop, URIRef(SSN + "isPropertyOf"), foi))
    for n in range(events):
        event, foi, node = (URIRef(f"{SES}event{n}"), URIRef(f"{SES}event{n}-place"), URIRef(f"{SES}node{n}"))
        event_graph.add((event, rdf_type, URIRef(SAO + "Point")))
        # also an ssn:Observation, like the stream observations: CityBench Q5, Q8, Q9 join an event's
        # type with an observation's (``?evtId a ?ob . … ?obId1 a ?ob``) and are empty otherwise
        event_graph.add((event, rdf_type, URIRef(SSN + "Observation")))
        event_graph.add((event, URIRef(SSN + "featureOfInterest"), foi))
        event_graph.add((event, URIRef(SAO + "value"), Literal(rng.choice(["concert", "market", "reading"]))))
        event_graph.add((foi, URIRef(CT + "hasFirstNode"), node))
        event_graph.add((node, URIRef(CT + "hasLatitude"), _double(rng.choice(grid))))
        event_graph.add((node, URIRef(CT + "hasLongitude"), _double(10.1 + 0.1 * rng.randrange(4))))
    streams: dict[URIRef, list[StreamElement]] = {}
    for service in services:
        iri = URIRef(service)
        kind = citybench_kind(service)
        _, (lo, hi) = CITYBENCH_KINDS[kind]
        elements: list[StreamElement] = []
        count = 0
        for base in range(0, duration, period):
            for prop in [p for p in properties[service] for _ in range(readings)]:
                if rng.random() < 0.2:
                    continue  # a missed reading
                t = (base + rng.randrange(period)) * tick + (rng.choice((0, tick // 2)) if tick > 1 else 0)
                count += 1
                ob = URIRef(f"{service}-obs{count}")
                triples: list[Triple] = [(ob, rdf_type, URIRef(SSN + "Observation")),
                                         (ob, URIRef(SSN + "observedProperty"), prop),
                                         (ob, URIRef(SSN + "observedBy"), iri)]
                if kind == "UserLocationService":
                    point = URIRef(f"{service}-point{count}")
                    triples += [(ob, URIRef(SAO + "hasValue"), point),
                                (point, URIRef(CT + "hasLatitude"), _double(rng.choice(grid))),
                                (point, URIRef(CT + "hasLongitude"), _double(10.1 + 0.1 * rng.randrange(4)))]
                else:
                    value = round(rng.uniform(lo, hi) * 2) / 2  # halves: ties and threshold cases occur
                    triples.append((ob, URIRef(SAO + "hasValue"), _double(value)))
                elements.extend(StreamElement(tr, t, iri) for tr in triples)
        elements.sort(key=lambda e: e.t)
        streams[iri] = elements
    return BenchmarkData(streams, {"sensors": sensors, "events": event_graph})


def linked_sensor_data(
    *,
    duration: int = 30,
    sensors: int = 3,
    rate: float = 0.5,
    stream: URIRef = SRBENCH_STREAM,
    static_results: bool = False,
    seed: int = 0,
) -> BenchmarkData:
    """SRBench / CSRBench-like observations in the LinkedSensorData vocabulary (Patni et al. 2010;
    SRBench, Zhang et al. ISWC 2012; CSRBench, Dell'Aglio et al. ISWC 2013):

    ``?obs a weather:<Kind>Observation; om-owl:procedure ?sensor; om-owl:observedProperty
    weather:_<Property>; om-owl:result ?r``, ``?r om-owl:floatValue "v"^^xsd:float`` and, for most
    results, ``?r om-owl:uom weather:<unit>``. Kinds: temperature (``_AirTemperature``), relative
    humidity, wind speed and rainfall, at ``rate`` observations per time unit and sensor.

    ``static_results`` puts the result nodes' triples (value, unit) in the static graph
    ``results`` instead of the stream: the shape of a CQELS query that matches them outside its
    STREAM pattern (SRBench Q1 in CQELS).
    """
    rng = random.Random(seed)
    rdf_type = URIRef("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    # value ranges straddle the thresholds of the benchmark queries (CSRBench Q4: AVG > 20 °F,
    # SRBench Q3: AVG wind speed >= 74 mph, CSRBench Q1/Q6: > 0.5 and differences > 0.5)
    kinds = [("TemperatureObservation", "_AirTemperature", "fahrenheit", (10.0, 30.0)),
             ("RelativeHumidityObservation", "_RelativeHumidity", "percent", (0.0, 3.0)),
             ("WindSpeedObservation", "_WindSpeed", "milesPerHour", (60.0, 90.0)),
             ("RainfallObservation", "_Rainfall", "centimeters", (0.0, 2.0))]
    elements: list[tuple[int, int, StreamElement]] = []
    results = Graph()
    count = 0
    for s in range(sensors):
        sensor = URIRef(f"{SSW}System_S{s}")
        for t in arrivals(rng, rate, duration):
            cls, prop, unit, (lo, hi) = rng.choice(kinds)
            count += 1
            obs, result = URIRef(f"{SSW}Observation_{prop[1:]}_S{s}_{count}"), URIRef(f"{SSW}MeasureData_S{s}_{count}")
            value = Literal(repr(round(rng.uniform(lo, hi) * 4) / 4), datatype=XSD.float)
            obs_triples: list[Triple] = [(obs, rdf_type, URIRef(WEATHER + cls)),
                                         (obs, URIRef(OM_OWL + "procedure"), sensor),
                                         (obs, URIRef(OM_OWL + "observedProperty"), URIRef(WEATHER + prop)),
                                         (obs, URIRef(OM_OWL + "result"), result)]
            result_triples: list[Triple] = [(result, URIRef(OM_OWL + "floatValue"), value)]
            if rng.random() < 0.7:
                result_triples.append((result, URIRef(OM_OWL + "uom"), URIRef(WEATHER + unit)))
            if static_results:
                for tr in result_triples:
                    results.add(tr)
                result_triples = []
            for tr in obs_triples + result_triples:
                elements.append((t, count, StreamElement(tr, t, stream)))
    elements.sort(key=lambda e: (e[0], e[1]))
    return BenchmarkData({stream: [e[2] for e in elements]}, {"results": results})
