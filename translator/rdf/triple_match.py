"""Basic graph pattern matching on triples written as N-Triples texts (SPARQL 1.1 §18.3).

Patterns and triples are plain tuples of N-Triples term strings; a position starting with ``?`` or
``$`` is a variable. A pattern matches a triple when one substitution of its variables makes them
equal (a repeated variable must bind the same term).
"""

from __future__ import annotations

Triple = tuple[str, str, str]
TriplePattern = tuple[str, str, str]


def is_variable(term: str) -> bool:
    return term[:1] in ("?", "$")


def matches(pattern: TriplePattern, triple: Triple) -> bool:
    """Whether one substitution of the pattern's variables turns it into ``triple``."""
    binding: dict[str, str] = {}
    for p, t in zip(pattern, triple):
        if is_variable(p):
            name = p[1:]
            if binding.setdefault(name, t) != t:
                return False
        elif p != t:
            return False
    return True
