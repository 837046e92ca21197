"""Stream elements → blocks with their look-back, in plain Python (no Spark).

The reference for what :mod:`spark_jobs.frames` computes with Spark window functions, and the
partitioned run of the unit tests: every element goes to its own block and to the later blocks whose
look-back reaches it (:meth:`spark_jobs.blocks.Blocks.blocks_of_element`). Elements are first
deduplicated like ``translator.evaluate.run.data_stream`` (the same triple twice on a stream at one time point
is one atom; the first arrival keeps its place), because tuple windows count atoms (D11).
"""

from __future__ import annotations

from typing import Iterable, Sequence

import pandas as pd

from lars.model import Atom, Variable
from spark_jobs.blocks import Blocks
from spark_jobs.lookback import LookBack, TupleNeed
from translator.rdf.streams import StreamElement
from translator.rdf.terms import from_lars, to_nt

COLUMNS = ("seq", "t", "stream", "s", "p", "o")


def elements_table(elements: Iterable[StreamElement]) -> pd.DataFrame:
    """Elements as rows ``seq, t, stream, s, p, o`` (terms in N-Triples form, ``stream`` the bare
    IRI), ``seq`` = arrival order in the merged stream."""
    texts: dict[tuple, str] = {}  # terms recur (predicates, shops, users): write each once

    def nt(term) -> str:
        key = (term.__class__, str(term), getattr(term, "datatype", None), getattr(term, "language", None))
        text = texts.get(key)
        if text is None:
            text = texts[key] = to_nt(term)
        return text

    rows = [(i, e.t, str(e.stream_iri), *(nt(x) for x in e.triple)) for i, e in enumerate(elements)]
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype({"seq": "int64", "t": "int64"})


def key_columns(key: Atom | None) -> dict[str, str]:
    """The constants a tuple window's partition key fixes, as ``{column: N-Triples text}``
    (``striple(_,_,_,s)`` → ``{"stream": "<s>"}``-style; variables are wildcards)."""
    if key is None:
        return {}
    out: dict[str, str] = {}
    for column, arg in zip(("s", "p", "o", "stream"), key.args):
        if isinstance(arg, Variable):
            continue
        term = from_lars(arg)
        out[column] = "" if term is None else to_nt(term)
    return out


def _column_text(column: str, value: str) -> str:
    return f"<{value}>" if column == "stream" and not value.startswith("<") else value


def deduplicate(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (time, stream, triple), the first arrival's; ordered by (t, seq)."""
    ordered = table.sort_values(["t", "seq"], kind="stable")
    return ordered.drop_duplicates(["t", "stream", "s", "p", "o"], keep="first").reset_index(drop=True)


def _next_times(table: pd.DataFrame, need: TupleNeed) -> list[int | None | bool]:
    """Per row: ``False`` if it does not match the need's key, else the time of the n-th next
    matching row (``None``: fewer follow)."""
    fixed = key_columns(need.key)
    matches = [all(_column_text(c, row[c]) == v for c, v in fixed.items()) for _, row in table.iterrows()]
    times = [int(t) for t, m in zip(table["t"], matches) if m]
    out: list[int | None | bool] = []
    k = 0
    for m in matches:
        if not m:
            out.append(False)
            continue
        j = k + need.n
        out.append(times[j] if j < len(times) else None)
        k += 1
    return out


def partition(table: pd.DataFrame, look: LookBack, blocks: Blocks) -> list[tuple[int, pd.DataFrame]]:
    """``[(block, rows)]`` for every block that evaluates something, its rows being its own
    elements and its look-back (columns ``block`` + :data:`COLUMNS`)."""
    rows = deduplicate(table)
    nexts = [_next_times(rows, need) for need in look.tuples if need.n > 0]
    first = ~rows.duplicated(["stream", "s", "p", "o"], keep="first")
    members: dict[int, list[int]] = {b: [] for b in range(blocks.first_block, blocks.last_block + 1)}
    for i, t in enumerate(rows["t"].tolist()):
        next_times: Sequence[int | None] = [n[i] for n in nexts if n[i] is not False]
        for b in blocks.blocks_of_element(int(t), look, next_times=next_times, first_occurrence=bool(first.iloc[i])):
            members[b].append(i)
    out = []
    for b, idx in members.items():
        part = rows.iloc[idx].copy()
        part.insert(0, "block", b)
        out.append((b, part.reset_index(drop=True)))
    return out
