"""Generated streams for experiments: seeded, deterministic data to run, agree and check on, as
``rsplars gen`` writes it (:mod:`translator.rdf.generators`):

* :func:`coupon_streams` — the running example of Dao-Tran, Beck, Eiter 2015 (Ex. 1–8): coupons on
  an *offers* stream, customers' sightings on a *near* stream, products classified in the static
  data; Poisson arrivals, so a high rate gives the *dense input* of §5;
* :func:`random_stream` — random triples over small pools of subjects, predicates and objects;
* :func:`citybench_streams` — CityBench-style sensor streams (Ali, Gao, Mileo, ISWC 2015) and their
  static sensor and event repositories.

Each returns :class:`GeneratedData`: the streams as ``{IRI: [(triple, time), …]}`` with N-Triples
terms (what :func:`rsplars.run` and the other functions take as streams), the static data as text,
and :meth:`GeneratedData.write` to put them in files (timestamped N-Triples, docs/rdf-io.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from lars.errors import RsplarsError

__all__ = ["DataFiles", "GeneratedData", "Triple", "citybench_streams", "coupon_streams", "random_stream"]

Triple = tuple[str, str, str]
"""A triple of N-Triples terms (``"<http://example.org/a>"``, ``'"25"^^<…#integer>'``)."""


@dataclass(frozen=True)
class DataFiles:
    """Where :meth:`GeneratedData.write` put the data: ``streams`` maps each stream IRI to its file
    (pass it as ``streams=``), ``static`` lists the static files (pass it as ``static=``)."""

    streams: dict[str, Path]
    static: list[Path]


@dataclass(frozen=True)
class GeneratedData:
    """Generated data: ``streams`` maps each stream IRI to its elements ``(triple, time)`` in time
    order (times in the generator's time unit), ``static`` each static file name (``static.n3``,
    ``sensors.nt``) to its text, one triple a line, sorted."""

    streams: dict[str, list[tuple[Triple, int]]]
    static: dict[str, str]

    def __repr__(self) -> str:
        counts = ", ".join(f"<{iri}>: {len(elements)}" for iri, elements in self.streams.items())
        return f"GeneratedData(streams={{{counts}}}, static={sorted(self.static)})"

    @property
    def triples(self) -> int:
        """The number of stream elements over all streams."""
        return sum(len(elements) for elements in self.streams.values())

    def to_dataframe(self) -> Any:
        """The streams as one pandas DataFrame, one row per element: ``stream``, ``subject``,
        ``predicate``, ``object``, ``time``, in time order (streams in their order at one time)."""
        from rsplars.running import _pandas

        rows = sorted(((t, k, n, iri, *triple) for k, (iri, elements) in enumerate(self.streams.items())
                       for n, (triple, t) in enumerate(elements)))
        return _pandas().DataFrame([(iri, s, p, o, t) for t, _, _, iri, s, p, o in rows],
                                   columns=["stream", "subject", "predicate", "object", "time"])

    def write(self, directory: str | os.PathLike[str]) -> DataFiles:
        """Write each stream as timestamped N-Triples, ``NAME.nt`` after the local name of its IRI
        (``…/stream/offers`` → ``offers.nt``), and each static text under its name, into
        ``directory`` (created if missing); the same data always give the same bytes."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        streams: dict[str, Path] = {}
        for iri, elements in self.streams.items():
            path = out / f"{_local_name(iri)}.nt"
            if path in streams.values() or path.name in self.static:
                raise RsplarsError(f"two outputs are named {path.name}")
            path.write_text("".join(f'{s} {p} {o} "{t}" .\n' for (s, p, o), t in elements), encoding="utf-8")
            streams[iri] = path
        static = []
        for name, text in self.static.items():
            (out / name).write_text(text, encoding="utf-8")
            static.append(out / name)
        return DataFiles(streams, static)


def coupon_streams(*, duration: int = 60, rate: float = 0.1, shops: int = 2, customers: int = 1,
                   products: int | Sequence[str] = 2, stay: int = 1, ping: int = 1, seed: int = 0,
                   near_rate: float | None = None) -> GeneratedData:
    """The coupon scenario of Dao-Tran, Beck, Eiter 2015, Ex. 1–8 over ``[0, duration)`` (the time
    unit is the caller's; the paper's is minutes), as ``rsplars gen coupons`` writes it.

    Coupons arrive at ``rate`` per time unit on ``http://example.org/stream/offers`` (three triples
    at one time point: ``:shopK :offers :couponN``, ``:couponN :on "product"``, ``:couponN
    :reduce P``) and visits at ``near_rate`` (default ``rate``) on
    ``http://example.org/stream/near`` (``:customerK :isNear :shopJ``, reported every ``ping`` time
    units for ``stay`` units). ``products``: how many (the paper's names first: ``mbt``,
    ``rayban``, …) or the names. The static file ``static.n3`` classifies each product
    (``"mbt" :g_classify 1``; N3, because the subjects are literals as in the paper).

    >>> import rsplars
    >>> data = rsplars.coupon_streams(duration=30, rate=0.2, seed=1)
    >>> sorted(data.streams)
    ['http://example.org/stream/near', 'http://example.org/stream/offers']
    >>> data.streams["http://example.org/stream/offers"][0]
    (('<http://example.org/shop1>', '<http://example.org/offers>', '<http://example.org/coupon0>'), 1)
    """
    from translator.rdf.generators import coupon_scenario, product_names

    _check_rate("rate", rate, duration)
    if near_rate is not None:
        _check_rate("near_rate", near_rate, duration)
    try:
        names = product_names(products) if isinstance(products, int) else tuple(products)
        scenario = coupon_scenario(duration=duration, shops=shops, customers=customers, products=names,
                                   offer_rate=rate, near_rate=rate if near_rate is None else near_rate, stay=stay,
                                   ping=ping, seed=seed)
    except ValueError as error:
        raise RsplarsError(f"coupon_streams: {error}") from None
    streams = {"http://example.org/stream/offers": _pairs(scenario.offers),
               "http://example.org/stream/near": _pairs(scenario.near)}
    return GeneratedData(streams, {"static.n3": scenario.static_text()})


