"""RAND, UUID, STRUUID and BNODE (SPARQL 1.1 §17.4.4.5 RAND, §17.4.2.12 UUID, §17.4.2.13 STRUUID,
§17.4.2.9 BNODE): values that are not functions of their arguments, computed as functions of the
*solution* they are evaluated for.

SPARQL asks for a fresh value per call: RAND() "a pseudo-random number between 0 (inclusive) and
1.0e0 (exclusive)", UUID() "a fresh IRI from the UUID URN scheme", different for each call,
STRUUID() the same as a simple literal, BNODE() "a blank node that is distinct from all blank nodes
in the dataset … and distinct from all blank nodes created by calls to this constructor for other
query solutions", BNODE(str) the same blank node for the same string "within the same solution".

The expressions are evaluated at grounding time (D6), where clingo and the incremental engine
expect each function call to be a function of its arguments (the engine keeps a memo per argument
tuple; a grounder that saw two values for one call could not keep a stable model). So the
translation (``translator.translate.tau.expression_call``) gives an expression that calls one of
:data:`FRESH` the whole solution as extra arguments — the values of the variables in scope that no
BIND computes — and where its value goes (``bind ?v`` or ``filter``); the value is a hash (SHA-256)
of

    (the expression text, where its value goes, the solution's values, the call's place in the expression)

— for ``BNODE(str)`` of (the solution, str) only, so that the same string gives the same blank node
anywhere in one solution. Consequences, documented in docs/translation.md:

* solutions that differ get different values (up to a hash collision, 2^-128 for UUIDs); two calls
  in one expression, or in two BIND/SELECT expressions, differ;
* a value is a Skolem function of its solution: on a stream, a solution that holds at several
  evaluations keeps its RAND, UUID and blank node (so IStream does not report it anew each time);
  the evaluation time is not an argument, which also keeps clingo's grounding of an epoch (many
  reference times at once, ``asp.solver``) linear in the solutions;
* values are deterministic: the same query over the same data gives the same values in every run
  (and on Spark, whatever block computes the evaluation); two copies of one solution in a bag
  (SPARQL's multiset semantics) get the same values.

RAND's double has 53 random bits; UUID is a version 4, variant 1 UUID (RFC 9562 §5.4) built from
the hash; a fresh blank node's label is ``fresh`` and 32 hex digits.
"""

from __future__ import annotations

from typing import Iterator

import hashlib
import re
from dataclasses import dataclass, field

__all__ = ["FRESH", "reads_fresh", "Fresh", "fresh_call", "solution_variables"]

FRESH = frozenset({"RAND", "UUID", "STRUUID", "BNODE"})
"""The functions whose value is fresh per call (upper case, as :func:`translator.rdf.sparql_terms.operator_key`)."""

ARITY = {"RAND": (0, 0), "UUID": (0, 0), "STRUUID": (0, 0), "BNODE": (0, 1)}

_CALL = re.compile(r"(?<![\w:?$])(RAND|UUID|STRUUID|BNODE)\s*\(", re.IGNORECASE)


def reads_fresh(text: str) -> bool:
    """Whether canonical expression text calls one of :data:`FRESH` (outside string literals)."""
    return _CALL.search(re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)) is not None


@dataclass
class Fresh:
    """The solution an expression is evaluated for: ``call`` (the expression text, where its value
    goes and the values of its arguments, as texts), ``solution`` (the values of the solution's
    variables — those no BIND computes — as texts) and the count of fresh calls made so far in this
    evaluation of the expression."""

    call: tuple[str, ...]
    solution: tuple[str, ...]
    calls: int = field(default=0)

    def digest(self, *parts: str) -> bytes:
        return hashlib.sha256("\x1f".join((*self.call, "|", *self.solution, *parts)).encode("utf-8")).digest()


def _nodes(tree: object) -> Iterator[object]:
    """Every node of a tree of dataclasses and tuples (a query model or an algebra pattern), depth first."""
    import dataclasses

    yield tree
    if isinstance(tree, tuple):
        for x in tree:
            yield from _nodes(x)
    elif dataclasses.is_dataclass(tree) and not isinstance(tree, type):
        for f in dataclasses.fields(tree):
            yield from _nodes(getattr(tree, f.name))


def solution_variables(pattern: object, scope: frozenset) -> list:
    """The variables of ``scope`` that identify a solution: all but the targets of the BINDs (and
    SELECT expressions) inside ``pattern``, whose values are computed from the others — so that
    ``BNODE("x")`` is one node in two BIND expressions of one solution."""
    from translator.translate import algebra as A

    targets = {node.var for node in _nodes(pattern) if isinstance(node, A.Bind)}
    return list(A.ordered(frozenset(v for v in scope if v not in targets)))


def fresh_call(name: str, args: list, fresh: Fresh | None):
    """The value of ``name(args)`` (one of :data:`FRESH`) for the solution ``fresh``; ``None``
    (no solution given: an expression evaluated outside a translation) is the empty solution."""
    from rdflib import BNode, Literal, URIRef
    from rdflib.namespace import XSD

    from translator.rdf.sparql_ops import DOUBLE, ExprError
    from translator.rdf.sparql_terms import is_string_literal, number_literal

    fresh = fresh or Fresh((), ())
    upper = name.upper()
    if upper == "BNODE" and args:
        (label,) = args
        if label is None:
            return ExprError("BNODE of an unbound value")
        if isinstance(label, ExprError):
            return label
        if not (is_string_literal(label) and not label.language) and not (
                isinstance(label, Literal) and label.datatype == XSD.string):
            return ExprError("BNODE takes a simple literal or an xsd:string")
        # the same string, the same node anywhere in the solution
        digest = hashlib.sha256("\x1f".join(("BNODE", *fresh.solution, str(label))).encode("utf-8")).digest()
        return BNode("fresh" + digest[:16].hex())
    fresh.calls += 1
    digest = fresh.digest(upper, str(fresh.calls))
    if upper == "RAND":
        value = int.from_bytes(digest[:8], "big") >> 11  # 53 bits
        return number_literal(DOUBLE, value / float(1 << 53))
    if upper == "BNODE":
        return BNode("fresh" + digest[:16].hex())
    raw = bytearray(digest[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # variant 1 (RFC 9562)
    h = raw.hex()
    text = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
    return URIRef("urn:uuid:" + text) if upper == "UUID" else Literal(text)


def reject_fresh(query: object, stage: str) -> None:
    """Raise the named :class:`~lars.errors.UnsupportedError` for a call of one of :data:`FRESH` in
    ``query`` (a translation that does not pass the solution to its expressions: EP-SPARQL,
    RSEP-QL)."""
    from lars.errors import UnsupportedError
    from translator.query import model as M

    for node in _nodes(query):
        if isinstance(node, M.FunctionCall) and node.name.upper() in FRESH:
            raise UnsupportedError(f"the SPARQL function {node.name.upper()}", stage,
                                   "RAND, UUID, STRUUID and BNODE are evaluated per solution in SPARQL, "
                                   "C-SPARQL, CQELS-QL and RSP-QL queries only")
