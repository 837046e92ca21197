"""Two independent SPARQL 1.1 engines as test oracles: rdflib (Python) and Oxigraph (``pyoxigraph``,
Rust). A differential test evaluates the SPARQL reading of a query on a window snapshot — a
default graph and named graphs of rdflib terms — with :func:`rows`, choosing per query shape the
engine that is right on it (docs/translation.md, "Two oracles", lists where they differ and why):

* rdflib 7 evaluates a nested MINUS, and OPTIONAL after VALUES, with the bindings of the patterns
  before it (SPARQL evaluates both bottom-up): such shapes go to Oxigraph;
* rdflib sums and averages floats and doubles in Python floats with its own result types, gives
  one all-unbound row for GROUP BY over no solutions and writes decimals non-canonically:
  aggregates go to Oxigraph, and numbers are compared by value (:func:`agree`).

Answers are sets of tuples of N-Triples texts (``None`` = unbound) in the order of ``names``, as
the project's own writers print them (``translator.rdf.terms.to_nt``). Imported by name
(tests/conftest.py puts this folder on sys.path).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Iterable, Mapping

import pyoxigraph as ox
from rdflib import BNode, Dataset, Literal, URIRef
from rdflib.namespace import XSD

from translator.rdf import sparql_ops as ops, sparql_terms
from translator.rdf.terms import from_nt, to_nt

Triple = tuple
Row = tuple


# ------------------------------------------------------------------------------------ snapshots


def rdflib_dataset(default: Iterable[Triple], named: Mapping[str, Iterable[Triple]] | None = None) -> Dataset:
    ds = Dataset()
    for tr in default:
        ds.default_graph.add(tr)
    for iri, triples in (named or {}).items():
        graph = ds.graph(URIRef(str(iri)))
        for tr in triples:
            graph.add(tr)
    return ds


def _ox_term(term):
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if term.language:
        return ox.Literal(str(term), language=term.language)
    return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype or XSD.string)))


def oxigraph_store(default: Iterable[Triple], named: Mapping[str, Iterable[Triple]] | None = None) -> ox.Store:
    """A store with the same quads; literals keep their lexical forms (no normalisation)."""
    store = ox.Store()
    quads = [ox.Quad(*map(_ox_term, tr), ox.DefaultGraph()) for tr in default]
    for iri, triples in (named or {}).items():
        quads += [ox.Quad(*map(_ox_term, tr), ox.NamedNode(str(iri))) for tr in triples]
    store.extend(quads)
    return store


def _from_ox(term) -> str:
    """An Oxigraph term as the project's N-Triples (``"x"^^xsd:string`` is ``"x"``)."""
    if isinstance(term, ox.Literal):
        if term.language:
            return to_nt(Literal(term.value, lang=term.language))
        dt = term.datatype.value
        return to_nt(Literal(term.value, datatype=None if dt == str(XSD.string) else URIRef(dt), normalize=False))
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    return f"_:{term.value}"


# ---------------------------------------------------------------------------------------- oracles


def oxigraph_rows(query: str, default: Iterable[Triple], named: Mapping[str, Iterable[Triple]] | None,
                  names: tuple[str, ...]) -> set[Row]:
    store = oxigraph_store(default, named)
    out = set()
    for solution in store.query(query):
        out.add(tuple(None if solution[n] is None else _from_ox(solution[n]) for n in names))
    return out


def rdflib_rows(query: str, default: Iterable[Triple], named: Mapping[str, Iterable[Triple]] | None,
                names: tuple[str, ...]) -> set[Row]:
    result = rdflib_dataset(default, named).query(query)
    out = set()
    # .bindings, not iteration: rdflib's iterator drops solutions that bind no variable
    for solution in result.bindings:
        values = {str(k): v for k, v in solution.items()}
        out.add(tuple(to_nt(values[n]) if values.get(n) is not None else None for n in names))
    return out


ORACLES = {"oxigraph": oxigraph_rows, "rdflib": rdflib_rows}


def rows(query: str, default: Iterable[Triple], named: Mapping[str, Iterable[Triple]] | None,
         names: tuple[str, ...], oracle: str = "oxigraph") -> set[Row]:
    """The answers of ``oracle`` ("oxigraph" or "rdflib") to the SPARQL ``query`` on the snapshot."""
    return ORACLES[oracle](query, list(default), {k: list(v) for k, v in (named or {}).items()}, names)


ORDERING = re.compile(r" (?:<|>|<=|>=) ")  # an operator between spaces, whatever its operands


