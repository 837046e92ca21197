"""The choice of the LARS engine (``--engine`` of ``rsplars lars``, ``--lars-engine`` of ``rsplars run``).

* ``incremental``: ``lars.incremental.IncrementalSolver`` (pure Python, O(change) per time point;
  the fragment of non-recursive stratified programs, ``lars.incremental``); a program outside
  the fragment is refused (``NotInFragment``: exit 2, naming the rule and why);
* ``asp``: ``asp.solver.StreamSolver`` (clingo; every program);
* ``auto`` (the default): the incremental engine when the program is in its fragment, clingo
  otherwise. Both compute the answer stream of Beck et al. (AAAI 2015, Definition 3) as
  ``lars.reference`` defines it, and both yield the same ``lars.solver.Step`` records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping

from lars.errors import RsplarsError
from lars.model import Program, Term

if TYPE_CHECKING:  # (the engines are imported when one is made)
    from lars.solver import Solver

ENGINES = ("auto", "asp", "incremental")

#: a run evaluating more time points than this stops before it starts (a timestamp far off, or a
#: wrong unit, would otherwise make the run hang or exhaust the memory listing them)
MAX_EVALUATION_TIMES = 10_000_000


def make_solver(program: Program, engine: str = "auto", *, models: int = 1,
                functions: Mapping[str, Callable[..., Term]] | None = None, need_asp: bool = False,
                outputs: Iterable[str] | None = None, native: Program | None = None,
                stream_predicates: Iterable[str] | None = None) -> Solver:
    """The solver for ``engine`` (a ``lars.solver.Solver``: callers ask it what it can do, never its
    class); ``need_asp``: the caller needs the ASP encoding (``--print-asp``).
    ``outputs``: the only predicate names whose atoms the caller reads from ``Step.answers``; the
    incremental engine then gives those atoms only and drops stream atoms that cannot reach them
    (``lars.incremental.stream_filters``); clingo gives every atom as before. ``native``: the same
    query's program with external aggregates (``translator.translate.compile.Compiled.native``),
    which the incremental engine runs instead of ``program``; clingo runs ``program``.
    ``stream_predicates``: the only predicate names the stream carries (the incremental engine then
    unfolds intermediate predicates into their one use, ``lars.incremental.unfold``)."""
    if engine not in ENGINES:
        raise RsplarsError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if need_asp and engine == "incremental":
        raise RsplarsError("the incremental engine has no ASP encoding to print: use --engine asp or auto")
    if engine != "asp" and not need_asp:
        from lars.incremental import IncrementalSolver, NotInFragment

        try:
            return IncrementalSolver(native or program, models=models, functions=functions, outputs=outputs,
                                     stream_predicates=stream_predicates)
        except NotInFragment:
            if engine == "incremental":
                raise
    from asp.solver import StreamSolver  # clingo is imported only here

    return StreamSolver(program, models=models, functions=functions)


def announced(times: Iterable[int], on_time: Callable[[int], None] | None) -> Iterable[int]:
    """``times``, calling ``on_time(t)`` as each is taken (the engine takes t just before it solves it)."""
    if on_time is None:
        return times

    def gen() -> Iterator[int]:
        for t in times:
            on_time(t)
            yield t

    return gen()
