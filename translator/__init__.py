"""RSP query texts (C-SPARQL, CQELS-QL, EP-SPARQL) → one query model → LARS programs.

``parse(text, dialect="auto")`` reads a query into :class:`translator.model.Query`.
"""

from translator.parse import parse

__all__ = ["parse"]
