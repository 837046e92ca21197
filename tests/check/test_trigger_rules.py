"""The report policy as LARS rules (``translator.evaluate.operational.trigger_rules``, shown by
``translate --to lars --profile``): solved by the LARS engine, ``trigger`` holds exactly at the
evaluation times the report planner computes from the papers' definitions (Dell'Aglio et al. 2014, Definition 23)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings, strategies as st
from rdflib import URIRef

from asp.solver import StreamSolver
from translator.evaluate.operational import report_program, time_windows
from translator.evaluate.profiles import Operational
from translator.evaluate.report_policy import Contents, Grid, Policy, report_times
from translator.evaluate.run import data_stream
from translator.query.parse import parse
from translator.rdf.streams import StreamElement
from translator.translate.expressions import FUNCTIONS
from translator.translate.normalize import TimeBase

EX = "http://example.org/"
POLICIES = [frozenset(p) for p in ({"window-close"}, {"window-close", "non-empty"}, {"content-change"},
                                   {"content-change", "non-empty"}, {"periodic"}, {"periodic", "non-empty"})]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(times=[0], alpha=1, beta=1, t0=0, report=POLICIES[5], model="right-open")
@example(times=[1, 4], alpha=3, beta=2, t0=1, report=POLICIES[5], model="left-open")
@example(times=[2, 6], alpha=3, beta=2, t0=0, report=POLICIES[5], model="closed")
@given(times=st.lists(st.integers(0, 12), min_size=0, max_size=5), alpha=st.integers(1, 4), beta=st.integers(1, 4),
       t0=st.integers(0, 3), report=st.sampled_from(POLICIES),
       model=st.sampled_from(["left-open", "right-open", "closed"]))
def test_trigger_rules_hold_exactly_at_the_evaluation_times(times, alpha, beta, t0, report, model):
    if "content-change" in report and alpha < beta:
        beta = alpha  # windows with gaps under CC are left to the planner (docstring of trigger_rules)
    q = parse(f"SELECT ?x WHERE {{ STREAM <{EX}s> [RANGE {alpha}s SLIDE {beta}s] {{ ?x <{EX}p> ?y }} }}", "cqels")
    op = Operational(report, t0=(t0,), window_model=model)
    program, _ = report_program(q, "tau2", TimeBase("s"), op)
    elements = [StreamElement((URIRef(EX + "a"), URIRef(EX + "p"), URIRef(EX + "b")), t, URIRef(EX + "s"))
                for t in sorted(times)]
    horizon = 20
    stream = data_stream(elements, 0, horizon)
    derived = [step.t for step in StreamSolver(program, functions=FUNCTIONS).run(stream)
               if "trigger" in step.answers[0]]
    window = time_windows(q, TimeBase("s"))[0]
    planned = report_times([Grid(window.stream, alpha, beta, t0)], Contents({window.stream: sorted(times)}),
                           Policy(report), model, 0, horizon)
    assert derived == [r.t for r in planned]
