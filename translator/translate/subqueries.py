"""SPARQL 1.1 sub-queries (§12; §18.2.1: a sub-select in a group is ``ToMultiSet(eval(D, sub-select))``)
in the pattern algebra.

A sub-query ``{ SELECT V̄ WHERE P … }`` becomes an :class:`translator.translate.algebra.SubQuery`:
its own pattern P (translated by τ into predicates of its own), the SELECT machinery of the
top-level query over it — the expressions ``(expr AS ?v)`` as BINDs, or the grouping, aggregates,
HAVING and SELECT expressions of :mod:`translator.translate.aggregates` — and its projected
variables V̄, the only ones visible outside (Polleres and Wallner 2013, "On the relation between
SPARQL 1.1 and Answer Set Programming", J. Applied Non-Classical Logics 23(1–2), "From SPARQL to
ASP": a sub-query is translated into a predicate of its own over its projected variables, which
the outer pattern uses like a triple pattern). A variable of P that is not projected is local:
τ's rule ``ans_i(V̄, D) ← sqN_…(X̄, D)`` reads it in its body only, so it never joins with an
outer variable of the same name (SPARQL 1.1 §18.2.1, scoping of sub-queries), and
:mod:`translator.translate.subquery_scope` has renamed it apart before, so that it meets no graph
variable either.

:mod:`translator.translate.normalize` builds the node of a sub-query; this module adds the
aggregation of one that aggregates once the whole pattern is in algebra form (the aggregation reads
the algebra, which is built by ``normalize``, so ``normalize`` cannot build it itself).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from translator.query import model as M
from translator.translate import algebra as A
from translator.translate.aggregating import needs_aggregation


def sub_query_as_query(sub: M.SubSelect) -> M.Query:
    """The sub-select as a query of its own (its SELECT, WHERE and solution modifiers)."""
    return M.Query("csparql", sub.select, sub.where, modifiers=sub.modifiers)


def with_aggregation(pattern: A.Pattern) -> A.Pattern:
    """``pattern`` with every sub-query that aggregates (``SubQuery.grouped``) given its
    aggregation (:func:`translator.translate.aggregates.aggregation`, as the top-level query's),
    innermost first: its pattern extended with the hidden BINDs, its projected variables, and
    those bound in every solution (group keys that its pattern always binds). Sub-queries inside
    FILTER EXISTS conditions included."""
    return _completed(pattern)


def _completed(node: Any) -> Any:
    if isinstance(node, A.SubQuery):
        inner = _completed(node.pattern)
        if not node.grouped or node.aggregation is not None:
            return node if inner is node.pattern else dataclasses.replace(node, pattern=inner)
        from translator.translate.aggregates import aggregation

        assert isinstance(node.source, M.SubSelect)
        grouping = aggregation(sub_query_as_query(node.source), inner)
        projected = tuple(A.Var(v) for v in grouping.variables)
        keys = {k for g in grouping.groupings for k in g.keys}
        sure = frozenset(v for v in projected if v in keys and v in A.certain(grouping.pattern))
        return A.SubQuery(grouping.pattern, projected, sure, node.source, grouping, grouped=True)
    if isinstance(node, (A.Var, A.Expression, A.WindowSpec)) or not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            new = tuple(_completed(v) for v in value)
            if all(a is b for a, b in zip(new, value)):
                continue
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            new = _completed(value)
            if new is value:
                continue
        else:
            continue
        changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[type-var]


def needs_grouping(sub: M.SubSelect) -> bool:
    """Does the sub-query aggregate (GROUP BY, HAVING, or an aggregate in its SELECT)?"""
    return needs_aggregation(sub_query_as_query(sub))


__all__ = ["needs_grouping", "sub_query_as_query", "with_aggregation"]
