"""Running a query the way a real engine does: t0, report policy, R2S, empty relations
(Dell'Aglio et al. 2014, Definitions 13 and 20–24; Dell'Aglio et al. 2013, §3, §6.1).

The pipeline, for the operational parameters ``op`` (:class:`translator.evaluate.profiles.Operational`):

1. the query's time-based windows become grids ``WW(α, β, t0)``
   (:mod:`translator.evaluate.report_policy`);
2. ET and, for every t in ET, the content interval ``[lo, hi]`` of every window
   (:func:`translator.evaluate.report_policy.report_times`);
3. R2R at each t in ET: the query's LARS program (τ1/τ2, ``translator.translate``) with each window
   replaced by the LARS window that selects exactly ``[lo, hi]`` at t — ``⊞^{t−lo}`` (closed) or
   ``⊞^{t−lo,−1}`` (right-open window-close report, ``hi = t−1``) — solved at the times of ET by
   the engine a sequential run takes (``translator.evaluate.engine``, ``auto``: the incremental
   engine for programs in its fragment, clingo otherwise). When the answer depends on the windows'
   contents only, it is keyed by content and growing contents share one incremental run
   (:mod:`translator.evaluate.window_contents`); otherwise reports whose windows have the same widths share one program and one solver
   run; under window close every report has the widths α, so one program
   (:func:`report_program`, shown by ``translate --to lars --profile``) with the report policy as
   its ``trigger`` rules is the whole run;
4. R2S at the root over consecutive reports (Dell'Aglio et al. 2014, Definitions 20–22: IStream/DStream compare with the
   previous *evaluation*, the state before the first is empty; DStream emits nothing at the first
   evaluation, as the CSRBench oracle, Dell'Aglio et al. 2013, §3);
5. empty relations: ``emit`` keeps a report whose R2S output is empty, ``skip`` drops it (Dell'Aglio
   et al. 2013, §3: an output policy, separate from the NC report guard). Steps 4–5 post-process the
   answer stream (applied last, as the CSRBench oracle does, Dell'Aglio et al. 2013, §6.1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Callable, Iterable, Sequence, cast

from lars.errors import UnsupportedError
from lars.model import (
    NOW,
    TRUE,
    Arith,
    Atom,
    Comparison,
    Diamond,
    Integer,
    Literal,
    Program,
    Rule,
    TimeWindow,
    Variable,
    WindowAt,
)
from lars.windows import WindowBounds, first_point, last_point, reach
from translator.evaluate.profiles import Operational, observation_end, opening_offset
from translator.evaluate.report_policy import Contents, Grid, Policy, PolicyError, Report, report_times
from translator.evaluate.run import EMPTY, Row, answer_modifiers, engine_input, modified, query_solver, r2s_rows, step_rows, the_answer
from translator.evaluate.semijoin import Conjunctive, conjunctive_triples, supported
from translator.evaluate.window_contents import CHAIN_WIDTH, ContentIndex, chain_run, chains, content_only, relevance
from translator.query import model as M
from translator.rdf.bags import Bag
from translator.rdf.streams import StreamElement
from translator.translate.compile import Compiled, compile_query, rewrite_patterns
from translator.translate.expressions import FUNCTIONS
from translator.translate.modes import TRIGGER, with_trigger
from translator.translate.solution_modifiers import modifier_notes
from translator.translate.normalize import TimeBase, pattern_algebra, window as window_spec
from translator.translate.tau import STRIPLE
from translator.rdf.terms import to_lars

if TYPE_CHECKING:
    from lars.solver import Solver

STAGE = "operational profile"


def chain_key(n: int) -> tuple[WindowBounds, tuple[int, ...]]:
    """The compile key of the program a content chain runs (every window ``⊞^{CHAIN_WIDTH}``)."""
    return (WindowBounds.CLOSED, (CHAIN_WIDTH,) * n)


@dataclass(frozen=True)
class TimeWindowInfo:
    """A time-based window of the query: its stream, width α and slide β in base ticks."""

    stream: str
    alpha: int
    beta: int


@dataclass(frozen=True)
class Relation:
    """One relation of an answer stream: the multiset of solutions emitted at t (after R2S) and the
    report that produced it (``rows_before_r2s``: the R2R result at t)."""

    t: int
    rows: Bag
    report: Report
    rows_before_r2s: Bag


def time_windows(query: M.Query, base: TimeBase) -> list[TimeWindowInfo]:
    """The query's windows in query order (C-SPARQL stream sources, then CQELS STREAM patterns);
    the papers' report policies are defined for time-based windows only (Dell'Aglio et al. 2013, §3; the oracle takes one time-based window, §6.2)."""
    out = []
    for p in M.stream_graph_patterns(query):
        if not isinstance(p.stream, M.IRI):
            raise UnsupportedError("a stream variable (STREAM ?s)", STAGE, "a report policy needs the window's stream")
        spec = window_spec(p.window, base)
        if spec.kind != "range" or spec.range is None:
            raise UnsupportedError(f"a {spec.kind} window", STAGE,
                                   "report policies are defined for time-based sliding windows (Dell'Aglio et al. 2013, §3)")
        out.append(TimeWindowInfo(p.stream.value, spec.range, spec.step))
    if not out:
        raise UnsupportedError("a query without windows", STAGE, "a report policy needs a time-based window")
    return out


def grids_of(windows: Sequence[TimeWindowInfo], op: Operational) -> list[Grid]:
    """The windows' grids under ``op``: each opens its first window at the offset of its t0 and the
    window alignment (:func:`translator.evaluate.profiles.opening_offset`)."""
    return [Grid(w.stream, w.alpha, w.beta, opening_offset(op.t0_of(k, len(windows)), w.alpha, w.beta, op.alignment))
            for k, w in enumerate(windows)]


def policy_of(op: Operational) -> Policy:
    return Policy(op.report, op.cc_mode, op.period, op.report_windows)


def horizon(elements: Sequence[StreamElement], windows: Sequence[TimeWindowInfo], t0s: Iterable[int] = (0,)) -> int:
    """The last time point worth evaluating: every window holding an element has closed by then
    (last element + max α + max β, Dell'Aglio et al. 2014, Definitions 25–26 'bounded horizon')."""
    last = max([e.t for e in elements], default=0)
    return max(last, *t0s) + max(w.alpha for w in windows) + max(w.beta for w in windows)


def with_windows(query: M.Query, widths: Sequence[int], unit: str) -> M.Query:
    """The query with its k-th window replaced by ``[RANGE widths[k]]`` (slide 1, in base units),
    the windows counted in the order of :func:`translator.query.model.stream_graph_patterns`
    (:func:`time_windows`): C-SPARQL stream sources, RSP-QL named windows, stream patterns."""
    counter = iter(range(len(widths)))

    def win(w: M.Window) -> M.Window:
        return M.Window("range", M.Duration(Decimal(widths[next(counter)]), unit), None, None, w.position)

    sources = tuple(replace(s, window=win(s.window)) for s in query.dataset.streams)
    named = tuple(replace(w, window=win(w.window)) for w in query.dataset.windows)

    def visit(p: M.Pattern) -> M.Pattern | None:
        if isinstance(p, M.StreamPattern):
            # visit replaces stream patterns only: a group is rewritten into a group
            return replace(p, window=win(p.window), pattern=cast(M.Group, rewrite_patterns(p.pattern, visit)))
        return None

    where = cast(M.Group, rewrite_patterns(query.where, visit))
    return replace(query, dataset=replace(query.dataset, streams=sources, windows=named), where=where)


class Evaluator:
    """R2R of one query at given times and window contents, with a cache shared by every t0
    candidate of ``rsplars check`` (the answer at t depends only on t and the contents)."""

    def __init__(self, query: M.Query, strategy: str, base: TimeBase, elements: Sequence[StreamElement],
                 static: Sequence[Rule] = (), *, engine: str = "auto") -> None:
        self.query = query
        self.engine = engine  # the LARS engine (``--lars-engine``, ``translator.evaluate.engine.ENGINES``)
        self.strategy = strategy
        self.base = base
        self.elements = list(elements)
        self.static = tuple(static)
        self.windows = time_windows(query, base)
        self.contents = Contents(self._times_by_stream())
        self.compiled: dict[tuple, Compiled] = {}
        self.cache: dict[tuple, Bag | frozenset[Row]] = {}
        """The R2R answer of each (contents, t): a multiset of visible rows, or while slices are
        chosen (:meth:`choose_slices`) the whole relation as distinct witnessed rows."""
        self.solver_runs = 0
        self.variables: tuple[str, ...] = self.compile_for((WindowBounds.CLOSED, tuple(w.alpha for w in self.windows))).variables
        self.form = self.compile_for((WindowBounds.CLOSED, tuple(w.alpha for w in self.windows))).form
        self._arrivals: dict[int, list[str]] | None = None  # the streams of each instant's arrivals, in order
        self._keys: dict[Report, tuple] = {}
        self._chain_solver: Solver | None = None  # the solver of every content chain (_solve_contents), made once
        self._relevance_known = False  # are the elements that can matter marked (_solve_contents)?
        self.reduce_stream = True
        """Whether content chains skip the elements that no solution can hold
        (``translator.evaluate.semijoin``); ``False`` adds every element the engine's filters admit."""
        self.judged_rows: dict[tuple[str, Bag], Bag] = {}
        """Rows as ``rsplars check`` compares them, kept for every candidate and policy it tries."""
        self.modifiers = answer_modifiers(self.compile_for((WindowBounds.CLOSED, tuple(w.alpha for w in self.windows))))
        """The query's ORDER BY, LIMIT and OFFSET over the answer atoms' columns, hidden ones included."""
        self.slice_choice: Callable[[Report, frozenset[Row]], frozenset[Row]] | None = None
        """Set by :meth:`choose_slices`: the cache then holds each evaluation's whole relation (its
        distinct witnessed rows), and :meth:`rows` and :meth:`answers` give the visible rows of the
        slice this function chooses of it."""
        self._chosen: dict[tuple, Bag] = {}
        self.contents_index = self._content_index()
        """Set when R2R depends on the windows' contents only (``translator.evaluate.window_contents``):
        the cache is then keyed by content and growing contents share one solver run."""

    def choose_slices(self, choice: Callable[[Report, frozenset[Row]], frozenset[Row]] | None) -> None:
        """Judge the slices of a LIMIT/OFFSET query against a recorded output: ``choice(report, rows)``
        picks, of the whole relation ``rows`` at a report (distinct witnessed rows, whose first
        ``len(variables)`` columns are the visible ones), the slice the output is judged against
        (SPARQL 1.1 §15.1 leaves the order of tied rows undefined, so an engine may keep other
        tied rows than :meth:`SolutionModifiers.apply`). ``None``: the query's own slice. Without
        LIMIT/OFFSET nothing changes."""
        if self.modifiers is None or not self.modifiers.slices:
            return
        if (self.slice_choice is None) != (choice is None):
            self.cache.clear()  # whole relations instead of slices, or back
            self.judged_rows.clear()
        self.slice_choice = choice
        self._chosen = {}

    def full_rows(self, report: Report) -> Bag | frozenset[Row]:
        """The whole relation at a report before OFFSET and LIMIT, as distinct witnessed rows, one
        per solution (while :meth:`choose_slices` is set; otherwise the sliced multiset)."""
        self.evaluate([report])
        if self.contents_index is not None:
            return self.cache[("content", self._content_key(report))]
        return self.cache[(self.key(report), report.t, self._variant(report))]

    def _sliced(self, report: Report, rows) -> Bag:
        if self.slice_choice is None:
            return rows
        k = (report.t, report.prefix, rows)
        got = self._chosen.get(k)
        if got is None:
            assert self.modifiers is not None
            got = self._chosen[k] = self.modifiers.visible(self.slice_choice(report, rows))
        return got

    def _modified(self, compiled: Compiled, rows: frozenset[Row]) -> Bag | frozenset[Row]:
        """The relation the cache keeps: the multiset of solutions after the solution modifiers
        (:func:`translator.evaluate.run.modified`), or the whole relation's witnessed rows while
        slices are chosen (:meth:`choose_slices`)."""
        return rows if self.slice_choice is not None else modified(compiled, rows)

    def _content_index(self) -> ContentIndex | None:
        streams = [w.stream for w in self.windows]
        if len(set(streams)) != len(streams):
            return None  # two windows on one stream: their contents cannot share one run's stream
        compiled = self.compile_for(chain_key(len(streams)))
        if not content_only(compiled.program, self.static):
            return None
        if compiled.native is not None and not content_only(compiled.native, ()):
            return None
        return ContentIndex(self.elements, streams)

    def _stream_triples(self) -> Conjunctive | None:
        """The triple patterns whose joins (filtered) are the query's solutions, when they match the
        default graph that merges the windows' contents and nothing else (C-SPARQL's ``FROM
        STREAM``, τ1, no static data): the semijoin reduction of ``translator.evaluate.semijoin``
        applies; ``None`` otherwise."""
        d = self.query.dataset
        if self.strategy != "tau1" or self.static or d.default or d.named or d.windows \
                or any(s.named for s in d.streams):
            return None
        return conjunctive_triples(pattern_algebra(self.query.where, self.base))

    def _times_by_stream(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {w.stream: [] for w in self.windows}
        for e in self.elements:
            out.setdefault(str(e.stream_iri), []).append(e.t)
        return out

    @staticmethod
    def key(report: Report) -> tuple[WindowBounds, tuple[int, ...]]:
        """(bounds, widths) of the LARS windows that select the report's contents at its t: each content
        ``[lo, hi]`` is the window of length ``t − lo`` ending at t, closed (``hi = t``) or right-open
        (``hi = t − 1``)."""
        closed, right_open = WindowBounds.CLOSED, WindowBounds.RIGHT_OPEN
        ends_before = any(hi == last_point(report.t, 0, right_open) for lo, hi in report.scopes if lo <= hi)
        kind = right_open if ends_before else closed
        widths = []
        for lo, hi in report.scopes:
            if lo > hi:  # not started: an empty window (width 0; see _variant)
                widths.append(0)
                continue
            if hi != last_point(report.t, 0, kind):
                raise PolicyError(f"at t={report.t} the windows end at different times; not expressible as one "
                                  "LARS program (mixed window models)")
            widths.append(max(report.t - lo, 0))
        return kind, tuple(widths)

    def compile_for(self, key: tuple[WindowBounds, tuple[int, ...]]) -> Compiled:
        if key not in self.compiled:
            kind, widths = key
            q = with_windows(self.query, widths, self.base.unit)
            self.compiled[key] = compile_query(q, strategy=self.strategy, mode="none", bounds=kind, base=self.base)
        return self.compiled[key]

    def _variant(self, report: Report) -> tuple:
        """What a report sees besides its windows' widths: the arrivals of its instant (tuple
        tick) and the streams whose window has not started yet at t (their elements are left out:
        the window is empty, which no LARS window ending at t expresses when elements arrive at t)."""
        empty = frozenset(w.stream for (lo, hi), w in zip(report.scopes, self.windows) if lo > hi
                          and self.contents.span(w.stream, report.t, report.t) != (0, 0))
        started = {w.stream for (lo, hi), w in zip(report.scopes, self.windows) if lo <= hi}
        if empty & started:
            raise PolicyError(f"at t={report.t} one window on <{sorted(empty & started)[0]}> has started and another "
                              "on the same stream has not; not expressible as one LARS program")
        return (report.prefix, empty or None)

    def evaluate(self, reports: Iterable[Report]) -> None:
        """Solve every (contents, t) not yet in the cache: with a content index, one solver run per
        chain of growing contents (``translator.evaluate.window_contents``); otherwise one per
        window-width vector (and one per partial instant: tuple tick, windows that have not started)."""
        if self.contents_index is not None:
            self._evaluate_contents(reports)
            return
        todo: dict[tuple, set[int]] = {}
        partial: set[tuple] = set()
        for r in reports:
            k, v = self.key(r), self._variant(r)
            if (k, r.t, v) in self.cache:
                continue
            if v == (None, None):
                todo.setdefault(k, set()).add(r.t)
            else:
                partial.add((k, r.t, v))
        for k, t, v in sorted(partial, key=repr):
            prefix, empty = v
            arrived = [e for e in self.elements if e.t < t] + [e for e in self.elements if e.t == t][:prefix]
            if empty:
                arrived = [e for e in arrived if str(e.stream_iri) not in empty]
            self._solve(k, arrived, [t], v)
        last = max([e.t for e in self.elements], default=0)
        for k, times in sorted(todo.items()):
            ts = sorted(times)
            self._solve(k, self.elements, ts, (None, None), end=max(ts[-1], last))

    def _solve(self, k: tuple, elements: Sequence[StreamElement], times: list[int], variant: tuple,
               end: int | None = None) -> None:
        from translator.evaluate.engine import make_solver

        compiled = self.compile_for(k)
        run = engine_input(compiled, elements, self.static, end=end if end is not None else times[-1])
        # the engine a sequential run takes (``auto``: the incremental one when the program is in its fragment)
        solver = make_solver(run.program, self.engine, functions=FUNCTIONS)
        self.solver_runs += 1
        for step in solver.run(run.stream, times):
            self.cache[(k, step.t, variant)] = self._modified(compiled, frozenset(step_rows(compiled, the_answer(step))))

    def rows(self, report: Report) -> Bag:
        """The R2R answer at a report (solved by :meth:`evaluate` beforehand): a multiset of solutions."""
        if self.contents_index is not None:
            return self._sliced(report, self.cache[("content", self._content_key(report))])
        return self._sliced(report, self.cache[(self.key(report), report.t, self._variant(report))])

    def _content_key(self, report: Report) -> tuple:
        got = self._keys.get(report)
        if got is None:
            assert self.contents_index is not None
            got = self._keys[report] = self.contents_index.key(report)
        return got

    def answers(self, reports: Sequence[Report]) -> list[Bag]:
        """The R2R answer of each report (:meth:`rows`), solved where not cached (:meth:`evaluate`);
        with a content index, the reports' content keys are found in one pass
        (:meth:`translator.evaluate.window_contents.ContentIndex.keys`) instead of one lookup each."""
        if self.contents_index is None:
            self.evaluate(reports)
            return [self.rows(r) for r in reports]
        keys = self.contents_index.keys(reports)
        self._solve_contents(keys)
        cache = self.cache
        if self.slice_choice is not None:
            return [self._sliced(r, cache[("content", k)]) for r, k in zip(reports, keys)]
        return cast("list[Bag]", [cache[("content", k)] for k in keys])  # without slices: Bags (_modified)

    def _evaluate_contents(self, reports: Iterable[Report]) -> None:
        self._solve_contents(map(self._content_key, reports))

    def _solve_contents(self, keys: Iterable[tuple]) -> None:
        index = self.contents_index
        assert index is not None
        todo = {k for k in keys if ("content", k) not in self.cache}
        if not todo:
            return

        compiled = self.compile_for(chain_key(len(self.windows)))
        # one solver for every chain of every call: each ``run`` starts from an empty state (both engines)
        if self._chain_solver is None:
            program, native = compiled.engine_programs(self.static)
            self._chain_solver, _ = query_solver(compiled, program, native, self.engine)
        solver = self._chain_solver
        if not self._relevance_known:
            self._relevance_known = True
            filters = getattr(solver, "filters", None)  # an engine that knows its rules' filters (incremental)
            if filters:
                index.set_relevance(relevance(filters))
            triples = self._stream_triples() if self.reduce_stream else None
            if triples is not None:
                index.keep_only(supported(triples, index.atoms, index.relevant or None, FUNCTIONS.get("sparql_test")))
        for chain in chains(todo):
            self.solver_runs += 1
            stream, at = chain_run(index, chain)
            rows: list = []
            for step in solver.run(stream, range(1, cast(int, stream.end) + 1)):  # chain_run sets the end
                got = self._modified(compiled, frozenset(step_rows(compiled, the_answer(step))))
                # an unchanged answer is the previous object: R2S then compares by identity (apply_r2s)
                rows.append(rows[-1] if rows and rows[-1] == got else got)
            for k, i in zip(chain, at):
                self.cache[("content", k)] = rows[i - 1]

    def plan(self, op: Operational, start: int | None = None, end: int | None = None) -> list[Report]:
        """ET on ``[start, end]``; by default from 0 (or the first element, if earlier) to the horizon,
        cut where the engine's clock stopped (``op.horizon``, :func:`translator.evaluate.profiles.observation_end`)."""
        grids = grids_of(self.windows, op)
        last = horizon(self.elements, self.windows, [g.t0 for g in grids]) if end is None else end
        cut = observation_end(op.horizon, max((e.t for e in self.elements), default=None), "window-close" in op.report)
        if cut is not None:
            last = min(last, cut)
        first = min([0, *(e.t for e in self.elements)]) if start is None else start
        reports = report_times(grids, self.contents, policy_of(op), op.window_model, first, last)
        if op.tick != "tuple" or "content-change" not in op.report:
            return reports
        reporting = {grids[k].stream for k in (range(len(grids)) if op.report_windows is None else op.report_windows)}
        if self._arrivals is None:
            self._arrivals = {}
            for e in self.elements:
                self._arrivals.setdefault(e.t, []).append(str(e.stream_iri))
        out = []
        for r in reports:  # tuple tick: each arrival at r.t that a reporting window sees triggers an evaluation
            arrivals = self._arrivals.get(r.t, ())
            for j, stream in enumerate(arrivals[:-1], start=1):
                if stream in reporting:
                    out.append(Report(r.t, r.scopes, r.closing, r.why, j))
            out.append(r)
        return out

    def relations(self, op: Operational, start: int | None = None, end: int | None = None) -> list[Relation]:
        reports = self.plan(op, start, end)
        return apply_r2s(zip(reports, self.answers(reports)), op.r2s, op.empty_relations)


def apply_r2s(reports: Iterable[tuple[Report, Bag]], r2s: str, empty: str) -> list[Relation]:
    """Steps 4–5 of the module docstring (R2S over multisets, :func:`translator.evaluate.run.r2s_rows`)."""
    out = []
    previous: Bag = EMPTY
    changes_only = r2s != "rstream"
    for n, (report, current) in enumerate(reports):
        # the same answer object as the previous report's (a tuple tick's prefixes that add nothing):
        # no rows new or gone, found without comparing them
        if current is previous:
            if changes_only and empty == "skip":
                continue  # an empty relation, skipped
            rows = EMPTY if changes_only else current
        else:
            rows = r2s_rows(r2s, current, previous)
        previous = current
        if r2s == "dstream" and n == 0:
            continue
        if not rows and empty == "skip":
            continue
        out.append(Relation(report.t, rows, report, current))
    return out


def operational_relations(compiled: Compiled, elements: Sequence[StreamElement], static: Sequence[Rule],
                          op: Operational, base: TimeBase, *, start: int | None = None, end: int | None = None,
                          engine: str = "auto") -> list[Relation]:
    """The answer stream of ``compiled.query`` (after cs/cq, with its τ strategy) under ``op``, solved by ``engine``."""
    ev = Evaluator(compiled.query, compiled.strategy, base, elements, static, engine=engine)
    return ev.relations(op, start, end)


# ------------------------------------------------------------------------ the policy as LARS rules


def trigger_rules(windows: Sequence[TimeWindowInfo], op: Operational) -> tuple[Rule, ...]:
    """The report policy as LARS rules deriving ``trigger`` exactly at ET (Dell'Aglio et al. 2014, Definition 23): one rule per reporting window (two where NC's partial window needs the
    ``max(0, …)`` of Dell'Aglio et al. 2014, Definition 13 split), the strategies as body conjuncts.

    * WC: ``⊞^0 @_T true, T ≥ t0+α, (T − (t0+α)) \\ β = 0``;
    * P: ``⊞^0 @_T true, T ≥ t0, (T − t0) \\ p = 0``;
    * CC (arrivals): ``⊞^0 ◇ striple(X1,X2,X3,s)`` and T inside the first window's domain;
    * NC under WC: ``⊞^w ◇ striple(Y1,Y2,Y3,s)`` with the window that ends at the close instant;
      NC otherwise: ``⊞^α @_U striple(Y1,Y2,Y3,s), U ≥ lo(T)`` with lo(T) the start of the
      present window (Dell'Aglio et al. 2014, Definition 13, the oracle's CC windower).

    Strict content change compares the contents at T and T − 1 and is not given as rules; it and
    windows with gaps (α < β) under CC are computed by :func:`translator.evaluate.report_policy.report_times`
    only (docs/check.md)."""
    policy = policy_of(op)
    if policy.cc_mode == "strict" and "content-change" in op.report:
        raise UnsupportedError("strict content change", "report policy as LARS rules",
                               "it compares the contents at T and T−1; computed by the report planner instead")
    grids = grids_of(windows, op)
    T, U = Variable("T"), Variable("U")
    now = Literal(WindowAt(NOW, TRUE, T))
    rules: list[Rule] = []
    reporting = range(len(grids)) if policy.windows is None else policy.windows
    model = WindowBounds.parse(op.window_model)
    for k in reporting:
        g = grids[k]
        shift = first_point(g.t0 + g.alpha, g.alpha, model) - g.t0  # 1 if a window's opening instant is outside it
        stream = to_lars(_iri(g.stream))
        body: list = [now]
        s = op.report
        if "window-close" in s:
            start = g.t0 + g.alpha
            body += [Comparison(">=", T, Integer(start)),
                     Comparison("=", Arith("\\", Arith("-", T, Integer(start)), Integer(g.beta)), Integer(0))]
        if "periodic" in s:
            p = op.period or g.beta
            body += [Comparison(">=", T, Integer(g.t0)),
                     Comparison("=", Arith("\\", Arith("-", T, Integer(g.t0)), Integer(p)), Integer(0))]
        if "content-change" in s:
            if g.alpha < g.beta:
                raise UnsupportedError("content change on a window with gaps (α < β)", "report policy as LARS rules")
            atom = Atom(STRIPLE, (Variable("X1"), Variable("X2"), Variable("X3"), stream))
            body += [Literal(Diamond(NOW, atom)), Comparison(">" if shift else ">=", T, Integer(g.t0))]
        if "non-empty" not in s:
            rules.append(Rule(TRIGGER, tuple(body)))
            continue
        content = Atom(STRIPLE, (Variable("Y1"), Variable("Y2"), Variable("Y3"), stream))
        if policy.closing:
            w = TimeWindow(*reach(model, g.alpha), 1)
            rules.append(Rule(TRIGGER, (*body, Literal(Diamond(w, content)))))
            continue
        within = Literal(WindowAt(TimeWindow(g.alpha, 0, 1), content, U))
        x = Arith("-", T, Integer(g.t0 + g.alpha))
        if model is WindowBounds.RIGHT_OPEN:  # earliest window holding T: i = max(0, ⌊x/β⌋ + 1)
            first = Comparison("<", T, Integer(g.t0 + g.alpha))
            index = Arith("+", Arith("/", x, Integer(g.beta)), Integer(1))
        else:  # earliest window not closed at T: i = max(0, ⌈x/β⌉)
            first = Comparison("<=", T, Integer(g.t0 + g.alpha))
            index = Arith("/", Arith("+", x, Integer(g.beta - 1)), Integer(g.beta))
        later = Comparison(">=" if model is WindowBounds.RIGHT_OPEN else ">", T, Integer(g.t0 + g.alpha))
        lo_later = Arith("+", Integer(g.t0 + shift), Arith("*", index, Integer(g.beta)))
        rules.append(Rule(TRIGGER, (*body, first, within, Comparison(">=", U, Integer(g.t0 + shift)))))
        rules.append(Rule(TRIGGER, (*body, later, within, Comparison(">=", U, lo_later))))
    return tuple(rules)


def _iri(value: str):
    from rdflib import URIRef

    return URIRef(value)


def report_program(query: M.Query, strategy: str, base: TimeBase, op: Operational) -> tuple[Program, list[str]]:
    """The LARS program of a run under ``op`` (``translate --to lars --profile``): ``trigger(P)``
    of Dao-Tran, Beck, Eiter 2015, §4.1 over the query's program with the windows a report sees — at a window-close
    report the full window ``α`` (left-open ``⊞^{α−1}``, right-open ``⊞^{α,−1}``, closed ``⊞^α``)
    — and :func:`trigger_rules` instead of the push/pull trigger. Returns the program and notes
    on what the rules leave to the report planner."""
    windows = time_windows(query, base)
    notes = []
    closing = "window-close" in op.report
    if op.window_model is WindowBounds.LEFT_OPEN:  # (t−α, t] is the closed [t−(α−1), t]
        # a time window's reach is finite: α − 1 back from t holds (t − α, t]
        kind, widths = WindowBounds.CLOSED, tuple(cast(int, reach(WindowBounds.LEFT_OPEN, w.alpha)[0]) for w in windows)
    elif op.window_model is WindowBounds.RIGHT_OPEN and closing:
        kind, widths = WindowBounds.RIGHT_OPEN, tuple(w.alpha for w in windows)
    else:
        kind, widths = WindowBounds.CLOSED, tuple(w.alpha for w in windows)
    if not closing and any(w.beta > 1 for w in windows):
        notes.append("between window closes a report sees the present window cut at t (Dell'Aglio et al. 2014, Definition 13), "
                     "narrower than α: `run` evaluates each such report with the window that selects exactly "
                     "that part; the program below shows the R2R rules with full windows")
    compiled = compile_query(with_windows(query, widths, base.unit), strategy=strategy, mode="none", bounds=kind, base=base)
    rules = (*with_trigger(compiled.program), *trigger_rules(windows, op))
    if op.horizon != "none":
        notes.append(f"the observation horizon '{op.horizon}' cuts the reports after solving: a window closing at or "
                     "after the engine's clock is not reported (docs/check.md)")
    notes.append(f"R2S {op.r2s.upper()} and empty relations '{op.empty_relations}' are applied to the answer "
                 "stream after solving (as the CSRBench oracle, Dell'Aglio et al. 2013, §6.1)")
    notes.extend(modifier_notes(compiled.modifiers))
    return Program(rules), notes


def report_programs_text(variants, op: Operational, unit: str, unicode: bool = False) -> str:
    """The report-policy program of each ``(label, Compiled)`` (:func:`report_program`) after comment
    lines with the parameters and the notes, as ``rsplars translate --to lars --profile`` and
    :func:`rsplars.translate` write it."""
    from lars.printer import format_program

    out = []
    for label, compiled in variants:
        program, notes = report_program(compiled.query, compiled.strategy, TimeBase(unit), op)
        params = ", ".join(f"{k} {v}" for k, v in op.as_dict().items() if v is not None)
        head = [f"% {label}: strategy {compiled.strategy}, report policy as trigger rules; {params}; "
                f"time unit {unit}", *(f"% note: {n}" for n in notes)]
        out.append("\n".join(head) + "\n" + format_program(program, unicode, base_unit=unit).rstrip("\n") + "\n")
    return "\n".join(out)
