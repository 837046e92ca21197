"""From a parsed RSP query to the LARS program an engine runs (Dao-Tran, Beck, Eiter 2015, §3–4).

``compile_query`` chains the stages: the dialect's view of the query (``cs(Q)`` / ``cq(Q)``, §3),
the pattern algebra (:mod:`translator.translate.normalize`), τ1 or τ2 (:mod:`translator.translate.tau`, §4.3), the
result form, and the execution mode (:mod:`translator.translate.modes`, §4.1). The result names the answer
predicate and the order of its arguments, so that answers can be read back (§5: "answers are the
facts of ans_1 projected on the result variables").

Result forms: SELECT (projection, ``(expr AS ?v)``, DISTINCT/REDUCED — answers are multisets,
witnessed by hidden columns of the ``answer`` atoms: :attr:`Compiled.hidden`, D5),
CONSTRUCT (the answer holds the template's variables; the template is instantiated per answer by
:func:`translator.evaluate.run.construct_triples`), ASK (``answer`` without arguments). Aggregates — SPARQL
1.1 GROUP BY/HAVING with COUNT, SUM, AVG, MIN, MAX and C-SPARQL's AGGREGATE clauses — become
clingo aggregates over τ's ``ans1`` (:mod:`translator.translate.aggregates`; COUNT counts the
witnessed solutions, so duplicates, D5). ORDER BY, LIMIT and OFFSET are not part of the program: the
program computes each evaluation's answer relation (witnessed rows), and :attr:`Compiled.modifiers`
(:mod:`translator.translate.solution_modifiers`) orders and slices it after solving, before R2S.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Iterable, Iterator, Sequence

from lars.errors import RsplarsError, UnsupportedError
from lars.model import AggregateAssignment, Atom, Literal, Program, Rule, Variable
from lars.windows import WindowBounds
from dataclasses import dataclass
from translator.translate import algebra as A
from translator.query import model as M
from translator.translate import modes
from translator.translate.aggregating import needs_aggregation
from translator.translate.solution_modifiers import SolutionModifiers, solution_modifiers
from translator.translate.normalize import TimeBase, construct_variables, pattern_algebra, select_projection, stream_sources
from translator.translate.normalize import term as normalize_term
from translator.translate.rspql import lower_windows
from translator.translate.subqueries import with_aggregation
from translator.translate.tau import DEFAULT_GRAPH, NULL, Tau, lars_var

ANSWER = "answer"
STAGE = "translation to LARS"
STRATEGIES = ("tau1", "tau2")
MODES = ("push", "pull", "none")


class TranslationError(RsplarsError):
    """A query that cannot be translated with the options given (e.g. no pull period)."""


@dataclass(frozen=True)
class Compiled:
    """A query translated into a LARS program, with what is needed to read its answers."""

    query: M.Query
    program: Program
    variables: tuple[str, ...]
    """Result variable names, in the argument order of the ``answer`` atoms."""
    form: str
    """``select``, ``construct`` or ``ask``."""
    strategy: str
    mode: str
    period: int | None
    bounds: WindowBounds
    answer_predicate: str = ANSWER
    native: Program | None = None
    """The same program with SPARQL's SUM/AVG/MIN/MAX/SAMPLE as external aggregates
    (``translator.translate.aggregates.native_rules``), which the engines of Python evaluate
    directly (``None``: no such aggregate). ``program`` is the portable one, which clingo runs too."""
    modifiers: SolutionModifiers | None = None
    """The query's ORDER BY, LIMIT and OFFSET, applied to each evaluation's answer relation after
    solving and before R2S (``None``: it has none)."""
    hidden: tuple[str, ...] = ()
    """Names of the hidden columns that follow ``variables`` in the ``answer`` atoms: the witness
    that tells duplicate solutions apart (decision D5; :meth:`translator.rdf.bags.Bag.of_witnessed`).
    A column named after an in-scope variable of the WHERE pattern holds its value (so ORDER BY may
    read it); the names of the other columns (branch tags, blank nodes, inner witnesses) start
    with ``_``. Empty: every answer atom is one solution."""

    @property
    def width(self) -> int | None:
        """The number of visible columns of an answer atom (``None``: all of them, no witness)."""
        return len(self.variables) if self.hidden else None

    def engine_programs(self, static: Sequence[Rule] = ()) -> tuple[Program, Program | None]:
        """(the portable program, the native one or ``None``) with the static facts ``static``."""
        native = Program((*self.native.rules, *static)) if self.native is not None else None
        return Program((*self.program.rules, *static)), native


# ------------------------------------------------------------------------------------- cs and cq


def rewrite_patterns(p: M.Pattern, visit) -> M.Pattern:
    """Rebuild a pattern tree top-down: ``visit(node)`` returns a replacement for the node, or
    ``None`` to keep the node and rewrite its sub-patterns (groups, UNION, OPTIONAL, MINUS, GRAPH,
    the WHERE of a sub-query)."""
    replaced = visit(p)
    if replaced is not None:
        return replaced
    match p:
        case M.Group(parts):
            return M.Group(tuple(rewrite_patterns(x, visit) for x in parts))
        case M.Union_(left, right):
            return M.Union_(rewrite_patterns(left, visit), rewrite_patterns(right, visit))
        case M.Optional_(inner):
            return M.Optional_(rewrite_patterns(inner, visit))  # type: ignore[arg-type]
        case M.Minus(inner):
            return M.Minus(rewrite_patterns(inner, visit))  # type: ignore[arg-type]
        case M.GraphPattern(name, inner):
            return M.GraphPattern(name, rewrite_patterns(inner, visit))  # type: ignore[arg-type]
        case M.SubSelect(_, inner, _):
            return replace(p, where=rewrite_patterns(inner, visit))  # type: ignore[arg-type]
    return p


def cs(query: M.Query) -> M.Query:
    """``cs(Q)`` (Dao-Tran, Beck, Eiter 2015, §3): every stream graph pattern ``(STREAM s ω g)`` of a CQELS query
    becomes a C-SPARQL ``FROM STREAM s [ω]``, and g stays in the pattern where it was, matched
    against the default graph into which C-SPARQL merges the window contents."""
    sources: list[M.StreamSource] = list(query.dataset.streams)

    def strip(p: M.Pattern) -> M.Pattern | None:
        if not isinstance(p, M.StreamPattern):
            return None
        if not isinstance(p.stream, M.IRI):
            raise UnsupportedError("a STREAM pattern over a stream variable", "cs(Q)",
                                   "C-SPARQL names its streams in FROM STREAM")
        if all(s.iri != p.stream or s.window != p.window for s in sources):
            sources.append(M.StreamSource(p.stream, p.window, False, p.position))
        return rewrite_patterns(p.pattern, strip)

    where = rewrite_patterns(query.where, strip)
    assert isinstance(where, M.Group)
    dataset = replace(query.dataset, streams=tuple(sources))
    return replace(query, dialect="csparql", where=where, dataset=dataset)


def cq(query: M.Query, assignment: dict[int, str], cautious: Iterable[str] = ()) -> M.Query:
    """A member of ``cq(Q)`` (Dao-Tran, Beck, Eiter 2015, §3) for a C-SPARQL query: the triple patterns of the
    default graph are assigned to streams (``assignment``: index of the triple in pattern order →
    stream IRI; unassigned ones stay static), each stream's patterns become ``(STREAM s ω g_s)``
    — brave — or ``((STREAM s ω g_s) UNION g_s)`` for the streams in ``cautious``.

    The C-SPARQL text does not say which patterns a stream feeds (its ``g`` is empty), so the
    assignment is an input: :func:`assign_by_static_data` derives one.
    """
    windows = {s.iri.value: s for s in query.dataset.streams}
    if any(s.named for s in query.dataset.streams):
        raise UnsupportedError("FROM NAMED STREAM", "cq(Q)", "only streams merged into the default graph map to STREAM patterns")
    counter = iter(range(10**9))
    cautious = set(cautious)

    def rewrite(p: M.Pattern) -> M.Pattern | None:
        if isinstance(p, M.GraphPattern):
            return p  # GRAPH patterns address named graphs, never the merged streams
        if not isinstance(p, M.BGP):
            return None
        static: list[M.TriplePattern] = []
        per_stream: dict[str, list[M.TriplePattern]] = {}
        for t in p.triples:
            k = next(counter)
            if k in assignment:
                per_stream.setdefault(assignment[k], []).append(t)
            else:
                static.append(t)
        parts: list[M.Pattern] = [M.BGP(tuple(static))] if static else []
        for iri, ts in per_stream.items():
            if iri not in windows:
                raise TranslationError(f"no FROM STREAM <{iri}> for the triple patterns assigned to it")
            g = M.Group((M.BGP(tuple(ts)),))
            stream = M.StreamPattern(windows[iri].iri, windows[iri].window, g)
            parts.append(M.Union_(M.Group((stream,)), g) if iri in cautious else stream)
        return M.Group(tuple(parts)) if len(parts) != 1 else parts[0]

    where = rewrite_patterns(query.where, rewrite)
    if not isinstance(where, M.Group):
        where = M.Group((where,))
    return replace(query, dialect="cqels", where=where, dataset=replace(query.dataset, streams=()))


def default_graph_triples(query: M.Query) -> list[M.TriplePattern]:
    """The triple patterns that :func:`cq` numbers, in its order (outside GRAPH)."""
    out: list[M.TriplePattern] = []

    def walk(p: M.Pattern) -> None:
        match p:
            case M.BGP(triples):
                out.extend(triples)
            case M.GraphPattern():
                return
            case _:
                for c in M.child_patterns(p):
                    walk(c)

    walk(query.where)
    return out


# ----------------------------------------------------------------------------------- compilation


def default_strategy(query: M.Query) -> str:
    return "tau1" if query.dialect == "csparql" else "tau2"


def default_mode(query: M.Query) -> str:
    """Pull for C-SPARQL (time-driven), push for CQELS (data-driven) (Dao-Tran, Beck, Eiter 2015, §2.2, §5); pull at
    the windows' slide for RSP-QL, whose evaluation is instant-based (Dell'Aglio et al. 2014,
    Def 23: the window-close reports of its reference policy) — unless all its windows count
    triples (``[ROWS n]``), which have no slide: those are pushed, as CQELS ``[TRIPLES n]``."""
    if query.dialect == "rspql":
        kinds = {s.window.kind for s in M.stream_graph_patterns(query)}
        return "push" if kinds and kinds <= {"rows", "triples"} else "pull"
    return "pull" if query.dialect == "csparql" else "push"


def default_period(query: M.Query, base: TimeBase) -> int | None:
    """D4: C-SPARQL ``COMPUTED EVERY``, else the windows' common STEP (TUMBLING: its range; an
    RSP-QL ``[RANGE d]`` without STEP slides every tick)."""
    reg = query.registration
    if reg is not None and reg.computed_every is not None:
        return base.ticks(reg.computed_every, "COMPUTED EVERY period")
    steps = set()
    for s in M.stream_graph_patterns(query):
        w = s.window
        if w.kind == "range" and w.step is not None:
            steps.add(base.ticks(w.step, "window step"))
        elif w.kind == "range" and query.dialect == "rspql":  # [RANGE d]: slides every tick
            steps.add(1)
        elif w.kind == "tumbling" and w.range is not None:
            steps.add(base.ticks(w.range, "window range"))
        elif w.kind == "interval" and w.step is not None:
            steps.add(base.ticks(w.step, "window step"))
    if len(steps) > 1:
        raise TranslationError(
            f"the windows have different steps ({', '.join(map(str, sorted(steps)))} {base.unit}): "
            "give the pull period with --period"
        )
    return steps.pop() if steps else None


def compile_query(
    query: M.Query,
    *,
    strategy: str | None = None,
    mode: str | None = None,
    period: int | None = None,
    bounds: WindowBounds | str = WindowBounds.CLOSED,
    base: TimeBase = TimeBase(),
) -> Compiled:
    """Translate ``query`` with τ1 (C-SPARQL's default) or τ2 (CQELS's) under a mode and a window-bounds
    convention (D2; the option string is parsed here, ``lars.windows.WindowBoundsError`` for another)."""
    bounds = WindowBounds.parse(bounds)
    strategy = strategy or default_strategy(query)
    mode = mode or default_mode(query)
    if strategy not in STRATEGIES:
        raise TranslationError(f"unknown strategy {strategy!r} (expected tau1 or tau2)")
    if mode not in MODES:
        raise TranslationError(f"unknown mode {mode!r} (expected push, pull or none)")
    _reject_unsupported(query)
    query = lower_windows(query)  # RSP-QL WINDOW patterns as stream graph patterns (translator.translate.rspql)
    if strategy == "tau1" and query.dialect != "csparql":
        query = cs(query)
    if strategy == "tau2" and query.dataset.streams:
        raise TranslationError(
            "τ2 needs STREAM graph patterns, but this query has FROM STREAM clauses: "
            "use --as cqels-brave/cqels-cautious to build its CQELS counterpart"
        )
    pattern = with_aggregation(pattern_algebra(query.where, base))  # sub-queries that aggregate (subqueries)
    grouping = None
    if needs_aggregation(query):  # translator.translate.aggregates, loaded only for a query that aggregates
        from translator.translate.aggregates import aggregation

        grouping = aggregation(query, pattern)
    if grouping is not None:
        form, variables, pattern = grouping.form, grouping.variables, grouping.pattern
    else:
        form, variables, pattern = _result_form(query, pattern)
    bags = answers_are_bags(query, form)
    tau = Tau(strategy, stream_sources(query, base), bounds, bags=bags or grouping is not None)
    program = tau.program(pattern)
    witness = tau.witness(1)
    solutions = Atom("ans1", (*(lars_var(v) for v in (*A.ordered(A.variables(pattern)), *witness)), DEFAULT_GRAPH))
    extra: list[Rule] = []
    native: list[Rule] | None = None
    where = solutions
    if grouping is not None:  # aggregation on top of τ's solutions (translator.translate.aggregates)
        extra, solutions, scope = grouping.rules(where, witness=witness)
        native, _, _ = grouping.rules(where, native=True, witness=witness)
        identity = grouping.row_identity(scope)
    elif isinstance(query.form, M.Describe):  # the concise bounded descriptions (translator.translate.describe)
        from translator.translate.describe import as_construct, describe_rules

        extra, solutions = describe_rules(query, pattern, tau, where)
        scope = identity = frozenset(A.Var(v) for v in variables)  # triples: a set (SPARQL 1.1 §16.4)
        query = as_construct(query)
    else:
        scope = identity = A.variables(pattern) | frozenset(witness)
    # multisets (D5): the in-scope variables not projected and the witness columns follow the
    # projected ones, so that distinct answer atoms are distinct solutions (SPARQL 1.1 §18.5 Project)
    hidden = tuple(v for v in A.ordered(identity) if v.name not in variables) if bags else ()
    answer = Rule(  # a projected variable the pattern never binds is always unbound (null)
        Atom(ANSWER, (*(lars_var(A.Var(v)) if A.Var(v) in scope else NULL for v in variables),
                      *(lars_var(v) for v in hidden))),
        (Literal(solutions),),
    )
    programs = [Program((*program.rules, *extra, answer))]
    if native is not None and native != extra:
        programs.append(Program((*program.rules, *_answer_in_place(native, answer))))
    if mode == "pull":
        period = period if period is not None else default_period(query, base)
        if period is None:
            raise TranslationError("pull mode needs a period: the query has no COMPUTED EVERY or STEP; give --period")
        if period < 1:
            raise TranslationError(f"the pull period must be positive, got {period} ticks (COMPUTED EVERY 0?)")
        programs = [modes.pull(p, period) for p in programs]
    elif mode == "push":
        programs = [modes.push(p) for p in programs]
        period = None
    else:
        period = None
    return Compiled(query, programs[0], variables, form, strategy, mode, period, bounds,
                    native=programs[1] if len(programs) > 1 else None,
                    modifiers=solution_modifiers(query, variables), hidden=tuple(v.name for v in hidden))


def answers_are_bags(query: M.Query, form: str) -> bool:
    """Whether the query's answers are multisets (decision D5): a SELECT without DISTINCT or REDUCED
    (SPARQL 1.1 §18.5: ``Project`` keeps cardinalities, ``Distinct`` makes them 1, and ``Reduced``
    may give any cardinality between — rsplars reads it as DISTINCT). CONSTRUCT gives a set of
    triples (§16.2: an RDF graph) and ASK a boolean."""
    return form == "select" and isinstance(query.form, M.Select) and query.form.modifier not in ("DISTINCT", "REDUCED")


def _answer_in_place(rules: list[Rule], answer: Rule) -> list[Rule]:
    """``rules`` and ``answer`` with the copies at their end unfolded (Tamaki and Sato 1984, as
    ``lars.incremental.unfold`` does inside the engine): a predicate p (``grouped``, ``having``, ``selected``)
    defined by exactly one rule d and read by exactly one literal ``p(X̄)`` of one other rule u,
    with X̄ d's head arguments themselves (distinct variables) and d's other variables absent from
    u, and u has no aggregate (whose global variables d's body would change), is replaced in u by
    d's body, and d is dropped. The answers at every t are the same (every
    instance of the new rule is an instance of u with the instance of d that derives its p atom,
    and back), and the engine keeps one relation of final solutions where it kept a chain of
    copies (``grouped`` → ``having`` → ``answer``). For the native program only
    (``Compiled.native``): the portable program keeps the τ translation's shape."""
    out = [*rules, answer]
    while True:
        for d in out:
            if d is answer or not isinstance(d.head, Atom):
                continue
            p, args = d.head.predicate, d.head.args
            if not all(isinstance(a, Variable) for a in args) or len(set(args)) != len(args):
                continue
            if sum(1 for r in out if isinstance(r.head, Atom) and r.head.predicate == p) != 1:
                continue
            readers = [r for r in out if _reads(r.body, p)]
            if len(readers) != 1 or readers[0] is d:
                continue
            (u,) = readers
            if any(isinstance(b, AggregateAssignment) for b in u.body):
                continue  # d's variables would become the aggregates' globals (those of the rest of the body)
            uses = [i for i, b in enumerate(u.body) if isinstance(b, Literal) and isinstance(b.atom, Atom) and b.atom.predicate == p]
            rest = (*u.body[:uses[0]], *u.body[uses[0] + 1:]) if len(uses) == 1 else ()
            if len(uses) != 1 or u.body[uses[0]] != Literal(d.head) or _reads(rest, p):
                continue
            if (_variables(d) - set(args)) & _variables(u):
                continue
            merged = Rule(u.head, (*d.body, *rest))
            if u is answer:
                answer = merged
            out = [merged if r is u else r for r in out if r is not d]
            break
        else:
            return out


