"""Answers are multisets on the evaluation side (SPARQL 1.1 §18.1.6, §18.5; docs/decisions.md D5, D13):
each evaluation's answer is a bag of visible rows counted from the witnessed answer atoms, R2S
works on multisets (IStream/DStream: ``card = max(0, card_now − card_before)``), ORDER BY reads any
in-scope variable (the hidden columns), OFFSET/LIMIT count duplicates, and the writers write every
solution as often as it occurs, in every run mode.

Oracles: Oxigraph (``oxigraph_rows``: the solutions as a list, a bag in order) and rdflib on the
same data, compared as bags; the set view (``Bag.distinct``) against the plain set operators.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal, Namespace, URIRef

from lars.errors import UnsupportedError
from translator.cli import main
from translator.evaluate.live import live_answers
from translator.evaluate.operational import Evaluator
from translator.evaluate.profiles import PROFILES
from translator.evaluate.run import answers, r2s_rows
from translator.query.parse import parse
from translator.rdf.bags import Bag
from translator.rdf.static import static_facts
from translator.rdf.streams import StreamElement
from translator.rdf.terms import to_nt
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase
from translator.translate.solution_modifiers import SolutionSequence, solution_modifiers
import oracles
from oxigraph_oracle import oxigraph_rows

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context

EX = Namespace("http://example.org/")
PREFIX = "PREFIX : <http://example.org/>\n"
S1 = EX.s1

#: ``:a :p "1", "2" . :b :p "1"`` and a few more: ?x has several ?y, and ?y values repeat
STATIC = [(EX.a, EX.p, Literal("1")), (EX.a, EX.p, Literal("2")), (EX.b, EX.p, Literal("1"))]
MORE = STATIC + [(EX.c, EX.p, Literal("3")), (EX.c, EX.p, Literal("1")), (EX.c, EX.p, Literal("2")),
                 (EX.d, EX.p, Literal("2"))]

#: a stream in which ?x meets several ?y inside one window
ELEMENTS = [(0, (EX.a, EX.p, Literal(1))), (0, (EX.a, EX.p, Literal(2))), (1, (EX.b, EX.p, Literal(1))),
            (2, (EX.a, EX.p, Literal(3))), (3, (EX.b, EX.p, Literal(4))), (3, (EX.c, EX.p, Literal(1))),
            (5, (EX.a, EX.p, Literal(5))), (6, (EX.b, EX.p, Literal(2))), (6, (EX.b, EX.p, Literal(3)))]
WINDOW = "[RANGE 2s STEP 1s]"


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def nt_file(tmp_path, triples) -> str:
    return write(tmp_path, "data.nt", "".join(f"{to_nt(s)} {to_nt(p)} {to_nt(o)} .\n" for s, p, o in triples))


def oracle_bag(query: str, triples, variables: tuple[str, ...], oracle: str = "oxigraph") -> Bag:
    """The oracle's solutions of ``query`` over ``triples`` as a bag of N-Triples rows."""
    if oracle == "oxigraph":
        solutions = oxigraph_rows(query, list(triples))
    else:
        solutions = [{str(k): v for k, v in b.items()} for b in oracles.rdflib_dataset(list(triples)).query(query).bindings]
    return Bag(tuple(to_nt(s[v]) if s.get(v) is not None else None for v in variables) for s in solutions)


def oracle_sequence(query: str, triples, variables: tuple[str, ...]) -> list[tuple]:
    return [tuple(to_nt(s[v]) if v in s else None for v in variables) for s in oxigraph_rows(query, list(triples))]


# ------------------------------------------------------------------------------- R2S over multisets


ROWS = st.sampled_from([("<a>",), ("<b>",), ("<c>",)])
BAGS = st.lists(ROWS, max_size=6).map(Bag)


@settings(max_examples=300, deadline=None)
@given(now=BAGS, before=BAGS)
def test_istream_and_dstream_are_the_multiset_differences(now: Bag, before: Bag) -> None:
    """IStream/DStream of multisets (decision D13): ``card = max(0, card_now − card_before)``; on
    the set view (every cardinality 1) they are the set differences of RSP-QL §1.19."""
    istream, dstream = r2s_rows("istream", now, before), r2s_rows("dstream", now, before)
    for row in {*now.distinct(), *before.distinct()}:
        assert istream.count(row) == max(0, now.count(row) - before.count(row))
        assert dstream.count(row) == max(0, before.count(row) - now.count(row))
    assert r2s_rows("rstream", now, before) == now
    sets = Bag.of_set(now.distinct()), Bag.of_set(before.distinct())
    assert r2s_rows("istream", *sets).distinct() == now.distinct() - before.distinct()
    assert r2s_rows("dstream", *sets).distinct() == before.distinct() - now.distinct()
    # a solution new in the bag may be old in the set view: the set view of IStream over bags holds more
    assert istream.distinct() >= now.distinct() - before.distinct()