def oxigraph_is_right_on(query: str) -> bool:
    """Shapes Oxigraph 0.5 evaluates as SPARQL 1.1 does: no ordering comparison ``<`` ``<=`` ``>``
    ``>=`` (as the generated queries write them, ``?x >= ?y``, ``?x < <a>``): Oxigraph orders terms
    SPARQL leaves incomparable — ``<a> >= <a>`` and ``"a"@en < "b"@en`` are true there, type
    errors in SPARQL (§17.3) and in rsplars; and no VALUES or second GRAPH with ``GRAPH ?g``
    (``GRAPH ?g { VALUES ?x {:a} }`` and ``GRAPH ?g { GRAPH :g2 { ?x :p ?y } }`` leave ?g unbound
    there; SPARQL §18.6 binds it to each named graph), nor MINUS with ``GRAPH ?g`` (in
    ``GRAPH ?g { ?x :q ?x . MINUS { ?y :q ?y } }`` over ``:a :q :a`` in graph ``:g1`` Oxigraph
    removes the solution, as if both sides of MINUS bound ?g; SPARQL evaluates the MINUS in the
    graph and joins ?g after it, §18.6, so the domains are disjoint and the solution stays, §18.5,
    as Oxigraph itself keeps it under ``GRAPH :g1``)."""
    graph_var = "GRAPH ?" in query and ("VALUES" in query or query.count("GRAPH") > 1 or "MINUS" in query)
    return not ORDERING.search(query) and not graph_var


def expected(query: str, default, named, names: tuple[str, ...]) -> set[Row] | None:
    """The answers of an engine that is right on the shape of ``query`` (both must agree when
    both are); ``None`` when neither is (a nested MINUS with an ordering comparison)."""
    default, named = list(default), {k: list(v) for k, v in (named or {}).items()}
    answers = {}
    if oxigraph_is_right_on(query):
        answers["oxigraph"] = rows(query, default, named, names, "oxigraph")
    if rdflib_is_right_on(query):
        answers["rdflib"] = rows(query, default, named, names, "rdflib")
    if len(answers) == 2:
        assert answers["oxigraph"] == answers["rdflib"], ("the oracles disagree", query, answers)
    return next(iter(answers.values()), None)


def rdflib_is_right_on(where: str) -> bool:
    """Shapes rdflib 7 evaluates as SPARQL 1.1 does: no nested MINUS (it sees the bindings of the
    patterns joined before it: ``?x :p ?v . { ?x :p ?v . MINUS { ?y :p ?w } }`` over ``:a :p 1`` has
    no solution in rdflib, one in SPARQL — §18.5 Minus keeps solutions of disjoint domain), no
    FILTER in a nested group (the same cause: in ``?x :p ?x . { … } UNION { ?y :p ?y FILTER(bound(?x)) }``
    rdflib's filter sees the ?x joined before the group, SPARQL's does not — §18.2.2 a group's
    filter reads the group's solutions), and no VALUES together with OPTIONAL (``VALUES ?x {:a}
    OPTIONAL { VALUES ?x {1} }``: rdflib drops the solution). ``where``: the whole query."""
    depth = 0
    for k, ch in enumerate(where):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth > 0 and where.startswith("MINUS", k):
            return False
        if depth > 1 and where.startswith("FILTER", k):
            return False
    return not ("VALUES" in where and "OPTIONAL" in where)


# ------------------------------------------------------------------------------ comparing values

EPS = {XSD.double: 2.0**-52, XSD.float: 2.0**-23}


def number(term: str | None) -> tuple[URIRef, Fraction | float] | None:
    """``(datatype, value)`` of a numeric literal (values exact; NaN/INF as floats; the integer
    types derived from xsd:integer as xsd:integer), else None."""
    if term is None or not term.startswith('"'):
        return None
    n = sparql_terms.numeric(from_nt(term))
    if n is None:
        return None
    value = n.value if isinstance(n.value, float) and not math.isfinite(n.value) else Fraction(n.value)
    return URIRef(ops.KIND_TYPE[n.kind]), value


def agree(ours: str | None, theirs: str | None, tolerance: Fraction = Fraction(0)) -> bool:
    """Do two answer terms agree: the same term, or numbers of the same datatype whose values
    differ by at most ``tolerance`` (lexical forms differ between engines: ``"5.0E0"`` is
    Oxigraph's ``"5"``; NaN agrees with NaN)."""
    if ours == theirs:
        return True
    a, b = number(ours), number(theirs)
    if a is None or b is None or a[0] != b[0]:
        return False
    x, y = a[1], b[1]
    if isinstance(x, float) or isinstance(y, float):
        return (isinstance(x, float) and isinstance(y, float)
                and (x == y or (math.isnan(x) and math.isnan(y))))
    return abs(x - y) <= tolerance
