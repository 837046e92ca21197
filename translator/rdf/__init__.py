"""RDF data for rsplars: terms, streams, static data and SPARQL expression semantics.

* :mod:`translator.rdf.terms` — RDF term ↔ LARS term through canonical N-Triples text (D5, D7);
* :mod:`translator.rdf.timeunits` — durations, base unit and :class:`TimeSpec` (D1);
* :mod:`translator.rdf.streams` — stream readers (timestamped N-Triples, TriG, the papers'
  notation), merging, writing, and the LARS view ``striple(S, P, O, s)``;
* :mod:`translator.rdf.static` — static datasets (any rdflib syntax) and ``triple(S, P, O, G)`` facts;
* :mod:`translator.rdf.sparql_ops` — SPARQL 1.1 operators and functions, exactly (D6);
* :mod:`translator.rdf.generators` — seeded stream generators (coupon scenario, random).

See ``docs/rdf-io.md``.
"""

import importlib

#: the names this package offers, by the module that defines them; each module is imported on first
#: use of one of its names, so that importing one submodule (the run path imports ``streams``,
#: ``terms`` and ``predicates``) does not load the others (``static`` parses with rdflib)
_EXPORTS = {
    "load_dataset": "static", "load_static": "static", "static_facts": "static",
    "StreamElement": "streams", "merge_streams": "streams", "parse_stream": "streams", "read_stream": "streams",
    "read_streams": "streams", "to_lars_stream": "streams",
    "NULL": "terms", "from_lars": "terms", "from_nt": "terms", "to_lars": "terms", "to_nt": "terms",
    "TimeSpec": "timeunits", "parse_duration": "timeunits", "to_base_units": "timeunits",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
