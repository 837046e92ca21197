"""The remarks a call of the API makes (``note: …``): kept on its result and, as each is made,
passed to the caller's ``on_note`` (the command line prints them on stderr as they come)."""

from __future__ import annotations

from typing import Callable, Iterable

__all__ = ["Note", "Notes"]

#: a caller's hook that hears each remark as it is made
Note = Callable[[str], None]


class Notes(list[str]):
    """The remarks of a call, each also passed to ``on_note`` as it is added."""

    def __init__(self, on_note: Note | None) -> None:
        super().__init__()
        self.on_note = on_note

    def append(self, note: str) -> None:
        super().append(note)
        if self.on_note is not None:
            self.on_note(note)

    def extend(self, notes: Iterable[str]) -> None:
        for note in notes:
            self.append(note)
