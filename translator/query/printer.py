"""Query model → query text, one printer per dialect over a shared SPARQL core printer.

Printing and re-parsing gives an equal model (tested over every fixture and over generated
models). IRIs are abbreviated with the query's own prologue where the local part is a plain name,
and written in full otherwise (also for namespaces assumed in lenient mode, so that the printed
text parses strictly).
"""

from __future__ import annotations

import re
from .model import (
    BGP,
    IRI,
    RDF_TYPE,
    XSD,
    Aggregate,
    AggregateClause,
    Ask,
    BinaryOp,
    Bind,
    BlankNode,
    Construct,
    Describe,
    Duration,
    EventDeclaration,
    EventPattern,
    EventRef,
    EventSelect,
    EventWindow,
    MatchPattern,
    Within,
    Exists,
    Filter,
    FunctionCall,
    GraphPattern,
    Group,
    In,
    IRICall,
    Literal,
    Minus,
    Modifiers,
    Optional_,
    Path,
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
)

_LOCAL = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_NUMERIC = {
    XSD + "integer": re.compile(r"^[+-]?[0-9]+$"),
    XSD + "decimal": re.compile(r"^[+-]?[0-9]*\.[0-9]+$"),
    XSD + "double": re.compile(r"^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)[eE][+-]?[0-9]+$"),
}
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
#: binding strength of binary operators (higher binds tighter), SPARQL 1.1 grammar [111]–[117]
_PRECEDENCE = {"||": 1, "&&": 2, "=": 3, "!=": 3, "<": 3, ">": 3, "<=": 3, ">=": 3, "+": 4, "-": 4, "*": 5, "/": 5}


