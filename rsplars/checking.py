"""Judging a real engine's recorded output: :func:`check` (is it correct under an engine profile?
Dell'Aglio et al. 2014, Defs. 25–26; the CSRBench oracle of Dell'Aglio et al. 2013, §6) and
:func:`infer` (which settings explain it?), as ``rsplars check`` and ``rsplars check --infer``
(docs/check.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, Union

from lars.errors import RsplarsError

from translator.translate.variants import check_stream_iris, compile_variants
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from translator.options import ProfileOptions, TranslationOptions
from rsplars.queries import QueryInput, as_query, read_file, source_of
from rsplars.notes import Note, Notes

__all__ = ["AnswersInput", "CheckResult", "InferenceResult", "Note", "check", "infer", "write_report"]

"""Called with each remark of a check as it arises (what ``rsplars check`` says on stderr: how the
answers were read, streams without data, translation notes)."""

AnswersInput = Union[str, "os.PathLike[str]", Mapping[int, Iterable[Mapping[str, str]]], Any]
"""An engine's output: a file (CSRBench, SPARQL JSON, JSON lines, CSV, TSV, Yasper, the C-SPARQL
console; the format is detected or given), ``{t: [solution, …]}`` with N-Triples terms
(``{"room": "<http://ex.org/r1>"}``), or a :class:`rsplars.RunResult`."""


@dataclass(frozen=True, repr=False)
class CheckResult:
    """The verdict on an engine's output: ``correct``, and ``report``, the JSON report of
    ``rsplars check --json`` (the t0 vectors tried, the matching one, or the first mismatch with
    its diagnosis, the expected vs actual ``timeline``)."""

    correct: bool
    report: dict[str, Any]
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"CheckResult(correct={self.correct}, profile={self.report.get('profile')!r})"

    def write(self, json: str | os.PathLike[str] | None = None, html: str | os.PathLike[str] | None = None) -> None:
        """The JSON report to ``json`` and the HTML report to ``html``, where given, each written
        atomically (an interrupted write leaves no partial report; ``rsplars check --json --html``).

        >>> import rsplars, tempfile, json, pathlib
        >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
        >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
        >>> result = rsplars.check(q, {2: []}, {"http://example.org/s": data}, profile="csparql")
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "report.json"
        >>> result.write(json=path)
        >>> json.loads(path.read_text())["correct"] == result.correct
        True
        """
        from translator.agreement.check_html import render_html

        write_report(self.report, json, html, render_html)

    def to_dataframe(self) -> Any:
        """The timeline as a pandas DataFrame, one row per timestamp: ``t``, ``expected`` and
        ``actual`` (lists of solutions, ``None`` where there is no relation) and ``equal``."""
        from rsplars.running import _pandas

        rows = self.report.get("timeline") or []
        columns = ["t", "expected", "actual", "equal"] if not rows or "equal" in rows[0] else \
            ["index", "t", "expected", "actual"]
        return _pandas().DataFrame([{c: row.get(c) for c in columns} for row in rows], columns=columns)

    def summary(self) -> str:
        """What ``rsplars check`` prints: the verdict, the matching t0 or the first mismatch with its
        diagnosis."""
        from translator.agreement.check_text import render_summary

        return str(render_summary(self.report))

    def html(self) -> str:
        """The HTML report (expected vs actual timeline; ``rsplars check --html``)."""
        from translator.agreement.check_html import render_html

        return str(render_html(self.report))


@dataclass(frozen=True, repr=False)
class InferenceResult:
    """The settings that explain an engine's output (:mod:`translator.agreement.inference`):
    ``explained``, ``report`` (``rsplars check --infer --json``: the parameter values that explain
    it, the profiles that do) and ``inference``, the full result."""

    explained: bool
    report: dict[str, Any]
    inference: Any
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"InferenceResult(explained={self.explained}, profiles={self.profiles})"

    def html(self) -> str:
        """The HTML report (the settings searched and those that explain; ``rsplars check --infer --html``)."""
        from translator.agreement.inference_html import render_inference_html

        return str(render_inference_html(self.report))

    def write(self, json: str | os.PathLike[str] | None = None, html: str | os.PathLike[str] | None = None) -> None:
        """The JSON and HTML reports, where given, each written atomically (as :meth:`CheckResult.write`)."""
        from translator.agreement.inference_html import render_inference_html

        write_report(self.report, json, html, render_inference_html)

    @property
    def profile_untested(self) -> bool:
        """Whether the profile asked about (``fixed.profile``) fails to explain the output only as far
        as searched: a content-change profile with the tuple tick, which the search left out."""
        from translator.evaluate.profiles import PROFILES

        name = self.report.get("profile")
        if name is None or name in self.profiles:
            return False
        p = PROFILES[name].params
        return bool(p.tick == "tuple" and "content-change" in p.report and
                    any("tuple tick" in r for r in self.inference.unsearched))

    @property
    def profiles(self) -> list[str]:
        """The engine profiles whose settings explain the output."""
        return list(self.report["inference"]["profiles"])

    def describe(self) -> list[str]:
        """The lines ``rsplars check --infer`` prints."""
        from translator.agreement.inference import describe

        return list(describe(self.inference))


def check(query: QueryInput, answers: AnswersInput, streams: Mapping[str, StreamInput] | None = None,
          static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
          profile: str | ProfileOptions | None = None, options: TranslationOptions = TranslationOptions(),
          registration: int = 0, warm_up: int | None = None, end: int | None = None,
          ignore_timestamps: bool = False, max_candidates: int = 2000, answers_format: str = "auto",
          answers_time_column: str | None = None, answers_time_unit: str | None = None, lars_engine: str = "auto",
          stream_time_unit: str | None = None, epoch: str | None = None,
          static_during: Sequence[StaticDuring] = (), compare: str = "bags", accounting: Any = None,
          on_note: Note | None = None) -> CheckResult:
    """Is ``answers``, an engine's recorded output of ``query`` over ``streams``, correct under the
    engine ``profile`` (a name such as ``"csparql"``, or :class:`ProfileOptions`)? Every candidate
    t0 is tried (Dell'Aglio et al. 2014, Def. 25; from ``registration``); ``warm_up``: compare
    from that time on (Def. 26); ``ignore_timestamps``: the CSRBench oracle (a contiguous part of
    the expected relations). ``answers_time_unit``: the unit of the answers' timestamps (default
    ``options.unit``); ``lars_engine``: the LARS engine of the expected outputs' runs. Streams,
    static data and times as for :func:`rsplars.run`. ``compare``: ``bags`` (SPARQL's multisets: a row
    dropped or doubled is wrong) or ``sets`` (the papers' set view). ``accounting``: a
    :class:`lars.accounting.Accounting` that counts the stream elements read, skips bad ones if it
    says so, and gets the numbers used (the summary ``rsplars check`` prints); ``on_note``: called
    with each remark as it arises (also in the result's ``notes``).

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }'''
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> output = {2: [{"x": "<http://example.org/a>"}]}
    >>> rsplars.check(q, output, {"http://example.org/s": data}, profile="cqels").correct
    False
    """
    from translator.agreement.check import check as judge
    from translator.evaluate.operational import Evaluator
    from translator.translate.normalize import TimeBase

    notes = Notes(on_note)
    parsed, data, actual, described = _inputs(query, answers, streams, static, named, options, answers_format,
                                              answers_time_column, answers_time_unit, stream_time_unit, epoch,
                                              static_during, accounting, notes)
    chosen = ProfileOptions(profile) if isinstance(profile, str) else profile
    if chosen is None:
        from rsplars.translating import dialect_profile

        chosen = dialect_profile(parsed, replace(options, mode=None, period=None, as_variant=None), None)
    if chosen is None or (chosen.profile is None and chosen.report_policy is None):
        raise RsplarsError("check needs the engine's profile (profile=NAME, see `rsplars profiles`) or at least "
                           "its report policy (ProfileOptions(report_policy=…))")
    from translator.evaluate.profiles import operational_parameters

    op: Any = operational_parameters(chosen, window_bounds=options.window_bounds, unit=options.unit)
    plain = replace(options, window_bounds=op.window_model, mode="none")
    ((_, compiled),) = compile_variants(parsed, plain, data.elements, notes)
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(options.unit), data.elements, data.facts,
                          engine=lars_engine)
    if evaluator.form != "select":
        raise RsplarsError(f"check judges SELECT answers; this is a {evaluator.form.upper()} query")
    verdict = judge(evaluator, actual, op, registration=registration, t0_fixed=chosen.t0 is not None,
                    ignore_timestamps=ignore_timestamps, warm_up=warm_up, max_candidates=max_candidates, end=end,
                    compare=compare)
    report = {"correct": verdict.correct, "query": source_of(parsed).source, **described,
              "profile": chosen.profile, **{k: v for k, v in verdict.report.items() if k != "correct"}}
    _count(accounting, data.elements, end)
    return CheckResult(bool(verdict.correct), report, tuple(notes))


def infer(query: QueryInput, answers: AnswersInput, streams: Mapping[str, StreamInput] | None = None,
          static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
          fixed: ProfileOptions = ProfileOptions(), window_bounds: str | None = None, unit: str = "s",
          registration: int = 0, warm_up: int | None = None, end: int | None = None,
          ignore_timestamps: bool = False, max_candidates: int = 2000, max_tuple_evaluations: int = 1000,
          answers_format: str = "auto", answers_time_column: str | None = None,
          answers_time_unit: str | None = None, lars_engine: str = "auto", stream_time_unit: str | None = None,
          epoch: str | None = None, static_during: Sequence[StaticDuring] = (),
          compare: str = "bags", options: TranslationOptions | None = None, accounting: Any = None,
          on_note: Note | None = None) -> InferenceResult:
    """Which settings explain ``answers``? Searches t0, the report policy, the content-change
    reading, the tick, R2S, the window bounds and the empty relations (those ``fixed`` gives, and
    ``window_bounds``, are not searched; ``fixed.profile`` fixes nothing: the report says whether
    that profile explains the output). ``options``: which query is judged (``as_variant``,
    ``assign``, ``strategy``; its ``window_bounds`` and ``unit`` replace ``window_bounds`` and
    ``unit``). As ``rsplars check --infer``; other arguments as :func:`check`.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }'''
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> output = {2: [{"x": "<http://example.org/a>"}]}
    >>> "csparql" in rsplars.infer(q, output, {"http://example.org/s": data}).profiles
    True
    """
    from translator.agreement.inference import infer as search
    from translator.agreement.inference import parameter_space
    from translator.evaluate.operational import Evaluator
    from translator.evaluate.report_policy import parse_report
    from translator.translate.normalize import TimeBase

    if fixed.report_period is not None or fixed.report_window is not None:
        raise RsplarsError("infer searches the periodic strategy with the window's slide and every window "
                           "reporting; report_period and report_window are not searched")
    if options is not None:
        window_bounds, unit = options.window_bounds, options.unit
    options = replace(options or TranslationOptions(), unit=unit, window_bounds=window_bounds or "closed", mode="none",
                      period=None)
    notes = Notes(on_note)
    parsed, data, actual, described = _inputs(query, answers, streams, static, named, options, answers_format,
                                              answers_time_column, answers_time_unit, stream_time_unit, epoch,
                                              static_during, accounting, notes)
    ((_, compiled),) = compile_variants(parsed, options, data.elements, notes)
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase(unit), data.elements, data.facts, engine=lars_engine)
    if evaluator.form != "select":
        raise RsplarsError(f"check judges SELECT answers; this is a {evaluator.form.upper()} query")
    space = parameter_space(
        evaluator, registration=registration, t0=fixed.t0,
        report=parse_report(fixed.report_policy) if fixed.report_policy is not None else None,
        cc_mode=fixed.cc_mode, tick=fixed.tick, r2s=fixed.r2s, empty_relations=fixed.empty_relations,
        window_bounds=window_bounds, window_alignment=fixed.window_alignment, horizon=fixed.horizon,
        max_candidates=max_candidates, actual=actual, ignore_timestamps=ignore_timestamps, warm_up=warm_up,
        end=end)
    result = search(evaluator, actual, space, ignore_timestamps=ignore_timestamps, warm_up=warm_up, end=end,
                    max_tuple_evaluations=max_tuple_evaluations, compare=compare)
    report: dict[str, Any] = {
        "correct": result.explained, "query": source_of(parsed).source,
        **{k: v for k, v in described.items() if k != "answers_grouped_by_timestamp"},
        "comparison": "oracle (contiguous subsequence, timestamps ignored)" if ignore_timestamps else "timed (Def 25)",
        "compare": result.compare, "inference": result.as_dict()}
    if ignore_timestamps and not actual:
        report["note"] = "an empty output is contained in every expected output (as in the CSRBench oracle)"
    if fixed.profile is not None:
        report["profile"] = fixed.profile
        report["profile_explains"] = fixed.profile in report["inference"]["profiles"]
    _count(accounting, data.elements, end)
    return InferenceResult(bool(result.explained), report, result, tuple(notes))


def write_report(report: Mapping[str, Any], json_path: str | os.PathLike[str] | None,
                 html_path: str | os.PathLike[str] | None = None,
                 render_html: Callable[[Any], str] | None = None) -> None:
    """``report`` as JSON to ``json_path`` and ``render_html(report)`` to ``html_path``, where given,
    each written atomically (:func:`translator.evaluate.fileio.atomic_output`: an interrupted write
    leaves the old file or none, never a partial report)."""
    import json

    from translator.evaluate.fileio import atomic_output

    if json_path:
        with atomic_output(os.fspath(json_path)) as out:
            out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if html_path:
        if render_html is None:
            raise RsplarsError("this report has no HTML form")
        with atomic_output(os.fspath(html_path)) as out:
            out.write(render_html(report))


def _count(accounting: Any, elements: Sequence[Any], end: int | None) -> None:
    """The elements used up to ``end`` (else the last element's time) counted in ``accounting``."""
    if accounting is None:
        return
    from translator.evaluate.accounting import count_elements

    count_elements(accounting, elements, end if end is not None else max((e.t for e in elements), default=None))


def _inputs(query: QueryInput, answers: AnswersInput, streams: Mapping[str, StreamInput] | None, static: StaticInput,
            named: Mapping[str, str | os.PathLike[str]] | None, options: TranslationOptions, answers_format: str,
            answers_time_column: str | None, answers_time_unit: str | None, stream_time_unit: str | None,
            epoch: str | None, static_during: Sequence[StaticDuring], accounting: Any,
            notes: list[str]) -> tuple[Any, Any, list[Any], dict[str, Any]]:
    """(query, data, the actual relations, what the report says about the answers) of a check."""
    parsed = as_query(query)
    if options.as_variant == "cqels-all":
        raise RsplarsError("as_variant cqels-all gives several queries; check them one by one")
    if not streams:
        raise RsplarsError("a check needs the streams the engine read (IRI → data)")
    check_stream_iris(parsed, [str(iri).strip("<>") for iri in streams], notes)
    actual, described = _actual(parsed, answers, options.unit, answers_format, answers_time_column, answers_time_unit,
                                notes)
    data = read_data(streams, static, named, unit=options.unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during, accounting=accounting)
    return parsed, data, actual, described


def _actual(query: Any, answers: AnswersInput, unit: str, fmt: str, time_column: str | None,
            time_unit: str | None, notes: list[str]) -> tuple[list[Any], dict[str, Any]]:
    from translator.agreement.answers import read_answer_text
    from translator.agreement.check import as_actual, time_factor
    from translator.query.model import result_variables

    if isinstance(answers, (str, os.PathLike)):
        text, source = read_answers_text(answers)
        got = read_answer_text(text, source, fmt=fmt, time_column=time_column,
                               time_factor=time_factor(time_unit or unit, unit),
                               variables=[v.name for v in result_variables(query)])
        notes.append(f"answers: {got.description} ({source})")
        return list(got.relations), {"answers": os.fspath(answers), "answers_format": got.format,
                                     "answers_grouped_by_timestamp": got.grouped}
    from rsplars.running import RunResult

    if isinstance(answers, RunResult):
        return as_actual(list(answers.evaluations), answers.variables), {"answers": "<run result>"}
    if isinstance(answers, Mapping):
        return _from_mapping(answers), {"answers": "<mapping>"}
    raise RsplarsError(f"answers are a file, {{t: [solution, …]}} or a RunResult, not {type(answers).__name__}")


def read_answers_text(path: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, source name) of an answers file; ``-`` is stdin."""
    if os.fspath(path) == "-":
        import sys

        return sys.stdin.read(), "<stdin>"
    return read_file(Path(path), "answers"), os.fspath(path)


def _from_mapping(answers: Mapping[int, Iterable[Mapping[str, str]]]) -> list[Any]:
    """``{t: [solution, …]}`` as the engine's relations, in time order."""
    from translator.agreement.answers.relation import ActualRelation
    from translator.agreement.answers.terms import nt_key
    from translator.rdf.bags import Bag

    out = []
    for t in sorted(answers):
        solutions: Sequence[Mapping[str, str]] = list(answers[t])
        bindings = Bag(frozenset((str(v).lstrip("?"), nt_key(x)) for v, x in s.items() if x is not None)  # type: ignore[misc]
                       for s in solutions)
        out.append(ActualRelation(int(t), t, bindings, 0))
    return out
