"""Agreement of a pull-based and a push-based run, interval by interval (Dao-Tran, Beck, Eiter
2015, §5): :func:`agree` → :class:`AgreementResult`, as ``rsplars agree`` (docs/agreement.md,
docs/agreement-report.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from lars.errors import RsplarsError

from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from translator.options import EventOptions, TranslationOptions
from rsplars.queries import QueryInput, as_query, source_of
from rsplars.spark import SparkOptions, agreement_solver, spark_settings

__all__ = ["AgreementResult", "Agreements", "EventFinder", "Solver", "agree", "agreements"]

Solver = Callable[[Mapping[str, Any], Any, Any, "int | None"], Mapping[str, Any]]
"""How the runs of an agreement are solved: ``solve(programs, elements, facts, end)`` → the answers of
each program by label (:func:`translator.agreement.compare.solve_sequentially` by default; the
command line may pass its parallel or Spark solvers, which give the same answers)."""

EventFinder = Callable[[Any, Any, "int | None"], Iterable[Any]]
"""How an EP-SPARQL push query's complex events are found: ``find(compiled, elements, end)`` → its
evaluations (:func:`translator.evaluate.epsparql_run.event_answers` by default)."""


@dataclass(frozen=True, repr=False)
class AgreementResult:
    """One agreement analysis: ``label`` (which runs were compared) and ``report``, the
    :class:`translator.agreement.report.AgreementReport` (inputs, the verdict of every interval,
    the diagnosis of the disagreements, the static check of condition (ii))."""

    label: str
    report: Any

    def __repr__(self) -> str:
        summary = self.report.result.summary
        return (f"AgreementResult({self.label!r}, intervals={summary.intervals}, agreeing={summary.agreeing}, "
                f"disagreeing={summary.disagreeing})")

    @property
    def all_agree(self) -> bool:
        """Whether every judged interval agrees."""
        return bool(self.report.result.summary.all_agree)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (``rsplars agree --report``; schema in docs/agreement-report.md)."""
        from translator.agreement.report_json import report_to_json

        return report_to_json(self.report)

    def table(self, max_rows: int = 40) -> str:
        """The table ``rsplars agree`` prints (intervals, summary, first disagreements)."""
        from translator.agreement.table import render_table

        return str(render_table(self.report, max_rows=max_rows))

    def html(self) -> str:
        """The HTML report with the agreement plot (``rsplars agree --html``)."""
        from translator.agreement.report_html import render_html

        return str(render_html(self.report))

    def write(self, json: str | os.PathLike[str] | None = None, html: str | os.PathLike[str] | None = None) -> None:
        """The JSON report to ``json`` and the HTML report to ``html``, where given, each rendered
        first and then written atomically (an interrupted write leaves no partial report;
        ``rsplars agree --report --html``)."""
        if json:
            from translator.agreement.report_json import write_json

            write_json(self.report, json)
        if html:
            from translator.agreement.report_html import write_html

            write_html(self.report, html)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame with one row per judged interval: ``index``, ``start``, ``end``,
        ``verdict`` (``agree``/``disagree``), and the numbers of solutions ``pull``, ``push``,
        ``missing`` and ``extra``."""
        from rsplars.running import _pandas

        records = [{"index": i["index"], "start": i["start"], "end": i["end"], "verdict": i["verdict"],
                    **{k: len(i[k]) for k in ("pull", "push", "missing", "extra")}}
                   for i in self.to_dict()["intervals"]]
        return _pandas().DataFrame(records, columns=["index", "start", "end", "verdict", "pull", "push", "missing",
                                                     "extra"])


def agree(query: QueryInput | None = None, streams: Mapping[str, StreamInput] | None = None,
          static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
          pull: QueryInput | None = None, push: QueryInput | None = None, as_variant: str = "cqels-brave",
          assign: Mapping[int, str] | None = None, period: str | None = None, unit: str = "s",
          window_bounds: str = "closed", other_window_bounds: str | None = None, diagnosis: bool = True,
          start: int | None = None, end: int | None = None, events: EventOptions = EventOptions(),
          lars_engine: str = "auto",
          stream_time_unit: str | None = None, epoch: str | None = None,
          static_during: Sequence[StaticDuring] = (), engine: str = "sequential",
          spark: SparkOptions | None = None) -> AgreementResult:
    """Do a pull-based and a push-based run of a query agree, interval by interval? (Dao-Tran,
    Beck, Eiter 2015, §5; ``rsplars agree``.)

    Either one ``query`` — cs(Q) run with τ1, pulled, against the member ``as_variant`` of cq(Q)
    (``cqels-brave`` or ``cqels-cautious``) run with τ2, pushed — or ``pull`` and ``push``: two
    queries (``push`` may be an EP-SPARQL query: its complex events, pushed, under the ``events``
    policies). ``period``: the pull period (a duration such as ``"5m"``, or base units; default the
    pull query's COMPUTED EVERY or window STEP, D4); ``window_bounds`` (D2) and
    ``other_window_bounds`` (the second convention of the diagnosis, ``"none"`` to skip);
    ``diagnosis=False``: the two headline runs only; ``start``/``end``: the judged range;
    ``lars_engine``: ``auto``, ``incremental`` or ``asp`` (clingo), for every run;
    ``engine="spark"``: the runs solved block by block on Spark where ``spark`` (:class:`SparkOptions`)
    says, the same verdicts (:mod:`rsplars.spark`).
    Streams, static data and times as for :func:`rsplars.run`.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }'''
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> result = rsplars.agree(q, {"http://example.org/s": data}, period="2", end=4)
    >>> [(i["start"], i["end"], i["verdict"]) for i in result.to_dict()["intervals"]]
    [(0, 2, 'disagree'), (2, 4, 'agree')]
    >>> rsplars.agree(q, {"http://example.org/s": data}, period="2", end=4,
    ...               engine="spark").to_dict()["intervals"] == result.to_dict()["intervals"]  # doctest: +SKIP
    True
    """
    spark_solve = None if (on_spark := spark_settings(engine, spark)) is None else \
        agreement_solver(on_spark, lars_engine)  # Spark: rsplars.spark

    if as_variant == "cqels-all":
        raise RsplarsError("as_variant cqels-all gives one agreement per member of cq(Q): use rsplars.agreements")
    (result,) = agreements(query, streams, static, named, pull=pull, push=push, as_variant=as_variant,
                           assign=assign, period=period, unit=unit, window_bounds=window_bounds,
                           other_window_bounds=other_window_bounds, diagnosis=diagnosis, start=start, end=end,
                           events=events, lars_engine=lars_engine, stream_time_unit=stream_time_unit, epoch=epoch,
                           static_during=static_during, solve=spark_solve)
    return result


def agreements(query: QueryInput | None = None, streams: Mapping[str, StreamInput] | None = None,
               static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
               pull: QueryInput | None = None, push: QueryInput | None = None, as_variant: str = "cqels-brave",
               assign: Mapping[int, str] | None = None, period: str | None = None, unit: str = "s",
               window_bounds: str = "closed", other_window_bounds: str | None = None, diagnosis: bool = True,
               start: int | None = None, end: int | None = None, events: EventOptions = EventOptions(),
               lars_engine: str = "auto", stream_time_unit: str | None = None, epoch: str | None = None,
               static_during: Sequence[StaticDuring] = (), solve: Solver | None = None,
               find_events: EventFinder | None = None, accounting: Any = None, freeze_data: bool = False,
               on_note: Callable[[str], None] | None = None) -> Agreements:
    """The agreements of :func:`agree`, one per pushed member (:class:`Agreements`: their labels, and
    each analysed when the iteration reaches it; the data read once): with ``as_variant="cqels-all"`` one per member of cq(Q) (``2^|S|``, one per set
    of cautious streams), else the one of :func:`agree` (``rsplars agree``, ``--as cqels-all``).
    ``solve`` and ``find_events``: how the runs are solved (:data:`Solver`, :data:`EventFinder`);
    ``accounting``: counts the stream elements (as for :func:`rsplars.check`), once every agreement
    is analysed; ``freeze_data``: keep the data read out of the garbage collector's walks
    (:func:`gc.freeze`, for a process that ends with the analysis); ``on_note``: the remarks
    (EP-SPARQL compilation warnings).

    >>> import rsplars
    >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> [r.label for r in rsplars.agreements(q, {"http://example.org/s": data}, as_variant="cqels-all", period="2")]
    ['cs(Q) pulled (τ1) vs cq(Q) cautious on no stream (brave) pushed (τ2)', \
'cs(Q) pulled (τ1) vs cq(Q) cautious on <http://example.org/s> pushed (τ2)']
    """
    from translator.agreement import StreamInput as ReportStream
    from translator.agreement.compare import Settings, compare, pull_period, solve_sequentially, \
        static_default_triples
    from translator.rdf.streams import ElementList

    if query is not None and (pull is not None or push is not None):
        raise RsplarsError("give either one query or pull and push, not both")
    if query is None and (pull is None or push is None):
        raise RsplarsError("give one query, or both pull and push")
    if start is not None and start < 0:
        raise RsplarsError(f"start {start} is negative")
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    if not streams:
        raise RsplarsError("an agreement needs streams (IRI → data)")
    data = read_data(streams, static, named, unit=unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during, accounting=accounting)
    elements = ElementList(data.elements)  # its LARS stream and N-Triples texts are built once for every run
    comparisons = _comparisons(query, pull, push, as_variant, assign, elements)
    if freeze_data:
        import gc

        gc.freeze()
    settings = Settings(
        period=pull_period(comparisons[0][1].pull_query, period, unit),
        unit=unit,
        window_bounds=window_bounds,
        other_window_bounds=other_window_bounds,
        diagnosis=diagnosis,
        time_from=start,
        time_to=end,
        streams=tuple(ReportStream(iri, data.stream_files.get(iri, "<data>")) for iri in data.stream_iris),
        static=data.static_files,
        static_default_triples=static_default_triples(data.static_files),
        stream_triples=elements.nt_triples(),
    )

    def sequential(programs: Any, elements: Any, facts: Any, last: int | None) -> Any:
        return solve_sequentially(programs, elements, facts, last, engine=lars_engine)

    def analyse() -> Iterator[AgreementResult]:
        for label, comparison in comparisons:
            push_events = None
            if comparison.push_query.dialect == "epsparql":  # complex events, pushed (docs/epsparql.md)
                push_events = _event_answers(comparison.push_query, elements, events, unit, end, lars_engine,
                                             find_events, on_note)
            yield AgreementResult(label, compare(comparison, elements, data.facts, settings,
                                                 solve=solve or sequential, push_events=push_events))
        if accounting is not None:
            from translator.evaluate.accounting import count_elements

            count_elements(accounting, elements, end if end is not None else max((e.t for e in elements), default=None))

    return Agreements(tuple(label for label, _ in comparisons), analyse())


class Agreements:
    """The agreements of :func:`agreements`: ``labels`` (which runs each compares; ``len`` is their
    number) and, iterated, each :class:`AgreementResult` in turn, analysed when it is reached."""

    def __init__(self, labels: tuple[str, ...], results: Iterator[AgreementResult]) -> None:
        self.labels = labels
        self._results = results

    def __len__(self) -> int:
        return len(self.labels)

    def __iter__(self) -> Iterator[AgreementResult]:
        return self._results

    def __repr__(self) -> str:
        return f"Agreements({list(self.labels)!r})"


def _event_answers(query: Any, elements: Any, events: EventOptions, unit: str, end: int | None,
                   lars_engine: str, find_events: EventFinder | None,
                   on_note: Callable[[str], None] | None) -> dict[int, frozenset[Any]]:
    """The complex events of an EP-SPARQL push query at every event time, projected on the result
    variables (their intervals dropped: the pull engine has none), as agreement solutions."""
    from translator.agreement import Solution
    from translator.evaluate.epsparql_run import event_answers, policy_answers
    from translator.translate.epsparql import compile_epsparql, compile_policy_operands
    from translator.translate.normalize import TimeBase

    base = TimeBase(unit)
    compiled: Any = (compile_policy_operands(query, base=base) if events.restricted else
                     compile_epsparql(query, base=base))
    if on_note is not None:
        for warning in compiled.warnings:
            on_note(f"warning: {warning}")
    if compiled.form == "construct":
        raise RsplarsError("agree compares SELECT answers: the EP-SPARQL query is a CONSTRUCT query")
    found: Any
    if events.restricted:
        found = policy_answers(compiled, elements, selection=events.selection, consumption=events.consumption,
                               reading=events.policy_reading, end=end, engine=lars_engine)
    elif find_events is not None:
        found = find_events(compiled, elements, end)
    else:
        found = event_answers(compiled, elements, end=end, engine=lars_engine)
    return {ev.t: frozenset(Solution.from_mapping(dict(zip(compiled.variables, row))) for row, _, _ in ev.rows)
            for ev in found}


def _comparisons(query: QueryInput | None, pull: QueryInput | None, push: QueryInput | None, as_variant: str,
                 assign: Mapping[int, str] | None, elements: Any) -> list[tuple[str, Any]]:
    """[(label, :class:`translator.agreement.compare.Comparison`)] of the headline pairs, one per
    pushed member, labelled as ``rsplars agree`` labels them."""
    from translator.agreement.compare import Comparison
    from translator.translate.compile import counterparts

    if as_variant not in ("cqels-brave", "cqels-cautious", "cqels-all"):
        raise RsplarsError(f"as_variant must be cqels-brave, cqels-cautious or cqels-all, got {as_variant!r}")
    if query is not None:
        q = as_query(query)
        if q.dialect == "epsparql":
            raise RsplarsError("an EP-SPARQL query has no CQELS counterpart: compare it with a C-SPARQL or CQELS "
                               "query (pull=…, push=…)")
        source = source_of(q).source
        return [(label, Comparison(label, q, member, source, source, as_variant))
                for label, member in ((f"cs(Q) pulled (τ1) vs {m} pushed (τ2)", member)
                                      for m, member in _members(q, as_variant, assign, elements))]
    assert pull is not None and push is not None
    a, b = as_query(pull), as_query(push)
    if a.dialect == "epsparql":
        raise RsplarsError("an EP-SPARQL query is push-evaluated (on every event): give it as push")
    sa, sb = source_of(a).source, source_of(b).source
    if b.dialect == "epsparql":
        label = "QUERY_A pulled (τ1) vs EP-SPARQL QUERY_B pushed (complex events)"
        return [(label, Comparison(label, a, b, sa, sb, "two-queries"))]
    if b.dataset.streams:  # C-SPARQL: τ2 needs its CQELS counterpart
        members = _members(b, as_variant, assign, elements)
    elif as_variant != "cqels-brave":
        members = list(counterparts(b, as_variant))
    else:
        label = "QUERY_A pulled (τ1) vs QUERY_B pushed (τ2)"
        return [(label, Comparison(label, a, b, sa, sb, "two-queries"))]
    return [(label, Comparison(label, a, member, sa, sb, "two-queries"))
            for label, member in ((f"QUERY_A pulled (τ1) vs {m} of QUERY_B pushed (τ2)", member)
                                  for m, member in members)]


def _members(query: Any, as_variant: str, assign: Mapping[int, str] | None, elements: Any) -> list[tuple[str, Any]]:
    from translator.translate.variants import assignment_of
    from translator.translate.compile import counterparts

    assignment = None
    if query.dialect == "csparql":
        assignment = assignment_of(query, TranslationOptions(assign=dict(assign or {})), elements)
    return list(counterparts(query, as_variant, assignment))
