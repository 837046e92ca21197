"""``rsplars gen coupons|generic|citybench|srbench``: seeded RDF stream generators for agreement studies.

* ``coupons`` — the running example of Dao-Tran, Beck, Eiter 2015 (Examples 1–8) at any scale and density: shops push
  coupons (``:shop :offers :c . :c :on "product" . :c :reduce 25``) on the offers stream
  ``<http://example.org/stream/offers>``, customers near shops are reported on the near stream
  ``<http://example.org/stream/near>``, the static data classifies products (``"p" :g_classify 0|1``).
  The vocabulary is that of ``examples/running_example/q1.rq``/``q2.rq``, so they run on it unchanged.
* ``generic`` — random triples over small pools of subjects, predicates and objects.
* ``citybench`` — CityBench's annotated Aarhus streams (traffic, parking, weather, pollution, user
  location; ``--service IRI`` per stream) with the sensor repository and event data, and
  ``srbench`` — LinkedSensorData observations with ``xsd:float`` values (SRBench, CSRBench), both
  written with ``--output-dir`` (one file per stream and per static graph;
  :func:`translator.rdf.generators.citybench`, :func:`~translator.rdf.generators.linked_sensor_data`).

``--rate`` is the mean number of events per time unit (Poisson arrivals, several events can share
a time point: dense input); timestamps are integers in the run's base unit (``rsplars agree
--unit``). Output: timestamped N-Triples (``<s> <p> <o> "t" .``) on stdout or ``--output``; for
``coupons`` both streams merged in time order, or one file per stream with ``--output-dir`` (which
also writes ``static.n3``). The same arguments and ``--seed`` give byte-identical output.
"""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from translator.exits import EXIT_OK
from translator.cli.commands.common import output

HELP = "generate seeded RDF streams: the paper's coupon scenario or generic random triples"


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("gen", help=HELP, description=HELP)
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    c = kinds.add_parser("coupons", help="the paper's coupon scenario (offers and near streams, product data)")
    _common(c)
    c.add_argument("--near-rate", type=float, metavar="R",
                   help="visits of customers to shops per time unit (default: --rate)")
    c.add_argument("--shops", type=int, default=2, help="number of shops (default: 2)")
    c.add_argument("--customers", type=int, default=1, help="number of customers (default: 1)")
    c.add_argument("--products", type=int, default=2, help="number of products (default: 2)")
    c.add_argument("--stay", type=int, default=1, help="time units a visit lasts (default: 1)")
    c.add_argument("--ping", type=int, default=1, help="a visit is reported every PING time units (default: 1)")
    c.add_argument("--min-percent", type=int, default=5, help="smallest discount (default: 5)")
    c.add_argument("--max-percent", type=int, default=50, help="largest discount (default: 50)")
    c.add_argument("--static-output", metavar="FILE", help="write the static product data (N3) to FILE")
    c.add_argument("--output-dir", metavar="DIR",
                   help="write offers.nt, near.nt and static.n3 into DIR instead of one merged stream")
    c.set_defaults(func=run_coupons)
    g = kinds.add_parser("generic", help="random triples (:s_i :p_j :o_k or integer literals)")
    _common(g)
    g.add_argument("--subjects", type=int, default=5, help="size of the subject pool (default: 5)")
    g.add_argument("--predicates", type=int, default=3, help="size of the predicate pool (default: 3)")
    g.add_argument("--objects", type=int, default=5, help="size of the object pool (default: 5)")
    g.add_argument("--literal-ratio", type=float, default=0.3, help="share of integer-literal objects (default: 0.3)")
    g.add_argument("--stream-iri", default="http://example.org/stream/random", help="IRI of the stream (for notes only)")
    g.set_defaults(func=run_generic)
    cb = kinds.add_parser("citybench", help="CityBench streams (traffic, parking, weather, pollution, location) "
                                            "with their sensor repository and events")
    cb.add_argument("--service", action="append", required=True, metavar="IRI",
                    help="a CityBench service IRI, e.g. http://www.insight-centre.org/dataset/"
                         "SampleEventService#AarhusTrafficData158505 (repeatable)")
    cb.add_argument("--duration", type=int, required=True, metavar="T", help="time points 0 … T-1")
    cb.add_argument("--period", type=int, default=2, help="a reading per property every PERIOD time units (default: 2)")
    cb.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    cb.add_argument("--output-dir", required=True, metavar="DIR", help="one .nt file per stream, sensors.nt, events.nt")
    cb.set_defaults(func=run_benchmark)
    sr = kinds.add_parser("srbench", help="LinkedSensorData observations (SRBench / CSRBench vocabulary)")
    _common(sr)
    sr.add_argument("--sensors", type=int, default=3, help="number of sensors (default: 3)")
    sr.add_argument("--output-dir", required=True, metavar="DIR", help="observations.nt (and results.nt)")
    sr.set_defaults(func=run_benchmark)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rate", type=float, required=True, metavar="R", help="mean events per time unit (Poisson)")
    p.add_argument("--duration", type=int, required=True, metavar="T", help="time points 0 … T-1")
    p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    p.add_argument("--output", metavar="FILE", help="write the stream to FILE (atomically) instead of stdout")


