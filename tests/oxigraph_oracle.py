"""A second independent SPARQL 1.1 engine for the differential tests: pyoxigraph (Oxigraph, a
SPARQL engine written in Rust, sharing no code with rdflib or rsplars).

``oxigraph_answers(query, default, named, names)`` evaluates a SPARQL text over a dataset given as
rdflib triples (the default graph and named graphs) and returns the solutions as tuples of
canonical N-Triples texts (``translator.rdf.terms.to_nt``, the form rsplars prints), ``None`` for
unbound. Imported by name (tests/conftest.py puts this folder on sys.path).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Iterable, Mapping

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef

from oracles import oxigraph_store  # the store both Oxigraph helpers query
from translator.rdf.terms import to_nt


def from_ox(term):
    """A pyoxigraph term as an rdflib term (lexical form kept: no normalisation)."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        return Literal(term.value, datatype=URIRef(term.datatype.value), normalize=False)
    raise TypeError(f"not an RDF term: {term!r}")


def oxigraph_rows(query: str, default: Iterable[tuple] = (), named: Mapping[str, Iterable[tuple]] | None = None):
    """The solutions as ``{variable name: rdflib term}`` dicts (unbound variables left out)."""
    result = oxigraph_store(default, named).query(query)
    if isinstance(result, ox.QueryBoolean):
        return [{}] if bool(result) else []
    names = [v.value for v in result.variables]
    rows = []
    for solution in result:
        rows.append({n: from_ox(solution[n]) for n in names if solution[n] is not None})
    return rows


def oxigraph_answers(query: str, default: Iterable[tuple], named: Mapping[str, Iterable[tuple]] | None,
                     names: tuple[str, ...]) -> set[tuple]:
    """The set of solutions projected on ``names`` as N-Triples texts (``None``: unbound)."""
    return {tuple(to_nt(row[n]) if n in row else None for n in names) for row in oxigraph_rows(query, default, named)}


def comparable(term) -> object:
    """A term for comparing engines: a numeric literal as (datatype, exact value) — engines print
    the same computed number in different lexical forms (``"1"``/``"1.0"``/``"1.0E0"``; SPARQL
    only fixes the value and the datatype) — anything else as its N-Triples text."""
    if isinstance(term, Literal) and term.datatype is not None:
        dt = str(term.datatype)
        kind = dt.rsplit("#", 1)[-1]
        try:
            if kind in ("double", "float"):
                value = float(str(term).replace("INF", "inf"))
                return (dt, "NaN" if value != value else value)
            if kind == "decimal":
                return (dt, Fraction(Decimal(str(term))))
            if kind == "integer":
                return (dt, int(str(term)))
        except (ValueError, ArithmeticError):
            pass
    return to_nt(term)


_NT_LITERAL = re.compile(r'^"(.*)"\^\^<([^>]+)>$', re.S)


def comparable_nt(text: str | None) -> object:
    """:func:`comparable` of an N-Triples text (``None`` stays ``None``)."""
    if text is None:
        return None
    m = _NT_LITERAL.match(text)
    if m:
        return comparable(Literal(m.group(1), datatype=URIRef(m.group(2)), normalize=False))
    return text