def _leaves(x: object) -> Iterator[object]:
    """The atoms and terms inside a rule or body element, at every depth (literals, windows, @,
    aggregate elements and their conditions, comparisons, calls)."""
    stack: list = [x]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, tuple):
            stack.extend(x)
        elif is_dataclass(x):
            stack.extend(getattr(x, f.name) for f in fields(x))


def _reads(body: tuple, predicate: str) -> bool:
    """Whether an atom of ``predicate`` occurs in the body elements ``body``."""
    return any(isinstance(x, Atom) and x.predicate == predicate for x in _leaves(body))


def _variables(rule: Rule) -> set[Variable]:
    return {x for x in _leaves(rule) if isinstance(x, Variable)}


def _reject_unsupported(query: M.Query) -> None:
    """Nothing is refused here any more (DESCRIBE: translator.translate.describe)."""


def _result_form(query: M.Query, pattern: A.Pattern) -> tuple[str, tuple[str, ...], A.Pattern]:
    """(form, answer variables, pattern extended with SELECT expressions)."""
    form = query.form
    if isinstance(form, M.Select):
        names, pattern = select_projection(form, query.where, pattern)
        return "select", tuple(names), pattern
    if isinstance(form, M.Construct):
        return "construct", construct_variables(query, A.variables(pattern)), pattern
    if isinstance(form, M.Ask):
        return "ask", (), pattern
    if isinstance(form, M.Describe):  # the described triples, read as CONSTRUCT { ?s ?p ?o } (describe)
        from translator.translate.describe import VARIABLES

        return "construct", VARIABLES, pattern
    raise UnsupportedError(type(form).__name__.upper(), STAGE)


