"""RSP query texts (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL) → one query model → LARS programs.

``parse(text, dialect="auto")`` reads a query into :class:`translator.query.model.Query`.
"""

__all__ = ["parse"]


def parse(text: str, dialect: str = "auto", **options):
    """:func:`translator.query.parse.parse`, imported on first call: ``rsplars lars`` (and
    ``python -m translator``) do not load the query grammars at start-up."""
    from translator.query.parse import parse as parse_query

    return parse_query(text, dialect, **options)
