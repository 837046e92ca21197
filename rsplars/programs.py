"""Running a LARS program over a stream, as ``rsplars lars`` does: :func:`parse_program` reads a
program (the Ticker-compatible syntax of docs/lars.md), :func:`lars_engine` prepares an engine for
it, and :func:`lars_run` yields, for every reference time t, the intensional atoms that hold at t
in the answer stream at t (Beck, Dao-Tran, Eiter, Fink, AAAI 2015, Definition 3; Dao-Tran, Beck,
Eiter 2015, §2.4) as :class:`LarsStep` records, one at a time, as soon as each is computed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Union

from lars.errors import RsplarsError
from lars.solver import Step as LarsStep

if TYPE_CHECKING:
    from lars.model import Program, Stream
    from lars.solver import Solver
    from lars.streams import LiveStream

__all__ = ["LarsStep", "ProgramInput", "StreamText", "lars_engine", "lars_run", "parse_program", "read_stream"]

ProgramInput = Union["Program", str, "os.PathLike[str]"]
"""A LARS program: parsed (:class:`lars.model.Program`), its text, or the path of its file (an
:class:`os.PathLike`)."""

StreamText = Union["Stream", "LiveStream[Any]", str, "os.PathLike[str]"]
"""A LARS stream: read (:class:`lars.model.Stream`, or :class:`lars.streams.LiveStream` read while
it is evaluated), its text (``t: a, b`` lines or JSON lines, docs/lars.md), or the path of its file
(an :class:`os.PathLike`)."""


def parse_program(program: str | os.PathLike[str], *, source: str | None = None, cached: bool = False) -> Program:
    """The LARS program of a text (a ``str``) or a file (an :class:`os.PathLike`); ``source`` names
    it in error messages (default: the file's path, else ``<program>``). ``cached``: keep the parsed
    program in the user's cache folder and take it from there when the same text is read again
    (:mod:`translator.cache`; as ``rsplars lars`` does: a run again loads no parser).

    Raises :class:`rsplars.SourceError` with the line and column of a syntax error.

    >>> import rsplars
    >>> p = rsplars.parse_program("alarm :- high [3].")
    >>> len(p.rules)
    1
    """
    from lars.model import Program
    from lars.units import DEFAULT_BASE_UNIT

    if isinstance(program, os.PathLike):
        path = Path(program)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise RsplarsError(f"cannot read {os.fspath(program)}: {err.strerror}") from None
        name = source or os.fspath(program)
    else:
        text, name = program, source or "<program>"

    def parsed() -> Program:
        from lars.syntax import parse_program as parse_lars

        return parse_lars(text, source=name, base_unit=DEFAULT_BASE_UNIT)

    if not cached:
        return parsed()
    from translator import cache

    # the source is not part of the key: it appears in errors only, and errors are never kept
    return cache.cached("program", (text, DEFAULT_BASE_UNIT), parsed, valid=lambda p: isinstance(p, Program))


def read_stream(stream: str | os.PathLike[str], format: str = "auto") -> Stream:
    """The LARS stream of a text (a ``str``: ``t: a, b`` lines, or JSON lines ``{"t": t, "atoms":
    [...]}``) or a file (an :class:`os.PathLike`; ``"-"`` is standard input); ``format``: ``auto``,
    ``text`` or ``jsonl`` (:mod:`lars.streams`).

    >>> import rsplars
    >>> rsplars.programs.read_stream("1: high\\n3: high").timeline
    (1, 3)
    """
    from lars.streams import parse_stream
    from translator.evaluate.lars_input import read_stream as read_file

    if isinstance(stream, os.PathLike):
        return read_file(os.fspath(stream), format)
    return parse_stream(stream, "<stream>", format)


def lars_engine(program: ProgramInput, engine: str = "auto", *, models: int = 1, asp: bool = False,
                json_lines: bool = False) -> Solver:
    """The engine that runs ``program`` (:func:`translator.evaluate.engine.make_solver`): ``auto``
    (the incremental engine of :mod:`lars.incremental` for programs in its fragment, clingo
    otherwise), ``asp`` (clingo) or ``incremental`` (a program outside its fragment is refused,
    naming the rule). ``models``: the answer streams listed per time point (0: all); ``asp``: the
    caller needs the ASP encoding (``solver.asp_text``); ``json_lines``: the caller writes full
    answers as JSON lines (the engine then fills :attr:`LarsStep.encoded` where it can). Its
    ``run(stream, times)`` yields the :class:`LarsStep` records; :func:`lars_run` calls it.

    >>> import rsplars
    >>> rsplars.programs.lars_engine("alarm :- high [3].").engine
    'incremental'
    """
    from translator.evaluate.engine import make_solver

    if models < 0:
        raise RsplarsError(f"models must be >= 0, got {models}")
    solver = make_solver(_program(program), engine, models=models, need_asp=asp)
    solver.encode_json = json_lines
    return solver


def lars_run(program: ProgramInput, stream: StreamText, *, times: Iterable[int] | None = None,
             engine: str | Solver = "auto", models: int = 1) -> Iterator[LarsStep]:
    """The answers of ``program`` over ``stream``, one :class:`LarsStep` per reference time of
    ``times`` (default: the stream's first to its last time point), each yielded as soon as it is
    computed: ``step.t``, ``step.answers`` (the answer streams at t, each a sorted tuple of the
    intensional atoms that hold at t; ``[]``: none; several: the program has several) and
    ``step.more`` (further answer streams exist beyond ``models``). ``engine``: a name
    (:func:`lars_engine`) or an engine :func:`lars_engine` made.

    >>> import rsplars
    >>> steps = rsplars.lars_run("alarm :- high [3].", "1: high\\n6: low")
    >>> [(s.t, s.answers) for s in steps]
    [(1, [('alarm',)]), (2, [('alarm',)]), (3, [('alarm',)]), (4, [('alarm',)]), (5, [()]), (6, [()])]
    """
    read = stream if not isinstance(stream, (str, os.PathLike)) else read_stream(stream)
    solver = lars_engine(program, engine, models=models) if isinstance(engine, str) else engine
    if times is None:
        first, last = read.timeline
        times = range(first, last + 1)
    return solver.run(read, times)


def _program(program: ProgramInput) -> Program:
    from lars.model import Program

    return program if isinstance(program, Program) else parse_program(program)