# ------------------------------------------------------------------------ CQELS counterparts (cq)

AS_CHOICES = ("csparql", "cqels-brave", "cqels-cautious", "cqels-all")


def pattern_key(t: M.TriplePattern) -> tuple[str, str, str]:
    """A triple pattern as N-Triples texts with ``?name`` for variables (blank nodes included)."""

    def one(x) -> str:
        converted = normalize_term(x)
        return "?" + converted.name if isinstance(converted, A.Var) else converted.value

    if isinstance(t.predicate, M.Path):
        return (one(t.subject), "?_path", one(t.object))
    return (one(t.subject), one(t.predicate), one(t.object))


def pattern_keys(t: M.TriplePattern) -> list[tuple[str, str, str]]:
    """The triple patterns that the triples a pattern reads match: the pattern itself, or for a
    property path (SPARQL 1.1 §9) ``(?_s, iri, ?_o)`` for each IRI of the path and
    ``(?_s, ?_p, ?_o)`` if it has a negated property set (a zero-length path reads no triple)."""
    if not isinstance(t.predicate, M.Path):
        return [pattern_key(t)]
    iris: dict[str, None] = {}
    negated = False

    def walk(p) -> None:
        nonlocal negated
        if isinstance(p, M.IRI):
            iris[normalize_term(p).value] = None  # type: ignore[union-attr]
        elif p.op == "!":
            negated = True
        else:
            for a in p.args:
                walk(a)

    walk(t.predicate)
    keys = [("?_s", iri, "?_o") for iri in iris]
    return keys + [("?_s", "?_p", "?_o")] if negated else keys


