"""Two engines' recorded outputs of one query on one input, compared interval by interval, with
the cause of every interval that does not agree: :func:`agree_recorded` →
:class:`RecordedAgreementResult`, as ``rsplars agree QUERY --answers A --answers B`` (the agreement of
Dao-Tran, Beck, Eiter 2015, §5, between real engines; each output's settings inferred as in
Dell'Aglio et al. 2014, Def. 25; :mod:`translator.agreement.recorded_agreement`, docs/check.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping, Sequence, Union

from lars.errors import RsplarsError

from rsplars.checking import _count, read_answers_text, write_report
from rsplars.notes import Note, Notes
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from rsplars.queries import QueryInput, as_query, source_of
from translator.options import ProfileOptions
from translator.translate.variants import check_stream_iris

__all__ = ["RecordedAgreementResult", "RecordedAnswers", "agree_recorded"]


@dataclass(frozen=True)
class RecordedAnswers:
    """One engine's recorded output: a file (``-``: stdin) read as ``format`` (``auto``: by content)
    with timestamps in ``time_unit`` (``None``: the stream time unit of the call, else its unit).

    >>> RecordedAnswers("out.jsonl", time_unit="ms").format
    'auto'
    """

    path: Union[str, "os.PathLike[str]"]
    format: str = "auto"
    time_unit: str | None = None


@dataclass(frozen=True, repr=False)
class RecordedAgreementResult:
    """The comparison of two recorded outputs: ``agree`` (every interval agrees, in total) and
    ``report``, the JSON report of ``rsplars agree --answers A --answers B --report`` (the intervals,
    each output's settings, the profile difference, the cause of each disagreement)."""

    agree: bool
    report: dict[str, Any]
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (f"RecordedAgreementResult(agree={self.agree}, intervals={self.report['intervals']}, "
                f"agreeing={self.report['agreeing']})")

    def html(self) -> str:
        """The HTML report (``rsplars agree --answers A --answers B --html``)."""
        from translator.agreement.recorded_agreement_html import render_recorded_html

        return str(render_recorded_html(self.report))

    def write(self, json: str | os.PathLike[str] | None = None, html: str | os.PathLike[str] | None = None) -> None:
        """The JSON and HTML reports, where given, each written atomically (no partial report)."""
        from translator.agreement.recorded_agreement_html import render_recorded_html

        write_report(self.report, json, html, render_recorded_html)


def agree_recorded(query: QueryInput, a: RecordedAnswers | str | os.PathLike[str],
                   b: RecordedAnswers | str | os.PathLike[str], streams: Mapping[str, StreamInput],
                   static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
                   fixed: ProfileOptions = ProfileOptions(), window_bounds: str | None = None, unit: str = "s",
                   period: str | None = None, start: int | None = None, end: int | None = None,
                   compare: str = "bags", lars_engine: str = "auto", stream_time_unit: str | None = None,
                   epoch: str | None = None, static_during: Sequence[StaticDuring] = (), accounting: Any = None,
                   on_note: Note | None = None) -> RecordedAgreementResult:
    """Do two engines' recorded outputs ``a`` and ``b`` of ``query`` over ``streams`` agree, interval
    by interval? ``period``: the interval length (a duration, or base units; default the query's
    COMPUTED EVERY or window STEP, D4); ``start``/``end``: the judged range; ``fixed``: parameters
    fixed in the inference of each output's settings (``t0``, ``report_policy``, ``tick``, ``r2s``,
    ``empty_relations``, ``cc_mode``, ``window_alignment``, ``horizon``; its ``profile`` fixes
    nothing); ``window_bounds``: fixed too, if given. ``accounting``, ``on_note`` and the data as for
    :func:`rsplars.check`.

    >>> import rsplars, tempfile, pathlib
    >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "s.nt").write_text('<http://example.org/a> <http://example.org/p> "1" "1" .\\n')
    >>> _ = (folder / "a.jsonl").write_text('{"t": 2, "answers": [{"x": "<http://example.org/a>"}]}\\n')
    >>> _ = (folder / "b.jsonl").write_text('{"t": 2, "answers": [{"x": "<http://example.org/a>"}]}\\n')
    >>> rsplars.agree_recorded(q, folder / "a.jsonl", folder / "b.jsonl",
    ...                        {"http://example.org/s": folder / "s.nt"}).agree
    True
    """
    from translator.agreement.compare import pull_period
    from translator.agreement.inference import parameter_space
    from translator.agreement.recorded_agreement import compare_recorded
    from translator.evaluate.operational import Evaluator
    from translator.evaluate.report_policy import parse_report
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase

    if fixed.report_period is not None or fixed.report_window is not None:
        raise RsplarsError("the settings of recorded outputs are searched with the periodic strategy at the window's "
                           "slide and every window reporting; report_period and report_window are not searched")
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    if not streams:
        raise RsplarsError("recorded outputs are compared on the streams the engines read (IRI → data)")
    parsed = as_query(query)
    notes = Notes(on_note)
    check_stream_iris(parsed, [str(iri).strip("<>") for iri in streams], notes)
    sides = [x if isinstance(x, RecordedAnswers) else RecordedAnswers(x) for x in (a, b)]
    outputs = [_read(parsed, side, unit, stream_time_unit, notes) for side in sides]
    data = read_data(streams, static, named, unit=unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during, accounting=accounting)
    every = pull_period(parsed, period, unit)
    # the query's own τ strategy; the evaluator compiles the windows each report sees
    compiled = compile_query(parsed, mode="none", bounds=window_bounds or "closed", base=TimeBase(unit))
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(unit), data.elements, data.facts,
                          engine=lars_engine)
    if evaluator.form != "select":
        raise RsplarsError(f"recorded outputs are compared as SELECT answers; this is a {evaluator.form.upper()} query")
    space = parameter_space(evaluator, t0=fixed.t0,
                            report=parse_report(fixed.report_policy) if fixed.report_policy is not None else None,
                            cc_mode=fixed.cc_mode, tick=fixed.tick, r2s=fixed.r2s,
                            empty_relations=fixed.empty_relations, window_bounds=window_bounds,
                            window_alignment=fixed.window_alignment, horizon=fixed.horizon)
    report = compare_recorded(evaluator, outputs[0], outputs[1], space, period=every, start=start, end=end,
                              sources=(os.fspath(sides[0].path), os.fspath(sides[1].path)), compare=compare)
    report = {"query": source_of(parsed).source, **report}
    _count(accounting, data.elements, end)
    return RecordedAgreementResult(bool(report["agree"]), report, tuple(notes))


def _read(query: Any, side: RecordedAnswers, unit: str, stream_time_unit: str | None, notes: list[str]) -> list[Any]:
    """The relations of one recorded output, its reading said in ``notes``."""
    from translator.agreement.answers import read_answer_text
    from translator.agreement.check import time_factor
    from translator.query.model import result_variables

    text, source = read_answers_text(side.path)
    got = read_answer_text(text, source, fmt=side.format,
                           time_factor=time_factor(side.time_unit or stream_time_unit or unit, unit),
                           variables=[v.name for v in result_variables(query)])
    notes.append(f"answers: {got.description} ({source})")
    return list(got.relations)
