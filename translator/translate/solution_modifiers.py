"""SPARQL 1.1 solution sequence modifiers of a continuous query: ORDER BY, LIMIT, OFFSET (SPARQL 1.1
§15.1, §15.4, §15.5; ToList, OrderBy and Slice of §18.2.5 and §18.5).

The LARS program computes each evaluation's answers as *witnessed* rows (decision D5): the visible
columns (the result variables) followed by hidden ones (``Compiled.hidden``) that tell duplicate
solutions apart, so that each distinct witnessed row is one solution of the multiset
(:meth:`translator.rdf.bags.Bag.of_witnessed`). The modifiers are the last step of the query's R2R
operator (Dell'Aglio et al. 2014, Definitions 21–22: the query function), applied to each
evaluation's solutions after solving and before the R2S operator, which then streams the modified
relations:

* ORDER BY sorts the solutions by its conditions, in SPARQL's order of terms (§15.1: unbound first,
  then blank nodes < IRIs < literals, completed to a total order by
  :func:`translator.translate.expressions.term_order`, the order MIN and MAX pick by); ``DESC``
  reverses a condition; a condition is an expression over the variables in scope of the WHERE
  pattern, projected or not (§18.2.5: OrderBy comes before Project): a projected one is read from
  its visible column, another from the hidden column named after it; a key whose evaluation is an
  error sorts as unbound (§15.1). Solutions that tie on every condition, and all solutions when
  there is no ORDER BY, are ordered by the whole witnessed row (each column in the same term
  order, unbound first), so that the order, and the slice taken from it, are deterministic.
* OFFSET n drops the first n solutions, LIMIT m keeps at most m of the rest (Slice, §18.5); a
  solution that occurs twice (two witnessed rows with the same visible columns) counts twice.

The result of one evaluation (:meth:`SolutionModifiers.apply`) is the multiset of the visible rows
of the kept solutions; with ORDER BY it is a :class:`SolutionSequence`, which also keeps their order
(the order in which the output writers write them). An ORDER BY condition over a variable that the
answer atoms do not hold (not in scope; or not projected where the answer keeps no witness: SELECT
DISTINCT, aggregates, CONSTRUCT) is refused when the run starts (:meth:`SolutionModifiers.over`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Iterable, Iterator

from lars.errors import UnsupportedError
from lars.model import String
from translator.query import model as M
from translator.rdf.bags import Bag
from translator.translate.expressions import check_supported, evaluate, term_order

STAGE = "translation to LARS"

Row = tuple[str | None, ...]
"""One solution: the N-Triples text of each answer column (``None``: unbound)."""

UNBOUND_KEY: tuple = (0,)


class SolutionSequence(Bag):
    """A multiset of solutions together with its order (SPARQL 1.1 §18.5: ``ToList`` then ``OrderBy``):
    equal to a :class:`~translator.rdf.bags.Bag` with the same cardinalities, and iterated in the
    order of the sequence (each solution as often as it occurs)."""

    __slots__ = ("order",)

    def __init__(self, rows: Iterable[Row] = ()) -> None:
        order = tuple(rows)
        super().__init__(order)
        self.order: tuple[Row, ...] = order
        """The solutions in sequence order, duplicates kept."""

    def __iter__(self) -> Iterator[Row]:
        return iter(self.order)

    def __sub__(self, other: Bag) -> Bag:
        """The multiset difference (``card = max(0, card_self − card_other)``) in this sequence's
        order: of the occurrences of a solution, the first ``card_other`` are dropped."""
        if not other:
            return self
        drop = {row: n for row, n in other.items() if row in self}
        out = []
        for row in self.order:
            n = drop.get(row)
            if n:
                drop[row] = n - 1
            else:
                out.append(row)
        return SolutionSequence(out)

    def __repr__(self) -> str:
        return f"SolutionSequence({list(self.order)!r})"


@dataclass(frozen=True)
class SolutionModifiers:
    """ORDER BY conditions (expression, descending), OFFSET and LIMIT of a query whose answer atoms
    have the columns ``variables`` (module docstring), of which the first ``width`` are visible
    (``None``: all; the others are hidden witness columns, named after the variable they hold or
    starting with ``_``)."""

    variables: tuple[str, ...]
    conditions: tuple[tuple[M.Expr, bool], ...] = ()
    limit: int | None = None
    offset: int | None = None
    width: int | None = None

    @property
    def slices(self) -> bool:
        """Whether the modifiers change the multiset of solutions (LIMIT or OFFSET), not only their order."""
        return self.limit is not None or self.offset is not None

    def over(self, variables: tuple[str, ...], hidden: tuple[str, ...] = ()) -> SolutionModifiers:
        """The modifiers over answer atoms with the visible columns ``variables`` followed by the
        hidden ones ``hidden`` (``Compiled.variables``, ``Compiled.hidden``). An ORDER BY condition
        over a variable that no column holds is an *unsupported* error naming it."""
        columns = (*variables, *hidden)
        width = len(variables) if hidden else None
        for expr, _ in self.conditions:
            missing = [v.name for v in M.expression_variables(expr) if v.name not in columns]
            if missing:
                raise UnsupportedError(
                    f"ORDER BY over ?{missing[0]}, which the answers do not hold", STAGE,
                    "ORDER BY reads the projected variables and, where the answers keep every solution (not "
                    "with DISTINCT, aggregates or CONSTRUCT), the other variables in scope of the WHERE pattern")
        if columns == self.variables and width == self.width:
            return self
        return replace(self, variables=columns, width=width)

    def ordered(self, rows: Iterable[Row]) -> list[Row]:
        """The rows in the order of the ORDER BY conditions, ties by the whole row (ToList, OrderBy)."""
        out = sorted(rows, key=row_key)
        for i in reversed(range(len(self.conditions))):
            expr, descending = self.conditions[i]
            keys = {row: self.condition_key(expr, row) for row in out}
            out.sort(key=keys.__getitem__, reverse=descending)  # stable, also reversed
        return out

    def apply(self, rows: Iterable[Row]) -> Bag:
        """The visible rows of the solutions OFFSET and LIMIT keep of the ordered ``rows`` (distinct
        witnessed rows, one per solution): a :class:`SolutionSequence` in ORDER BY order when the
        query has ORDER BY, else a bag."""
        if not self.slices:
            return self.visible(rows)
        start, stop = self.span()
        return self._project(self.ordered(rows)[start:stop])

    def visible(self, rows: Iterable[Row]) -> Bag:
        """The visible rows of the solutions ``rows`` (distinct witnessed rows), without a slice: in
        ORDER BY order (a :class:`SolutionSequence`) when the query has ORDER BY."""
        if not self.conditions:
            return Bag.of_witnessed(rows, self.width)
        return self._project(self.ordered(rows))

    def _project(self, ordered: list[Row]) -> Bag:
        width = self.width
        seq = ordered if width is None else [row[:width] for row in ordered]
        return SolutionSequence(seq) if self.conditions else Bag(seq)

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
        """The rows (distinct witnessed rows) that OFFSET and LIMIT keep of *an* order of ``rows``
        consistent with the ORDER BY keys (§15.1, §15.4–15.5): within each group of tied rows the
        slice cuts, the rows ``prefer`` holds for are placed where the slice keeps them (the rows it
        does not hold for first, as many as the slice drops before the group), the others ordered
        by the whole row. When the rows ``prefer`` holds for are one of the slices SPARQL allows,
        they are the result; with ``prefer`` false everywhere, the result is the solutions whose
        visible rows :meth:`apply` gives (:meth:`visible` of it equals :meth:`apply`)."""
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
        """The number of solutions of the slice of a multiset of ``total`` solutions (§18.5, Slice)."""
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
    """The query's ORDER BY, LIMIT and OFFSET over answer atoms whose visible columns are
    ``variables`` (``None``: it has none; :meth:`SolutionModifiers.over` adds the hidden columns).
    An aggregate of an ORDER BY condition that a ``(expr AS ?v)`` of the SELECT clause computes
    is read from ``?v`` (§11.4: the same aggregate over the same group); another aggregate, or an
    EXISTS, is an *unsupported* error."""
    mods = query.modifiers
    if not mods.order_by and mods.limit is None and mods.offset is None:
        return None
    computed = _computed(query)
    conditions = []
    for c in mods.order_by:
        expr = _read_computed(c.expr, computed)
        if _has(expr, (M.Aggregate, M.Exists)):
            raise UnsupportedError("ORDER BY with an aggregate or EXISTS that the SELECT clause does not compute", STAGE,
                                   "project it: SELECT (COUNT(?x) AS ?n) … ORDER BY ?n (or ORDER BY COUNT(?x))")
        check_supported(expr)
        conditions.append((expr, c.descending))
    return SolutionModifiers(variables, tuple(conditions), mods.limit, mods.offset)


def _computed(query: M.Query) -> dict:
    """``expr -> ?v`` of the SELECT clause's ``(expr AS ?v)`` whose expression holds an aggregate."""
    form = query.form
    if not isinstance(form, M.Select):
        return {}
    return {p.expr: p.var for p in form.projection if isinstance(p, M.Projection) and _has(p.expr, (M.Aggregate,))}


