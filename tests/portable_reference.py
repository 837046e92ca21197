"""The oracle of the native aggregates: ``rsplars run``'s incremental engine, which evaluates
SUM/AVG/MIN/MAX/SAMPLE as external aggregates (``translator.translate.aggregates.native_rules``),
against ``lars.reference`` on the *portable* program of the same query (clingo's aggregates only),
at every evaluation time."""

from __future__ import annotations

from hypothesis import strategies as st
from rdflib import URIRef

from lars import reference
from lars.model import Program
from translator.evaluate.run import answers, engine_input
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.rdf.terms import from_lars, to_nt
from translator.translate.compile import compile_query
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase

E = "http://example.org/srbench/"
STREAM = URIRef(E + "stream")
WINDOW_WHERE = f"""FROM STREAM <{E}stream> [RANGE 2s STEP 1s]
WHERE {{ ?obs <{E}procedure> ?sensor . ?obs <{E}value> ?value . }}
GROUP BY ?sensor
"""
"""The stream, window, pattern and grouping of the queries over :func:`observations`."""


@st.composite
def observations(draw, values: list, sensors: int) -> list[StreamElement]:
    """Up to 7 time points of up to 3 observations each, every observation a fresh IRI with a
    sensor among ``sensors`` and a value drawn from ``values``."""
    out = []
    n = 0
    for t in range(draw(st.integers(1, 7))):
        for _ in range(draw(st.integers(0, 3))):
            obs = URIRef(f"{E}obs/{n}")  # every observation a fresh IRI
            n += 1
            sensor = URIRef(f"{E}sensor/{draw(st.integers(0, sensors - 1))}")
            out.append(StreamElement((obs, URIRef(E + "procedure"), sensor), t, STREAM))
            out.append(StreamElement((obs, URIRef(E + "value"), draw(st.sampled_from(values))), t, STREAM))
    return out


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
