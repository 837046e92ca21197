"""Blank node labels are scoped to one basic graph pattern: SPARQL 1.1 §19.6 ("the same blank
node label cannot be used in two different basic graph patterns in the same query"), §4.1.4.

A basic graph pattern is the run of triples blocks of one group that only FILTER, BIND and VALUES
separate (FILTERs apply to the whole group, §18.2.2.5; Oxigraph reads BIND and VALUES so too);
OPTIONAL, MINUS, UNION, GRAPH, a nested group, a sub-query or EXISTS start another one. The
labels are collected per triples block as the parser reads them (children before parents, left
to right), then checked per group."""

from __future__ import annotations

from typing import Callable

from lark import Token

from ..model import BGP, Bind, Filter, Values

_INSIDE_A_BGP = (Filter, Bind, Values)


class BlankScopes:
    """The ``_:label`` tokens of each triples block, and which basic graph pattern owns each label."""

    def __init__(self) -> None:
        self._pending: list[Token] = []
        self._by_block: dict[int, tuple[BGP, list[Token]]] = {}
        self._owner: dict[str, tuple[int, Token]] = {}
        self._units = 0

    def written(self, tok: Token) -> None:
        """A ``_:label`` as the parser reads it."""
        self._pending.append(tok)

    def block(self, bgp: BGP) -> None:
        """The labels read since the last triples block belong to ``bgp``."""
        if self._pending:
            self._by_block[id(bgp)] = (bgp, self._pending)
            self._pending = []

    def drop(self) -> None:
        """Labels outside any WHERE pattern (a CONSTRUCT template's) have no scope to check."""
        self._pending = []

    def claim(self, parts: tuple, error: Callable[..., Exception]) -> None:
        """The basic graph patterns of one group's ``parts`` each claim their labels; a label another
        one claimed is refused (``error(message, token, expected=…)``) at its later use."""
        unit: int | None = None
        for part in parts:
            if isinstance(part, BGP):
                if unit is None:
                    self._units += 1
                    unit = self._units
                for tok in self._by_block.get(id(part), (part, []))[1]:
                    label = str(tok)[2:]
                    owner, first = self._owner.setdefault(label, (unit, tok))
                    if owner != unit:
                        later = max(tok, first, key=lambda t: t.start_pos or 0)
                        raise error(
                            f"the blank node label _:{label} is used in two basic graph patterns (SPARQL 1.1 §19.6: "
                            "a label is local to one basic graph pattern; OPTIONAL, UNION, MINUS, GRAPH, a nested "
                            "group, a sub-query and EXISTS each start another)", later,
                            expected=f"a variable such as ?{label} to join the patterns, or another label")
            elif not isinstance(part, _INSIDE_A_BGP):
                unit = None
