"""Static (background) data: the dataset ``D`` of a query (seed 000 §3, spec 000 §1).

``--static FILE`` (repeatable) is read into the default graph, ``--named IRI=FILE`` into the named
graph ``IRI``; any syntax rdflib reads (Turtle, N-Triples, N3, RDF/XML, JSON-LD, TriG, N-Quads …,
guessed from the extension). In the LARS view a triple ``(s, p, o)`` of graph ``g`` is the fact
``triple(s, p, o, g)`` (seed 000 §4.3), see :func:`dataset_quads`.

Parse errors become :class:`lars.errors.SourceError` with the line (and column) where rdflib
reports one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from rdflib import Dataset, Graph, URIRef
from rdflib.util import guess_format

from lars.errors import RsplarsError, SourceError
from lars.model import Atom, Constant, Rule, String
from translator.rdf.terms import RDFTerm, canonical, keep_lexical_forms, to_lars
from translator.rdf.predicates import DEFAULT_GRAPH, TRIPLE  # the names of seed 000 §4.3 (i)

#: extensions rdflib's guess_format does not know
_EXTRA_FORMATS = {".ttl": "turtle", ".nq": "nquads", ".jsonld": "json-ld", ".json": "json-ld"}
QUAD_FORMATS = ("trig", "nquads", "trix", "json-ld")


def rdf_format(path: str | Path, fmt: str | None = None) -> str:
    """The rdflib format name for ``path``: ``fmt`` if given, else guessed from the extension."""
    if fmt:
        return fmt
    suffix = Path(path).suffix.lower()
    return guess_format(str(path)) or _EXTRA_FORMATS.get(suffix) or "turtle"


def _parse_into(graph: Graph, path: str | Path, fmt: str | None) -> None:
    from rdflib.plugins.parsers.notation3 import BadSyntax

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RsplarsError(f"static data file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RsplarsError(f"cannot read static data file {path}: {err}") from None
    fmt = rdf_format(path, fmt)
    try:
        with keep_lexical_forms():
            graph.parse(data=text, format=fmt, publicID=path.resolve().as_uri())
    except BadSyntax as err:
        start = text.rfind("\n", 0, err._i) + 1  # noqa: SLF001 - rdflib keeps the offset there
        raise SourceError(
            f"{fmt} syntax error: {err._why}", source=str(path), line=err.lines + 1,  # noqa: SLF001
            column=err._i - start + 1, text=text, expected=f"valid {fmt}",
        ) from None
    except Exception as err:  # noqa: BLE001 - rdflib's parsers raise many exception types
        line = _line_of(err)
        raise SourceError(
            f"{fmt} syntax error: {_first_line(err)}", source=str(path), line=line,
            text=text if line else None, expected=f"valid {fmt}",
        ) from None


def _line_of(err: Exception) -> int | None:
    """The line an rdflib parser error names (SAX errors, N-Triples/N-Quads ``Invalid line``)."""
    getter = getattr(err, "getLineNumber", None)
    if callable(getter):
        try:
            return int(getter())
        except (TypeError, ValueError):
            return None
    m = re.search(r"\bline:? (\d+)", str(err), re.IGNORECASE)
    return int(m.group(1)) if m else None


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def load_static(path: str | Path, fmt: str | None = None) -> Graph:
    """One static data file as an rdflib ``Graph`` (``--static FILE``)."""
    graph = Graph()
    _parse_into(graph, path, fmt)
    return graph


def load_dataset(
    static: Sequence[str | Path] = (),
    named: Mapping[str, str | Path] | None = None,
    fmt: str | None = None,
) -> Dataset:
    """The static dataset: every ``static`` file into the default graph, each ``named`` IRI → file
    into that named graph. A quad file (TriG, N-Quads) given as ``static`` keeps its own named
    graphs."""
    ds = Dataset()
    for path in static:
        if rdf_format(path, fmt) in QUAD_FORMATS:
            _parse_into(ds, path, fmt)
        else:
            _parse_into(ds.default_graph, path, fmt)
    for iri, path in (named or {}).items():
        _parse_into(ds.graph(URIRef(iri)), path, fmt)
    return ds


def dataset_quads(ds: Dataset) -> Iterator[tuple[RDFTerm, RDFTerm, RDFTerm, URIRef | None]]:
    """Every triple of the dataset with its graph: ``None`` for the default graph, else the
    graph IRI; terms canonical (:func:`translator.rdf.terms.canonical`), order deterministic."""
    default = ds.default_graph.identifier
    rows = []
    for s, p, o, g in ds.quads((None, None, None, None)):
        graph = None if g is None or g == default else g
        rows.append((canonical(s), canonical(p), canonical(o), graph))
    rows.sort(key=lambda q: tuple("" if x is None else x.n3() for x in q))
    return iter(rows)




def static_facts(ds: Dataset, *, predicate: str = TRIPLE,
                 default_graph: Constant = DEFAULT_GRAPH) -> tuple[Rule, ...]:
    """The static dataset as LARS facts ``triple(S, P, O, G)`` (seed 000 §4.3 (i)): ``G`` is
    ``default`` for the default graph, else the graph IRI's term (:func:`to_lars`). Facts hold at
    every time point (D11)."""
    facts = []
    for s, p, o, g in dataset_quads(ds):
        graph: Constant | String = default_graph if g is None else to_lars(g)  # type: ignore[assignment]
        facts.append(Rule(Atom(predicate, (to_lars(s), to_lars(p), to_lars(o), graph))))
    return tuple(facts)


def time_varying_facts(ds: Dataset, start: int | None, end: int | None, *, predicate: str = TRIPLE,
                       default_graph: Constant = DEFAULT_GRAPH) -> tuple[Rule, ...]:
    """A static dataset that holds only from ``start`` to ``end`` (base units, both included;
    ``None``: unbounded) — one piece of a time-varying graph G(t) (seed 001 Def 10, Example 4,
    spec 001 T14). Each triple is the LARS rule ``triple(S, P, O, G) ← ⊞^0 @_T true, T ≥ start,
    T ≤ end``: true exactly at the time points of the interval (``--static-during``, docs/check.md)."""
    from lars.model import NOW, TRUE, Comparison, Integer, Literal, Variable, WindowAt

    T = Variable("T")
    guard: list = [Literal(WindowAt(NOW, TRUE, T))]
    if start is not None:
        guard.append(Comparison(">=", T, Integer(start)))
    if end is not None:
        guard.append(Comparison("<=", T, Integer(end)))
    return tuple(Rule(rule.head, tuple(guard)) for rule in static_facts(ds, predicate=predicate,
                                                                        default_graph=default_graph))
