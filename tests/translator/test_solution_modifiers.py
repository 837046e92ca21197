"""ORDER BY, LIMIT and OFFSET at the top level of a continuous query (SPARQL 1.1 §15.1, §15.4,
§15.5; ToList, OrderBy and Slice of §18.5), applied to each evaluation's answer relation after
solving and before R2S (Dell'Aglio et al. 2014, Definitions 21–22: part of the query's R2R).

Oracles: Oxigraph (and rdflib on static data) evaluates the same query on each window's content
(``window_oracle``). A SPARQL engine may cut rows that tie on the ORDER BY keys anywhere, so an
evaluation is right when it has as many rows as the oracle's slice, every row is an answer of the
query without LIMIT/OFFSET, and the sequence of its ORDER BY keys (in the order rsplars writes the
rows) is the oracle's sequence.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from rdflib import Literal, Namespace, URIRef

from lars.errors import UnsupportedError
from translator.cli import main
from translator.evaluate.run import answers
from translator.query.parse import parse
from translator.rdf.static import static_facts
from translator.rdf.streams import StreamElement
from translator.rdf.terms import to_nt
from translator.query import model as M
from translator.rdf.bags import Bag
from translator.translate.compile import compile_query
from translator.translate.solution_modifiers import SolutionModifiers
import oracles
from oxigraph_oracle import comparable_nt, oxigraph_rows
from window_oracle import window_content

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's Dataset.default_context

EX = Namespace("http://example.org/")
PREFIX = "PREFIX : <http://example.org/>\n"
S1 = EX.s1

ELEMENTS = [
    (0, (EX.o1, EX.value, Literal(3))), (0, (EX.o1, EX.weight, Literal(2))),
    (1, (EX.o2, EX.value, Literal(8))),
    (1, (EX.o3, EX.value, Literal(3))), (1, (EX.o3, EX.weight, Literal(9))),
    (2, (EX.o4, EX.value, Literal(-4))),
    (3, (EX.o5, EX.value, Literal(8))), (3, (EX.o5, EX.weight, Literal(1))),
    (4, (EX.o6, EX.value, Literal(0))),
    (5, (EX.o7, EX.value, Literal(6))), (5, (EX.o7, EX.weight, Literal(2))),
    (5, (EX.o8, EX.value, Literal(3))),
]
WHERE = "?o :value ?v OPTIONAL { ?o :weight ?w }"
VARIABLES = ("o", "v", "w")

MODIFIERS = [
    "ORDER BY DESC(?v) LIMIT 2",                  # top-k, ties on 8 and on 3 cut anywhere
    "ORDER BY ?v OFFSET 1 LIMIT 2",
    "ORDER BY ?w DESC(?v) LIMIT 3",               # unbound ?w first (§15.1)
    "ORDER BY DESC(?w) LIMIT 2",
    "ORDER BY DESC(?v * ?v) ?o LIMIT 3",          # an expression as key
    "ORDER BY (?v + ?w) LIMIT 2",                 # an error key (unbound operand) sorts as unbound
    "ORDER BY ?o LIMIT 0",
    "ORDER BY ?v OFFSET 50",                      # beyond the end
    "ORDER BY DESC(?v)",                          # no slice: the whole relation, ordered
    "LIMIT 1 OFFSET 1",                           # no ORDER BY: any rows, as many as the slice
]


def order_keys(modifiers: str) -> list[str]:
    """The ORDER BY conditions of a modifier text, each as an expression without ASC/DESC."""
    head = modifiers.split("LIMIT")[0].split("OFFSET")[0]
    if "ORDER BY" not in head:
        return []
    conditions = re.findall(r"(?:ASC|DESC)?\((?:[^()]|\([^()]*\))*\)|\?\w+", head.replace("ORDER BY", ""))
    return [re.sub(r"^(ASC|DESC)", "", c) for c in conditions]


def with_keys(where: str, modifiers: str) -> tuple[str, list[str]]:
    """A query selecting the answer variables and the ORDER BY keys as ?k0, ?k1, … (an error key:
    unbound), with the modifiers, for Oxigraph."""
    keys = order_keys(modifiers)
    binds = " ".join(f"BIND({k} AS ?k{i})" for i, k in enumerate(keys))
    select = " ".join(f"?{v}" for v in VARIABLES) + "".join(f" ?k{i}" for i in range(len(keys)))
    return f"{PREFIX}SELECT {select} WHERE {{ {where} {binds} }} {modifiers}", [f"k{i}" for i in range(len(keys))]


def slice_of(modifiers: str) -> tuple[int, int | None]:
    offset = re.search(r"OFFSET (\d+)", modifiers)
    limit = re.search(r"LIMIT (\d+)", modifiers)
    return int(offset.group(1)) if offset else 0, int(limit.group(1)) if limit else None


def our_keys(modifiers: str, rows: list[tuple]) -> list[tuple]:
    """The ORDER BY keys of our ordered rows, evaluated by Oxigraph on each row (VALUES)."""
    keys = order_keys(modifiers)
    if not keys:
        return [() for _ in rows]
    out = []
    for row in rows:
        values = " ".join("UNDEF" if x is None else x for x in row)
        query = (f"{PREFIX}SELECT " + " ".join(f"({k} AS ?k{i})" for i, k in enumerate(keys))
                 + f" WHERE {{ VALUES ({' '.join('?' + v for v in VARIABLES)}) {{ ({values}) }} }}")
        (got,) = oxigraph_rows(query)
        out.append(tuple(comparable_nt(to_nt(got[f"k{i}"])) if f"k{i}" in got else None for i in range(len(keys))))
    return out


def check_relation(modifiers: str, ours: list[tuple], default, named) -> None:
    """``ours`` (one evaluation's rows, in the order rsplars writes them) is a slice SPARQL allows."""
    query, keys = with_keys(WHERE, modifiers.split("LIMIT")[0].split("OFFSET")[0])
    full = oxigraph_rows(query, default, named)
    offset, limit = slice_of(modifiers)
    want = full[offset:None if limit is None else offset + limit]
    all_rows = {tuple(to_nt(r[v]) if v in r else None for v in VARIABLES) for r in full}
    assert len(ours) == len(want), (modifiers, ours, want)
    assert set(ours) <= all_rows, (modifiers, set(ours) - all_rows)
    oracle_keys = [tuple(comparable_nt(to_nt(r[k])) if k in r else None for k in keys) for r in want]
    assert our_keys(modifiers, ours) == oracle_keys, (modifiers, ours, want)


def compiled_query(text: str, dialect: str, convention: str = "closed"):
    return compile_query(parse(text, dialect), mode="none", bounds=convention)


def stream_answers(compiled, r2s: str = "rstream") -> dict[int, Bag]:
    elements = [StreamElement(tr, t, URIRef(str(S1))) for t, tr in ELEMENTS]
    return {ev.t: ev.rows for ev in answers(compiled, elements, (), start=0, end=6, r2s=r2s)}


@pytest.mark.parametrize("modifiers", MODIFIERS)
@pytest.mark.parametrize("convention", ["closed", "right-open"])
def test_csparql_per_window_slice_equals_oxigraph(modifiers: str, convention: str) -> None:
    """C-SPARQL: each evaluation's relation is the slice of the window content's ordered answers."""
    text = f"{PREFIX}SELECT ?o ?v ?w FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ {WHERE} }} {modifiers}"
    compiled = compiled_query(text, "csparql", convention)
    got = stream_answers(compiled)
    for t in range(7):
        content = window_content(ELEMENTS, 3, 1, t, convention)
        check_relation(modifiers, compiled.modifiers.ordered(got[t]), content, None)


@pytest.mark.parametrize("modifiers", MODIFIERS[:6])
def test_rspql_window_top_k_equals_oxigraph(modifiers: str) -> None:
    """RSP-QL: the modifiers over a named window's content (the oracle reads it as a named graph)."""
    text = (f"{PREFIX}SELECT ?o ?v ?w FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S] "
            f"WHERE {{ WINDOW :w {{ {WHERE} }} }} {modifiers}")
    compiled = compiled_query(text, "rspql")
    got = stream_answers(compiled)
    graph_where = f"GRAPH :w {{ {WHERE} }}"
    for t in sorted(got):
        content = window_content(ELEMENTS, 4, 2, t, "closed")
        query, keys = with_keys(graph_where, modifiers.split("LIMIT")[0].split("OFFSET")[0])
        full = oxigraph_rows(query, (), {str(EX.w): content})
        offset, limit = slice_of(modifiers)
        want = full[offset:None if limit is None else offset + limit]
        ours = compiled.modifiers.ordered(got[t])
        assert len(ours) == len(want), (t, modifiers)
        oracle_keys = [tuple(comparable_nt(to_nt(r[k])) if k in r else None for k in keys) for r in want]
        assert our_keys(modifiers, ours) == oracle_keys, (t, modifiers)


@pytest.mark.parametrize("r2s", ["rstream", "istream", "dstream"])
def test_modifiers_apply_before_r2s(r2s: str) -> None:
    """IStream/DStream compare the sliced relations (the slice is part of R2R): a row that leaves
    the top 2 while still in the window is in DStream."""
    base = f"{PREFIX}SELECT ?o ?v ?w FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ {WHERE} }} ORDER BY DESC(?v) ?o"
    top = stream_answers(compiled_query(base + " LIMIT 2", "csparql"))
    got = stream_answers(compiled_query(base + " LIMIT 2", "csparql"), r2s)
    previous = Bag()
    for t in sorted(top):
        expected = {"rstream": top[t], "istream": top[t] - previous, "dstream": previous - top[t]}[r2s]
        assert got[t] == expected, t
        previous = top[t]
    if r2s == "dstream":  # o1 (3, at 0) leaves the top 2 at t=3, when o5 (8) comes, o1 still in the window [0, 3]
        assert (f"<{EX.o1}>", to_nt(Literal(3)), to_nt(Literal(2))) in got[3]


def test_limit_keeps_k_rows_each_evaluation() -> None:
    text = f"{PREFIX}SELECT ?o ?v ?w FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ {WHERE} }} ORDER BY ?o LIMIT 1"
    full = stream_answers(compiled_query(text.replace(" LIMIT 1", ""), "csparql"))
    got = stream_answers(compiled_query(text, "csparql"))
    for t, rows in got.items():
        assert len(rows) == min(1, len(full[t])) and rows.distinct() <= full[t].distinct()
        if rows:
            assert min(full[t]) in rows  # ?o IRIs: the least one (IRIs compared by their text, §15.1)


# ------------------------------------------------------------------------------ static data, CLI


STATIC = [(EX.a, EX.value, Literal(5)), (EX.b, EX.value, Literal(2)), (EX.c, EX.value, Literal(5)),
          (EX.d, EX.value, Literal(-1)), (EX.e, EX.value, Literal(0)), (EX.b, EX.weight, Literal(7))]


def write_static(tmp_path, triples) -> str:
    path = tmp_path / "data.nt"
    path.write_text("".join(f"{to_nt(s)} {to_nt(p)} {to_nt(o)} .\n" for s, p, o in triples))
    return str(path)


@pytest.mark.parametrize("oracle", ["oxigraph", "rdflib"])
@pytest.mark.parametrize("fmt", ["jsonl", "sparql-json", "csv"])
def test_plain_sparql_over_static_data_in_order(tmp_path, capsys, oracle: str, fmt: str) -> None:
    """``rsplars run Q --static D``: the answers written in the ORDER BY order; same keys as the oracle."""
    query = f"{PREFIX}SELECT ?o ?v WHERE {{ ?o :value ?v }} ORDER BY DESC(?v) ?o LIMIT 4"
    q = tmp_path / "q.rq"
    q.write_text(query)
    code = main(["run", str(q), "--static", write_static(tmp_path, STATIC), "--format", fmt])
    out = capsys.readouterr().out
    assert code == 0
    if fmt == "jsonl":
        ours = [(a["o"], a["v"]) for a in json.loads(out)["answers"]]
    elif fmt == "sparql-json":
        ours = [(f"<{b['o']['value']}>", to_nt(Literal(b["v"]["value"], datatype=URIRef(b["v"]["datatype"]))))
                for b in json.loads(out)["results"]["bindings"]]
    else:
        lines = out.strip().splitlines()[1:]
        ours = [(f"<{line.split(',')[0]}>", to_nt(Literal(int(line.split(',')[1])))) for line in lines]
    if oracle == "oxigraph":
        want = [(to_nt(r["o"]), to_nt(r["v"])) for r in oxigraph_rows(query, STATIC)]
    else:
        result = oracles.rdflib_dataset(STATIC).query(query)
        want = [(to_nt(r["o"]), to_nt(r["v"])) for r in result.bindings]
    assert ours == want  # ?o breaks the ties: the order is fixed


def test_translated_program_says_the_modifiers_come_after_solving(tmp_path, capsys) -> None:
    q = tmp_path / "q.rq"
    q.write_text(f"{PREFIX}SELECT ?o ?v FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ ?o :value ?v }} "
                 "ORDER BY DESC(?v) LIMIT 10")
    for options in (["--to", "lars", "--period", "1s"], ["--to", "asp", "--period", "1s"],
                    ["--to", "lars", "--profile", "csparql"]):  # the last: the program under a report policy
        assert main(["translate", str(q), *options, "--unit", "s"]) == 0
        out = capsys.readouterr().out
        assert "% note: ORDER BY, LIMIT are applied to each evaluation's answers after solving, before R2S" in out


@pytest.mark.parametrize("options, refused", [(["--profile", "cqels"], "LIMIT/OFFSET under ISTREAM"),
                                              (["--profile", "csparql", "--ignore-timestamps"],
                                               "LIMIT/OFFSET with --ignore-timestamps")])
@pytest.mark.parametrize("modifier", ["ORDER BY ?room LIMIT 1", "OFFSET 2"])
def test_recorded_answers_of_a_slice_refused_where_unjudged(tmp_path, capsys, options, refused, modifier) -> None:
    """Recorded answers of a LIMIT/OFFSET query are judged as slices (tests/check/test_limit_slices.py)
    except under ISTREAM/DSTREAM and in the oracle comparison: ``check`` names the reason, exit 2."""
    q = tmp_path / "q.rq"
    q.write_text(f"SELECT ?room FROM STREAM <http://www.example.org/stream1> [RANGE 10s STEP 10s] "
                 f"WHERE {{ <http://ex.org/m1> <http://ex.org/detectedAt> ?room }} {modifier}")
    recorded = tmp_path / "answers.jsonl"
    recorded.write_text('{"t": 10, "answers": []}\n')
    stream = tmp_path / "none.nt"
    stream.write_text("")
    code = main(["check", str(q), "--answers", str(recorded), *options,
                 "--stream", f"http://www.example.org/stream1={stream}"])
    err = capsys.readouterr().err
    assert code == 2 and refused in err and "Traceback" not in err


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 9)), unique=True, max_size=8), st.integers(0, 3),
       st.integers(0, 4), st.booleans(), st.randoms(use_true_random=False))
