"""RSP-QL as a dialect (W3C RSP community group syntax; semantics Dell'Aglio et al. 2014):
parsing of each construct, the errors with their line and column, dialect detection, printing
back, and the translation of named windows to LARS (Dao-Tran, Beck, Eiter 2015, §4.3, Table 1)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from lars.errors import UnsupportedError
from lars.model import Diamond, TimeWindow
from translator.query import model as M
from translator.query.dialect import detect_dialect
from translator.query.errors import DialectMismatchError, QuerySemanticError, QuerySyntaxError
from translator.query.parse import parse
from translator.query.printer import print_query
from translator.rdf.timeunits import TimeUnitError
from translator.translate.compile import compile_query
from translator.translate.normalize import TimeBase
from translator.translate.rspql import lower_windows

QUERIES = Path(__file__).resolve().parents[1] / "data" / "queries"

#: an RSP-QL query as RSP4J, YASPER and C-SPARQL 2.0 write RSP-QL
RSPQL_EXAMPLE = """PREFIX c: <http://example.org/c#>
REGISTER RSTREAM <s1> AS
SELECT (COUNT(?r) AS ?numRed)
FROM NAMED WINDOW <rw> ON <red> [RANGE PT15S STEP PT5S]
WHERE { WINDOW ?rw { ?r a c:Red . } }
"""

PRE = "PREFIX : <http://ex.org/>\n"


def rspql(body: str) -> M.Query:
    return parse(PRE + body, "rspql")


def windows_of(q: M.Query) -> dict[str, M.NamedWindow]:
    return {w.name.value: w for w in q.dataset.windows}


# ------------------------------------------------------------------------------------- parsing


def test_rspql_example_reads_as_rspql():
    q = parse(RSPQL_EXAMPLE)
    assert q.dialect == "rspql"
    assert q.registration == M.Registration("RSTREAM", "s1")
    (w,) = q.dataset.windows
    assert (w.name, w.stream, w.window.kind) == (M.IRI("rw"), M.IRI("red"), "range")
    assert (w.window.range.ms, w.window.step.ms) == (15_000, 5_000)
    (pattern,) = q.where.parts
    assert isinstance(pattern, M.WindowPattern) and pattern.name == M.Var("rw")
    assert pattern.position == M.Position(5, 9)


@pytest.mark.parametrize("kind", ["RSTREAM", "ISTREAM", "DSTREAM", "istream"])
def test_registration_names_the_r2s_operator(kind):
    q = parse(f"REGISTER {kind} <http://ex.org/out> AS\n{PRE}SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S] "
              "WHERE { WINDOW :w { ?x :p ?y } }", "rspql")
    assert q.registration.kind == kind.upper() and q.registration.name == "http://ex.org/out"


def test_without_register():
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S] WHERE { WINDOW :w { ?x :p ?y } }")
    assert q.registration is None and q.dialect == "rspql"


@pytest.mark.parametrize("form, cls", [("SELECT ?x", M.Select), ("CONSTRUCT { ?x :q ?y }", M.Construct),
                                       ("ASK", M.Ask)])
def test_result_forms(form, cls):
    q = rspql(f"{form} FROM NAMED WINDOW :w ON :s [RANGE PT1S] WHERE {{ WINDOW :w {{ ?x :p ?y }} }}")
    assert isinstance(q.form, cls)


@pytest.mark.parametrize(
    "window, kind, range_ms, step_ms, until_ms, rows",
    [
        ("[RANGE PT15S STEP PT5S]", "range", 15_000, 5_000, None, None),
        ("[RANGE PT15S]", "range", 15_000, None, None, None),
        ("[RANGE PT10S TUMBLING]", "tumbling", 10_000, None, None, None),
        ("[FROM NOW-PT15M TO NOW-PT5M STEP PT1M]", "interval", 900_000, 60_000, 300_000, None),
        ("[FROM NOW-PT15M TO NOW STEP PT1M]", "interval", 900_000, 60_000, None, None),
        ("[ROWS 5]", "rows", None, None, None, 5),
        ("[ELEMENTS 3]", "rows", None, None, None, 3),
        ("[RANGE 15s STEP 5s]", "range", 15_000, 5_000, None, None),
    ],
)
def test_window_kinds(window, kind, range_ms, step_ms, until_ms, rows):
    q = rspql(f"SELECT ?x FROM NAMED WINDOW :w ON :s {window} WHERE {{ WINDOW :w {{ ?x :p ?y }} }}")
    w = windows_of(q)["http://ex.org/w"].window
    assert w.kind == kind and w.rows == rows
    assert (w.range.ms if w.range else None) == range_ms
    assert (w.step.ms if w.step else None) == step_ms
    assert (w.until.ms if w.until else None) == until_ms


@pytest.mark.parametrize(
    "written, ms",
    [("PT15S", 15_000), ("PT1.5S", 1_500), ("PT5M", 300_000), ("P1D", 86_400_000), ("PT1H30M", 5_400_000),
     ("P1DT2H", 93_600_000), ("PT0.5M", 30_000), ("P2W", 1_209_600_000)],
)
def test_iso_8601_durations(written, ms):
    assert M.Duration.from_iso8601(written).ms == Decimal(ms)
    q = rspql(f"SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE {written}] WHERE {{ WINDOW :w {{ ?x :p ?y }} }}")
    assert windows_of(q)["http://ex.org/w"].window.range.ms == ms


@pytest.mark.parametrize(
    "window, range_ms, step_ms, until_ms",
    [("[RANGE 10000 STEP 2000]", 10_000, 2_000, None), ("[RANGE 10 STEP 2]", 10, 2, None),
     ("[RANGE 1500 TUMBLING]", 1_500, None, None), ("[RANGE 2.5 SLIDE 1]", Decimal("2.5"), 1, None),
     ("[FROM NOW-5000 TO NOW-1000 STEP 500]", 5_000, 500, 1_000)],
)
def test_numbers_without_a_unit_are_milliseconds_said_once(window, range_ms, step_ms, until_ms):
    """RSP-JS, RSP-RS and Janus write window durations as numbers of their timestamps' unit,
    milliseconds: read so, with one note located at the first such number."""
    text = PRE + f"SELECT ?x FROM NAMED WINDOW :w ON :s {window}\nWHERE {{ WINDOW :w {{ ?x :p ?y }} }}"
    q = parse(text, "rspql", source="q.rq")
    w = windows_of(q)["http://ex.org/w"].window
    assert (w.range.ms, w.step.ms if w.step else None, w.until.ms if w.until else None) == (range_ms, step_ms, until_ms)
    column = len("SELECT ?x FROM NAMED WINDOW :w ON :s ") + window.index(str(range_ms) if until_ms is None else "5000") + 1
    (note,) = q.notes
    assert note.startswith(f"q.rq:2:{column}: note: ") and "read as milliseconds" in note


def test_several_windows_on_one_stream():
    q = rspql("SELECT ?x FROM NAMED WINDOW :short ON :s [RANGE PT2S] FROM NAMED WINDOW :long ON :s [RANGE PT9S] "
              "WHERE { WINDOW :short { ?x :p ?y } WINDOW :long { ?x :q ?z } }")
    ws = windows_of(q)
    assert ws["http://ex.org/short"].stream == ws["http://ex.org/long"].stream == M.IRI("http://ex.org/s")
    assert len(M.stream_graph_patterns(q)) == 2


@pytest.mark.parametrize(
    "where",
    [
        "{ ?x :a ?k OPTIONAL { WINDOW :w { ?x :p ?y } } }",
        "{ { WINDOW :w { ?x :p ?y } } UNION { WINDOW ?v { ?x :q ?y } } }",
        "{ ?x :a ?k FILTER EXISTS { WINDOW :w { ?x :p ?y } } }",
        "{ ?x :a ?k FILTER NOT EXISTS { WINDOW ?v { ?x :p ?y } } }",
        "{ ?x :a ?k MINUS { WINDOW :w { ?x :p ?y } } }",
    ],
)
def test_window_patterns_stand_wherever_a_graph_pattern_may(where):
    q = rspql(f"SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S] WHERE {where}")
    lowered = lower_windows(q)
    text = repr(lowered.where)
    assert "WindowPattern" not in text and "StreamPattern" in text
    assert print_query(lowered, "cqels")  # a CQELS stream pattern everywhere the WINDOW stood


def test_static_graphs_with_graph():
    q = rspql("SELECT ?x FROM :static FROM NAMED :g FROM NAMED WINDOW :w ON :s [RANGE PT1S] "
              "WHERE { ?x :a ?k GRAPH :g { ?x :b ?k } WINDOW :w { ?x :p ?y } }")
    assert q.dataset.default == (M.IRI("http://ex.org/static"),)
    assert q.dataset.named == (M.IRI("http://ex.org/g"),)
    assert any(isinstance(p, M.GraphPattern) for p in q.where.parts)


@pytest.mark.parametrize("text", [
    RSPQL_EXAMPLE,
    PRE + "REGISTER ISTREAM <http://ex.org/o> AS CONSTRUCT { ?x :q ?y } FROM :g FROM NAMED WINDOW :a ON :s "
          "[FROM NOW-PT15M TO NOW-PT5M STEP PT1M] FROM NAMED WINDOW :b ON :s [ROWS 3] "
          "WHERE { WINDOW :a { ?x :p ?y OPTIONAL { ?x :r ?z } } FILTER NOT EXISTS { WINDOW ?w { ?y :p ?x } } }",
    PRE + "ASK FROM NAMED WINDOW :a ON :s [RANGE PT1H30M TUMBLING] WHERE { { WINDOW :a { ?x :p ?y } } UNION "
          "{ ?x :p ?y } }",
])
def test_printing_and_reading_back_gives_the_same_query(text):
    q = parse(text, "rspql")
    printed = print_query(q)
    assert parse(printed, "rspql") == q
    assert detect_dialect(printed).dialect == "rspql"


# -------------------------------------------------------------------------------------- errors


def located(text: str, error=QuerySyntaxError, dialect: str = "rspql"):
    with pytest.raises(error) as info:
        parse(text, dialect, source="q.rq")
    return info.value


@pytest.mark.parametrize(
    "body, line, column, fragment",
    [
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S]\nWHERE { WINDOW :v { ?x :p ?y } }", 3, 9,
         "WINDOW <http://ex.org/v> names no declared window"),
        ("SELECT ?x\nWHERE { WINDOW ?w { ?x :p ?y } }", 3, 9, "the query declares none"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S]\nFROM NAMED WINDOW :w ON :t [RANGE PT2S]\n"
         "WHERE { WINDOW :w { ?x :p ?y } }", 3, 1, "declared twice"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE P1Y]\nWHERE { WINDOW :w { ?x :p ?y } }", 2, 45,
         "years or months"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [FROM NOW-PT5M TO NOW-PT15M]\nWHERE { WINDOW :w { ?x :p ?y } }",
         2, 39, "no later than it starts"),
    ],
)
def test_semantic_errors_are_located(body, line, column, fragment):
    err = located(PRE + body, QuerySemanticError)
    assert fragment in err.message and (err.line, err.column) == (line, column)
    assert str(err).startswith(f"q.rq:{line}:{column}:")


@pytest.mark.parametrize(
    "body, line, column, fragment",
    [
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S TRIPLES PT1S]\nWHERE { WINDOW :w { ?x :p ?y } }", 2, 50,
         "unexpected 'TRIPLES'"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE 15 parsecs]\nWHERE { WINDOW :w { ?x :p ?y } }", 2, 48,
         "unexpected 'parsecs'"),
        ("SELECT AVG(?y) as ?a FROM NAMED WINDOW :w ON :s [RANGE 15s]\nWHERE { WINDOW :w { ?x :p ?y } }", 2, 8,
         "an aggregate in the projection stands in parentheses with its name: (AVG(…) AS ?name)"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE fifteen]\nWHERE { WINDOW :w { ?x :p ?y } }", 2, 45,
         "ISO 8601"),
        ("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S\nWHERE { WINDOW :w { ?x :p ?y } }", 3, 1,
         "not closed with ']'"),
        ("REGISTER FOO <q> AS SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S]\nWHERE { WINDOW :w { ?x :p ?y } }",
         2, 10, "RSTREAM, ISTREAM or DSTREAM"),
    ],
)
def test_syntax_errors_name_rspql_at_their_position(body, line, column, fragment):
    err = located(PRE + body)
    text = f"{err.message} {err.expected}"
    assert fragment in text and (err.line, err.column) == (line, column), (err.line, err.column, text)


def test_unknown_rspql_syntax_error_names_the_dialect():
    err = located(PRE + "SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S]\nWHERE { WINDOW :w { ?x :p ?y } } }")
    assert "(RSP-QL syntax)" in err.message and (err.line, err.column) == (3, 34)


def test_fraction_of_the_base_unit_is_a_d1_error():
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1.5S] WHERE { WINDOW :w { ?x :p ?y } }")
    with pytest.raises(TimeUnitError, match="PT1.5S"):
        compile_query(q, base=TimeBase("s"))
    assert compile_query(q, base=TimeBase("ms")).program  # 1500 ms


def test_window_pattern_inside_window_pattern_fails_by_name():
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT1S] WHERE { WINDOW :w { ?x :p ?y WINDOW :w { ?y :p ?x } } }")
    with pytest.raises(UnsupportedError, match="a WINDOW pattern inside a WINDOW pattern"):
        compile_query(q)


def test_window_ending_more_than_a_tick_before_now_fails_by_name():
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [FROM NOW-PT15S TO NOW-PT5S STEP PT1S] "
              "WHERE { WINDOW :w { ?x :p ?y } }")
    with pytest.raises(UnsupportedError, match="u ≥ −1"):
        compile_query(q, base=TimeBase("s"))
    # in minutes the same window ends at now: [t-15 s, t-5 s] is not a whole number of minutes, a D1 error
    with pytest.raises(TimeUnitError):
        compile_query(q, base=TimeBase("m"))


# ------------------------------------------------------------------------------------ detection


@pytest.mark.parametrize(
    "text, reason",
    [
        (RSPQL_EXAMPLE, "REGISTER RSTREAM at 2:1"),
        ("SELECT ?x FROM NAMED WINDOW <w> ON <s> [RANGE PT1S] WHERE { ?x ?p ?o }", "FROM NAMED WINDOW at 1:11"),
        ("SELECT ?x WHERE {\n  WINDOW ?w { ?x ?p ?o } }", "WINDOW graph pattern at 2:3"),
        ("SELECT ?x WHERE { WINDOW <w> { ?x ?p ?o } }", "WINDOW graph pattern at 1:19"),
        ("REGISTER DSTREAM <o> AS ASK WHERE { ?x ?p ?o }", "REGISTER DSTREAM at 1:1"),
    ],
)
def test_rspql_is_detected(text, reason):
    d = detect_dialect(text)
    assert d.dialect == "rspql" and reason in d.reason


def test_the_rspql_example_was_never_ep_sparql():
    d = detect_dialect(RSPQL_EXAMPLE)
    assert d.dialect != "epsparql" and "bare name" not in d.reason


@pytest.mark.parametrize("path", sorted((QUERIES / "epsparql").glob("*.rq")), ids=lambda p: p.stem)
def test_ep_sparql_queries_are_still_ep_sparql(path):
    assert detect_dialect(path.read_text()).dialect == "epsparql"


@pytest.mark.parametrize("path", sorted((QUERIES / "csparql").glob("*.txt")) + sorted((QUERIES / "cqels").glob("*.txt")),
                         ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_citybench_queries_keep_their_dialect(path):
    assert detect_dialect(path.read_text()).dialect == path.parent.name


def test_forced_rspql_with_csparql_streams_explains_the_dialects():
    with pytest.raises(DialectMismatchError, match="this looks like C-SPARQL: FROM STREAM at 3:1; RSP-QL declares"):
        parse(PRE + "SELECT ?x\nFROM STREAM :s [RANGE PT1S]\nWHERE { ?x :p ?y }", "rspql")


def test_rspql_mixed_with_csparql_is_a_mismatch():
    with pytest.raises(DialectMismatchError, match="RSP-QL"):
        detect_dialect("SELECT ?x FROM STREAM <s> [RANGE 1s]\nFROM NAMED WINDOW <w> ON <s> [RANGE PT1S] WHERE { ?x ?p ?o }")


def test_forcing_another_dialect_explains_rspql():
    with pytest.raises(DialectMismatchError, match="this looks like RSP-QL: REGISTER RSTREAM"):
        parse(RSPQL_EXAMPLE, "csparql")


# ---------------------------------------------------------------------------------- translation


def test_window_pattern_is_its_windows_lars_operator_over_its_stream():
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [RANGE PT15S STEP PT5S] WHERE { WINDOW :w { ?x :p ?y } }")
    c = compile_query(q, base=TimeBase("s"))
    assert (c.strategy, c.mode, c.period) == ("tau2", "pull", 5)
    diamonds = [lit.atom for r in c.program.rules for lit in r.body if isinstance(getattr(lit, "atom", None), Diamond)]
    (d,) = [x for x in diamonds if x.atom.predicate == "striple"]
    assert d.window == TimeWindow(15, 0, 5)
    assert d.atom.args[-1].value == "<http://ex.org/s>"


@pytest.mark.parametrize("bounds, window", [("closed", TimeWindow(15, -1, 1)), ("left-open", TimeWindow(14, -1, 1)),
                                            ("right-open", None)])
def test_interval_window_is_a_lars_window_ending_before_now(bounds, window):
    q = rspql("SELECT ?x FROM NAMED WINDOW :w ON :s [FROM NOW-PT15S TO NOW-PT1S STEP PT1S] WHERE { WINDOW :w { ?x :p ?y } }")
    if window is None:  # [t-15, t-1) ends two ticks before now
        with pytest.raises(UnsupportedError, match="ending 1 ticks before now"):
            compile_query(q, bounds=bounds)
        return
    c = compile_query(q, bounds=bounds)
    (d,) = [lit.atom for r in c.program.rules for lit in r.body
            if isinstance(getattr(lit, "atom", None), Diamond) and lit.atom.atom.predicate == "striple"]
    assert d.window == window


def test_window_variable_is_the_union_over_the_named_windows():
    q = rspql("SELECT ?x ?w FROM NAMED WINDOW :a ON :s [RANGE PT2S] FROM NAMED WINDOW :b ON :t [RANGE PT5S] "
              "WHERE { WINDOW ?w { ?x :p ?y } }")
    lowered = lower_windows(q)
    (union,) = lowered.where.parts
    assert isinstance(union, M.Union_)
    branches = [union.left, union.right]
    assert [b.parts[0].stream.value for b in branches] == ["http://ex.org/s", "http://ex.org/t"]
    assert [b.parts[1] for b in branches] == [M.Values((M.Var("w"),), ((M.IRI("http://ex.org/a"),),)),
                                              M.Values((M.Var("w"),), ((M.IRI("http://ex.org/b"),),))]
    assert lowered.dataset.windows == ()


def test_other_dialects_are_not_lowered():
    q = parse("SELECT ?x WHERE { STREAM <s> [RANGE 1s] { ?x ?p ?o } }", "cqels")
    assert lower_windows(q) is q
