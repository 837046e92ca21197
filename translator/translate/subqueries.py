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
outer variable of the same name (SPARQL 1.1 §18.2.1, scoping of sub-queries).

Solution modifiers: DISTINCT and REDUCED change nothing (answers are sets, D5); ORDER BY alone
changes nothing either (ToMultiSet forgets the order); LIMIT and OFFSET keep solutions chosen by an
order that sets of answers do not have, so they are named *unsupported* errors with the sub-query's
position.
"""

from __future__ import annotations

import dataclasses

from lars.errors import UnsupportedError
from translator.query import model as M
from translator.translate import algebra as A
from translator.translate.aggregating import needs_aggregation
from translator.translate.expressions import check_supported
from translator.translate.normalize import expression

STAGE = "translation to LARS"


LOCAL = "\u00b7sq"
"""Appended to the name of a variable local to a sub-query (``?o`` becomes ``?o·sq``): a name
character of SPARQL variables (VARNAME allows U+00B7 after the first character) that sets it apart
from the names around the sub-query."""


def checked(sub: M.SubSelect) -> M.SubSelect:
    """``sub`` with its solution modifiers checked (module docstring) and its local variables
    renamed apart (:func:`local_variables_renamed`)."""
    at = f"at {sub.position}: " if sub.position is not None else ""
    mods = sub.modifiers
    for name, present in (("LIMIT", mods.limit is not None), ("OFFSET", mods.offset is not None)):
        if present:
            raise UnsupportedError(f"{name} in a sub-query", STAGE,
                                   at + "it keeps solutions by an order that continuous answers, sets per time "
                                   "point (D5), do not have")
    return local_variables_renamed(sub)


def projected_names(sub: M.SubSelect) -> set[str]:
    """The names of the variables ``sub`` projects (``SELECT *``: those in scope of its WHERE)."""
    if sub.select.star:
        return {v.name for v in M.pattern_variables(sub.where)}
    return {item.name if isinstance(item, M.Var) else item.var.name for item in sub.select.projection}


def local_variables_renamed(sub: M.SubSelect) -> M.SubSelect:
    """``sub`` with every variable it does not project renamed apart (``?o`` → ``?o·sq``),
    everywhere in it: WHERE, SELECT expressions, GROUP BY, HAVING, and the sub-queries and EXISTS
    patterns inside it. SPARQL 1.1 §18.2.1 evaluates a sub-select on its own, so such a variable
    is not the variable of that name outside (the graph variable of an enclosing ``GRAPH ?g``,
    which τ passes into the sub-query's predicates, included)."""
    keep = projected_names(sub)
    local = {v for v in _variable_names(sub) if v not in keep}
    if not local:
        return sub
    return _renamed(sub, {v: v + LOCAL for v in local})


def _variable_names(node) -> set[str]:
    if isinstance(node, M.Var):
        return {node.name}
    out: set[str] = set()
    if isinstance(node, tuple):
        for x in node:
            out |= _variable_names(x)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            out |= _variable_names(getattr(node, f.name))
    return out


def _renamed(node, names: dict[str, str]):
    if isinstance(node, M.Var):
        return M.Var(names.get(node.name, node.name))
    if isinstance(node, tuple):
        return tuple(_renamed(x, names) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(node, **{f.name: _renamed(getattr(node, f.name), names)
                                            for f in dataclasses.fields(node) if f.init})
    return node


def sub_query(sub: M.SubSelect, pattern: A.Pattern) -> A.SubQuery:
    """The sub-query ``sub`` (already :func:`checked`) whose WHERE group is ``pattern`` in algebra
    form (module docstring)."""
    mods = sub.modifiers
    query = M.Query("csparql", sub.select, sub.where, modifiers=mods)
    if needs_aggregation(query):
        from translator.translate.aggregates import aggregation

        grouping = aggregation(query, pattern)
        projected = tuple(A.Var(v) for v in grouping.variables)
        inner = grouping.pattern
        keys = {k for g in grouping.groupings for k in g.keys}
        sure = frozenset(v for v in projected if v in keys and v in A.certain(inner))
        return A.SubQuery(inner, projected, sure, sub, grouping)
    names: list[str] = []
    for item in sub.select.projection:
        if isinstance(item, M.Projection):
            check_supported(item.expr)
            pattern = A.Bind(pattern, expression(item.expr), A.Var(item.var.name))
            names.append(item.var.name)
        else:
            names.append(item.name)
    if sub.select.star:  # SELECT *: the variables in scope of its WHERE (MINUS's right side is not)
        scope = {v.name for v in A.variables(pattern)}
        names = [v.name for v in M.pattern_variables(sub.where) if v.name in scope]
    projected = tuple(A.Var(v) for v in dict.fromkeys(names))
    return A.SubQuery(pattern, projected, A.certain(pattern) & frozenset(projected), sub)


__all__ = ["checked", "local_variables_renamed", "sub_query"]
