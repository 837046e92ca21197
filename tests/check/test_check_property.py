"""Property tests of the operational runs and of ``check`` against a small direct implementation
of the papers' definitions written here (windows by enumeration, Dell'Aglio et al. 2014, Definition 13 / Dell'Aglio et al. 2013, §3;
ET by testing every instant, Dell'Aglio et al. 2014, Definition 23; the BGP evaluated over the window's triples; R2S and
empty relations, Dell'Aglio et al. 2014, Definitions 20–22 / Dell'Aglio et al. 2013, §3):

* ``run --profile X`` (``Evaluator.relations``) equals the direct implementation (with the
  profiles' tuple tick: one evaluation per arrival under content change);
* ``check`` judges X's own output correct under X;
* under a profile Y, ``check`` says correct exactly when the output equals Y's output for some
  candidate t0 (computed by the direct implementation, whose BGP answers sets: compared as sets,
  ``compare="sets"``) — in particular incorrect when Y's report policy gives different outputs;
* compared as bags (the default), X's own output is correct under X, and the same output with one
  row doubled, or one row dropped, is incorrect, its diagnosis naming that row with its counts;
  compared as sets, the doubled row is accepted and the dropped row only when another copy stays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings, strategies as st
from rdflib import URIRef

from translator.agreement.check import ActualRelation, check, nt_key
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.query.parse import parse
from translator.rdf.bags import Bag
from translator.rdf.streams import StreamElement
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase

EX = "http://example.org/"
S = EX + "s"
QUERIES = {
    "pattern": ("?x <http://example.org/p> ?y", ("x", "y")),
    "join": ("?x <http://example.org/p> ?y . ?y <http://example.org/q> ?z", ("x", "z")),
}


# --------------------------------------------------------------------- the direct implementation


def windows(alpha, beta, t0, horizon):
    return [(t0 + i * beta, t0 + i * beta + alpha) for i in range(0, horizon // beta + alpha + 2)]


def content_interval(t, alpha, beta, t0, model, closing, horizon):
    """[lo, hi] by enumerating the windows (o, c) and picking the present one."""
    if t < t0:
        return None
    ws = windows(alpha, beta, t0, horizon + alpha)
    if model == "right-open":
        if closing:
            o, c = min((w for w in ws if w[1] >= t), key=lambda w: w[0])
            return (o, t - 1)
        o, c = min((w for w in ws if w[0] <= t < w[1]), key=lambda w: w[0])
        return (o, t)
    o, c = min((w for w in ws if w[1] >= t), key=lambda w: w[0])
    return (o + 1 if model == "left-open" else o, t)


def direct(stream, query, alpha, beta, op, horizon):
    """{t: rows} of the answer stream under the operational parameters ``op`` (one window)."""
    s = op.report
    closing = "window-close" in s
    # windows that close at multiples of the step open β − α after t0 (RSP4J, RSP-JS)
    t0 = op.t0[0] + (beta - alpha if op.alignment == "step" else 0)
    if op.horizon != "none":  # the engine's clock: a close is reported once the clock is past it
        clock = max((e[3] for e in stream), default=None) if op.horizon == "last" else op.horizon
        if clock is not None:
            horizon = min(horizon, clock - 1 if closing else clock)
    out = {}
    previous = frozenset()
    first = True
    for t in range(0, horizon + 1):
        iv = content_interval(t, alpha, beta, t0, op.window_model, closing, horizon)
        if iv is None:
            continue
        triples = {(a, b, c) for a, b, c, te in stream if iv[0] <= te <= iv[1]}
        ok = True
        if "window-close" in s:
            ok &= t >= t0 + alpha and (t - t0 - alpha) % beta == 0
        if "periodic" in s:
            ok &= (t - t0) % (op.period or beta) == 0
        if "non-empty" in s:
            ok &= bool(triples)
        if "content-change" in s:
            now = content_interval(t, alpha, beta, t0, op.window_model, False, horizon)
            ok &= now[0] <= t and any(te == t for *_, te in stream)
        if not ok:
            continue
        # tuple tick under content change: one evaluation per arrival at t, with the arrivals so far
        at_t = [e for e in stream if e[3] == t]
        prefixes = list(range(1, len(at_t))) if op.tick == "tuple" and "content-change" in s else []
        for j in [*prefixes, None]:
            arrived = [e for e in stream if e[3] < t] + (at_t if j is None else at_t[:j])
            seen = {(a, b, c) for a, b, c, te in arrived if iv[0] <= te <= iv[1]}
            current = frozenset(evaluate_bgp(query, seen))
            rows = {"rstream": current, "istream": current - previous, "dstream": previous - current}[op.r2s]
            previous = current
            if op.r2s == "dstream" and first:
                first = False
                continue
            first = False
            if rows or op.empty_relations == "emit":
                out[t] = out.get(t, frozenset()) | rows
    return out


def evaluate_bgp(query, triples):
    p = f"<{EX}p>"
    if query == "pattern":
        return {(a, c) for a, b, c in triples if b == p}
    q = f"<{EX}q>"
    return {(a, z) for a, b, y in triples if b == p for y2, b2, z in triples if b2 == q and y2 == y}


# ------------------------------------------------------------------------------ strategies


NODES = [f"<{EX}{n}>" for n in "abc"]


@st.composite
def cases(draw):
    n = draw(st.integers(1, 6))
    stream = sorted(((draw(st.sampled_from(NODES)), draw(st.sampled_from([f"<{EX}p>", f"<{EX}q>"]))),
                     draw(st.sampled_from(NODES)), draw(st.integers(0, 9))) for _ in range(n))
    stream = sorted([(s, p, o, t) for (s, p), o, t in stream], key=lambda e: e[3])
    alpha = draw(st.integers(1, 4))
    beta = draw(st.integers(1, alpha))
    query = draw(st.sampled_from(sorted(QUERIES)))
    x = draw(st.sampled_from(sorted(PROFILES)))
    y = draw(st.sampled_from([p for p in sorted(PROFILES) if PROFILES[p].params.report != PROFILES[x].params.report]))
    t0 = draw(st.integers(0, beta - 1))
    return stream, alpha, beta, query, x, y, t0


def make_evaluator(stream, alpha, beta, query):
    body, variables = QUERIES[query]
    text = (f"SELECT {' '.join('?' + v for v in variables)} WHERE {{ STREAM <{S}> [RANGE {alpha}s SLIDE {beta}s] "
            f"{{ {body} }} }}")
    q = parse(text, "cqels")
    compiled = compile_query(q, mode="none", base=TimeBase("s"))
    elements = [StreamElement((URIRef(a[1:-1]), URIRef(b[1:-1]), URIRef(c[1:-1])), t, URIRef(S)) for a, b, c, t in stream]
    return Evaluator(compiled.query, compiled.strategy, TimeBase("s"), elements), variables


def binding(variables, row) -> frozenset:
    return frozenset((v, nt_key(x)) for v, x in zip(variables, row))


def as_actual(relations, variables):
    """An engine run's relations as a recorded output: each row as often as the relation has it."""
    return [ActualRelation(r.t, r.t, Bag([binding(variables, row) for row in r.rows]), 0) for r in relations]


