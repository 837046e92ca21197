"""The scope of a SPARQL 1.1 sub-query (§12, §18.2.1), on the query model, before the translation.

A sub-select is evaluated on its own and only its projected variables are visible outside it:
:func:`checked` renames every other variable of a sub-query apart, and refuses the solution
modifiers that sets of answers cannot give with the sub-query's position: LIMIT and OFFSET keep
solutions by an order that continuous answers, sets per time point (D5), do not have. DISTINCT and
REDUCED change nothing on sets, nor does ORDER BY alone (ToMultiSet forgets the order, §18.2.1).
:mod:`translator.translate.normalize` then builds its :class:`translator.translate.algebra.SubQuery`,
and :mod:`translator.translate.subqueries` adds the aggregation of one that aggregates.
"""

from __future__ import annotations

import dataclasses

from lars.errors import UnsupportedError
from translator.query import model as M

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


def projected_names(sub: M.SubSelect) -> tuple[str, ...]:
    """The names of the variables ``sub`` projects, in order (``SELECT *``: those of its WHERE)."""
    if sub.select.star:  # in scope: not those only on the right of MINUS (SPARQL 1.1 §18.2.1)
        return tuple(v.name for v in M.pattern_variables(_without_minus(sub.where)))
    return tuple(dict.fromkeys(item.name if isinstance(item, M.Var) else item.var.name
                               for item in sub.select.projection))


def _without_minus(node):
    """``node`` with the MINUS members of its groups left out (their variables are not in scope)."""
    if isinstance(node, M.Group):
        return M.Group(tuple(_without_minus(p) for p in node.parts if not isinstance(p, M.Minus)))
    if isinstance(node, M.SubSelect) or not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    return dataclasses.replace(node, **{f.name: _without_minus(getattr(node, f.name)) for f in dataclasses.fields(node)
                                        if f.init and isinstance(getattr(node, f.name), (M.Group, M.Union_))})


def local_variables_renamed(sub: M.SubSelect) -> M.SubSelect:
    """``sub`` with every variable it does not project renamed apart (``?o`` → ``?o·sq``),
    everywhere in it: WHERE, SELECT expressions, GROUP BY, HAVING, and the sub-queries and EXISTS
    patterns inside it. SPARQL 1.1 §18.2.1 evaluates a sub-select on its own, so such a variable
    is not the variable of that name outside (the graph variable of an enclosing ``GRAPH ?g``,
    which τ passes into the sub-query's predicates, included)."""
    keep = set(projected_names(sub))
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


__all__ = ["LOCAL", "checked", "local_variables_renamed", "projected_names"]
