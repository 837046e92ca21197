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
* Named graphs (SPARQL 1.1 §13.2): ``FROM NAMED <g>`` makes graph g a named graph of the dataset,
  read the same way: the ``--named`` graph of that IRI if one is given, else the file its ``file:``
  IRI names.
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
    if args.static or not query.dataset.default:
        return []
    named = _named_files(args)
    return [_graph_file(iri.value, named, "FROM") for iri in query.dataset.default]


def from_named_graphs(query, args: argparse.Namespace) -> list[str]:
    """``IRI=FILE`` for each graph ``FROM NAMED <g>`` names that no ``--named`` gives."""
    named = _named_files(args)
    return [f"{iri.value}={_graph_file(iri.value, named, 'FROM NAMED')}" for iri in query.dataset.named
            if iri.value not in named]


def _named_files(args: argparse.Namespace) -> dict[str, str]:
    from translator.rdf.streams import parse_stream_spec

    return dict(parse_stream_spec(s) for s in args.named)


def _graph_file(iri: str, named: dict[str, str], keyword: str) -> str:
    """The file of the graph ``iri``: the ``--named`` file of that IRI, else the file a ``file:`` IRI names."""
    if iri in named:
        return named[iri]
    if urlparse(iri).scheme == "file":
        return unquote(urlparse(iri).path)
    give = ("the default graph with --static FILE (or --named IRI=FILE with that IRI)" if keyword == "FROM"
            else f"the graph with --named {iri}=FILE")
    raise RsplarsError(f"{keyword} <{iri}>: rsplars reads no data from the web; give {give}")