@settings(max_examples=200, deadline=None)
@given(order=st.lists(ROWS, max_size=8), before=BAGS)
def test_the_difference_of_a_sequence_keeps_its_order(order: list, before: Bag) -> None:
    """IStream of an ORDER BY answer: the same multiset difference, in the order of the sequence
    (a subsequence of it: of each solution's occurrences the first ``card_before`` are dropped)."""
    now = SolutionSequence(order)
    got = r2s_rows("istream", now, before)
    assert got == Bag(order) - before
    drop = {row: before.count(row) for row in order}
    want = []
    for row in order:
        if drop[row]:
            drop[row] -= 1
        else:
            want.append(row)
    assert list(got) == want


# ------------------------------------------------------------------ static data, the command line


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "tsv", "sparql-json"])
def test_each_solution_as_often_as_it_occurs(tmp_path, capsys, fmt: str) -> None:
    """``SELECT ?x WHERE { ?x :p ?y }`` over ``:a :p "1", "2" . :b :p "1"``: three solutions, :a twice,
    in every SELECT format, as Oxigraph and rdflib count them."""
    query = f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }}"
    code = main(["run", write(tmp_path, "q.rq", query), "--static", nt_file(tmp_path, STATIC), "--format", fmt])
    out = capsys.readouterr().out
    assert code == 0
    if fmt == "jsonl":
        got = Bag((a["x"],) for a in json.loads(out)["answers"])
    elif fmt == "sparql-json":
        got = Bag((f"<{b['x']['value']}>",) for b in json.loads(out)["results"]["bindings"])
    elif fmt == "tsv":
        lines = out.splitlines()
        assert lines[0] == "?x"
        got = Bag((line,) for line in lines[1:])
    else:
        got = Bag((f"<{r[0]}>",) for r in list(csv.reader(io.StringIO(out)))[1:])
    assert len(got) == 3 and got.count((f"<{EX.a}>",)) == 2
    for oracle in ("oxigraph", "rdflib"):
        assert got == oracle_bag(query, STATIC, ("x",), oracle)


def test_construct_output_stays_a_set(tmp_path, capsys) -> None:
    """An RDF graph is a set of triples (§16.2): the two solutions of :a give one triple."""
    query = f"{PREFIX}CONSTRUCT {{ ?x :q :o }} WHERE {{ ?x :p ?y }}"
    assert main(["run", write(tmp_path, "q.rq", query), "--static", nt_file(tmp_path, STATIC), "--format", "jsonl"]) == 0
    triples = json.loads(capsys.readouterr().out)["triples"]
    assert sorted(triples) == sorted({f"<{x}> <{EX.q}> <{EX.o}> ." for x in (EX.a, EX.b)})


MODIFIERS = [
    "ORDER BY ?y ?x",                       # a key that is not projected
    "ORDER BY DESC(?y) ?x LIMIT 3",         # top-k over duplicates of ?x
    "ORDER BY ?y ?x OFFSET 2 LIMIT 3",      # the slice counts duplicates
    "ORDER BY DESC(STRLEN(STR(?x)) + xsd:integer(?y)) ?x ?y",  # an expression over a hidden column
    "ORDER BY ?x ?y OFFSET 4",
]


@pytest.mark.parametrize("modifiers", MODIFIERS)
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_order_by_a_variable_that_is_not_projected(tmp_path, capsys, modifiers: str, fmt: str) -> None:
    """ORDER BY over ?y, which SELECT ?x drops (SPARQL 1.1 §18.2.5: OrderBy before Project), with
    OFFSET/LIMIT counting duplicates: the written sequence is Oxigraph's (the keys order every
    solution, so the order is fixed)."""
    query = f"{PREFIX}PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\nSELECT ?x WHERE {{ ?x :p ?y }} {modifiers}"
    code = main(["run", write(tmp_path, "q.rq", query), "--static", nt_file(tmp_path, MORE), "--format", fmt])
    out = capsys.readouterr().out
    assert code == 0
    if fmt == "jsonl":
        got = [(a["x"],) for a in json.loads(out)["answers"]]
    else:
        got = [(f"<{r[0]}>",) for r in list(csv.reader(io.StringIO(out)))[1:]]  # SPARQL CSV: the IRI bare
    assert got == oracle_sequence(query, MORE, ("x",))


def test_order_by_an_aggregate_the_select_clause_computes(tmp_path, capsys) -> None:
    """``ORDER BY DESC(COUNT(?y))`` reads the projected ``(COUNT(?y) AS ?n)`` (same aggregate, same group)."""
    query = f"{PREFIX}SELECT ?x (COUNT(?y) AS ?n) WHERE {{ ?x :p ?y }} GROUP BY ?x ORDER BY DESC(COUNT(?y)) ?x"
    assert main(["run", write(tmp_path, "q.rq", query), "--static", nt_file(tmp_path, MORE)]) == 0
    got = [(a["x"], a["n"]) for a in json.loads(capsys.readouterr().out)["answers"]]
    assert got == oracle_sequence(query, MORE, ("x", "n"))


