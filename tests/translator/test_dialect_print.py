"""Printing a query in another dialect (``translator.query.dialect_print``, ``rsplars translate --to
rspql|csparql|cqels``).

* Property: random queries of the fragment the dialects share (BGPs, FILTER, OPTIONAL, UNION, one
  or two windows, static triple patterns), written in each dialect, on random small streams and
  static data: ``rsplars run`` of the print gives the same bag of answers as the original at every time under the
  same options (pulled, pushed, or under the ``rsp-ql`` profile), and printing is a fixpoint after one round trip.
* Every fixture query prints to every dialect it can, and reads back to the same print.
* Every construct a dialect cannot write is a named error at its position, exit code 2.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from translator.cli import main
from translator.query.dialect_print import NotExpressible, print_in_dialect
from translator.query.errors import QuerySemanticError
from translator.query.parse import parse

DATA = Path(__file__).resolve().parents[1] / "data"
EX = "http://example.org/"
STREAMS = (f"{EX}s1", f"{EX}s2")
TARGETS = ("rspql", "csparql", "cqels")


# ---- random queries of the shared fragment -------------------------------------------------------

terms = st.sampled_from(["?x", "?y", "?z", ":a", ":b", "_:n"])
predicates = st.sampled_from([":p", ":q"])
triples = st.lists(st.tuples(terms, predicates, terms), min_size=1, max_size=2)
#: a block: its triple patterns and where they are read (None: the static default graph, i: window i,
#: "any": RSP-QL's WINDOW ?w over both windows, window 0 in the other dialects)
blocks = st.tuples(st.sampled_from([None, 0, 1, "any"]), triples)
filters = st.sampled_from(["FILTER (?x != :a)", "FILTER (bound(?y))", "FILTER (!bound(?z) || ?z = :b)"])


def patterns(depth: int = 2):
    leaf = st.tuples(st.just("block"), blocks)
    if depth == 0:
        return leaf
    sub = st.lists(patterns(depth - 1), min_size=1, max_size=2)
    return st.one_of(
        leaf,
        st.tuples(st.just("optional"), sub),
        st.tuples(st.just("union"), sub, sub),
        st.tuples(st.just("filter"), filters),
    )


queries = st.fixed_dictionaries({
    "dialect": st.sampled_from(TARGETS),
    "body": st.lists(patterns(), min_size=1, max_size=3),
    "ranges": st.tuples(st.integers(1, 3), st.integers(1, 3)),
    "named": st.tuples(st.booleans(), st.booleans()),  # C-SPARQL: FROM NAMED STREAM (GRAPH) or merged
    "select": st.sampled_from(["*", "?x", "DISTINCT ?x ?y"]),
})


def render(q: dict) -> str:
    """The query ``q`` as text of its dialect."""
    dialect = q["dialect"]
    blocks_written = [0]

    def block(where, tps) -> str:
        # a blank node label is local to one basic graph pattern (SPARQL 1.1 §19.6): one per block
        blocks_written[0] += 1
        text = " ".join(f"{s} {p} {o} ." for s, p, o in tps).replace("_:n", f"_:n{blocks_written[0]}")
        if where is None:
            return text
        if where == "any":
            if dialect == "rspql":
                return f"WINDOW ?w {{ {text} }}"
            where = 0
        stream = f"<{STREAMS[where]}>"
        if dialect == "rspql":
            return f"WINDOW :w{where} {{ {text} }}"
        if dialect == "cqels":
            return f"STREAM {stream} [RANGE {q['ranges'][where]}s] {{ {text} }}"
        return f"GRAPH {stream} {{ {text} }}" if q["named"][where] else text

    def pattern(p) -> str:
        match p:
            case ("block", (where, tps)):
                return block(where, tps)
            case ("optional", sub):
                return "OPTIONAL { " + " ".join(map(pattern, sub)) + " }"
            case ("union", left, right):
                return "{ " + " ".join(map(pattern, left)) + " } UNION { " + " ".join(map(pattern, right)) + " }"
            case ("filter", text):
                return text
        raise AssertionError(p)

    head = [f"PREFIX : <{EX}>"]
    if dialect == "rspql":
        head.append(f"REGISTER RSTREAM <{EX}out> AS")
    head.append(f"SELECT {q['select']}")
    for i, stream in enumerate(STREAMS):
        if dialect == "rspql":
            head.append(f"FROM NAMED WINDOW :w{i} ON <{stream}> [RANGE PT{q['ranges'][i]}S STEP PT1S]")
        elif dialect == "csparql":
            named = "NAMED " if q["named"][i] else ""
            head.append(f"FROM {named}STREAM <{stream}> [RANGE {q['ranges'][i]}s STEP 1s]")
    return "\n".join(head) + "\nWHERE { " + " ".join(map(pattern, q["body"])) + " }\n"


nodes = st.sampled_from([f"<{EX}a>", f"<{EX}b>", f"<{EX}c>"])
data_triples = st.tuples(nodes, st.sampled_from([f"<{EX}p>", f"<{EX}q>"]), nodes)
streams_data = st.tuples(*(st.lists(st.tuples(st.integers(0, 5), data_triples), max_size=6) for _ in STREAMS))
static_data = st.lists(data_triples, max_size=4)


#: stream IRI → its file, for the example being run
files: dict[str, Path] = {}


def streams_read(text: str, dialect: str) -> set[str]:
    from translator.query.model import stream_graph_patterns

    return {p.stream.value for p in stream_graph_patterns(parse(text, dialect))}


def run_text(folder: Path, name: str, text: str, dialect: str, options: list[str]) -> str:
    path = folder / name
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["run", str(path), "--dialect", dialect, *options])
    assert code == 0, err.getvalue()
    return out.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=queries, streams=streams_data, static=static_data, mode=st.sampled_from(["pull", "push", "profile"]))
def test_printed_query_gives_the_same_answers_and_prints_to_a_fixpoint(query, streams, static, mode):
    text = render(query)
    original = parse(text, query["dialect"])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        options = ["--unit", "s", "--to", "6"] + {"pull": ["--mode", "pull", "--period", "1s"], "push": ["--mode", "push"],
                                                  "profile": ["--profile", "rsp-ql"]}[mode]
        files.clear()
        for i, elements in enumerate(streams):
            lines = "".join(f'{s} {p} {o} "{t}" .\n' for t, (s, p, o) in sorted(elements))
            (folder / f"s{i}.nt").write_text(lines)
            files[STREAMS[i]] = folder / f"s{i}.nt"
        (folder / "static.nt").write_text("".join(f"{s} {p} {o} .\n" for s, p, o in static))
        options += ["--static", str(folder / "static.nt")]
        prints = {}
        for target in TARGETS:
            if target == query["dialect"]:
                continue
            try:
                printed, _ = print_in_dialect(original, target)
            except NotExpressible as exc:  # a blank node of C-SPARQL's merged graph would be projected by *
                assert "blank node" in exc.message and query["select"] == "*", exc.message
                event("blank node under SELECT *: a named error")
                return
            again, _ = print_in_dialect(parse(printed, target), target)
            assert again == printed, "printing is a fixpoint after one round trip"
            prints[target] = printed
        # the same data for every run: the streams each version reads (a window that the pattern
        # never reads has no CQELS-QL form, so its stream is left out of every run)
        read = set.intersection(streams_read(text, query["dialect"]), *(streams_read(t, d) for d, t in prints.items()))
        if not read:
            event("no stream read")
            return  # no version reads a stream (`run` needs one)
        event("answers compared")
        options += [x for iri in sorted(read) for x in ("--stream", f"{iri}={files[iri]}")]
        # the same *bag* of answers at every time (D5): every multiplicity kept
        expected = answer_bags(run_text(folder, "original.rq", text, query["dialect"], options))
        for target, printed in prints.items():
            assert answer_bags(run_text(folder, f"printed.{target}", printed, target, options)) == expected, \
                (target, printed)


def answer_bags(jsonl: str) -> list:
    """``rsplars run``'s JSON lines as (t, the multiset of its answers) per line."""
    import json
    from collections import Counter

    out = []
    for line in jsonl.splitlines():
        record = json.loads(line)
        rows = record.get("answers", record.get("triples", record.get("answer")))
        rows = Counter(json.dumps(r, sort_keys=True) for r in rows) if isinstance(rows, list) else rows
        out.append((record["t"], rows))
    return out


