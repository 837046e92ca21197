"""RDF data for rsplars: terms, streams, static data and SPARQL expression semantics.

* :mod:`translator.rdf.terms` — RDF term ↔ LARS term through canonical N-Triples text (D5, D7);
* :mod:`translator.rdf.timeunits` — durations, base unit and :class:`TimeSpec` (D1);
* :mod:`translator.rdf.streams` — stream readers (timestamped N-Triples, TriG, the papers'
  notation), merging, writing, and the LARS view ``striple(S, P, O, s)``;
* :mod:`translator.rdf.static` — static datasets (any rdflib syntax) and ``triple(S, P, O, G)`` facts;
* :mod:`translator.rdf.sparql_ops` — SPARQL 1.1 operators and functions, exactly (D6);
* :mod:`translator.rdf.generators` — seeded stream generators (coupon scenario, random).

Import the submodule that defines a name (``from translator.rdf.streams import read_stream``):
the package itself imports none of them, so that the run path does not load ``static`` (rdflib).
See ``docs/rdf-io.md``.
"""
