"""How relations are compared: as multisets (the default) or as sets (docs/check.md, "Bags or sets").

An engine answers bags: the answer of an evaluation is a multiset of solution mappings, each with
its cardinality (W3C SPARQL 1.1, §18.1.6; Dell'Aglio et al. 2014, Definitions 21–22 evaluate
SPARQL over the window contents). So ``check``, ``check --infer`` and ``agree --answers`` compare
relations as **bags** by default: an engine that drops or doubles a row is wrong. The **set** view
forgets the cardinalities; it is the one the papers' set-based definitions use — the agreement of
Dao-Tran, Beck, Eiter 2015 (§5), and the CSRBench oracle, which keeps each relation in a
``HashSet`` (Dell'Aglio et al. 2013, §6).

A relation is a :class:`~translator.rdf.bags.Bag` of *comparison bindings* (frozensets of
``(variable, term key)``, :mod:`translator.agreement.answers.terms`) in either view: under the set
view each member has cardinality 1. A :class:`View` builds relations, merges the relations that
one timestamp holds (an engine may report several times per instant: their bags add up, their
sets unite), takes the total of an interval's relations (:meth:`View.total`: the multiset union)
and names the view in every report. :func:`cardinality_faults` says which rows differ and by how
much (the diagnosis of a mismatch).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from translator.agreement.answers.terms import nt_key
from translator.rdf.bags import Bag

#: rows whose counts differ named in one diagnosis, at most
MAX_FAULTS = 5


@dataclass(frozen=True)
class View:
    """One way of comparing relations: ``bags`` (cardinalities count) or ``sets`` (they do not)."""

    name: str
    description: str

    @property
    def counts(self) -> bool:
        """Whether cardinalities count."""
        return self.name == "bags"

    def relation(self, bindings: Iterable) -> Bag:
        """The relation of these bindings (a binding given twice is a member of cardinality 2 as a bag)."""
        return Bag(bindings) if self.counts else Bag.of_set(bindings)

    def of(self, relation) -> Bag:
        """A relation read in this view: a :class:`Bag` as it is (bags) or its distinct members (sets);
        a set of bindings (an evaluator that answers sets) as the bag of each member once."""
        if isinstance(relation, Bag):
            if self.counts or len(relation) == len(relation.items()):
                return relation
            return Bag.of_set(relation.distinct())
        return Bag.of_set(relation)

    def merge(self, a: Bag, b: Bag) -> Bag:
        """Two relations at one timestamp as one: the additive union ⊎ of bags (an output that writes one
        evaluation as several relations, e.g. one per binding, counts each binding as often as it is
        written), the union of sets."""
        a, b = self.of(a), self.of(b)
        if not b:
            return a
        if not a:
            return b
        if self.counts:
            return a + b
        return Bag.of_set([*a.distinct(), *b.distinct()])

    def total(self, relations: Iterable[Bag]) -> Bag:
        """The total output of relations at several times (the "in total" reading of an interval,
        Dao-Tran, Beck, Eiter 2015, §5: the union of the answers): the multiset union ∪ of bags — each
        row as often as the most any one of them has it, since an engine reports a row that persists
        at every time it holds — or the union of sets."""
        counts: dict = {}
        for rel in relations:
            for row, n in self.of(rel).items():
                if n > counts.get(row, 0):
                    counts[row] = n
        return Bag.from_counts(counts)


BAGS = View("bags", "bags of bindings: a row's count must match (SPARQL 1.1 §18.1.6); "
                    "relations at one timestamp added up")
SETS = View("sets", "sets of bindings: duplicates ignored (Dao-Tran, Beck, Eiter 2015, §5; CSRBench oracle); "
                    "relations at one timestamp united")
VIEWS = {"bags": BAGS, "sets": SETS}


def view_of(view: View | str) -> View:
    """The view named ``view`` (``bags`` or ``sets``), or ``view`` itself."""
    if isinstance(view, View):
        return view
    try:
        return VIEWS[view]
    except KeyError:
        raise ValueError(f"unknown comparison {view!r} (expected {' or '.join(VIEWS)})") from None


def keyed_relation(variables: Sequence[str], rows: Iterable, view: View) -> Bag:
    """An evaluator's rows (N-Triples per result variable, ``None`` unbound; a set or a
    :class:`Bag`, iterated with its duplicates) as a relation of comparison bindings. Distinct rows
    whose terms compare as equal (numbers by value, blank nodes) count as one binding twice."""
    return view.relation(frozenset((v, nt_key(x)) for v, x in zip(variables, row) if x is not None) for row in rows)


def cardinality_faults(expected: Bag, actual: Bag, show: Callable[[Any], str] = str,
                       limit: int = MAX_FAULTS) -> list[str]:
    """The rows whose counts differ, in words: ``row (…) 2 times, expected 1``, ``row (…) missing
    (expected 1, got 0)``, ``row (…) unexpected (expected 0, got 1)``; at most ``limit`` of them,
    then how many more."""
    rows = sorted({*expected.distinct(), *actual.distinct()}, key=lambda b: show(b))
    out = []
    for b in rows:
        e, a = expected.count(b), actual.count(b)
        if e == a:
            continue
        if a == 0:
            out.append(f"row ({show(b)}) missing (expected {e}, got 0)")
        elif e == 0:
            out.append(f"row ({show(b)}) unexpected (expected 0, got {a})")
        else:
            out.append(f"row ({show(b)}) {a} {'time' if a == 1 else 'times'}, expected {e}")
    if len(out) > limit:
        out = out[:limit] + [f"… and {len(out) - limit} more rows whose counts differ"]
    return out
