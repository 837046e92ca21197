"""The two sides of condition (ii) read off a query (Dao-Tran, Beck, Eiter 2015, §5; input of :mod:`.static_check`).

For a query with stream graph patterns ``(STREAM s ω g)`` (a CQELS query, or a member of ``cq(Q)``):

* the *stream triple patterns* of stream ``s``: the triple patterns of every ``g`` of ``s``;
* the *static triple patterns*: the triple patterns outside every stream graph pattern and outside
  ``GRAPH`` (which addresses named graphs, never the streams).

Triple patterns become tuples of N-Triples texts with ``?name`` for variables
(:func:`translator.translate.compile.pattern_key`); a property path stands for the triples it reads
(:func:`translator.translate.compile.pattern_keys`). Patterns inside ``FILTER EXISTS`` expressions are not
listed (they are expressions, not graph patterns of the query's body).
"""

from __future__ import annotations

from translator.query import model as M
from translator.agreement.static_check import TriplePattern


def condition_ii_patterns(query: M.Query) -> tuple[dict[str, list[TriplePattern]], list[TriplePattern]]:
    """``(stream IRI -> its triple patterns, static triple patterns)``, each in written order."""
    from translator.translate.compile import pattern_keys

    streams: dict[str, list[TriplePattern]] = {}
    static: list[TriplePattern] = []

    def walk(node: M.Pattern, stream: str | None) -> None:
        match node:
            case M.BGP(triples):
                target = static if stream is None else streams.setdefault(stream, [])
                target.extend(k for t in triples for k in pattern_keys(t))
                return
            case M.GraphPattern() if stream is None:
                return
            case M.StreamPattern(iri, _, inner) if isinstance(iri, M.IRI):
                streams.setdefault(iri.value, [])
                walk(inner, iri.value)
                return
        for child in M.child_patterns(node):
            walk(child, stream)

    walk(query.where, None)
    return streams, static
