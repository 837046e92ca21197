"""The LARS stream solver on clingo: one ground program, externals per reference time.

``StreamSolver(program).run(stream, times)`` yields, for every reference time t, the answer
streams at t (Dao-Tran, Beck, Eiter 2015, §2.4, Definition 3; decisions D9–D11) restricted to the intensional atoms that hold
at t. How (``docs/asp-encoding.md``):

1. ``asp.encode`` turns the program into one non-ground ASP program, emitted once.
2. ``asp.windows`` keeps every window's content incrementally in Python and tells which external
   atoms (``lars_dia(K,A)``, ``lars_box(K,A)``, ``lars_at(K,A,T)``, ``lars_now(A)``, window flags)
   change truth value from one reference time to the next.
3. A ``clingo.Control`` is grounded once per *epoch*: the ``#external`` declarations of the
   encoding (``Encoding.interface``) get their domains — every atom (and, for programs that need
   time points, every time point) the windows can see during the epoch — from the grounding-time
   function ``@lars_domain``; then the program is grounded. Per reference time the solver only
   calls ``assign_external`` for what changed and ``solve`` — no text, no process, no grounding
   per time point. A new epoch starts only when an atom outside the declared domain becomes true
   (a stream with a bounded set of distinct atoms keeps one Control for the whole run after its
   first time points) or, for programs with time points in the ground program, every
   ``epoch_span`` ticks. If nothing changed since the previous reference time, the previous
   answer is reused (the ground program and all its inputs are the same).
   Programs with aggregates instead get the inputs true at t as facts of a ground program of
   their own (``_Run._step_fixed``: clingo would ground an aggregate over externals for every
   value it could take).
4. Stratified programs have at most one answer stream; for the others models are enumerated
   (``models``, 0 = all) and "several" is reported (``Step.more``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from clingo.control import Control
from clingo.symbol import Function as SymFunction
from clingo.symbol import Number, Symbol, SymbolType, Tuple_
from clingo.solving import Model, SolveResult

from asp import interruption
from asp.encode import AT, BOX, CLOCK, DIA, HAS_NOW, IN, NONEMPTY, NOW, Encoding, encode
from asp.termids import TermIds, id_safe
from asp.symbols import find_literals, make_context
from asp.windows import StreamIndex, WindowState, interval_difference
from lars.errors import RsplarsError, UnsupportedError
from lars.model import Integer, Program, Stream, Term
from lars.evaluation import comparison_holds
from lars.solver import Step
from lars.streams import LiveStream, live_times  # noqa: F401  (also asp.solver.live_times)

# Epoch sizing. clingo's solve costs about the size of the ground program, whatever changed, so
# an epoch declares only what is likely to be needed soon: the windows' atoms, a look-ahead of
# later stream atoms about as large as the windows' content (at least _AHEAD_MIN, at most
# _AHEAD_ATOMS), and the previous epoch's atoms that recur in the stream (seen at two time points
# or more) while they number at most twice the windows' content plus _CARRY. A stream with a
# bounded set of recurring atoms so settles into one epoch; a stream of ever new atoms gets small
# epochs that solve fast.
_AHEAD_ATOMS = 50_000
_AHEAD_MIN = 64
_CARRY = 256
_AHEAD_ATOMS_TEMPORAL = 8_000  # (atom, time) pairs per epoch for programs with time points
# Forgetting atoms (``_Run._maybe_collect``): when the stream index holds more than
# max(_COLLECT_MIN, _COLLECT_FACTOR × the atoms kept by the last collection) atoms.
_COLLECT_MIN = 4096
_COLLECT_FACTOR = 2


class AspError(RsplarsError):
    """clingo rejected the encoded program (e.g. an unsafe rule)."""


def _complete(result) -> None:
    """A solve that ended by itself: an interrupted one (``asp.interruption``) is never read as an
    answer (a requested stop has been raised by then; anything else interrupting clingo is a bug)."""
    assert isinstance(result, SolveResult)
    if result.interrupted:
        raise AspError("clingo's solve was interrupted without a stop being requested")


@dataclass
class _Epoch:
    """One grounded Control and the literals of its external atoms."""

    ctl: Control
    lits: dict[tuple, int]  # (kind, k, id[, time]) / (flag, k[, time]) -> program literal
    ids: dict[tuple, set[int]]  # (kind, k) -> atom ids declared (carried over to the next epoch)
    ta: int
    tb: int | None  # last reference time the time domain covers (None: no time points)
    assigned: dict[int, bool] = field(default_factory=dict)


class StreamSolver:
    """The clingo engine (a ``lars.solver.Solver``): see the module docstring. ``functions``
    supplies the grounding-time functions of :class:`lars.model.Call` terms by name (they receive
    and return LARS terms)."""

    engine = "asp"
    reads_rows = False  # it reads atoms (lars.model.Atom), not rows of term texts

    def __init__(
        self,
        program: Program,
        *,
        models: int = 1,
        functions: Mapping[str, Callable[..., Term]] | None = None,
        epoch_span: int = 128,
        lookahead: int = 8,
        reuse: bool = True,
        term_ids: bool = True,
    ) -> None:
        if models < 0:
            raise RsplarsError(f"--models must be >= 0, got {models}")
        self.program = program
        self.models = models
        self.functions = dict(functions or {})
        self.epoch_span = epoch_span
        self.lookahead = lookahead
        self.reuse = reuse  # reuse the previous answer when no external changed (exact; off: benchmark)
        self.term_ids = term_ids  # stream terms as reused integer ids where exact (asp.termids)
        self.epochs = 0  # number of Controls built (for tests and the benchmark)
        self.solves = 0
        self.encode_json = False  # Step.encoded is never filled: the caller encodes the answers

    # ------------------------------------------------------------------------------ public
    def encoding(self, stream: Stream | None = None) -> Encoding:
        """The encoding used for ``stream`` (the stream decides which intensional predicates also
        come from the stream)."""
        return encode(self.program, None if stream is None else _intensional_in_stream(self.program, stream))

    def asp_text(self, stream: Stream, t: int | None = None) -> str:
        """The encoding as plain clingo input: the rules, and with a reference time t the external
        atoms true at t as facts (``clingo`` on this text gives the answer at t; one-shot)."""
        enc = self.encoding(stream)
        out = [enc.text.rstrip("\n")]
        if t is None:
            out.append("% inputs: add the external atoms true at the reference time as facts (docs/asp-encoding.md)")
            return "\n".join(out) + "\n"
        run = _Run(self, enc, stream, term_ids=False)  # the printed facts name the terms
        run.step(t)
        facts = sorted(str(_external_symbol(key, run.index)) for key in run.true_keys(t, t, run.epoch))
        if enc.uses_tl:
            facts.append(f"lars_epoch({run.tmin},{t})")
        out.append(f"% inputs at reference time {t}")
        out += [f"{f}." for f in facts]
        return "\n".join(out) + "\n"

    def run(self, stream: Stream | LiveStream, times: Iterable[int] | None = None) -> Iterator[Step]:
        """The steps at ``times`` (default: every time point from the stream's first to its last).

        ``stream`` may be a :class:`lars.streams.LiveStream`: it is then read while it is evaluated
        (each step waits only for the input it needs), every intensional predicate is treated as
        possibly also in the stream (the encoding cannot look ahead), and by default the steps go
        on until the stream ends."""
        enc = encode(self.program, None) if isinstance(stream, LiveStream) else self.encoding(stream)
        missing = enc.functions - self.functions.keys()
        if missing:
            raise UnsupportedError(f"grounding-time function(s) {', '.join(sorted(missing))}", "asp engine", "not supplied")
        tmin, tmax = stream.timeline
        run = _Run(self, enc, stream)  # type: ignore[arg-type]  # a LiveStream offers what asp.windows reads
        self.last_term_ids = run.term_ids  # for tests and the benchmark: None unless ids are used
        if times is None:
            times = live_times(stream, tmin) if isinstance(stream, LiveStream) else range(tmin, tmax + 1)
        for t in times:
            if t < tmin:
                raise RsplarsError(f"reference time {t} lies before the start {tmin} of the stream")
            yield run.step(t)




def solve_at_once(program: Program, stream: Stream, times: Iterable[int] | None = None, *, models: int = 1) -> dict[int, list[tuple[str, ...]]]:
    """``{t: Step.answers}`` for every reference time (convenience for tests and notebooks)."""
    return {s.t: s.answers for s in StreamSolver(program, models=models).run(stream, times)}


def _intensional_in_stream(program: Program, stream: Stream) -> frozenset[tuple[str, int]]:
    intensional = program.intensional()
    names = {n for n, _ in intensional}
    found: set[tuple[str, int]] = set()
    for _, atoms in stream.items():
        for a in atoms:
            if a.predicate in names:
                sig = (a.predicate, len(a.args))
                if sig in intensional:
                    found.add(sig)
    return frozenset(found)


def _same_again(t: int, previous: Step) -> Step:
    """The previous answer again at t (nothing changed): an empty delta."""
    single = len(previous.answers) == 1 and not previous.more
    return Step(t, previous.answers, previous.more, delta=((), ()) if single else None)


_EXTERNAL_NAMES = {
    NOW: "lars_now",
    DIA: "lars_dia",
    BOX: "lars_box",
    AT: "lars_at",
    IN: "lars_in",
    "now_t": "lars_now_t",
    "tlx": "lars_tlx",
    NONEMPTY: "lars_nonempty",
    HAS_NOW: "lars_has_now",
    CLOCK: "lars_clock",
}


def _external_symbol(key: tuple, idx: StreamIndex) -> Symbol:
    """The external atom a solver key stands for (see ``asp.encode``)."""
    kind = key[0]
    name = _EXTERNAL_NAMES[kind]
    make = SymFunction
    if kind == NOW:
        return make(name, [idx.symbol(key[2])])
    if kind in (DIA, BOX):
        return make(name, [Number(key[1]), idx.symbol(key[2])])
    if kind == AT:
        return make(name, [Number(key[1]), idx.symbol(key[2]), Number(key[3])])
    if kind == IN:
        return make(name, [Number(key[1]), Number(key[2])])
    return make(name, [Number(key[1])])


def _lookup_literals(atoms, keys: list[tuple], idx: StreamIndex) -> dict[tuple, int]:
    """The program literals of the declared externals (``asp.symbols.find_literals``): one symbol
    per key, the numbers among its arguments made once per value."""
    numbers: dict[int, Symbol] = {}

    def number(n: int) -> Symbol:
        got = numbers.get(n)
        if got is None:
            got = numbers[n] = Number(n)
        return got

    symbol = idx.symbol
    symbols: list[Symbol] = []
    append = symbols.append
    for key in keys:
        kind = key[0]
        name = _EXTERNAL_NAMES[kind]
        if kind == NOW:
            append(SymFunction(name, [symbol(key[2])]))
        elif kind in (DIA, BOX):
            append(SymFunction(name, [number(key[1]), symbol(key[2])]))
        elif kind == AT:
            append(SymFunction(name, [number(key[1]), symbol(key[2]), number(key[3])]))
        elif kind == IN:
            append(SymFunction(name, [number(key[1]), number(key[2])]))
        else:
            append(SymFunction(name, [number(key[1])]))
    return {key: lit for key, lit in zip(keys, find_literals(atoms, symbols)) if lit is not None}


def _domain_entry(key: tuple, idx: StreamIndex) -> tuple[tuple, Symbol]:
    """Where a solver key goes in the ``@lars_domain`` answers of the fact interface
    (``asp.encode.Encoding.interface(facts=True)``), and its value there."""
    kind = key[0]
    if kind == NOW:
        return ("now",), idx.symbol(key[2])
    if kind in (DIA, BOX):
        return (kind, key[1]), idx.symbol(key[2])
    if kind == AT:
        return (AT, key[1]), Tuple_([idx.symbol(key[2]), Number(key[3])])
    if kind == IN:
        return (IN, key[1]), Number(key[2])
    if kind in (NONEMPTY, HAS_NOW, CLOCK):
        return ("flag", kind), Number(key[1])
    return (kind,), Number(key[1])  # now_t, tlx


class _Context:
    """Grounding context: ``@lars_domain(kind[, window])`` lists an external's domain for the
    epoch; the program's own grounding-time functions (``Call`` terms) are methods too."""

    def __init__(self, functions: Mapping[str, Callable[..., Term]], domains: dict[tuple, list[Symbol]], epoch: tuple[int, int]) -> None:
        self._domains = domains
        self._epoch = epoch
        user = make_context(functions)
        for name in functions:
            setattr(self, name, getattr(user, name))

    def lars_domain(self, kind: Symbol, k: Symbol | None = None) -> list[Symbol] | Symbol:
        if kind.name == "epoch":
            return Tuple_([Number(self._epoch[0]), Number(self._epoch[1])])
        key = (kind.name,) if k is None else (kind.name, k.number if k.type == SymbolType.Number else k.name)
        return self._domains.get(key, [])


class _Run:
    """The state of one ``run``: window states, the current epoch, the previous answer."""

    def __init__(self, solver: StreamSolver, enc: Encoding, stream: Stream, term_ids: bool = True) -> None:
        self.solver = solver
        self.enc = enc
        use_ids = term_ids and solver.term_ids and not enc.fixed_inputs and id_safe(solver.program)
        self.term_ids = TermIds(solver.program) if use_ids else None
        self.index = StreamIndex(stream, self.term_ids)
        self.tmin = self.index.tmin
        per_window: dict[int, dict[tuple[str, int], set[str]]] = {k: {} for k in range(len(enc.windows))}
        self.now_sigs: set[tuple[str, int]] = set()
        for sig, kinds in enc.routes.items():
            for kind, k in kinds:
                if kind == NOW:
                    self.now_sigs.add(sig)
                else:
                    assert k is not None  # every other route names its window
                    per_window[k].setdefault(sig, set()).add(kind)
        self.states = [
            WindowState(k, w, self.index, per_window[k], enc.flags.get(k, set())) for k, w in enumerate(enc.windows)
        ]
        self.now_ids: set[int] = set()
        self.changed_now: dict[int, bool] = {}
        self.epoch: _Epoch | None = None
        self.previous: Step | None = None
        self.previous_inputs: frozenset[tuple] = frozenset()
        self.t: int | None = None
        stratified = enc.stratified
        self.limit = 1 if stratified else (0 if solver.models == 0 else solver.models + 1)
        self.show_limit = solver.models
        self.lookahead = solver.lookahead
        self.strings: dict[Symbol, list] = {}  # shown symbol of the current answer -> [text, generation]
        self.generation = 0  # solves read by _update_answer
        self.current: bool | None = None  # whether the previous step left a single answer stream
        self.current_sorted: list[str] = []  # ... as sorted text
        self.collect_at = _COLLECT_MIN  # collect unused atom ids when the index holds more than this

    # ------------------------------------------------------------------------------ moving
    def _move(self, t: int) -> None:
        idx = self.index
        idx.advance(t)
        self.changed_now = {}
        if self.now_sigs:
            i = idx.range(t, t)
            new = {x for j in i for x in idx.unique(j) if idx.sigs[x] in self.now_sigs}
            for x in new - self.now_ids:
                self.changed_now[x] = True
            for x in self.now_ids - new:
                self.changed_now[x] = False
            self.now_ids = new
        for s in self.states:
            s.move(t)
        # forget cached stream ids no window will look at again
        if self.t is not None and t > self.t:
            oldest = min([s.oldest_time_index() for s in self.states] + [idx.upto(t - 1)])
            idx.forget_before(oldest)
            for s in self.states:
                if s.seq is not None:
                    s.seq.forget_before(oldest)
        if self.t is None or t // 64 != self.t // 64:
            for s in self.states:
                s.compact()

    # ------------------------------------------------------------------------------ epochs
    def _needs_time(self) -> bool:
        return self.enc.temporal

    def _build_epoch(self, t: int) -> _Epoch:
        """A fresh Control whose externals cover what the windows can see from t on.

        The domains of the ``#external`` declarations (``Encoding.interface``) come from the
        grounding-time function ``@lars_domain``; the literals are then looked up once."""
        enc, idx = self.enc, self.index
        solver = self.solver
        temporal = self._needs_time()
        tb = t + solver.epoch_span - 1 if temporal else None
        # which stream time points to declare: what the windows hold now, plus a look-ahead (which
        # grows while new atoms keep forcing new epochs), plus what the previous epoch declared
        # while that stays small (a bounded set of distinct atoms then needs no further epoch)
        if self.epoch is not None and self.epoch.tb is None:
            self.lookahead = min(self.lookahead * 2, 256)
        first = idx.upto(t)
        if temporal:
            idx.read_ahead(tb - t, tb)  # type: ignore[operator]
        else:
            idx.read_ahead(max(0, first + self.lookahead - len(idx.times)))
        ahead = idx.range(t + 1, tb) if tb is not None else range(first, min(len(idx.times), first + self.lookahead))
        ahead_ids: set[int] = set()
        budget = min(_AHEAD_ATOMS, max(_AHEAD_MIN, len(self.now_ids) + sum(len(st.dia) for st in self.states)))
        pairs = 0
        for n, i in enumerate(ahead):
            atoms_i = idx.unique(i)
            ahead_ids.update(atoms_i)
            pairs += len(atoms_i)
            if (pairs > _AHEAD_ATOMS_TEMPORAL) if temporal else (len(ahead_ids) > budget):
                ahead = range(ahead.start, ahead.start + n + 1)
                if temporal:  # a shorter epoch: fewer (atom, time) pairs in the ground program
                    tb = max(t, idx.times[i])
                break
        previous = self.epoch.ids if self.epoch is not None else {}
        keys: list[tuple] = []
        domains: dict[tuple, list[Symbol]] = {}
        declared: dict[tuple, set[int]] = {}

        def declare(key: tuple, domain: tuple, value: Symbol) -> None:
            keys.append(key)
            domains.setdefault(domain, []).append(value)

        def carried(kind: str, k: int | None, now: set[int]) -> set[int]:
            hits = idx.hits
            old = {x for x in previous.get((kind, k), ()) if hits[x] > 1}
            out = now | old if len(old) <= 2 * len(now) + _CARRY else now
            declared[(kind, k)] = out
            return out

        if self.term_ids is not None:
            # give new terms their ids in arrival order (atom ids are): freed ids are reused first
            # in first out, so a term then tends to take the id of the term that held its place
            # in an earlier time point, and the atoms over it that term's clingo symbols
            for x in sorted(ahead_ids):
                idx.symbol(x)
        for x in carried(NOW, None, self.now_ids | {x for x in ahead_ids if idx.sigs[x] in self.now_sigs}):
            declare((NOW, None, x), ("now",), idx.symbol(x))
        for st in self.states:
            k = st.k
            if st.counted:
                ids = carried(DIA, k, set(st.dia) | {x for x in ahead_ids if idx.sigs[x] in st.counted})
                for x in ids:
                    kinds = st.routes.get(idx.sigs[x], ())
                    if DIA in kinds:
                        declare((DIA, k, x), ("dia", k), idx.symbol(x))
                    if BOX in kinds:
                        declare((BOX, k, x), ("box", k), idx.symbol(x))
            if st.paired:
                at_pairs = set(st.at)
                if temporal:
                    for i in ahead:
                        u = idx.times[i]
                        at_pairs.update((x, u) for x in idx.unique(i) if idx.sigs[x] in st.paired)
                for x, u in at_pairs:
                    declare((AT, k, x, u), ("at", k), Tuple_([idx.symbol(x), Number(u)]))
            if IN in st.flags:
                for u in range(min(st.earliest_needed(t), t), tb + 1):  # type: ignore[operator]
                    declare((IN, k, u), ("in", k), Number(u))
        if temporal:
            for u in range(t, tb + 1):  # type: ignore[operator]
                if enc.uses_now_t:
                    declare(("now_t", u), ("now_t",), Number(u))
                if enc.uses_tl:
                    declare(("tlx", u), ("tlx",), Number(u))
        ctl = self._ground(enc.interface, domains, t)
        atoms = ctl.symbolic_atoms
        lits = _lookup_literals(atoms, keys, idx)
        for st in self.states:
            for flag, name in ((NONEMPTY, "lars_nonempty"), (HAS_NOW, "lars_has_now")):
                if flag in st.flags:
                    lits[(flag, st.k)] = atoms[SymFunction(name, [Number(st.k)])].literal  # type: ignore[union-attr]
        for j in range(len(enc.clocks)):
            lits[(CLOCK, j)] = atoms[SymFunction("lars_clock", [Number(j)])].literal  # type: ignore[union-attr]
        solver.epochs += 1
        epoch = _Epoch(ctl, lits, declared, t, tb)
        self._assign_all(epoch, t)
        return epoch

    def _ground(self, interface: str, domains: dict[tuple, list[Symbol]], t: int) -> Control:
        """A Control with the encoding and ``interface`` grounded, ``@lars_domain`` answering from
        ``domains`` (AspError with clingo's messages if clingo refuses the program)."""
        enc = self.enc
        messages: list[str] = []
        ctl = Control(
            ["--models=%d" % self.limit] + ([] if enc.stratified else ["--project=show"]),
            logger=lambda code, msg: messages.append(msg),
            message_limit=20,
        )
        try:
            ctl.add("base", [], enc.text + interface)
            with interruption.running(ctl):
                ctl.ground([("base", [])], context=_Context(self.solver.functions, domains, epoch=(self.tmin, t)))
        except RuntimeError as err:
            detail = "; ".join(m.strip().replace("\n", " ") for m in messages) or str(err)
            raise AspError(f"clingo cannot ground the encoded program: {detail}") from None
        return ctl

    def true_keys(self, t: int, ta: int, epoch: _Epoch | None) -> list[tuple]:
        """The inputs true at reference time t, as solver keys (the windows have moved to t). ``ta``:
        the first time of the epoch's time domain (``lars_tlx``); ``epoch``: the epoch whose declared
        atoms make ``□`` true over an empty timeline (none without one)."""
        idx_true: list[tuple] = [(NOW, None, x) for x in self.now_ids]
        for s in self.states:
            k = s.k
            if s.want_dia:
                idx_true += [(DIA, k, x) for x in s.dia]
            if s.want_box:
                if s.box is None:
                    if epoch is not None:
                        idx_true += [key for key in epoch.lits if key[0] == BOX and key[1] == k]
                else:
                    idx_true += [(BOX, k, x) for x in s.box]
            idx_true += [(AT, k, x, u) for x, u in s.at]
            if IN in s.flags:
                idx_true += [(IN, k, u) for u in range(s.lo, s.hi + 1)]
            if NONEMPTY in s.flags and s.nonempty():
                idx_true.append((NONEMPTY, k))
            if HAS_NOW in s.flags and s.has_now():
                idx_true.append((HAS_NOW, k))
        idx_true += [(CLOCK, j) for j in self._clocks_true(t)]
        if self._needs_time():
            idx_true.append(("now_t", t))
            idx_true += [("tlx", u) for u in range(ta, t + 1)]
        return idx_true

    def _assign_all(self, epoch: _Epoch, t: int) -> None:
        """Give every external of a new epoch its value at t (they start false)."""
        lits = epoch.lits
        true = [lit for lit in map(lits.get, self.true_keys(t, epoch.ta, epoch)) if lit is not None]
        assign = epoch.ctl.assign_external
        for lit in true:
            assign(lit, True)
        epoch.assigned.update(dict.fromkeys(true, True))

    def _changes(self, t: int, prev_t: int | None) -> list[tuple[tuple, bool]]:
        out: list[tuple[tuple, bool]] = [((NOW, None, x), v) for x, v in self.changed_now.items()]
        for s in self.states:
            k = s.k
            if s.want_dia:
                out += [((DIA, k, x), v) for x, v in s.changed_dia.items()]
            if s.want_box:
                if s.box_reset:
                    out += [(key, s.box is None or key[2] in s.box) for key in self.epoch.lits if key[0] == BOX and key[1] == k]  # type: ignore[union-attr]
                    if s.box is not None:
                        out += [((BOX, k, x), True) for x in s.box]
                else:
                    out += [((BOX, k, x), v) for x, v in s.changed_box.items()]
            out += [((AT, k) + key, v) for key, v in s.changed_at.items()]
        return out

    def _flag_changes(self, epoch: _Epoch, t: int) -> list[tuple[tuple, bool]]:
        """Window flags and time externals: compare with what the epoch holds."""
        out: list[tuple[tuple, bool]] = []
        for s in self.states:
            k = s.k
            if IN in s.flags:
                want = range(s.lo, s.hi + 1)
                prev = getattr(s, "_in_assigned", range(0))
                if want != prev:
                    for a, b in interval_difference(prev.start, prev.stop - 1, want.start, want.stop - 1):
                        out += [((IN, k, u), False) for u in range(a, b + 1)]
                    for a, b in interval_difference(want.start, want.stop - 1, prev.start, prev.stop - 1):
                        out += [((IN, k, u), True) for u in range(a, b + 1)]
                    s._in_assigned = want  # type: ignore[attr-defined]
            if NONEMPTY in s.flags:
                out.append(((NONEMPTY, k), s.nonempty()))
            if HAS_NOW in s.flags:
                out.append(((HAS_NOW, k), s.has_now()))
        if self.enc.clocks:
            true = set(self._clocks_true(t))
            out += [((CLOCK, j), j in true) for j in range(len(self.enc.clocks))]
        if epoch.tb is not None:
            prev = self.t
            if prev is not None and prev != t:
                out.append((("now_t", prev), False))
            out.append((("now_t", t), True))
            for u in range(epoch.ta, epoch.tb + 1):
                if (prev is None) or (min(prev, t) < u <= max(prev, t)):
                    out.append((("tlx", u), u <= t))
        return out

    def _apply(self, epoch: _Epoch, changes: list[tuple[tuple, bool]]) -> bool | None:
        """Assign the changes; ``None`` if a true external is outside the epoch's domain."""
        lits, assigned = epoch.lits, epoch.assigned
        on: list[int] = []
        off: list[int] = []
        for key, value in changes:
            lit = lits.get(key)
            if lit is None:
                if value:
                    return None
                continue
            if assigned.get(lit, False) != value:
                (on if value else off).append(lit)
                assigned[lit] = value
        # the last value of a literal counts (a change list may name a literal twice)
        on = [lit for lit in on if assigned[lit]]
        off = [lit for lit in off if not assigned[lit]]
        assign = epoch.ctl.assign_external
        for lit in off:
            assign(lit, False)
        for lit in on:
            assign(lit, True)
        return bool(on or off)

    def _step_fixed(self, t: int) -> Step:
        """Programs with aggregates: the inputs true at t as facts of a ground program of their own.

        clingo grounds an assignment aggregate over atoms that are not fixed by enumerating every
        value it could take — every subset sum of its elements, and for a rule with several of
        them (the limbs of an exact SUM) every combination: with externals that grows
        exponentially with the window. With facts, the grounder evaluates the (stratified)
        aggregates at once. The ground program is rebuilt only when the inputs changed."""
        self._move(t)
        self.t = t
        keys = self.true_keys(t, t, None)
        inputs = frozenset(keys)
        if self.solver.reuse and self.previous is not None and inputs == self.previous_inputs:
            step = _same_again(t, self.previous)
        else:
            domains: dict[tuple, list[Symbol]] = {}
            for key in keys:
                domain, value = _domain_entry(key, self.index)
                domains.setdefault(domain, []).append(value)
            ctl = self._ground(self.enc.fact_interface, domains, t)
            self.solver.epochs += 1
            step = self._solve(_Epoch(ctl, {}, {}, t, t if self._needs_time() else None), t)
        self.previous, self.previous_inputs = step, inputs
        self._maybe_collect()
        return step

    def _clocks_true(self, t: int) -> list[int]:
        """The clock conditions (``asp.encode``) that hold at reference time t."""
        functions = self.solver.functions
        value = Integer(t)
        return [j for j, (name, comparisons) in enumerate(self.enc.clocks)
                if all(comparison_holds(c, {name: value}, functions) for c in comparisons)]

    # ------------------------------------------------------------------------------ solving
    def step(self, t: int) -> Step:
        if self.enc.fixed_inputs:
            return self._step_fixed(t)
        prev_t = self.t
        self._move(t)
        epoch = self.epoch
        fresh = False
        if epoch is None or t < epoch.ta or (epoch.tb is not None and t > epoch.tb):
            epoch = None
        changed: bool | None = False
        if epoch is not None:
            changed = self._apply(epoch, self._changes(t, prev_t))
            if changed is not None:
                flags = self._flag_changes(epoch, t)
                more = self._apply(epoch, flags)
                changed = None if more is None else (changed or more)
        if epoch is None or changed is None:
            for s in self.states:
                if hasattr(s, "_in_assigned"):
                    del s._in_assigned
            self.t = None
            epoch = self.epoch = self._build_epoch(t)
            self._flag_changes(epoch, t)  # records the IN ranges; values were set by _assign_all
            fresh = True
        self.t = t
        if self.solver.reuse and not fresh and not changed and self.previous is not None:
            step = _same_again(t, self.previous)
        else:
            step = self._solve(epoch, t)
        self.previous = step
        self._maybe_collect()
        return step

    def _maybe_collect(self) -> None:
        """Forget the atoms nothing refers to any more (``StreamIndex.collect``) once the index has
        doubled since the last time: memory follows the windows and the epoch, not the stream."""
        idx = self.index
        if len(idx.atoms) <= self.collect_at:
            return
        live = set(idx.loaded_ids()) | self.now_ids
        for s in self.states:
            s.compact()
            live.update(s.dia)
            live.update(s.added)
            live.update(s.removed)
            if s.box:
                live.update(s.box)
            live.update(x for x, _ in s.at)
            live.update(x for x, _ in s.pairs)
            if s.seq is not None:
                for seq_ids, _ in s.seq._entries.values():
                    live.update(seq_ids)
        epoch = self.epoch
        if epoch is not None:
            for ids in epoch.ids.values():
                live.update(ids)
            live.update(key[2] for key in epoch.lits if key[0] in (NOW, DIA, BOX, AT))
        idx.collect(live)
        self.collect_at = max(_COLLECT_MIN, _COLLECT_FACTOR * len(idx.atoms))

    def _render(self, symbol: Symbol) -> str:
        """The text of a shown symbol, as ``lars.printer.format_atom`` prints it."""
        if self.term_ids is not None:
            return self.term_ids.render(symbol)
        got = str(symbol)
        if "\t" in got:  # clingo prints a tab raw; lars.printer.format_atom writes \t
            got = got.replace("\t", "\\t")
        return got

    def _solve(self, epoch: _Epoch, t: int) -> Step:
        """Solve and read the answer streams at t.

        A stratified program has at most one answer stream. Its shown atoms are read as symbols
        (``Model.symbols(shown=True)``) and looked up among the previous answer's (one hash and
        one comparison per atom, ``_update_answer``): only the atoms that became true are turned
        into text, and the sorted answer is updated by
        dropping the atoms that stopped holding and merging the new ones (Timsort merges the two
        sorted runs in linear time) instead of re-reading, re-printing and re-sorting every atom at
        every time point. Other programs enumerate up to ``models + 1`` models."""
        self.solver.solves += 1
        if self.limit == 1:
            got: list = []
            with interruption.running(epoch.ctl):
                result = epoch.ctl.solve(on_model=lambda m: got.append(m.symbols(shown=True)))
            _complete(result)
            if not got:
                self._forget_answer()
                return Step(t, [], delta=None)
            return self._update_answer(t, got[0])
        self._forget_answer()
        found: list[tuple[str, ...]] = []
        seen: set[tuple[str, ...]] = set()
        texts: dict[Symbol, str] = {}
        render = self._render

        def text(symbol: Symbol) -> str:
            got = texts.get(symbol)
            if got is None:
                got = texts[symbol] = render(symbol)
            return got

        def on_model(model: Model) -> None:
            answer = tuple(sorted(map(text, model.symbols(shown=True))))
            if answer not in seen:
                seen.add(answer)
                found.append(answer)

        with interruption.running(epoch.ctl):
            result = epoch.ctl.solve(on_model=on_model)
        _complete(result)
        found.sort()
        limit = self.show_limit
        if limit and len(found) > limit:
            return Step(t, found[:limit], True)
        return Step(t, found)

    def _forget_answer(self) -> None:
        self.current = None
        self.current_sorted = []
        self.strings.clear()

    def _update_answer(self, t: int, symbols: Sequence[Symbol]) -> Step:
        """The single answer stream at t from the model's shown symbols. ``self.strings`` holds the
        previous answer's symbols with their text and the generation that last saw them: a symbol
        found there is marked with this generation (no text, no second hash); the entries left
        with an older generation are the atoms that stopped holding."""
        entries = self.strings
        render = self._render
        self.generation += 1
        generation = self.generation
        if self.current is None:
            entries.clear()
            for s in symbols:
                entries[s] = [render(s), generation]
            answer = sorted(e[0] for e in entries.values())
            self.current, self.current_sorted = True, answer
            return Step(t, [tuple(answer)], delta=None)
        get = entries.get
        added: list[Symbol] = []
        for s in symbols:
            entry = get(s)
            if entry is None:
                added.append(s)
            else:
                entry[1] = generation
        removed = [s for s, e in entries.items() if e[1] != generation] if len(symbols) - len(added) < len(entries) else []
        if not added and not removed:
            answer = self.current_sorted
            return Step(t, [tuple(answer)], delta=((), ()))
        gone = sorted(entries.pop(s)[0] for s in removed)
        fresh_texts = []
        for s in added:
            text = render(s)
            entries[s] = [text, generation]
            fresh_texts.append(text)
        fresh = sorted(fresh_texts)
        answer = self.current_sorted
        if gone:
            drop = set(gone)
            answer = [a for a in answer if a not in drop]
        else:
            answer = list(answer)
        if fresh:
            answer += fresh
            answer.sort()  # two sorted runs: one linear merge
        self.current_sorted = answer
        return Step(t, [tuple(answer)], delta=(tuple(fresh), tuple(gone)))
