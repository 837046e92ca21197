"""Units of window durations (``lars.syntax``, ``lars.printer``; D1), in a module of their
own so that the printer and the engine do not import the parser (Lark) to know them."""

from __future__ import annotations

UNIT_MS: dict[str, int] = {
    "ms": 1,
    "msec": 1,
    "s": 1000,
    "sec": 1000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
}
"""Length of each unit of a window duration in milliseconds."""

DEFAULT_BASE_UNIT = "s"
"""The base tick of time points when a run does not choose one (D1: seconds)."""
