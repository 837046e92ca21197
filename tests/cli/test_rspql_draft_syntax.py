"""RSP-QL as the W3C RSP community group's drafts write it, beside RSP4J's syntax: ``REGISTER STREAM
<name> AS`` with the R2S operator after the form (``SELECT ISTREAM …``, ``CONSTRUCT ISTREAM { … }``),
``FROM NAMED WINDOW ON [STREAM] <s> [ω] AS <w>``, ``SLIDE`` for ``STEP``, ``FROM [NAMED] GRAPH <g>``,
``UNDER ENTAILMENT REGIME``. Each form is read as RSP-QL and gives the answers of the same query in
RSP4J's syntax (the oracle: the other text, run by the same command), byte for byte; printing is
canonical and a fixpoint; what rsplars does not evaluate fails by name and position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import cli
from translator.query import model as M
from translator.query.dialect import detect_dialect
from translator.query.errors import QuerySemanticError, QuerySyntaxError
from translator.query.parse import parse
from translator.query.printer import print_query

EX = "http://example.org/"
S1, S2 = EX + "lancelot", EX + "guinevere"
PRE = f"PREFIX : <{EX}>\n"

#: two rooms, people entering them; the second stream repeats some of the first's rooms
STREAM1 = "".join(f'<{EX}p{i}> <{EX}isIn> <{EX}room{i % 3}> "{i * 1000}" .\n' for i in range(20))
STREAM2 = "".join(f'<{EX}q{i}> <{EX}isIn> <{EX}room{i % 4}> "{i * 2000 + 1000}" .\n' for i in range(14))
STATIC = "".join(f"<{EX}room{i}> <{EX}floor> \"{i % 2}\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n"
                 for i in range(4))

DRAFT_CONSTRUCT = PRE + f"""REGISTER STREAM :metInRoom AS
CONSTRUCT ISTREAM {{ ?p :met ?q }}
FROM NAMED WINDOW ON STREAM <{S1}> [RANGE PT4S SLIDE PT2S] AS :l
FROM NAMED WINDOW ON <{S2}> [RANGE PT6S SLIDE PT2S] AS :g
FROM GRAPH <{EX}rooms>
WHERE {{ WINDOW :l {{ ?p :isIn ?room }} WINDOW :g {{ ?q :isIn ?room }} ?room :floor 1 }}
"""
RSP4J_CONSTRUCT = PRE + f"""REGISTER ISTREAM <{EX}metInRoom> AS
CONSTRUCT {{ ?p :met ?q }}
FROM NAMED WINDOW :l ON <{S1}> [RANGE PT4S STEP PT2S]
FROM NAMED WINDOW :g ON <{S2}> [RANGE PT6S STEP PT2S]
FROM <{EX}rooms>
WHERE {{ WINDOW :l {{ ?p :isIn ?room }} WINDOW :g {{ ?q :isIn ?room }} ?room :floor 1 }}
"""
DRAFT_SELECT = PRE + f"""SELECT DSTREAM ?room (COUNT(?p) AS ?n)
FROM NAMED WINDOW ON STREAM <{S1}> [RANGE PT5S SLIDE PT1S] AS :w
WHERE {{ WINDOW :w {{ ?p :isIn ?room }} }}
GROUP BY ?room
"""
RSP4J_SELECT = PRE + f"""REGISTER DSTREAM <{EX}out> AS
SELECT ?room (COUNT(?p) AS ?n)
FROM NAMED WINDOW :w ON <{S1}> [RANGE PT5S STEP PT1S]
WHERE {{ WINDOW :w {{ ?p :isIn ?room }} }}
GROUP BY ?room
"""


def inputs(tmp_path: Path, text: str) -> list[str]:
    """The command line's inputs of a query of this module: the streams it reads, the static rooms."""
    (tmp_path / "s1.nt").write_text(STREAM1)
    (tmp_path / "s2.nt").write_text(STREAM2)
    (tmp_path / "rooms.nt").write_text(STATIC)
    args = ["--stream", f"{S1}={tmp_path / 's1.nt'}", "--stream-time-unit", "ms", "--unit", "s"]
    if S2 in text:
        args += ["--stream", f"{S2}={tmp_path / 's2.nt'}", "--static", str(tmp_path / "rooms.nt")]
    return args


