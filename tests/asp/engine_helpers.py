"""Helper for the clingo engine tests: run a program text over a stream text (imported by the
test modules of this folder; pytest puts the folder on sys.path)."""

from __future__ import annotations

from asp.solver import StreamSolver
from lars.model import Stream
from lars.streams import parse_stream_text
from lars.syntax import parse_program


def engine(program: str, stream: str, times=None, *, start: int | None = None, end: int | None = None, models: int = 1):
    """``{t: sorted atom strings}`` (``None``: no answer stream; a list of lists: several)."""
    s = parse_stream_text(stream)
    if start is not None or end is not None:
        s = Stream(s.points, start=start, end=end)
    out = {}
    for step in StreamSolver(parse_program(program), models=models).run(s, times):
        if not step.answers:
            out[step.t] = None
        elif len(step.answers) == 1 and not step.more:
            out[step.t] = list(step.answers[0])
        else:
            out[step.t] = [list(a) for a in step.answers]
    return out
