"""Running a translated query over RDF streams and static data (Dao-Tran, Beck, Eiter 2015, §4, step 4 = R2S).

The data side of ``rsplars run``: stream elements (``translator.rdf.streams``) become the LARS
data stream of ``striple(S, P, O, s)`` atoms in arrival order (Dao-Tran, Beck, Eiter 2015, §4.3 (i)), the static
dataset becomes ``triple(S, P, O, G)`` facts, the program of :func:`translator.translate.compile.compile_query`
is solved at every evaluation time (``--lars-engine``: the incremental engine of ``lars.incremental`` when
the program is in its fragment, else clingo, ``asp.solver``; ``translator.evaluate.engine``), and the atoms of the
answer predicate are read back as solutions (variable → N-Triples term; unbound left out, D5).

Evaluation times (Dao-Tran, Beck, Eiter 2015, §4.1, §5, D4): pull — the multiples of the period U in [from, to];
push — the time points with input in [from, to]; none — every time point in [from, to]. The
timeline starts at 0 (both engines start at time 0, §5) or at the first element if earlier; by
default ``to`` is the last element's time, rounded up to a multiple of U in pull mode so that the
interval holding the last element is evaluated at its end.

Each evaluation's answer is a multiset of solutions (SPARQL 1.1 §18.1.6; Dell'Aglio et al. 2014,
Definitions 21–22): a :class:`translator.rdf.bags.Bag` of visible rows, counted from the distinct
witnessed rows of the answer atoms (``Compiled.hidden``, decision D5). Inside a run the witnessed
rows are kept as sets, so that the engine's change of answer atoms updates them (:func:`evaluations`).

R2S (§4 step 4, post-processing) over multisets (decision D13): ``rstream`` reports the current
multiset, ``istream`` the multiset difference of the current and the previous evaluation's
(``card = max(0, card_now − card_before)``), ``dstream`` that of the previous and the current one
(:func:`r2s_rows`). Before R2S, the query's ORDER BY, LIMIT and OFFSET are applied to each
evaluation's solutions (:func:`modified`, :mod:`translator.translate.solution_modifiers`); with
ORDER BY the answer is a :class:`translator.translate.solution_modifiers.SolutionSequence`, which
keeps the order, also through IStream and DStream.

Result forms: a SELECT row holds the projected variables; a CONSTRUCT row the template's
variables, turned into triples by :func:`construct_triples`; ASK is true at t iff there is a row.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from lars.bounds import TERM_CACHE_SIZE
from lars.errors import RsplarsError
from lars.model import Program, Rule, Stream
from lars.streams import parse_ground_atom

from translator.query import model as M
from translator.translate.compile import Compiled
from translator.translate.expressions import functions_noting_limits
from translator.translate.solution_modifiers import SolutionModifiers
from translator.rdf.bags import Bag
from translator.rdf.predicates import STRIPLE
from translator.rdf.streams import ElementList, StreamElement, to_lars_stream
from translator.rdf.terms import from_lars, iri_nt, literal_nt, to_nt

if TYPE_CHECKING:  # the engines are imported where a solver is made (translator.evaluate.engine)
    from lars.solver import Solver

R2S = ("rstream", "istream", "dstream")

Row = tuple[str | None, ...]
"""One solution: the N-Triples text of each result variable (``None``: unbound)."""


class RunError(RsplarsError):
    """A run that cannot go on (e.g. a program without exactly one answer stream, D8)."""


def the_answer(step) -> Sequence[str]:
    """The answer stream of an engine step (``Step.answers[0]``): a translated program has exactly
    one at every time point (D8, stratified programs); anything else is a bug of the translation."""
    if len(step.answers) != 1:
        what = "no answer stream" if not step.answers else "several answer streams"
        raise RunError(f"the translated program has {what} at t={step.t} (D8); this is a bug, please report it")
    return step.answers[0]


EMPTY = Bag()
"""The empty multiset of solutions (the answer before the first evaluation)."""


@dataclass(frozen=True)
class Evaluation:
    """The answers at one evaluation time (after R2S): the multiset of solutions as visible rows
    (with ORDER BY a :class:`~translator.translate.solution_modifiers.SolutionSequence`, iterated in
    its order). ``change``, when known, is ``(base, plus, minus)`` with ``rows == base - minus +
    plus`` (multisets, ``plus`` and ``minus`` without a row in common), ``base`` being the previous
    evaluation's rows object: a writer that still holds ``base`` then touches only the solutions
    that came and went."""

    t: int
    rows: Bag
    change: tuple[Bag, Bag, Bag] | None = field(default=None, compare=False, repr=False)


def data_stream(elements: Iterable[StreamElement], start: int = 0, end: int | None = None) -> Stream:
    """The LARS data stream of the elements (:func:`translator.rdf.streams.to_lars_stream`:
    ``striple(s,p,o,stream) ∈ υ(t)``, arrival order kept) on the timeline of a run: from ``start``
    (or the first element if earlier) to ``end`` (default: the last element)."""
    points = elements.lars_points() if isinstance(elements, ElementList) else to_lars_stream(elements).points
    lo = min([start, *points]) if points else start
    hi = max([*points, lo]) if end is None else end
    return Stream(points, lo, max(hi, lo))


def evaluation_times(compiled: Compiled, stream: Stream, start: int | None, end: int | None) -> range | list[int]:
    """The times at which the engine under ``compiled.mode`` evaluates the query (module docstring)."""
    lo, hi = stream.timeline
    first = lo if start is None else start
    last = hi if end is None else end
    if first < lo:
        raise RunError(f"--from {first} lies before the start {lo} of the timeline")
    if compiled.mode == "pull":
        u = compiled.period
        assert u is not None
        if end is None:
            last = -(-last // u) * u
        return range(-(-first // u) * u, last + 1, u)
    if compiled.mode == "push":
        return [t for t in sorted(stream.points) if first <= t <= last]
    return range(first, last + 1)


from translator.evaluate.engine import MAX_EVALUATION_TIMES  # noqa: E402  (defined with the engines: rsplars lars needs it too)


def _count(times: range | list[int]) -> int:
    """The number of evaluation times, without materialising a huge range (``len`` overflows)."""
    if isinstance(times, range):
        if times.step > 0 and times.stop > times.start:
            return (times.stop - times.start - 1) // times.step + 1
        return 0
    return len(times)


@dataclass(frozen=True)
class EngineInput:
    """What the engine solves for a run: the program with the static facts, the data stream on the
    run's timeline, and the evaluation times."""

    program: Program
    stream: Stream
    times: list[int]


