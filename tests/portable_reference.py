"""The oracle of the native aggregates: ``rsplars run``'s incremental engine, which evaluates
SUM/AVG/MIN/MAX/SAMPLE as external aggregates (``translator.translate.aggregates.native_rules``),
against ``lars.reference`` on the *portable* program of the same query (clingo's aggregates only),
at every evaluation time."""

from __future__ import annotations

from lars import reference
from lars.model import Program
from translator.evaluate.run import answers, engine_input
from translator.query.parse import parse
from translator.rdf.terms import from_lars, to_nt
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase


def assert_native_run_equals_portable_reference(query: str, elements: list):
    """Assert the engine's answers equal the reference semantics of the portable program at every
    evaluation time; returns the compiled query."""
    compiled = compile_query(parse(query), base=TimeBase("s"))
    run = engine_input(compiled, elements)
    program = Program(run.program.rules)  # the portable program: no external aggregate
    assert "#@" not in str(program.rules)
    for ev in answers(compiled, elements, engine="incremental"):
        expected = reference.answer_at(program, run.stream, ev.t, functions=FUNCTIONS)
        assert expected is not None
        rows = {tuple(None if from_lars(a) is None else to_nt(from_lars(a)) for a in atom.args)
                for atom in expected if atom.predicate == compiled.answer_predicate}
        assert set(ev.rows) == rows, ev.t
    return compiled
