"""lars.lalr: the LARS parser is built by Lark unless a caller installs its own builder (the command
line's cache of parse tables), and lars reads or writes no cache itself."""

from __future__ import annotations

from lark import Lark

from lars import lalr
from lars.syntax import _parser


def test_lark_builds_the_parser_unless_a_builder_is_installed(monkeypatch) -> None:
    monkeypatch.setattr(lalr, "_builder", None)
    build = _parser.__wrapped__  # the grammar itself, not the parser this process built already
    assert isinstance(build(), Lark)
    calls: list[tuple[str, str, dict]] = []

    def builder(package: str, grammar: str, **options) -> Lark:
        calls.append((package, grammar, options))
        return Lark.open_from_package(package, grammar, parser="lalr", **options)

    lalr.build_parsers_with(builder)
    tree = build().parse("a :- b.\n", start="start")
    assert tree.data == "start"
    assert [(package, grammar) for package, grammar, _ in calls] == [("lars", "grammars/lars.lark")]
    lalr.build_parsers_with(None)
    build()
    assert len(calls) == 1
