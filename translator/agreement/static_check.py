"""Static check of condition (ii) of Dao-Tran, Beck, Eiter 2015, §5, before any run.

τ1 (C-SPARQL) merges stream triples into the default graph; τ2 (CQELS) reads them only through
stream graph patterns. The two build the same dataset only if "the static dataset and the input
streams do not share patterns" (Dao-Tran, Beck, Eiter 2015, §5). Concretely, condition (ii) is violated by

* a **stream triple pattern** (inside a stream graph pattern ``(s, ω, g)``) that matches a triple of
  the static data: τ1 answers from the static triple even when the stream is silent, τ2 does not;
* a **static triple pattern** (outside every stream graph pattern) that matches a triple of some
  input stream: τ1 sees the streamed triple in its default graph, τ2 does not.

Patterns and triples are plain tuples of N-Triples term strings; a position starting with ``?`` or
``$`` is a variable. A pattern matches a triple when one substitution of its variables makes them
equal (a repeated variable must bind the same term: SPARQL basic graph pattern matching).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from translator.rdf.triple_match import Triple, TriplePattern, is_variable, matches  # noqa: F401 (re-exported)


@dataclass(frozen=True)
class PatternOverlap:
    """A pattern that can match data from the other side, with one witness triple.

    ``side`` is ``"stream-pattern-matches-static"`` or ``"static-pattern-matches-stream"``; ``stream``
    is the stream IRI of the pattern (first kind) or of the witness triple (second kind).
    """

    side: str
    pattern: TriplePattern
    stream: str
    witness: Triple
    matches: int  # how many triples of the other side it matches in all


@dataclass(frozen=True)
class StaticCheck:
    """The result: empty ``overlaps`` means condition (ii) holds for this data."""

    overlaps: tuple[PatternOverlap, ...]

    @property
    def condition_ii_holds(self) -> bool:
        return not self.overlaps


def check_condition_ii(
    stream_patterns: Mapping[str, Iterable[TriplePattern]],
    static_patterns: Iterable[TriplePattern],
    static_triples: Iterable[Triple],
    stream_triples: Mapping[str, Iterable[Triple]],
) -> StaticCheck:
    """List the stream patterns matching static data and the static patterns matching stream data.

    ``stream_patterns``: stream IRI → the triple patterns of its stream graph patterns;
    ``stream_triples``: stream IRI → the triples of that stream (time stamps do not matter here).
    The result is sorted (by side, stream, pattern) so that reports are deterministic.
    """
    static_list = list(dict.fromkeys(static_triples))
    overlaps: list[PatternOverlap] = []
    for stream, patterns in stream_patterns.items():
        for pattern in dict.fromkeys(patterns):
            hits = [t for t in static_list if matches(pattern, t)]
            if hits:
                overlaps.append(PatternOverlap("stream-pattern-matches-static", pattern, stream, min(hits), len(hits)))
    stream_lists = {iri: list(dict.fromkeys(triples)) for iri, triples in stream_triples.items()}
    for pattern in dict.fromkeys(static_patterns):
        for stream, triples in stream_lists.items():
            hits = [t for t in triples if matches(pattern, t)]
            if hits:
                overlaps.append(PatternOverlap("static-pattern-matches-stream", pattern, stream, min(hits), len(hits)))
    overlaps.sort(key=lambda o: (o.side, o.stream, o.pattern))
    return StaticCheck(tuple(overlaps))


def render_static_check(check: StaticCheck) -> str:
    """Plain-text lines for stdout: one line per overlapping pattern, or a line saying (ii) holds."""
    if check.condition_ii_holds:
        return "condition (ii) holds: no stream pattern matches static data, no static pattern matches stream data\n"
    lines = [f"condition (ii) violated: {len(check.overlaps)} pattern(s) shared by static and stream data"]
    for o in check.overlaps:
        pattern = " ".join(o.pattern)
        witness = " ".join(o.witness)
        if o.side == "stream-pattern-matches-static":
            lines.append(f"  stream pattern  {pattern}  (stream {o.stream}) matches {o.matches} static triple(s), e.g. {witness}")
        else:
            lines.append(f"  static pattern  {pattern}  matches {o.matches} triple(s) of stream {o.stream}, e.g. {witness}")
    return "\n".join(lines) + "\n"
