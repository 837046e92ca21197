"""Running an agreement analysis end to end (Dao-Tran, Beck, Eiter 2015, §5): compile, solve, judge, diagnose.

``rsplars agree`` is argument parsing around :func:`compare`; a notebook calls the same function::

    report = compare(Comparison(label, q1, q2, "q1.rq", "q2.rq", "two-queries"), elements, facts,
                     Settings(period=3, unit="m"))

The pull query runs with τ1 (C-SPARQL's dataset), the push query with τ2 (CQELS's stream
patterns). For the diagnosis (docs/agreement-report.md) the push query also runs pull-based and
both headline runs are repeated under a second window-bounds convention. Condition (ii) is checked
statically on the data before any run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from lars.errors import RsplarsError
from lars.windows import WindowBounds
from translator.agreement.analysis import analyse
from translator.agreement.diagnosis import BoundsAlternative
from translator.agreement.query_patterns import condition_ii_patterns
from translator.agreement.report import AgreementReport, QueryInput, ReportInputs, StreamInput
from translator.agreement.solutions import Answers, Solution
from translator.agreement.static_check import StaticCheck, check_condition_ii
from translator.evaluate.run import answers
from translator.rdf.bags import Row
from translator.rdf.streams import ElementList
from translator.rdf.terms import to_nt
from translator.translate.compile import compile_query, default_period
from translator.translate.normalize import TimeBase

if TYPE_CHECKING:
    from translator.query.model import Query

#: the second convention of the window-bounds factor when none is given
DEFAULT_OTHER_BOUNDS = {WindowBounds.CLOSED: WindowBounds.LEFT_OPEN, WindowBounds.LEFT_OPEN: WindowBounds.CLOSED,
                        WindowBounds.RIGHT_OPEN: WindowBounds.CLOSED}

#: solves several compiled programs over the same data: ``{label: Compiled} -> {label: {t: answer}}``
Solver = Callable[[Mapping[str, object], Sequence, Sequence, "int | None"], Mapping[str, Answers]]


@dataclass(frozen=True)
class Comparison:
    """One headline comparison: ``pull_query`` (run with τ1, pull) against ``push_query`` (τ2, push)."""

    label: str
    pull_query: Query
    push_query: Query
    pull_source: str
    push_source: str
    mode: str  # ReportInputs.mode


@dataclass(frozen=True)
class Settings:
    """The run parameters of an analysis (Dao-Tran, Beck, Eiter 2015, §5 and D1, D2, D4)."""

    period: int
    unit: str = "s"
    window_bounds: WindowBounds | str = WindowBounds.CLOSED  # an option string is parsed into WindowBounds
    other_window_bounds: WindowBounds | str | None = None  # None: the default of DEFAULT_OTHER_BOUNDS; "none": skip
    diagnosis: bool = True
    time_from: int | None = None
    time_to: int | None = None
    streams: tuple[StreamInput, ...] = ()
    static: tuple[str, ...] = ()
    static_default_triples: tuple[tuple[str, str, str], ...] = field(default=())
    #: the triples of each stream as N-Triples texts (condition (ii)), computed once for every
    #: comparison of a run (:func:`stream_triples`); ``None``: computed from the elements
    stream_triples: Mapping[str, Sequence[tuple[str, str, str]]] | None = None

    def __post_init__(self) -> None:  # the option strings of the conventions (D2), parsed once
        object.__setattr__(self, "window_bounds", WindowBounds.parse(self.window_bounds))
        if self.other_window_bounds not in (None, "none"):
            object.__setattr__(self, "other_window_bounds", WindowBounds.parse(self.other_window_bounds))

    @property
    def other_bounds(self) -> WindowBounds | None:
        other = self.other_window_bounds or DEFAULT_OTHER_BOUNDS[WindowBounds.parse(self.window_bounds)]
        return None if other in ("none", self.window_bounds) or not self.diagnosis else WindowBounds.parse(other)


def pull_period(pull_query, period: str | None, unit: str) -> int:
    """The pull period U in base units: ``period`` (a duration such as ``5m``, or an integer in base
    units), else the pull query's own COMPUTED EVERY or window STEP (D4)."""
    from translator.rdf.timeunits import duration_in_base_units

    value: int | None
    if period is not None:
        text = period.strip()
        value = int(text) if text.isdigit() else duration_in_base_units(text, unit)
    else:
        value = default_period(pull_query, TimeBase(unit))
        if value is None:
            raise RsplarsError("the pull query has no COMPUTED EVERY and no window STEP: give the pull period with --period")
    if value < 1:
        raise RsplarsError(f"the pull period must be positive, got {value}")
    return value


def collect_answers(compiled, elements, facts, *, end: int | None = None,
                    engine: str = "auto") -> dict[int, frozenset[Solution]]:
    """``{t: answer}`` at every evaluation time of ``compiled`` (pull: every multiple of U from 0,
    empty answers included; push: every time point with input), as agreement solutions, solved by
    the LARS engine ``engine`` (``translator.evaluate.engine.ENGINES``)."""
    evaluations = answers(compiled, elements, facts, end=end, engine=engine)
    return as_solutions(compiled.variables, ((ev.t, ev.rows) for ev in evaluations))


def as_solutions(variables: Sequence[str],
                 evaluations: Iterable[tuple[int, Iterable[Row]]]) -> dict[int, frozenset[Solution]]:
    """``{t: answer}`` from the rows of each evaluation time (rows as ``translator.evaluate.run``
    gives them): each distinct row becomes one :class:`Solution`, shared by every answer holding it,
    and an answer equal to the previous one is the same object (answers persist while their
    elements stay in the windows: memory follows the distinct answers)."""
    made: dict[Row, Solution] = {}

    def solution(row: Row) -> Solution:
        got = made.get(row)
        if got is None:
            got = made[row] = Solution.from_mapping(
                {v: term for v, term in zip(variables, row) if term is not None})
        return got

    out: dict[int, frozenset[Solution]] = {}
    previous_rows: Iterable[Row] | None = None
    previous: frozenset[Solution] = frozenset()
    for t, rows in evaluations:
        if rows != previous_rows:
            previous = frozenset(solution(row) for row in rows)
            previous_rows = rows
        out[t] = previous
    return out


