"""Judging recorded answers of a query with LIMIT or OFFSET (SPARQL 1.1 §15.1, §15.4, §15.5).

ORDER BY leaves the order of rows that tie on every condition undefined (§15.1; without ORDER BY
all rows tie), and OFFSET and LIMIT slice that order (§15.4–15.5, Slice of §18.5): a recorded
relation is correct at an evaluation whose whole relation is R when it is the slice
``[offset, offset + limit)`` of *some* order of R consistent with the ORDER BY keys. So it has
``min(limit, max(0, |R| − offset))`` rows, all in R; every row whose key lies strictly inside the
slice's key range is in it; of the rows tied at a boundary key, as many as the slice cuts there.
Rows are counted with their duplicates: the slice is taken of a sequence (SPARQL 1.1 §18.5, ``Slice``
after ``ToList``), so a row that a relation holds twice fills two places of it, and a recorded
relation, a bag (:mod:`translator.agreement.multisets`), is counted the same way.

:func:`judge_slices` makes the evaluator judge each recorded relation against the slice of R that
keeps the recorded rows where ties allow
(:meth:`translator.translate.solution_modifiers.SolutionModifiers.choose`): a correct output is
then equal to the expected relations, and every comparison of ``check``, ``check --infer`` and
``agree --answers`` (equality of relations, early stop, the content index) stays as it is. When
the recorded relation is no allowed slice, the expected one is the allowed slice closest to it,
and :func:`slice_faults` says why.

Judged exactly under RSTREAM only: an ISTREAM or DSTREAM output shows the rows that enter or leave
the engine's slice, and which of the tied rows an engine keeps is not recorded when it does not
change, yet decides its later deltas; such outputs are refused by name, as is the oracle
comparison (``--ignore-timestamps``), whose relations carry no timestamp to align a slice with.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, cast

from lars.errors import UnsupportedError
from translator.agreement.answers import nt_key
from translator.evaluate.operational import Evaluator
from translator.evaluate.report_policy import Report
from translator.rdf.bags import Bag

STAGE = "checking recorded answers"


def slicing(evaluator: Evaluator) -> bool:
    """Whether the query has LIMIT or OFFSET (its recorded relations are judged as slices)."""
    return evaluator.modifiers is not None and evaluator.modifiers.slices


def refuse_unjudged(evaluator: Evaluator, r2s: str | None, ignore_timestamps: bool) -> None:
    """An *unsupported* error for what stays unjudged of a LIMIT/OFFSET query (module docstring)."""
    if not slicing(evaluator):
        return
    if ignore_timestamps:
        raise UnsupportedError("LIMIT/OFFSET with --ignore-timestamps", STAGE,
                               "a slice is judged against the whole relation at its timestamp; compare with timestamps")
    if r2s is not None and r2s != "rstream":
        raise UnsupportedError(f"LIMIT/OFFSET under {r2s.upper()}", STAGE,
                               "which tied rows an engine keeps in its slice is not recorded by its deltas; "
                               "judge an RSTREAM output (docs/check.md, LIMIT and OFFSET)")


def keyed_row(variables, row) -> frozenset:
    """A row of N-Triples terms as the comparison's binding (:func:`translator.agreement.check.check`)."""
    return frozenset((v, nt_key(x)) for v, x in zip(variables, row) if x is not None)


def judge_slices(evaluator: Evaluator, recorded: Mapping[int, Bag] | None) -> None:
    """Judge the evaluator's slices against ``recorded`` (the recorded bindings merged per timestamp):
    at each report, the slice of the whole relation that keeps the rows recorded at its time
    (module docstring). ``None``: the query's own slices again."""
    if not slicing(evaluator):
        return
    if recorded is None:
        evaluator.choose_slices(None)
        return
    modifiers = evaluator.modifiers
    assert modifiers is not None
    variables = evaluator.variables

    def choice(report: Report, rows: frozenset) -> frozenset:
        at: Bag | frozenset[frozenset] = recorded.get(report.t, frozenset())
        return modifiers.choose(rows, lambda row: keyed_row(variables, row) in at)

    evaluator.choose_slices(choice)


def slice_faults(evaluator: Evaluator, report: Report, actual: Bag,
                 show: Callable[[Any], str] = str) -> list[str]:
    """Why ``actual`` (recorded bindings) is not a slice of the whole relation at ``report``, in
    words (a binding as ``show`` writes it): a row not in the relation, a wrong number of rows, a
    row outside the slice, a row missing from it; empty when it is a slice SPARQL allows."""
    modifiers = evaluator.modifiers
    if modifiers is None or not modifiers.slices:
        return []
    full = evaluator.full_rows(report) if evaluator.slice_choice is not None else None
    if full is None:
        return []
    variables = evaluator.variables
    start = modifiers.offset or 0
    size = modifiers.size(len(full))
    described = f"the slice holds {size} of the {len(full)} answers ({_modifiers_text(modifiers)})"
    where: dict[frozenset, tuple[int, tuple]] = {}  # binding -> (its group's position, the row)
    # translator.rdf.bags types a Bag's members as rows of an evaluation; ``actual`` holds bindings
    bindings = cast("Iterable[frozenset]", actual)
    groups = modifiers.tie_groups(full)
    need = {g: kept for g, (_, kept) in enumerate(modifiers.cuts(groups))}  # group -> rows of it the slice keeps
    for g, group in enumerate(groups):
        for row in group:
            where[keyed_row(variables, row)] = (g, row)
    kept = [g for g in need if need[g]]
    out = []
    alien = [b for b in bindings if b not in where]
    if alien:
        out.append(f"a row that is not among the answers before LIMIT/OFFSET: {show(alien[0])}")
    if len(actual) != size:
        out.append(f"wrong number of rows: {len(actual)} recorded, {described}")
    top = f"the top-{modifiers.limit}" if start == 0 and modifiers.limit is not None else "the slice"
    for b in sorted((b for b in bindings if b in where), key=lambda b: where[b][0]):
        g = where[b][0]
        if not need[g]:
            side = "before" if kept and g < kept[0] else "after"
            out.append(f"a row outside {top}: {show(b)} ranks {side} the rows it keeps on the ORDER BY keys")
            break
    for g in kept:
        have = sum(1 for b in bindings if b in where and where[b][0] == g)
        if have < need[g]:
            missing = next(keyed_row(variables, r) for r in groups[g] if keyed_row(variables, r) not in actual)
            if need[g] == len(groups[g]):
                out.append(f"a missing row: {show(missing)} ranks inside {top} and must be in it")
            else:
                out.append(f"too few of the {len(groups[g])} rows tied at the boundary of {top}: {have} recorded, "
                           f"the slice keeps {need[g]} of them (any of them)")
            break
    return out


def _modifiers_text(modifiers) -> str:
    parts = []
    if modifiers.offset is not None:
        parts.append(f"OFFSET {modifiers.offset}")
    if modifiers.limit is not None:
        parts.append(f"LIMIT {modifiers.limit}")
    return " ".join(parts)