def random_stream(*, duration: int = 100, rate: float = 1.0, subjects: int = 5, predicates: int = 3,
                  objects: int = 5, literal_ratio: float = 0.3, seed: int = 0,
                  stream: str = "http://example.org/stream/random") -> GeneratedData:
    """Random triples ``(:sI, :pJ, :oK)`` (a share ``literal_ratio`` of the objects the integer
    ``K`` instead) at ``rate`` per time unit over ``[0, duration)`` on ``stream``, drawn from pools
    of ``subjects``, ``predicates`` and ``objects`` (IRIs under ``http://example.org/``); no static
    data.

    >>> import rsplars
    >>> data = rsplars.random_stream(duration=10, rate=1.0, seed=7)
    >>> data.streams["http://example.org/stream/random"][0]
    (('<http://example.org/s1>', '<http://example.org/p1>', '"0"^^<http://www.w3.org/2001/XMLSchema#integer>'), 0)
    """
    from rdflib import URIRef

    from translator.rdf.generators import random_stream as generate

    _check_rate("rate", rate, duration)
    for name, size in (("subjects", subjects), ("predicates", predicates), ("objects", objects)):
        if size < 1:
            raise RsplarsError(f"random_stream: {name} must be at least 1, got {size}")
    if not 0 <= literal_ratio <= 1:
        raise RsplarsError(f"random_stream: literal_ratio must lie in [0, 1], got {literal_ratio}")
    elements = generate(duration=duration, rate=rate, subjects=subjects, predicates=predicates, objects=objects,
                        literal_ratio=literal_ratio, seed=seed, stream=URIRef(stream))
    return GeneratedData({stream: _pairs(elements)}, {})


def citybench_streams(services: Sequence[str], *, duration: int = 20, period: int = 2, events: int = 3,
                      readings: int = 1, tick: int = 1, seed: int = 0) -> GeneratedData:
    """CityBench-style data (Ali, Gao, Mileo, ISWC 2015; the vocabulary of its annotated Aarhus
    streams): one stream per service IRI (``…/SampleEventService#AarhusTrafficData158505``,
    ``…AarhusParkingData…``, ``…AarhusWeatherData0``, ``…AarhusPollutionData…``,
    ``…UserLocationService``), each reporting ``readings`` observations per observed property
    every ``period`` time units (jittered, some missed); the static ``sensors.nt`` (the sensor
    repository) and ``events.nt`` (cultural events near the sensors). ``tick`` scales the time
    points (``1000``: seconds written as milliseconds).

    >>> import rsplars
    >>> ses = "http://www.insight-centre.org/dataset/SampleEventService#"
    >>> data = rsplars.citybench_streams([ses + "AarhusWeatherData0"], duration=4, seed=1)
    >>> list(data.streams) == [ses + "AarhusWeatherData0"], sorted(data.static)
    (True, ['events.nt', 'sensors.nt'])
    """
    from translator.rdf.generators import citybench
    from translator.rdf.terms import to_nt

    if duration < 1 or period < 1 or tick < 1:
        raise RsplarsError(f"citybench_streams: duration, period and tick must be at least 1, got {duration}, "
                           f"{period}, {tick}")
    try:
        data = citybench(services, duration=duration, period=period, events=events, readings=readings, tick=tick,
                         seed=seed)
    except ValueError as error:
        raise RsplarsError(f"citybench_streams: {error}") from None
    static = {f"{name}.nt": "".join(sorted(" ".join(to_nt(x) for x in triple) + " .\n"  # type: ignore[arg-type]
                                           for triple in graph))
              for name, graph in data.static.items()}
    return GeneratedData({str(iri): _pairs(elements) for iri, elements in data.streams.items()}, static)


def _check_rate(name: str, rate: float, duration: int) -> None:
    if rate < 0:
        raise RsplarsError(f"{name} must not be negative, got {rate}")
    if duration < 1:
        raise RsplarsError(f"duration must be at least 1, got {duration}")


def _pairs(elements: Sequence[Any]) -> list[tuple[Triple, int]]:
    """Stream elements as ``(triple of N-Triples terms, time)``."""
    from translator.rdf.terms import to_nt

    return [((to_nt(e.triple[0]), to_nt(e.triple[1]), to_nt(e.triple[2])), int(e.t)) for e in elements]


def _local_name(iri: str) -> str:
    """The last segment of an IRI (after its last ``/`` or ``#``)."""
    return iri.rstrip("/#").replace("#", "/").rsplit("/", 1)[-1] or "stream"

