"""Query errors found by make fuzz without a position now have one."""

from __future__ import annotations

import pytest

from lars.errors import SourceError
from translator.query.parse import parse


@pytest.mark.parametrize("dialect, text, position", [
    ("csparql", "SELECT ?c\nWHERE { ?s <http://p> ?c }", None),
    ("csparql", "\n  CONSTRUCT { _:a <http://p>/<http://q> ?c . } WHERE { ?s <http://p> ?c }", (2, 3)),
    ("epsparql", "CONSTRUCT { _:a <http://p>/<http://q> ?c . }\nWHERE { ?s <http://p> ?c }", (1, 1)),
])
def test_property_path_in_construct_template_is_located(dialect, text, position):
    if position is None:
        parse(text, dialect)  # a plain query reads
        return
    with pytest.raises(SourceError) as err:
        parse(text, dialect, source="q.rq")
    assert (err.value.line, err.value.column) == position
    assert str(err.value).startswith(f"q.rq:{position[0]}:{position[1]}: a property path is not allowed")
