"""``NOW()`` on a stream: the evaluation time t as an ``xsd:dateTime`` (SPARQL 1.1 §17.4.5.1: the
same value throughout one query execution; one execution of a continuous query is its evaluation
at one time point t, Dell'Aglio et al. 2014, Def 15).

Time points count base units from the run's epoch (decision D1, docs/decisions.md), so
NOW() = epoch + t · unit. :func:`bind_now` rewrites every ``NOW()`` of a query into
``NOW(epoch, unit in ms, ?T)``, where ``?T`` (:data:`NOW_TIME`) is the evaluation time; the
translation gives every rule whose expressions read ``?T`` the body literal ``⊞^0 @_T ⊤``
(:func:`with_evaluation_time`), which binds it to the time the rule is evaluated at, and the
expression evaluator computes the dateTime at grounding time (D6).
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from typing import Iterable

from lars.errors import SourceError
from lars.model import NOW, TRUE, BodyElement, Call, Comparison, Literal as LarsLiteral, Term, Variable, WindowAt
from translator.query import model as M

NOW_TIME = M.Var("rsplarsNowTime")
"""The evaluation time t, an extra argument of a bound ``NOW`` (a name no query is expected to use)."""

NOW_VARIABLE = Variable(f"V_{NOW_TIME.name}")
""":data:`NOW_TIME` as a LARS variable (``translator.translate.tau.lars_var`` of it)."""

XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"


def is_now(e: object) -> bool:
    return isinstance(e, M.FunctionCall) and e.name.upper() == "NOW"


def bound_now(epoch: datetime, unit_ms: int) -> M.FunctionCall:
    """``NOW(epoch, unit, ?T)``: NOW() of a run whose time 0 is ``epoch`` and whose base unit
    lasts ``unit_ms`` milliseconds."""
    lexical = epoch.isoformat().replace("+00:00", "Z")
    return M.FunctionCall("NOW", (M.Literal(lexical, XSD_DATETIME, None), M.Literal(str(unit_ms), XSD_INTEGER, None),
                                  NOW_TIME))


def bind_now(query: M.Query, epoch: datetime | None, unit_ms: int, text: str, source: str) -> M.Query:
    """The query with every ``NOW()`` bound to the run's clock (:func:`bound_now`); a query
    without NOW is returned as it is. Without an epoch, NOW() has no dateTime: a named error at
    the first NOW of ``text``."""
    if not _mentions_now(query):
        return query
    if epoch is None:
        line, column = _position_of_now(text)
        raise SourceError("NOW() is the evaluation time as an xsd:dateTime, which needs the run's epoch (time 0)",
                          source=source, line=line, column=column, text=text,
                          expected="--epoch DATETIME (e.g. --epoch 2018-01-01T01:00:00Z); NOW() is then epoch + t")
    return _replace(query, bound_now(epoch, unit_ms))


def bind_query_time(query: M.Query) -> M.Query:
    """The query with every ``NOW()`` bound to the present moment (UTC, in milliseconds): the query
    time of a query without streams, evaluated once at time 0 (§17.4.5.1: one value throughout the
    query's execution)."""
    from datetime import timezone

    moment = datetime.now(timezone.utc)
    return bind_now(query, moment.replace(microsecond=moment.microsecond // 1000 * 1000), 1, "", "")


def with_evaluation_time(body: Iterable[BodyElement]) -> tuple[BodyElement, ...]:
    """``body``, with ``⊞^0 @_T ⊤`` (T the evaluation time) when one of its expressions reads
    :data:`NOW_VARIABLE` (Beck et al. 2015: ``⊤`` holds at every time point, ``⊞^0`` keeps only t)."""
    body = tuple(body)
    if any(isinstance(e, Comparison) and (_reads_now(e.left) or _reads_now(e.right)) for e in body):
        return (*body, LarsLiteral(WindowAt(NOW, TRUE, NOW_VARIABLE)))
    return body


def _reads_now(term: Term) -> bool:
    return term == NOW_VARIABLE or (isinstance(term, Call) and any(_reads_now(a) for a in term.args))


def _mentions_now(node: object) -> bool:
    if is_now(node):
        return True
    if isinstance(node, tuple):
        return any(_mentions_now(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_mentions_now(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def _replace(node, now: M.FunctionCall):
    if is_now(node):
        return now
    if isinstance(node, tuple):
        items = tuple(_replace(x, now) for x in node)
        return items if any(a is not b for a, b in zip(items, node)) else node
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {}
        for f in dataclasses.fields(node):
            if f.init:
                value = getattr(node, f.name)
                new = _replace(value, now)
                if new is not value:
                    changes[f.name] = new
        return dataclasses.replace(node, **changes) if changes else node
    return node


def _position_of_now(text: str) -> tuple[int | None, int | None]:
    """(line, column) of the first ``NOW(`` of the query text outside comments, strings and IRIs."""
    for number, line in enumerate(text.splitlines(), 1):
        code = re.sub(r'"[^"]*"|<[^<>\s]*>|#.*$', lambda m: " " * len(m.group()), line)
        m = re.search(r"(?<![\w-])NOW\s*\(", code, flags=re.I)
        if m:
            return number, m.start() + 1
    return None, None
