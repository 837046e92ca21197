"""DESCRIBE (SPARQL 1.1 §16.4) as LARS rules: the concise bounded description of each resource.

SPARQL leaves the description to the service; rsplars gives what Oxigraph and Jena give, the
*concise bounded description* (CBD, Stickler 2005, W3C member submission): the triples of the
default graph whose subject is the resource, and recursively those whose subject is a blank node
object of a triple already in the description. The resources are the IRIs of the DESCRIBE clause
and the values of its variables (``DESCRIBE *``: of every variable in scope) in the solutions of
the WHERE pattern (without WHERE: one empty solution); a literal is not described.

Rules, on top of τ's ``ans1(V̄, default)`` (``translator.translate.tau``):

    describe_resource(X)      ← ans1(V̄, default), X ≠ null          (each variable X described)
    describe_resource(<iri>)                                          (each IRI described)
    describe_cbd(S)           ← describe_resource(S)
    describe_cbd(O)           ← describe_cbd(S), triple(S, P, O, default), isBlank(O)
    describe_triple(S, P, O)  ← describe_cbd(S), triple(S, P, O, default)

``triple(S, P, O, default)`` stands for every way a triple of the default graph is matched
(``Tau.edges``: with C-SPARQL's ``FROM STREAM`` also the merged window contents), so over streams
the description is taken, at each evaluation, over that evaluation's dataset. The answer of the
query is ``describe_triple``: the result is read and written exactly as a CONSTRUCT with the
template ``{ ?s ?p ?o }`` (:func:`as_construct`; an N-Triples set per evaluation, jsonl records).
"""

from __future__ import annotations

from dataclasses import replace

from lars.model import Atom, Comparison, Integer, Literal, Rule, String, Variable
from translator.query import model as M
from translator.translate import algebra as A
from translator.translate.tau import DEFAULT_GRAPH, NULL, SPARQL_TEST, Tau, lars_var

__all__ = ["VARIABLES", "as_construct", "describe_rules"]

VARIABLES = ("s", "p", "o")
"""The answer's variables: the described triple's subject, predicate and object."""

RESOURCE, CBD, TRIPLE_OUT = "describe_resource", "describe_cbd", "describe_triple"


def as_construct(query: M.Query) -> M.Query:
    """The query with its DESCRIBE form replaced by ``CONSTRUCT { ?s ?p ?o }``, whose answers are
    the described triples (how the writers and ``construct_triples`` read them)."""
    s, p, o = (M.Var(v) for v in VARIABLES)
    return replace(query, form=M.Construct(template=(M.TriplePattern(s, p, o),)))


def _described(query: M.Query, pattern: A.Pattern) -> tuple[list[A.Var], list[M.IRI]]:
    form = query.form
    assert isinstance(form, M.Describe)
    if not form.terms:  # DESCRIBE *: every variable in scope
        return list(A.ordered(A.variables(pattern))), []
    scope = A.variables(pattern)
    variables = [A.Var(t.name) for t in form.terms if isinstance(t, M.Var) and A.Var(t.name) in scope]
    return variables, [t for t in form.terms if isinstance(t, M.IRI)]


def describe_rules(query: M.Query, pattern: A.Pattern, tau: Tau, solutions: Atom) -> tuple[list[Rule], Atom]:
    """The rules of the module docstring and the atom ``describe_triple(S, P, O)`` the answer
    rule reads (its variables named as :data:`VARIABLES`)."""
    from translator.translate.normalize import term as normalize_term

    variables, iris = _described(query, pattern)
    rules: list[Rule] = []
    for v in variables:
        rules.append(Rule(Atom(RESOURCE, (lars_var(v),)), (Literal(solutions), Comparison("!=", lars_var(v), NULL))))
    for iri in iris:
        resource = normalize_term(iri)
        assert isinstance(resource, String)
        rules.append(Rule(Atom(RESOURCE, (resource,)), (Literal(solutions),)))
    s, p, o = (lars_var(A.Var(v)) for v in VARIABLES)
    rules.append(Rule(Atom(CBD, (s,)), (Literal(Atom(RESOURCE, (s,))),)))
    blank = Comparison("=", _call_is_blank(o), Integer(1))
    for body in tau.edges(s, p, o, DEFAULT_GRAPH):
        rules.append(Rule(Atom(CBD, (o,)), (Literal(Atom(CBD, (s,))), *body, blank)))
        rules.append(Rule(Atom(TRIPLE_OUT, (s, p, o)), (Literal(Atom(CBD, (s,))), *body)))
    return rules, Atom(TRIPLE_OUT, (s, p, o))


def _call_is_blank(o: Variable):
    """``@sparql_test("isBLANK(?o)", O)``: whether O is a blank node (SPARQL 1.1 §17.4.2.2)."""
    from lars.model import Call

    return Call(SPARQL_TEST, (String("isBLANK(?o)"), o))
