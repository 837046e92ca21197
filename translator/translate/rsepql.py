"""RSEP-QL → LARS (Dell'Aglio, Dao-Tran, Calbimonte, Le Phuoc, Della Valle 2016; docs/epsparql.md, "RSEP-QL").

The LARS program gives, at every evaluation time t, the matches of each basic event pattern
``EVENT w P`` declared as E_k (Eq. 4: P matched in each stream item of the window
``W_w(S, t)``, an event mapping ``(μ, t_i, t_i)`` at the item's time):

* ``bep<k>(X̄, T) ← ⊞^ω @_T striple(s1, p1, o1, "<S>"), …, ⊞^ω @_T striple(sn, pn, on, "<S>")``
  — all triples of P in the same item (the same stream S, the same time point T);
* the landmark window ``W^lnd[(t0)]`` (items with ``t0 ≤ t_i ≤ t``, §3.2) is ``⊞^∞`` with the
  comparison ``T ≥ t0``;
* the time-based window ``W^tau[(a, b)]`` (items with ``t' − a < t_i ≤ t'``, ``t' = ⌊t/b⌋·b``,
  left-open) is ``⊞^{a−1, 0, b}`` on the integer timeline (Dao-Tran, Beck, Eiter 2015, §2.3:
  ``[t' − (a − 1), t']``).

The event operators of MATCH — ``E1 SEQ E2`` (Eq. 7, with ``μ2(E1)`` evaluated in
``W^int[0, t3−1] · W``), ``FIRST E``, ``LAST E`` (Eqs. 5, 6), the selections SEQ^c / SEQ^r (Eqs. 10,
11) and the consumption P^c / P^r (§4.4) — compare matches with each other and carry state from one
evaluation to the next, which LARS has not: as for EP-SPARQL's policies
(:func:`translator.translate.epsparql.compile_policy_operands`) they are a post-processing step of
the answer stream of this program, :mod:`translator.evaluate.rsepql_run`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from lars.errors import UnsupportedError
from lars.model import (
    ALL,
    Atom,
    Comparison,
    Constant,
    Integer,
    Literal,
    Program,
    Rule,
    String,
    TimeWindow,
    Variable,
    WindowAt,
)
from lars.windows import WindowBounds, reach
from translator.query import model as M
from translator.translate import algebra as A
from translator.translate.epsparql import reject_unsupported
from translator.translate.expressions import check_supported
from translator.translate.normalize import TimeBase, construct_variables, term, triple
from translator.translate.tau import STRIPLE, lars_var

STAGE = "translation of RSEP-QL to LARS"
T = Variable("T")


@dataclass(frozen=True)
class BasicEvent:
    """A declared basic event pattern E_k, answered by ``bep<k>(X̄, T)``."""

    k: int
    name: str
    variables: tuple[str, ...]
    triples: tuple[A.Triple, ...]


@dataclass(frozen=True)
class RsepCompiled:
    """What ``rsplars run`` needs for an RSEP-QL query (attributes as
    :class:`translator.translate.epsparql.PolicyCompiled`, which the output writers read): the
    LARS program of the basic event patterns, the MATCH expression, the WHERE FILTERs, the result
    form."""

    query: M.Query
    program: Program
    events: dict[str, BasicEvent]
    match: object
    filters: tuple[M.Expr, ...]
    variables: tuple[str, ...]
    form: str
    projections: tuple = ()
    within: int | None = None
    warnings: tuple[str, ...] = ()
    strategy: str = "rsepql"
    mode: str = "push"
    period: int | None = None
    bounds: WindowBounds = WindowBounds.LEFT_OPEN
    answer_predicate: str = "bep<k>"
    interval: bool = False
    native: None = None


def lars_event_window(w: M.EventWindow) -> tuple[TimeWindow, list]:
    """The LARS window of an RSEP-QL window and the extra body comparisons (module docstring)."""
    if w.kind == "landmark":
        return ALL, [Comparison(">=", T, Integer(w.start or 0))]
    assert w.width is not None
    return TimeWindow(*reach(WindowBounds.LEFT_OPEN, w.width), w.slide), []


def lars_term(x: A.PatternTerm) -> Variable | Constant | String | Integer:
    """A triple pattern's position as a LARS argument: its variable, or its constant as it is."""
    return lars_var(x) if isinstance(x, A.Var) else x


def match_of(query: M.Query) -> tuple[object, tuple[M.Expr, ...]]:
    """The event expression of the one ``MATCH`` of WHERE and the FILTERs beside it."""
    matches = [p for p in query.where.parts if isinstance(p, M.MatchPattern)]
    filters = tuple(p.expr for p in query.where.parts if isinstance(p, M.Filter))
    others = [p for p in query.where.parts if not isinstance(p, (M.MatchPattern, M.Filter))]
    if others or len(matches) != 1:
        what = "graph patterns beside MATCH" if others else ("several MATCH patterns" if matches else "a WHERE without MATCH")
        raise UnsupportedError(f"{what} in an RSEP-QL query", STAGE,
                               "write WHERE { MATCH { … } } with FILTERs over the event variables "
                               "(window graph patterns and time-varying graphs are not translated)")
    return matches[0].pattern, filters


def referenced(e) -> list[str]:
    match e:
        case M.EventRef(name):
            return [name]
        case M.EventSelect(_, inner):
            return referenced(inner)
        case M.EventPattern(_, left, right):
            return referenced(left) + [n for n in referenced(right) if n not in referenced(left)]
    raise TypeError(e)


def compile_rsepql(query: M.Query, *, base: TimeBase = TimeBase()) -> RsepCompiled:
    """Translate an RSEP-QL query (module docstring)."""
    reject_unsupported(query)
    assert query.events is not None
    expr, filters = match_of(query)
    windows = {w.name.value: w for w in query.events.windows}
    declared = {e.name: e for e in query.events.events}
    events: dict[str, BasicEvent] = {}
    rules: list[Rule] = []
    for k, name in enumerate(referenced(expr), start=1):
        decl = declared[name]
        window = windows[decl.window.value]
        lars_window, extra = lars_event_window(window)
        triples = tuple(triple(t) for t in decl.pattern.triples)
        names = tuple(v.name for v in A.ordered(reduce(frozenset.union, (A.variables(t) for t in triples))))
        stream = lars_term(term(window.stream))
        body = [Literal(WindowAt(lars_window, Atom(STRIPLE, (*(lars_term(x) for x in (t.s, t.p, t.o)), stream)), T))
                for t in triples]
        rules.append(Rule(Atom(f"bep{k}", (*(lars_var(A.Var(n)) for n in names), T)), (*body, *extra)))
        events[name] = BasicEvent(k, name, names, triples)
    scope = {n for e in events.values() for n in e.variables}
    form = query.form
    if isinstance(form, M.Select):
        if form.star:
            variables = tuple(sorted(scope))
        else:
            if any(isinstance(item, M.Projection) for item in form.projection):
                raise UnsupportedError("SELECT expressions in an RSEP-QL query", STAGE, "project variables")
            variables = tuple(item.name for item in form.projection)  # type: ignore[union-attr]
        kind = "select"
    elif isinstance(form, M.Construct):
        variables, kind = tuple(construct_variables(query, frozenset(A.Var(n) for n in scope))), "construct"
    else:
        variables, kind = (), "ask"
    for f in filters:
        check_supported(f)
    return RsepCompiled(query, Program(tuple(rules)), events, expr, filters, variables, kind)


__all__ = ["RsepCompiled", "BasicEvent", "compile_rsepql", "lars_event_window"]