def test_choose_gives_any_allowed_slice_it_prefers(pairs, offset, limit, descending, rng) -> None:
    """``choose`` returns the preferred rows when they are a slice of some order consistent with
    the keys (each tie group cut as Slice cuts its positions, any rows of it), and ``apply``'s
    slice when nothing is preferred. Oracle: the slice counted per value of ?v here."""
    rows = frozenset((f'"{k}"^^<http://www.w3.org/2001/XMLSchema#integer>', f"<http://example.org/r{r}>")
                     for k, r in pairs)
    mods = SolutionModifiers(("v", "o"), ((M.Var("v"), descending),), limit, offset)
    assert mods.visible(mods.choose(rows, lambda row: False)) == mods.apply(rows)
    by: dict[int, list] = {}
    for row in rows:
        by.setdefault(int(row[0].split('"')[1]), []).append(row)
    chosen, position = set(), 0
    for k in sorted(by, reverse=descending):
        group = by[k]
        first, position = position, position + len(group)
        chosen |= set(rng.sample(group, max(0, min(offset + limit, position) - max(offset, first))))
    assert len(chosen) == mods.size(len(rows))
    assert mods.choose(rows, chosen.__contains__) == chosen


def test_epsparql_still_refuses_order_by() -> None:
    text = "PREFIX : <http://example.org/>\nSELECT ?x WHERE { { ?x :p ?y } SEQ { ?x :q ?z } } ORDER BY ?x"
    with pytest.raises(UnsupportedError, match="ORDER BY"):
        from translator.translate.epsparql import compile_epsparql

        compile_epsparql(parse(text, "epsparql"))


