"""The LARS answer stream of a translation at any time point: :func:`answer_sets` solves a query's
program (Polleres' τ, τ1 or τ2 with an execution mode; Dao-Tran, Beck, Eiter 2015, §4) with the
clingo engine and gives the atoms it derives at each time point — the view in which the paper
states its propositions (Prop. 1: push and pull wrap the plain program; Prop. 2: with no streams,
τ, τ1 and τ2 agree), where :func:`rsplars.run` gives the answers at the evaluation times only.
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping

from lars.errors import RsplarsError

from rsplars.data import StaticInput, StreamInput, read_data
from rsplars.translation_parts import lars_program
from rsplars.queries import QueryInput, as_query
from translator.options import TranslationOptions

__all__ = ["answer_sets"]

#: the most time points one call solves (a guard against a wrong unit or a far ``end``)
MAX_TIMES = 100_000


def answer_sets(query: QueryInput, streams: Mapping[str, StreamInput] | None = None, static: StaticInput = None,
                named: Mapping[str, str | os.PathLike[str]] | None = None, *, strategy: str = "tau2",
                options: TranslationOptions = TranslationOptions(mode="none"), times: Iterable[int] | None = None,
                end: int | None = None) -> dict[int, frozenset[str]]:
    """``{t: atoms}``: the atoms the LARS program of ``query`` under ``strategy`` (``tau``, ``tau1``
    or ``tau2``, as :func:`rsplars.program`; ``options``: mode, period, window bounds, unit) derives
    at each time point ``t`` of ``times`` (default: every time point from 0 to ``end``, else to the
    last stream element) over ``streams`` and ``static`` (as for :func:`rsplars.run`). The atoms are
    texts in clingo's syntax (``answer("<http://ex.org/a>",…)``, ``ans3(…)``, ``trigger``): the answer
    set (exactly one: translated programs are stratified) without the static facts and the stream's
    own atoms, so that an empty set means *nothing derived* (Proposition 1 (2), (4)).

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 1s] { ?x :p ?y } }'''
    >>> s = {"http://example.org/s": [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]}
    >>> pulled = rsplars.answer_sets(q, s, options=rsplars.TranslationOptions(mode="pull", period="2s"), end=3)
    >>> {t: sorted(a.split("(")[0] for a in atoms) for t, atoms in pulled.items()}
    {0: ['trigger'], 1: [], 2: ['ans1', 'answer', 'trigger'], 3: []}
    """
    from asp.solver import StreamSolver
    from lars.model import Program
    from lars.printer import format_atom
    from translator.evaluate.run import data_stream
    from translator.translate.expressions import FUNCTIONS

    parsed = as_query(query)
    data = read_data(streams, static, named, unit=options.unit)
    _, rules = lars_program(parsed, strategy, options)
    last = end if end is not None else max((e.t for e in data.elements), default=0)
    wanted = sorted(set(times)) if times is not None else list(range(0, last + 1))
    if any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in wanted):
        raise RsplarsError("times are time points: integers >= 0 (base units)")
    if len(wanted) > MAX_TIMES:
        raise RsplarsError(f"{len(wanted):,} time points asked (at most {MAX_TIMES:,}): check end and the unit")
    background = {format_atom(f.head) for f in data.facts}
    stream = data_stream(data.elements, 0, max([last, *wanted]))
    out: dict[int, frozenset[str]] = {}
    for step in StreamSolver(Program((*rules.rules, *data.facts)), functions=FUNCTIONS).run(stream, wanted):
        if len(step.answers) != 1:
            raise RsplarsError(f"{len(step.answers)} answer sets at t = {step.t}: a translated query has one")
        out[step.t] = frozenset(str(a) for a in step.answers[0]) - background
    return out