def solve_sequentially(programs: Mapping[str, object], elements, facts, end: int | None, *,
                       engine: str = "auto") -> dict[str, dict[int, frozenset[Solution]]]:
    """The default :data:`Solver`: one program after the other with the LARS engine ``engine``."""
    return {label: collect_answers(c, elements, facts, end=end, engine=engine) for label, c in programs.items()}


def programs_of(comparison: Comparison, settings: Settings, *, pull_only: bool = False) -> dict[str, object]:
    """The compiled programs of the headline runs and, with the diagnosis, of its decomposition
    (``pull_only``: the pull query's headline run alone)."""
    base = TimeBase(settings.unit)

    def compiled(query, strategy: str, mode: str, bounds: str):
        return compile_query(query, strategy=strategy, mode=mode, period=settings.period if mode == "pull" else None,
                             bounds=bounds, base=base)

    bounds = settings.window_bounds
    if pull_only:
        return {"tau1_pull": compiled(comparison.pull_query, "tau1", "pull", bounds)}
    programs = {
        "tau1_pull": compiled(comparison.pull_query, "tau1", "pull", bounds),
        "tau2_push": compiled(comparison.push_query, "tau2", "push", bounds),
    }
    if settings.diagnosis:
        programs["tau2_pull"] = compiled(comparison.push_query, "tau2", "pull", bounds)
        other = settings.other_bounds
        if other is not None:
            programs["other_pull"] = compiled(comparison.pull_query, "tau1", "pull", other)
            programs["other_push"] = compiled(comparison.push_query, "tau2", "push", other)
    return programs


def stream_triples(elements) -> dict[str, list[tuple[str, str, str]]]:
    """The triples of each stream as N-Triples texts (for condition (ii)); each distinct term is
    converted once, and once per :class:`~translator.rdf.streams.ElementList` however many
    comparisons ask."""
    return (elements if isinstance(elements, ElementList) else ElementList(elements)).nt_triples()


def static_default_triples(paths: Iterable[str]) -> tuple[tuple[str, str, str], ...]:
    """The triples of the static default graph as N-Triples texts (the graph τ1 merges streams into)."""
    from translator.rdf.static import dataset_quads, load_dataset

    paths = list(paths)
    if not paths:
        return ()
    return tuple((to_nt(s), to_nt(p), to_nt(o)) for s, p, o, g in dataset_quads(load_dataset(paths)) if g is None)


def static_check(push_query, static_triples, triples_of_streams) -> StaticCheck:
    """Condition (ii) on the τ2 query: its stream patterns against the static default graph, its
    static patterns against the triples of every stream."""
    stream_patterns, static_patterns = condition_ii_patterns(push_query)
    return check_condition_ii(stream_patterns, static_patterns, list(static_triples), triples_of_streams)


def compare(comparison: Comparison, elements, facts, settings: Settings,
            solve: Solver = solve_sequentially, *, push_events: Answers | None = None) -> AgreementReport:
    """Compile and solve the runs of ``comparison`` over the data, judge every interval and
    diagnose the disagreements (:func:`translator.agreement.analysis.analyse`).

    ``push_events``: the push query is EP-SPARQL and these are its complex events reported at each
    event time, projected on the result variables (docs/epsparql.md); then only the pull query runs,
    and there is no diagnosis and no check of condition (ii) (an event pattern has no windows)."""
    events = push_events is not None
    inputs = ReportInputs(
        queries=(
            QueryInput("pull", comparison.pull_source, comparison.pull_query.dialect, "tau1"),
            QueryInput("push", comparison.push_source, comparison.push_query.dialect, "epsparql" if events else "tau2"),
        ),
        streams=settings.streams,
        period=settings.period,
        window_bounds=settings.window_bounds,
        mode=comparison.mode,
        static=settings.static,
        time_from=settings.time_from,
        time_to=settings.time_to,
        time_unit=settings.unit,
    )
    notes = [comparison.label, f"period U = {settings.period} {settings.unit}"]
    solved: Mapping[str, Answers]
    if push_events is not None:
        pull = programs_of(comparison, settings, pull_only=True)
        solved = {**solve(pull, elements, facts, settings.time_to), "tau2_push": push_events}
        check = None
        notes.append("EP-SPARQL push query: the complex events reported in (t1, t2] (their intervals dropped) "
                     "against the pull answer at t2; no diagnosis runs (an event pattern has no windows)")
    else:
        solved = solve(programs_of(comparison, settings), elements, facts, settings.time_to)
        triples = settings.stream_triples if settings.stream_triples is not None else stream_triples(elements)
        check = static_check(comparison.push_query, settings.static_default_triples, triples)
    other = None
    other_bounds = settings.other_bounds
    if other_bounds is not None and "other_pull" in solved:  # programs_of adds it only then
        other = BoundsAlternative(other_bounds, solved["other_pull"], solved["other_push"])
    if settings.time_to is None:
        notes.append("no --to: the runs end at the last input rounded up to a multiple of U; windows that "
                     "still hold data later are not judged (give --to to extend the timeline)")
    return analyse(inputs, solved["tau1_pull"], solved["tau2_push"], tau2_pull=solved.get("tau2_pull"),
                   other=other, static_check=check, notes=tuple(notes))