def _read_computed(expr: M.Expr, computed: dict) -> M.Expr:
    """``expr`` with each sub-expression that ``computed`` names replaced by its variable."""
    if not computed:
        return expr
    got = computed.get(expr)
    if got is not None:
        return got
    if isinstance(expr, (M.BinaryOp, M.UnaryOp, M.In, M.FunctionCall, M.IRICall)):
        changes: dict[str, Any] = {}
        for f in fields(expr):
            value = getattr(expr, f.name)
            new = tuple(_read_computed(x, computed) for x in value) if isinstance(value, tuple) \
                else _read_computed(value, computed)
            if new != value:
                changes[f.name] = new
        return replace(expr, **changes) if changes else expr
    return expr


def _has(expr: object, kinds: tuple[type, ...]) -> bool:
    if isinstance(expr, kinds):
        return True
    if isinstance(expr, (M.BinaryOp, M.UnaryOp, M.In, M.FunctionCall, M.IRICall)):
        for f in fields(expr):
            value = getattr(expr, f.name)
            items = value if isinstance(value, tuple) else (value,)
            if any(_has(x, kinds) for x in items):
                return True
    return False


def modifier_notes(modifiers: SolutionModifiers | None) -> list[str]:
    """The ``% note:`` of a translated program whose query has ORDER BY, LIMIT or OFFSET: the
    program computes each evaluation's solutions, the modifiers are applied after solving, before R2S."""
    if modifiers is None:
        return []
    named = [name for name, present in (("ORDER BY", modifiers.conditions), ("OFFSET", modifiers.offset is not None),
                                        ("LIMIT", modifiers.limit is not None)) if present]
    return [f"{', '.join(named)} are applied to each evaluation's answers after solving, before R2S "
            "(SPARQL 1.1 §15; docs/translation.md, Solution modifiers); the program computes the solutions"]
