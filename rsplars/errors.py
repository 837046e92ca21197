"""The errors of rsplars: every error a user can act on derives from :class:`RsplarsError`.

* :class:`SourceError` — an error at a position of a text the user gave (query, stream, answers,
  static data): ``source``, ``line``, ``column`` (from 1), the ``text``, and ``expected`` (what would
  have been accepted, in plain words); ``str(error)`` renders ``FILE:LINE:COLUMN: message`` with the
  line and a caret.
* :class:`QuerySyntaxError`, :class:`QuerySemanticError`, :class:`DialectMismatchError` — a query
  that does not parse, breaks a rule of its dialect, or is not written in the dialect asked for
  (all :class:`SourceError`).
* :class:`UnsupportedError` — a construct that parses but that a stage does not support (named,
  never a wrong answer): ``feature`` and ``stage``.
* :class:`RunError` — a run that cannot go on; :class:`AgreementError` — an agreement analysis
  that cannot be made; :class:`PolicyError` — a bad engine profile or report policy.

Any other exception is a bug of rsplars, never a user error.

>>> import rsplars
>>> try:
...     rsplars.parse("SELECT ?x WHERE { ?x ?p }", dialect="cqels")
... except rsplars.SourceError as error:
...     print(error.line, error.column)
1 25
"""

from __future__ import annotations

from lars.errors import RsplarsError, SourceError, UnsupportedError
from translator.agreement.errors import AgreementError
from translator.evaluate.report_policy import PolicyError
from translator.evaluate.run import RunError
from translator.query.errors import DialectMismatchError, QuerySemanticError, QuerySyntaxError

__all__ = [
    "AgreementError",
    "DialectMismatchError",
    "PolicyError",
    "QuerySemanticError",
    "QuerySyntaxError",
    "RsplarsError",
    "RunError",
    "SourceError",
    "UnsupportedError",
]
