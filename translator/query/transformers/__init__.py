"""Lark parse trees → :mod:`translator.query.model` (one transformer class per dialect).

The classes are assembled from mixins split by concern: :mod:`.terms` (RDF terms, prefixes,
expressions), :mod:`.patterns` (triples, graph patterns, query forms, modifiers) and
:mod:`.streams` (durations, windows, C-SPARQL registration/aggregates, CQELS stream patterns,
EP-SPARQL event operators) and :mod:`.rspql` (RSP-QL named windows) and :mod:`.rsepql` (RSEP-QL event windows, events, MATCH). A transformer instance
holds the prologue seen so far, so it is created per parse (see :func:`translator.query.parse.parse`).
"""

from __future__ import annotations

from .context import ParseContext
from .patterns import PatternRules
from .rsepql import RsepqlRules
from .rspql import RspqlRules
from .streams import CqelsRules, CsparqlRules, EpsparqlRules
from .terms import TermRules


class CsparqlTransformer(CsparqlRules, PatternRules, TermRules):
    dialect = "csparql"


class CqelsTransformer(CqelsRules, PatternRules, TermRules):
    dialect = "cqels"


class EpsparqlTransformer(EpsparqlRules, PatternRules, TermRules):
    dialect = "epsparql"


class RspqlTransformer(RspqlRules, PatternRules, TermRules):
    dialect = "rspql"


class RsepqlTransformer(RsepqlRules, PatternRules, TermRules):
    dialect = "rsepql"


TRANSFORMERS = {
    "csparql": CsparqlTransformer,
    "cqels": CqelsTransformer,
    "epsparql": EpsparqlTransformer,
    "rspql": RspqlTransformer,
    "rsepql": RsepqlTransformer,
}

__all__ = ["ParseContext", "TRANSFORMERS", "CsparqlTransformer", "CqelsTransformer", "EpsparqlTransformer",
           "RspqlTransformer", "RsepqlTransformer"]
