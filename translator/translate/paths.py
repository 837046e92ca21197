"""SPARQL 1.1 property paths (§9, §18.4) as LARS rules, after the ASP translation of Polleres and
Wallner, "On the relation between SPARQL 1.1 and Answer Set Programming", J. Applied Non-Classical
Logics 23(1–2):159–212, 2013, §4 ("From SPARQL to ASP": property paths as rules over the graph's
``triple`` atoms).

A path triple pattern ``s path o`` in the active graph G (the default graph, a named graph, or the
window of a stream graph pattern: the caller gives the body literals that match one triple of G,
``edges``) becomes an atom ``pathN_k(s, o, G)``, defined by rules per operator:

* ``iri``: ``p(S, O, G) ← triple(S, iri, O, G)`` (one rule per way of matching a triple in G);
* ``seq(P1, …, Pn)``: a join on fresh variables, ``p(S, O, G) ← p1(S, Z1, G), …, pn(Z{n−1}, O, G)``;
* ``alt(P1, …, Pn)``: a union, one rule per alternative;
* ``inv(P)``: the ends swapped, ``p(S, O, G) ← p'(O, S, G)``;
* ``P+``: transitive closure by recursive rules, ``c(X, Y, G) ← b(X, Y, G)`` and
  ``c(X, Y, G) ← c(X, Z, G), b(Z, Y, G)`` for P's rules b over fresh variables;
* ``P*``: ``P+`` and the zero-length path; ``P?``: P and the zero-length path;
* ``!(iri1|…|^irij|…)``: a triple whose predicate differs from each forward member, and the
  swapped triple whose predicate differs from each inverse member (§18.2.2.4: ``NPS``,
  ``inv(NPS)``, or their ``alt`` when both kinds of members are present).

Zero-length paths follow the evaluation of ``ZeroLengthPath`` and ``ALP`` in SPARQL 1.1 §18.4
exactly: with a constant end, that term itself, whether or not it occurs in G; with both ends
variables, every subject and object of G (``pathN_node``). A constant end is carried down through
``alt``, ``inv``, ``?``, ``*``, ``+`` and the outer ends of ``seq``, as §18.2.2.4 rewrites the
pattern; the closure from a constant c is the set ALP(c, P) of §18.4: P evaluated from c, then the
closure of P (over variables) from what it reaches — the terms other than c that a path reaches
are terms of G, where P over variables and P from a constant agree.

Multisets (decision D5; SPARQL 1.1 §18.4, the spec extract ``006-sparql-multisets``): with ``bags``
a path atom carries a *witness* after its ends, ``p(S, O, W̄, G)``, so that distinct atoms are the
members of the path's multiset:

* ``seq``: the middle nodes ``Z1 … Z{n−1}`` (a join over projected-away variables: two ways
  through different middle nodes are two solutions) and the parts' witnesses;
* ``alt``: a branch number (a union: a pair reached by two alternatives counts twice) and the
  parts' witnesses (``null`` for the other parts);
* ``inv``: its part's witness;
* a negated property set: the predicate of the matched triple (once per matching triple, as
  rdflib and Oxigraph count ``?s !:p ?o``; with forward and inverse members, the ``alt`` of the two
  readings of §18.2.2.4 also counts the direction — Oxigraph gives that alternative once per pair);
* ``*``, ``+``, ``?``: no witness — §18.4 defines ``ALP`` and ``ZeroOrOnePath`` on sets of nodes,
  so each pair of ends counts once (as Oxigraph; rdflib counts ``?`` twice when the zero-length
  and the one-step path meet), and their sub-path is translated without witness.

Rules are positive; the closure is recursive, which clingo grounds and the incremental engine
evaluates as a recursive block (``lars.incremental.aggregates``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from lars.errors import UnsupportedError
from lars.model import Atom, BodyElement, Comparison, Integer, Literal, Term, Variable
from translator.rdf.terms import NULL
from translator.translate import algebra as A

Edges = Callable[[Term, Term, Term], list[tuple[BodyElement, ...]]]
"""``edges(S, P, O)``: the alternative bodies that match the triple (S, P, O) in the active graph."""

STAGE = "translation to LARS"


def _is_var(t: Term) -> bool:
    return isinstance(t, Variable)


@dataclass
class PathRules:
    """The rules of one path triple pattern: predicates ``{name}_k`` and
    ``{name}_node``.

    ``graph`` is the active graph's term (a constant, or the variable of ``GRAPH ?g`` / ``STREAM
    ?s``), the last argument of every path atom; ``graph_binding`` the literals that bind a
    variable ``graph`` to the graphs it ranges over (``None``: it cannot be bound without a triple,
    so a zero-length path with a constant end is a named error); ``add`` records a rule.
    """

    name: str
    graph: Term
    edges: Edges
    add: Callable[[Atom, Sequence[BodyElement]], None]
    graph_binding: tuple[BodyElement, ...] | None = ()
    bags: bool = False
    """Witnessed path atoms (module docstring, "Multisets"): ``p(S, O, W̄, G)``."""
    count: int = 0
    variables: int = 0
    node_defined: bool = False

    # -- names

    def fresh_predicate(self) -> str:
        self.count += 1
        return f"{self.name}_{self.count}"

    def fresh_variable(self, stem: str = "Z") -> Variable:
        self.variables += 1
        return Variable(f"{stem}{self.variables}_")  # τ's variables are V_name: no clash

    def atom(self, predicate: str, s: Term, o: Term, witness: Sequence[Term] = ()) -> Atom:
        return Atom(predicate, (s, o, *witness, self.graph))

    # -- entry point

    def define(self, path: A.PathExpr, s: Term, o: Term, bags: bool | None = None) -> Atom:
        """An atom ``p(s, o, W̄, G)`` true exactly for the solutions of ``s path o`` in G (§18.4);
        the witness W̄ (its variables) is empty unless ``bags`` (default: :attr:`bags`)."""
        bags = self.bags if bags is None else bags
        predicate = self.fresh_predicate()
        head = self.atom(predicate, s, o)
        match path:
            case A.PathLink(iri):
                for body in self.edges(s, iri, o):
                    self.add(head, body)
            case A.NegatedSet(forward, inverse):
                return self.negated(predicate, forward, inverse, s, o, bags)
            case A.PathOp("inv", (inner,)):
                part = self.define(inner, o, s, bags)
                head = self.atom(predicate, s, o, _witness(part))
                self.add(head, [Literal(part)])
            case A.PathOp("alt", parts):
                atoms = [self.define(part, s, o, bags) for part in parts]
                branch = [self.fresh_variable("B")] if bags else []
                witness = [*branch, *(w for a in atoms for w in _witness(a))]
                head = self.atom(predicate, s, o, witness)
                for k, a in enumerate(atoms, start=1):
                    mine = set(_witness(a))
                    values = [Integer(k), *(w if w in mine else NULL for w in witness[1:])] if bags else []
                    self.add(self.atom(predicate, s, o, values), [Literal(a)])
            case A.PathOp("seq", parts):
                middle = [self.fresh_variable() for _ in parts[1:]]
                ends = [s, *middle, o]
                atoms = [self.define(part, ends[k], ends[k + 1], bags) for k, part in enumerate(parts)]
                witness = [*middle, *(w for a in atoms for w in _witness(a))] if bags else []
                head = self.atom(predicate, s, o, witness)
                self.add(head, [Literal(a) for a in atoms])
            case A.PathOp("+", (inner,)):
                self.closure(head, inner, s, o)
            case A.PathOp("*", (inner,)):
                self.closure(head, inner, s, o)
                self.zero_length(head, s, o)
            case A.PathOp("?", (inner,)):
                self.add(head, [Literal(self.define(inner, s, o, bags=False))])
                self.zero_length(head, s, o)
            case _:
                raise UnsupportedError(f"the property path {path!r}", STAGE)
        return head

    # -- operators

    def negated(self, predicate: str, forward: tuple[Term, ...], inverse: tuple[Term, ...], s: Term, o: Term,
                bags: bool) -> Atom:
        """``!(…)``: §18.2.2.4 gives ``NPS(forward)`` when there is no inverse member,
        ``inv(NPS(inverse))`` when there is no forward member, and their ``alt`` otherwise. With
        ``bags`` the witness is the matched triple's predicate (and, for the ``alt``, the direction)."""
        p = self.fresh_variable("P")
        both = bool(forward) and bool(inverse)
        direction = [self.fresh_variable("B")] if bags and both else []
        head = self.atom(predicate, s, o, [*direction, p] if bags else [])
        if forward or not inverse:
            for body in self.edges(s, p, o):
                self.add(self.atom(predicate, s, o, [*(Integer(1) for _ in direction), p] if bags else []),
                         [*body, *(Comparison("!=", p, iri) for iri in forward)])
        if inverse:
            for body in self.edges(o, p, s):
                self.add(self.atom(predicate, s, o, [*(Integer(2) for _ in direction), p] if bags else []),
                         [*body, *(Comparison("!=", p, iri) for iri in inverse)])
        return head

    def closure(self, head: Atom, inner: A.PathExpr, s: Term, o: Term) -> None:
        """``P+`` (§18.4, ALP without the start itself): with a constant subject c, the terms
        reachable from c: ``r(Y) ← P(c, Y)``, ``r(Y) ← r(Z), P(Z, Y)``; with a constant object
        (and a variable subject) the same backwards; with two variable ends the transitive
        closure ``c(X, Y) ← P(X, Y)``, ``c(X, Y) ← c(X, Z), P(Z, Y)``."""
        x, y, z = self.fresh_variable("X"), self.fresh_variable("Y"), self.fresh_variable()
        step = self.define(inner, x, y, bags=False)  # P between two variables (ALP: sets of nodes, §18.4)

        def step_atom(a: Term, b: Term) -> Literal:
            return Literal(Atom(step.predicate, (a, b, self.graph)))

        if not _is_var(s):
            reach = self.fresh_predicate()
            self.add(self.atom(reach, s, y), [Literal(self.define(inner, s, y, bags=False))])
            self.add(self.atom(reach, s, y), [Literal(self.atom(reach, s, z)), step_atom(z, y)])
            self.add(head, [Literal(self.atom(reach, s, o))])
        elif not _is_var(o):
            reach = self.fresh_predicate()
            self.add(self.atom(reach, x, o), [Literal(self.define(inner, x, o, bags=False))])
            self.add(self.atom(reach, x, o), [step_atom(x, z), Literal(self.atom(reach, z, o))])
            self.add(head, [Literal(self.atom(reach, s, o))])
        else:
            closed = self.fresh_predicate()
            self.add(self.atom(closed, x, y), [step_atom(x, y)])
            self.add(self.atom(closed, x, y), [Literal(self.atom(closed, x, z)), step_atom(z, y)])
            self.add(head, [Literal(self.atom(closed, s, o))])

    def zero_length(self, head: Atom, s: Term, o: Term) -> None:
        """eval(ZeroLengthPath) of §18.4: a constant end is itself (whether or not it occurs in
        the graph), two constants only if equal, two variables every subject and object of G."""
        if _is_var(s) and _is_var(o):
            self.add(Atom(head.predicate, (s, s, self.graph)), [Literal(self.node(s))])
            return
        if not _is_var(s) and not _is_var(o) and s != o:
            return
        term = o if _is_var(s) else s
        if self.graph_binding is None:
            raise UnsupportedError("a zero-length property path with a constant end inside STREAM ?var", STAGE,
                                   "the stream variable would be unbound")
        self.add(Atom(head.predicate, (term, term, self.graph)), list(self.graph_binding))

    def node(self, x: Term) -> Atom:
        """``{name}_node(X, G)``: X is a subject or an object of a triple of G."""
        predicate = f"{self.name}_node"
        if not self.node_defined:
            self.node_defined = True
            n, p, other = Variable("N_"), Variable("P_"), Variable("O_")
            for body in [*self.edges(n, p, other), *self.edges(other, p, n)]:
                self.add(Atom(predicate, (n, self.graph)), body)
        return Atom(predicate, (x, self.graph))


def _witness(atom: Atom) -> tuple[Term, ...]:
    """The witness arguments of a path atom ``p(S, O, W̄, G)``."""
    return atom.args[2:-1]


__all__ = ["Edges", "PathRules"]
