"""An independent EP-SPARQL evaluator for the tests, written straight from the definitions of
Anicic et al. 2011 (docs/epsparql.md): nested loops over event intervals, no LARS, no
clingo, no code of ``translator.translate`` or ``translator.evaluate``.

Events are ``(s, p, o, t)`` with rdflib terms (an event occurs once, however often it is listed);
a result is ``(μ, start, end)`` with μ a frozenset of ``(variable, rdflib term)``. Results are
**bags**, kept as lists with one entry per complex event: a triple pattern gives one result per
matching event, a join, SEQ or EQUALS one per pair of results of its sides, UNION the results of
both sides, OPTIONALSEQ / EQUALSOPTIONAL one per extending pair plus each unextended left result,
FILTER and WITHIN keep or drop each, a sub-query's SELECT and the query's projection map each
result (SPARQL 1.1 §18.5 over the pairs (μ, interval); docs/epsparql.md, "Answers are bags").
The answers at t are the results over the events up to t whose interval ends at t (each complex
event reported once, when detected). Times are numbers of one unit; an ``xsd:duration`` literal is
converted with ``unit_seconds`` (seconds per time unit).

FILTER expressions: a small evaluator of the operators the tests use (numbers, comparisons,
``+ - * /``, ``&& || !``, ``BOUND``, the three time functions) with SPARQL's error semantics
(an unbound variable or a type error is an error; ``&&``/``||`` as SPARQL 1.1 §17.2; FILTER keeps
a result only when the value is true).
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from rdflib import BNode, Literal, URIRef

from translator.query import model as M

XSD = "http://www.w3.org/2001/XMLSchema#"


class Err(Exception):
    """A SPARQL expression error."""


def term(t):
    if isinstance(t, M.IRI):
        return URIRef(t.value)
    if isinstance(t, M.Literal):
        return Literal(t.lexical, lang=t.lang, datatype=URIRef(t.datatype) if t.datatype else None)
    raise AssertionError(t)


def compatible(a: dict, b: dict) -> bool:
    return all(b[k] == v for k, v in a.items() if k in b)


class Oracle:
    def __init__(self, events, unit_seconds: int = 1):
        self.events = list(dict.fromkeys(events))
        self.unit_seconds = unit_seconds

    # ---- patterns
    def group(self, g: M.Group, events) -> list:
        results = None
        filters, withins = [], []
        for part in g.parts:
            if isinstance(part, M.Filter):
                filters.append(part.expr)
                continue
            if isinstance(part, M.Within):
                withins.append(Fraction(part.duration.ms) / 1000 / self.unit_seconds)
                continue
            if isinstance(part, M.BGP):
                elements = [self.triple(t, events) for t in part.triples]
            else:
                elements = [self.element(part, events)]
            for el in elements:
                results = el if results is None else self.join(results, el)
        assert results is not None
        out = []
        for mu, s, e in results:
            if any(e - s > d for d in withins):
                continue
            if all(self.filter_true(f, dict(mu), s, e) for f in filters):
                out.append((mu, s, e))
        return out

    def element(self, p, events) -> list:
        if isinstance(p, M.Group):
            return self.group(p, events)
        if isinstance(p, M.Union_):
            return self.element(p.left, events) + self.element(p.right, events)
        if isinstance(p, M.EventPattern):
            left, right = self.element(p.left, events), self.element(p.right, events)
            return self.event(p.op, left, right)
        if isinstance(p, M.SubSelect):
            inner = self.group(p.where, events)
            out = []
            for mu, s, e in inner:
                d = dict(mu)
                new = {}
                for item in p.select.projection:
                    if isinstance(item, M.Var):
                        if item.name in d:
                            new[item.name] = d[item.name]
                    else:
                        try:
                            new[item.var.name] = self.node(self.expr(item.expr, d, s, e))
                        except Err:
                            pass
                out.append((frozenset(new.items()), s, e))
            return out
        raise AssertionError(f"oracle: no {type(p).__name__}")

    def triple(self, t: M.TriplePattern, events) -> list:
        out = []
        for ev in events:
            mu: dict = {}
            ok = True
            for pat, val in zip((t.subject, t.predicate, t.object), ev[:3]):
                if isinstance(pat, (M.Var, M.BlankNode)):
                    name = pat.name if isinstance(pat, M.Var) else "_b" + pat.label
                    if name in mu and mu[name] != val:
                        ok = False
                    mu[name] = val
                elif term(pat) != val:
                    ok = False
            if ok:
                out.append((frozenset(mu.items()), ev[3], ev[3]))
        return out

    @staticmethod
    def join(left, right) -> list:
        out = []
        for m1, s1, e1 in left:
            for m2, s2, e2 in right:
                if compatible(dict(m1), dict(m2)):
                    out.append((m1 | m2, min(s1, s2), max(e1, e2)))
        return out

    @staticmethod
    def event(op: str, left, right) -> list:
        out = []
        for m1, s1, e1 in left:
            extended = False
            for m2, s2, e2 in right:
                if not compatible(dict(m1), dict(m2)):
                    continue
                if op in ("SEQ", "OPTIONALSEQ") and e1 < s2:
                    out.append((m1 | m2, s1, e2))
                    extended = True
                if op in ("EQUALS", "EQUALSOPTIONAL") and (s1, e1) == (s2, e2):
                    out.append((m1 | m2, s1, e1))
                    extended = True
            if op in ("OPTIONALSEQ", "EQUALSOPTIONAL") and not extended:
                out.append((m1, s1, e1))
        return out

    # ---- answers
    def answers(self, query: M.Query, t) -> list:
        """[(projected μ, start, end)] reported at t, one per complex event (a bag; once each under
        SELECT DISTINCT): the results over the events up to t that end at t."""
        events = [ev for ev in self.events if ev[3] <= t]
        results = self.group(query.where, events)
        out = []
        for mu, s, e in results:
            if e != t:
                continue
            d = dict(mu)
            if isinstance(query.form, M.Select) and not query.form.star:
                proj = {}
                for item in query.form.projection:
                    if isinstance(item, M.Var):
                        if item.name in d:
                            proj[item.name] = d[item.name]
                    else:
                        try:
                            proj[item.var.name] = self.node(self.expr(item.expr, d, s, e))
                        except Err:
                            pass
                d = proj
            out.append((frozenset(d.items()), s, e))
        if isinstance(query.form, M.Select) and query.form.modifier in ("DISTINCT", "REDUCED"):
            return list(dict.fromkeys(out))
        return out

    # ---- expressions
    def filter_true(self, expr, mu, s, e) -> bool:
        try:
            return self.ebv(self.expr(expr, mu, s, e))
        except Err:
            return False

    @staticmethod
    def ebv(v) -> bool:
        if isinstance(v, bool):
            return v
        if isinstance(v, Fraction):
            return v != 0
        raise Err("no EBV")

    @staticmethod
    def node(v):
        if isinstance(v, bool):
            return Literal(v)
        if isinstance(v, Fraction):
            if v.denominator == 1:
                return Literal(str(v.numerator), datatype=URIRef(XSD + "integer"))
            return Literal(str(Decimal(v.numerator) / Decimal(v.denominator)), datatype=URIRef(XSD + "decimal"))
        return v

    def duration(self, lexical: str) -> Fraction:
        m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?", lexical)
        assert m, lexical
        d, h, mi, sec = (int(x or 0) for x in m.groups())
        return Fraction(((d * 24 + h) * 60 + mi) * 60 + sec, self.unit_seconds)

    def expr(self, e, mu, s, t_end):
        if isinstance(e, M.Var):
            if e.name not in mu:
                raise Err("unbound")
            v = mu[e.name]
            if isinstance(v, Literal) and v.datatype is not None and str(v.datatype) in (
                    XSD + "integer", XSD + "decimal", XSD + "double"):
                return Fraction(str(v))
            return v
        if isinstance(e, M.Literal):
            if e.datatype in (XSD + "integer", XSD + "decimal", XSD + "double"):
                return Fraction(e.lexical)
            if e.datatype == XSD + "duration":
                return self.duration(e.lexical)
            return term(e)
        if isinstance(e, M.FunctionCall):
            if e.name == "getDURATION":
                return Fraction(t_end - s)
            if e.name == "getSTARTTIME":
                return Fraction(s)
            if e.name == "getENDTIME":
                return Fraction(t_end)
            if e.name == "BOUND":
                return e.args[0].name in mu
            raise AssertionError(e.name)
        if isinstance(e, M.UnaryOp):
            v = self.expr(e.operand, mu, s, t_end)
            if e.op == "!":
                return not self.ebv(v)
            if e.op == "-" and isinstance(v, Fraction):
                return -v
            raise Err("unary")
        if isinstance(e, M.BinaryOp):
            if e.op in ("&&", "||"):
                try:
                    a = self.ebv(self.expr(e.left, mu, s, t_end))
                except Err:
                    a = None
                try:
                    b = self.ebv(self.expr(e.right, mu, s, t_end))
                except Err:
                    b = None
                if e.op == "&&":
                    if a is False or b is False:
                        return False
                    if a is None or b is None:
                        raise Err("&&")
                    return True
                if a is True or b is True:
                    return True
                if a is None or b is None:
                    raise Err("||")
                return False
            a, b = self.expr(e.left, mu, s, t_end), self.expr(e.right, mu, s, t_end)
            if e.op in ("+", "-", "*", "/"):
                if not (isinstance(a, Fraction) and isinstance(b, Fraction)):
                    raise Err("arith")
                if e.op == "/" and b == 0:
                    raise Err("div0")
                return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else None}[e.op]
            if isinstance(a, Fraction) and isinstance(b, Fraction):
                return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "=": a == b, "!=": a != b}[e.op]
            if e.op in ("=", "!=") and not isinstance(a, Fraction) and not isinstance(b, Fraction):
                return (a == b) == (e.op == "=")
            raise Err("compare")
        raise AssertionError(e)


def nt(v) -> str:
    """An rdflib term in N-Triples form (as the run's output)."""
    if isinstance(v, URIRef):
        return f"<{v}>"
    if isinstance(v, BNode):
        return f"_:{v}"
    return v.n3()
