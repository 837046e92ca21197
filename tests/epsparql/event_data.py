"""Event streams written by hand in the EP-SPARQL tests: bare names in the namespace EP-SPARQL
queries read them in, one stream of events ``(s, p, o, t)``."""

from __future__ import annotations

from rdflib import URIRef

from translator.rdf.streams import StreamElement

NS = "http://rsplars.invalid/bare#"
STREAM = URIRef("http://example.org/events")


def iri(name: str) -> URIRef:
    return URIRef(NS + name)


def elements(events) -> list[StreamElement]:
    """The events as stream elements of :data:`STREAM`, in time order."""
    return [StreamElement((s, p, o), t, STREAM) for s, p, o, t in sorted(events, key=lambda e: e[3])]