class CorePrinter:
    """SPARQL 1.1 text of the shared model; dialect printers override the stream hooks."""

    dialect = "csparql"
    step_keyword = "STEP"

    def __init__(self, query: Query) -> None:
        self.query = query
        self.prefixes = list(query.prologue.prefixes)

    # ---- entry ----------------------------------------------------------------------------
    def print(self) -> str:
        q = self.query
        out: list[str] = []
        out += self.registration_lines()
        if q.prologue.base:
            out.append(f"BASE <{q.prologue.base}>")
        out += [f"PREFIX {p}: <{ns}>" for p, ns in q.prologue.prefixes]
        out.append(self.form(q.form))
        out += self.dataset_lines()
        out.append("WHERE " + self.group(q.where, 0))
        out += self.aggregate_lines()
        out += self.modifier_lines(q.modifiers)
        return "\n".join(line for line in out if line) + "\n"

    def registration_lines(self) -> list[str]:
        return []

    def aggregate_lines(self) -> list[str]:
        return []

    def dataset_lines(self) -> list[str]:
        d = self.query.dataset
        return [f"FROM {self.iri(i)}" for i in d.default] + [f"FROM NAMED {self.iri(i)}" for i in d.named]

    # ---- forms ----------------------------------------------------------------------------
    def form(self, form) -> str:
        match form:
            case Select():
                return self.select(form)
            case Construct(template, graphs):
                parts = [self.triple(t) for t in template]
                parts += [f"GRAPH {self.term(g.graph)} {{ " + " . ".join(self.triple(t) for t in g.triples) + " }"
                          for g in graphs]
                return "CONSTRUCT { " + " . ".join(parts) + " }"
            case Ask():
                return "ASK"
            case Describe(terms):
                return "DESCRIBE " + (" ".join(self.term(t) for t in terms) if terms else "*")
        raise TypeError(form)

    def select(self, s: Select) -> str:
        head = "SELECT" + (f" {s.modifier}" if s.modifier else "")
        if s.star:
            return head + " *"
        items = [self.term(p) if isinstance(p, Var) else f"({self.expr(p.expr)} AS {self.term(p.var)})" for p in s.projection]
        return head + " " + " ".join(items)

    def modifier_lines(self, m: Modifiers) -> list[str]:
        out = []
        if m.group_by:
            conds = []
            for c in m.group_by:
                if c.var is not None:
                    conds.append(f"({self.expr(c.expr)} AS {self.term(c.var)})")
                elif isinstance(c.expr, (Var, FunctionCall)):
                    conds.append(self.expr(c.expr))
                else:
                    conds.append(f"({self.expr(c.expr)})")
            out.append("GROUP BY " + " ".join(conds))
        if m.having:
            out.append("HAVING " + " ".join(f"({self.expr(e)})" for e in m.having))
        if m.order_by:
            conds = []
            for order in m.order_by:
                if order.explicit:
                    conds.append(f"{'DESC' if order.descending else 'ASC'}({self.expr(order.expr)})")
                elif isinstance(order.expr, Var):
                    conds.append(self.expr(order.expr))
                else:
                    conds.append(f"({self.expr(order.expr)})")
            out.append("ORDER BY " + " ".join(conds))
        if m.limit is not None:
            out.append(f"LIMIT {m.limit}")
        if m.offset is not None:
            out.append(f"OFFSET {m.offset}")
        return out

    # ---- patterns -------------------------------------------------------------------------
    def group(self, g: Group, depth: int) -> str:
        if not g.parts:
            return "{ }"
        if len(g.parts) == 1 and isinstance(g.parts[0], SubSelect):
            return self.part(g.parts[0], depth)
        pad = "  " * (depth + 1)
        lines = [pad + self.part(p, depth + 1) for p in g.parts]
        return "{\n" + "\n".join(lines) + "\n" + "  " * depth + "}"

    def part(self, p, depth: int) -> str:
        match p:
            case BGP(triples):
                return " .\n".join(("  " * depth if i else "") + self.triple(t) for i, t in enumerate(triples)) + " ."
            case Group():
                return self.group(p, depth)
            case Union_() | EventPattern():
                return self.binary_pattern(p, depth)
            case Optional_(g):
                return "OPTIONAL " + self.group(g, depth)
            case Minus(g):
                return "MINUS " + self.group(g, depth)
            case Filter(e):
                return f"FILTER ({self.expr(e)})"
            case GraphPattern(name, g):
                return f"GRAPH {self.term(name)} " + self.group(g, depth)
            case Bind(e, v):
                return f"BIND ({self.expr(e)} AS {self.term(v)})"
            case Values():
                return self.values(p)
            case StreamPattern():
                return self.stream_pattern(p, depth)
            case WindowPattern():
                return self.window_pattern(p, depth)
            case Within(d):
                return f"WITHIN {self.duration(d)}"
            case SubSelect(select, where, modifiers):
                inner = [self.select(select), "WHERE " + self.group(where, depth)] + self.modifier_lines(modifiers)
                return "{ " + ("\n" + "  " * depth).join(inner) + " }"
        raise TypeError(p)

    def binary_pattern(self, p, depth: int) -> str:
        op = "UNION" if isinstance(p, Union_) else p.op
        return f"{self.operand(p.left, depth)} {op} {self.operand(p.right, depth)}"

    def operand(self, p, depth: int) -> str:
        # a left operand that is itself a binary node prints without braces (left-associative);
        # anything else must be a group
        if isinstance(p, (Union_, EventPattern)):
            return self.binary_pattern(p, depth)
        if isinstance(p, Group):
            return self.group(p, depth)
        return self.group(Group((p,)), depth)

    def values(self, v: Values) -> str:
        def value(x):
            return "UNDEF" if x is None else self.term(x)

        head = "(" + " ".join(self.term(x) for x in v.vars) + ")"
        rows = " ".join("(" + " ".join(value(x) for x in row) + ")" for row in v.rows)
        return f"VALUES {head} {{ {rows} }}"

    def stream_pattern(self, p: StreamPattern, depth: int) -> str:
        raise TypeError(f"a STREAM graph pattern cannot be written in {self.dialect}")

    def window_pattern(self, p: WindowPattern, depth: int) -> str:
        raise TypeError(f"a WINDOW graph pattern cannot be written in {self.dialect}")

    def triple(self, t: TriplePattern) -> str:
        return f"{self.term(t.subject)} {self.predicate(t.predicate)} {self.term(t.object, in_triple=True)}"

    def predicate(self, p) -> str:
        if isinstance(p, IRI) and p.value == RDF_TYPE:
            return "a"
        if isinstance(p, Path):
            return self.path(p)
        return self.term(p)

    def path(self, p, top: bool = True) -> str:
        if not isinstance(p, Path):
            return self.predicate(p)
        if p.op in ("?", "*", "+"):
            return self.path_primary(p.args[0]) + p.op
        if p.op == "inv":
            return "^" + self.path_primary(p.args[0])
        if p.op == "!":  # a negated property set: its members are IRIs or inverse IRIs
            members = "|".join(self.path(a, False) for a in p.args)
            return "!" + (members if len(p.args) == 1 else f"({members})")
        sep = "/" if p.op == "seq" else "|"
        text = sep.join(self.path_primary(a) if isinstance(a, Path) and a.op in ("seq", "alt") else self.path(a, False) for a in p.args)
        return text

    def path_primary(self, p) -> str:
        if isinstance(p, Path) and p.op in ("seq", "alt", "inv", "?", "*", "+"):
            return f"({self.path(p)})"
        return self.predicate(p)

    # ---- terms ----------------------------------------------------------------------------
    def iri(self, i: IRI) -> str:
        for prefix, ns in self.prefixes:
            if i.value.startswith(ns) and _LOCAL.match(i.value[len(ns):]) and not i.value[len(ns):].endswith("-"):
                return f"{prefix}:{i.value[len(ns):]}"
        return f"<{i.value}>"

    def term(self, t, in_triple: bool = False) -> str:
        match t:
            case IRI():
                return self.iri(t)
            case Var(name):
                return f"?{name}"
            case BlankNode(label):
                return f"_:{label}"
            case Literal():
                return self.literal(t)
        raise TypeError(t)

    def literal(self, lit: Literal) -> str:
        pattern = _NUMERIC.get(lit.datatype or "")
        if pattern is not None and pattern.match(lit.lexical):
            return lit.lexical
        if lit.datatype == XSD + "boolean" and lit.lexical in ("true", "false"):
            return lit.lexical
        body = '"' + "".join(_ESCAPE.get(c, c) for c in lit.lexical) + '"'
        if lit.lang:
            return f"{body}@{lit.lang}"
        if lit.datatype:
            return f"{body}^^{self.iri(IRI(lit.datatype))}"
        return body

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, e, parent: int = 0, right: bool = False) -> str:
        match e:
            case BinaryOp(op, left, rhs):
                prec = _PRECEDENCE[op]
                # comparisons are not associative: bracket a comparison operand that is a comparison
                text = f"{self.expr(left, prec)} {op} {self.expr(rhs, prec, right=True)}"
                need = prec < parent or (prec == parent and (right or prec == 3))
                return f"({text})" if need else text
            case UnaryOp(op, operand):
                inner = self.expr(operand, 9)
                if isinstance(operand, (BinaryOp, UnaryOp, In)) or inner.startswith(("-", "+")):
                    inner = f"({self.expr(operand)})"
                return f"{op}{inner}"
            case In(left, values, negated):
                text = f"{self.expr(left, 4)} {'NOT IN' if negated else 'IN'} ({', '.join(self.expr(v) for v in values)})"
                return f"({text})" if parent >= 3 else text
            case FunctionCall(name, args):
                return f"{name}({', '.join(self.expr(a) for a in args)})"
            case IRICall(iri, args, distinct):
                return f"{self.iri(iri)}({'DISTINCT ' if distinct else ''}{', '.join(self.expr(a) for a in args)})"
            case Aggregate(name, arg, distinct, separator):
                inner = ("DISTINCT " if distinct else "") + ("*" if arg is None else self.expr(arg))
                if separator is not None:
                    inner += f' ; SEPARATOR={self.literal(Literal(separator))}'
                return f"{name}({inner})"
            case Exists(g, negated):
                return ("NOT EXISTS " if negated else "EXISTS ") + self.group(g, 1)
            case Literal() if e.lexical.startswith(("-", "+")) and parent >= 4:
                return f"({self.literal(e)})" if right or parent > 4 else self.literal(e)
            case IRI() | Var() | Literal():
                return self.term(e)
        raise TypeError(e)

    # ---- windows --------------------------------------------------------------------------
    def duration(self, d: Duration) -> str:
        if d.unit == "xsd:duration":
            return f'"{d.lexical}"^^<{XSD}duration>'
        value = d.value
        text = str(value.normalize()) if value != value.to_integral_value() else str(int(value))
        return f"{text}{d.unit}"

    def window(self, w: Window) -> str:
        match w.kind:
            case "range" if w.range is not None:  # the model's range and tumbling windows have a width
                step = f" {self.step_keyword} {self.duration(w.step)}" if w.step is not None else ""
                return f"[RANGE {self.duration(w.range)}{step}]"
            case "tumbling" if w.range is not None:
                return f"[RANGE {self.duration(w.range)} TUMBLING]"
        return self.other_window(w)

    def other_window(self, w: Window) -> str:
        raise TypeError(f"{w.kind} windows cannot be written in {self.dialect}")


