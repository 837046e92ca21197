"""The grammars' letter classes from U+00C0 (PN_CHARS_BASE, SPARQL 1.1 §19.8) are written in a form
Python's ``re`` compiles fast (translator/query/grammars/sparql_core.lark); it must admit exactly
the characters of the plain range ``[\\u00C0-\\uFFFF]`` it replaces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GRAMMARS = Path(__file__).resolve().parents[2] / "translator" / "query" / "grammars"
FAST = r"(?![\x00-\xBF])[^\U00010000-\U0010FFFF]"


def test_no_grammar_keeps_the_slow_range() -> None:
    for path in GRAMMARS.glob("*.lark"):
        text = path.read_text(encoding="utf-8")
        rules = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
        assert not any("\\u00C0-\\uFFFF" in line for line in rules), path.name


@pytest.mark.parametrize("extra", ["", r"\w\u00B7", r"\w.\-:\u00B7", "A-Za-z"])
def test_fast_form_admits_the_same_characters(extra: str) -> None:
    plain = re.compile(f"[{extra}\u00C0-\uFFFF]")
    fast = re.compile(f"(?:[{extra}]|{FAST})" if extra else FAST)
    samples = [*range(0, 0x3000), *range(0xD700, 0x10100), 0x1F600, 0xEFFFF, 0x10FFFF]
    for code in samples:
        ch = chr(code)
        assert bool(plain.fullmatch(ch)) == bool(fast.fullmatch(ch)), hex(code)


def test_the_grammars_read_non_ascii_names() -> None:
    from translator.query.parse import parse

    q = parse("PREFIX é: <http://e/>\nSELECT ?vé ?x WHERE { ?vé <http://a> é:ü . _:bé <http://b> ?x }", "csparql")
    from translator.query import model as M

    assert q.form.projection == (M.Var("vé"), M.Var("x"))
    first, second = q.where.parts[0].triples
    assert first.object == M.IRI("http://e/ü")
    assert second.subject == M.BlankNode("bé")
