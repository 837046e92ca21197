"""The incremental engine's run: windows slide, relations change, changes propagate.

:class:`IncrementalSolver` is the engine (``lars.solver.Solver``); each ``run`` keeps an
:class:`Engine`, the state of the run (see ``lars.incremental``).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections import deque as _consume
from bisect import bisect_left, bisect_right
from itertools import filterfalse
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping

from lars.errors import RsplarsError, UnsupportedError
from lars.evaluation import Undefined, comparison_holds, evaluate, unify
from lars.windows import time_window_bounds
from lars.incremental.aggregates import flush_aux, flush_block
from lars.incremental.answer import SortedAnswer
from lars.incremental.compiling import compile_program
from lars.incremental.demand import row_filter, stream_filters
from lars.incremental.joins import UNDEFINED
from lars.incremental.relations import Relation, WindowRelations, all_one, last_at
from lars.incremental.rules import BLOCK_NODES, FALSE, NEG, WIN, CompiledRule, Lit, called_functions
from lars.incremental.texts import CACHE_MAX, CachedFunction, TermView, on_texts, parse_term, text_of, text_test
from lars.incremental.unfold import unfold_rules
from lars.model import Atom, Comparison, Constant, Integer, Program, Stream, String, Term, TimeWindow, Variable
from lars.printer import format_term
from lars.solver import Step
from lars.streams import LiveStream, live_times


class IncrementalSolver:
    """The incremental engine (a ``lars.solver.Solver``): ``run(stream, times)`` yields
    ``lars.solver.Step`` records as ``asp.solver.StreamSolver.run`` does. Raises ``NotInFragment``
    for programs outside the fragment. ``functions`` supplies the grounding-time functions of
    ``@name(…)`` by name."""

    engine = "incremental"
    reads_rows = True  # a stream of rows of term texts (lars.streams.LiveRows) is read as it is

    def __init__(self, program: Program, *, models: int = 1, functions: Mapping[str, Callable[..., Term]] | None = None,
                 outputs: Iterable[str] | None = None, stream_predicates: Iterable[str] | None = None,
                 unfold: bool = True) -> None:
        if models < 0:
            raise RsplarsError(f"--models must be >= 0, got {models}")
        self.program = program
        self.encode_json = False  # set by `rsplars lars` (JSON lines, full answers): Step.encoded
        # ``stream_predicates``: the only predicate names the stream may carry (``rsplars run``:
        # ``striple``); the intensional predicates outside it get no copy rule (D11), and a stream
        # atom outside it is an error (``Engine._rows_at``)
        self.stream_predicates = None if stream_predicates is None else frozenset(stream_predicates)
        self.rules, self.facts, self.order = compile_program(program, self.stream_predicates)
        # ``outputs``: the predicate names whose atoms the caller reads (``rsplars run``: the answer
        # predicate); Step.answers then holds those atoms only, and stream atoms that cannot reach
        # them or a constraint are dropped as they are read (:func:`stream_filters`)
        names = None if outputs is None else set(outputs)
        self.outputs = {s for s in self.order if s != FALSE and (names is None or s[0] in names)}
        self.unfolded: set[tuple] = set()  # the predicates unfolded into their one use (lars.incremental.unfold)
        if names is not None and unfold:
            self.rules, self.order, self.unfolded = unfold_rules(self.rules, self.order, self.outputs, self.facts)
        self.filters = {} if names is None else stream_filters(self.rules, self.order, self.outputs)
        self.functions = {name: CachedFunction(fn) for name, fn in (functions or {}).items()}
        self.aggregate_functions = dict(functions or {})  # external aggregates (``#@name{…}``): not cached
        needed: set[str] = set()
        for r in program.rules:
            called_functions(r, needed)
        missing = needed - self.functions.keys()
        if missing:
            raise UnsupportedError(f"grounding-time function(s) {', '.join(sorted(missing))}", "the incremental engine", "not supplied")

    def asp_text(self, stream: Stream, t: int | None = None) -> str:
        """No ASP encoding: the engine evaluates the rules itself (``lars.solver.Solver.asp_text``)."""
        raise RsplarsError("the incremental engine has no ASP encoding to print: use --engine asp or auto")

    def run(self, stream: Stream | LiveStream, times: Iterable[int] | None = None) -> Iterator[Step]:
        tmin, tmax = stream.timeline
        if times is None:
            times = live_times(stream, tmin) if isinstance(stream, LiveStream) else range(tmin, tmax + 1)
        engine = Engine(self, stream, tmin)
        for t in times:
            if t < tmin:
                raise RsplarsError(f"reference time {t} lies before the start {tmin} of the stream")
            if t < engine.t:
                engine = Engine(self, stream, tmin)  # times went back: start again
            yield engine.step(t)


class _Declared:
    """The signatures whose name is one of ``names`` (``issuperset`` of a point's signatures)."""

    __slots__ = ("names",)

    def __init__(self, names) -> None:
        self.names = names

    def __contains__(self, sig) -> bool:
        return sig[0] in self.names

    def issuperset(self, sigs) -> bool:
        names = self.names
        return all(sig[0] in names for sig in sigs)


class Engine:
    """The state of one run (see the module docstring).

    Ground terms are their canonical text inside the engine (``lars.printer.format_term``: one
    text per term and back, so equal texts are equal terms): rows are tuples of strings, whose
    hashes Python caches, and a row is its atom's output text once joined. Nothing maps terms to
    numbers, so nothing has to be reclaimed: a term lives as long as some row refers to it, and
    memory follows the windows. ``term_of`` caches the terms that built-ins need back.

    What the other modules of the engine use (the blocks of ``aggregates``, the batch joins of
    ``joins``), and nothing else:

    * state: ``rels`` (relation -> ``Relation``), ``pending`` (head -> rows whose support changed),
      ``blk`` (a block's last result and caches), ``const_scans``, ``functions``,
      ``aggregate_functions``;
    * terms: ``term`` (text -> term), ``terms``, ``lazy_terms``, ``value`` (a term's text under a
      binding), ``holds`` and ``assigned`` (a comparison, an assignment on texts);
    * rule instances: ``bind`` (a literal against a row), ``instances`` (the instances along a
      plan), ``instance_holds`` (a plan of checks only);
    * counting: ``support`` (a head row's support changes), ``changes`` (a relation's net change
      since its last flush), ``apply`` (a relation changes, and everything that reads it)."""

    def __init__(self, solver: IncrementalSolver, stream: Stream | LiveStream, tmin: int) -> None:
        self.solver = solver
        self.functions = solver.functions
        self.text_tests: dict[tuple, Any] = {}  # (comparison, its variables) -> text_test or False
        self.text_values: dict[tuple, Any] = {}  # (assigned term, its variables) -> on_texts or False
        self.aggregate_functions = solver.aggregate_functions
        self.stream = stream
        self.live_stream = stream if isinstance(stream, LiveStream) else None  # read as it is evaluated
        self.live = getattr(stream, "live", False)
        self.row_stream = getattr(stream, "rows", False)
        self.filters = solver.filters
        self.admit = {sig: row_filter(alts) for sig, alts in solver.filters.items()}
        self.filtered_src: object = None
        names = solver.stream_predicates
        self.declared_names = names
        # the declared predicates as signatures, for the rows a reader gives (keyed by signature)
        self.declared = None if names is None else _Declared(names)
        self.const_scans: dict = {}  # (relation, key positions) -> scans for a key of constants (BatchJoin)
        self.filtered_out: dict = {}
        self.tmin = tmin
        self.t = tmin - 1
        self.term_of: dict[str, object] = {}  # canonical text -> term (a cache)
        self.last_atoms: object = None  # the atoms of the last time point converted, and its rows
        self.last_rows: dict = {}
        self.point_rows: dict[int, dict] = {}  # time point -> its (sig, row)s read by windows
        self.row_times: list[int] = []  # the keys of point_rows as a heap (the oldest dropped first)
        self.rels: dict[tuple, Relation] = defaultdict(Relation)
        self.counts: dict[tuple, dict[tuple, int]] = {s: {} for s in solver.order}
        self.pending: dict[tuple, set[tuple]] = {s: set() for s in solver.order}
        self.uses: dict[tuple, list[tuple[CompiledRule, int]]] = defaultdict(list)
        for r in solver.rules:
            for i, lit in enumerate(r.lits):
                self.uses[lit.rel].append((r, i))
        self.windows: dict[TimeWindow, WindowRelations] = {}
        for r in solver.rules:
            for lit in r.lits:
                base = lit.rel[1] if lit.rel[0] == NEG else lit.rel
                if base[0] == WIN:
                    _, kind, window, sig = base
                    w = self.windows.get(window)
                    if w is None:
                        w = self.windows[window] = WindowRelations(window, tmin)
                    {"dia": w.dia, "box": w.box}.get(kind, {}).setdefault(sig, {})
                    if kind == "at":
                        w.at.add(sig)
                    if kind == "box":
                        w.box_in.setdefault(sig, set())
                    if sig == ("true", 0):
                        w.true = True
        self.read = set()  # stream signatures some window reads
        for w in self.windows.values():
            self.read |= set(w.dia) | w.at | set(w.box)
        # constants of the program: ids kept for the whole run
        self.const: dict = {}
        for r in solver.rules:
            for a in (*r.head_args, *(x for lit in r.lits for x in lit.args)):
                if isinstance(a, (Constant, Integer, String)):
                    self.const[a] = format_term(a)
        self.times: list[int] = []  # time points with data, ascending (non-live: all of them)
        if not self.live:
            self.times = sorted(u for u in stream.points if u >= tmin)
        self.intensional = set(solver.order) - {FALSE}
        self.outputs = solver.outputs
        self.answer = SortedAnswer()
        self.shown: dict[tuple, dict[tuple, str]] = {}  # output sig -> row of the answer -> its atom text
        self.valid = False  # is the previous step's answer a single answer (for deltas)?
        self.out: list[tuple] = []  # (sig, rows added, rows removed) of the step, for the answer
        self.blk: dict = {}  # block node -> its last result (lars.incremental.aggregates)
        # relations whose every reader projects it (one positive literal): changed in bulk
        self.bulk = {rel: all(r.project is not None for r, _ in uses) for rel, uses in self.uses.items()}
        # heads of plain copies of one relation, flushed by ``changes``: their changes may be
        # recorded exactly (``_exact``)
        self.exact_heads = {r.head for r in solver.rules if r.project is True and r.head[0] not in BLOCK_NODES}
        self.meta: dict[tuple, tuple] = {}  # relation -> (bulk, its rows kept, its readers, a negated reader) (``apply``)
        self.exact: dict[tuple, tuple[dict, dict]] = {}  # head -> (rows new, rows gone) since its last flush
        # window relations whose every reader projects them into a predicate (no join, no
        # block, no negation reads their rows): their rows are not kept (``WindowRelations`` has them)
        self.untracked = {rel for rel, uses in self.uses.items() if rel[0] == WIN and (NEG, rel) not in self.uses
                          and all(r.project is not None and r.head[0] not in BLOCK_NODES for r, _ in uses)}
        for fact in solver.facts:
            try:
                row = tuple([format_term(evaluate(a, {}, self.functions)) for a in fact.args])
            except Undefined:
                continue
            self.support(fact.signature, row, 1)

    # ------------------------------------------------------------------------ terms
    def holds(self, c: Comparison, names: tuple, vals: tuple) -> bool:
        """Does ``c`` hold when its variables ``names`` have the terms whose texts are ``vals``?
        A comparison of a function call that reads texts (:func:`text_test`) is decided on the
        texts when the function can; otherwise on the terms (``comparison_holds``)."""
        test: Any = self.text_tests.get((c, names))  # a test on texts, False (none) or None (not made yet)
        if test is None:
            test = self.text_tests[c, names] = text_test(c, names, self.functions) or False
        if test:
            got = test(vals)
            if got is not None:
                return got
        return comparison_holds(c, {n: self.term(v) for n, v in zip(names, vals)}, self.functions)

    def assigned(self, term, names: tuple, vals: tuple) -> object:
        """The text of ``term``'s value when its variables ``names`` have the terms whose texts are
        ``vals`` (``UNDEFINED``: undefined). A call of a function that reads texts
        (:func:`on_texts`) is computed on the texts when the function can."""
        value: Any = self.text_values.get((term, names))  # as text_tests
        if value is None:
            value = self.text_values[term, names] = on_texts(term, names, self.functions) or False
        if value:
            got = value(vals)
            if got is not None:
                return format_term(got)
        try:
            return format_term(evaluate(term, {n: self.term(v) for n, v in zip(names, vals)}, self.functions))
        except Undefined:
            return UNDEFINED

    def term(self, text: str):
        """The term whose canonical text (``lars.printer.format_term``) is ``text``."""
        got = self.term_of.get(text)
        if got is None:
            if len(self.term_of) >= CACHE_MAX:
                self.term_of.clear()
            got = self.term_of[text] = parse_term(text)
        return got

    def terms(self, theta: dict) -> dict:
        """Every bound variable's term (for ``unify``, which copies the mapping)."""
        term = self.term
        return {k: term(v) for k, v in theta.items()}

    def lazy_terms(self, theta: dict) -> "TermView":
        """The terms of ``theta`` converted on access, for ``evaluate``/``comparison_holds`` (which
        only read ``theta[name]``): a call converts its own arguments, not every bound variable."""
        return TermView(theta, self.term)

    # ------------------------------------------------------------------------ stream access
    def _atoms(self, u: int) -> tuple[Atom, ...]:
        if u < self.tmin:
            return ()
        return self.stream.points.get(u, ())

    def _points(self, a: int, b: int) -> Iterable[int]:
        """Time points in [a, b] that carry data."""
        if b < a:
            return ()
        if b - a < 64 or self.live:
            return range(a, b + 1)

        return self.times[bisect_left(self.times, a):bisect_right(self.times, b)]

    @staticmethod
    def _every(a: int, b: int) -> range:
        return range(a, b + 1)

    # ------------------------------------------------------------------------ the step
    def step(self, t: int) -> Step:
        live = self.live_stream
        if live is not None:
            live.read_past(t)
            live.take_arrived()
        self.out = []
        for w in self.windows.values():
            self._slide(w, t)
        if live is not None:
            keep = min((w.lo for w in self.windows.values()), default=t)
            live.forget_before(min(keep, t - 1))
        self.t = t
        for sig in self.solver.order:
            self._flush(sig)
        self._drop_rows(t)
        return self._answer(t)

    def _slide(self, w: WindowRelations, t: int) -> None:
        lo, hi = time_window_bounds(w.window, t, self.tmin)
        lo = max(lo, self.tmin)
        old_lo, old_hi = w.lo, w.hi
        # entering points first (an atom of ◇ still occurring gets its new last point before its old one leaves)
        points = self._every if w.true else self._points
        for u in points(max(old_hi + 1, lo), hi):
            self._enter(w, u, +1)
        for u in points(old_lo, min(old_hi, lo - 1)):
            self._enter(w, u, -1)
        w.lo, w.hi = lo, hi
        if w.box:
            self._box(w, t, lo, hi)

    def _rows_at(self, u: int) -> dict:
        """The distinct ``(sig, row)`` of the stream atoms at u that some window reads (computed
        once per time point, dropped once every window has passed it)."""
        got = self.point_rows.get(u)
        if got is not None:
            return got
        if self.row_stream:  # the reader gave rows already (lars.streams.iter_stream_rows)
            got = self.stream.points.get(u) if u >= self.tmin else None  # type: ignore[assignment]
            if got is None:
                return {}
            if self.declared is not None and not self.declared.issuperset(got):
                self._undeclared(u, [sig for sig in got if sig not in self.declared])
            if self.filters:
                got = self._filtered(got)
                self._keep_rows(u, got)
            return got
        atoms = self._atoms(u)
        if atoms is self.last_atoms:  # the reader gave the previous line's atoms again
            out = self.last_rows
        else:
            read = self.read
            declared = self.declared_names
            out = {}
            for a in atoms:
                args = a.args
                sig = (a.predicate, len(args))
                if sig in read:
                    row = tuple([x.name if type(x) is Constant else text_of(x) for x in args])
                    got = out.get(sig)
                    if got is None:
                        out[sig] = {row: None}
                    else:
                        got[row] = None
                elif declared is not None and sig[0] not in declared:
                    self._undeclared(u, [sig])
            if self.filters:
                out = self._filtered(out)
            self.last_atoms, self.last_rows = atoms, out
        self._keep_rows(u, out)
        return out

    def _keep_rows(self, u: int, rows: dict) -> None:
        self.point_rows[u] = rows
        heapq.heappush(self.row_times, u)

    def _undeclared(self, u: int, sigs: list) -> None:
        """A stream atom whose predicate the caller said the stream does not carry
        (``IncrementalSolver.stream_predicates``): its copy rule (D11) was left out, so it would be lost."""
        sig = sigs[0]
        raise RsplarsError(f"the stream has an atom of {sig[0]}/{sig[1]} at t={u}, a predicate outside the stream's "
                           f"declared predicates ({', '.join(sorted(self.solver.stream_predicates or ()))})")

    def _filtered(self, rows: dict) -> dict:
        """``rows`` (sig -> rows) without the rows that matter to no output (``IncrementalSolver.filters``);
        the same object for the same rows (a repeated line keeps its identity, ``_dia``)."""
        if rows is self.filtered_src:
            return self.filtered_out
        out = {}
        for sig, got in rows.items():
            admit = self.admit.get(sig)
            out[sig] = admit(got) if admit is not None else got
        self.filtered_src, self.filtered_out = rows, out
        return out

    def _drop_rows(self, t: int) -> None:
        keep = min((w.lo for w in self.windows.values()), default=t + 1)
        keep = min(keep, t + 1)
        rows, times = self.point_rows, self.row_times
        while times and times[0] < keep:
            del rows[heapq.heappop(times)]

    def _enter(self, w: WindowRelations, u: int, sign: int) -> None:
        """Time point u enters (sign 1) or leaves (-1) the window: ◇ counts and @_T pairs."""
        true = ("true", 0)
        if true in w.dia:
            self._dia(w, true, [()], sign, u)
        if true in w.at:
            row = (str(u),)
            self.apply((WIN, "at", w.window, true), [row] if sign > 0 else (), [row] if sign < 0 else ())
        rows = self._rows_at(u)
        if not rows:
            return
        for sig in w.dia:
            got = rows.get(sig)
            if got:
                self._dia(w, sig, got, sign, u)
        for sig in w.at:
            got = rows.get(sig)
            if got:
                tu = str(u)
                pairs = [(*row, tu) for row in got]
                self.apply((WIN, "at", w.window, sig), pairs if sign > 0 else (), pairs if sign < 0 else ())

    def _dia(self, w: WindowRelations, sig: tuple, rows, sign: int, u: int) -> None:
        """Time point u, whose rows of ``sig`` are ``rows``, enters (sign 1) or leaves (-1) the
        window. Each row of the window keeps the last point of the window it occurs at (Laser's
        horizon, less the window's length): points enter and leave in increasing order, so a row
        leaves with the point that is its last, and rows are entered and expired in bulk.

        A point whose rows are the very object of the point entered before (the reader shares the
        rows of a line repeating the previous one) only moves that run's end (``WindowRelations.dia_run``):
        the last points of its rows are written when the run breaks, so a repeating stream costs
        nothing per row."""
        last = w.dia[sig]  # row -> the last time point of the window it occurs at
        run = w.dia_run.get(sig)  # [rows object, the point its last points say, the run's end]
        if sign > 0:
            if run is not None:
                if rows is run[0]:
                    run[2] = u
                    return
                if run[2] != run[1]:
                    last.update(dict.fromkeys(run[0], run[2]))
                del w.dia_run[sig]
            # all new (fresh atoms): the rows object itself (read only), else the new ones
            came = rows if not last or last.keys().isdisjoint(rows) else list(filterfalse(last.__contains__, rows))
            last.update(dict.fromkeys(rows, u))
            if type(rows) is dict:
                w.dia_run[sig] = [rows, u, u]
            if came:
                self.apply((WIN, "dia", w.window, sig), came, ())
        else:
            if run is not None:
                if u < run[2]:
                    if rows is run[0]:
                        return  # its rows occur at the run's end, still in the window
                    gone = last_at(rows, last, u)
                    if run[1] <= u:  # the run's rows may say u: their last point (not written yet) is its end
                        gone = list(filterfalse(run[0].__contains__, gone))
                    if gone:
                        _consume(map(last.__delitem__, gone), maxlen=0)
                        self.apply((WIN, "dia", w.window, sig), (), gone)
                    return
                if run[2] != run[1]:
                    last.update(dict.fromkeys(run[0], run[2]))
                del w.dia_run[sig]
            gone = last_at(rows, last, u)
            if gone:
                if len(gone) == len(last):
                    last.clear()
                else:
                    _consume(map(last.__delitem__, gone), maxlen=0)
                self.apply((WIN, "dia", w.window, sig), (), gone)

    def _box(self, w: WindowRelations, t: int, lo: int, hi: int) -> None:
        """□ (step 1, so the window is ``[lo, t]``, never empty): the runs of consecutive
        occurrences are brought up to t; an atom holds iff it occurs at t and its run started at
        or before ``lo`` (Laser's consideration time)."""
        true = ("true", 0)
        changed = set()
        for u in self._points(max(w.box_last + 1, self.tmin), t):
            rows = self._rows_at(u)
            cont = w.box_last == u - 1
            for sig, runs in w.box.items():
                if sig == true:
                    continue
                got = rows.get(sig, ())
                if cont and got is w.box_src.get(sig):  # the same rows again (a repeated line): runs go on
                    continue
                fresh = dict.fromkeys(got, u)
                if cont and runs and not runs.keys().isdisjoint(got):  # the runs of rows still occurring go on
                    kept = list(filter(runs.__contains__, got))
                    fresh.update(zip(kept, map(runs.__getitem__, kept)))
                w.box[sig] = fresh
                w.box_src[sig] = got
                changed.add(sig)
            w.box_last = u
        for sig, runs in w.box.items():
            key = (WIN, "box", w.window, sig)
            now = w.box_in[sig]
            if sig == true:
                new = {()}
            elif w.box_last == t and sig not in changed and len(now) == len(runs):
                continue  # every running atom holds already, and the runs did not change
            elif w.box_last == t and runs:
                starts = runs.values()
                if min(starts) > lo:
                    new = set()
                elif max(starts) <= lo:
                    new = set(runs)
                else:
                    new = {row for row, s in runs.items() if s <= lo}
            else:
                new = set()
            gone, came = now - new, new - now
            if gone or came:
                self.apply(key, came, gone)
            w.box_in[sig] = new

    # ------------------------------------------------------------------------ propagation
    def apply(self, rel: tuple, plus, minus) -> None:
        """Relation ``rel`` gains the rows ``plus`` and loses ``minus`` (each a change): update it
        and the supports of the heads of the rules that read it. Rules that only project one
        literal take the change in bulk; the others tuple by tuple (the delta rule)."""
        table = self.rels[rel]
        meta = self.meta.get(rel)
        if meta is None:  # (the relation's key is hashed once per change, not once per look-up)
            meta = self.meta[rel] = (self.bulk.get(rel, True), rel not in self.untracked, self.uses.get(rel, ()),
                                     (NEG, rel) in self.uses)
        bulk, tracked, uses, shadow = meta
        if bulk:  # (a relation nothing reads: bulk too)
            if tracked:
                table.add_many(plus)
                table.remove_many(minus)
            counts_of, pending_of = self.counts, self.pending
            for r, _ in uses:
                counts = counts_of[r.head]
                if r.project is True and r.head in self.exact_heads and self._exact(r.head, counts, plus, minus):
                    continue
                get = counts.get
                proj = r.project
                heads_plus = plus if proj is True else [tuple([row[k] for k in proj]) for row in plus]
                heads_minus = minus if proj is True else [tuple([row[k] for k in proj]) for row in minus]
                if proj is True and heads_plus and (not counts or counts.keys().isdisjoint(heads_plus)):
                    counts.update(dict.fromkeys(heads_plus, 1))  # new heads (distinct rows): in bulk
                else:
                    for h in heads_plus:
                        counts[h] = get(h, 0) + 1
                if heads_minus and all(map((1).__eq__, map(counts.__getitem__, heads_minus))):
                    if proj is True:  # distinct rows, each its head's last support
                        _consume(map(counts.__delitem__, heads_minus), maxlen=0)
                    else:
                        for h in heads_minus:
                            counts.pop(h, None)
                else:
                    for h in heads_minus:
                        c = counts[h] - 1
                        if c:
                            counts[h] = c
                        else:
                            del counts[h]
                pending = pending_of[r.head]
                pending.update(heads_plus)
                pending.update(heads_minus)
        elif rel[0] == NEG:  # `not R` reads the complement: a row joins it while absent from R
            # the shadow copy without the changed rows D while they propagate: a negated
            # occurrence before the seed sees it with D, one after it without D (the delta rule)
            if plus:
                self._propagate(rel, plus, 1)
                table.add_many(plus)
            if minus:
                table.remove_many(minus)
                self._propagate(rel, minus, -1)
        else:
            # the relation with the changed rows D while they propagate: an occurrence before the
            # seed excludes D, one after it reads the relation with D (the delta rule)
            if plus:
                table.add_many(plus)
                self._propagate(rel, plus, 1)
            if minus:
                self._propagate(rel, minus, -1)
                table.remove_many(minus)
        if shadow:
            self.apply((NEG, rel), plus, minus)

    def _exact(self, head: tuple, counts: dict, plus, minus) -> bool:
        """The rows ``plus`` (distinct) each gain and the rows ``minus`` (distinct) each lose one
        support of ``head``, from a rule that is a plain copy of one relation (``CompiledRule.project``
        is True). When nothing else changed ``head`` since it was last flushed (no pending rows),
        its relation's rows are the rows with a support, or differ from them by the changes
        recorded here before (``exact``): if every row of ``plus`` is then neither supported nor
        in the relation (its support goes 0 -> 1, a new row) and every row of ``minus`` has its
        last support and is in the relation (1 -> 0, a row gone), the supports change in bulk and
        the rows are recorded as the relation's changes themselves, so that ``changes`` has no
        set operations to do (the fresh-atom streams: every row that enters a window is new, every
        row that leaves it is gone). Otherwise (``False``) nothing is changed here: the caller
        takes the general path (its pending rows and the changes recorded here are then merged by
        ``changes``; while rows are pending, nothing more is recorded)."""
        exact = self.exact
        got = exact.get(head)
        pending = self.pending[head]
        if not pending:
            rows = self.rels[head].rows
            # a row of ``plus`` without support may still be in the relation (a row recorded
            # gone, coming back through another copy: no change); a row of ``minus`` with its
            # last support is in the relation unless it was recorded new at this step, and then
            # its support came from one relation that gained it now and cannot lose it now (a
            # window loses only rows it held before the step, and a second copy holding it
            # before would have made it supported already)
            if (not plus or ((not counts or counts.keys().isdisjoint(plus))
                             and (got is None or not got[1] or rows.isdisjoint(plus)))) and (
                    not minus or all_one(list(map(counts.get, minus)))):
                if plus:
                    counts.update(dict.fromkeys(plus, 1))
                if minus:
                    _consume(map(counts.__delitem__, minus), maxlen=0)
                # kept as dicts (ordered sets): built from a dict of rows (a time point's rows,
                # which enter whole when they are all new), and later added to the relation, with
                # the rows' hashes (a tuple's hash is not cached: computed again for a list)
                if got is None:
                    exact[head] = (dict.fromkeys(plus), dict.fromkeys(minus))
                else:
                    got[0].update(dict.fromkeys(plus))
                    got[1].update(dict.fromkeys(minus))
                return True
        return False

    def changes(self, sig: tuple) -> tuple[Collection[tuple], Collection[tuple]]:
        """The rows of ``sig`` whose support became (plus) or stopped being (minus) non-zero since
        it was last flushed, not yet applied to its relation; its pending rows are cleared."""
        pending = self.pending[sig]
        got = self.exact.pop(sig, None)
        if got is not None:  # changes known exactly (``_exact``)
            if not pending:
                return got
            pending.update(got[0])
            pending.update(got[1])
        if not pending:
            return [], []
        counts = self.counts[sig]
        rows = self.rels[sig].rows
        unsupported = pending.difference(counts)
        plus = list(pending.difference(unsupported).difference(rows))
        minus = list(unsupported.intersection(rows))
        pending.clear()
        return plus, minus

    def _flush(self, sig: tuple) -> None:
        """The rows of ``sig`` whose support became or stopped being 0 change its relation (each
        intensional predicate is flushed once per step, after everything below it)."""
        if sig[0] in BLOCK_NODES:  # aggregates and recursion: lars.incremental.aggregates
            return flush_block(self, sig) if sig[0] == "#blk" else flush_aux(self, sig)
        plus, minus = self.changes(sig)
        if plus or minus:
            self.apply(sig, plus, minus)
            if sig in self.outputs:
                self.out.append((sig, plus, minus))

    def support(self, sig: tuple, row: tuple, n: int) -> None:
        counts = self.counts[sig]
        c = counts.get(row, 0) + n
        if c:
            counts[row] = c
        else:
            del counts[row]
        self.pending[sig].add(row)

    def _propagate(self, rel: tuple, rows, sign: int) -> None:
        """The rows ``rows`` (a batch D) of ``rel`` change (the relation holds them now, or held
        them): every rule instance that uses one of them, through the delta rule (the seed
        literal ranges over D, occurrences of ``rel`` before it see the relation on one side of
        the change, those after it on the other, ``apply``), changes the support of its head by
        ``sign`` (a negated seed: by ``-sign``). Each rule's instances for the whole batch are found
        at once (:class:`BatchJoin`: hash joins on the batch, a comparison evaluated once per distinct
        value of its variables); rules the batch plans do not cover go row by row."""
        excl = None
        columns: dict = {}  # the batch's columns, shared by the rules' seed selections (BatchJoin.run)
        fresh: dict = {}  # rule -> is its star over rel fresh in this batch (star_is_fresh)
        for r, i in self.uses.get(rel, ()):
            star = r.star.get(rel) if r.star else None
            if star is not None and i != star.first:
                got = fresh.get(r)
                if got is None:
                    got = fresh[r] = self.star_is_fresh(rel, star, rows)
                if got:
                    continue  # a later literal of the star: no instance (lars.incremental.planning.Star)
            lit = r.lits[i]
            s = -sign if lit.negated else sign  # a negated literal: its instances are lost/gained
            if r.project is not None:
                if r.project is True:
                    self._supports(r.head, rows, s)
                else:
                    proj = r.project
                    self._supports(r.head, [tuple([row[k] for k in proj]) for row in rows], s)  # type: ignore[union-attr]
                continue
            if excl is None and r.self_join[i]:
                excl = rows if isinstance(rows, (set, dict)) else set(rows)
            batch = r.batch.get(i)
            if batch is not None:
                self._supports(r.head, batch.run(self, rows, excl, columns), s)
                continue
            heads: list = []
            for row in rows:
                theta = self.bind(lit, row)
                if theta is None:
                    continue
                if r.flat[i]:  # checks only: at most one instance
                    if self.instance_holds(r, r.plans[i], theta, rel, row, i, excl):
                        self._head(r, theta, heads)
                    continue
                for theta in self.instances(r, r.plans[i], 0, theta, rel, row, i, excl):
                    self._head(r, theta, heads)
            self._supports(r.head, heads, s)

    def star_is_fresh(self, rel: tuple, star, rows) -> bool:
        """Does no value of the star's variable among ``rows`` (the batch D, which ``rel`` holds
        while it propagates) have a row of the star's first literal outside D? (``Star``.) Each
        value's rows of that literal (its index on the key) are then all among D's rows."""
        consts = star.consts
        get = self.rels[rel].index(star.keys).get
        have = rows.keys() if isinstance(rows, dict) else rows if isinstance(rows, set) else set(rows)
        for x in set(map(star.x_of, rows)):
            got = get((x, *consts))
            if got and not have >= got:
                return False
        return True

    def _supports(self, sig: tuple, heads, n: int) -> None:
        """The support of each head row in ``heads`` (repeated: once per instance) changes by n."""
        if not heads:
            return
        counts = self.counts[sig]
        if n == 1 and (not counts or counts.keys().isdisjoint(heads)):
            new = dict.fromkeys(heads, 1)
            if len(new) == len(heads):  # distinct new heads (the common case): in bulk
                counts.update(new)
                self.pending[sig].update(new)
                return
        elif n == -1 and all(map((1).__eq__, map(counts.get, heads))):
            gone = set(heads)
            if len(gone) == len(heads):  # distinct heads, each its last support: in bulk
                _consume(map(counts.__delitem__, gone), maxlen=0)
                self.pending[sig].update(gone)
                return
        get = counts.get
        for h in heads:
            c = get(h, 0) + n
            if c:
                counts[h] = c
            else:
                del counts[h]
        self.pending[sig].update(heads)

    def value(self, term, theta: dict) -> str:
        """The text of a term under theta (all its variables bound); raises Undefined."""
        if isinstance(term, Variable):
            return theta[term.name]
        got = self.const.get(term) if isinstance(term, (Constant, Integer, String)) else None
        if got is not None:
            return got
        return format_term(evaluate(term, self.lazy_terms(theta), self.functions))

    def _head(self, r: CompiledRule, theta: dict, heads: list) -> None:
        spec = r.head_spec
        if spec is not None:
            heads.append(tuple([theta[v] if is_var else v for is_var, v in spec]))
            return
        try:
            row = tuple([self.value(a, theta) for a in r.head_args]) if r.head_args else ()
        except Undefined:
            return
        heads.append(row)

    def _unify_text(self, pattern, i: str, theta: dict) -> dict | None:
        """Term-level unification of a compound pattern with the term of id i."""
        got = unify(pattern, self.term(i), self.terms(theta), functions=self.functions)
        if got is None:
            return None
        out = dict(theta)
        for k, v in got.items():
            if k not in out:
                out[k] = format_term(v)
        return out

    def bind(self, lit: Lit, row: tuple) -> dict | None:
        """Bind the simple positions of ``lit`` to ``row`` (computed positions are checked by
        the plan); ``None`` if they do not match."""
        for k, text in lit.consts:
            if row[k] != text:
                return None
        out: dict = {}
        for k, name in lit.names:
            got = out.get(name)
            if got is None:
                out[name] = row[k]
            elif got != row[k]:
                return None
        for k, pattern in lit.funcs:
            got2 = self._unify_text(pattern, row[k], out)
            if got2 is None:
                return None
            out = got2
        return out

    def instance_holds(self, r: CompiledRule, plan: list, theta: dict, rel: tuple, row: tuple, seed: int, excl) -> bool:
        """A plan of checks only (``CompiledRule.flat``), without generators: does the instance hold?"""
        for step in plan:
            kind = step[0]
            if kind == "lit":
                lit = r.lits[step[1]]
                try:
                    key = tuple([self.value(a, theta) for a in step[3]])
                except Undefined:
                    return False
                table = self.rels[lit.rel]
                if len(key) == len(lit.args):
                    if key not in table.rows or (lit.rel == rel and step[1] < seed and key in excl):
                        return False
                elif not table.lookup(step[2], key):
                    return False
            elif kind == "cmp":
                if not comparison_holds(step[1], self.lazy_terms(theta), self.functions):
                    return False
            elif next(self.instances(r, [step], 0, theta, rel, row, seed, excl), None) is None:
                return False
        return True

    def instances(self, r: CompiledRule, plan: list, k: int, theta: dict, rel: tuple, row: tuple, seed: int | None, excl) -> Iterator[dict]:
        """Instances of the body along ``plan`` from step k; ``seed``: the literal bound to
        ``row`` of ``rel``, one of the changed rows ``excl`` (the delta rule: earlier occurrences
        of ``rel`` exclude them, ``Engine.apply``)."""
        if k == len(plan):
            yield theta
            return
        step = plan[k]
        kind = step[0]
        functions = self.functions
        if kind == "cmp":
            if comparison_holds(step[1], self.lazy_terms(theta), functions):
                yield from self.instances(r, plan, k + 1, theta, rel, row, seed, excl)
        elif kind == "assign":
            try:
                value = self.value(step[2], theta)
            except Undefined:
                return
            yield from self.instances(r, plan, k + 1, {**theta, step[1]: value}, rel, row, seed, excl)
        elif kind == "seedcheck":
            lit = r.lits[step[1]]
            for p in step[2]:
                if unify(lit.args[p], self.term(row[p]), self.terms(theta), functions=functions) is None:
                    return
            yield from self.instances(r, plan, k + 1, theta, rel, row, seed, excl)
        elif kind == "neg":
            i = step[1]
            lit = r.lits[i]
            try:
                ground = tuple([self.value(a, theta) for a in lit.args])
            except Undefined:
                ground = None
            if lit.rel == rel and seed is not None and i < seed and ground in excl:
                return  # the delta rule: an earlier occurrence of the changed relation holds the changed rows
            if ground is None or ground not in self.rels[lit.rel].rows:
                yield from self.instances(r, plan, k + 1, theta, rel, row, seed, excl)
        else:  # "lit"
            _, i, keys, key_terms, rest = step
            lit = r.lits[i]
            try:
                key = tuple([self.value(a, theta) for a in key_terms])
            except Undefined:
                return
            exclude = lit.rel == rel and seed is not None and i < seed
            candidates = self.rels[lit.rel].lookup(keys, key)
            if not rest:
                if candidates and not (exclude and next(iter(candidates)) in excl):
                    yield from self.instances(r, plan, k + 1, theta, rel, row, seed, excl)
                return
            args = lit.args
            for cand in list(candidates):
                if exclude and cand in excl:
                    continue
                th = theta
                ok = True
                for p in rest:
                    a = args[p]
                    if isinstance(a, Variable):
                        got = th.get(a.name)
                        if got is None:
                            if th is theta:
                                th = dict(theta)
                            th[a.name] = cand[p]
                        elif got != cand[p]:
                            ok = False
                            break
                    else:
                        th2 = self._unify_text(a, cand[p], th)
                        if th2 is None:
                            ok = False
                            break
                        th = th2
                if ok:
                    yield from self.instances(r, plan, k + 1, th, rel, row, seed, excl)

    # ------------------------------------------------------------------------ the answer
    @staticmethod
    def _atom_text(sig: tuple, row: tuple) -> str:
        return f"{sig[0]}({','.join(row)})" if row else sig[0]

    def _answer(self, t: int) -> Step:
        added: list[str] = []
        removed: list[str] = []
        rows: dict = {}
        shown = self.shown
        for sig, plus, minus in self.out:
            name = sig[0]
            got = rows.get(name)
            if got is None:
                rows[name] = (list(plus), list(minus))
            else:  # (two arities of one name)
                got[0].extend(plus)
                got[1].extend(minus)
            if sig[1]:
                # the text of a row is built once, when it joins the answer, and kept until it
                # leaves (``shown``: the rows of the answer, no more)
                texts = shown.get(sig)
                if texts is None:
                    texts = shown[sig] = {}
                if minus:
                    removed += map(texts.pop, minus)
                if plus:
                    if sig[1] == 2:
                        new = [f"{name}({a},{b})" for a, b in plus]
                    elif sig[1] == 1:
                        new = [f"{name}({a})" for a, in plus]
                    else:
                        new = [f"{name}({x})" for x in map(",".join, plus)]
                    texts.update(zip(plus, new))
                    added += new
            else:
                removed += [name for row in minus]
                added += [name for row in plus]
        added.sort()
        removed.sort()
        answer = self.answer
        answer.update(added, removed)
        if self.counts[FALSE]:  # a constraint holds: no answer stream at t
            self.valid = False
            return Step(t, [], delta=None)
        delta = (tuple(added), tuple(removed)) if self.valid else None
        self.valid = True
        return Step(t, [answer.atoms()], delta=delta, encoded=answer.encoded() if self.solver.encode_json else None,
                    rows=rows if delta is not None else None)