class CsparqlPrinter(CorePrinter):
    """C-SPARQL (Barbieri et al. 2010, §2): REGISTER, FROM [NAMED] STREAM, AGGREGATE."""

    dialect = "csparql"
    step_keyword = "STEP"

    def registration_lines(self) -> list[str]:
        r = self.query.registration
        if r is None:
            return []
        every = f" COMPUTED EVERY {self.duration(r.computed_every)}" if r.computed_every else ""
        return [f"REGISTER {r.kind} {r.name}{every} AS"]

    def dataset_lines(self) -> list[str]:
        lines = super().dataset_lines()
        for s in self.query.dataset.streams:
            lines.append(f"FROM {'NAMED ' if s.named else ''}STREAM {self.iri(s.iri)} {self.window(s.window)}")
        return lines

    def other_window(self, w: Window) -> str:
        if w.kind == "triples":
            return f"[RANGE TRIPLES {w.rows}]"
        return super().other_window(w)

    def aggregate_lines(self) -> list[str]:
        return [self.aggregate_clause(a) for a in self.query.aggregates]

    def aggregate_clause(self, a: AggregateClause) -> str:
        func = a.function + (f"({self.term(a.argument)})" if a.argument else "")
        group = ", ".join(self.term(v) for v in a.group)
        group = f"{{{group}}}" if a.braced_group or len(a.group) != 1 else group
        filt = f" FILTER ({self.expr(a.filter)})" if a.filter is not None else ""
        return f"AGGREGATE {{ ({self.term(a.var)}, {func}, {group}){filt} }}"


