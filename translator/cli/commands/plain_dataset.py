"""The base IRI and the default graph of a plain SPARQL query run with ``rsplars run Q`` without
``--stream`` (Dao-Tran, Beck, Eiter 2015, Proposition 2: a query without streams is SPARQL).

* Base IRI (SPARQL 1.1 §4.1.1; RFC 3986 §5.1.3): a query read from a file has that file's
  ``file:`` IRI as its base when it declares no BASE, so ``<data.ttl>`` or ``GRAPH <g.ttl>`` name
  files beside the query, as in any SPARQL engine.
* Default graph (SPARQL 1.1 §13.2): ``FROM <g>`` makes graph g the default graph. The data given on
  the command line are the dataset of the SPARQL protocol (SPARQL 1.1 Protocol §2.1.4: a dataset
  given by the protocol overrides the query's FROM/FROM NAMED): ``--static`` replaces FROM; without
  ``--static``, FROM's graph is the ``--named`` graph of that IRI if one is given, else the file its
  ``file:`` IRI names. rsplars reads no data from the web: any other FROM IRI is an error.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import unquote, urlparse

from lars.errors import RsplarsError


def query_base(path: str) -> str | None:
    """The ``file:`` IRI of a query file (None for stdin, ``-``)."""
    return None if path == "-" else Path(path).resolve().as_uri()


def from_graph_files(query, args: argparse.Namespace) -> list[str]:
    """The files of the default graph that ``FROM <g>`` names (empty with ``--static``, which
    overrides FROM, or without FROM)."""
    from translator.rdf.streams import parse_stream_spec

    if args.static or not query.dataset.default:
        return []
    named = dict(parse_stream_spec(s) for s in args.named)
    files = []
    for iri in query.dataset.default:
        if iri.value in named:
            files.append(named[iri.value])
        elif urlparse(iri.value).scheme == "file":
            files.append(unquote(urlparse(iri.value).path))
        else:
            raise RsplarsError(f"FROM <{iri.value}>: rsplars reads no data from the web; give the default graph with "
                               "--static FILE (or --named IRI=FILE with that IRI)")
    return files
