"""Property tests of profile inference (``rsplars check --infer``, :mod:`translator.agreement.inference`):
for random small queries and streams, the output ``rsplars run`` produces under a random setting of
every operational parameter is judged correct under that setting, and inference names that setting
among its answers. The settings inference calls correct are checked against the direct
implementation of the papers' definitions in ``test_check_property`` (windows by enumeration, ET by
testing every instant, the BGP over the window's triples, R2S and empty relations, Dell'Aglio et al.
2014, Definitions 13, 20–23; Dell'Aglio et al. 2013, §3): each correct setting's direct output is the
recorded one, and a sample of the others' is not."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from test_check_property import NODES, direct, keyed, make_evaluator, merged
from translator.agreement.check import as_actual, check
from translator.agreement.inference import Setting, infer, parameter_space, report_policies
from translator.evaluate.report_policy import WINDOW_MODELS

EX = "http://example.org/"


@st.composite
def cases(draw):
    n = draw(st.integers(1, 5))
    stream = [(draw(st.sampled_from(NODES)), draw(st.sampled_from([f"<{EX}p>", f"<{EX}q>"])),
               draw(st.sampled_from(NODES)), draw(st.integers(0, 7))) for _ in range(n)]
    stream.sort(key=lambda e: e[3])
    alpha = draw(st.integers(1, 3))
    beta = draw(st.integers(1, alpha))
    query = draw(st.sampled_from(["pattern", "join"]))
    setting = Setting((draw(st.integers(0, max(beta - 1, alpha))),), draw(st.sampled_from(report_policies())),
                      "arrivals", draw(st.sampled_from(["time", "tuple"])),
                      draw(st.sampled_from(["rstream", "istream", "dstream"])), draw(st.sampled_from(["emit", "skip"])),
                      draw(st.sampled_from(WINDOW_MODELS)))
    return stream, alpha, beta, query, setting, draw(st.integers(0, 2**16))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_inference_finds_the_setting_that_produced_the_output(case):
    stream, alpha, beta, query, setting, seed = case
    ev, variables = make_evaluator(stream, alpha, beta, query)
    space = parameter_space(ev, cc_mode="arrivals")  # the direct implementation reads content change as arrivals
    h = max([e[3] for e in stream] + [max(z[0] for z in space.t0)]) + alpha + beta
    output = as_actual(ev.relations(setting.operational(), None, h), variables)

    assert check(ev, output, setting.operational(), t0_fixed=True, end=h).correct
    result = infer(ev, output, space)
    assert result.horizon == h
    assert setting in result.correct

    mine = {t: rel for t, rel in merged(output).items() if t <= h or rel}
    correct = set(result.correct)
    rng = random.Random(seed)
    others = [s for s in result.scores if s not in correct]
    for s in rng.sample(result.correct, min(4, len(result.correct))):
        assert keyed(direct(stream, query, alpha, beta, s.operational(), h), variables, h) == mine, s
    for s in rng.sample(others, min(4, len(others))):
        assert keyed(direct(stream, query, alpha, beta, s.operational(), h), variables, h) != mine, s