def run(capsys, tmp_path: Path, name: str, text: str, *options: str) -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(text)
    return cli(capsys, "run", path, *options)


@pytest.mark.parametrize(("draft", "rsp4j", "r2s"), [(DRAFT_CONSTRUCT, RSP4J_CONSTRUCT, "ISTREAM"),
                                                     (DRAFT_SELECT, RSP4J_SELECT, "DSTREAM")])
def test_a_draft_text_gives_the_answers_of_its_rsp4j_text(draft, rsp4j, r2s, tmp_path, capsys):
    code, draft_out, err = run(capsys, tmp_path, "draft.rq", draft, *inputs(tmp_path, draft))
    assert code == 0, err
    assert "dialect: rspql" in err
    code, rsp4j_out, err = run(capsys, tmp_path, "rsp4j.rq", rsp4j, *inputs(tmp_path, rsp4j))
    assert code == 0, err
    assert draft_out == rsp4j_out
    assert '"triples": ["' in draft_out or '"answers": [{' in draft_out  # some evaluation has answers
    assert parse(draft).registration.kind == r2s


def test_the_r2s_operator_after_the_form_is_the_querys_r2s(tmp_path, capsys):
    """``SELECT DSTREAM`` without REGISTER runs DStream; the same text with RSTREAM does not give
    the same answers (the operator is not ignored)."""
    code, dstream, err = run(capsys, tmp_path, "d.rq", DRAFT_SELECT, *inputs(tmp_path, DRAFT_SELECT))
    assert code == 0, err
    _, rstream, _ = run(capsys, tmp_path, "r.rq", DRAFT_SELECT.replace("DSTREAM", "RSTREAM"),
                        *inputs(tmp_path, DRAFT_SELECT))
    assert rstream and dstream != rstream


def test_draft_forms_are_read_into_the_rsp4j_model():
    draft, rsp4j = parse(DRAFT_CONSTRUCT), parse(RSP4J_CONSTRUCT)
    assert draft.dialect == rsp4j.dialect == "rspql"
    assert draft.registration == rsp4j.registration == M.Registration("ISTREAM", EX + "metInRoom")
    assert draft.dataset == rsp4j.dataset
    assert (draft.form, draft.where) == (rsp4j.form, rsp4j.where)


def test_a_draft_text_prints_as_rsp4j_and_printing_is_a_fixpoint():
    assert print_query(parse(DRAFT_CONSTRUCT)) == print_query(parse(RSP4J_CONSTRUCT))
    printed = print_query(parse(DRAFT_SELECT))
    assert "SELECT DSTREAM ?room" in printed and "REGISTER" not in printed  # no name is invented
    assert print_query(parse(printed)) == printed
    assert parse(printed) == parse(DRAFT_SELECT)


def test_register_stream_without_an_operator_is_rstream_and_keeps_computed_every():
    q = parse(PRE + f"""REGISTER STREAM :out COMPUTED EVERY PT2S AS
SELECT ?p FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S] WHERE {{ WINDOW :w {{ ?p :isIn ?r }} }}""")
    assert (q.dialect, q.registration.kind, q.registration.computed_every.ms) == ("rspql", "RSTREAM", 2000)
    assert print_query(parse(print_query(q))) == print_query(q)


@pytest.mark.parametrize("text", [DRAFT_CONSTRUCT, DRAFT_SELECT])
def test_draft_texts_are_detected_as_rspql(text):
    assert detect_dialect(text).dialect == "rspql"


def test_register_stream_alone_stays_csparql():
    text = PRE + "REGISTER STREAM out AS CONSTRUCT { ?s :p ?o } FROM STREAM <http://s> [RANGE 5s STEP 1s] WHERE { ?s :p ?o }"
    assert detect_dialect(text).dialect == "csparql"


