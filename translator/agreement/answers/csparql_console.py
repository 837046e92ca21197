"""The C-SPARQL engine's console output: what its ``ConsoleFormatter`` (github.com/streamreasoning/
CSPARQL-engine) and the many result observers written like it print for every evaluation — a line
``-------N results at SystemTime=[…]--------``, then one line per solution (``RDFTuple.toString``): the
terms of the projected variables in SELECT order, each followed by a tab. Terms as ``JenaEngine``
formats them: IRIs bare, literals ``"lex"^^datatype`` (older engines: ``lex^^datatype`` or the bare
lexical form), blank nodes as Jena's anonymous ids, an empty field for an unbound variable.

The lines name no variable: the columns are the query's projected variables, in order. The time in the
header is the wall clock when the observer ran (milliseconds, nanoseconds or a formatted date), not a
time of the stream, so the relations have no timestamp: they are compared in order, as the CSRBench
oracle compares outputs (``--ignore-timestamps``, Dell'Aglio et al. 2013, §6.1)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lars.errors import SourceError
from translator.agreement.answers.relation import ActualRelation
from translator.agreement.answers.terms import SESAME_LITERAL, Term, term_key
from translator.rdf.bags import Bag

HEADER = re.compile(r"-*\s*(\d+)\s+results? at SystemTime=\[([^\]]*)\]\s*-*")
#: Jena's label of a blank node (``AnonId``): hexadecimal parts separated by colons
_JENA_BNODE = re.compile(r"-?[0-9a-f]+(?::-?[0-9a-f]+)+")
_IRI = re.compile(r"[A-Za-z][\w+.-]*:[^\s\"<>]*")
_OLD_TYPED = re.compile(r"(?P<lex>.*)\^\^(?P<dt>[A-Za-z][\w+.-]*:[^\s\"<>]+)", re.DOTALL)
EXPECTED_LINE = 'one term per projected variable, each followed by a tab (<iri>, "lex"^^datatype or empty)'


def looks_like_csparql_console(text: str) -> bool:
    return any(HEADER.fullmatch(line.strip()) for line in text[:4096].splitlines())


def console_term(field: str) -> Term | None:
    """The comparison key of one field (module docstring); ``None`` for an unbound variable."""
    if field == "":
        return None
    if field.startswith('"'):
        whole = SESAME_LITERAL.fullmatch(field)
        if whole is None:
            raise ValueError(f"{field!r} is not a literal written \"lex\"^^datatype or \"lex\"@lang")
        return term_key("literal", whole["lex"], whole["dt"], whole["lang"])
    typed = _OLD_TYPED.fullmatch(field)
    if typed:
        return term_key("literal", typed["lex"], typed["dt"])
    if _JENA_BNODE.fullmatch(field) or field.startswith("_:"):
        return term_key("bnode", field)
    if _IRI.fullmatch(field):
        return term_key("uri", field)
    return term_key("literal", field)


def read_csparql_console(text: str, source: str, variables: Sequence[str] | None) -> list[ActualRelation]:
    """The relations of the output, one per header (module docstring); ``variables`` name the columns."""
    if not variables:
        raise SourceError("the C-SPARQL console output does not name its columns", source=source, line=1,
                          column=1, text=text, expected="the query whose SELECT names them, in order (check and "
                          "agree read it from QUERY)")
    out: list[ActualRelation] = []
    header: tuple[int, str, int] | None = None  # (announced rows, raw time, line)
    rows: list = []
    count = 0

    def close(at: int) -> None:
        if header is None:
            return
        if count != header[0]:
            raise SourceError(f"the header announces {header[0]} result(s), {count} line(s) follow it", source=source,
                              line=header[2], column=1, text=text,
                              expected=f"{header[0]} solution line(s) before the next header (line {at})")
        out.append(ActualRelation(None, header[1], Bag(rows), header[2]))

    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        m = HEADER.fullmatch(line.strip())
        if m:
            close(n)
            header, rows, count = (int(m.group(1)), m.group(2), n), [], 0
            continue
        if header is None:
            raise SourceError("a solution line before any result header", source=source, line=n, column=1, text=text,
                              expected="-------N results at SystemTime=[…]-------- before the solutions")
        fields = line.split("\t")
        if fields[-1] == "" and len(fields) > 1:  # the tab after the last term
            fields.pop()
        if len(fields) != len(variables):
            raise SourceError(f"{len(fields)} term(s), the query projects {len(variables)} ({', '.join(variables)})",
                              source=source, line=n, column=1, text=text, expected=EXPECTED_LINE)
        binding = []
        column = 1
        for name, field in zip(variables, fields):
            try:
                key = console_term(field)
            except ValueError as exc:
                raise SourceError(f"not a term: {exc}", source=source, line=n, column=column, text=text,
                                  expected=EXPECTED_LINE) from None
            if key is not None:
                binding.append((name, key))
            column += len(field) + 1
        rows.append(frozenset(binding))
        count += 1
    close(len(text.splitlines()) + 1)
    return out
