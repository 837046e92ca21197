"""Which W3C SPARQL 1.1 evaluation tests rsplars does not pass, by name, and why; and which ones
rdflib's own SPARQL engine does not pass (the reference column of docs/conformance.md).

Every test not listed here must pass (``test_sparql11_suite.py`` measures each one, answers compared
as bags, ``w3c_results``). The lists:

* :data:`UNSUPPORTED`: the query uses a feature the coverage table of docs/coverage.md calls unsupported;
  the test asserts that ``rsplars run`` refuses it *by name* (exit 2, ``unsupported in translation
  to LARS: …`` or a located ``unsupported: …`` naming the feature), so that it cannot give a wrong
  answer;
* :data:`DUPLICATES`: the expected bag holds a solution more than once and rsplars' answers do not
  (none is listed since answers are multisets, D5); the test asserts that the answers equal the
  expected result read as a set (nothing else differs);
* :data:`BY_VALUE`: tests that pass with numbers compared by value but not by their lexical forms
  (the expected results write computed numbers in forms SPARQL does not fix: ``2.0E-1`` for
  ``2E-1``, ``1050`` for a double rsplars writes ``1.05E3``, ``2`` for ``2.0``; and some rewrite the
  data's own numbers, which rsplars keeps as written: ``1.0`` for the data's ``1E0``); measured too;
* :data:`FAILED`: tests in a supported category that rsplars does not pass, each with its measured
  status (``error``: refused with another message; ``wrong``: other answers), its cause (one of
  :data:`CAUSES`) and what goes wrong; the test asserts that they still fail so, so that a fix
  shows up here;
* :data:`RDFLIB_FAILED`: the tests rdflib's engine (rdflib 7, default settings) does not pass, with
  its measured status and, where it was looked into, what goes wrong; every other test rdflib
  passes.
"""

from __future__ import annotations

from dataclasses import dataclass

SUBQUERY_LIMIT = ("LIMIT in a sub-query", "LIMIT in a sub-query")


UNSUPPORTED: dict[str, tuple[str, str]] = {
    # test -> (the feature as the coverage table names it, the text the CLI's error must contain)
    "bindings/graph": ("VALUES binding the variable of GRAPH ?g inside it",
                       "VALUES directly inside GRAPH ?var or STREAM ?var"),
    "subquery/subquery11": SUBQUERY_LIMIT,
    "subquery/subquery14": SUBQUERY_LIMIT,
}

DUPLICATES: dict[str, str] = {
}

BY_VALUE: set[str] = {
    "aggregates/agg-min-02", "aggregates/agg-avg-distinct", "aggregates/agg-sum-distinct", "cast/cast-float",
    "cast/cast-double", "cast/cast-decimal", "functions/ceil01", "functions/floor01", "functions/round01",
    "functions/seconds",
}

FAILED: dict[str, tuple[str, str, str]] = {
    # test -> (measured status: "error" = refused with another message, "wrong" = other answers; cause; what goes wrong)
}

NOT_EXAMINED = "(not examined)"
RDFLIB_CASTS = ("casts of the data's literals give other terms; rdflib also rewrites those literals as it parses "
                "them (`\"0\"^^xsd:boolean` as `\"false\"`)")
RDFLIB_EMPTY_GROUP = "GROUP BY over no solutions gives one empty solution (no group, so no solution)"
RDFLIB_STRDT = "STRDT of a literal that is not a simple literal gives a value (SPARQL 1.1 §17.4.2.10: an error)"
RDFLIB_INVERSE_NPS = "a negated property set with an inverse `!(^:p)` raises an exception"

RDFLIB_FAILED: dict[str, tuple[str, str]] = {
    # test -> (rdflib's measured status, what goes wrong; NOT_EXAMINED where the cause was not looked into)
    "aggregates/agg-err-01": ("wrong", "AVG over a group holding a non-number is a value (SPARQL 1.1 §18.5: an "
                                       "error, so unbound)"),
    "aggregates/agg-empty-group-max-1": ("wrong", RDFLIB_EMPTY_GROUP),
    "aggregates/agg-empty-group-count-1": ("wrong", RDFLIB_EMPTY_GROUP),
    "aggregates/agg-group-fn": ("wrong", NOT_EXAMINED),
    "cast/cast-bool": ("wrong", RDFLIB_CASTS),
    "cast/cast-int": ("wrong", RDFLIB_CASTS),
    "cast/cast-float": ("wrong", RDFLIB_CASTS),
    "cast/cast-double": ("wrong", RDFLIB_CASTS),
    "cast/cast-decimal": ("wrong", RDFLIB_CASTS),
    "cast/cast-string": ("wrong", RDFLIB_CASTS),
    "functions/strdt01": ("wrong", RDFLIB_STRDT),
    "functions/strdt03-rdf11": ("wrong", RDFLIB_STRDT),
    "functions/strlang03-rdf11": ("wrong", "STRLANG of an `xsd:string` is unbound (RDF 1.1: a simple literal is an "
                                           "`xsd:string`)"),
    "functions/concat-empty": ("wrong", "CONCAT() of no arguments is unbound (SPARQL 1.1: `\"\"`)"),
    "functions/timezone": ("wrong", "TIMEZONE of a UTC time is written `P0D` (the expected term: `PT0S`)"),
    "functions/bnode01": ("wrong", "BNODE(str) gives one blank node for equal strings in different solutions "
                                   "(§17.4.2.9: fresh per solution)"),
    "functions/coalesce-empty": ("error", "COALESCE binds a Python string, not an RDF term"),
    "functions/replace-case-insensitive": ("wrong", "REPLACE ignores the `i` flag"),
    "project-expression/projexp03": ("wrong", NOT_EXAMINED),
    "property-path/pp37": ("wrong", "a `*` path gives a pair of ends more than once (§18.4: once)"),
    "property-path/values_and_path": ("wrong", NOT_EXAMINED),
    "property-path/nps_inverse": ("error", RDFLIB_INVERSE_NPS),
    "property-path/nps_direct_and_inverse": ("error", RDFLIB_INVERSE_NPS),
    "property-path/nps_a_inverse": ("error", RDFLIB_INVERSE_NPS),
    "subquery/subquery13": ("wrong", NOT_EXAMINED),
}


CAUSES = ("bags", "ORDER BY of non-projected variables", "parser", "functions", "datetime", "optional SPARQL 1.0 features",
          "internal error", "other")
"""The causes a failed test is filed under (docs/conformance.md groups the failed tests by them)."""


@dataclass(frozen=True)
class Classification:
    """The lists of one suite (module docstring)."""

    unsupported: dict[str, tuple[str, str]]
    duplicates: dict[str, str]
    by_value: set[str]
    failed: dict[str, tuple[str, str, str]]
    rdflib_failed: dict[str, tuple[str, str]]

    def expected_status(self, key: str) -> str:
        """The status the classification expects of rsplars on a test (``passed`` unless listed)."""
        if key in self.unsupported:
            return "unsupported"
        if key in self.duplicates:
            return "wrong"
        if key in self.failed:
            return self.failed[key][0]
        return "passed"

    def expected_rdflib(self, key: str) -> str:
        """The status the classification expects of rdflib on a test."""
        return self.rdflib_failed[key][0] if key in self.rdflib_failed else "passed"

    def passes(self, key: str) -> bool:
        return self.expected_status(key) == "passed"


SPARQL11 = Classification(UNSUPPORTED, DUPLICATES, BY_VALUE, FAILED, RDFLIB_FAILED)