def test_simple_entailment_is_accepted_and_any_other_regime_fails_by_name(tmp_path, capsys):
    body = (f" AS SELECT ?p FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S] "
            "WHERE { WINDOW :w { ?p :isIn ?r } }")
    simple = PRE + "REGISTER STREAM :q UNDER ENTAILMENT REGIME <http://www.w3.org/ns/entailment/Simple>" + body
    assert parse(simple).registration.kind == "RSTREAM"
    rif = PRE + "REGISTER STREAM :q\nUNDER ENTAILMENT REGIME <http://www.w3.org/ns/entailment/RIF>" + body
    code, out, err = run(capsys, tmp_path, "rif.rq", rif)
    assert code == 2 and out == ""
    assert "rif.rq:2:1" in err or "rif.rq:3:" in err or ":2:" in err
    assert "UNDER ENTAILMENT REGIME <http://www.w3.org/ns/entailment/RIF>" in err and "Traceback" not in err


@pytest.mark.parametrize(("text", "fragment", "line"), [
    (PRE + f"REGISTER ISTREAM <{EX}o> AS\nSELECT RSTREAM ?p FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S] "
           "WHERE { WINDOW :w { ?p :isIn ?r } }", "two R2S operators", 3),
    (PRE + f"SELECT ?p FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S]\n"
           "WHERE { WINDOW :w { { SELECT ISTREAM ?p WHERE { ?p :isIn ?r } } } }", "ISTREAM in a sub-query", 3),
])
def test_misplaced_r2s_operators_are_located_errors(text, fragment, line):
    with pytest.raises(QuerySemanticError) as err:
        parse(text, "rspql")
    assert fragment in str(err.value) and err.value.line == line


@pytest.mark.parametrize(("pattern", "what"), [("{ ?p :enters ?r } BEGIN AT ?t", "BEGIN AT"),
                                               ("{ ?p :near ?q } WITH DURATION ?d", "WITH DURATION")])
def test_draft_features_outside_rspql_fail_by_name_at_their_position(pattern, what, tmp_path, capsys):
    text = PRE + f"REGISTER STREAM :q AS\nCONSTRUCT ISTREAM {{ ?p :x ?r }}\n" \
                 f"FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S]\nWHERE {{ WINDOW :w {{\n  {pattern} }} }}\n"
    code, out, err = run(capsys, tmp_path, "q.rq", text)
    column = 3 + pattern.index(what.split()[0])
    assert code == 2 and out == "" and "Traceback" not in err
    assert f"q.rq:6:{column}: unsupported in RSP-QL: {what}" in err


def test_declared_windows_no_pattern_reads_get_a_note_naming_them(tmp_path, capsys):
    """RSP4J's own tests write triple patterns without WINDOW under declared windows (its engines
    match them over the windows' union); in RSP-QL they read the static default graph: said, not
    silently run."""
    text = PRE + f"REGISTER ISTREAM <{EX}o> AS SELECT *\nFROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S]\n" \
                 "WHERE { ?p :isIn ?r }\n"
    (note,) = parse(text).notes
    assert ":3:1: note: no WINDOW pattern reads the windows <http://example.org/w>" in note
    assert parse(text.replace("{ ?p :isIn ?r }", "{ WINDOW ?w { ?p :isIn ?r } }")).notes == ()
    code, _, err = run(capsys, tmp_path, "q.rq", text, *inputs(tmp_path, text), "--mode", "pull", "--period", "2s")
    assert code == 0, err
    assert "q.rq:3:1: note: no WINDOW pattern reads the windows" in err


def test_a_declared_window_no_pattern_reads_still_decides_when_the_query_is_evaluated(tmp_path, capsys):
    """ET comes from the strategies of the dataset's windows (Dell'Aglio et al. 2014, Def 23–24),
    read or not: the query runs without --period, at the times the same window gives when a
    pattern reads it (a FILTER EXISTS over a non-empty window keeps the static rows)."""
    declared = PRE + f"REGISTER RSTREAM :o AS SELECT ?r ?f\nFROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S]\n" \
                     "WHERE { ?r :floor ?f }\n"
    read = declared.replace("?r :floor ?f }", "?r :floor ?f FILTER EXISTS { WINDOW :w { ?p :isIn ?x } } }")
    args = [*inputs(tmp_path, declared), "--static", str(tmp_path / "rooms.nt")]
    code, out, err = run(capsys, tmp_path, "declared.rq", declared, *args)
    assert code == 0, err
    code, expected, err = run(capsys, tmp_path, "read.rq", read, *args)
    assert code == 0, err
    times = [json.loads(line)["t"] for line in out.splitlines()]
    assert out == expected and times == list(range(4, 23, 2))