@pytest.mark.parametrize("query, what", [
    ("SELECT DISTINCT ?x WHERE { ?x :p ?y } ORDER BY ?y", "?y"),  # DISTINCT keeps no witness
    ("SELECT ?x WHERE { ?x :p ?y } ORDER BY ?nowhere", "?nowhere"),
])
def test_order_by_a_variable_the_answers_do_not_hold_is_refused(tmp_path, capsys, query: str, what: str) -> None:
    code = main(["run", write(tmp_path, "q.rq", PREFIX + query), "--static", nt_file(tmp_path, STATIC)])
    err = capsys.readouterr().err
    assert code == 2 and f"ORDER BY over {what}" in err and "Traceback" not in err


def test_order_by_an_aggregate_not_computed_is_refused() -> None:
    text = f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }} GROUP BY ?x ORDER BY COUNT(?y)"
    with pytest.raises(UnsupportedError, match="ORDER BY with an aggregate"):
        compile_query(parse(text, "csparql"), mode="none")


# ------------------------------------------------- the contract: answer atoms with hidden columns


def narrowed(full_text: str, text: str, visible: tuple[str, ...], hidden: tuple[str, ...]):
    """The program of ``full_text`` (answer atoms over ``visible + hidden``) read as the answers of
    ``text`` (which projects ``visible``): the witness columns of ``Compiled.hidden``, built by hand."""
    full = compile_query(parse(full_text, "csparql"), mode="none")
    query = parse(text, "csparql")
    return replace(full, query=query, variables=visible, hidden=hidden, modifiers=solution_modifiers(query, visible))


def test_hidden_columns_count_and_order_the_solutions() -> None:
    """A hand-built program whose answer keeps ?y as a hidden column: three solutions, ordered by ?y."""
    compiled = narrowed(f"{PREFIX}SELECT ?x ?y WHERE {{ ?x :p ?y }}",
                        f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }} ORDER BY DESC(?y) ?x LIMIT 2", ("x",), ("y",))
    facts = static_facts(oracles.rdflib_dataset(STATIC))
    (ev,) = answers(compiled, (), facts, start=0, end=0)
    assert list(ev.rows) == [(f"<{EX.a}>",), (f"<{EX.a}>",)]  # ?y = "2" then the first of ?y = "1"
    unordered = replace(compiled, modifiers=None)
    (ev,) = answers(unordered, (), facts, start=0, end=0)
    assert ev.rows == Bag([(f"<{EX.a}>",), (f"<{EX.a}>",), (f"<{EX.b}>",)])


# --------------------------------------------------------------------------------- over a stream


def stream_elements() -> list[StreamElement]:
    return [StreamElement(triple, t, URIRef(str(S1))) for t, triple in ELEMENTS]


def window_bags(query: str, variables: tuple[str, ...], times) -> dict[int, Bag]:
    """The oracle's bag at each time: the query over the window's content (closed ``[t−2, t]``)."""
    return {t: oracle_bag(query, [tr for time, tr in ELEMENTS if t - 2 <= time <= t], variables) for t in times}


STREAM_QUERY = f"{PREFIX}SELECT ?x FROM STREAM <{S1}> {WINDOW} WHERE {{ ?x :p ?y }}"
PLAIN = f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }}"


@pytest.mark.parametrize("engine", ["incremental", "asp"])
@pytest.mark.parametrize("r2s", ["rstream", "istream", "dstream"])
def test_stream_answers_are_the_window_bags(engine: str, r2s: str) -> None:
    """Every evaluation's answer is the oracle's bag over the window; IStream/DStream are the
    multiset differences of consecutive answers; the sequential and the live run agree."""
    compiled = compile_query(parse(STREAM_QUERY, "csparql"), mode="none", base=TimeBase("s"))
    expected = window_bags(PLAIN, ("x",), range(0, 8))
    got = {ev.t: ev.rows for ev in answers(compiled, stream_elements(), (), start=0, end=7, r2s=r2s, engine=engine)}
    live = {ev.t: ev.rows for ev in live_answers(compiled, stream_elements(), (), start=0, end=7, r2s=r2s, engine=engine)}
    assert got == live
    before = Bag()
    for t in range(0, 8):
        want = {"rstream": expected[t], "istream": expected[t] - before, "dstream": before - expected[t]}[r2s]
        assert got[t] == want, t
        before = expected[t]
    assert any(any(n > 1 for _, n in rows.items()) for rows in got.values())  # duplicates did occur