def engine_input(
    compiled: Compiled,
    elements: Sequence[StreamElement],
    static: Sequence[Rule] = (),
    *,
    start: int | None = None,
    end: int | None = None,
) -> EngineInput:
    """The program, stream and evaluation times of a run (shared by :func:`answers` and the ASP
    export of ``rsplars run --print-asp-at``, so that both see the same timeline)."""
    stream = data_stream(elements, 0, None)
    if end is not None:
        stream = Stream(stream.points, stream.start, max(end, stream.timeline[0]))
    planned = evaluation_times(compiled, stream, start, end)
    count = _count(planned)
    if count > MAX_EVALUATION_TIMES:
        lo, hi = stream.timeline
        last = max(elements, key=lambda e: e.t, default=None)
        where = f" (the last element, at t={last.t}, comes from line {last.source_line} of its stream)" if last else ""
        raise RunError(f"the run would evaluate {count:,} time points between {lo} and {hi}, more than "
                       f"{MAX_EVALUATION_TIMES:,}{where}: check the timestamps and the unit (--unit, "
                       "--stream-time-unit), or give --from/--to")
    times = list(planned)
    if times and times[-1] > stream.timeline[1]:
        stream = Stream(stream.points, stream.start, times[-1])
    return EngineInput(Program((*compiled.program.rules, *static)), stream, times)


