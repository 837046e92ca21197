"""The LARS predicates of the logic view of RDF data (Dao-Tran, Beck, Eiter 2015, §2.3, §4.3 (i)).

A static triple ``(s, p, o)`` of graph ``g`` is the fact ``triple(s, p, o, g)``; a triple arriving on
stream ``s`` at ``t`` is the atom ``striple(s, p, o, s)`` in ``υ(t)``. The readers of this package
produce these atoms and the translations of :mod:`translator.translate` match them.
"""

from lars.model import Constant

DEFAULT_GRAPH = Constant("default")
"""The graph id of the default graph of the static dataset."""

TRIPLE = "triple"
"""Static data: ``triple(S, P, O, G)`` (Dao-Tran, Beck, Eiter 2015, §4.3 (i))."""

NAMED_GRAPH = "named_graph"
"""``named_graph(G)``: G names a named graph of the dataset (the range of ``GRAPH ?g``)."""

STRIPLE = "striple"
"""Stream data: ``striple(S, P, O, s)`` at the time the triple arrives on stream s."""
