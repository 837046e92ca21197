"""Translated programs as text that plain clingo runs (``rsplars translate --to asp``,
``rsplars run --print-asp-at T``).

The ASP text is the engine's own encoding (``asp.solver.StreamSolver.asp_text``,
``docs/asp-encoding.md``): the rules of the LARS program with every window literal turned into an
external atom (``lars_dia(K, striple(…))``, ``lars_in(K, T)``, …) whose truth the engine computes
from the window contents. With a reference time T the externals true at T follow as facts, so that
clingo alone computes the answer at T (one-shot), the same as the engine.

FILTER and BIND are ``@sparql_test("expr", X…)`` / ``@sparql_value("expr", X…)`` terms (Dao-Tran,
Beck, Eiter 2015, §4.3 with the exact SPARQL semantics of D6): clingo evaluates them at grounding time through
the ``#script (python)`` block of :func:`script_block`, which imports
:data:`translator.translate.expressions.FUNCTIONS` and converts clingo symbols with ``asp.symbols``. The pip
clingo runs such text with ``python -m clingo --enable-python FILE`` (the ``rsplars`` package must
be importable by that Python).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from lars.errors import UnsupportedError
from lars.model import Program, Rule, Stream
from translator.translate.expressions import FUNCTIONS

SCRIPT_HEADER = """#script (python)
# rsplars: the grounding-time SPARQL functions (translator.translate.expressions, D6).
# Run with: python -m clingo --enable-python FILE  (rsplars importable by that Python)
from asp.symbols import make_context
from translator.translate.expressions import FUNCTIONS

_rsplars = make_context(FUNCTIONS)
"""

SCRIPT_FUNCTION = """
def {name}(*args):
    return _rsplars.{name}(*args)
"""

SCRIPT_END = "#end.\n"


def script_block(names: Iterable[str]) -> str:
    """The ``#script (python)`` block defining the grounding-time functions ``names`` for clingo."""
    names = sorted(set(names))
    unknown = [n for n in names if n not in FUNCTIONS]
    if unknown:
        raise UnsupportedError(f"the grounding-time function(s) {', '.join(unknown)}", "ASP export",
                               f"known: {', '.join(sorted(FUNCTIONS))}")
    return SCRIPT_HEADER + "".join(SCRIPT_FUNCTION.format(name=n) for n in names) + SCRIPT_END


def program_text(program: Program, stream: Stream | None = None, t: int | None = None,
                 static: Sequence[Rule] = ()) -> str:
    """``program`` (plus ``static`` facts) as clingo input: the script block when the program
    calls SPARQL functions, the encoding, and with ``t`` the external atoms true at ``t`` over
    ``stream`` as facts (clingo then prints the answer at t)."""
    from asp.solver import StreamSolver

    full = Program((*program.rules, *static))
    solver = StreamSolver(full, functions=FUNCTIONS)
    data = stream if stream is not None else Stream({}, 0, 0)
    encoding = solver.encoding(data)
    text = solver.asp_text(data, t)
    if encoding.functions:
        text = script_block(encoding.functions) + "\n" + text
    return text
