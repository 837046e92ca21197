"""The query model as JSON (``rsplars translate QUERY --to model``); schema in docs/model-json.md.

Top-level keys are fixed (``schema``, ``dialect``, ``form``, ``variables``, ``projection``,
``modifier``, ``template``, ``prologue``, ``dataset``, ``registration``, ``pattern``, ``streams``,
``aggregates``, ``modifiers``, ``notes``); pattern and expression nodes are objects with a ``type``
and one key per model field (see :data:`NODE_TYPES`).
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from .model import (
    BGP,
    IRI,
    Aggregate,
    AggregateClause,
    Ask,
    BinaryOp,
    Bind,
    BlankNode,
    Construct,
    Describe,
    Duration,
    EventPattern,
    EventRef,
    EventSelect,
    MatchPattern,
    Within,
    Exists,
    Filter,
    FunctionCall,
    GraphPattern,
    Group,
    GroupCondition,
    In,
    IRICall,
    Literal,
    Minus,
    Modifiers,
    Optional_,
    OrderCondition,
    Path,
    Position,
    Projection,
    Query,
    Select,
    StreamPattern,
    SubSelect,
    TriplePattern,
    UnaryOp,
    Union_,
    Values,
    Var,
    Window,
    WindowPattern,
    result_variables,
    stream_graph_patterns,
)

SCHEMA = "rsplars.query-model/1"

#: model class → JSON ``type`` of pattern and expression nodes
NODE_TYPES: dict[type, str] = {
    Group: "group",
    BGP: "bgp",
    Union_: "union",
    Optional_: "optional",
    Minus: "minus",
    Filter: "filter",
    GraphPattern: "graph",
    Bind: "bind",
    Values: "values",
    StreamPattern: "stream",
    WindowPattern: "window",
    EventPattern: "event",
    MatchPattern: "match",
    EventRef: "event_ref",
    EventSelect: "event_select",
    Within: "within",
    SubSelect: "subselect",
    TriplePattern: "triple",
    Path: "path",
    BinaryOp: "binary",
    UnaryOp: "unary",
    In: "in",
    FunctionCall: "call",
    IRICall: "iri_call",
    Aggregate: "aggregate",
    Exists: "exists",
    Projection: "projection",
    OrderCondition: "order",
    GroupCondition: "group_condition",
    Select: "select",
    Modifiers: "modifiers",
}


def number(value: Decimal | None) -> int | float | None:
    """A Decimal as a JSON number (an int when integral)."""
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def term_json(term: Any) -> Any:
    match term:
        case IRI(value):
            return {"type": "iri", "value": value}
        case Literal(lexical, datatype, lang):
            return {"type": "literal", "value": lexical, "datatype": datatype, "lang": lang}
        case BlankNode(label):
            return {"type": "bnode", "label": label}
        case Var(name):
            return {"type": "var", "name": name}
    raise TypeError(term)


def duration_json(d: Duration | None) -> dict | None:
    if d is None:
        return None
    value = d.lexical if d.unit == "xsd:duration" else number(d.value)
    return {"value": value, "unit": d.unit, "ms": number(d.ms)}


def window_json(w: Window) -> dict:
    """``kind``, ``range``/``step`` as written (value and ``unit``/``step_unit``), ``rows``,
    ``range_ms``/``step_ms``, and for RSP-QL's ``[FROM NOW-a TO NOW-b]`` (kind ``interval``) ``until``
    / ``until_ms`` (b; ``range`` is a)."""
    rng, step = w.range, w.step
    out = {
        "kind": w.kind,
        "range": None if rng is None else (rng.lexical if rng.unit == "xsd:duration" else number(rng.value)),
        "unit": None if rng is None else rng.unit,
        "step": None if step is None else (step.lexical if step.unit == "xsd:duration" else number(step.value)),
        "step_unit": None if step is None else step.unit,
        "rows": w.rows,
        "range_ms": None if rng is None else number(rng.ms),
        "step_ms": None if step is None else number(step.ms),
    }
    if w.kind == "interval":
        until = w.until
        out["until"] = None if until is None else (until.lexical if until.unit == "xsd:duration" else number(until.value))
        out["until_ms"] = 0 if until is None else number(until.ms)
    return out


def position_json(p: Position | None) -> dict | None:
    return None if p is None else {"line": p.line, "column": p.column}


def node_json(node: Any) -> Any:
    """Pattern/expression node → JSON (generic over the dataclass fields)."""
    if isinstance(node, (IRI, Literal, BlankNode, Var)):
        return term_json(node)
    if isinstance(node, Window):
        return window_json(node)
    if isinstance(node, Duration):
        return duration_json(node)
    if isinstance(node, tuple):
        return [node_json(x) for x in node]
    if node is None or isinstance(node, (str, int, bool)):
        return node
    kind = NODE_TYPES.get(type(node))
    if kind is None:
        raise TypeError(f"no JSON form for {type(node).__name__}")
    out: dict[str, Any] = {"type": kind}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        out[f.name] = position_json(value) if f.name == "position" else node_json(value)
    return out


def aggregate_clause_json(a: AggregateClause) -> dict:
    return {
        "var": a.var.name,
        "function": a.function,
        "argument": a.argument.name if a.argument else None,
        "group": [v.name for v in a.group],
        "filter": node_json(a.filter),
    }


def form_name(query: Query) -> str:
    return {Select: "select", Construct: "construct", Ask: "ask", Describe: "describe"}[type(query.form)]


def query_json(query: Query) -> dict:
    """The documented JSON object of a query (docs/model-json.md)."""
    form = query.form
    streams = []
    window_names: dict[tuple[IRI | Var, Window, Position | None], str] = {
        (w.stream, w.window, w.position): w.name.value for w in query.dataset.windows}
    for s in stream_graph_patterns(query):
        name = window_names.get((s.stream, s.window, s.position)) if s.pattern is None and s.named else None
        streams.append({
            "iri": s.stream.value if isinstance(s.stream, IRI) else None,
            "variable": s.stream.name if isinstance(s.stream, Var) else None,
            "named": s.named,
            "window": window_json(s.window),
            "pattern": node_json(s.pattern),
            "position": position_json(s.position or s.window.position),
            **({"window_name": name} if query.dialect == "rspql" else {}),
        })
    reg = query.registration
    m = query.modifiers
    return {
        "schema": SCHEMA,
        "dialect": query.dialect,
        "form": form_name(query),
        "variables": [v.name for v in result_variables(query)],
        "projection": None if not isinstance(form, Select) else (
            ["*"] if form.star else [
                {"var": p.name, "expr": None} if isinstance(p, Var) else {"var": p.var.name, "expr": node_json(p.expr)}
                for p in form.projection
            ]
        ),
        "modifier": form.modifier if isinstance(form, Select) else None,
        "template": node_json(form.template) if isinstance(form, Construct) else None,
        **({"graphs": [{"graph": node_json(g.graph), "template": node_json(g.triples)} for g in form.graphs]}
           if isinstance(form, Construct) and form.graphs else {}),
        "prologue": {"base": query.prologue.base, "prefixes": dict(query.prologue.prefixes)},
        "dataset": {
            "default": [i.value for i in query.dataset.default],
            "named": [i.value for i in query.dataset.named],
            **({"windows": [
                {"name": w.name.value, "stream": w.stream.value, "window": window_json(w.window),
                 "position": position_json(w.position or w.window.position)}
                for w in query.dataset.windows]} if query.dialect == "rspql" else {}),
        },
        "registration": None if reg is None else {
            "kind": reg.kind,
            "name": reg.name,
            "computed_every": duration_json(reg.computed_every),
        },
        "pattern": node_json(query.where),
        "streams": streams,
        "aggregates": [aggregate_clause_json(a) for a in query.aggregates],
        "modifiers": {
            "group_by": node_json(m.group_by),
            "having": node_json(m.having),
            "order_by": node_json(m.order_by),
            "limit": m.limit,
            "offset": m.offset,
        },
        "notes": list(query.notes),
        **({"events": events_json(query)} if query.dialect == "rsepql" else {}),
    }


def events_json(query: Query) -> dict:
    """RSEP-QL: the event windows and the basic event patterns declared on them."""
    assert query.events is not None
    return {
        "windows": [{"name": w.name.value, "stream": w.stream.value, "kind": w.kind, "start": w.start,
                     "width": w.width, "slide": w.slide, "position": position_json(w.position)}
                    for w in query.events.windows],
        "events": [{"name": e.name, "window": e.window.value, "pattern": node_json(e.pattern),
                    "position": position_json(e.position)} for e in query.events.events],
    }