def assign_by_data(query: M.Query, stream_triples: dict[str, set[tuple[str, str, str]]]) -> dict[int, str]:
    """The assignment :func:`cq` needs, read off data: a default-graph triple pattern belongs to
    the stream whose triples it matches (a property path: whose triples it reads, :func:`pattern_keys`);
    one that matches no stream triple stays static. A pattern
    matching the triples of several streams is ambiguous (Dao-Tran, Beck, Eiter 2015, §3 leaves the choice to whoever
    writes the CQELS query) and raises an error asking for ``--assign``."""
    from translator.rdf.triple_match import matches

    out: dict[int, str] = {}
    for k, t in enumerate(default_graph_triples(query)):
        key = pattern_key(t)
        keys = pattern_keys(t)
        hits = sorted(iri for iri, triples in stream_triples.items()
                      if any(matches(k_, tr) for k_ in keys for tr in triples))
        if len(hits) > 1:
            raise TranslationError(
                f"triple pattern {k + 1} ({' '.join(key)}) matches data of several streams "
                f"({', '.join(hits)}): say which with --assign {k + 1}=IRI")
        if hits:
            out[k] = hits[0]
    return out


def cautious(query: M.Query, streams: Iterable[str]) -> M.Query:
    """For a CQELS query: ``(STREAM s ω g)`` becomes ``((STREAM s ω g) UNION g)`` for the streams
    named (Dao-Tran, Beck, Eiter 2015, §3, the cautious reading)."""
    chosen = set(streams)

    def rewrite(p: M.Pattern) -> M.Pattern | None:
        if isinstance(p, M.StreamPattern) and isinstance(p.stream, M.IRI) and p.stream.value in chosen:
            return M.Union_(M.Group((p,)), p.pattern)
        return None

    where = rewrite_patterns(query.where, rewrite)
    assert isinstance(where, M.Group)
    return replace(query, where=where)


