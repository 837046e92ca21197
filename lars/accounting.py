"""Counting stream elements so that none is lost silently (docs/robustness.md).

Every reader of stream elements (``lars.streams``, ``translator.rdf.streams``,
``spark_jobs.elements``) takes an optional :class:`Accounting`: it counts the elements read, and a
malformed or out-of-order element either stops the run (the reader raises its located
:class:`~lars.errors.SourceError`) or, with ``skip_bad`` (``--skip-bad-elements``), is recorded
with its file, line and reason and skipped. Duplicates (the same element twice at one time point
of one stream, kept once since ``υ(t)`` is a set, seed 000 §2.3) and the elements the engine used
are counted by the run; ``translator.evaluate.accounting`` prints the summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lars.errors import SourceError

MALFORMED = "malformed"
OUT_OF_ORDER = "out of order"


@dataclass
class Accounting:
    """Counts of one run's stream elements; ``on_reject`` hears every skipped element at once."""

    skip_bad: bool = False
    on_reject: Callable[[SourceError, str], None] | None = None
    read: int = 0
    duplicates: int = 0
    used: int | None = None
    after_last_time: int = 0
    rejected: list[tuple[str, SourceError]] = field(default_factory=list)

    def count_read(self, n: int = 1) -> None:
        self.read += n

    def reject(self, err: SourceError, kind: str = MALFORMED) -> None:
        """A bad element: raise ``err`` unless skipping, else record and report it (it counts as read)."""
        if not self.skip_bad:
            raise err
        self.read += 1
        self.rejected.append((kind, err))
        if self.on_reject is not None:
            self.on_reject(err, kind)

    def rejected_count(self, kind: str | None = None) -> int:
        return sum(1 for k, _ in self.rejected if kind is None or k == kind)

    def summary(self) -> str:
        """``stream elements: 10 read, 8 used, 1 rejected (1 malformed), 1 duplicate``."""
        parts = [f"{self.read} read"]
        if self.used is not None:
            parts.append(f"{self.used} used")
        n = self.rejected_count()
        detail = ", ".join(f"{c} {k}" for k in (MALFORMED, OUT_OF_ORDER) if (c := self.rejected_count(k)))
        parts.append(f"{n} rejected" + (f" ({detail})" if n else ""))
        parts.append(f"{self.duplicates} duplicate{'s' if self.duplicates != 1 else ''}")
        if self.after_last_time:
            parts.append(f"{self.after_last_time} after the last evaluation time")
        return "stream elements: " + ", ".join(parts)


def reject_or_raise(accounting: "Accounting | None", err: SourceError, kind: str = MALFORMED) -> None:
    """Raise ``err`` unless ``accounting`` skips bad elements (then it is recorded)."""
    if accounting is None:
        raise err
    accounting.reject(err, kind)