def _check(args: argparse.Namespace) -> None:
    if args.rate < 0:
        raise RsplarsError(f"--rate must not be negative, got {args.rate}")
    if args.duration < 1:
        raise RsplarsError(f"--duration must be at least 1, got {args.duration}")


def run_coupons(args: argparse.Namespace) -> int:

    from translator.rdf.generators import coupon_scenario, product_names
    from translator.rdf.streams import merge_streams, write_ntriples

    _check(args)
    near_rate = args.rate if args.near_rate is None else args.near_rate
    if near_rate < 0:
        raise RsplarsError(f"--near-rate must not be negative, got {near_rate}")
    if args.min_percent > args.max_percent:
        raise RsplarsError(f"--min-percent {args.min_percent} is above --max-percent {args.max_percent}")
    if args.output_dir and args.output:
        raise RsplarsError("give --output (one merged stream) or --output-dir (one file per stream), not both")
    try:
        scenario = coupon_scenario(
            duration=args.duration, shops=args.shops, customers=args.customers,
            products=product_names(args.products), offer_rate=args.rate, near_rate=near_rate,
            stay=args.stay, ping=args.ping, reduce_range=(args.min_percent, args.max_percent), seed=args.seed,
        )
    except ValueError as exc:
        raise RsplarsError(f"gen coupons: {exc}") from None
    if args.output_dir:
        paths = scenario.write(args.output_dir)
        for name, path in paths.items():
            print(f"{name}: {path}", file=sys.stderr)
        if args.static_output:
            _write_static(scenario, args.static_output)
        return EXIT_OK
    with output(args.output) as out:
        write_ntriples(merge_streams(scenario.streams), out)
    if args.static_output:
        _write_static(scenario, args.static_output)
    return EXIT_OK


def _write_static(scenario, path: str) -> None:
    with output(path) as out:
        out.write(scenario.static_text())


def run_generic(args: argparse.Namespace) -> int:
    from rdflib import URIRef

    from translator.rdf.generators import random_stream
    from translator.rdf.streams import write_ntriples

    _check(args)
    for name in ("subjects", "predicates", "objects"):
        if getattr(args, name) < 1:
            raise RsplarsError(f"--{name} must be at least 1")
    if not 0 <= args.literal_ratio <= 1:
        raise RsplarsError("--literal-ratio must lie in [0, 1]")
    elements = random_stream(duration=args.duration, rate=args.rate, subjects=args.subjects,
                             predicates=args.predicates, objects=args.objects, literal_ratio=args.literal_ratio,
                             seed=args.seed, stream=URIRef(args.stream_iri))
    with output(args.output) as out:
        write_ntriples(elements, out)
    return EXIT_OK


def run_benchmark(args: argparse.Namespace) -> int:
    from translator.rdf.generators import citybench, linked_sensor_data

    if args.duration < 1:
        raise RsplarsError(f"--duration must be at least 1, got {args.duration}")
    try:
        if args.kind == "citybench":
            if args.period < 1:
                raise ValueError(f"--period must be at least 1, got {args.period}")
            data = citybench(args.service, duration=args.duration, period=args.period, seed=args.seed)
        else:
            _check(args)
            data = linked_sensor_data(duration=args.duration, sensors=args.sensors, rate=args.rate, seed=args.seed)
    except ValueError as exc:
        raise RsplarsError(f"gen {args.kind}: {exc}") from None
    for name, path in data.write(args.output_dir).items():
        print(f"{name}: {path}", file=sys.stderr)
    return EXIT_OK