def keyed(rows_by_t, variables, horizon):
    return {t: frozenset(frozenset((v, nt_key(x)) for v, x in zip(variables, row)) for row in rows)
            for t, rows in rows_by_t.items() if t <= horizon or rows}


def merged(actual):
    out = {}
    for a in actual:
        out.setdefault(a.t, set()).update(a.bindings)
    return {t: frozenset(b) for t, b in out.items()}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_check_accepts_the_profiles_own_output_and_decides_other_profiles_like_the_direct_oracle(case):
    stream, alpha, beta, query, x, y, t0 = case
    ev, variables = make_evaluator(stream, alpha, beta, query)
    op_x = replace(PROFILES[x].params, t0=(t0,))
    horizon = max([e[3] for e in stream] + [t0]) + alpha + beta
    relations = ev.relations(op_x)
    produced: dict[int, frozenset] = {}
    for r in relations:  # a tuple tick gives several relations at one timestamp: compared merged
        produced[r.t] = produced.get(r.t, frozenset()) | frozenset(r.rows)
    assert produced == direct(stream, query, alpha, beta, op_x, horizon)

    output = as_actual(relations, variables)
    verdict = check(ev, output, PROFILES[x].params, compare="sets")
    assert verdict.correct, verdict.report.get("mismatch")

    op_y = PROFILES[y].params
    zs = range(0, max(beta - 1, alpha) + 1)
    h = max([e[3] for e in stream] + [max(zs)]) + alpha + beta
    mine = {t: rel for t, rel in merged(output).items() if t <= h or rel}
    expected = any(keyed(direct(stream, query, alpha, beta, replace(op_y, t0=(z,)), h), variables, h) == mine
                   for z in zs)
    assert check(ev, output, op_y, compare="sets").correct == expected


def show(b: frozenset) -> str:
    """A binding as the diagnosis writes it (``?x=<…> ?y=<…>``)."""
    return " ".join(f"?{v}={x}" for v, x in sorted((v, f"<{k[1]}>") for v, k in b))


@st.composite
def mutations(draw):
    stream, alpha, beta, query, x, _, t0 = draw(cases())
    return stream, alpha, beta, query, x, t0, draw(st.sampled_from(["double", "drop"])), draw(st.randoms())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_a_row_doubled_or_dropped_is_incorrect_as_a_bag_and_named_with_its_counts(case):
    stream, alpha, beta, query, x, t0, how, rnd = case
    ev, variables = make_evaluator(stream, alpha, beta, query)
    op = replace(PROFILES[x].params, t0=(t0,))
    output = as_actual(ev.relations(op), variables)
    assert check(ev, output, op, t0_fixed=True).correct  # the profile's own output, as a bag
    candidates = [i for i, a in enumerate(output) if a.bindings]
    assume(candidates)
    i = rnd.choice(candidates)
    row = rnd.choice(sorted(output[i].bindings.distinct(), key=sorted))
    counts = Counter(dict(output[i].bindings.items()))
    counts[row] += 1 if how == "double" else -1
    mutated = [*output[:i], replace(output[i], bindings=Bag.from_counts(counts)), *output[i + 1:]]
    t = output[i].t
    before = sum(a.bindings.count(row) for a in output if a.t == t)  # relations at t are compared merged
    after = before + (1 if how == "double" else -1)

    verdict = check(ev, mutated, op, t0_fixed=True, other_profiles=False)
    assert not verdict.correct and verdict.report["comparison"]["compare"] == "bags"
    m = verdict.report["mismatch"]
    assert m["timestamp"] == t
    named = (f"row ({show(row)}) missing (expected {before}, got 0)" if after == 0
             else f"row ({show(row)}) {after} {'time' if after == 1 else 'times'}, expected {before}")
    assert named in m["diagnosis"]

    as_sets = check(ev, mutated, op, t0_fixed=True, other_profiles=False, compare="sets")
    assert as_sets.correct is (after > 0)
    assert as_sets.report["comparison"]["compare"] == "sets"
