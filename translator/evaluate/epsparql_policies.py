"""The names of the EP-SPARQL selection and consumption policies (Dell'Aglio et al. 2016, §4.3–4.4:
Eqs. 7, 10, 11; P^u, P^c, P^r) and of the readings of SEQ^c / SEQ^r, in a module of their own so that the command line
can offer them without importing the EP-SPARQL engine (``translator.evaluate.epsparql_run``).
"""

SELECTIONS = ("unrestricted", "chronological", "recent")
CONSUMPTIONS = ("unrestricted", "chronological", "recent")
READINGS = ("per-mapping", "per-key", "greedy", "literal")
"""How SEQ^c / SEQ^r read the quantifier "no earlier/later E2 match" (Dell'Aglio et al. 2016, §4.3;
Eq. 11 as printed disagrees with the paper's Example 10): ``per-mapping`` (only the same E2
mapping counts, default), ``per-key`` (E2 mappings that agree on the variables shared with E1),
``greedy`` (a one-to-one pairing, latest E2 first), ``literal`` (Eq. 11 as printed: over all E2
candidates)."""

