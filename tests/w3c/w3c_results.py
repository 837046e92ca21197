"""Expected results of the W3C SPARQL 1.1 tests, and SPARQL's comparison of result sets.

Readers (independent of rsplars' own writers): SPARQL Query Results XML (``.srx``, read with
ElementTree, lexical forms as written), SPARQL Query Results JSON (``.srj``), and Turtle files that
are either a result set in the DAWG result-set vocabulary (``rs:ResultSet``) or the graph a
CONSTRUCT query gives (read with rdflib). A result set is ``(variables, rows)`` with rows as tuples of
N-Triples terms (``None``: unbound) in the order of the variables; a boolean is an ASK result.

Comparison (SPARQL 1.1 Query §19 test suite practice): result sets are compared as *sets* of
solutions (rsplars' answers are sets, D5 in docs/decisions.md; a test whose expected result holds a
duplicate row is classified, never compared as a bag); where the query has ORDER BY over variables,
the sequence of the rows' ORDER BY keys must also be the expected one (:func:`same_order`: rows
that tie on the keys may come in any order, §15.1), blank nodes are compared up to a renaming (one bijection for the whole result),
and two numeric literals of the same datatype are equal when their values are (SPARQL fixes no
canonical lexical form for computed decimals, floats and doubles: ``2.0`` and ``2.00``).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation
from pathlib import Path

XSD = "http://www.w3.org/2001/XMLSchema#"
RS = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#"
SRX = "{http://www.w3.org/2005/sparql-results#}"
NUMERIC = {XSD + t for t in ("integer", "decimal", "float", "double", "int", "long", "short", "byte",
                             "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
                             "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte")}

Row = tuple[str | None, ...]


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


def read_expected(path: Path):
    """``bool`` (ASK), ``("graph", rdflib.Graph)`` (CONSTRUCT) or ``(variables, list of rows)``."""
    if path.suffix == ".srx":
        return _read_srx(path)
    if path.suffix == ".srj":
        return _read_srj(path)
    return _read_turtle(path)


def _read_srx(path: Path):
    root = ET.parse(path).getroot()
    boolean = root.find(f"{SRX}boolean")
    if boolean is not None:
        return boolean.text.strip() == "true"
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
                values[binding.get("name")] = "_:" + (node.text or "").strip()
            else:
                lang = node.get("{http://www.w3.org/XML/1998/namespace}lang")
                values[binding.get("name")] = nt_literal(node.text or "", node.get("datatype"), lang)
        rows.append(tuple(values.get(v) for v in variables))
    return variables, rows


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
                row.append("_:" + term["value"])
            else:
                row.append(nt_literal(term["value"], term.get("datatype"), term.get("xml:lang")))
        rows.append(tuple(row))
    return variables, rows


def _read_turtle(path: Path):
    from rdflib import RDF, Graph, URIRef

    from translator.rdf.terms import to_nt

    g = Graph()
    g.parse(path, format="turtle", publicID=path.as_uri())
    result_set = g.value(None, RDF.type, URIRef(RS + "ResultSet"), any=True)
    if result_set is None:
        return "graph", g
    boolean = g.value(result_set, URIRef(RS + "boolean"))
    if boolean is not None:
        return bool(boolean.toPython())
    variables = sorted(str(v) for v in g.objects(result_set, URIRef(RS + "resultVariable")))
    rows = []
    for solution in g.objects(result_set, URIRef(RS + "solution")):
        values = {}
        for binding in g.objects(solution, URIRef(RS + "binding")):
            values[str(g.value(binding, URIRef(RS + "variable")))] = to_nt(g.value(binding, URIRef(RS + "value")))
        rows.append(tuple(values.get(v) for v in variables))
    return variables, rows


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


def _term_key(text: str | None):
    number = _number(text) if text is not None else None
    return ("number", *number) if number is not None else text


def same_solutions(got: list[Row], expected: list[Row], *, by_value: bool = True) -> bool:
    """Whether two sets of rows are equal up to a renaming of blank nodes and (``by_value``) the
    lexical forms of equal numbers (module docstring)."""
    key = _term_key if by_value else (lambda text: text)
    got_set = {tuple(map(key, r)) for r in got}
    want_set = {tuple(map(key, r)) for r in expected}
    if len(got_set) != len(want_set):
        return False
    if not any(isinstance(x, str) and x.startswith("_:") for r in want_set | got_set for x in r):
        return got_set == want_set
    return _match(sorted(got_set, key=repr), want_set, {}, set())


def _match(rows: list, pool: set, mapping: dict, used: set) -> bool:
    """Backtracking search of a blank-node bijection under which every row of ``rows`` is in ``pool``."""
    if not rows:
        return True
    row, rest = rows[0], rows[1:]
    for candidate in pool:
        new = dict(mapping)
        new_used = set(used)
        ok = True
        for a, b in zip(row, candidate):
            a_blank = isinstance(a, str) and a.startswith("_:")
            b_blank = isinstance(b, str) and b.startswith("_:")
            if a_blank != b_blank:
                ok = False
            elif a_blank:
                if a in new:
                    ok = new[a] == b
                elif b in new_used:
                    ok = False
                else:
                    new[a] = b
                    new_used.add(b)
            else:
                ok = a == b
            if not ok:
                break
        if ok and _match(rest, pool - {candidate}, new, new_used):
            return True
    return False


def has_duplicates(rows: list[Row]) -> bool:
    """Whether a result holds a solution twice (a bag that no set of answers equals, D5)."""
    return len(set(rows)) != len(rows)


def order_variables(query_text: str) -> tuple[str, ...] | None:
    """The variables of the top-level ORDER BY of a SPARQL query, read by rdflib's SPARQL algebra
    (independent of rsplars' parser): ``None`` without ORDER BY, or when a key is not a variable."""
    from rdflib.plugins.sparql import prepareQuery
    from rdflib.term import Variable

    node = prepareQuery(query_text).algebra
    while node is not None and getattr(node, "name", None) != "OrderBy":
        if getattr(node, "name", None) not in ("SelectQuery", "Project", "Distinct", "Reduced", "Slice",
                                               "ToMultiSet", "ConstructQuery", "Extend"):
            return None
        node = node.get("p")
    if node is None:
        return None
    names = []
    for condition in node["expr"]:
        expr = condition if isinstance(condition, Variable) else condition.get("expr")
        if not isinstance(expr, Variable):
            return None
        names.append(str(expr))
    return tuple(names)


def same_order(got: list[Row], expected: list[Row], variables: list[str], keys: tuple[str, ...]) -> bool:
    """Whether the rows' values of the ORDER BY variables ``keys`` come in the same sequence in
    ``got`` as in ``expected`` (numbers by value, as :func:`same_solutions` compares them; blank
nodes, named apart in the two results, as one)."""
    at = [variables.index(k) for k in keys if k in variables]

    def sequence(rows: list[Row]) -> list:
        return [tuple("_:" if r[i] is not None and r[i].startswith("_:") else _term_key(r[i]) for i in at) for r in rows]

    return sequence(got) == sequence(expected)
