"""The inputs of a live run: the elements rsplars read (any stream format of docs/rdf-io.md, in the base
unit) written per stream as timestamped N-Triples in the engine's time unit, so that every engine reads
one simple format whatever the user's files are."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from lars.errors import RsplarsError
from translator.engines.protocol import EngineInput, StreamFile
from translator.rdf.streams import StreamElement
from translator.rdf.terms import to_nt
from translator.rdf.timeunits import unit_ms


def convert_time(t: int, from_unit: str, to_unit: str) -> int:
    """``t`` in ``from_unit`` as a whole number of ``to_unit`` (rounded down)."""
    return t * unit_ms(from_unit) // unit_ms(to_unit)


def prepare_input(query: str | Path, streams: Sequence[tuple[str, str]], elements: Iterable[StreamElement],
                  static: Sequence[str], workdir: Path, *, base_unit: str, engine_unit: str) -> EngineInput:
    """Write each stream's elements (``streams``: ``(IRI, user's file)`` in command-line order) to
    ``workdir/stream-K.nt`` in ``engine_unit``; elements keep their order (time, then arrival)."""
    workdir.mkdir(parents=True, exist_ok=True)
    by_iri: dict[str, list[StreamElement]] = {iri: [] for iri, _ in streams}
    for e in elements:
        iri = str(e.stream_iri)
        if iri in by_iri:
            by_iri[iri].append(e)
    files = []
    for k, (iri, source) in enumerate(streams, start=1):
        path = workdir / f"stream-{k}.nt"
        last = None
        with path.open("w", encoding="utf-8") as out:
            for e in by_iri[iri]:
                t = convert_time(e.t, base_unit, engine_unit)
                s, p, o = (to_nt(x) for x in e.triple)
                out.write(f'{s} {p} {o} "{t}" .\n')
                last = t
        files.append(StreamFile(iri, str(Path(source).resolve()) if source != "-" else source, path, last))
    query_path = Path(query)
    if not query_path.is_file():
        raise RsplarsError(f"{query}: a live engine reads the query from a file (not stdin)")
    return EngineInput(query_path.resolve(), tuple(files), tuple(Path(s).resolve() for s in static), workdir, base_unit)
