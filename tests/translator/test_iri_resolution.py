"""Relative IRI references resolved against a base, RFC 3986 §5.2 (translator.query.iri): the
examples of §5.4 exactly, a property test against Oxigraph's resolver (pyoxigraph), and BASE /
PREFIX declarations of a query read through them."""

from __future__ import annotations

import pyoxigraph
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.query.iri import remove_dot_segments, resolve_iri
from translator.query.parse import parse

BASE = "http://a/b/c/d;p?q"

RFC3986_EXAMPLES = {
    # §5.4.1 normal examples
    "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/", "/g": "http://a/g",
    "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y", "#s": "http://a/b/c/d;p?q#s",
    "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s", ";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x",
    "g;x?y#s": "http://a/b/c/g;x?y#s", "": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/",
    "..": "http://a/b/", "../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
    "../../g": "http://a/g",
    # §5.4.2 abnormal examples (strict parser)
    "../../../g": "http://a/g", "../../../../g": "http://a/g", "/./g": "http://a/g", "/../g": "http://a/g",
    "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g", "g..": "http://a/b/c/g..", "..g": "http://a/b/c/..g",
    "./../g": "http://a/b/g", "./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
    "g;x=1/./y": "http://a/b/c/g;x=1/y", "g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x",
    "g?y/../x": "http://a/b/c/g?y/../x", "g#s/./x": "http://a/b/c/g#s/./x", "g#s/../x": "http://a/b/c/g#s/../x",
    "http:g": "http:g",
    # empty fragment and empty query are kept (§5.2.2: defined, though empty)
    "#": "http://a/b/c/d;p?q#", "?": "http://a/b/c/d;p?", "g?#": "http://a/b/c/g?#",
}


@pytest.mark.parametrize("reference", sorted(RFC3986_EXAMPLES))
def test_rfc3986_examples(reference: str) -> None:
    assert resolve_iri(BASE, reference) == RFC3986_EXAMPLES[reference]


def test_remove_dot_segments_of_the_rfc_walkthrough() -> None:
    # RFC 3986 §5.2.4, the two worked examples
    assert remove_dot_segments("/a/b/c/./../../g") == "/a/g"
    assert remove_dot_segments("mid/content=5/../6") == "mid/6"


_SEGMENT = st.sampled_from(["a", "b", "", ".", "..", "g;x", "c=d", "%41", "é"])
_PLAIN_SEGMENT = st.sampled_from(["a", "b", "", "g;x", "c=d", "é"])


@st.composite
def _base(draw) -> str:
    # a base without dot segments: Oxigraph keeps those of a base as they are, RFC 3986 removes them
    path = "/".join(draw(st.lists(_PLAIN_SEGMENT, max_size=4)))
    return "http://h/" + path + draw(st.sampled_from(["", "?q", "?", "#f"]))


@st.composite
def _reference(draw) -> str:
    segments = draw(st.lists(_SEGMENT, max_size=4))
    path = ("/" if draw(st.booleans()) else "") + "/".join(segments)
    if path.startswith("//"):  # a network-path reference; Oxigraph keeps its dot segments
        path = "/" + path.lstrip("/")
    if ":" in path.split("/")[0]:
        path = "./" + path
    return path + draw(st.sampled_from(["", "?", "?y", "#", "#s", "?y#s"]))


_STORE = pyoxigraph.Store()


@settings(max_examples=300, deadline=None)
@given(_base(), _reference())
def test_resolution_agrees_with_oxigraph(base: str, reference: str) -> None:
    rows = list(_STORE.query(f"BASE <{base}> SELECT (<{reference}> AS ?x) {{}}"))
    assert resolve_iri(base, reference) == rows[0]["x"].value


@pytest.mark.parametrize(("prologue", "expected"), [
    ("BASE <http://example.org/x/> PREFIX : <#>", "http://example.org/x/#a"),
    ("BASE <http://example.org/x/y> PREFIX : <?>", "http://example.org/x/y?a"),
    ("BASE <http://example.org/x/y/z> PREFIX : <../>", "http://example.org/x/a"),
    ("BASE <http://example.org/x/> BASE <#> PREFIX : <>", "http://example.org/x/a"),  # the base's fragment goes
    ("PREFIX : <http://example.org/x/./y/../>", "http://example.org/x/./y/../a"),
])
def test_prefix_declarations_resolve_against_base(prologue: str, expected: str) -> None:
    query = parse(f"{prologue} SELECT * WHERE {{ ?s :a ?o }}", dialect="rspql")
    assert query.where.parts[0].triples[0].predicate.value == expected
