"""Comparison keys of RDF terms in an engine's recorded answers (the choices of docs/check.md: IRIs by
value, literals by lexical form and datatype/language, numeric literals by value as doubles as the CSRBench
oracle's ``doubleValue()`` does, Dell'Aglio et al. 2013, §6; blank nodes match any blank node)."""

from __future__ import annotations

import re
from functools import lru_cache



NUMERIC = {
    "http://www.w3.org/2001/XMLSchema#" + t
    for t in ("integer", "decimal", "double", "float", "long", "int", "short", "byte", "nonNegativeInteger",
              "nonPositiveInteger", "negativeInteger", "positiveInteger", "unsignedLong", "unsignedInt",
              "unsignedShort", "unsignedByte")
}

Term = tuple
Binding = frozenset  # of (variable, Term)


# ------------------------------------------------------------------------------------ terms


def term_key(kind: str, value: str, datatype: str | None = None, lang: str | None = None) -> Term:
    """The comparison key of an RDF term (module docstring)."""
    if kind == "uri":
        return ("iri", value)
    if kind == "bnode":
        return ("bnode",)
    if lang:
        return ("lit", value, "@" + lang.lower())
    if datatype in NUMERIC:
        try:
            return ("num", float(value))
        except ValueError:
            return ("lit", value, datatype)
    if datatype in (None, "http://www.w3.org/2001/XMLSchema#string"):
        return ("lit", value, None)
    return ("lit", value, datatype)


@lru_cache(maxsize=65536)
def nt_key(text: str) -> Term:
    """Key of an N-Triples term (``rsplars run``'s jsonl)."""
    from rdflib import BNode, Literal, URIRef

    from translator.rdf.terms import from_nt

    term = from_nt(text)
    if isinstance(term, URIRef):
        return term_key("uri", str(term))
    if isinstance(term, BNode):
        return term_key("bnode", str(term))
    assert isinstance(term, Literal)
    return term_key("literal", str(term), str(term.datatype) if term.datatype else None, term.language)



#: a whole literal written into a SPARQL JSON "value" as Sesame's ``Literal.toString()`` prints it —
#: ``"0"^^http://www.w3.org/2001/XMLSchema#integer`` (no angle brackets), ``"x"@en`` or ``"x"`` — as in
#: early recorded answers of the CSRBench oracle repository (docs/check.md §4)
SESAME_LITERAL = re.compile(r'"(?P<lex>.*)"(?:\^\^<?(?P<dt>[a-zA-Z][\w+.-]*:[^\s<>"]+?)>?|@(?P<lang>[a-zA-Z]+(?:-[a-zA-Z0-9]+)*))?',
                             re.DOTALL)


def json_term(x, bad) -> Term:
    if not isinstance(x, dict) or "type" not in x or "value" not in x:
        raise bad(f"not a SPARQL 1.1 JSON term: {x!r}", '{"type": "uri|literal|typed-literal|bnode", "value": "…"}')
    kind = x["type"]
    for field in ("datatype", "xml:lang"):
        if x.get(field) is not None and not isinstance(x[field], str):
            raise bad(f"the {field} of a term must be a string, not {x[field]!r}", '"datatype": "http://…#integer"')
    if kind in ("literal", "typed-literal"):
        if str(x["value"]).lower() == "null" and x.get("datatype") is None:
            return ("null",)
        whole = SESAME_LITERAL.fullmatch(str(x["value"])) if x.get("datatype") is None else None
        if whole and x.get("xml:lang") is None:  # the oracle's early answers: the literal's toString() as value
            return term_key("literal", whole["lex"], whole["dt"], whole["lang"])
        return term_key("literal", str(x["value"]), x.get("datatype"), x.get("xml:lang"))
    if kind not in ("uri", "bnode"):
        raise bad(f"unknown term type {kind!r}", "uri, literal, typed-literal or bnode")
    return term_key(kind, str(x["value"]))


# ------------------------------------------------------------------------------------ judging