# ---- the fixtures -------------------------------------------------------------------------------

FIXTURES = ([(p, "csparql") for p in sorted((DATA / "queries" / "csparql").glob("*.txt"))]
            + [(p, "cqels") for p in sorted((DATA / "queries" / "cqels").glob("*.txt"))]
            + [(p, "rspql") for p in sorted((DATA / "rspql" / "citybench").glob("*.rq"))])


@pytest.mark.parametrize("path,dialect", FIXTURES, ids=lambda x: getattr(x, "name", x))
def test_fixture_prints_in_every_dialect_and_reads_back(path, dialect):
    text = path.read_text()
    query = parse(text, dialect, lenient=True)
    printed_somewhere = 0
    for target in TARGETS:
        try:
            printed, _ = print_in_dialect(query, target, source=str(path), text=text)
        except NotExpressible as exc:
            assert exc.line is not None and "cannot be written in" in exc.message
            continue
        reread = parse(printed, target)
        assert reread.dialect == target
        assert print_in_dialect(reread, target)[0] == printed
        printed_somewhere += 1
    assert printed_somewhere == len(TARGETS)


# ---- what a dialect cannot write ----------------------------------------------------------------

NOT_EXPRESSIBLE = [
    # (dialect, query text, --to, construct named, line, column)
    ("rspql", """PREFIX : <http://example.org/>
SELECT ?x
FROM NAMED WINDOW :w1 ON :s [RANGE PT3S STEP PT1S]
FROM NAMED WINDOW :w2 ON :s [RANGE PT5S STEP PT1S]
WHERE { WINDOW :w1 { ?x :p ?y } WINDOW :w2 { ?y :q ?z } }
""", "csparql", "two windows on the stream <http://example.org/s>", 4, 1),
    ("rspql", """PREFIX : <http://example.org/>
SELECT ?x ?g
FROM NAMED WINDOW :w1 ON :s [RANGE PT3S STEP PT1S]
WHERE {
  WINDOW :w1 { ?x :p ?y }
  GRAPH ?g { ?y :q ?z }
}
""", "csparql", "GRAPH ?g in a query with windows", 6, 3),
    ("rspql", """PREFIX : <http://example.org/>
REGISTER DSTREAM <http://example.org/out> AS
SELECT ?x
FROM NAMED WINDOW :w1 ON :s [RANGE PT3S STEP PT1S]
WHERE { WINDOW :w1 { ?x :p ?y } }
""", "cqels", "REGISTER DSTREAM", 2, 1),
    ("rspql", """PREFIX : <http://example.org/>
SELECT ?x
FROM NAMED WINDOW :w1 ON :s [FROM NOW-PT10S TO NOW-PT5S STEP PT5S]
WHERE { WINDOW :w1 { ?x :p ?y } }
""", "csparql", "a [FROM NOW-a TO NOW-b] window", 3, 29),
    ("cqels", """PREFIX : <http://example.org/>
SELECT ?x
WHERE {
  STREAM :s [NOW] { ?x :p ?y }
}
""", "rspql", "the [NOW] window", 4, 13),
    ("cqels", """PREFIX : <http://example.org/>
SELECT ?x
WHERE {
  STREAM ?s [RANGE 3s] { ?x :p ?y }
}
""", "csparql", "STREAM ?s (a variable stream)", 4, 3),
    ("csparql", """REGISTER QUERY q AS
PREFIX : <http://example.org/>
SELECT ?x ?n
FROM STREAM <http://example.org/s> [RANGE 10s STEP 2s]
WHERE { ?x :p ?y }
AGGREGATE { (?n, COUNT, {?x}) }
""", "rspql", "the C-SPARQL AGGREGATE clause", 6, 1),
    ("csparql", """PREFIX : <http://example.org/>
SELECT ?x ?t
FROM STREAM <http://example.org/s> [RANGE 10s STEP 2s]
WHERE { ?x :p ?y . BIND (timestamp(?x, :p, ?y) AS ?t) }
""", "cqels", "the C-SPARQL function timestamp()", 4, 26),
    ("csparql", """PREFIX : <http://example.org/>
SELECT ?x
FROM STREAM <http://example.org/s> [RANGE 10s STEP 2s]
WHERE { ?x :p/:q ?y }
""", "rspql", "a property path (:p/:q) over the default graph", 4, 12),
    ("csparql", """PREFIX : <http://example.org/>
SELECT *
FROM STREAM <http://example.org/s> [RANGE 10s STEP 2s]
WHERE { ?x :p [ :q ?y ] }
""", "cqels", "a blank node in a pattern over the default graph", 4, 15),
    ("csparql", """REGISTER QUERY q COMPUTED EVERY 5s AS
PREFIX : <http://example.org/>
SELECT ?x
FROM STREAM <http://example.org/s> [RANGE 10s STEP 2s]
WHERE { ?x :p ?y }
""", "rspql", "COMPUTED EVERY other than the windows' STEP", 1, 1),
    ("csparql", """PREFIX : <http://example.org/>
SELECT ?x
FROM STREAM <http://example.org/s> [RANGE TRIPLES 5]
WHERE { ?x :p ?y }
""", "rspql", "a count-based [TRIPLES n] window", 3, 36),
    ("epsparql", """PREFIX : <http://example.org/>
SELECT ?x
WHERE { { ?x :p ?y } SEQ { ?x :q ?z } }
""", "rspql", "the EP-SPARQL event operator SEQ", 3, 22),
]