class CqelsPrinter(CorePrinter):
    """CQELS-QL: STREAM s [ω] { g } inside WHERE; windows with SLIDE."""

    dialect = "cqels"
    step_keyword = "SLIDE"

    def stream_pattern(self, p: StreamPattern, depth: int) -> str:
        return f"STREAM {self.term(p.stream)} {self.window(p.window)} " + self.group(p.pattern, depth)

    def other_window(self, w: Window) -> str:
        match w.kind:
            case "now":
                return "[NOW]"
            case "all":
                return "[ALL]"
            case "triples":
                return f"[TRIPLES {w.rows}]"
            case "rows":
                return f"[ROWS {w.rows}]"
        return super().other_window(w)


class EpsparqlPrinter(CorePrinter):
    """EP-SPARQL: event operators between groups (the core binary-pattern printer writes them)."""

    dialect = "epsparql"


class RspqlPrinter(CorePrinter):
    """RSP-QL (W3C RSP community group syntax): REGISTER RSTREAM|ISTREAM|DSTREAM <name> AS,
    FROM NAMED WINDOW <w> ON <s> [ω] with ISO 8601 durations, WINDOW <w>|?w { g }."""

    dialect = "rspql"
    step_keyword = "STEP"

    def registration_lines(self) -> list[str]:
        r = self.query.registration
        if r is None or r.name is None:
            return []
        every = f" COMPUTED EVERY {self.duration(r.computed_every)}" if r.computed_every else ""
        # written in full: the prologue, and so the prefixes, come after the registration
        return [f"REGISTER {r.kind} <{r.name}>{every} AS"]

    def form(self, form) -> str:
        """A query without REGISTER that names its R2S operator writes it after the form's keyword."""
        text = super().form(form)
        r = self.query.registration
        if r is not None and r.name is None and form is self.query.form:
            keyword, rest = text.split(" ", 1)
            return f"{keyword} {r.kind} {rest}"
        return text

    def dataset_lines(self) -> list[str]:
        lines = super().dataset_lines()
        for w in self.query.dataset.windows:
            lines.append(f"FROM NAMED WINDOW {self.iri(w.name)} ON {self.iri(w.stream)} {self.window(w.window)}")
        return lines

    def duration(self, d: Duration) -> str:
        return d.lexical if d.unit == "xsd:duration" and d.lexical else super().duration(d)

    def window_pattern(self, p: WindowPattern, depth: int) -> str:
        return f"WINDOW {self.term(p.name)} " + self.group(p.pattern, depth)

    def other_window(self, w: Window) -> str:
        match w.kind:
            case "rows":
                return f"[ROWS {w.rows}]"
            case "interval" if w.range is not None:  # the model's interval windows have a start
                until = f"-{self.duration(w.until)}" if w.until is not None else ""
                step = f" STEP {self.duration(w.step)}" if w.step is not None else ""
                return f"[FROM NOW-{self.duration(w.range)} TO NOW{until}{step}]"
        return super().other_window(w)


