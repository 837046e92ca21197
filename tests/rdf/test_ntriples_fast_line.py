"""The common-line regex of the timestamped N-Triples reader (``translator.rdf.streams._FAST_LINE``)
admits blank node labels in ASCII only; a line it does not take goes through the general reader.
Both must read every line the same way, and non-ASCII labels must still be read (RDF 1.1 N-Triples
§2.3, ``BLANK_NODE_LABEL``)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from translator.rdf.streams import _FAST_LINE, _ntriples_line, _ntriples_raws
from translator.rdf.terms import BLANK_NODE_LABEL

LABEL = re.compile(rf"{BLANK_NODE_LABEL}\Z")
CHARS = "aZ_:-.09é·\u0300\u203f"  # ASCII and non-ASCII PN_CHARS, '.', and a few that are no label


@settings(max_examples=400, deadline=None)
@given(label=st.text(CHARS, min_size=1, max_size=6), where=st.sampled_from(["s", "o"]))
def test_fast_and_general_reader_agree_on_blank_node_labels(label: str, where: str) -> None:
    node = "_:" + label
    s, o = (node, "<http://e/o>") if where == "s" else ("<http://e/s>", node)
    line = f'{s} <http://e/p> {o} "3" .'
    fast = _FAST_LINE.match(line)
    ascii_label = label.isascii()
    if fast is not None:  # the fast path only ever takes labels that are valid and in ASCII
        assert ascii_label and LABEL.match(node)
    elif ascii_label and LABEL.match(node):
        raise AssertionError(f"a valid ASCII label left to the slow path: {line!r}")
    if LABEL.match(node):
        (raw,) = list(_ntriples_raws([line], "t.nt"))
        assert raw == _ntriples_line(line, 1, line, "t.nt")._replace(column=raw.column)
        term = raw.triple[0] if where == "s" else raw.triple[2]
        assert str(term) == label


def test_non_ascii_label_read_by_the_general_reader() -> None:
    (raw,) = list(_ntriples_raws(['_:bé <http://e/p> _:c·d "7" .'], "t.nt"))
    assert (str(raw.triple[0]), str(raw.triple[2]), raw.time) == ("bé", "c·d", 7)