def test_stream_order_by_hidden_key_with_limit() -> None:
    """ORDER BY over the hidden ?y and LIMIT at every evaluation, equal to Oxigraph's sequence."""
    query = f"{PREFIX}SELECT ?x FROM STREAM <{S1}> {WINDOW} WHERE {{ ?x :p ?y }} ORDER BY DESC(?y) ?x LIMIT 3"
    compiled = compile_query(parse(query, "csparql"), mode="none", base=TimeBase("s"))
    plain = f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }} ORDER BY DESC(?y) ?x LIMIT 3"
    sequential = list(answers(compiled, stream_elements(), (), start=0, end=7))
    live = list(live_answers(compiled, stream_elements(), (), start=0, end=7))
    assert [(ev.t, list(ev.rows)) for ev in live] == [(ev.t, list(ev.rows)) for ev in sequential]
    for ev in sequential:
        content = [tr for time, tr in ELEMENTS if ev.t - 2 <= time <= ev.t]
        assert list(ev.rows) == oracle_sequence(plain, content, ("x",)), ev.t


def report_content(report) -> list:
    """The elements a report sees: its window's scope (a tuple tick: the first ones stamped t only)."""
    (lo, hi), = report.scopes
    content = [tr for time, tr in ELEMENTS if lo <= time <= hi]
    if report.prefix is not None:
        at = [tr for time, tr in ELEMENTS if time == report.t][:report.prefix]
        content = [tr for time, tr in ELEMENTS if lo <= time <= hi and time != report.t] + at
    return content


@pytest.mark.parametrize("profile", ["csparql", "rsp-ql"])
def test_operational_order_by_hidden_key(profile: str) -> None:
    """Under a report policy, ORDER BY over the hidden ?y with LIMIT: Oxigraph's sequence per report."""
    text = f"{PREFIX}SELECT ?x FROM STREAM <{S1}> {WINDOW} WHERE {{ ?x :p ?y }} ORDER BY ?y DESC(?x) LIMIT 2"
    plain = f"{PREFIX}SELECT ?x WHERE {{ ?x :p ?y }} ORDER BY ?y DESC(?x) LIMIT 2"
    compiled = compile_query(parse(text, "csparql"), mode="none", base=TimeBase("s"))
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase("s"), stream_elements())
    reports = evaluator.plan(PROFILES[profile].params, 0, 8)
    for report, got in zip(reports, evaluator.answers(reports)):
        assert list(got) == oracle_sequence(plain, report_content(report), ("x",)), report


@pytest.mark.parametrize("profile", ["csparql", "rsp-ql"])
def test_operational_reports_are_the_window_bags(profile: str) -> None:
    """Under a report policy (the operational evaluator), each report's answer is the oracle's bag
    over the report's window content."""
    compiled = compile_query(parse(STREAM_QUERY, "csparql"), mode="none", base=TimeBase("s"))
    evaluator = Evaluator(compiled.query, compiled.strategy, TimeBase("s"), stream_elements())
    op = PROFILES[profile].params
    reports = evaluator.plan(op, 0, 8)
    seen_duplicates = False
    for report, got in zip(reports, evaluator.answers(reports)):
        assert got == oracle_bag(PLAIN, report_content(report), ("x",)), report
        seen_duplicates |= any(n > 1 for _, n in got.items())
    assert seen_duplicates


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "tsv", "sparql-json"])
def test_stream_writers_write_each_solution_as_often_as_it_occurs(tmp_path, capsys, fmt: str) -> None:
    """``rsplars run`` over a stream: every format gives, at every evaluation time, the oracle's bag."""
    stream = write(tmp_path, "s.nt", "".join(f'{to_nt(s)} {to_nt(p)} {to_nt(o)} "{t}" .\n' for t, (s, p, o) in ELEMENTS))
    code = main(["run", write(tmp_path, "q.rq", STREAM_QUERY), "--stream", f"{S1}={stream}", "--unit", "s",
                 "--stream-time-unit", "s", "--mode", "none", "--format", fmt, "--to", "7"])
    out = capsys.readouterr().out
    assert code == 0
    got: dict[int, list] = {}
    if fmt in ("jsonl", "sparql-json"):
        for line in out.splitlines():
            record = json.loads(line)
            if fmt == "jsonl":
                got[record["t"]] = [(a["x"],) for a in record["answers"]]
            else:
                got[record["t"]] = [(f"<{b['x']['value']}>",) for b in record["results"]["bindings"]]
    else:
        table = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert table[0] == ["t", "x" if fmt == "csv" else "?x"]
        for t, x in table[1:]:
            got.setdefault(int(t), []).append((x,))
    expected = window_bags(PLAIN, ("x",), range(0, 8))
    assert {t: Bag(rows) for t, rows in got.items() if rows} == {t: b for t, b in expected.items() if b}
