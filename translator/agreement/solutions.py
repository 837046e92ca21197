"""Solutions and answers as the agreement analysis sees them (Dao-Tran, Beck, Eiter 2015, §5; D5, D7).

An *answer* is a set of solutions (Datalog semantics: duplicates collapse, D5). A *solution* maps
result variables to RDF terms written in N-Triples form (``<http://ex/a>``, ``"25"^^<…#integer>``,
``_:b0``); an unbound variable is simply absent (D5: the reserved ``null`` of the ASP program is
shown as unbound). Answer streams are mappings ``time point -> frozenset[Solution]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from translator.agreement.errors import AgreementError


@dataclass(frozen=True, order=True)
class Solution:
    """One solution: the bound variables with their terms, as ``(var, term)`` pairs sorted by variable.

    Variables are named without the leading ``?``/``$``. Being a sorted tuple, a solution is hashable
    and totally ordered, so answers can be sorted deterministically for reports.
    """

    bindings: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        names = [var for var, _ in self.bindings]
        if names != sorted(names) or len(set(names)) != len(names):
            raise AgreementError(f"solution bindings must be sorted by distinct variable: {self.bindings!r}")
        for var, term in self.bindings:
            if not isinstance(var, str) or not var or not isinstance(term, str):
                raise AgreementError(f"a binding is a (variable, N-Triples term) pair of strings: {(var, term)!r}")

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, str | None]) -> "Solution":
        """Build from ``{var: term}``; a leading ``?``/``$`` is dropped, ``None`` means unbound."""
        pairs: dict[str, str] = {}
        for var, term in mapping.items():
            name = var[1:] if var[:1] in ("?", "$") else var
            if term is None:
                continue
            if name in pairs:
                raise AgreementError(f"variable {name!r} is bound twice in {dict(mapping)!r}")
            pairs[name] = term
        return cls(tuple(sorted(pairs.items())))

    def to_mapping(self) -> dict[str, str]:
        """The bound variables as ``{var: term}`` (unbound variables are absent)."""
        return dict(self.bindings)

    def __str__(self) -> str:
        return "{" + ", ".join(f"?{var}={term}" for var, term in self.bindings) + "}"


#: an answer stream: time point -> the answer (set of solutions) at that time point
Answers = Mapping[int, frozenset[Solution]]


def answers_from_mappings(stream: Mapping[int, Iterable[Mapping[str, str | None]]]) -> dict[int, frozenset[Solution]]:
    """Convenience: ``{t: [{var: term}, …]}`` → ``{t: frozenset[Solution]}``."""
    return {int(t): frozenset(Solution.from_mapping(m) for m in sols) for t, sols in stream.items()}


def sorted_solutions(answer: Iterable[Solution]) -> list[Solution]:
    """The solutions in the deterministic order used by every report (by sorted ``(var, term)`` pairs)."""
    return sorted(answer)
