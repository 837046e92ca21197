"""Stream extensions of the dialects: durations and windows (Dao-Tran, Beck, Eiter 2015, Table 1), C-SPARQL
registration, FROM STREAM and AGGREGATE (Barbieri et al. 2010, §2.2–2.5), CQELS stream graph patterns
(Dao-Tran, Beck, Eiter 2015, §2.2 (B2)), EP-SPARQL event operators and projections (Anicic et al. WWW 2011)."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal

from lark import Token, v_args

from ..model import (
    IRI,
    XSD,
    AggregateClause,
    Construct,
    Duration,
    Filter,
    Group,
    Projection,
    Prologue,
    Query,
    Registration,
    StreamPattern,
    StreamSource,
    Values,
    Var,
    Window,
    Within,
)
from .context import ContextMixin, position_of
from .patterns import QueryBody, has_aggregate

_DURATION = re.compile(r"^([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)$")
#: written unit (any case, lenient long names) → canonical unit
_UNITS = {
    **{u: u for u in ("ms", "s", "m", "h", "d")},
    **{u: "ms" for u in ("millisecond", "milliseconds", "millis", "msec", "msecs")},
    **{u: "s" for u in ("second", "seconds", "sec", "secs")},
    **{u: "m" for u in ("minute", "minutes", "min", "mins")},
    **{u: "h" for u in ("hour", "hours", "hr", "hrs")},
    **{u: "d" for u in ("day", "days")},
}


@v_args(inline=True)
class StreamRules(ContextMixin):
    """Durations, windows and the assembly of the :class:`Query` (``start``)."""

    def unit_duration(self, tok: Token) -> Duration:
        m = _DURATION.match(str(tok))
        assert m, tok
        unit = m.group(2).lower()
        if unit not in ("ms", "s", "m", "h", "d"):
            self.note(f"lenient: time unit '{m.group(2)}' read as '{_UNITS[unit]}'", tok)
        return Duration(Decimal(m.group(1)), _UNITS[unit])

    @v_args(meta=True, inline=True)
    def xsd_duration(self, meta, lexical: str, datatype: IRI) -> Duration:
        if datatype.value != XSD + "duration":
            raise self.error(
                f"a window duration literal must have datatype xsd:duration, not <{datatype.value}>",
                meta,
                expected='"PT10M"^^xsd:duration or a number with a unit (10m)',
            )
        try:
            return Duration.from_xsd(lexical)
        except ValueError as exc:
            raise self.error(str(exc), meta, expected="an xsd:duration in days, hours, minutes or seconds") from None

    @v_args(meta=True, inline=True)
    def window(self, meta, spec: Window) -> Window:
        if spec.step is not None and spec.range is not None and spec.step.ms > spec.range.ms:
            self.note(f"window step {spec.step.ms} ms is longer than its range {spec.range.ms} ms", meta)
        if spec.range is not None and spec.range.ms <= 0:
            raise self.error("a window range must be positive", meta, expected="a duration greater than 0")
        if spec.step is not None and spec.step.ms <= 0:
            raise self.error("a window step must be positive", meta, expected="a duration greater than 0")
        return dataclasses.replace(spec, position=position_of(meta))

    def range_window(self, rng: Duration, step: Duration | None = None) -> Window:
        return Window("range", range=rng, step=step)

    def tumbling_window(self, rng: Duration) -> Window:
        return Window("tumbling", range=rng)

    def triples_window(self, n: Token) -> Window:
        return Window("triples", rows=int(n))

    def rows_window(self, n: Token) -> Window:
        return Window("rows", rows=int(n))

    def now_window(self) -> Window:
        return Window("now")

    def all_window(self) -> Window:
        return Window("all")

    # ---- the query ------------------------------------------------------------------------
    def start(self, *items) -> Query:
        body = next(x for x in items if isinstance(x, QueryBody))
        registration = next((x for x in items if isinstance(x, Registration)), None)
        if registration is not None and registration.kind == "STREAM" and not isinstance(body.form, Construct):
            from ..model import Describe

            if not isinstance(body.form, Describe):
                msg = "REGISTER STREAM needs a CONSTRUCT (or DESCRIBE) query (Barbieri et al. 2010, §2.5)"
                if not self.ctx.lenient:
                    raise self.error(msg, registration.position, expected="REGISTER QUERY, or a CONSTRUCT query")
                self.note(f"lenient: {msg}; accepted as in the paper's Sect. 2.7 example", registration.position)
        where = body.where
        trailing = next((x for x in items if isinstance(x, Values)), None)
        if trailing is not None:  # ValuesClause: joined with the solutions of WHERE (SPARQL 1.1 §18.2.4.3)
            if body.aggregates or body.modifiers.group_by or body.modifiers.having or has_aggregate(body.form):
                raise self.error("unsupported: a VALUES clause after a query that aggregates (SPARQL joins it with "
                                 "the groups' solutions)", "VALUES", expected="VALUES inside the WHERE clause")
            where = Group((where, trailing))
        return Query(
            dialect=self.dialect,
            form=body.form,
            where=where,
            prologue=Prologue(self.base, tuple(self.prefixes.items())),
            dataset=body.dataset,
            modifiers=body.modifiers,
            registration=registration,
            aggregates=body.aggregates,
            notes=tuple(self.notes),
        )


@v_args(inline=True)
class CsparqlRules(StreamRules):
    """C-SPARQL additions (Barbieri et al. 2010, §2.2–2.5)."""

    @v_args(meta=True, inline=True)
    def registration(self, meta, kind: str, name: Token, every: Duration | None = None) -> Registration:
        return Registration(kind, str(name), every, position_of(meta))

    def registration_kind(self, tok: Token) -> str:
        return str(tok).upper()

    def computed_every(self, duration: Duration) -> Duration:
        return duration

    @v_args(meta=True, inline=True)
    def from_stream(self, meta, *items) -> StreamSource:
        named = any(isinstance(x, Token) and x.type == "NAMED" for x in items)
        iri, window = items[-2], items[-1]
        return StreamSource(iri, window, named, position_of(meta))

    @v_args(meta=True, inline=True)
    def aggregate_clause(self, meta, var: Var, function, group, filt: Filter | None = None) -> AggregateClause:
        name, argument = function
        if argument is None and name != "COUNT":
            raise self.error(
                f"{name} needs an argument in an AGGREGATE clause (Barbieri et al. 2010, §2.2)", meta,
                expected=f"{name}(?variable)",
            )
        variables, braced = group
        return AggregateClause(var, name, argument, variables, filt.expr if filt else None, braced)

    def aggregate_function(self, tok: Token, argument: Var | None = None):
        return str(tok).upper(), argument

    def aggregate_group(self, *variables: Var):
        return tuple(variables), True

    def aggregate_group_bare(self, variable: Var):
        return (variable,), False


@v_args(inline=True)
class CqelsRules(StreamRules):
    """CQELS-QL additions: ``STREAM s [ω] { g }`` inside WHERE."""

    @v_args(meta=True, inline=True)
    def stream_graph_pattern(self, meta, stream, window: Window, group: Group) -> StreamPattern:
        return StreamPattern(stream, window, group, position_of(meta))


@v_args(inline=True)
class EpsparqlRules(StreamRules):
    """EP-SPARQL additions: event operators in WHERE, ``?v AS expr`` projections."""

    def where_clause(self, pattern, *filters: Filter | Within) -> Group:
        """``WHERE {A} SEQ {B} FILTER(…) WITHIN d``: the WHERE pattern is the group of the event
        pattern, the filters and WITHIN bounds (a single group keeps its own parts)."""
        if isinstance(pattern, Group):
            return Group(pattern.parts + filters) if filters else pattern
        return Group((pattern, *filters))

    @v_args(meta=True, inline=True)
    def within_clause(self, meta, _keyword: Token, duration: Duration) -> Within:
        if duration.ms <= 0:
            raise self.error("WITHIN needs a positive duration", meta, expected="e.g. WITHIN 30 (seconds) or WITHIN 5m")
        return Within(duration, position_of(meta))

    def seconds_duration(self, tok: Token) -> Duration:
        """ETALIS reads a plain number after WITHIN as seconds, whatever the run's base unit."""
        return Duration(Decimal(str(tok)), "s")

    def projection_assign(self, var: Var, expr) -> Projection:
        return Projection(expr, var)
