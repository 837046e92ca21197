"""The names of the EP-SPARQL selection and consumption policies (seed 003: Eqs. 7, 10, 11; P^u,
P^c, P^r) and of the readings of SEQ^c / SEQ^r, in a module of their own so that the command line
can offer them without importing the EP-SPARQL engine (``translator.evaluate.epsparql_run``).
"""

SELECTIONS = ("unrestricted", "chronological", "recent")
CONSUMPTIONS = ("unrestricted", "chronological", "recent")
READINGS = ("per-mapping", "per-key", "greedy", "literal")
"""How SEQ^c / SEQ^r read the quantifier "no earlier/later E2 match" (spec 003-rsepql.md §6.7,
erratum 9): ``per-mapping`` (R-i, default), ``per-key`` (R-ii), ``greedy`` (R-iii), ``literal``
(Eq. 11 as printed: over all E2 candidates)."""

