"""LARS program → non-ground ASP program for clingo (``docs/asp-encoding.md``).

The encoding is *time-free* wherever the program allows it: the ground program does not grow
with the stream. What changes from one reference time t to the next reaches the solver as
truth values of external atoms that Python computes from the window contents (``asp.windows``):

==========================  ===========================================================
external                    true at reference time t iff
==========================  ===========================================================
``lars_now(A)``             stream atom A is in υ(t)
``lars_dia(K,A)``           stream atom A is in window K (``⊞^K ◇A`` over the stream)
``lars_box(K,A)``           A is in window K at every point of its timeline (``⊞^K □A``)
``lars_at(K,A,T)``          A is in window K at time T (``⊞^K @_T A``; K = ⊞^∞ for ``@_T A``)
``lars_in(K,T)``            T is a point of window K's timeline
``lars_nonempty(K)``        window K's timeline is not empty
``lars_has_now(K)``         t is a point of window K's timeline
``lars_now_t(T)``           T = t
``lars_tlx(T)``             T ≤ t (for T of the current epoch's time domain)
``lars_clock(J)``           clock condition J holds for T = t (see below)
==========================  ===========================================================

Intensional atoms (Dao-Tran, Beck, Eiter 2015, §2.3: defined by a rule head; facts included) are plain ASP atoms
``p(X)`` meaning "p(X) holds at t". D10: windows and @ over intensional atoms see the atoms the
evaluation at t puts at t, at T via @-heads (``lars_hat(A,T)``), the program's facts at every
point (``lars_fact(A)``), and stream atoms when the predicate also occurs in the stream
(``lars_der(A)`` is then the derived-only part). Rules apply at t only; an @-head whose time lies
outside the timeline ``[tmin, t]`` makes the rule a constraint (as in ``lars.reference``).

*Clock conditions.* A body literal ``⊞^0 @_T true`` binds T to the reference time t. When T occurs
nowhere else in the rule but in comparisons over T alone (the pull trigger of Dao-Tran, Beck, Eiter 2015, §4.1,
``trigger ← ⊞^0 @_T true, T mod U = 0``), the literal and those comparisons become one 0-ary
external ``lars_clock(J)`` that the solver sets per reference time by evaluating the comparisons
with T = t (``lars.reference.comparison_holds``), so no time point enters the ground program.

Each rule is emitted once; no rule is unrolled per tick of a window. Time points appear in the
ground program only for programs that need them (@ with a time variable, ``@``-heads, windows over
intensional atoms or ``true``): ``StreamSolver`` then grounds per *epoch* of time points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asp.symbols import asp_atom, asp_term, check_name
from lars.errors import UnsupportedError
from lars.model import (
    ALL,
    AggregateAssignment,
    Arith,
    At,
    Atom,
    Box,
    Call,
    Comparison,
    Diamond,
    Function,
    Literal,
    PartitionWindow,
    Program,
    Rule,
    TRUE,
    Term,
    TimeWindow,
    TupleWindow,
    Variable,
    WindowAt,
)

Signature = tuple[str, int]
WindowKey = tuple  # normalised window: ("time", l, u, d) | ("tuple", n) | ("partition", n, key)

# kinds of stream-fed externals (see the module table)
NOW, DIA, BOX, AT = "now", "dia", "box", "at"
# window flags
IN, NONEMPTY, HAS_NOW = "in", "nonempty", "has_now"
# clock conditions (``lars_clock(J)``)
CLOCK = "clock"


def window_key(window: TimeWindow | TupleWindow | PartitionWindow) -> WindowKey:
    """Windows that select the same substream share one index (the unit is presentation only)."""
    if isinstance(window, TimeWindow):
        return ("time", window.l, window.u, window.d)
    if isinstance(window, TupleWindow):
        return ("tuple", window.n)
    if isinstance(window, PartitionWindow):
        return ("partition", window.n, window.key)
    raise TypeError(f"not a window: {window!r}")


@dataclass
class Encoding:
    """The ASP program for a LARS program, and what the solver must feed it."""

    text: str
    #: ``#external`` declarations whose domains the solver supplies per epoch (``@lars_domain``)
    interface: str
    windows: list[TimeWindow | TupleWindow | PartitionWindow]
    #: signature -> set of (kind, window index or None for NOW) the stream atoms feed
    routes: dict[Signature, set[tuple[str, int | None]]]
    #: window index -> flags (IN, NONEMPTY, HAS_NOW) the encoding reads
    flags: dict[int, set[str]]
    uses_now_t: bool
    uses_tl: bool
    shown: frozenset[Signature]
    stratified: bool
    functions: frozenset[str]
    #: clock conditions: J -> (the variable T, the comparisons over T that must hold for T = t)
    clocks: tuple[tuple[str, tuple[Comparison, ...]], ...] = ()
    #: the same inputs as rules with the domain as their only instances: for programs whose
    #: inputs are given as facts per reference time (``fixed_inputs``)
    fact_interface: str = ""
    #: the program has aggregates: the solver gives it its inputs as facts, one ground program per
    #: reference time (docs/asp-encoding.md §5, aggregates)
    fixed_inputs: bool = False

    @property
    def temporal(self) -> bool:
        """Does the ground program contain time points (then it is grounded per epoch)?"""
        return (
            self.uses_now_t
            or self.uses_tl
            or any(IN in f for f in self.flags.values())
            or any(kind == AT for kinds in self.routes.values() for kind, _ in kinds)
        )


@dataclass
class _Needs:
    """What the rules translated so far need (filled while translating bodies)."""

    idia: set[tuple[int, Signature]] = field(default_factory=set)
    ibox: set[tuple[int, Signature]] = field(default_factory=set)
    iat: set[tuple[int, Signature]] = field(default_factory=set)
    fact_sigs: set[Signature] = field(default_factory=set)  # lars_fact/1 needed
    mixed_now: set[Signature] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)


def _is_stratified(program: Program) -> bool:
    from lars.reference import strata

    try:
        strata(program)
    except UnsupportedError:
        return False
    return True


def _generic(sig: Signature) -> str:
    """``p(X1,…,Xn)`` for a signature: the pattern of the per-signature auxiliary rules."""
    name, arity = sig
    return name if arity == 0 else f"{name}({','.join(f'X{i}' for i in range(1, arity + 1))})"


class _Encoder:
    def __init__(self, program: Program, stream_signatures: frozenset[Signature] | None) -> None:
        self.program = program
        self.intensional = program.intensional()
        self.stream_sigs = stream_signatures
        self.at_heads: set[Signature] = {r.head.atom.signature for r in program.rules if isinstance(r.head, At)}
        self.fact_sigs: set[Signature] = {r.head.signature for r in program.rules if r.is_fact}  # type: ignore[union-attr]
        self.windows: list = []
        self.window_index: dict[WindowKey, int] = {}
        self.routes: dict[Signature, set[tuple[str, int | None]]] = {}
        self.flags: dict[int, set[str]] = {}
        self.uses_now_t = False
        self.uses_tl = False
        self.clocks: list[tuple[str, tuple[Comparison, ...]]] = []
        self.needs = _Needs()
        self.out: list[str] = []

    # ----------------------------------------------------------------------------- helpers
    def mixed(self, sig: Signature) -> bool:
        """Intensional and (possibly) in the stream: holds where either puts it."""
        return sig in self.intensional and (self.stream_sigs is None or sig in self.stream_sigs)

    def window(self, window) -> int:
        key = window_key(window)
        if key not in self.window_index:
            self.window_index[key] = len(self.windows)
            self.windows.append(window)
        return self.window_index[key]

    def route(self, sig: Signature, kind: str, k: int | None) -> None:
        self.routes.setdefault(sig, set()).add((kind, k))

    def flag(self, k: int, name: str) -> None:
        self.flags.setdefault(k, set()).add(name)

    def derived(self, text: str, sig: Signature) -> str:
        """The atom that is "derived at t" (without the stream part of a mixed predicate)."""
        return f"lars_der({text})" if self.mixed(sig) else text

    def check_term(self, term: Term) -> None:
        if isinstance(term, (Function, Call)):
            if isinstance(term, Call):
                self.needs.functions.add(term.name)
            else:
                check_name(term.name, "function")
            for a in term.args:
                self.check_term(a)
        elif isinstance(term, Arith):
            self.check_term(term.left)
            self.check_term(term.right)

    def check_atom(self, atom: Atom) -> None:
        check_name(atom.predicate, "predicate")
        for a in atom.args:
            self.check_term(a)

    # ----------------------------------------------------------------------------- bodies
    def literal(self, lit: Literal) -> str | None:
        """One body literal in ASP (``None``: always true, dropped)."""
        pos = self.positive(lit.atom)
        if lit.negated:
            if pos is None:
                return "#false"
            if isinstance(lit.atom, Box):  # □ holds on an empty window, so ¬□ needs a non-empty one
                k = self.window(lit.atom.window)
                self.flag(k, NONEMPTY)
                return f"not {pos}, lars_nonempty({k})"
            return f"not {pos}"
        return pos

    def positive(self, ext) -> str | None:
        atom: Atom = ext if isinstance(ext, Atom) else ext.atom
        self.check_atom(atom)
        sig, text, is_true = atom.signature, asp_atom(atom), atom == TRUE
        intensional = sig in self.intensional
        if isinstance(ext, Atom):
            if is_true:
                return None
            if intensional:
                if self.mixed(sig):
                    self.needs.mixed_now.add(sig)
                return text
            self.route(sig, NOW, None)
            return f"lars_now({text})"
        if isinstance(ext, (At, WindowAt)):
            k = self.window(ALL if isinstance(ext, At) else ext.window)
            self.check_term(ext.time)
            time = asp_term(ext.time)
            if is_true:
                self.flag(k, IN)
                return f"lars_in({k},{time})"
            if intensional:
                self.needs.iat.add((k, sig))
                return f"lars_iat({k},{text},{time})"
            self.route(sig, AT, k)
            return f"lars_at({k},{text},{time})"
        k = self.window(ext.window)
        if isinstance(ext, Diamond):
            if is_true:
                self.flag(k, NONEMPTY)
                return f"lars_nonempty({k})"
            if intensional:
                self.needs.idia.add((k, sig))
                return f"lars_idia({k},{text})"
            self.route(sig, DIA, k)
            return f"lars_dia({k},{text})"
        if isinstance(ext, Box):
            if is_true:
                return None
            if intensional:
                self.needs.ibox.add((k, sig))
                return f"lars_ibox({k},{text})"
            self.route(sig, BOX, k)
            return f"lars_box({k},{text})"
        raise TypeError(f"not an extended atom: {ext!r}")

    def bodies(self, rule: Rule, clock: "tuple[Literal, str, tuple[Comparison, ...]] | None" = None) -> list[list[str]]:
        """The rule's body in ASP; several variants when it has positive □ literals: every □
        holds on an empty window whatever its atom, so a copy of the rule has ``not
        lars_nonempty(K)`` in place of the □ literal (when the rest of the body binds the □
        atom's variables; otherwise only the atoms the stream has are candidates)."""
        fixed: list[str] = []
        boxes: list[tuple[str, str]] = []
        if clock is not None:
            literal, variable, comparisons = clock
            fixed.append(f"lars_clock({len(self.clocks)})")
            self.clocks.append((variable, comparisons))
        for element in rule.body:
            if clock is not None and (element is literal or any(element is c for c in comparisons)):
                continue
            if isinstance(element, AggregateAssignment):
                fixed.extend(self.aggregate(element))
                continue
            if isinstance(element, Comparison):
                self.check_term(element.left)
                self.check_term(element.right)
                fixed.append(_comparison_text(element))
                continue
            text = self.literal(element)
            if text is None:
                continue
            ext = element.atom
            if isinstance(ext, Box) and not element.negated:
                others = Rule(rule.head, tuple(b for b in rule.body if b is not element))
                if _atom_variables(ext.atom) <= _binding_variables(others):
                    k = self.window(ext.window)
                    self.flag(k, NONEMPTY)
                    boxes.append((text, f"not lars_nonempty({k})"))
                    continue
            fixed.append(text)
        variants = [fixed]
        for text, empty in boxes:
            variants = [v + [text] for v in variants] + [v + [empty] for v in variants]
        return variants

    def aggregate(self, agg: AggregateAssignment) -> list[str]:
        """``left op #f{ terms : condition; … }`` as clingo writes it; the condition's atoms are
        encoded as plain body atoms (at t). An assignment from ``#min``/``#max`` gets the guard
        ``V < #sup`` / ``V > #inf``: the empty set assigns nothing (as in ``lars.reference``).
        clingo has no external aggregate (``#@name{…}``): refused, by name."""
        if agg.function[0] == "@":
            raise UnsupportedError(f"the external aggregate #{agg.function}", "asp engine",
                                   "clingo has none: use the incremental engine, or the translator's portable encoding")
        self.check_term(agg.left)
        elements = []
        for e in agg.elements:
            for term in e.terms:
                self.check_term(term)
            conds = []
            for c in e.condition:
                if isinstance(c, Comparison):
                    self.check_term(c.left)
                    self.check_term(c.right)
                    conds.append(_comparison_text(c))
                else:
                    text = self.literal(c)
                    if text is not None:
                        conds.append(text)
            terms = ",".join(asp_term(t) for t in e.terms)
            elements.append(f"{terms}: {', '.join(conds)}" if conds else terms)
        left = asp_term(agg.left)
        out = [f"{left}{agg.op}#{agg.function}{{{'; '.join(elements)}}}"]
        if agg.op == "=" and isinstance(agg.left, Variable) and agg.function in ("min", "max"):
            out.append(f"{left}<#sup" if agg.function == "min" else f"{left}>#inf")
        return out

    # ----------------------------------------------------------------------------- rules
    def rule(self, index: int, rule: Rule) -> None:
        clock = _clock_condition(rule)
        bodies = self.bodies(rule, clock)
        head = rule.head
        if head is None:
            for body in bodies:
                self.emit("", body)
        elif isinstance(head, Atom):
            self.check_atom(head)
            text = self.derived(asp_atom(head), head.signature)
            if rule.is_fact:
                self.emit(text, [])
                self.out.append(f"lars_fact({asp_atom(head)}).")
            else:
                for body in bodies:
                    self.emit(text, body)
        else:  # @_T head: the rule puts the atom at T, which must lie in the timeline [tmin, t]
            self.check_atom(head.atom)
            self.check_term(head.time)
            self.uses_tl = True
            names = sorted(_rule_variables(rule) - ({clock[1]} if clock else set()))
            aux = f"lars_b{index}" + (f"({','.join(names)})" if names else "")
            time = asp_term(head.time)
            for body in bodies:
                self.emit(aux, body)
            self.out.append(f"lars_hat({asp_atom(head.atom)},{time}) :- {aux}, lars_tl({time}).")
            self.out.append(f":- {aux}, not lars_tl({time}).")
            self.out.append(f"lars_tl({time}) :- {aux}, lars_epoch(Lo,Hi), Lo<={time}, {time}<Hi.")

    def emit(self, head: str, body: list[str]) -> None:
        if not body:
            self.out.append(f"{head}." if head else ":- .")
        else:
            self.out.append(f"{head} :- {', '.join(body)}." if head else f":- {', '.join(body)}.")

    # ----------------------------------------------------------------------------- auxiliaries
    def auxiliaries(self) -> list[str]:
        """Per-signature rules for @-heads, mixed predicates and windows over intensional atoms."""
        out: list[str] = []
        needs = self.needs
        # iat is also the basis of ibox
        for k, sig in sorted(needs.ibox):
            needs.iat.add((k, sig))
        for sig in sorted(self.at_heads):
            g = _generic(sig)
            self.uses_now_t = True
            out.append(f"{self.derived(g, sig)} :- lars_hat({g},T), lars_now_t(T).")
        if self.uses_tl:
            out.append("lars_tl(T) :- lars_tlx(T).")
        mixed = {s for s in self.intensional if self.mixed(s)}
        for sig in sorted(mixed):
            g = _generic(sig)
            self.route(sig, NOW, None)
            out.append(f"{g} :- lars_der({g}).")
            out.append(f"{g} :- lars_now({g}).")
        for k, sig in sorted(needs.idia):
            g = _generic(sig)
            head = f"lars_idia({k},{g})"
            if sig in mixed:
                self.route(sig, DIA, k)
                out.append(f"{head} :- lars_dia({k},{g}).")
            if sig in self.fact_sigs:
                self.flag(k, NONEMPTY)
                out.append(f"{head} :- lars_fact({g}), lars_nonempty({k}).")
            self.flag(k, HAS_NOW)
            out.append(f"{head} :- {self.derived(g, sig)}, lars_has_now({k}).")
            if sig in self.at_heads:
                self.flag(k, IN)
                out.append(f"{head} :- lars_hat({g},T), lars_in({k},T).")
        for k, sig in sorted(needs.iat):
            g = _generic(sig)
            head = f"lars_iat({k},{g},T)"
            self.flag(k, IN)
            if sig in mixed:
                self.route(sig, AT, k)
                out.append(f"{head} :- lars_at({k},{g},T).")
            if sig in self.fact_sigs:
                out.append(f"{head} :- lars_fact({g}), lars_in({k},T).")
            self.uses_now_t = True
            out.append(f"{head} :- {self.derived(g, sig)}, lars_now_t(T), lars_in({k},T).")
            if sig in self.at_heads:
                out.append(f"{head} :- lars_hat({g},T), lars_in({k},T).")
        for k, sig in sorted(needs.ibox):
            g = _generic(sig)
            if sig in self.fact_sigs:
                out.append(f"lars_ibox({k},{g}) :- lars_fact({g}).")
            out.append(f"lars_icand({k},{g}) :- lars_iat({k},{g},_).")
            out.append(f"lars_ibox({k},{g}) :- lars_icand({k},{g}); lars_iat({k},{g},T) : lars_in({k},T).")
        return out

    def interface(self, facts: bool = False) -> str:
        """The external atoms and the domains the solver gives them through the grounding-time
        function ``@lars_domain(kind[, window])`` (plain clingo users write facts instead).

        ``facts``: the same atoms as rules whose only instances are their domain, which the solver
        then makes exactly the atoms true at the reference time (0-ary flags: ``@lars_domain(flag,
        name)`` lists the windows or clocks whose flag is true)."""
        def declare(atom: str, domain: str = "") -> str:
            if facts:
                return f"{atom} :- {domain}." if domain else f"{atom}."
            return f"#external {atom} : {domain}." if domain else f"#external {atom}."

        def flag(name: str, k: int) -> str:
            return declare(f"lars_{name}({k})", f"{k} = @lars_domain(flag,{name})") if facts else declare(f"lars_{name}({k})")

        out = ["% " + ("input atoms (instances supplied by asp.solver per reference time)" if facts
                       else "external atoms (domains supplied by asp.solver per epoch)")]
        if any(kind == NOW for kinds in self.routes.values() for kind, _ in kinds):
            out.append(declare("lars_now(A)", "A = @lars_domain(now)"))
        for k in range(len(self.windows)):
            kinds = {kind for ks in self.routes.values() for kind, w in ks if w == k}
            if DIA in kinds:
                out.append(declare(f"lars_dia({k},A)", f"A = @lars_domain(dia,{k})"))
            if BOX in kinds:
                out.append(declare(f"lars_box({k},A)", f"A = @lars_domain(box,{k})"))
            if AT in kinds:
                out.append(declare(f"lars_at({k},A,T)", f"(A,T) = @lars_domain(at,{k})"))
            flags = self.flags.get(k, set())
            if IN in flags:
                out.append(declare(f"lars_in({k},T)", f"T = @lars_domain(in,{k})"))
            if NONEMPTY in flags:
                out.append(flag(NONEMPTY, k))
            if HAS_NOW in flags:
                out.append(flag(HAS_NOW, k))
        for j in range(len(self.clocks)):
            out.append(flag(CLOCK, j))
        if self.uses_now_t:
            out.append(declare("lars_now_t(T)", "T = @lars_domain(now_t)"))
        if self.uses_tl:
            out.append(declare("lars_tlx(T)", "T = @lars_domain(tlx)"))
            out.append("lars_epoch(Lo,Hi) :- (Lo,Hi) = @lars_domain(epoch).")
        return "\n".join(out) + "\n"

    def encode(self) -> Encoding:
        for sig in self.intensional:
            check_name(sig[0], "predicate")
        for i, r in enumerate(self.program.rules):
            self.rule(i, r)
        aux = self.auxiliaries()
        shown = frozenset(self.intensional)
        show = ["#show."] + [f"#show {n}/{a}." for n, a in sorted(shown)]
        header = [
            "% LARS program encoded for clingo by rsplars (docs/asp-encoding.md).",
            "% windows: " + "; ".join(f"{k} = {_describe(w)}" for k, w in enumerate(self.windows)),
        ]
        if self.clocks:
            header.append("% clocks (true iff the conditions hold for the reference time): " + "; ".join(
                f"lars_clock({j}) = {', '.join(_comparison_text(c) for c in comparisons) or 'true'} for {name} = t"
                for j, (name, comparisons) in enumerate(self.clocks)))
        text = "\n".join(header + ["% rules"] + self.out + ["% auxiliary rules"] + aux + show) + "\n"
        return Encoding(
            text=text,
            interface=self.interface(),
            fact_interface=self.interface(facts=True),
            fixed_inputs=any(isinstance(b, AggregateAssignment) for r in self.program.rules for b in r.body),
            windows=self.windows,
            routes=self.routes,
            flags=self.flags,
            uses_now_t=self.uses_now_t,
            uses_tl=self.uses_tl,
            shown=shown,
            stratified=_is_stratified(self.program),
            functions=frozenset(self.needs.functions),
            clocks=tuple(self.clocks),
        )


def _comparison_text(c: Comparison) -> str:
    return f"{asp_term(c.left)}{c.op}{asp_term(c.right)}"


def _describe(window) -> str:
    if isinstance(window, TimeWindow):
        l = "inf" if window.l is None else window.l
        return f"time(l={l},u={window.u},d={window.d})"
    if isinstance(window, TupleWindow):
        return f"tuple(n={window.n})"
    return f"partition(n={window.n},key={asp_atom(window.key)})"


def _clock_condition(rule: Rule) -> tuple[Literal, str, tuple[Comparison, ...]] | None:
    """``(literal, T, comparisons)`` when the rule's body has a positive ``⊞^0 @_T true`` and T
    occurs elsewhere only in comparisons whose only variable is T (module docstring, clock
    conditions); ``None`` otherwise."""
    for element in rule.body:
        if not (isinstance(element, Literal) and not element.negated and isinstance(element.atom, WindowAt)):
            continue
        ext = element.atom
        if not (ext.atom == TRUE and isinstance(ext.time, Variable) and ext.time.name != "_"
                and isinstance(ext.window, TimeWindow) and window_key(ext.window) == ("time", 0, 0, 1)):
            continue
        name = ext.time.name
        comparisons = []
        for other in rule.body:
            if other is element:
                continue
            if isinstance(other, Comparison) and _term_variables(other.left) | _term_variables(other.right) == {name}:
                comparisons.append(other)
            elif name in _element_variables(other):
                return None
        if rule.head is not None and name in _head_variables(rule.head):
            return None
        return element, name, tuple(comparisons)
    return None


def _element_variables(element) -> set[str]:
    """Every variable of a body element (literal, comparison or aggregate), wherever it occurs."""
    if isinstance(element, Comparison):
        return _term_variables(element.left) | _term_variables(element.right)
    if isinstance(element, AggregateAssignment):
        out = _term_variables(element.left)
        for e in element.elements:
            for term in e.terms:
                out |= _term_variables(term)
            for c in e.condition:
                out |= _element_variables(c)
        return out
    ext = element.atom
    atom = ext if isinstance(ext, Atom) else ext.atom
    out = _atom_variables(atom)
    if isinstance(ext, (At, WindowAt)):
        out |= _term_variables(ext.time)
    return out


def _head_variables(head) -> set[str]:
    if isinstance(head, At):
        return _atom_variables(head.atom) | _term_variables(head.time)
    return _atom_variables(head)


def _term_variables(term: Term) -> set[str]:
    if isinstance(term, Variable):
        return set() if term.name == "_" else {term.name}
    if isinstance(term, (Function, Call)):
        return set().union(set(), *(_term_variables(a) for a in term.args))
    if isinstance(term, Arith):
        return _term_variables(term.left) | _term_variables(term.right)
    return set()


def _atom_variables(atom: Atom) -> set[str]:
    return set().union(set(), *(_term_variables(a) for a in atom.args))


def _binding_variables(rule: Rule) -> set[str]:
    """Variables a rule body binds without its □ literals (positive plain, ◇, @ literals; ``=``)."""
    out: set[str] = set()
    for b in rule.body:
        if isinstance(b, AggregateAssignment):
            if b.op == "=":
                out |= _term_variables(b.left)
        elif isinstance(b, Comparison):
            if b.op == "=":
                out |= _term_variables(b.left) | _term_variables(b.right)
        elif not b.negated and not isinstance(b.atom, Box):
            ext = b.atom
            out |= _atom_variables(ext if isinstance(ext, Atom) else ext.atom)
            if isinstance(ext, (At, WindowAt)):
                out |= _term_variables(ext.time)
    return out


def _rule_variables(rule: Rule) -> set[str]:
    """Variables of positive body literals and comparisons (what an auxiliary body atom carries)."""
    out: set[str] = set()
    for b in rule.body:
        if isinstance(b, AggregateAssignment):
            out |= _term_variables(b.left)
        elif isinstance(b, Comparison):
            out |= _term_variables(b.left) | _term_variables(b.right)
        elif not b.negated:
            ext = b.atom
            atom = ext if isinstance(ext, Atom) else ext.atom
            for a in atom.args:
                out |= _term_variables(a)
            if isinstance(ext, (At, WindowAt)):
                out |= _term_variables(ext.time)
    return out


def encode(program: Program, stream_signatures: frozenset[Signature] | None = None) -> Encoding:
    """Encode ``program``; ``stream_signatures`` (the predicates the stream has) lets the encoder
    drop the stream part of intensional predicates that never occur in the stream."""
    return _Encoder(program, stream_signatures).encode()
