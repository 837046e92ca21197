"""Errors of the query front end (parse → model).

All derive from :mod:`lars.errors` so that the CLI prints them without a traceback (exit code 2):

* :class:`QuerySyntaxError` — the text does not parse (``FILE:LINE:COLUMN: message``, the line, a
  caret, ``expected: …`` in plain words);
* :class:`QuerySemanticError` — it parses but is not a valid query of the dialect (undeclared
  prefix, a dialect's function used in another dialect, …), also at a position;
* :class:`DialectMismatchError` — ``--dialect`` forced one dialect but the text is written in another;
* :class:`lars.errors.UnsupportedError` — a construct that parses but that a stage does not
  support; see :func:`unsupported`.
"""

from __future__ import annotations

from lars.errors import RsplarsError, SourceError, UnsupportedError

__all__ = [
    "RsplarsError",
    "SourceError",
    "UnsupportedError",
    "QuerySyntaxError",
    "QuerySemanticError",
    "DialectMismatchError",
    "unsupported",
]


class QuerySyntaxError(SourceError):
    """The query text does not match the dialect's grammar."""


class QuerySemanticError(SourceError):
    """The query parses but breaks a rule of its dialect (e.g. an undeclared prefix)."""


class DialectMismatchError(SourceError):
    """A forced dialect does not match the syntax of the query."""


def unsupported(feature: str, stage: str, position: object | None = None, detail: str = "") -> UnsupportedError:
    """Build the named error for a construct that ``stage`` does not support.

    ``feature`` names the construct as a user would write it (e.g. ``"property path :p/:q"``);
    ``position`` (a :class:`translator.query.model.Position`) is added to the detail when known.
    """
    where = f"at {position}" if position is not None else ""
    return UnsupportedError(feature, stage, ", ".join(x for x in (where, detail) if x))


def reject_property_paths(query, stage: str) -> None:
    """Raise the named :class:`UnsupportedError` for the first SPARQL 1.1 property path in
    ``query`` (paths parse into :class:`translator.query.model.Path`; stages that only handle plain
    predicates call this). The message shows the path as written, e.g.
    ``unsupported in LARS translation: property path :p/:q+``."""
    from .model import BGP, Path, walk_patterns
    from .printer import PRINTERS

    for node in walk_patterns(query.where):
        if isinstance(node, BGP):
            for t in node.triples:
                if isinstance(t.predicate, Path):
                    text = PRINTERS[query.dialect](query).path(t.predicate)
                    raise unsupported(f"property path {text}", stage, detail="only IRIs and variables as predicates")