def answers(
    compiled: Compiled,
    elements: Sequence[StreamElement],
    static: Sequence[Rule] = (),
    *,
    start: int | None = None,
    end: int | None = None,
    r2s: str = "rstream",
    on_progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    resume_after: int | None = None,
    on_time: Callable[[int], None] | None = None,
    engine: str = "auto",
) -> Iterator[Evaluation]:
    """Solve ``compiled`` over the stream elements and static facts; one :class:`Evaluation` per
    evaluation time, in time order, as soon as it is computed. ``on_note`` hears, once per run,
    when a SUM or AVG was left unbound because its group had more values than it adds exactly
    (``translator.translate.aggregates``: at most 32767), so that this limit is never silent; an
    aggregate error of SPARQL (SUM of a string, MIN of nothing) is unbound without a note.
    ``resume_after``: yield only the evaluations after that time (``--resume-from``,
    :mod:`translator.evaluate.resume`); IStream/DStream then solve the last evaluation time up to it
    again, without yielding it, for the answers they compare with. ``on_time`` hears each
    evaluation time as the engine starts on it (the memory watchdog names it, ``translator.evaluate.memory``).
    ``engine``: ``auto``, ``asp`` or ``incremental`` (:mod:`translator.evaluate.engine`)."""
    from translator.evaluate.engine import announced

    if r2s not in R2S:
        raise RunError(f"unknown R2S operator {r2s!r} (expected one of {', '.join(R2S)})")
    run = engine_input(compiled, elements, static, start=start, end=end)
    program, stream, times = run.program, run.stream, run.times
    prime: int | None = None
    if resume_after is not None:
        before = [t for t in times if t <= resume_after]
        prime = before[-1] if before and r2s != "rstream" else None
        times = ([prime] if prime is not None else []) + [t for t in times if t > resume_after]
    _, native = compiled.engine_programs(static)
    solver, limit = query_solver(compiled, program, native, engine)
    for done, ev in enumerate(evaluations(compiled, solver.run(stream, announced(times, on_time)), r2s, on_note, limit), start=1):
        if ev.t == prime and done == 1:
            continue
        if on_progress is not None:
            on_progress(done, len(times))
        yield ev


def query_solver(compiled: Compiled, program: Program, native: Program | None, engine: str) -> tuple[Solver, LimitMet]:
    """The engine (:func:`translator.evaluate.engine.make_solver`) that solves a query's program
    (``native``: its native program, for the incremental engine) reading the answer and note
    predicates only, and the :class:`LimitMet` its SUM and AVG functions tell (:func:`evaluations`)."""
    from translator.evaluate.engine import make_solver

    limit = LimitMet()
    solver = make_solver(program, engine, functions=functions_noting_limits(limit), outputs=read_predicates(compiled, program),
                         native=native, stream_predicates=(STRIPLE,))
    return solver, limit


def read_predicates(compiled: Compiled, program: Program) -> set[str]:
    """The predicates whose atoms :func:`evaluations` reads from the answer stream: the answer
    predicate and those of the aggregate-limit note (the engine may leave out all others)."""
    names = {sig[0] for sig in program.intensional()}
    return {compiled.answer_predicate} | {n for n in names if n.startswith(AGGREGATE_ERROR)}


class LimitMet:
    """Told (called) by SUM's and AVG's external aggregates when a group holds more values than
    they add exactly (``expressions.functions_noting_limits``): the native program's ``agglimit``."""

    __slots__ = ("met",)

    def __init__(self) -> None:
        self.met = False

    def __call__(self) -> None:
        self.met = True