# ------------------------------------------------------------------------------------ property test

NODES = [EX.a, EX.b, EX.c, EX.d]
VALUES = [Literal(1), Literal(2), Literal(-3), Literal(0), Literal(2.5)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.tuples(st.sampled_from(NODES), st.sampled_from([EX.value, EX.weight]), st.sampled_from(VALUES)),
               min_size=1, max_size=8),
       st.sampled_from(["?v", "DESC(?v)", "?w", "DESC(?w) ?v", "(?v - ?w)", "DESC(?o)"]),
       st.integers(0, 4), st.integers(0, 3))
def test_random_static_slices_equal_oxigraph(triples, order: str, limit: int, offset: int) -> None:
    """Random data and modifiers: the slice of the evaluation over the static data is one SPARQL allows."""
    modifiers = f"ORDER BY {order} OFFSET {offset} LIMIT {limit}"
    text = f"{PREFIX}SELECT ?o ?v ?w WHERE {{ {WHERE} }} {modifiers}"
    compiled = compiled_query(text, "csparql")
    facts = static_facts(oracles.rdflib_dataset(sorted(triples)))
    (ev,) = answers(compiled, (), facts, start=0, end=0)
    check_relation(modifiers, compiled.modifiers.ordered(ev.rows), sorted(triples), None)


