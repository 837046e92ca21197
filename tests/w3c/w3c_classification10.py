"""Which W3C SPARQL 1.0 evaluation tests (DAWG data-r2, ``tests/data/w3c-sparql10/``) rsplars does
not pass, by name, and why; and which ones rdflib's own SPARQL engine does not pass.

The lists mean what they mean for SPARQL 1.1 (``w3c_classification``, module docstring): every test
not listed passes (``test_sparql10_suite.py`` measures each one, answers compared as bags).
"""

from __future__ import annotations

from w3c_classification import NOT_EXAMINED, Classification


UNSUPPORTED: dict[str, tuple[str, str]] = {
    # test -> (the feature as the coverage table names it, the text the CLI's error must contain)
}

DUPLICATES: dict[str, str] = {
    # test -> the duplicate solutions of its expected result
}

BY_VALUE: set[str] = {
    "expr-ops/add-numbers-cast", "expr-ops/subtract-numbers-cast", "expr-ops/multiply-numbers-cast",
    "expr-ops/divide-numbers-cast", "expr-ops/unplus-2", "expr-ops/unminus-2",
}


FAILED: dict[str, tuple[str, str, str]] = {
    # test -> (measured status, cause, what goes wrong)
}

RDFLIB_NORMALISES = ("rdflib rewrites the data's literals as it parses them (`\"01\"^^xsd:integer` as `\"1\"`), so "
                     "terms SPARQL keeps apart become one")
RDFLIB_DATETIME = "an xsd:dateTime with a time zone compared with one without otherwise than XML Schema's ±14:00 rule"
RDFLIB_FLOAT = ("arithmetic on an xsd:float gives another type (`+f` and `f / f` an xsd:double, `f * 3.0` an "
                "xsd:decimal; SPARQL 1.1 §17.3: xsd:float)")
RDFLIB_DATE_ZONE = "rdflib drops the time zone of an xsd:date as it parses it (`\"2001-01-01Z\"` as `\"2001-01-01\"`)"
RDFLIB_Q_FLAG = "the `q` flag (no metacharacters) is not read: the pattern fails as a Python regular expression"
RDFLIB_X_FLAG = "the `x` flag (whitespace ignored) is not read"

RDFLIB_FAILED: dict[str, tuple[str, str]] = {
    # test -> (rdflib's measured status, what goes wrong; NOT_EXAMINED where the cause was not looked into)
    "basic/term-6": ("wrong", NOT_EXAMINED),
    "basic/term-7": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-04": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-06": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-08": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-10": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-11": ("wrong", NOT_EXAMINED),
    "open-world/open-eq-12": ("wrong", NOT_EXAMINED),
    "open-world/date-1": ("wrong", NOT_EXAMINED),
    "open-world/date-2": ("wrong", RDFLIB_DATE_ZONE),
    "open-world/date-3": ("wrong", NOT_EXAMINED),
    "open-world/date-4": ("wrong", RDFLIB_DATE_ZONE),
    "open-world/open-cmp-01": ("wrong", NOT_EXAMINED),
    "open-world/open-cmp-02": ("wrong", NOT_EXAMINED),
    "graph/graph-not-exist": ("wrong", "`GRAPH ex:unknown {}` gives one empty solution (a graph the dataset does "
                                       "not name matches nothing)"),
    "expr-builtin/dawg-str-1": ("wrong", RDFLIB_NORMALISES),
    "expr-builtin/dawg-str-2": ("wrong", RDFLIB_NORMALISES),
    "expr-builtin/sameTerm-simple": ("wrong", RDFLIB_NORMALISES),
    "expr-builtin/sameTerm-eq": ("wrong", RDFLIB_NORMALISES),
    "expr-builtin/sameTerm-not-eq": ("wrong", RDFLIB_NORMALISES),
    "expr-ops/dateTime-le-2": ("wrong", RDFLIB_DATETIME),
    "expr-ops/dateTime-ge-2": ("wrong", RDFLIB_DATETIME),
    "expr-ops/dateTime-lt-2": ("wrong", RDFLIB_DATETIME),
    "expr-ops/dateTime-gt-2": ("wrong", RDFLIB_DATETIME),
    "expr-ops/multiply-numbers-cast": ("wrong", RDFLIB_FLOAT),
    "expr-ops/divide-numbers-cast": ("wrong", RDFLIB_FLOAT),
    "expr-ops/unplus-2": ("wrong", RDFLIB_FLOAT),
    "expr-ops/unminus-2": ("wrong", RDFLIB_FLOAT),
    "expr-equals/eq-graph-1": ("wrong", NOT_EXAMINED),
    "expr-equals/eq-graph-2": ("wrong", NOT_EXAMINED),
    "expr-equals/eq-dateTime": ("wrong", RDFLIB_DATETIME),
    "regex/regex-no-metacharacters": ("error", RDFLIB_Q_FLAG),
    "regex/regex-no-metacharacters-case-insensitive": ("error", RDFLIB_Q_FLAG),
    "regex/regex-ignore-whitespaces": ("wrong", RDFLIB_X_FLAG),
    "regex/regex-ignore-whitespaces-class-expression": ("wrong", RDFLIB_X_FLAG),
    "distinct/distinct-1": ("wrong", RDFLIB_NORMALISES),
    "distinct/distinct-2": ("wrong", NOT_EXAMINED),
    "distinct/distinct-9": ("wrong", NOT_EXAMINED),
}

SPARQL10 = Classification(UNSUPPORTED, DUPLICATES, BY_VALUE, FAILED, RDFLIB_FAILED)

SYNTAX_FAILED: dict[str, str] = {
    # syntax test -> what goes wrong: a positive test rsplars does not read, a negative one it reads
}
