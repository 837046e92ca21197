"""RSP query texts (C-SPARQL, CQELS-QL, EP-SPARQL) → one query model → LARS programs.

``parse(text, dialect="auto")`` reads a query into :class:`translator.query.model.Query`.
"""

from translator.query.parse import parse

__all__ = ["parse"]
