"""SPARQL 1.1 solution sequence modifiers of a continuous query: ORDER BY, LIMIT, OFFSET (SPARQL 1.1
§15.1, §15.4, §15.5; ToList, OrderBy and Slice of §18.2.5 and §18.5).

The LARS program computes each evaluation's answer relation as a set (D5). The modifiers are the
last step of the query's R2R operator (Dell'Aglio et al. 2014, Definitions 21–22: the query
function), applied to each evaluation's relation after solving and before the R2S operator, which
then streams the modified relations:

* ORDER BY sorts the rows by its conditions, in SPARQL's order of terms (§15.1: unbound first, then
  blank nodes < IRIs < literals, completed to a total order by :func:`translator.translate.expressions.term_order`,
  the order MIN and MAX pick by); ``DESC`` reverses a condition; a condition is an expression over
  the row's variables, and a key whose evaluation is an error sorts as unbound (§15.1). Rows that
  tie on every condition, and all rows when there is no ORDER BY, are ordered by the whole row
  (each column in the same term order, unbound first), so that the order, and the slice taken
  from it, are deterministic.
* OFFSET n drops the first n rows, LIMIT m keeps at most m of the rest (Slice, §18.5).

ORDER BY alone leaves the set of rows as it is; its order is the order in which the output writers
write the rows (:meth:`SolutionModifiers.ordered`). An ORDER BY condition may read only the
variables of the answer (the projected ones, or a CONSTRUCT template's): the relation holds no others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from lars.errors import UnsupportedError
from lars.model import String
from translator.query import model as M
from translator.translate.expressions import check_supported, evaluate, term_order

STAGE = "translation to LARS"

Row = tuple[str | None, ...]
"""One solution: the N-Triples text of each answer variable (``None``: unbound)."""

UNBOUND_KEY: tuple = (0,)


@dataclass(frozen=True)
class SolutionModifiers:
    """ORDER BY conditions (expression, descending), OFFSET and LIMIT of a query whose answer
    relation has the columns ``variables`` (module docstring)."""

    variables: tuple[str, ...]
    conditions: tuple[tuple[M.Expr, bool], ...] = ()
    limit: int | None = None
    offset: int | None = None

    @property
    def slices(self) -> bool:
        """Whether the modifiers change the set of rows (LIMIT or OFFSET), not only their order."""
        return self.limit is not None or self.offset is not None

    def ordered(self, rows: Iterable[Row]) -> list[Row]:
        """The rows in the order of the ORDER BY conditions, ties by the whole row (ToList, OrderBy)."""
        out = sorted(rows, key=row_key)
        for i in reversed(range(len(self.conditions))):
            expr, descending = self.conditions[i]
            keys = {row: self.condition_key(expr, row) for row in out}
            out.sort(key=keys.__getitem__, reverse=descending)  # stable, also reversed
        return out

    def apply(self, rows: frozenset[Row]) -> frozenset[Row]:
        """The rows that OFFSET and LIMIT keep of the ordered rows (Slice), as a set: ``rows`` itself
        when there is no LIMIT or OFFSET."""
        if not self.slices:
            return rows
        start, stop = self.span()
        return frozenset(self.ordered(rows)[start:stop])

    def span(self) -> tuple[int, int | None]:
        """``(start, stop)`` of the slice in the ordered rows (Slice, §18.5; ``None``: to the end)."""
        start = self.offset or 0
        return start, None if self.limit is None else start + self.limit

    def cuts(self, groups: list[list[Row]]) -> list[tuple[int, int]]:
        """For each group of tied rows (:meth:`tie_groups`, in order): how many of its rows the
        slice drops before it, and how many it keeps."""
        start, stop = self.span()
        out = []
        position = 0
        for group in groups:
            first, position = position, position + len(group)
            end = position if stop is None else min(stop, position)
            out.append((max(0, min(start, position) - first), max(0, end - max(start, first))))
        return out

    def tie_groups(self, rows: Iterable[Row]) -> list[list[Row]]:
        """The rows in ORDER BY order (:meth:`ordered`), grouped by their keys: the rows of one group
        tie on every condition, so any order of them is an order SPARQL allows (§15.1); without
        ORDER BY all rows are one group."""
        groups: list[list[Row]] = []
        last: tuple | None = None
        for row in self.ordered(rows):
            k = self.keys(row)
            if not groups or k != last:
                groups.append([])
            groups[-1].append(row)
            last = k
        return groups

    def choose(self, rows: frozenset[Row], prefer: Callable[[Row], bool]) -> frozenset[Row]:
        """The rows that OFFSET and LIMIT keep of *an* order of ``rows`` consistent with the ORDER BY
        keys (§15.1, §15.4–15.5): within each group of tied rows the slice cuts, the rows ``prefer``
        holds for are placed where the slice keeps them (the rows it does not hold for first, as
        many as the slice drops before the group), the others ordered by the whole row. When the
        rows ``prefer`` holds for are one of the slices SPARQL allows, they are the result; with
        ``prefer`` false everywhere, the result is :meth:`apply`'s."""
        if not self.slices:
            return rows
        out: list[Row] = []
        groups = self.tie_groups(rows)
        for group, (before, inside) in zip(groups, self.cuts(groups)):
            if not inside:
                continue
            chosen = [r for r in group if prefer(r)]
            others = [r for r in group if not prefer(r)]
            placed = others[:before] + chosen + others[before:]
            out.extend(placed[before:before + inside])
        return frozenset(out)

    def size(self, total: int) -> int:
        """The number of rows of the slice of a relation of ``total`` rows (§18.5, Slice)."""
        rest = max(0, total - (self.offset or 0))
        return rest if self.limit is None else min(self.limit, rest)

    def condition_key(self, expr: M.Expr, row: Row) -> tuple:
        """The sort key of one ORDER BY condition on a row (an error: unbound, §15.1)."""
        if isinstance(expr, M.Var):
            return cell_key(row[self.variables.index(expr.name)])
        from translator.rdf.sparql_ops import ExprError
        from translator.rdf.terms import from_nt, to_nt

        bindings = {v: from_nt(x) for v, x in zip(self.variables, row) if x is not None}
        value = evaluate(expr, bindings)
        if value is None or isinstance(value, ExprError):
            return UNBOUND_KEY
        return (1, term_order(String(to_nt(value))))

    def keys(self, row: Row) -> tuple:
        """The row's keys on the ORDER BY conditions, each ascending (ties compare equal)."""
        return tuple(self.condition_key(expr, row) for expr, _ in self.conditions)


