"""Whether a query aggregates, apart from the aggregation itself (:mod:`translator.translate.aggregates`)
so that translating a query without aggregates does not load it (start-up, docs/performance.md,
"Start-up")."""

from __future__ import annotations

from translator.query import model as M


def needs_aggregation(query: M.Query) -> bool:
    """Does the query aggregate (C-SPARQL AGGREGATE, GROUP BY, HAVING, or an aggregate in SELECT)?"""
    return bool(query.aggregates or query.modifiers.group_by or query.modifiers.having) or select_aggregates(query)


def select_aggregates(query: M.Query) -> bool:
    """Does the query's SELECT clause hold an aggregate?"""
    form = query.form
    return isinstance(form, M.Select) and any(
        isinstance(p, M.Projection) and contains_aggregate(p.expr) for p in form.projection
    )


def contains_aggregate(e: M.Expr) -> bool:
    """Does the expression contain an aggregate (SPARQL 1.1 §18.5)?"""
    match e:
        case M.Aggregate():
            return True
        case M.BinaryOp(_, left, right):
            return contains_aggregate(left) or contains_aggregate(right)
        case M.UnaryOp(_, operand):
            return contains_aggregate(operand)
        case M.In(inner, values, _):
            return any(contains_aggregate(x) for x in (inner, *values))
        case M.FunctionCall(_, args):
            return any(contains_aggregate(a) for a in args)
    return False
