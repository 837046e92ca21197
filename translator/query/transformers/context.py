"""State shared by the transformer mixins: source text, prologue, lenient mode, notes."""

from __future__ import annotations

import re

from dataclasses import dataclass, field

from lark import Token, Transformer

from ..errors import QuerySemanticError
from ..model import DEFAULT_BARE_NAMESPACE, Position
from .blank_scope import BlankScopes

#: namespaces assumed for undeclared prefixes in lenient mode: the usual W3C ones and the two
#: prefixes that the C-SPARQL paper omits "for brevity" (Barbieri et al. 2010, §2.4)
WELL_KNOWN_PREFIXES: dict[str, str] = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "c": "http://linkedurbandata.org/city#",
    "t": "http://linkedurbandata.org/traffic#",
}
#: prefixes EP-SPARQL queries use without declaring them (the ETALIS manual writes xsd:duration)
EPSPARQL_WELL_KNOWN = ("rdf", "rdfs", "xsd", "owl")
#: namespace for any other undeclared prefix in lenient mode: PLACEHOLDER_NAMESPACE + prefix + "#"
PLACEHOLDER_NAMESPACE = "http://rsplars.invalid/undeclared-prefix/"


@dataclass
class ParseContext:
    text: str
    source: str = "<input>"
    dialect: str = "csparql"
    lenient: bool = False
    #: prefixes declared by the caller before the query text (like an rdflib initNs)
    predeclared: dict[str, str] = field(default_factory=dict)
    #: EP-SPARQL: the namespace of bare names (``hasStockPrice``) and of the undeclared prefix ``:``
    bare_ns: str = DEFAULT_BARE_NAMESPACE
    #: the base IRI before any BASE declaration (SPARQL 1.1 §4.1.1; None: relative IRIs stay relative)
    base: str | None = None


def position_of(item: object) -> Position | None:
    """Position of a Token or of a tree's meta (None if unknown)."""
    line = getattr(item, "line", None)
    column = getattr(item, "column", None)
    if line is None or column is None:
        return None
    return Position(line, column)


class ContextMixin(Transformer):
    """Base of the transformer mixins: the context, prologue state and error helper."""

    dialect = "csparql"

    def __init__(self, ctx: ParseContext) -> None:
        super().__init__(visit_tokens=True)
        self.ctx = ctx
        self.base: str | None = ctx.base
        self.prefixes: dict[str, str] = {}
        self.notes: list[str] = []
        #: lenient mode: undeclared prefixes and the namespaces assumed for them
        self.assumed_prefixes: dict[str, str] = {}
        self._anon = 0
        self._fresh_prefix = "anon"
        #: SPARQL 1.1 §19.6: the basic graph pattern each blank node label belongs to
        self.blank_scopes = BlankScopes()

    def __getattr__(self, name: str):
        """Rule aliases of imported grammars arrive namespaced (``sparql_core__iri_ref``); dispatch
        them to the un-namespaced method."""
        if "__" in name and not name.startswith("_"):
            return getattr(self, name.rsplit("__", 1)[1])
        raise AttributeError(name)

    def error(self, message: str, at: object, expected: str | None = None) -> QuerySemanticError:
        """The located error; ``at`` a Position, Token or tree meta, or a keyword whose first
        occurrence in the text is the position (for constructs the tree keeps no position of)."""
        pos = at if isinstance(at, Position) else self.keyword_position(at) if type(at) is str else position_of(at)
        return QuerySemanticError(
            message,
            source=self.ctx.source,
            line=pos.line if pos else None,
            column=pos.column if pos else None,
            text=self.ctx.text,
            expected=expected,
        )

    def keyword_position(self, keyword: str) -> Position | None:
        import re

        m = re.search(rf"(?i)\b{re.escape(keyword)}\b", self.ctx.text)
        if m is None:
            return None
        line = self.ctx.text.count("\n", 0, m.start()) + 1
        return Position(line, m.start() - (self.ctx.text.rfind("\n", 0, m.start()) + 1) + 1)

    def note(self, message: str, at: object) -> None:
        pos = position_of(at)
        text = f"{self.ctx.source}:{pos}: {message}" if pos else f"{self.ctx.source}: {message}"
        if text not in self.notes:
            self.notes.append(text)

    def fresh_blank_label(self) -> str:
        """A label for ``[]``, ``[ … ]`` or a collection's node that no ``_:label`` of the text is
        (SPARQL 1.1 §4.1.4: each such node is a blank node of its own): ``anon1``, ``anon2`` …,
        with as many ``_`` after ``anon`` as it takes to differ from every written label."""
        if self._anon == 0:
            written = set(re.findall(r"_:([^\s,;(){}\[\]]+)", self.ctx.text))
            self._fresh_prefix = "anon"
            while any(re.fullmatch(re.escape(self._fresh_prefix) + r"[0-9]+\.*", w) for w in written):
                self._fresh_prefix += "_"
        self._anon += 1
        return f"{self._fresh_prefix}{self._anon}"


def token_text(tok: Token | str) -> str:
    return str(tok)
