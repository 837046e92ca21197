"""The start-up of ``rsplars run`` and ``rsplars lars`` without the cyclic garbage collector.

Start-up imports the modules of the run (rdflib, the query and LARS models, the translator, the
engine), reads the cached query or program and translates it: tens of thousands of objects that
nearly all live to the end of the process. Python's collector walks them again every few hundred
allocations (some sixty collections, 10–25 ms of a 0.3 s start-up on the project's 2-core
machine, docs/performance.md, session 8) and finds next to nothing to free (a few hundred objects
in reference cycles). So when :func:`translator.cli.main.main` runs the process's own command line
(``rsplars …``, ``python -m translator …``: ``argv`` not given), it pauses the collector for these
two commands (:func:`paused`) while their modules are imported and the query or program is read
and translated. :func:`resume` ends the pause before any data is read (stream or static data:
``translator.cli.commands.common.read_data``/``static_data``, ``rsplars lars`` before its stream)
and, at the latest, before the first evaluation (``translator.cli.commands.longrun.write_run``):
the objects made so far are frozen (``gc.freeze()``, as ``rsplars agree`` does with its data: a
later collection does not walk them again; the few start-up cycles among them are never freed)
and the collector is switched on, so that reading data and evaluating a stream, however long, run
with the collector, its first generation collected every :data:`EVALUATION_THRESHOLD`
allocations. It is on again in any case when the command returns (also on an error). A program or
test calling ``main([...])`` keeps its collector untouched.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

#: the commands whose start-up runs without the collector (both evaluate through ``write_run``)
COMMANDS = ("run", "lars")

_paused = False


@contextmanager
def paused(command: str | None) -> Iterator[None]:
    """The collector off inside this block for the commands of :data:`COMMANDS` (when it was on),
    and on again at its end unless :func:`resume` switched it on already."""
    global _paused
    pause = command in COMMANDS and gc.isenabled() and not _paused
    if pause:
        gc.disable()
        _paused = True
    try:
        yield
    finally:
        if pause:
            resume()


def resume() -> None:
    """Start-up is over: if :func:`paused` switched the collector off, freeze the objects made
    since (they are the run's modules, query, program and data: a collection would walk them and
    free nothing) and switch the collector on again."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.set_threshold(EVALUATION_THRESHOLD, *gc.get_threshold()[1:])
        gc.enable()


#: the collector's first threshold while a stream is evaluated (Python's default: 700 allocations).
#: An evaluation makes and drops rows, texts and dicts by the million, nearly none in reference
#: cycles; at 700 the collector runs thousands of times and frees next to nothing (avg_count on
#: 300 s of the SRBench-style stream: 3.233 G instructions at 700, 3.163 G at 10,000). The
#: youngest generation then holds up to this many objects more before a collection: a bounded
#: amount (about a megabyte), so memory stays flat however long the stream.
EVALUATION_THRESHOLD = 10_000