@pytest.mark.parametrize("dialect,text,target,construct,line,column", NOT_EXPRESSIBLE,
                         ids=[f"{c[0]}-to-{c[2]}-{c[3][:24]}" for c in NOT_EXPRESSIBLE])
def test_not_expressible_is_named_with_its_position(dialect, text, target, construct, line, column, tmp_path, capsys):
    path = tmp_path / "q.rq"
    path.write_text(text)
    code = main(["translate", str(path), "--dialect", dialect, "--to", target])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    first = err.strip().splitlines()[0]
    assert first.startswith(f"{path}:{line}:{column}: {construct}"), err
    assert first.endswith(f"cannot be written in {dict(rspql='RSP-QL', csparql='C-SPARQL', cqels='CQELS-QL')[target]}")
    assert "Traceback" not in err


def test_rstream_registration_left_out_of_cqels_with_a_note(tmp_path, capsys):
    path = tmp_path / "q.rq"
    path.write_text("""PREFIX : <http://example.org/>
REGISTER RSTREAM <http://example.org/out> AS
SELECT ?x
FROM NAMED WINDOW :w ON :s [RANGE PT3S]
WHERE { WINDOW :w { ?x :p ?y } }
""")
    code = main(["translate", str(path), "--to", "cqels"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "REGISTER" not in out and "STREAM :s [RANGE 3s] {" in out
    assert "note: CQELS-QL has no registration: REGISTER RSTREAM <http://example.org/out> is left out" in err


def test_window_variable_prints_as_a_union_over_the_windows(tmp_path):
    """``WINDOW ?w { P }`` over two windows on two streams: in C-SPARQL and CQELS-QL the union of
    ``{ GRAPH|STREAM si { P } VALUES ?w { <wi> } }``; ?w takes both window names in every version."""
    text = f"""PREFIX : <{EX}>
SELECT ?w ?x ?y
FROM NAMED WINDOW :w0 ON <{STREAMS[0]}> [RANGE PT2S STEP PT1S]
FROM NAMED WINDOW :w1 ON <{STREAMS[1]}> [RANGE PT2S STEP PT1S]
WHERE {{ WINDOW ?w {{ ?x :p ?y }} }}
"""
    files.clear()
    options = ["--unit", "s", "--mode", "pull", "--period", "1s", "--to", "3"]
    for i, stream in enumerate(STREAMS):
        (tmp_path / f"s{i}.nt").write_text(f'<{EX}a{i}> <{EX}p> <{EX}b> "{i}" .\n')
        options += ["--stream", f"{stream}={tmp_path / f's{i}.nt'}"]
    expected = run_text(tmp_path, "original.rq", text, "rspql", options)
    assert f'"w": "<{EX}w0>"' in expected and f'"w": "<{EX}w1>"' in expected
    query = parse(text, "rspql")
    for target in ("csparql", "cqels"):
        printed, _ = print_in_dialect(query, target)
        assert "VALUES (?w)" in printed
        assert run_text(tmp_path, f"printed.{target}", printed, target, options) == expected, printed


def test_merged_graph_counts_a_triple_once_when_printed(tmp_path):
    """C-SPARQL's default graph merges the windows and the static data into one set of triples: a
    triple in both windows and in the static data matches once. The RSP-QL and CQELS-QL prints
    give the same bag of answers at every time, and ?x is the solution once per distinct object."""
    text = f"""PREFIX : <{EX}>
REGISTER QUERY q AS
SELECT ?x
FROM STREAM <{STREAMS[0]}> [RANGE 2s STEP 1s]
FROM STREAM <{STREAMS[1]}> [RANGE 2s STEP 1s]
WHERE {{ ?x :p _:n . }}
"""
    options = ["--unit", "s", "--mode", "pull", "--period", "1s", "--to", "2"]
    triple = f"<{EX}a> <{EX}p> <{EX}b>"
    (tmp_path / "s0.nt").write_text(f'{triple} "1" .\n')
    (tmp_path / "s1.nt").write_text(f'{triple} "1" .\n<{EX}a> <{EX}p> <{EX}c> "1" .\n')
    (tmp_path / "static.nt").write_text(f"{triple} .\n")
    for i, stream in enumerate(STREAMS):
        options += ["--stream", f"{stream}={tmp_path / f's{i}.nt'}"]
    options += ["--static", str(tmp_path / "static.nt")]
    expected = answer_bags(run_text(tmp_path, "original.rq", text, "csparql", options))
    a = f'{{"x": "<{EX}a>"}}'
    assert [(t, dict(rows)) for t, rows in expected] == [(0, {a: 1}), (1, {a: 2}), (2, {a: 2})]
    query = parse(text, "csparql")
    for target in ("rspql", "cqels"):
        printed, _ = print_in_dialect(query, target)
        assert "SELECT DISTINCT" in printed
        assert answer_bags(run_text(tmp_path, f"printed.{target}", printed, target, options)) == expected, printed


def test_blank_node_label_shared_with_a_named_stream_graph_is_refused(tmp_path):
    """One label ``_:n`` in ``GRAPH <s1>`` (a named stream) and in the merged default graph is used
    in two basic graph patterns: refused where it is used again (SPARQL 1.1 §19.6)."""
    text = f"""PREFIX : <{EX}>
SELECT ?x
FROM NAMED STREAM <{STREAMS[0]}> [RANGE 2s STEP 1s]
FROM STREAM <{STREAMS[1]}> [RANGE 2s STEP 1s]
WHERE {{ GRAPH <{STREAMS[0]}> {{ ?x :q _:n }} ?x :p _:n }}
"""
    with pytest.raises(QuerySemanticError) as caught:
        parse(text, "csparql")
    assert (caught.value.line, caught.value.column) == (5, 59)  # the second _:n


def test_blank_node_label_of_the_merged_graph_is_one_variable(tmp_path):
    """C-SPARQL reads one label ``_:n`` of the merged default graph as one variable; the RSP-QL and
    CQELS-QL prints, which split the pattern per window, name it ``?bnode_n`` in each part."""
    text = f"""PREFIX : <{EX}>
SELECT ?x
FROM STREAM <{STREAMS[0]}> [RANGE 2s STEP 1s]
FROM STREAM <{STREAMS[1]}> [RANGE 2s STEP 1s]
WHERE {{ ?x :q _:n . ?x :p _:n }}
"""
    files.clear()
    (tmp_path / "s0.nt").write_text(f'<{EX}a> <{EX}q> <{EX}b> "0" .\n<{EX}c> <{EX}q> <{EX}d> "0" .\n')
    (tmp_path / "s1.nt").write_text(f'<{EX}a> <{EX}p> <{EX}b> "0" .\n<{EX}c> <{EX}p> <{EX}b> "0" .\n')
    options = ["--unit", "s", "--mode", "pull", "--period", "1s", "--to", "2",
               "--stream", f"{STREAMS[0]}={tmp_path / 's0.nt'}", "--stream", f"{STREAMS[1]}={tmp_path / 's1.nt'}"]
    expected = run_text(tmp_path, "original.rq", text, "csparql", options)
    assert f'"x": "<{EX}a>"' in expected and f"<{EX}c>" not in expected
    query = parse(text, "csparql")
    for target in ("rspql", "cqels"):
        printed, _ = print_in_dialect(query, target)
        assert "_:n" not in printed and printed.count("?bnode_n") >= 3
        assert run_text(tmp_path, f"printed.{target}", printed, target, options) == expected, printed


def test_rspql_prints_durations_in_iso_8601():
    """RSP-QL engines (RSP4J, the W3C RSP community group syntax) read ISO 8601 durations: a
    C-SPARQL ``[RANGE 30m STEP 90s]`` is printed ``[RANGE PT30M STEP PT1M30S]``, and back in C-SPARQL
    with units again."""
    query = parse("SELECT ?s FROM STREAM <http://ex.org/s> [RANGE 30m STEP 90s] WHERE { ?s ?p ?o }", "csparql")
    printed, _ = print_in_dialect(query, "rspql")
    assert "[RANGE PT30M STEP PT1M30S]" in printed
    back, _ = print_in_dialect(parse(printed, "rspql"), "csparql")
    assert "[RANGE 30m STEP 90s]" in back


@given(st.integers(min_value=1, max_value=10**12))
def test_iso_8601_text_reads_back_as_the_same_milliseconds(ms):
    from decimal import Decimal

    from translator.query.dialect_print import iso_8601
    from translator.query.model import Duration

    assert Duration.from_iso8601(iso_8601(Decimal(ms))).ms == ms


def test_window_variable_copies_get_their_own_blank_node_labels():
    """``WINDOW ?w { P }`` printed as a union of one copy of P per window: each copy is a basic graph
    pattern of its own, so its blank node labels differ from the other copies' (SPARQL 1.1 §19.6)."""
    text = f"""PREFIX : <{EX}>
REGISTER RSTREAM <{EX}out> AS
SELECT ?x
FROM NAMED WINDOW :w0 ON <{STREAMS[0]}> [RANGE PT2S STEP PT1S]
FROM NAMED WINDOW :w1 ON <{STREAMS[1]}> [RANGE PT2S STEP PT1S]
WHERE {{ WINDOW ?w {{ ?x :p _:n . _:n :q ?x }} }}
"""
    for target in ("csparql", "cqels"):
        printed, _ = print_in_dialect(parse(text, "rspql"), target)
        assert printed.count("_:n ") == 2 and printed.count("_:n_1 ") == 2, printed
        parse(printed, target)  # read back: no label in two basic graph patterns
