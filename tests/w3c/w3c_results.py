"""Expected results of the W3C SPARQL tests, and the W3C comparison of results as bags.

Readers (independent of rsplars' own writers): SPARQL Query Results XML (``.srx``, read with
ElementTree, lexical forms as written), SPARQL Query Results JSON (``.srj``), and RDF files (Turtle
``.ttl``, RDF/XML ``.rdf``, read with rdflib keeping lexical forms) that are either a result set in
the DAWG result-set vocabulary (``rs:ResultSet``, ordered where its solutions carry ``rs:index``) or
the graph a CONSTRUCT query gives. A result set is a :class:`ResultSet`: the variables and the rows,
a row a tuple of N-Triples terms (``None``: unbound) in the order of the variables; a boolean is an
ASK result; an ``rdflib.Graph`` a CONSTRUCT result.

Comparison, as the W3C test suites define it (SPARQL 1.1 Query §18.1.6 and the DAWG test
conventions, ``sparql10/README``):

* a result set is a **multiset** of solutions (:func:`same_bag`): each solution as often as the
  expected result lists it, blank nodes up to one bijection for the whole result (a blank node
  names the same node in every row it appears in), literals as written (lexical form, datatype,
  language tag), and two numeric literals of the same datatype equal when their values are
  (SPARQL fixes no canonical lexical form for computed numbers: ``2.0`` and ``2.00``; the test
  classification says where rsplars' lexical forms differ);
* where the query's top-level modifier is REDUCED, or the manifest says
  ``mf:resultCardinality mf:LaxCardinality``, each solution may come any number of times between
  one and its cardinality in the expected bag (:func:`within_reduced`, SPARQL 1.1 §18.5 Reduced);
* where the query has a top-level ORDER BY and the expected file fixes the sequence (SRX and SRJ
  in document order, ``rs:index`` in result-set graphs), the sequence of the rows' ORDER BY keys
  must be the expected one (:func:`same_order`): rows that tie on the keys may come in any order
  (§15.1). A key the rows do not show (an expression, a variable that is not projected) cannot be
  read off the answers; then the rows themselves must come in the expected sequence.
"""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

XSD = "http://www.w3.org/2001/XMLSchema#"
RS = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#"
SRX = "{http://www.w3.org/2005/sparql-results#}"
NUMERIC = {XSD + t for t in ("integer", "decimal", "float", "double", "int", "long", "short", "byte",
                             "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
                             "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte")}
BLANK = "_:"

Row = tuple[str | None, ...]


@dataclass(frozen=True)
class ResultSet:
    """The variables and the rows of a SELECT result; ``ordered``: the file fixes the rows' sequence."""

    variables: list[str]
    rows: list[Row]
    ordered: bool = True


def nt_iri(value: str) -> str:
    return "<" + value + ">"


def nt_literal(value: str, datatype: str | None = None, lang: str | None = None) -> str:
    from rdflib import Literal

    from translator.rdf.terms import to_nt

    # a Literal built with its lexical form as written (no normalisation: the datatype is set after)
    lit = Literal(value, lang=lang) if lang else Literal(value)
    text = to_nt(lit)
    if datatype and datatype != XSD + "string" and not lang:
        text += "^^" + nt_iri(datatype)
    return text


@functools.cache
def read_expected(path: Path):
    """``bool`` (ASK), ``rdflib.Graph`` (CONSTRUCT) or :class:`ResultSet` (read once per file; not
    to be changed by its users)."""
    if path.suffix == ".srx":
        return _read_srx(path)
    if path.suffix == ".srj":
        return _read_srj(path)
    return _read_rdf(path, "xml" if path.suffix == ".rdf" else "turtle")


def _read_srx(path: Path):
    root = ET.parse(path).getroot()
    boolean = root.find(f"{SRX}boolean")
    if boolean is not None:
        return (boolean.text or "").strip() == "true"
    variables = [v.get("name") for v in root.iter(f"{SRX}variable")]
    rows = []
    for result in root.iter(f"{SRX}result"):
        values: dict[str, str] = {}
        for binding in result.findall(f"{SRX}binding"):
            (node,) = list(binding)
            tag = node.tag[len(SRX):]
            if tag == "uri":
                values[binding.get("name")] = nt_iri((node.text or "").strip())
            elif tag == "bnode":
                values[binding.get("name")] = BLANK + (node.text or "").strip()
            else:
                lang = node.get("{http://www.w3.org/XML/1998/namespace}lang")
                values[binding.get("name")] = nt_literal(node.text or "", node.get("datatype"), lang)
        rows.append(tuple(values.get(v) for v in variables))
    return ResultSet(variables, rows)


