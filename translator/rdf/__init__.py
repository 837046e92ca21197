"""RDF data for rsplars: terms, streams, static data and SPARQL expression semantics.

* :mod:`translator.rdf.terms` — RDF term ↔ LARS term through canonical N-Triples text (D5, D7);
* :mod:`translator.rdf.timeunits` — durations, base unit and :class:`TimeSpec` (D1);
* :mod:`translator.rdf.streams` — stream readers (timestamped N-Triples, TriG, the seeds'
  notation), merging, writing, and the LARS view ``striple(S, P, O, s)``;
* :mod:`translator.rdf.static` — static datasets (any rdflib syntax) and ``triple(S, P, O, G)`` facts;
* :mod:`translator.rdf.sparql_ops` — SPARQL 1.1 operators and functions, exactly (D6);
* :mod:`translator.rdf.generators` — seeded stream generators (coupon scenario, random).

See ``docs/rdf-io.md``.
"""

from translator.rdf.static import load_dataset, load_static, static_facts
from translator.rdf.streams import (
    StreamElement,
    merge_streams,
    parse_stream,
    read_stream,
    read_streams,
    to_lars_stream,
)
from translator.rdf.terms import NULL, from_lars, from_nt, to_lars, to_nt
from translator.rdf.timeunits import TimeSpec, parse_duration, to_base_units

__all__ = [
    "NULL", "StreamElement", "TimeSpec", "from_lars", "from_nt", "load_dataset", "load_static",
    "merge_streams", "parse_duration", "parse_stream", "read_stream", "read_streams", "static_facts",
    "to_base_units", "to_lars", "to_lars_stream", "to_nt",
]
