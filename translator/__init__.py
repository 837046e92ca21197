"""RSP query texts (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL) → one query model → LARS programs.

``parse(text, dialect="auto")`` reads a query into :class:`translator.query.model.Query`.
"""

__all__ = ["parse"]


def __getattr__(name: str):
    # imported on first use: ``rsplars lars`` (and ``python -m translator``) must not pay for the
    # query grammars at start-up
    if name == "parse":
        from translator.query.parse import parse

        return parse
    raise AttributeError(name)
