"""Triples, graph patterns, query forms and solution modifiers (SPARQL 1.1 §5–§16, W3C grammar
[2]–[83]). Builds the parts of ``Q = (V, P, D, S)`` (Dao-Tran, Beck, Eiter 2015, §3) that all dialects share."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from lark import Token, v_args

from ..model import (
    Aggregate,
    BGP,
    EVENT_OPERATORS,
    IRI,
    RDF_TYPE,
    Ask,
    BlankNode,
    Bind,
    Construct,
    Dataset,
    Describe,
    EventPattern,
    Filter,
    GraphPattern,
    GraphTemplate,
    Group,
    GroupCondition,
    Minus,
    Modifiers,
    NamedWindow,
    Optional_,
    OrderCondition,
    Path,
    Projection,
    Select,
    StreamSource,
    SubSelect,
    TriplePattern,
    Union_,
    Values,
    Var,
)
from .context import ContextMixin, position_of


@dataclass(frozen=True)
class _DefaultGraph:
    iri: IRI


@dataclass(frozen=True)
class _NamedGraph:
    iri: IRI


@dataclass(frozen=True)
class _Node:
    """A blank node written as ``[ … ]`` or ``( … )`` together with the triples it stands for."""

    node: BlankNode
    triples: tuple[TriplePattern, ...]


_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


@dataclass(frozen=True)
class ConstructTemplate:
    """A CONSTRUCT template while it is parsed: its triples and (RSP-QL) its GRAPH blocks."""

    triples: tuple[TriplePattern, ...]
    graphs: tuple[GraphTemplate, ...] = ()


@dataclass
class QueryBody:
    """The result of a query-form rule, before the prologue and registration are attached."""

    form: Select | Construct | Ask | Describe
    where: Group
    dataset: Dataset = Dataset()
    modifiers: Modifiers = Modifiers()
    aggregates: tuple = ()
    position: object = None


@dataclass
class _Modifier:
    kind: str
    value: object = field(default=None)


def build_dataset(items) -> Dataset:
    return Dataset(
        default=tuple(x.iri for x in items if isinstance(x, _DefaultGraph)),
        named=tuple(x.iri for x in items if isinstance(x, _NamedGraph)),
        streams=tuple(x for x in items if isinstance(x, StreamSource)),
        windows=tuple(x for x in items if isinstance(x, NamedWindow)),
    )


def has_aggregate(node: object) -> bool:
    """Does a query form (its SELECT expressions) hold an aggregate anywhere?"""
    if isinstance(node, Aggregate):
        return True
    if isinstance(node, tuple):
        return any(map(has_aggregate, node))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(has_aggregate(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


@v_args(inline=True)
class PatternRules(ContextMixin):
    # ---- query forms ----------------------------------------------------------------------
    def _body(self, form, items, meta=None) -> QueryBody:
        from ..model import AggregateClause

        where = next((x for x in items if isinstance(x, Group)), Group(()))
        modifiers = next((x for x in items if isinstance(x, Modifiers)), Modifiers())
        return QueryBody(
            form=form,
            where=where,
            dataset=build_dataset(items),
            modifiers=modifiers,
            aggregates=tuple(x for x in items if isinstance(x, AggregateClause)),
        )

    def select_query(self, *items) -> QueryBody:
        form = next(x for x in items if isinstance(x, Select))
        return self._body(form, items)

    @v_args(meta=True, inline=True)
    def sub_select(self, meta, select: Select, where: Group, modifiers: Modifiers, values: Values | None = None) -> SubSelect:
        """A sub-query at the position of its ``SELECT``; its trailing VALUES (W3C SubSelect's
        ValuesClause) joined with its WHERE."""
        return self.make_sub_select(meta, select, where, modifiers, values)

    def make_sub_select(self, meta, select: Select, where: Group, modifiers: Modifiers,
                        values: Values | None = None) -> SubSelect:
        if values is not None and (modifiers.group_by or modifiers.having or has_aggregate(select)):
            raise self.error("unsupported: a VALUES clause after a sub-query that aggregates (SPARQL joins it with "
                             "the groups' solutions, §18.2.4.3)", meta, expected="VALUES inside the sub-query's WHERE")
        return SubSelect(select, where if values is None else Group((where, values)), modifiers, position_of(meta))

    def select_clause(self, *items) -> Select:
        modifier = next((x for x in items if isinstance(x, str) and not isinstance(x, Token)), None)
        projection = tuple(x for x in items if isinstance(x, (Var, Projection)))
        return Select(projection, modifier)

    def select_modifier(self, tok: Token) -> str:
        return str(tok).upper()

    def projection_as(self, expr, var: Var) -> Projection:
        return Projection(expr, var)

    def construct_query(self, template: ConstructTemplate, *items) -> QueryBody:
        return self._body(Construct(template.triples, template.graphs), items)

    def construct_where(self, *items) -> QueryBody:
        """``CONSTRUCT WHERE { triples }`` (SPARQL 1.1 §16.2.4): the triples are both the template
        and the WHERE clause's basic graph pattern."""
        template = next((x for x in items if isinstance(x, ConstructTemplate)), ConstructTemplate(()))
        where = Group((BGP(template.triples),) if template.triples else ())
        return self._body(Construct(template.triples), (*(x for x in items if not isinstance(x, ConstructTemplate)), where))

    def construct_template(self, triples: ConstructTemplate | None = None) -> ConstructTemplate:
        return triples if triples is not None else ConstructTemplate(())

    def construct_triples(self, *groups) -> ConstructTemplate:
        self.blank_scopes.drop()
        triples: list[TriplePattern] = []
        for g in groups:
            triples.extend(g)
        for t in triples:
            if isinstance(t.predicate, Path):
                raise self.error("a property path is not allowed in a CONSTRUCT template", "CONSTRUCT")
        return ConstructTemplate(tuple(triples))

    def describe_query(self, *items) -> QueryBody:
        terms = tuple(x for x in items if isinstance(x, (IRI, Var)))
        return self._body(Describe(terms), items)

    def ask_query(self, *items) -> QueryBody:
        return self._body(Ask(), items)

    def default_graph_clause(self, iri: IRI) -> _DefaultGraph:
        return _DefaultGraph(iri)

    def named_graph_clause(self, iri: IRI) -> _NamedGraph:
        return _NamedGraph(iri)

    def where_clause(self, group: Group) -> Group:
        return group

    # ---- solution modifiers ---------------------------------------------------------------
    def solution_modifier(self, *clauses: _Modifier) -> Modifiers:
        kw = {}
        for c in clauses:
            if isinstance(c, list):  # limit_offset_clauses
                for sub in c:
                    kw[sub.kind] = sub.value
            else:
                kw[c.kind] = c.value
        return Modifiers(**kw)

    def group_clause(self, *conds) -> _Modifier:
        return _Modifier("group_by", tuple(c if isinstance(c, GroupCondition) else GroupCondition(c) for c in conds))

    def group_expression(self, expr) -> GroupCondition:
        return GroupCondition(expr)

    def group_as(self, expr, var: Var) -> GroupCondition:
        return GroupCondition(expr, var)

    def having_clause(self, *constraints) -> _Modifier:
        return _Modifier("having", tuple(constraints))

    def order_clause(self, *conds: OrderCondition) -> _Modifier:
        return _Modifier("order_by", tuple(conds))

    def ordered(self, direction: Token, expr) -> OrderCondition:
        return OrderCondition(expr, descending=str(direction).upper() == "DESC", explicit=True)

    def order_plain(self, expr) -> OrderCondition:
        return OrderCondition(expr)

    def limit_offset_clauses(self, *clauses: _Modifier) -> list[_Modifier]:
        return list(clauses)

    def limit_clause(self, tok: Token) -> _Modifier:
        return _Modifier("limit", int(tok))

    def offset_clause(self, tok: Token) -> _Modifier:
        return _Modifier("offset", int(tok))

    # ---- graph patterns -------------------------------------------------------------------
    def group_graph_pattern(self, sub: Group) -> Group:
        return sub

    def sub_select_group(self, sub: SubSelect) -> Group:
        return Group((sub,))

    def group_graph_pattern_sub(self, *parts) -> Group:
        group = Group(tuple(p for p in parts if not isinstance(p, Token)))
        self.blank_scopes.claim(group.parts, self.error)
        return group

    def triples_block(self, *groups) -> BGP:
        triples: list[TriplePattern] = []
        for g in groups:
            triples.extend(g)
        bgp = BGP(tuple(triples))
        self.blank_scopes.block(bgp)
        return bgp

    def optional_graph_pattern(self, group: Group) -> Optional_:
        return Optional_(group)

    def minus_graph_pattern(self, group: Group) -> Minus:
        return Minus(group)

    def graph_graph_pattern(self, name, group: Group) -> GraphPattern:
        return GraphPattern(name, group)

    def union_op(self, tok: Token) -> str:
        return str(tok).upper()

    def group_or_union_graph_pattern(self, first, *rest):
        """``{A} UNION {B} …`` (and EP-SPARQL's ``{A} SEQ {B} …``): left-associative binary nodes;
        a single group stays a nested :class:`Group`."""
        result = first
        for op, operand in zip(rest[::2], rest[1::2]):
            if op == "UNION":
                result = Union_(result, operand)
            else:
                assert op in EVENT_OPERATORS
                result = EventPattern(op, result, operand)
        return result

    def filter(self, expr) -> Filter:
        return Filter(expr)

    def bind(self, expr, var: Var) -> Bind:
        return Bind(expr, var)

    def inline_data(self, values: Values) -> Values:
        return values

    def inline_data_one_var(self, var: Var, *values) -> Values:
        return Values((var,), tuple((None if isinstance(v, Token) else v,) for v in values))

    def inline_data_full(self, *items) -> Values:
        items_l = list(items)
        variables: list[Var] = []
        if items_l and isinstance(items_l[0], Token) and items_l[0].type == "NIL":
            items_l.pop(0)
        while items_l and isinstance(items_l[0], Var):
            variables.append(items_l.pop(0))
        rows = tuple(() if isinstance(r, Token) else r for r in items_l)
        for r in rows:
            if len(r) != len(variables):
                raise self.error(f"a VALUES row has {len(r)} values for {len(variables)} variables", "VALUES")
        return Values(tuple(variables), rows)

    def data_block_row(self, *values):
        return tuple(None if isinstance(v, Token) else v for v in values)

    # ---- triples --------------------------------------------------------------------------
    def triples_same_subject(self, subject, plist=None) -> tuple[TriplePattern, ...]:
        out: list[TriplePattern] = []
        if isinstance(subject, _Node):
            out.extend(subject.triples)
            subject = subject.node
        for verb, objects in plist or ():
            for obj in objects:
                if isinstance(obj, _Node):
                    out.extend(obj.triples)
                    obj = obj.node
                out.append(TriplePattern(subject, verb, obj))
        return tuple(out)

    def property_list_not_empty(self, *items):
        return list(zip(items[::2], items[1::2]))

    def object_list(self, *nodes):
        return nodes

    def blank_node_property_list(self, plist) -> _Node:
        node = BlankNode(self.fresh_blank_label())
        return _Node(node, self.triples_same_subject(node, plist))

    def collection(self, *nodes) -> _Node:
        """``( n1 … nk )`` (SPARQL 1.1 §4.2.4 and §19.5, RDF collections): a blank node b1 with the
        triples ``b_i rdf:first n_i . b_i rdf:rest b_{i+1}`` and ``b_k rdf:rest rdf:nil``. In a WHERE
        pattern its blank nodes are fresh, so they match as variables do that no answer shows
        (§4.1.4); in a CONSTRUCT template they are fresh in every solution (§16.2.1)."""
        head = BlankNode(self.fresh_blank_label())
        triples: list[TriplePattern] = []
        current: BlankNode | IRI = head
        for i, item in enumerate(nodes):
            if isinstance(item, _Node):
                triples.extend(item.triples)
                item = item.node
            rest = BlankNode(self.fresh_blank_label()) if i < len(nodes) - 1 else IRI(_RDF + "nil")
            triples.append(TriplePattern(current, IRI(_RDF + "first"), item))
            triples.append(TriplePattern(current, IRI(_RDF + "rest"), rest))
            current = rest
        return _Node(head, tuple(triples))

    def path(self, *seqs):
        return seqs[0] if len(seqs) == 1 else Path("alt", tuple(seqs))

    def path_sequence(self, *elts):
        return elts[0] if len(elts) == 1 else Path("seq", tuple(elts))

    def path_inverse(self, elt):
        return Path("inv", (elt,))

    def path_inverse_type(self, _tok: Token) -> Path:
        return Path("inv", (IRI(RDF_TYPE),))

    def path_one_set(self, *members) -> tuple:
        return tuple(m for m in members if not isinstance(m, Token))

    def path_negated(self, members) -> Path:
        """``!iri``, ``!(iri|^iri|…)`` (§9.1 NegatedPropertySet): its members, plain or inverse."""
        return Path("!", members if isinstance(members, tuple) else (members,))

    def path_mod(self, tok: Token) -> str:
        return str(tok)

    def path_elt(self, primary, mod: str | None = None):
        return primary if mod is None else Path(mod, (primary,))
