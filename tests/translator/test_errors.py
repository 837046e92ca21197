"""Malformed queries: exact positions and messages (tests/data/queries/malformed/*.rq)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lars.errors import SourceError, UnsupportedError
from translator.query.errors import unsupported
from translator.query.parse import parse

MALFORMED = sorted((Path(__file__).resolve().parents[1] / "data" / "queries" / "malformed").glob("*.rq"))
_EXPECT = re.compile(r"^# expect: (\w+) (\d+):(\d+) (.+)$")


def test_corpus_size():
    assert len(MALFORMED) >= 25


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_malformed_query(path):
    text = path.read_text()
    dialect, line, column, fragment = _EXPECT.match(text.splitlines()[0]).groups()
    with pytest.raises(SourceError) as info:
        parse(text, dialect, source=path.name)
    err = info.value
    assert (err.line, err.column) == (int(line), int(column))
    assert fragment in err.message
    rendered = str(err)
    # FILE:LINE:COLUMN: message, the line, a caret under the column, what was expected
    head, src, caret, *rest = rendered.splitlines()
    assert head.startswith(f"{path.name}:{line}:{column}: ")
    assert src == "  " + text.splitlines()[int(line) - 1].expandtabs(1)
    assert caret == "  " + " " * (int(column) - 1) + "^"
    assert rest and rest[0].startswith("expected: ")
    assert "Traceback" not in rendered and "Token(" not in rendered and "__ANON" not in rendered


def test_expected_in_plain_words():
    with pytest.raises(SourceError) as info:
        parse("SELECT ?x WHERE { ?x <http://p> }", "csparql")
    expected = info.value.expected
    assert expected.startswith("a variable, an IRI, a literal, a number")
    assert "'/'" in expected and "'+'" in expected
    assert not re.search(r"\b[A-Z]+_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b", expected)  # no raw terminal names


def test_unsupported_error_names_the_construct():
    err = unsupported("property path :p/:q", "LARS translation", detail="only plain predicates")
    assert isinstance(err, UnsupportedError)
    assert "property path :p/:q" in str(err) and "LARS translation" in str(err)


def test_property_paths_parse_into_named_path_nodes():
    from translator.query.model import Path as PathNode

    q = parse("PREFIX : <http://e/> SELECT * WHERE { ?x :p/:q+ ?y . ?y ^:r|:s ?z }", "csparql")
    t1, t2 = q.where.parts[0].triples
    assert t1.predicate.op == "seq" and t1.predicate.args[1] == PathNode("+", (t1.predicate.args[1].args[0],))
    assert t2.predicate.op == "alt" and t2.predicate.args[0].op == "inv"


def test_reject_property_paths_names_the_path():
    from translator.query.errors import reject_property_paths

    q = parse("PREFIX : <http://e/> SELECT * WHERE { ?x :a ?y . ?x :p/:q+ ?y }", "csparql")
    with pytest.raises(UnsupportedError) as info:
        reject_property_paths(q, "LARS translation")
    assert str(info.value).startswith("unsupported in LARS translation: property path :p/:q+")
    reject_property_paths(parse("SELECT * WHERE { ?x <http://p> ?y }", "csparql"), "LARS translation")


def test_expression_text_and_variables_round_trip():
    from translator.query.model import expression_variables
    from translator.query.printer import expression_text

    q = parse("PREFIX e: <http://e/> SELECT ?x WHERE { ?x e:p ?y FILTER (?y * 2 > e:f(?z, -1) || !BOUND(?x)) }", "csparql")
    expr = q.where.parts[1].expr
    assert [v.name for v in expression_variables(expr)] == ["y", "z", "x"]
    text = expression_text(expr, q)
    assert text == "?y * 2 > e:f(?z, -1) || !BOUND(?x)"
    again = parse(f"SELECT ?x WHERE {{ ?x <http://e/p> ?y FILTER ({expression_text(expr)}) }}", "csparql")
    assert again.where.parts[1].expr == expr