def test_operational_run_slices_each_relation(tmp_path, capsys) -> None:
    """``run --profile`` (the operational evaluator): each relation is the top 2 of the same run's
    relation without LIMIT."""
    stream = tmp_path / "s.nt"
    stream.write_text("".join(f'{to_nt(s)} {to_nt(p)} {to_nt(o)} "{t}" .\n' for t, (s, p, o) in ELEMENTS))
    q = tmp_path / "q.rq"

    def run(modifiers: str) -> dict[int, list[int]]:
        q.write_text(f"{PREFIX}SELECT ?o ?v ?w FROM STREAM <{S1}> [RANGE 3s STEP 1s] WHERE {{ {WHERE} }} {modifiers}")
        assert main(["run", str(q), "--stream", f"{S1}={stream}", "--unit", "s", "--stream-time-unit", "s",
                     "--profile", "csparql"]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        return {r["t"]: [int(a["v"].split('"')[1]) for a in r["answers"]] for r in records}

    top, full = run("ORDER BY DESC(?v) ?o LIMIT 2"), run("ORDER BY DESC(?v) ?o")
    assert top.keys() == full.keys() and any(len(v) > 2 for v in full.values())
    for t, values in top.items():
        assert values == full[t][:2] == sorted(full[t], reverse=True)[:2], t