class RsepqlPrinter(CorePrinter):
    """RSEP-QL in the syntax of Dell'Aglio et al. 2016, Example 4 (translator/query/grammars/rsepql.lark):
    ``FROM NAMED <s> WIN [LND t0] AS <w>`` / ``WIN [RANGE a (STEP b)] AS <w>`` (§3.2), ``EVENT ON <w>
    { BGP } AS E`` (§3.3) and ``MATCH { E }`` with ``SEQ``, ``FIRST``, ``LAST`` (§4.2)."""

    dialect = "rsepql"

    def dataset_lines(self) -> list[str]:
        lines = super().dataset_lines()
        events = self.query.events
        if events is None:
            return lines
        lines += [f"FROM NAMED {self.iri(w.stream)} WIN {self.event_window(w)} AS {self.iri(w.name)}"
                  for w in events.windows]
        lines += [self.event_declaration(e) for e in events.events]
        return lines

    def event_window(self, w: EventWindow) -> str:
        if w.kind == "landmark":
            return f"[LND {w.start}]"
        step = f" STEP {w.slide}" if w.slide != 1 else ""
        return f"[RANGE {w.width}{step}]"

    def event_declaration(self, e: EventDeclaration) -> str:
        body = " . ".join(self.triple(t) for t in e.pattern.triples)
        return f"EVENT ON {self.iri(e.window)} {{ {body} . }} AS {e.name}"

    def part(self, p, depth: int) -> str:
        if isinstance(p, MatchPattern):
            return f"MATCH {{ {self.event_expr(p.pattern)} }}"
        return super().part(p, depth)

    def event_expr(self, e) -> str:
        """SEQ is left-associative and FIRST/LAST bind tighter: a SEQ on the right or under
        FIRST/LAST is bracketed."""
        match e:
            case EventRef(name):
                return name
            case EventSelect(kind, inner):
                text = self.event_expr(inner)
                return f"{kind} " + (f"({text})" if isinstance(inner, EventPattern) else text)
            case EventPattern(op, left, right):
                rhs = self.event_expr(right)
                return f"{self.event_expr(left)} {op} " + (f"({rhs})" if isinstance(right, EventPattern) else rhs)
        raise TypeError(e)


PRINTERS: dict[str, type[CorePrinter]] = {
    "csparql": CsparqlPrinter,
    "cqels": CqelsPrinter,
    "epsparql": EpsparqlPrinter,
    "rspql": RspqlPrinter,
    "rsepql": RsepqlPrinter,
}


def print_query(query: Query, dialect: str | None = None) -> str:
    """The text of ``query`` in ``dialect`` (default: its own)."""
    return PRINTERS[dialect or query.dialect](query).print()


def expression_text(expr, query: Query | None = None) -> str:
    """Canonical SPARQL text of an expression (IRIs abbreviated with ``query``'s prologue if
    given, else written in full); parsing it back gives the same expression."""
    q = query or Query("csparql", Select(()), Group(()))
    return PRINTERS[q.dialect](q).expr(expr)

