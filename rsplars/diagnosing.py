"""Agreement and its causes from runs already made: :func:`diagnose` judges a pull run against a
push run interval by interval and attributes each disagreement (Dao-Tran, Beck, Eiter 2015, §5) —
what :func:`rsplars.agree` does after running the queries itself, for studies that run once and
judge many periods (by Proposition 1 the pull run with period U is the plain program, mode
``none``, at the multiples of U; docs/agreement.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lars.errors import RsplarsError

from rsplars.running import RunResult

__all__ = ["Diagnosis", "diagnose"]

#: the columns of :meth:`Diagnosis.to_dataframe`
COLUMNS = ("index", "start", "end", "verdict", "pull", "push", "missing", "extra", "causes")


@dataclass(frozen=True, repr=False)
class Diagnosis:
    """The verdict on every interval ``[i·U, (i+1)·U]`` and the causes of each disagreement:
    ``dataset`` (ii: τ1 and τ2 pulled differ at the interval's end), ``execution-mode`` (iii: τ2
    pulled and τ2 pushed disagree on it), ``unexplained`` (neither; impossible for consistent
    runs). ``counts`` maps each cause to its number of intervals (empty without the τ2 pull run)."""

    period: int
    verdicts: tuple[Any, ...]
    causes: dict[int, tuple[str, ...]]
    counts: dict[str, int]

    def __repr__(self) -> str:
        return f"Diagnosis(period={self.period}, intervals={self.intervals}, agreeing={self.agreeing}, counts={self.counts})"

    @property
    def intervals(self) -> int:
        """The number of judged intervals."""
        return len(self.verdicts)

    @property
    def agreeing(self) -> int:
        """The number of intervals on which the runs agree."""
        return sum(1 for v in self.verdicts if v.agrees)

    @property
    def all_agree(self) -> bool:
        """Whether every judged interval agrees."""
        return self.agreeing == self.intervals

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, one row per interval: ``index``, ``start``, ``end``, ``verdict``
        (``agree``/``disagree``), the numbers of solutions ``pull`` (the pull answer at the end),
        ``push`` (the union of the push answers in ``(start, end]``), ``missing`` (pull only),
        ``extra`` (push only), and ``causes`` (comma-separated, empty where the runs agree)."""
        from rsplars.running import _pandas

        rows = [(v.index, v.start, v.end, "agree" if v.agrees else "disagree", len(v.pull), len(v.push),
                 len(v.missing), len(v.extra), ", ".join(self.causes.get(v.index, ()))) for v in self.verdicts]
        return _pandas().DataFrame(rows, columns=list(COLUMNS))


def diagnose(pull: RunResult, push: RunResult, *, period: int, tau2_pull: RunResult | None = None,
             start: int | None = None, end: int | None = None) -> Diagnosis:
    """Do ``pull`` (τ1, pulled) and ``push`` (τ2, pushed) agree on each interval ``[i·U, (i+1)·U]``
    with ``U = period`` (base units) inside ``[start, end]``? With ``tau2_pull`` (τ2 pulled) each
    disagreement gets its causes (§5 (ii), (iii)). The pull runs are read at the multiples of U
    only: a run with ``mode="pull"`` and that period, or a plain run (``mode="none"``), which by
    Proposition 1 answers there as the pull run does. The runs are :class:`rsplars.RunResult` of
    SELECT queries with the same variables.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 2s] { ?x :p ?y } }'''
    >>> s = {"http://example.org/s": [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]}
    >>> def run(strategy, mode):
    ...     return rsplars.run(q, s, options=rsplars.TranslationOptions(mode=mode, strategy=strategy), end=8)
    >>> found = rsplars.diagnose(run("tau1", "none"), run("tau2", "push"), period=4, tau2_pull=run("tau2", "none"))
    >>> found.to_dataframe()[["start", "end", "verdict", "extra", "causes"]].values.tolist()
    [[0, 4, 'disagree', 1, 'execution-mode'], [4, 8, 'agree', 0, '']]
    """
    from translator.agreement import Runs, judge
    from translator.agreement import diagnose as attribute
    from translator.agreement.errors import AgreementError

    if isinstance(period, bool) or not isinstance(period, int) or period < 1:
        raise RsplarsError(f"period {period!r}: expected a positive number of base units")
    runs = {"pull": pull, "push": push, **({"tau2_pull": tau2_pull} if tau2_pull is not None else {})}
    for name, run in runs.items():
        if not isinstance(run, RunResult):
            raise RsplarsError(f"{name}: expected a RunResult (rsplars.run), not {type(run).__name__}")
        if run.form != "select" or run.events:
            raise RsplarsError(f"{name}: the agreement compares SELECT answers (a {run.form} run was given)")
        if set(run.variables) != set(pull.variables):
            raise RsplarsError(f"{name}: its variables {list(run.variables)} differ from the pull run's "
                               f"{list(pull.variables)}")
    answers = {name: _answers(run, period if name != "push" else None) for name, run in runs.items()}
    try:
        if tau2_pull is None:
            result = judge(answers["pull"], answers["push"], period, start=start, end=end)
            return Diagnosis(period, tuple(result.intervals), {}, {})
        found = attribute(Runs(answers["pull"], answers["tau2_pull"], answers["push"]), period, start=start,
                          end=end)
    except AgreementError as error:
        raise RsplarsError(str(error)) from None
    causes = {d.index: tuple(c.value for c in d.sorted_causes) or ("unexplained",) for d in found.intervals}
    counts = {k: v for k, v in found.counts.items() if k != "window-bounds"}
    return Diagnosis(period, tuple(found.headline.intervals), causes, counts)


def _answers(run: RunResult, period: int | None) -> dict[int, frozenset[Any]]:
    """``{t: answer}`` of a run as agreement solutions; a pull run's at the multiples of ``period``."""
    from translator.agreement.compare import as_solutions

    evaluations = ((ev.t, ev.rows) for ev in run.evaluations if period is None or ev.t % period == 0)
    return as_solutions(run.variables, evaluations)