def evaluations(compiled: Compiled, steps: Iterable, r2s: str, on_note: Callable[[str], None] | None,
                limit: LimitMet | None = None) -> Iterator[Evaluation]:
    """The engine's steps (one per evaluation time) as :class:`Evaluation` records: the answer
    stream's solutions after the solution modifiers (:func:`modified`) under the R2S operator
    (:func:`r2s_rows`, RSP-QL §1.19), with the once-per-run note of ``answers``: at the first step
    with an ``agglimit`` atom (the portable program) or after which ``limit`` was told (the native one).

    The witnessed rows of the answer atoms are kept as a set from step to step: the engine's change
    of answer atoms (``Step.delta``/``Step.rows``) updates it, and the multiset of visible rows
    follows from the rows that came and went."""
    previous: frozenset[Row] = frozenset()  # the witnessed rows of the previous step
    previous_out: Bag = EMPTY  # the previous step's answer after the solution modifiers
    modifiers = answer_modifiers(compiled)
    width = compiled.width
    noted = False
    prefix = compiled.answer_predicate
    known = False  # is ``previous`` the rows of the previous step (so that its delta applies)?
    for step in steps:
        atoms = the_answer(step)
        delta = step.delta
        current = None
        change = None
        if known and delta is not None:
            by_rows = step.rows  # the engine's change as rows (lars.solver.Step), or None
            if by_rows is not None:
                got = by_rows.get(prefix)
                plus = frozenset(map(_row_of_args, got[0])) if got else frozenset()
                minus = frozenset(map(_row_of_args, got[1])) if got else frozenset()
            else:
                plus = frozenset(_answer_atoms(delta[0], prefix, _row_of))
                minus = frozenset(_answer_atoms(delta[1], prefix, _row_of))
            if not plus and not minus:
                current = previous  # no answer atom came or went: the same rows (the window's other atoms moved)
                change = (plus, minus)
            else:
                # the rows of the atoms that stayed and came: exact when there are as many rows as
                # answer atoms (then no two atoms give one row), else read the answer atoms again
                current = (previous - minus) | plus
                if len(current) != _answer_count(atoms, prefix):
                    current = None
                else:
                    change = (plus.difference(previous), minus.intersection(previous).difference(current))
        if current is None:
            current = frozenset(step_rows(compiled, atoms))
        known = True
        if on_note is not None and not noted and ((limit is not None and limit.met) or _has_prefix(atoms, AGGREGATE_ERROR)):
            noted = True
            on_note(f"at t={step.t} a SUM or AVG met more values in one group than it adds exactly (at most "
                    "32767 per group) and is left unbound (docs/translation.md, Aggregates)")
        base = previous_out
        moved: tuple[Bag, Bag] | None = None
        if modifiers is not None:
            out = modifiers.apply(current)
        elif current is previous:
            out, moved = base, (EMPTY, EMPTY)  # the same solutions: the same object
        else:
            out = Bag.of_witnessed(current, width)
            if change is not None and 4 * (len(change[0]) + len(change[1])) <= len(current) + 8:
                moved = _visible_change(change, width)  # small enough for a writer to place (AnswerTexts.joined)
        rows = r2s_rows(r2s, out, base)
        previous, previous_out = current, out
        yield Evaluation(step.t, rows, (base, *moved) if moved is not None and r2s == "rstream" else None)


def _visible_change(change: tuple[frozenset[Row], frozenset[Row]], width: int | None) -> tuple[Bag, Bag]:
    """``(plus, minus)`` of the visible rows from the witnessed rows that came and went between two
    steps (``change``: the rows new in the current step, the rows gone from the previous one), with
    no row in both: the current multiset is the previous one ``- minus + plus``."""
    plus, minus = Bag.of_witnessed(change[0], width), Bag.of_witnessed(change[1], width)
    if width is None or not plus or not minus:
        return plus, minus
    return plus - minus, minus - plus


def _answer_atoms(atoms: Sequence[str], prefix: str, row_of: Callable[[str], Row]) -> Iterator[Row]:
    """The rows of the ``prefix`` atoms of a *sorted* answer stream (``Step.answers`` of either
    engine is sorted): they form one run, found by bisection instead of a scan of every atom (the
    answer stream also holds the windows' content). A predicate name is an identifier, so the run
    is ``prefix`` and ``prefix(…`` and ends before ``prefix)``."""
    lo = bisect_left(atoms, prefix)
    hi = bisect_left(atoms, prefix + ")", lo)
    opening = prefix + "("
    run = atoms[lo:hi]
    if all(map(str.startswith, run, repeat(opening))):  # each read without a Python loop
        return map(row_of, run)
    return (row_of(text) for text in run if text == prefix or text.startswith(opening))


def _answer_count(atoms: Sequence[str], prefix: str) -> int:
    """The number of ``prefix`` atoms of a sorted answer stream (see :func:`_answer_atoms`)."""
    return bisect_left(atoms, prefix + ")") - bisect_left(atoms, prefix)


def _has_prefix(atoms: Sequence[str], prefix: str) -> bool:
    """Whether a sorted answer stream holds an atom whose text starts with ``prefix``."""
    i = bisect_left(atoms, prefix)
    return i < len(atoms) and atoms[i].startswith(prefix)


AGGREGATE_ERROR = "agglimit"
"""Prefix of the atoms ``translator.translate.aggregates`` derives for a group whose SUM/AVG has
more values than the limb sums hold exactly."""


def answer_modifiers(compiled: Compiled) -> SolutionModifiers | None:
    """The query's ORDER BY, LIMIT and OFFSET over the columns of its answer atoms, the visible and
    the hidden ones (:meth:`SolutionModifiers.over`: a condition over a variable they do not hold
    is an error, raised before the first evaluation); ``None``: it has none."""
    if compiled.modifiers is None:
        return None
    return _bound(compiled.modifiers, compiled.variables, compiled.hidden)


