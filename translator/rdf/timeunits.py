"""Durations, time units and the base unit of a run (D1).

Time points are integers in a **base unit** chosen per run (default seconds). A query duration
(``30m``, ``3000ms``, ``PT30M``) or an integer stream timestamp in another unit is converted to base
units; if it is not a whole multiple of the base unit that is an error, never a silent rounding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from lars.errors import RsplarsError

#: milliseconds per unit; ``m`` is minutes (C-SPARQL, CQELS), ``min`` an alias
UNIT_MS: dict[str, int] = {
    "ms": 1,
    "s": 1000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
}
UNIT_WORDS = {
    "millisecond": "ms", "milliseconds": "ms", "msec": "ms",
    "sec": "s", "second": "s", "seconds": "s",
    "minute": "m", "minutes": "m", "mins": "m",
    "hour": "h", "hours": "h",
    "day": "d", "days": "d",
}


class TimeUnitError(RsplarsError):
    """A duration or timestamp that cannot be expressed in the base unit (D1)."""


def unit_ms(unit: str) -> int:
    """Milliseconds of a unit name (``ms``, ``s``, ``m``/``min``, ``h``, ``d`` or a word)."""
    key = unit.strip().lower()
    key = UNIT_WORDS.get(key, key)
    if key not in UNIT_MS:
        raise TimeUnitError(f"unknown time unit {unit!r} (expected one of ms, s, m, h, d)")
    return UNIT_MS[key]


@lru_cache(maxsize=None)
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    """(simple ``30m``, ISO 8601 ``PT30M``) duration patterns, compiled on first use (start-up: a run
    of a cached query with no --period parses no duration text)."""
    return (re.compile(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*\Z"),
            re.compile(r"\s*P(?:(?P<d>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
                       r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?\s*\Z", re.IGNORECASE))


def _exact_ms(number: str, per_unit_ms: int, text: str) -> int:
    from fractions import Fraction

    value = Fraction(number) * per_unit_ms
    if value.denominator != 1:
        raise TimeUnitError(f"duration {text!r} is not a whole number of milliseconds")
    return int(value)


def parse_duration(text: str) -> int:
    """A duration in milliseconds: ``"3000ms"``, ``"30m"``, ``"24 h"``, ``"1.5s"``, ``"PT30M"``."""
    simple, iso = _patterns()
    m = simple.match(text)
    if m:
        return _exact_ms(m.group(1), unit_ms(m.group(2)), text)
    m = iso.match(text)
    if m and any(m.group(k) for k in "dhms"):
        total = 0
        for key, per in (("d", UNIT_MS["d"]), ("h", UNIT_MS["h"]), ("m", UNIT_MS["m"]), ("s", 1000)):
            if m.group(key):
                total += _exact_ms(m.group(key), per, text)
        return total
    raise TimeUnitError(
        f"cannot read duration {text!r} (expected a number and a unit such as 3000ms, 30s, 30m, "
        "24h, or an ISO 8601 duration such as PT30M)"
    )


def to_base_units(ms: int, unit: str, *, what: str = "duration") -> int:
    """``ms`` milliseconds in base units; D1: not a whole multiple of the base unit is an error."""
    per = unit_ms(unit)
    if ms % per:
        amount = "" if what.endswith(f"{ms}ms") else f" of {ms} ms"  # not "10ms of 10 ms"
        raise TimeUnitError(
            f"{what}{amount} is not a whole multiple of the base unit {unit} ({per} ms); "
            "choose a finer base unit with --unit"
        )
    return ms // per


def duration_in_base_units(text: str, unit: str = "s") -> int:
    """``parse_duration`` then ``to_base_units`` (D1), e.g. ``("30m", "s") -> 1800``."""
    return to_base_units(parse_duration(text), unit, what=f"duration {text!r}")


@dataclass(frozen=True)
class TimeSpec:
    """How stream timestamps become time points (D1).

    ``unit``: the base unit of the run (``--unit``, default ``s``). ``stream_unit``: the unit of
    integer timestamps in stream files (``--stream-time-unit``; ``None``: the base unit). ``epoch``:
    the time point 0 for ``xsd:dateTime`` timestamps (``--epoch``; ``None``: the first timestamp
    of the run). A dateTime without a time zone is read as UTC.
    """

    unit: str = "s"
    stream_unit: str | None = None
    epoch: datetime | None = None

    def __post_init__(self) -> None:
        unit_ms(self.unit)
        if self.stream_unit is not None:
            unit_ms(self.stream_unit)
        if self.epoch is not None:
            object.__setattr__(self, "epoch", as_utc(self.epoch))

    def integer_to_base(self, value: int) -> int:
        """An integer stream timestamp (in ``stream_unit``) in base units (D1 check)."""
        per = unit_ms(self.stream_unit or self.unit)
        return to_base_units(value * per, self.unit, what="timestamp")

    def datetime_to_base(self, value: datetime, epoch: datetime) -> int:
        """A dateTime timestamp in base units after ``epoch`` (D1 check, never rounded)."""
        delta: timedelta = as_utc(value) - epoch
        micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
        per = unit_ms(self.unit) * 1000
        if micros % per:
            raise TimeUnitError(
                f"timestamp {value.isoformat()} is not a whole number of base units ({self.unit}) "
                f"after the epoch {epoch.isoformat()}; choose a finer base unit with --unit"
            )
        return micros // per


def as_utc(value: datetime) -> datetime:
    """A dateTime with a time zone; naive ones are taken as UTC."""
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value


def parse_datetime(text: str) -> datetime:
    """An ``xsd:dateTime`` lexical form (``2004-08-08T06:05:00Z``) as an aware datetime."""
    try:
        return as_utc(datetime.fromisoformat(text.strip()))
    except ValueError:
        raise TimeUnitError(
            f"cannot read dateTime {text!r} (expected e.g. 2004-08-08T06:05:00Z)"
        ) from None