def test_the_drafts_aggregate_clause_is_read_as_rspql_and_named():
    """The drafts' examples close a query with ``AGGREGATE { GROUP BY … }``: beside RSP-QL syntax it
    is RSP-QL (not a mix with C-SPARQL's AGGREGATE), and the error names the draft feature; alone it
    stays C-SPARQL's."""
    text = PRE + f"REGISTER STREAM :out AS\nSELECT ?room (COUNT(?p) AS ?n)\nFROM NAMED WINDOW :w ON <{S1}> " \
                 "[RANGE PT5S STEP PT1S]\nWHERE { WINDOW :w { ?p :isIn ?room } }\nAGGREGATE { GROUP BY ?room }\n"
    assert detect_dialect(text).dialect == "rspql"
    with pytest.raises(QuerySyntaxError) as err:
        parse(text)
    assert (err.value.line, err.value.column) == (6, 1)
    assert "unsupported in RSP-QL: an AGGREGATE { … } clause" in err.value.message
    assert detect_dialect(PRE + "REGISTER QUERY q AS SELECT ?x FROM STREAM <http://s> [RANGE 5s STEP 1s] "
                                "WHERE { ?x :p ?y } AGGREGATE { (?n, COUNT, {?x}) }").dialect == "csparql"


@pytest.mark.parametrize("unread_first", [True, False])
def test_a_declared_window_no_pattern_reads_leaves_the_read_windows_their_own_ranges(unread_first, tmp_path, capsys):
    """A declared window that no pattern reads (here on the second stream, a shorter range, the
    same STEP) changes no read window's range, whether it is declared before or after: from the
    read window's first close on, the answers are those of the query without it, and each pattern
    reads its own window in LARS."""
    read = f"FROM NAMED WINDOW :w ON <{S1}> [RANGE PT4S STEP PT2S]\n"
    unread = f"FROM NAMED WINDOW :v ON <{S2}> [RANGE PT2S STEP PT2S]\n"
    head = PRE + "REGISTER RSTREAM :o AS SELECT ?p ?x\n"
    where = "WHERE { WINDOW :w { ?p :isIn ?x } }\n"
    alone = head + read + where
    both = head + (unread + read if unread_first else read + unread) + where
    code, expected, err = run(capsys, tmp_path, "alone.rq", alone, *inputs(tmp_path, alone), "--profile", "rsp-ql")
    assert code == 0, err
    code, out, err = run(capsys, tmp_path, "both.rq", both, *inputs(tmp_path, both), "--profile", "rsp-ql")
    assert code == 0, err
    # the unread window's closes are evaluation times too (Def 23-24: at t = 2, and after the first
    # stream ends); from the read window's first close on, the same answers at the same times
    ours = {json.loads(line)["t"]: line for line in out.splitlines()}
    alone_lines = {json.loads(line)["t"]: line for line in expected.splitlines()}
    assert min(alone_lines) == 4 and len(alone_lines) > 5
    assert {t: line for t, line in ours.items() if 4 <= t <= max(alone_lines)} == alone_lines
    # the second stream lasts longer: its window still closes after the first stream has ended
    assert all(json.loads(line)["answers"] == [] for t, line in ours.items() if t > max(alone_lines))
    code, lars, err = cli(capsys, "translate", tmp_path / "both.rq", "--to", "lars", "--unit", "s", "--profile", "rsp-ql")
    assert code == 0, err
    reading = [line for line in lars.splitlines() if line.startswith("ans") and f'"<{S1}>"' in line]
    assert reading and all(") [3]" in line for line in reading), lars
