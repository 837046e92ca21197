"""CQELS' window-expiry bug (Dell'Aglio et al. 2013, §7; this regression test is ours, the paper
prints none) — the engine "does not correctly remove the RDF statements from the active window" — is *hidden* by IStream on filter-only queries (every answer comes from triples of
one timestamp, and a stale triple already gave its answers earlier) and *revealed* by aggregates and
joins across timestamps (CSRBench Q4, Q6, Q7).

The buggy engine is simulated here by a small direct implementation (no rsplars code): CQELS'
profile (content change at each arrival, IStream, no empty relations, right-open windows
``[o_i, t]`` cut at t), except that the content at t is everything since t0 (``[t0, t]``): nothing
ever expires. Its output is written in the CSRBench answer format and judged by ``rsplars check
--profile cqels`` on the command line:

* the filter query: the buggy output is judged **correct** (the bug is invisible, as the paper says);
* the AVG query and the self-join: **incorrect**, diagnosed as *window expiry*.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from translator.cli import main

EX = "http://example.org/"
STREAM = EX + "temps"
XSD_INT = "http://www.w3.org/2001/XMLSchema#integer"
# one reading per instant (a tuple-driven engine then reports once per instant): (t in s, sensor, value)
READINGS = [(1, "s1", 31), (2, "s2", 20), (3, "s1", 36), (5, "s2", 33), (6, "s1", 29), (9, "s2", 40),
            (10, "s1", 35), (13, "s2", 22), (14, "s1", 38)]
ALPHA = 4  # [RANGE 4s STEP 4s]: tumbling windows [4i, 4i+4)

FILTER_Q = f"""REGISTER QUERY hot AS
PREFIX : <{EX}>
SELECT ?obs ?value
FROM STREAM <{STREAM}> [RANGE 4s STEP 4s]
WHERE {{ ?obs :value ?value . FILTER(?value > 30) }}
"""
AVG_Q = f"""REGISTER QUERY avg AS
PREFIX : <{EX}>
SELECT (AVG(?value) AS ?avg)
FROM STREAM <{STREAM}> [RANGE 4s STEP 4s]
WHERE {{ ?obs :value ?value . FILTER(?value > 30) }}
"""
JOIN_Q = f"""REGISTER QUERY rise AS
PREFIX : <{EX}>
SELECT ?sensor ?o1 ?o2
FROM STREAM <{STREAM}> [RANGE 4s STEP 4s]
WHERE {{ ?o1 :by ?sensor ; :value ?v1 . ?o2 :by ?sensor ; :value ?v2 . FILTER(?v2 > ?v1) }}
"""


def stream_text() -> str:
    lines = []
    for t, sensor, value in READINGS:
        obs = f"<{EX}obs{t}>"
        lines.append(f'{obs} <{EX}by> <{EX}{sensor}> "{t}" .')
        lines.append(f'{obs} <{EX}value> "{value}"^^<{XSD_INT}> "{t}" .')
    return "\n".join(lines) + "\n"


def elements() -> list[tuple[int, str, str, object]]:
    """The stream's tuples in arrival order: (t, obs, predicate, object)."""
    out = []
    for t, sensor, value in READINGS:
        out += [(t, f"obs{t}", "by", sensor), (t, f"obs{t}", "value", value)]
    return out


def answers(query: str, content) -> frozenset:
    """The query's answer over the tuples of ``content``, as a set of binding tuples — a direct
    evaluation of the three queries above."""
    value = {(o, t): v for t, o, p, v in content if p == "value"}
    by = {(o, t): v for t, o, p, v in content if p == "by"}
    if query == "filter":
        return frozenset((o, v) for (o, _), v in value.items() if v > 30)
    if query == "avg":
        hot = [v for v in value.values() if v > 30]
        return frozenset({(Fraction(sum(hot), len(hot)) if hot else Fraction(0),)})
    return frozenset((by[k1], k1[0], k2[0]) for k1, v1 in value.items() for k2, v2 in value.items()
                     if k1 in by and k2 in by and by[k1] == by[k2] and v2 > v1)


def cqels_output(query: str, *, expire: bool) -> list[tuple[int, frozenset]]:
    """Tuple-driven content change: a report after each arriving tuple, over the window
    [4⌊t/4⌋, t] cut after that tuple — or over [0, t] when nothing expires —, IStream (against the
    previous report), empty relations skipped; the relations of one instant merged."""
    out: dict[int, frozenset] = {}
    previous: frozenset = frozenset()
    stream = elements()
    for i, (t, _, _, _) in enumerate(stream):
        lo = ALPHA * (t // ALPHA) if expire else 0
        now = answers(query, [e for e in stream[: i + 1] if lo <= e[0] <= t])
        new = now - previous
        previous = now
        if new:
            out[t] = out.get(t, frozenset()) | new
    return sorted(out.items())


def csrbench_json(query: str, relations) -> str:
    def term(name: str, value) -> dict:
        if name in ("avg",):
            return {"type": "typed-literal", "datatype": "http://www.w3.org/2001/XMLSchema#double",
                    "value": repr(float(value))}
        if name == "value":
            return {"type": "typed-literal", "datatype": XSD_INT, "value": str(value)}
        return {"type": "uri", "value": EX + value}

    names = {"filter": ("obs", "value"), "avg": ("avg",), "join": ("sensor", "o1", "o2")}[query]
    rels = [{"timestamp": t * 1000, "results": {"bindings": [
        {n: term(n, v) for n, v in zip(names, row)} for row in sorted(rows, key=str)]}} for t, rows in relations]
    return json.dumps({"relations": rels})


@pytest.fixture
def check(tmp_path, capsys):
    stream = tmp_path / "temps.nt"
    stream.write_text(stream_text())
    texts = {"filter": FILTER_Q, "avg": AVG_Q, "join": JOIN_Q}

    def run(query: str, relations) -> tuple[int, dict]:
        q = tmp_path / f"{query}.rq"
        q.write_text(texts[query])
        a = tmp_path / f"{query}.json"
        a.write_text(csrbench_json(query, relations))
        report = tmp_path / f"{query}.report.json"
        code = main(["check", str(q), "--stream", f"{STREAM}={stream}", "--answers", str(a), "--profile", "cqels",
                     "--answers-time-unit", "ms", "--json", str(report)])
        capsys.readouterr()
        return code, json.loads(report.read_text())

    return run


@pytest.mark.parametrize("query", ["filter", "avg", "join"])
def test_the_correct_engine_is_judged_correct(check, query):
    code, report = check(query, cqels_output(query, expire=True))
    assert code == 0 and report["correct"] is True


def test_istream_hides_the_expiry_bug_on_a_filter_query(check):
    buggy, correct = cqels_output("filter", expire=False), cqels_output("filter", expire=True)
    assert buggy == correct  # the stale readings gave their answers before; IStream emits nothing new
    code, report = check("filter", buggy)
    assert code == 0 and report["correct"] is True


@pytest.mark.parametrize("query", ["avg", "join"])
def test_aggregates_and_joins_reveal_the_expiry_bug(check, query):
    buggy = cqels_output(query, expire=False)
    assert buggy != cqels_output(query, expire=True)
    code, report = check(query, buggy)
    assert code == 1 and report["correct"] is False
    assert any(d.startswith("window expiry") for d in report["mismatch"]["diagnosis"]), report["mismatch"]
