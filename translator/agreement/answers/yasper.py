"""YASPER's (RSP4J's) console output of SELECT results: a line ``[<wall clock>] Result at [<t>]``
(``SelectResponseSysOutFormatter`` of github.com/streamreasoning/rsp4j, ``yasper-jena``), then Jena's
``ResultSetFormatter.out`` text table: a ``---`` rule, ``| var | var |``, a ``===`` rule, one ``| term |``
line per row, a closing ``---`` rule. Terms as Jena prints them: ``<iri>``, ``_:b0``, ``"lex"``,
``"lex"@en``, ``"lex"^^<datatype>`` or ``^^xsd:name``, bare numbers and booleans; an empty cell is unbound."""

from __future__ import annotations

import re

from lars.errors import RsplarsError, SourceError
from translator.agreement.answers.relation import ActualRelation
from translator.agreement.answers.terms import Term, nt_key, term_key
from translator.rdf.bags import Bag

RESULT_AT = re.compile(r"Result at \[(-?\d+)\]")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
XSD = "http://www.w3.org/2001/XMLSchema#"


def looks_like_yasper(text: str) -> bool:
    return RESULT_AT.search(text[:4096]) is not None


def _term(cell: str) -> Term | None:
    if cell == "":
        return None
    if _NUMBER.fullmatch(cell):
        return term_key("literal", cell, XSD + ("integer" if cell.lstrip("+-").isdigit() else "double"))
    if cell in ("true", "false"):
        return term_key("literal", cell, XSD + "boolean")
    return nt_key(re.sub(r"\^\^xsd:(\w+)\Z", lambda m: f"^^<{XSD}{m.group(1)}>", cell))


def read_yasper(text: str, source: str, factor: tuple[int, int]) -> list[ActualRelation]:
    out: list[ActualRelation] = []
    stamp: tuple[int, str, int] | None = None  # (t, raw, line)
    header: list[str] | None = None
    rows: list = []
    in_body = False

    def close() -> None:
        if stamp is not None:
            out.append(ActualRelation(stamp[0], stamp[1], Bag(rows), stamp[2]))

    for n, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        m = RESULT_AT.search(s)
        if m:
            close()
            stamp, header, rows, in_body = (int(m.group(1)) * factor[0] // factor[1], m.group(1), n), None, [], False
            continue
        if not s or set(s) <= {"-"}:
            continue
        if set(s) <= {"="}:
            in_body = True
            continue
        if stamp is None or not s.startswith("|") or not s.endswith("|"):
            raise SourceError("neither a result header nor a table line", source=source, line=n,
                              column=len(line) - len(line.lstrip()) + 1, text=text,
                              expected="[…] Result at [t], then a table | var | … |")
        cells = [c.strip() for c in s[1:-1].split("|")]
        if not in_body:
            header = cells
            continue
        if header is None or len(cells) != len(header):
            raise SourceError(f"{len(cells)} cells, the header has {len(header or [])}", source=source, line=n,
                              column=1, text=text, expected="one cell per variable of the header")
        binding = []
        for name, cell in zip(header, cells):
            try:
                key = _term(cell)
            except (RsplarsError, ValueError) as exc:
                raise SourceError(f"not a term: {exc}", source=source, line=n, column=line.find(cell) + 1,
                                  text=text, expected='<iri>, "literal", "lex"^^xsd:type, a number or _:b') from None
            if key is not None:
                binding.append((name.lstrip("?"), key))
        rows.append(frozenset(binding))
    close()
    return out
