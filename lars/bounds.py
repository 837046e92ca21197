"""The bound of every cache keyed by terms or their texts (memory flat however long the
stream).

In a real stream nearly every observation is a new IRI and nearly every measurement a new value,
so a cache keyed by terms, texts, rows or values of the stream grows with the stream unless it is
bounded. The caches of the engine (``lars.incremental``, ``lars.incremental.aggregates``) and of
the translator's readers, functions and writers hold at most ``TERM_CACHE_SIZE`` entries each: they
are emptied (or evict, ``functools.lru_cache``) when full. That many entries cover what recurs —
predicates, graphs, sensors, the terms and values of the windows being evaluated — and bound a
cache to a few MiB, so that a run's memory stops growing once its caches are full, a few
thousand terms into the stream. (A cache emptied early costs a recomputation, never an answer.)
"""

TERM_CACHE_SIZE = 4096