@lru_cache(maxsize=64)
def _bound(modifiers: SolutionModifiers, variables: tuple[str, ...], hidden: tuple[str, ...]) -> SolutionModifiers:
    return modifiers.over(variables, hidden)


def modified(compiled: Compiled, rows: Iterable[Row]) -> Bag:
    """One evaluation's answer: the multiset of the visible rows of the solutions ``rows`` (distinct
    witnessed rows) after the query's ORDER BY, LIMIT and OFFSET
    (:mod:`translator.translate.solution_modifiers`; with ORDER BY a ``SolutionSequence``): the
    last step of R2R, applied after solving and before R2S, by every run (sequential,
    incremental, live, operational, Spark)."""
    modifiers = answer_modifiers(compiled)
    return Bag.of_witnessed(rows, compiled.width) if modifiers is None else modifiers.apply(rows)


def r2s_rows(r2s: str, current: Bag, previous: Bag) -> Bag:
    """The relation-to-stream operator at one evaluation time (RSP-QL §1.19) over multisets
    (decision D13): RStream all of ``current``; IStream the multiset difference ``current −
    previous``, DStream ``previous − current`` (``card = max(0, card_a − card_b)``: a solution
    that occurs twice now and once before is new once). A ``SolutionSequence`` keeps its order."""
    if r2s == "rstream":
        return current
    if r2s == "istream":
        return current - previous if previous else current
    return previous - current if current else previous


def answer_rows(compiled: Compiled, atoms: Iterable[str]) -> Iterator[Row]:
    """The solutions in one answer stream: the ``answer`` atoms among ``atoms`` (as the engine
    prints them) read back as rows of N-Triples terms (``None``: unbound). Also used per block by
    ``spark_jobs``, so both engines read answers the same way."""
    prefix = compiled.answer_predicate
    opening = prefix + "("
    for text in atoms:
        if not (text == prefix or text.startswith(opening)):
            continue
        yield _row_of(text)


def step_rows(compiled: Compiled, atoms: Sequence[str]) -> Iterator[Row]:
    """:func:`answer_rows` of one answer stream of an engine's ``Step`` (sorted, as both engines
    give it): the answer atoms found by bisection, not by a scan of every atom."""
    return _answer_atoms(atoms, compiled.answer_predicate, _row_of)


#: an argument: a string (written as the unrolled loop ``"[^"\\]*(?:\\.[^"\\]*)*"``, the language of
#: ``"(?:[^"\\]|\\.)*"`` matched a run of plain characters at a time, several times faster), a
#: constant or an integer
_ARG = r'"[^"\\]*(?:\\.[^"\\]*)*"|[a-z][A-Za-z0-9_]*|-?[0-9]+'
_SIMPLE_ATOM = re.compile(rf"[a-z][A-Za-z0-9_]*\((?:{_ARG})(?:,(?:{_ARG}))*\)")
_ARGS = re.compile(_ARG)
#: an IRI written without escapes (and with no character ``to_nt`` would escape): its N-Triples
#: text is itself (``to_nt(from_nt(v)) == v``)
_PLAIN_IRI = re.compile(r'<[^\x00-\x20<>"{}|^`\\]*>')
#: a typed literal (not xsd:string) whose lexical form and datatype IRI have nothing to escape, as
#: its LARS string writes it: its N-Triples text is itself once the LARS quotes are undone
_PLAIN_TYPED = re.compile(r'"\\"[^"\\\x00-\x1f\x7f]*\\"\^\^<[^\x00-\x20<>"{}|^`\\]*>"')
_XSD_STRING = "^^<http://www.w3.org/2001/XMLSchema#string>"


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _row_of(text: str) -> Row:
    """The row of one answer atom (an answer stays in a window for many evaluation times: each
    atom text is parsed once while it recurs).

    An atom whose arguments are all strings with no escape but ``\\"`` (the commonest: IRIs and
    typed literals) is cut at its ``","`` by ``str.split`` (:func:`_string_pieces`). Other atoms
    whose arguments are strings, constants and integers are split by a regex; the rest are parsed.
    The arguments are converted one by one (:func:`_arg_nt`, each once while it recurs)."""
    pieces = _string_pieces(text)
    if pieces is not None:
        return tuple(map(_piece_nt, pieces))
    if _SIMPLE_ATOM.fullmatch(text):
        out = []
        seen = _ARG_TEXTS
        for arg in _ARGS.findall(text, text.index("(") + 1):
            got = seen.get(arg, _NONE)
            if got is _NONE:  # the group keys and counts of answers recur: each converted once while it does
                got = _arg_nt(arg)
                if len(seen) >= TERM_CACHE_SIZE:
                    seen.clear()
                seen[arg] = got
            out.append(got)
        return tuple(out)
    atom = parse_ground_atom(text)
    return tuple(None if (term := from_lars(a)) is None else to_nt(term) for a in atom.args)


