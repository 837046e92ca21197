"""Running an EP-SPARQL query over an event stream (docs/epsparql.md).

All ``--stream`` inputs are one event stream: a triple on time point t is the atomic event ``⟨t, t⟩``;
triples on the same time point are simultaneous. The query is push-evaluated — at every time point
with an event — by the LARS engine a run takes (``translator.evaluate.engine.make_solver``: ``auto``,
the incremental engine when the program is in its fragment, else clingo) on the LARS program of
:func:`translator.translate.epsparql.compile_epsparql`, and each complex event is reported once, at
the time point its interval ends, with that interval (:func:`event_answers`).

Answers are bags (decision D5, docs/decisions.md; docs/epsparql.md "Answers are bags"): a complex
event is one way of taking an event for each triple pattern that the operators allow (Anicic et al.
2011; ETALIS's unrestricted policy detects every such combination), which is SPARQL's bag semantics
(SPARQL 1.1 §18.5) over the pairs (μ, interval). The answer atoms carry hidden witness columns
(:attr:`translator.translate.epsparql.EventCompiled.hidden`), and two complex events with the same
projected row and the same interval are two answers (:attr:`EventEvaluation.rows` repeats it).

Selection and consumption policies (Dell'Aglio et al. 2016, §4.3–4.4) cannot be
written in LARS: a policy compares matches with each other (the earliest, the latest) and
consumption is state carried from one evaluation to the next. They are a post-processing step of
the answer stream of the operand program (:func:`translator.translate.epsparql.compile_policy_operands`):
:func:`policy_evaluations` takes the operand matches the engine derives at each evaluation time,
keeps those whose events are not consumed, evaluates the SEQ tree with the chosen selection
(Eqs. 7, 10, 11 of Dell'Aglio et al. 2016, §4.3, with its typos corrected, with the reading of the quantifier chosen), applies
the pattern's FILTER and WITHIN, and consumes the events of the selected matches. With policies
each complex event is reported once, at the first evaluation that selects it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence, cast

from rdflib import Literal as RDFLiteral, URIRef

from lars.errors import RsplarsError
from lars.model import Integer, String
from lars.streams import parse_ground_atom
from translator.query import model as M
from translator.rdf import sparql_ops as ops
from translator.rdf.streams import StreamElement
from translator.rdf.terms import from_lars, from_nt, to_nt
from translator.translate import algebra as A
from translator.translate.epsparql import TIME_VARS, EventCompiled, Operand, PolicyCompiled, PolicySeq, dnf
from translator.translate.expressions import FUNCTIONS, evaluate
from translator.evaluate.run import data_stream, the_answer
from translator.evaluate.epsparql_policies import CONSUMPTIONS, READINGS, SELECTIONS  # noqa: F401 - re-exported

Row = tuple[str | None, ...]
EventRow = tuple[Row, int, int]
"""An answer: the N-Triples terms of the result variables and the interval ``(start, end)``."""


@dataclass(frozen=True)
class EventEvaluation:
    """The complex events reported at evaluation time t: ``rows`` is their multiset (a row as many
    times as complex events give it, in :func:`event_bag`'s order)."""

    t: int
    rows: tuple[EventRow, ...]


def _row_key(r: EventRow) -> tuple:
    row, s, e = r
    return e, s, tuple((x is not None, x or "") for x in row)


def event_bag(rows: Iterable[EventRow]) -> tuple[EventRow, ...]:
    """A multiset of answers as a sorted tuple (by end, start, then the terms; unbound first)."""
    return tuple(sorted(rows, key=_row_key))


def is_distinct(query: M.Query) -> bool:
    """SELECT DISTINCT or REDUCED (read as DISTINCT, D5): each (row, interval) once."""
    return isinstance(query.form, M.Select) and query.form.modifier in ("DISTINCT", "REDUCED")


def projected_bag(compiled, matches: Iterable["Match"]) -> tuple[EventRow, ...]:
    """The answers of distinct matches: each match's projection with its interval, duplicates kept
    (SPARQL 1.1 §18.5, ``Project``), or each once under DISTINCT/REDUCED."""
    rows = [(project(compiled, m), m.start, m.end) for m in matches]
    return event_bag(set(rows) if is_distinct(compiled.query) else rows)


def event_times(elements: Sequence[StreamElement], start: int | None, end: int | None) -> list[int]:
    """Push evaluation: every time point with an event in [start, end]."""
    points = sorted({e.t for e in elements})
    return [t for t in points if (start is None or t >= start) and (end is None or t <= end)]


def _solve(program, elements: Sequence[StreamElement], times: list[int], engine: str = "auto"):
    from translator.evaluate.engine import make_solver

    stream = data_stream(elements, 0, None)
    solver = make_solver(program, engine, functions=FUNCTIONS)
    for step in solver.run(stream, times):
        yield step.t, the_answer(step)


def event_answers(
    compiled: EventCompiled,
    elements: Sequence[StreamElement],
    *,
    start: int | None = None,
    end: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    engine: str = "auto",
) -> Iterator[EventEvaluation]:
    """The complex events of ``compiled`` (unrestricted policy), one :class:`EventEvaluation` per
    event time: the answers whose interval ends at t, one per distinct witnessed answer atom."""
    times = event_times(elements, start, end)
    for done, (t, atoms) in enumerate(_solve(compiled.program, elements, times, engine), start=1):
        rows = event_bag(event_rows(compiled.answer_predicate, atoms, compiled.width))
        if on_progress is not None:
            on_progress(done, len(times))
        yield EventEvaluation(t, rows)


def event_rows(predicate: str, atoms: Iterable[str], width: int | None = None) -> Iterator[EventRow]:
    """``answer(v1, …, vn, h1, …, hk, S, E)`` atoms (distinct texts) as (row of N-Triples terms of
    the first ``width`` columns, S, E): one row per atom, so a row that several witnessed atoms
    project to is repeated (None: every column is visible)."""
    for text in atoms:
        if not (text == predicate or text.startswith(predicate + "(")):
            continue
        atom = parse_ground_atom(text)
        *values, s, e = atom.args
        if width is not None:
            values = values[:width]
        assert isinstance(s, Integer) and isinstance(e, Integer), text
        row = tuple(None if (term := from_lars(a)) is None else to_nt(term) for a in values)
        yield row, s.value, e.value


# ------------------------------------------------------------------------------------- policies

Leaf = tuple[str, str, str, int]
"""An event occurrence: a stream triple (N-Triples terms) and its time point."""


@dataclass(frozen=True)
class Match:
    """An event mapping ``(μ, t1, t2)`` of Dell'Aglio et al. 2016 with its justification (the events
    it is made of) and ``leaves``: the event of each triple pattern, in the pattern's order. Two
    matches are the same complex event when all four agree (docs/epsparql.md, "Answers are bags"):
    the same mapping and interval made of other events are two matches."""

    mu: frozenset[tuple[str, str]]
    start: int
    end: int
    just: frozenset[Leaf]
    leaves: tuple[Leaf, ...] = ()

    def binding(self) -> dict[str, str]:
        return dict(self.mu)


def compatible(a: dict[str, str], b: dict[str, str]) -> bool:
    return all(b[k] == v for k, v in a.items() if k in b)


def _before(a: Match, b: Match) -> bool:
    """The order on intervals (Dell'Aglio et al. 2016, §4.2 leave it open; chosen here): a ends before b starts."""
    return a.end < b.start


def seq(left: list[Match], right: list[Match], selection: str, reading: str) -> list[Match]:
    """``E1 SEQ E2`` (Eq. 7), ``E1 SEQ^c E2`` (Eq. 10, whose EXISTS is read as NOT EXISTS as its prose says) or
    ``E1 SEQ^r E2`` (Eq. 11) over the matches of the operands; ``reading`` scopes the quantifier
    over the other E2 matches (:data:`READINGS`)."""
    pairs: dict[Match, list[Match]] = {}
    for m2 in right:
        b2 = m2.binding()
        earlier = [m1 for m1 in left if m1.end < m2.start and compatible(m1.binding(), b2)]
        if earlier:
            pairs[m2] = earlier
    shared = {k for m in left for k, _ in m.mu} & {k for m in right for k, _ in m.mu}
    return select_pairs(pairs, shared, selection, reading)


def select_pairs(pairs: dict[Match, list[Match]], shared: set[str], selection: str, reading: str) -> list[Match]:
    """The selection over the E2 matches that have compatible earlier E1 matches (``pairs``: each
    E2 match with those E1 matches; ``shared``: the variables of E1 and E2, for ``per-key``)."""
    if selection == "unrestricted":
        return [combine(m1, m2) for m2, ms in pairs.items() for m1 in ms]
    chrono = selection == "chronological"
    out: list[Match] = []
    if reading == "greedy":
        used: set[Match] = set()
        order = sorted(pairs, key=lambda m: (m.start, m.end), reverse=not chrono)
        for m2 in order:
            free = [m1 for m1 in pairs[m2] if m1 not in used]
            chosen = extreme(free, first=chrono)
            used.update(chosen)
            out += [combine(m1, m2) for m1 in chosen]
        return out
    for m2, earlier in pairs.items():
        rivals = list(pairs)
        if reading == "per-mapping":
            rivals = [r for r in rivals if r.mu == m2.mu]
        elif reading == "per-key":
            key = {k: v for k, v in m2.mu if k in shared}
            rivals = [r for r in rivals if all(r.binding().get(k) == v for k, v in key.items())]
        if chrono and any(_before(r, m2) for r in rivals):
            continue
        if not chrono and any(_before(m2, r) for r in rivals):
            continue
        out += [combine(m1, m2) for m1 in extreme(earlier, first=chrono)]
    return out


def extreme(matches: list[Match], first: bool) -> list[Match]:
    """FIRST (Eq. 5) or LAST (Eq. 6): the matches with no strictly earlier (later) one; ties all kept."""
    if first:
        return [m for m in matches if not any(_before(o, m) for o in matches)]
    return [m for m in matches if not any(_before(m, o) for o in matches)]


def combine(m1: Match, m2: Match) -> Match:
    return Match(m1.mu | m2.mu, m1.start, m2.end, m1.just | m2.just, m1.leaves + m2.leaves)


def operand_matches(op: Operand, atoms: Iterable[str]) -> list[Match]:
    """The matches of an operand from the engine's ``opnd<k>(X̄, L1, …, Ln)`` atoms: interval
    ``[min Lj, max Lj]``, justification the matched triples with their times."""
    prefix = f"opnd{op.k}("
    out = []
    for text in atoms:
        if not text.startswith(prefix):
            continue
        args = parse_ground_atom(text).args
        values = [to_nt(from_lars(a)) for a in args[: len(op.variables)]]  # type: ignore[arg-type]
        times = [cast(Integer, a).value for a in args[len(op.variables):]]  # the time points: Integers
        mu = dict(zip(op.variables, values))
        leaves: list[Leaf] = []
        for t, time in zip(op.triples, times):
            # a constant of a triple pattern is the String of an RDF term's N-Triples text
            s, p, o = (mu[x.name] if isinstance(x, A.Var) else cast(String, x).value for x in (t.s, t.p, t.o))
            leaves.append((s, p, o, time))
        out.append(Match(frozenset(mu.items()), min(times), max(times), frozenset(leaves), tuple(leaves)))
    return out


def evaluate_tree(node, atoms: list[str], consumed: set[Leaf], selection: str, reading: str) -> list[Match]:
    if isinstance(node, Operand):
        return [m for m in operand_matches(node, atoms) if not (m.just & consumed)]
    assert isinstance(node, PolicySeq)
    left = evaluate_tree(node.left, atoms, consumed, selection, reading)
    right = evaluate_tree(node.right, atoms, consumed, selection, reading)
    return seq(left, right, selection, reading)


def passes(compiled: PolicyCompiled, m: Match) -> bool:
    """The pattern's FILTERs (SPARQL semantics, D6; time functions in base ticks) and WITHIN."""
    if compiled.within is not None and m.end - m.start > compiled.within:
        return False
    bindings = _bindings(m)
    for f in compiled.filters:
        from translator.rdf import sparql_terms  # rdflib: imported when a FILTER is evaluated

        if not any(all(sparql_terms.filter_holds(evaluate(leaf, bindings)) for leaf in conj) for conj in dnf(f)):
            return False
    return True


def _bindings(m: Match) -> dict:
    out: dict = {k: from_nt(v) for k, v in m.mu}
    for name, value in ((TIME_VARS["getDURATION"], m.end - m.start), (TIME_VARS["getSTARTTIME"], m.start),
                        (TIME_VARS["getENDTIME"], m.end)):
        out[name] = RDFLiteral(value, datatype=URIRef(M.XSD + "integer"))
    return out


def policy_evaluations(
    compiled: PolicyCompiled,
    elements: Sequence[StreamElement],
    *,
    selection: str = "unrestricted",
    consumption: str = "unrestricted",
    reading: str = "per-mapping",
    times: Sequence[int] | None = None,
    engine: str = "auto",
) -> Iterator[tuple[int, frozenset[Match]]]:
    """At every evaluation time (default: every event time), the matches selected by the policy
    (the model's full answer at t, Dell'Aglio et al. 2016, §4: ``MATCH`` under ``SEQ``/``SEQ^c``/``SEQ^r`` and
    ``P^u``/``P^c``/``P^r``), after FILTER and WITHIN. The events of the selected matches (their
    justification, Appendix A; before FILTER, as ``just(MATCH E)``) are consumed for the next
    evaluations unless the consumption is ``unrestricted``."""
    for name, value, allowed in (("selection", selection, SELECTIONS), ("consumption", consumption, CONSUMPTIONS),
                                 ("reading", reading, READINGS)):
        if value not in allowed:
            raise RsplarsError(f"unknown {name} {value!r} (expected one of {', '.join(allowed)})")
    eval_times = list(times) if times is not None else event_times(elements, None, None)
    consumed: set[Leaf] = set()
    for t, atoms in _solve(compiled.program, elements, eval_times, engine):
        selected = evaluate_tree(compiled.tree, list(atoms), consumed, selection, reading)
        if consumption != "unrestricted":
            for m in selected:
                consumed |= m.just
        yield t, frozenset(m for m in selected if passes(compiled, m))


def policy_answers(
    compiled: PolicyCompiled,
    elements: Sequence[StreamElement],
    *,
    selection: str = "unrestricted",
    consumption: str = "unrestricted",
    reading: str = "per-mapping",
    start: int | None = None,
    end: int | None = None,
    engine: str = "auto",
) -> Iterator[EventEvaluation]:
    """The complex events of a policy run, each reported once: at the first evaluation time whose
    selection holds it (a complex event is a match, :class:`Match`; its projections are a bag)."""
    reported: set[Match] = set()
    reported_rows: set[EventRow] = set()
    times = event_times(elements, start, end)
    distinct = is_distinct(compiled.query)
    for t, matches in policy_evaluations(compiled, elements, selection=selection, consumption=consumption,
                                         reading=reading, times=times, engine=engine):
        new = matches - reported
        reported |= new
        if distinct:  # a (row, interval) once over the whole run
            rows = {(project(compiled, m), m.start, m.end) for m in new}
            rows -= reported_rows
            reported_rows |= rows
            yield EventEvaluation(t, event_bag(rows))
        else:
            yield EventEvaluation(t, projected_bag(compiled, new))


def project(compiled: PolicyCompiled, m: Match) -> Row:
    """The result variables of a match (SELECT expressions evaluated exactly, D6)."""
    values: dict[str, str | None] = dict(m.mu)  # the binding, then the projections (None: unbound)
    bindings = _bindings(m)
    for name, expr in compiled.projections:
        value = evaluate(expr, bindings)
        values[name] = None if value is None or isinstance(value, ops.ExprError) else to_nt(value)
    return tuple(values.get(n) for n in compiled.variables)


# --------------------------------------------------------------------------------------- output

FORMATS = ("jsonl", "csv")
START, END = "@start", "@end"
"""Members of an answer that hold its interval (``@`` cannot start a SPARQL variable name)."""


def answer_dicts(variables: Sequence[str], rows: Iterable[EventRow]) -> list[dict]:
    """Answers as ``{var: term, …, "@start": s, "@end": e}`` (unbound variables left out), sorted."""
    out = []
    for row, s, e in rows:
        d: dict = {v: term for v, term in zip(variables, row) if term is not None}
        d[START], d[END] = s, e
        out.append(d)
    return sorted(out, key=lambda d: (d[END], d[START], sorted((k, str(v)) for k, v in d.items())))


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise RsplarsError(f"--format {fmt}: EP-SPARQL runs write {' or '.join(FORMATS)}")


def writer(fmt: str, out, compiled):
    """``jsonl``: ``{"t": 2, "answers": [{"company": "<…>", "@start": 1, "@end": 2}]}``, CONSTRUCT
    ``{"t": 2, "triples": […]}``, ASK ``{"t": 2, "answer": true}``; ``csv``: ``t,var…,@start,@end``."""
    import csv
    import json

    from translator.evaluate.run import construct_triples

    check_format(fmt)
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        if compiled.form == "construct":
            w.writerow(["t", "subject", "predicate", "object"])
        else:
            w.writerow(["t", *compiled.variables, START, END])

        def write_csv(ev: EventEvaluation) -> None:
            if compiled.form == "construct":
                for line in construct_triples(compiled, (r for r, _, _ in ev.rows), ev.t):
                    s, p, rest = line.split(" ", 2)
                    w.writerow([ev.t, s, p, rest[: -len(" .")]])
                return
            for d in answer_dicts(compiled.variables, ev.rows):
                w.writerow([ev.t, *(d.get(v, "") for v in compiled.variables), d[START], d[END]])

        return write_csv

    def write_jsonl(ev: EventEvaluation) -> None:
        if compiled.form == "construct":
            record = {"t": ev.t, "triples": construct_triples(compiled, [r for r, _, _ in ev.rows], ev.t)}
        elif compiled.form == "ask":
            record = {"t": ev.t, "answer": bool(ev.rows)}
        else:
            record = {"t": ev.t, "answers": answer_dicts(compiled.variables, ev.rows)}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    return write_jsonl
