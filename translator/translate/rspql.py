"""RSP-QL named windows as stream graph patterns (Dell'Aglio et al. 2014, Def 14; Dao-Tran, Beck,
Eiter 2015, §4.3 τ2).

An RSP-QL query declares its windows in the dataset, ``FROM NAMED WINDOW <w> ON <s> [ω]``: each is
its own window operator over the stream s, and its content is the named graph w of the RSP-QL
dataset (Def 14). A pattern ``WINDOW <w> { P }`` matches P in that content — the reading of a CQELS
stream graph pattern ``(STREAM s ω P)``, which τ2 translates with the window ω of w in front of
every triple pattern of P (Table 1 for ω). ``WINDOW ?w { P }`` ranges ?w over the named windows as
``GRAPH ?g`` ranges over the named graphs (SPARQL 1.1 §18.6): the union over the declared windows
wi of ``{ (STREAM si ωi P) VALUES ?w { <wi> } }``.

:func:`lower_windows` rewrites the query so (everywhere a pattern stands: OPTIONAL, UNION, MINUS,
nested groups, and the groups of EXISTS / NOT EXISTS in FILTER and BIND); τ2 and the execution
modes then apply unchanged. Two windows on one stream are two stream graph patterns with their own
windows over the same stream.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from functools import reduce

from lars.errors import UnsupportedError
from translator.query import model as M

STAGE = "translation to LARS"


def lower_windows(query: M.Query) -> M.Query:
    """The query with every ``WINDOW`` pattern replaced by stream graph patterns over the named
    windows (module docstring); the named windows read by a WINDOW pattern leave the dataset (they
    are now in S as stream graph patterns). A declared window that no WINDOW pattern reads stays:
    it matches no triple pattern, but its window operator still decides when the query is evaluated
    (the evaluation time instants ET of ``Q = (SE, SDS, ET, QF)`` come from the strategies of the
    dataset's windows, Dell'Aglio et al. 2014, Def 23 and Def 24). Other dialects' queries are returned as they are."""
    if query.dialect != "rspql" or not (query.dataset.windows or _has_window_pattern(query.where)):
        return query
    windows = {w.name.value: w for w in query.dataset.windows}
    where = _rewrite(query.where, windows, inside=None)
    read = _read_windows(query.where, windows)
    unread = tuple(w for w in query.dataset.windows if w.name.value not in read)
    return replace(query, where=where, dataset=replace(query.dataset, windows=unread))


def _read_windows(node, windows: dict[str, M.NamedWindow]) -> set[str]:
    """The names of the declared windows some WINDOW pattern reads (``WINDOW ?w`` reads them all)."""
    if isinstance(node, M.WindowPattern):
        return set(windows) if isinstance(node.name, M.Var) else {node.name.value}
    out: set[str] = set()
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            for v in value if isinstance(value, tuple) else (value,):
                out |= _read_windows(v, windows)
    return out


def _has_window_pattern(node) -> bool:
    if isinstance(node, M.WindowPattern):
        return True
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            for v in value if isinstance(value, tuple) else (value,):
                if _has_window_pattern(v):
                    return True
    return False


def _rewrite(node, windows: dict[str, M.NamedWindow], inside: M.WindowPattern | None):
    """``node`` with its WINDOW patterns lowered; ``inside`` is the WINDOW pattern being lowered
    (a WINDOW or GRAPH pattern inside it is a named error, as STREAM inside STREAM)."""
    if isinstance(node, M.WindowPattern):
        if inside is not None:
            raise UnsupportedError("a WINDOW pattern inside a WINDOW pattern", STAGE,
                                   _at(node) + "a window pattern's triples are matched in its window only")
        body = _rewrite(node.pattern, windows, node)
        return _window_union(node, body, windows)
    if isinstance(node, M.GraphPattern) and inside is not None:
        raise UnsupportedError("a GRAPH pattern inside a WINDOW pattern", STAGE,
                               _at(inside) + "a window pattern's triples are matched in its window only")
    if isinstance(node, (M.IRI, M.Literal, M.BlankNode, M.Var, M.Window, M.Duration, M.Position)):
        return node
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {}
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, tuple):
                new = tuple(_rewrite(v, windows, inside) for v in value)
            elif dataclasses.is_dataclass(value):
                new = _rewrite(value, windows, inside)
            else:
                continue
            changes[f.name] = new
        return replace(node, **changes) if changes else node
    return node


def _window_union(node: M.WindowPattern, body: M.Group, windows: dict[str, M.NamedWindow]) -> M.Pattern:
    if isinstance(node.name, M.IRI):
        w = windows[node.name.value]  # declared: checked when the query was read
        return M.StreamPattern(w.stream, w.window, body, node.position)
    if not windows:
        raise UnsupportedError(f"WINDOW ?{node.name.name} without named windows", STAGE,
                               _at(node) + "declare them with FROM NAMED WINDOW <w> ON <s> [RANGE …]")
    branches: list[M.Pattern] = [
        M.Group((M.StreamPattern(w.stream, w.window, body, node.position),
                 M.Values((node.name,), ((w.name,),))))
        for w in windows.values()
    ]
    if len(branches) == 1:
        return branches[0]
    return reduce(lambda left, right: M.Union_(left, right), branches)


def _at(node: M.WindowPattern) -> str:
    return f"at {node.position}: " if node.position else ""


__all__ = ["lower_windows"]