def cell_key(text: str | None) -> tuple:
    """The sort key of one column: unbound first, then the terms in SPARQL's order."""
    return UNBOUND_KEY if text is None else (1, term_order(String(text)))


def row_key(row: Row) -> tuple:
    """The whole row's sort key (column by column), the order that breaks ties."""
    return tuple(map(cell_key, row))


def solution_modifiers(query: M.Query, variables: tuple[str, ...]) -> SolutionModifiers | None:
    """The query's ORDER BY, LIMIT and OFFSET over an answer relation with columns ``variables``
    (``None``: it has none). An ORDER BY condition over another variable, or with an aggregate or
    EXISTS, is an *unsupported* error."""
    mods = query.modifiers
    if not mods.order_by and mods.limit is None and mods.offset is None:
        return None
    conditions = []
    for c in mods.order_by:
        if _has(c.expr, (M.Aggregate, M.Exists)):
            raise UnsupportedError("ORDER BY with an aggregate or EXISTS", STAGE,
                                   "order by a projected variable bound to it: SELECT (COUNT(?x) AS ?n) … ORDER BY ?n")
        missing = [v.name for v in M.expression_variables(c.expr) if v.name not in variables]
        if missing:
            raise UnsupportedError(f"ORDER BY over ?{missing[0]}, which is not in the answer", STAGE,
                                   "the answer relation holds only the projected variables (D5); project it")
        check_supported(c.expr)
        conditions.append((c.expr, c.descending))
    return SolutionModifiers(variables, tuple(conditions), mods.limit, mods.offset)


def _has(expr: object, kinds: tuple[type, ...]) -> bool:
    if isinstance(expr, kinds):
        return True
    if isinstance(expr, (M.BinaryOp, M.UnaryOp, M.In, M.FunctionCall, M.IRICall)):
        from dataclasses import fields

        for f in fields(expr):
            value = getattr(expr, f.name)
            items = value if isinstance(value, tuple) else (value,)
            if any(_has(x, kinds) for x in items):
                return True
    return False


def modifier_notes(modifiers: SolutionModifiers | None) -> list[str]:
    """The ``% note:`` of a translated program whose query has ORDER BY, LIMIT or OFFSET: the
    program computes the relation as a set, the modifiers are applied after solving, before R2S."""
    if modifiers is None:
        return []
    named = [name for name, present in (("ORDER BY", modifiers.conditions), ("OFFSET", modifiers.offset is not None),
                                        ("LIMIT", modifiers.limit is not None)) if present]
    return [f"{', '.join(named)} are applied to each evaluation's answers after solving, before R2S "
            "(SPARQL 1.1 §15; docs/translation.md, Solution modifiers); the program computes the answers as a set"]