def counterparts(query: M.Query, as_: str, assignment: dict[int, str] | None = None) -> list[tuple[str, M.Query]]:
    """The queries ``--as`` asks for, each with a label: ``cs(Q)`` (``csparql``), or members of
    ``cq(Q)``: the brave one, the cautious one, or all ``2^|S|`` (one per set of cautious streams)."""
    if as_ not in AS_CHOICES:
        raise TranslationError(f"--as must be one of {', '.join(AS_CHOICES)}")
    query = lower_windows(query)
    if as_ == "csparql":
        return [("cs(Q)", query if query.dialect == "csparql" else cs(query))]
    if query.dialect == "csparql":
        if assignment is None:
            raise TranslationError(
                "a C-SPARQL query does not say which triple patterns each stream feeds: give --assign I=IRI "
                "(I: the triple pattern's number in written order) or data (--stream, --static) to read it off")
        iris = sorted({iri for iri in assignment.values()})

        def make(cautious_set: set[str]) -> M.Query:
            return cq(query, assignment, cautious_set)
    else:
        iris = sorted({s.stream.value for s in M.stream_graph_patterns(query) if isinstance(s.stream, M.IRI)})

        def make(cautious_set: set[str]) -> M.Query:
            return cautious(query, cautious_set)
    if as_ == "cqels-brave":
        return [("cq(Q) brave", make(set()))]
    if as_ == "cqels-cautious":
        return [("cq(Q) cautious", make(set(iris)))]
    out = []
    for mask in range(2 ** len(iris)):
        chosen = {iri for bit, iri in enumerate(iris) if mask >> bit & 1}
        label = "cq(Q) cautious on " + (", ".join(f"<{i}>" for i in sorted(chosen)) if chosen else "no stream (brave)")
        out.append((label, make(chosen)))
    return out


def program_header(label: str, compiled, unit: str) -> str:
    """The comment lines that say what a translated program is (readable by the LARS parser and by
    clingo): its strategy, mode, window bounds, time unit and answer atom, then the notes of its
    ORDER BY, LIMIT and OFFSET. ``rsplars translate`` and :func:`rsplars.translate` write them."""
    from translator.translate.solution_modifiers import modifier_notes

    mode = compiled.mode + (f", period {compiled.period} {unit}" if compiled.period else "")
    names = ["?" + v for v in compiled.variables] + (["start", "end"] if getattr(compiled, "interval", False) else [])
    answer = f"{compiled.answer_predicate}({', '.join(names)})"
    notes = "".join(f"% note: {n}\n" for n in modifier_notes(getattr(compiled, "modifiers", None)))
    return (f"% {label}: strategy {compiled.strategy}, mode {mode}, window bounds {compiled.bounds}, "
            f"time unit {unit}; answers: {answer}\n{notes}")