def _read_srj(path: Path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    if "boolean" in doc:
        return bool(doc["boolean"])
    variables = doc["head"]["vars"]
    rows = []
    for solution in doc["results"]["bindings"]:
        row = []
        for v in variables:
            term = solution.get(v)
            if term is None:
                row.append(None)
            elif term["type"] == "uri":
                row.append(nt_iri(term["value"]))
            elif term["type"] == "bnode":
                row.append(BLANK + term["value"])
            else:
                row.append(nt_literal(term["value"], term.get("datatype"), term.get("xml:lang")))
        rows.append(tuple(row))
    return ResultSet(variables, rows)


def _read_rdf(path: Path, fmt: str):
    from rdflib import RDF, Graph, URIRef

    from translator.rdf.terms import keep_lexical_forms, to_nt

    g = Graph()
    with keep_lexical_forms():
        g.parse(path, format=fmt, publicID=path.as_uri())
    result_set = g.value(None, RDF.type, URIRef(RS + "ResultSet"), any=True)
    if result_set is None:
        return g
    boolean = g.value(result_set, URIRef(RS + "boolean"))
    if boolean is not None:
        return bool(boolean.toPython())
    variables = sorted(str(v) for v in g.objects(result_set, URIRef(RS + "resultVariable")))
    indexed = []
    for solution in g.objects(result_set, URIRef(RS + "solution")):
        values = {}
        for binding in g.objects(solution, URIRef(RS + "binding")):
            values[str(g.value(binding, URIRef(RS + "variable")))] = to_nt(g.value(binding, URIRef(RS + "value")))
        index = g.value(solution, URIRef(RS + "index"))
        indexed.append((None if index is None else int(index), tuple(values.get(v) for v in variables)))
    ordered = bool(indexed) and all(i is not None for i, _ in indexed)
    if ordered:
        indexed.sort(key=lambda pair: pair[0])
    return ResultSet(variables, [row for _, row in indexed], ordered)


def project(variables: list[str], rows, onto: list[str]) -> list[Row]:
    """The rows with their columns in the order of ``onto`` (a variable not in ``variables``: unbound)."""
    index = {v: i for i, v in enumerate(variables)}
    return [tuple(row[index[v]] if v in index else None for v in onto) for row in rows]


def _number(text: str):
    """``(datatype, value)`` of a numeric literal's N-Triples text, else None."""
    if not text or not text.startswith('"') or "^^<" not in text:
        return None
    lexical, datatype = text[1:].rsplit('"^^<', 1)
    datatype = datatype[:-1]
    if datatype not in NUMERIC:
        return None
    try:
        return datatype, Decimal(lexical.strip())
    except InvalidOperation:
        return None


def _is_blank(term) -> bool:
    return isinstance(term, str) and term.startswith(BLANK)


def _term_key(text: str | None):
    number = _number(text) if text is not None else None
    return ("number", *number) if number is not None else text


def _keys(rows: list[Row], by_value: bool) -> list[tuple]:
    if not by_value:
        return [tuple(r) for r in rows]
    return [tuple(map(_term_key, r)) for r in rows]


def value_keys(rows: list[Row]) -> list[tuple]:
    """The rows with each number as its (datatype, value), as :func:`same_bag` compares them."""
    return _keys(rows, True)


def _shape(row: tuple) -> tuple:
    """The row with every blank node as one placeholder (what a bijection cannot change)."""
    return tuple(BLANK if _is_blank(x) else x for x in row)


def same_bag(got: list[Row], expected: list[Row], *, by_value: bool = True) -> bool:
    """Whether two results are equal as multisets of solutions, up to one renaming of blank nodes
    for the whole result and (``by_value``) the lexical forms of equal numbers (module docstring)."""
    got_keys, want_keys = _keys(got, by_value), _keys(expected, by_value)
    if len(got_keys) != len(want_keys) or Counter(map(_shape, got_keys)) != Counter(map(_shape, want_keys)):
        return False
    if not any(_is_blank(x) for r in want_keys + got_keys for x in r):
        return Counter(got_keys) == Counter(want_keys)
    return _match(sorted(Counter(got_keys).items(), key=repr), Counter(want_keys), {}, set())


def same_set(got: list[Row], expected: list[Row], *, by_value: bool = True) -> bool:
    """Whether the two results hold the same solutions, each counted once (their set views)."""
    return same_bag(list(dict.fromkeys(_keys(got, by_value))), list(dict.fromkeys(_keys(expected, by_value))),
                    by_value=False)


def _match(rows: list, pool: Counter, mapping: dict, used: set) -> bool:
    """Backtracking search of one blank-node bijection under which each distinct row of ``rows``
    (with its count) is a distinct row of ``pool`` with the same count."""
    if not rows:
        return True
    (row, count), rest = rows[0], rows[1:]
    for candidate, n in list(pool.items()):
        if n != count or _shape(candidate) != _shape(row):
            continue
        new, new_used = _extend(row, candidate, mapping, used)
        if new is not None:
            del pool[candidate]
            if _match(rest, pool, new, new_used):
                return True
            pool[candidate] = n
    return False


def _extend(row: tuple, candidate: tuple, mapping: dict, used: set):
    """The bijection extended so that ``row`` maps onto ``candidate``, or ``(None, None)``."""
    new, new_used = dict(mapping), set(used)
    for a, b in zip(row, candidate):
        if _is_blank(a):
            if a in new:
                if new[a] != b:
                    return None, None
            elif b in new_used:
                return None, None
            else:
                new[a] = b
                new_used.add(b)
        elif a != b:
            return None, None
    return new, new_used


def within_reduced(got: list[Row], expected: list[Row]) -> bool:
    """REDUCED (SPARQL 1.1 §18.5): the same solutions as the expected bag, each between once and
    its expected cardinality (numbers by value; blank nodes compared as one placeholder)."""
    if not same_set(got, expected):
        return False
    got_shapes = Counter(_shape(k) for k in _keys(got, True))
    want_shapes = Counter(_shape(k) for k in _keys(expected, True))
    return all(1 <= got_shapes[s] <= n for s, n in want_shapes.items())


def has_duplicates(rows: list[Row]) -> bool:
    """Whether a result holds a solution twice."""
    return len(set(rows)) != len(rows)


def top_modifiers(query_text: str) -> list:
    """The algebra nodes of a query's solution modifiers, outermost first, down to its ORDER BY
    (rdflib's SPARQL algebra, independent of rsplars' parser)."""
    from rdflib.plugins.sparql import prepareQuery

    node = prepareQuery(query_text).algebra
    chain = []
    while node is not None and getattr(node, "name", None) in ("SelectQuery", "Project", "Distinct", "Reduced",
                                                                  "Slice", "ToMultiSet", "ConstructQuery",
                                                                  "AskQuery", "Extend", "OrderBy"):
        chain.append(node)
        if node.name == "OrderBy":
            break
        node = node.get("p")
    return chain


def order_keys(chain: list) -> tuple[str | None, ...] | None:
    """The keys of the top-level ORDER BY (``chain``: :func:`top_modifiers` of the query): a
    variable's name, or ``None`` for an expression; ``None`` without ORDER BY."""
    from rdflib.term import Variable

    if not chain or chain[-1].name != "OrderBy":
        return None
    keys: list[str | None] = []
    for condition in chain[-1]["expr"]:
        expr = condition if isinstance(condition, Variable) else condition.get("expr")
        keys.append(str(expr) if isinstance(expr, Variable) else None)
    return tuple(keys)


def is_reduced(chain: list) -> bool:
    """Whether the query's top-level modifiers (:func:`top_modifiers`) include REDUCED."""
    return any(node.name == "Reduced" for node in chain)


def same_order(got: list[Row], expected: list[Row], variables: list[str], keys: tuple[str | None, ...]) -> bool:
    """Whether the rows' values of the ORDER BY ``keys`` come in the same sequence in ``got`` as
    in ``expected`` (numbers by value, as :func:`same_bag` compares them; blank nodes, named apart
    in the two results, as one); where a key is not a projected variable, the rows' sequence."""
    readable = all(k is not None and k in variables for k in keys)
    at = [variables.index(k) for k in keys] if readable else list(range(len(variables)))

    def sequence(rows: list[Row]) -> list:
        return [tuple(BLANK if _is_blank(r[i]) else _term_key(r[i]) for i in at) for r in rows]

    return sequence(got) == sequence(expected)