def _row_of_args(args: tuple) -> Row:
    """The row of one answer given by its arguments' LARS texts (``lars.solver.Step.rows``):
    as :func:`_row_of` of the atom they make, each argument converted once while it recurs."""
    return tuple(map(_ARG_NTS.__getitem__, args))


class _ArgTexts(dict):
    """An argument's LARS text -> its N-Triples text (:func:`_arg_nt`, ``None``: unbound),
    computed when missing; emptied when it holds ``TERM_CACHE_SIZE`` texts."""

    def __missing__(self, arg: str) -> str | None:
        if len(self) >= TERM_CACHE_SIZE:
            self.clear()
        got = self[arg] = _arg_nt(arg)
        return got


_ARG_NTS = _ArgTexts()


def _string_pieces(text: str) -> list[str] | None:
    """The arguments of an atom ``name("…","…",…)`` without their quotes, if they are all strings
    that escape nothing but quotes (``\\"``), else ``None``. Within such strings every backslash
    escapes the quote after it, so a ``","`` not preceded by a backslash (none is, or ``None``) is
    where one argument ends and the next begins, and two unescaped quotes per argument mean that
    every argument is a string."""
    opening = text.find("(")
    if opening <= 0 or not text.startswith('"', opening + 1) or not text.endswith('")'):
        return None
    inner = text[opening + 2:-2]
    escaped = inner.count('\\"')
    if inner.count("\\") != escaped or '\\","' in inner:
        return None
    pieces = inner.split('","')
    return pieces if inner.count('"') - escaped == 2 * len(pieces) - 2 else None


def _arg_nt(arg: str) -> str | None:
    """The N-Triples text of one argument of an answer atom (its LARS text), ``None`` if unbound:
    an IRI without escapes is its own N-Triples text, and so is a typed literal (not xsd:string)
    whose LARS string escapes only its quotes once they are undone; others through :func:`_nt_of_arg`."""
    if arg[0] == '"' and arg[1] == "<" and _PLAIN_IRI.fullmatch(arg, 1, len(arg) - 1):
        return arg[1:-1]  # fresh IRIs (observations): not through the parser
    if arg[:2] == "\"\\" and _PLAIN_TYPED.fullmatch(arg) and not arg.endswith(_XSD_STRING + '"'):
        return arg[1:-1].replace('\\"', '"')  # fresh values (averages, sums): no parse
    return _nt_of_arg(arg)


class _PieceTexts(dict):
    """A string argument's text without its quotes -> its N-Triples text (:func:`_arg_nt`),
    computed when missing; emptied when it holds ``TERM_CACHE_SIZE`` texts."""

    def __missing__(self, piece: str) -> str | None:
        if len(self) >= TERM_CACHE_SIZE:
            self.clear()
        got = self[piece] = _arg_nt('"' + piece + '"')
        return got


_ARG_TEXTS: dict[str, str | None] = {}  # an argument's text -> its N-Triples text (None: unbound), bounded
_PIECE_TEXTS = _PieceTexts()
_piece_nt = _PIECE_TEXTS.__getitem__
_NONE: Any = object()  # Any: a type checker does not narrow `got is _NONE` on an object()


@lru_cache(maxsize=TERM_CACHE_SIZE)
def _nt_of_arg(text: str) -> str | None:
    """The N-Triples text of one argument of an answer atom (its LARS text), ``None`` if unbound."""
    term = from_lars(parse_ground_atom(f"x({text})").args[0])
    return None if term is None else to_nt(term)


