"""Which stream elements can take part in a solution of the query, in any window content: a
semijoin reduction of the stream (Bernstein and Chiu 1981, "Using semi-joins to solve relational
queries", J. ACM 28(1); Yannakakis 1981, "Algorithms for acyclic database schemes", VLDB §3).

For a query whose pattern is a basic graph pattern P (triple patterns joined, FILTERs without
EXISTS on them) over the default graph that merges the windows' contents (C-SPARQL's ``FROM
STREAM``, Dao-Tran, Beck, Eiter 2015, §4.3, τ1; no static graph), a solution μ over a window
content C has ``μ(P) ⊆ C`` (SPARQL 1.1, §18.3: BGP matching; a FILTER only removes solutions).
Every C is a part of the whole stream S, so an element whose triple is in ``μ(P)`` for no solution
μ over S is in ``μ(P)`` for no solution over any C either: removing it from C changes no solution,
hence no answer (projection, DISTINCT, grouping and aggregates, HAVING, ORDER/LIMIT read the
solutions only).

The triples that take part in some solution over S are over-approximated by arc consistency
(Mackworth 1977, "Consistency in networks of relations", Artif. Intell. 8(1)): each triple pattern
keeps the triples that match its IRIs, and a triple whose value of a variable is not a value of
that variable in the kept triples of every other pattern with the variable is dropped, until
nothing changes. A triple of a solution is never dropped (its partners are kept with it), so the
kept triples hold every triple of every solution; for an acyclic pattern they are exactly those
(Yannakakis 1981). Literal constants of the patterns match any term (the engine may compare
them otherwise than by their text; matching more is safe).

The result marks the elements the incremental chain runs must add
(:meth:`translator.evaluate.window_contents.ContentIndex.set_relevance`); the others leave the
answer as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from lars.model import Atom, Integer, String
from translator.translate import algebra as A


@dataclass(frozen=True)
class Conjunctive:
    """A pattern's triple patterns, whose join restricted gives its solutions, and the FILTER
    conjuncts that read one variable of them (``tests``: variable name -> expressions)."""

    triples: tuple[A.Triple, ...]
    tests: tuple[tuple[str, A.Expression], ...] = ()


def conjunctive_triples(pattern: A.Pattern) -> Conjunctive | None:
    """``pattern`` as triple patterns joined and filtered (triple patterns, ``{}``, joins and
    FILTERs without ``EXISTS``); ``None`` for anything else. A FILTER conjunct reading only a
    variable of its own pattern's triples holds of that variable's value in every solution (the
    variable is bound there, and a solution of a join extends one of each side)."""
    if isinstance(pattern, A.Triple):
        return Conjunctive((pattern,))
    if isinstance(pattern, A.Empty):
        return Conjunctive(())
    if isinstance(pattern, A.Join):
        left, right = conjunctive_triples(pattern.left), conjunctive_triples(pattern.right)
        if left is None or right is None:
            return None
        return Conjunctive(left.triples + right.triples, left.tests + right.tests)
    if isinstance(pattern, A.Filter) and not _reads_patterns(pattern.condition):
        inner = conjunctive_triples(pattern.pattern)
        if inner is None:
            return None
        bound = {x.name for t in inner.triples for x in (t.s, t.p, t.o) if isinstance(x, A.Var)}
        tests = tuple((e.variables[0].name, e) for e in _conjuncts(pattern.condition)
                      if len(e.variables) == 1 and e.variables[0].name in bound)
        return Conjunctive(inner.triples, inner.tests + tests)
    return None


def _conjuncts(condition: A.Condition) -> list[A.Expression]:
    """The expressions that are top-level conjuncts of ``condition`` (each must hold)."""
    if isinstance(condition, A.Expression):
        return [condition]
    if isinstance(condition, A.AllOf):
        return [e for c in condition.parts for e in _conjuncts(c)]
    return []


def _reads_patterns(condition: A.Condition) -> bool:
    if isinstance(condition, A.ExistsTest):
        return True
    if isinstance(condition, (A.AllOf, A.AnyOf)):
        return any(_reads_patterns(c) for c in condition.parts)
    return False


def _fixed(term: A.PatternTerm) -> str | None:
    """The text an element's term must have to match ``term``: an IRI's; ``None`` for any term."""
    if isinstance(term, String) and term.value.startswith("<"):
        return term.value
    return None


def supported(pattern: Conjunctive, atoms: Mapping[str, Sequence[Atom]],
              candidates: Mapping[str, Sequence[bool]] | None = None,
              test: Callable[..., object] | None = None) -> dict[str, list[bool]]:
    """Per stream, whether each element (a ``striple(s, p, o, stream)`` atom with the terms as
    ``lars.model.String``) is kept by arc consistency over ``pattern`` (module docstring); only the
    elements marked in ``candidates`` (per stream, when given) are considered. ``test``: the
    engine's FILTER test (``@sparql_test(text, value)``, 1 iff it holds), applied to the values of
    the variables that one-variable conjuncts read; without it they are not applied."""
    shapes = []  # per pattern: (IRI texts at s, p, o or None, the variable at each position or None)
    for t in pattern.triples:
        terms = (t.s, t.p, t.o)
        shapes.append((tuple(_fixed(x) for x in terms), tuple(x.name if isinstance(x, A.Var) else None for x in terms)))
    by_predicate: dict[str | None, list[int]] = {}
    for n, (fixed, _) in enumerate(shapes):
        by_predicate.setdefault(fixed[1], []).append(n)
    any_predicate = by_predicate.pop(None, [])
    # per pattern: the matching elements as (stream, index, its three texts)
    matches: list[list[tuple[str, int, tuple[str, str, str]]]] = [[] for _ in shapes]
    for stream, atoms_of in atoms.items():
        marked = candidates.get(stream) if candidates is not None else None
        for i, atom in enumerate(atoms_of):
            if marked is not None and not marked[i]:
                continue
            s_, p_, o_ = atom.args[:3]
            if not (type(s_) is String and type(p_) is String and type(o_) is String):
                # not the image of an RDF triple (``translator.rdf.terms.to_lars``): nothing is left out
                return {stream: [True] * len(atoms_of) for stream, atoms_of in atoms.items()}
            spo = (s_.value, p_.value, o_.value)
            for n in (*by_predicate.get(spo[1], ()), *any_predicate):
                fixed, names = shapes[n]
                if (fixed[0] is None or fixed[0] == spo[0]) and (fixed[2] is None or fixed[2] == spo[2]) \
                        and _consistent(names, spo):
                    matches[n].append((stream, i, spo))
    if test is not None:
        decided: dict[tuple[str, str], bool] = {}
        for n, (_, names) in enumerate(shapes):
            checks = [(k, e) for k, name in enumerate(names) for v, e in pattern.tests if v == name]
            if checks:
                matches[n] = [m for m in matches[n] if all(_holds(test, e, m[2][k], decided) for k, e in checks)]
    _reduce(matches, [names for _, names in shapes])
    out = {stream: [False] * len(atoms_of) for stream, atoms_of in atoms.items()}
    for kept in matches:
        for stream, i, _ in kept:
            out[stream][i] = True
    return out


def _holds(test: Callable[..., object], e: A.Expression, value: str, decided: dict[tuple[str, str], bool]) -> bool:
    """Does the one-variable FILTER expression ``e`` hold for the term whose text is ``value``?
    (``decided``: the answers so far.)"""
    got = decided.get((e.text, value))
    if got is None:
        try:
            got = test(String(e.text), String(value)) == Integer(1)
        except Exception:  # noqa: BLE001  (a test that cannot decide keeps the element: matching more is safe)
            got = True
        decided[(e.text, value)] = got
    return got


def _consistent(names: tuple, spo: tuple) -> bool:
    """A variable written twice in a pattern has one value."""
    seen: dict[str, str] = {}
    for name, value in zip(names, spo):
        if name is not None and seen.setdefault(name, value) != value:
            return False
    return True


def _reduce(matches: list[list], names: list[tuple]) -> None:
    """Arc consistency (module docstring), in place."""
    shared: dict[str, int] = {}
    for pattern_names in names:
        for name in pattern_names:
            if name is not None:
                shared[name] = shared.get(name, 0) + 1
    joined = {name for name, n in shared.items() if n > 1}
    changed = True
    while changed:
        changed = False
        allowed: dict[str, set[str]] = {}
        for kept, pattern_names in zip(matches, names):
            for k, name in enumerate(pattern_names):
                if name in joined:
                    values = {spo[k] for _, _, spo in kept}
                    allowed[name] = allowed[name] & values if name in allowed else values
        for n, (kept, pattern_names) in enumerate(zip(matches, names)):
            tests = [(k, allowed[name]) for k, name in enumerate(pattern_names) if name in joined]
            if not tests:
                continue
            rest = [m for m in kept if all(m[2][k] in values for k, values in tests)]
            if len(rest) != len(kept):
                matches[n] = rest
                changed = True
