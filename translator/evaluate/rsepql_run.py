"""Running an RSEP-QL query (Dell'Aglio, Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016, §4;
docs/epsparql.md, "RSEP-QL").

At every evaluation time t of ET (default: every time point with a stream item, the content-change
report policy of §3.4; or the times given), the LARS engine derives the matches of the basic event
patterns on their windows (:func:`translator.translate.rsepql.compile_rsepql`), and the MATCH
expression is evaluated over them with the active window threaded down to the leaves (Def 7):

* ``E`` (a basic event pattern): its matches inside the active window, compatible with the
  bindings substituted from above (``μ2(E1)``), not consumed;
* ``FIRST E`` / ``LAST E`` (Eqs. 5, 6): the matches of E with no strictly earlier (later) one, ties
  all kept, under the order ``⟨a, b⟩ < ⟨c, d⟩ iff b < c`` (§4.2 leaves it open; as EP-SPARQL's runs);
* ``E1 SEQ E2`` (Eq. 7): every match ``(μ2, t3, t4)`` of E2 with every match of ``μ2(E1)`` in
  ``W^int[0, t3−1] · W`` — the active window cut before t3 — giving ``(μ1 ∪ μ2, t1, t4)``; under
  the selection ``chronological`` / ``recent``, SEQ^c / SEQ^r (Eqs. 10, 11, with the reading of
  their quantifier, :func:`translator.evaluate.epsparql_run.select_pairs`).

The answer at t is the model's full answer ``[[MATCH E]]^t`` (Eq. 8) with each event mapping's
interval kept. Under the consumption ``chronological`` / ``recent`` (P^c = P^r, Appendix A) the
events of the matches selected at t (their justification, per occurrence: a triple at a time point)
are not used at the later evaluation times.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence, cast

from lars.errors import RsplarsError
from lars.model import String
from lars.streams import parse_ground_atom
from translator.query import model as M
from translator.rdf.streams import StreamElement
from translator.rdf.terms import from_lars, to_nt
from translator.translate import algebra as A
from translator.translate.rsepql import BasicEvent, RsepCompiled
from translator.evaluate.epsparql_policies import CONSUMPTIONS, READINGS, SELECTIONS
from translator.evaluate.epsparql_run import (
    EventEvaluation,
    Leaf,
    Match,
    compatible,
    event_times,
    extreme,
    passes,
    projected_bag,
    select_pairs,
)
from translator.evaluate.run import data_stream, the_answer


@dataclass(frozen=True)
class Scope:
    """The active window as the leaves see it: the bindings substituted from an enclosing SEQ and
    the time before which items must lie (``W^int[0, t3−1]``; None: no cut)."""

    binding: dict
    before: int | None = None


def basic_matches(event: BasicEvent, atoms: Iterable[str]) -> list[Match]:
    """The event mappings ``(μ, t, t)`` of ``bep<k>(X̄, T)`` atoms, each with its justification."""
    prefix = f"bep{event.k}("
    out = []
    for text in atoms:
        if not text.startswith(prefix):
            continue
        args = parse_ground_atom(text).args
        mu = {n: to_nt(from_lars(a)) for n, a in zip(event.variables, args)}  # type: ignore[arg-type]
        t = args[-1].value  # type: ignore[union-attr]
        # a constant of a triple pattern is the String of an RDF term's N-Triples text
        leaves = tuple(tuple(mu[x.name] if isinstance(x, A.Var) else cast(String, x).value
                             for x in (tr.s, tr.p, tr.o)) + (t,)
                       for tr in event.triples)
        out.append(Match(frozenset(mu.items()), t, t, frozenset(leaves), leaves))  # type: ignore[arg-type]
    return out


def evaluate_match(expr, leaves: dict[str, list[Match]], scope: Scope, selection: str, reading: str) -> list[Match]:
    """``[[E]]^t_W`` (module docstring) over the basic matches ``leaves`` (consumed ones removed)."""
    match expr:
        case M.EventRef(name):
            return [m for m in leaves[name] if (scope.before is None or m.end < scope.before)
                    and compatible(m.binding(), scope.binding)]
        case M.EventSelect(kind, inner):
            return extreme(evaluate_match(inner, leaves, scope, selection, reading), first=kind == "FIRST")
        case M.EventPattern("SEQ", left, right):
            pairs: dict[Match, list[Match]] = {}
            lefts: set[str] = set()
            for m2 in evaluate_match(right, leaves, scope, selection, reading):
                cut = m2.start if scope.before is None else min(scope.before, m2.start)
                earlier = evaluate_match(left, leaves, Scope({**scope.binding, **m2.binding()}, cut), selection, reading)
                lefts |= {k for m in earlier for k, _ in m.mu}
                if earlier:
                    pairs[m2] = earlier
            shared = lefts & {k for m in pairs for k, _ in m.mu}
            return select_pairs(pairs, shared, selection, reading)
    raise TypeError(expr)


def _solve(compiled: RsepCompiled, elements: Sequence[StreamElement], times: list[int], engine: str):
    from translator.evaluate.engine import make_solver
    from translator.translate.expressions import FUNCTIONS

    solver = make_solver(compiled.program, engine, functions=FUNCTIONS)
    for step in solver.run(data_stream(elements, 0, None), times):
        yield step.t, the_answer(step)


def rsepql_evaluations(
    compiled: RsepCompiled,
    elements: Sequence[StreamElement],
    *,
    selection: str = "unrestricted",
    consumption: str = "unrestricted",
    reading: str = "per-mapping",
    times: Sequence[int] | None = None,
    engine: str = "auto",
) -> Iterator[tuple[int, frozenset[Match]]]:
    """``[[MATCH E]]^t`` at every evaluation time (default: every time point with an item), after
    the WHERE FILTERs; consumption removes the events of the selected matches for later times."""
    for name, value, allowed in (("selection", selection, SELECTIONS), ("consumption", consumption, CONSUMPTIONS),
                                 ("reading", reading, READINGS)):
        if value not in allowed:
            raise RsplarsError(f"unknown {name} {value!r} (expected one of {', '.join(allowed)})")
    eval_times = sorted(set(times)) if times is not None else event_times(elements, None, None)
    if eval_times and eval_times[0] < 0:
        raise RsplarsError(f"evaluation time {eval_times[0]} lies before the start 0 of the timeline")
    consumed: set[Leaf] = set()
    for t, atoms in _solve(compiled, elements, eval_times, engine):
        atoms = list(atoms)
        leaves = {name: [m for m in basic_matches(e, atoms) if not (m.just & consumed)]
                  for name, e in compiled.events.items()}
        selected = evaluate_match(compiled.match, leaves, Scope({}), selection, reading)
        if consumption != "unrestricted":
            for m in selected:
                consumed |= m.just
        yield t, frozenset(m for m in selected if passes(compiled, m))  # type: ignore[arg-type]


def rsepql_answers(compiled: RsepCompiled, elements: Sequence[StreamElement], **options) -> Iterator[EventEvaluation]:
    """The answers at every evaluation time: the result variables of every event mapping of MATCH,
    with its interval — a bag: two matches made of other events give two answers even where their
    projections and intervals agree (docs/epsparql.md, "Answers are bags")."""
    for t, matches in rsepql_evaluations(compiled, elements, **options):
        yield EventEvaluation(t, projected_bag(compiled, matches))