def construct_triples(compiled: Compiled, rows: Iterable[Row], t: int) -> list[str]:
    """CONSTRUCT (SPARQL 1.1 §16.2): the template instantiated with every answer at t, as sorted
    N-Triples lines ``<s> <p> <o> .`` (a set: the same triple from two answers is one line).

    A template triple with an unbound variable, or that is not an RDF triple once instantiated (a
    literal subject, a predicate that is not an IRI), is left out. A blank node of the template is
    a fresh blank node per answer and evaluation time, with a stable label ``_:c<t>x<h><label>``
    (h: a digest of the answer), so that equal runs give equal output.
    """
    form = compiled.query.form
    if not isinstance(form, M.Construct):
        raise RunError("construct_triples needs a CONSTRUCT query")
    import hashlib

    index = {v: i for i, v in enumerate(compiled.variables)}
    out: set[str] = set()
    for row in rows:
        digest = hashlib.sha1(repr((t, row)).encode()).hexdigest()[:10]
        for pattern in form.template:
            s, p, o = (_instantiate(x, row, index, f"c{t}x{digest}") for x in (pattern.subject, pattern.predicate, pattern.object))
            if s is None or p is None or o is None or not s.startswith(("<", "_:")) or not p.startswith("<"):
                continue
            out.add(f"{s} {p} {o} .")
    return sorted(out)


def construct_quads(compiled: Compiled, rows: Iterable[Row], t: int) -> list[str]:
    """The ``GRAPH g { … }`` blocks of an RSP-QL CONSTRUCT template (RSP4J's quad output)
    instantiated with every answer at t, as sorted N-Quads lines ``<s> <p> <o> <g> .`` (a set).

    As in :func:`construct_triples` (whose fresh blank-node labels these share, so that ``_:b`` of
    the template is one node per answer in the triples and in the graph names): a quad with an
    unbound variable, or that is not an RDF quad once instantiated (a graph name that is a
    literal), is left out. Empty when the template has no GRAPH block.
    """
    form = compiled.query.form
    if not isinstance(form, M.Construct):
        raise RunError("construct_quads needs a CONSTRUCT query")
    if not form.graphs:
        return []
    import hashlib

    index = {v: i for i, v in enumerate(compiled.variables)}
    out: set[str] = set()
    for row in rows:
        fresh = f"c{t}x{hashlib.sha1(repr((t, row)).encode()).hexdigest()[:10]}"
        for block in form.graphs:
            g = _instantiate(block.graph, row, index, fresh)
            if g is None or not g.startswith(("<", "_:")):
                continue
            for pattern in block.triples:
                s, p, o = (_instantiate(x, row, index, fresh) for x in (pattern.subject, pattern.predicate, pattern.object))
                if s is None or p is None or o is None or not s.startswith(("<", "_:")) or not p.startswith("<"):
                    continue
                out.add(f"{s} {p} {o} {g} .")
    return sorted(out)


def _instantiate(term: object, row: Row, index: dict[str, int], fresh: str) -> str | None:
    match term:
        case M.Var(name):
            return row[index[name]] if name in index else None
        case M.BlankNode(label):
            return "_:" + fresh + re.sub(r"[^A-Za-z0-9]", "", label)
        case M.IRI(value):
            return iri_nt(value)
        case M.Literal(lexical, datatype, lang):
            return literal_nt(lexical, datatype, lang)
    return None


def solution_dicts(variables: Sequence[str], rows: Iterable[Row],
                   ordering: Callable[[Iterable[Row]], list[Row]] | None = None) -> list[dict[str, str]]:
    """Rows as ``{var: term}`` mappings (unbound variables left out; a row that occurs n times, as in
    a :class:`~translator.rdf.bags.Bag`, gives n mappings), sorted deterministically, or in the order
    ``ordering`` gives (the query's ORDER BY, ``translator.evaluate.writers.order_by``)."""
    if ordering is not None:
        rows = ordering(rows)
    out = [{v: term for v, term in zip(variables, row) if term is not None} for row in rows]
    if ordering is not None:
        return out
    if len(set(variables)) != len(variables):
        return sorted(out, key=lambda d: sorted(d.items()))
    order = sorted(variables)  # sorted(d.items()) without a sort per row: the items in name order
    return sorted(out, key=lambda d: [(v, d[v]) for v in order if v in d])
