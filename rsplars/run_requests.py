"""The checks every run request passes before it is read or compiled, sequential or on Spark
(:func:`rsplars.run`, :func:`rsplars.evaluations`, :mod:`rsplars.spark`)."""

from __future__ import annotations

from lars.errors import RsplarsError
from translator.options import TranslationOptions

__all__ = ["check_run_request"]


def check_run_request(options: TranslationOptions, start: int | None, end: int | None) -> None:
    """One query at a time (``cqels-all`` gives several) over a range ``[start, end]`` that lies on
    the timeline (it starts at 0)."""
    if options.as_variant == "cqels-all":
        raise RsplarsError("as_variant cqels-all gives several queries; run them one by one (cqels-brave, "
                           "cqels-cautious)")
    if start is not None and end is not None and start > end:
        raise RsplarsError(f"start {start} is after end {end}")
    if end is not None and end < 0:
        raise RsplarsError(f"end {end} lies before the start 0 of the timeline")
