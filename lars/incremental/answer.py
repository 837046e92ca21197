"""The answer of the incremental engine at a time point: its atom texts, sorted, and their JSON.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from itertools import filterfalse
from json import dumps as _dumps


_BLOCK = 1000  # atoms per block of a SortedAnswer (split at twice that)
#: the characters that ``json.dumps(…, ensure_ascii=False)`` escapes in a string
#: (``json.encoder.ESCAPE``: the controls, the quote and the backslash), as bytes
_JSON_ESCAPED = bytes(range(32)) + b'"\\'
_QUOTES = '", "'


class SortedAnswer:
    """The answer's atom texts, sorted, kept in blocks (as ``sortedcontainers.SortedList`` does):
    a change of k atoms touches the blocks they fall in (bisect on the blocks' last texts), so
    keeping the answer sorted costs the change, not the answer's size. Each block caches its JSON
    encoding (``json.dumps`` of the list without its brackets), so the JSON line of the whole
    answer is a join of cached pieces (``Step.encoded``), byte for byte what ``json.dumps`` of the
    sorted list prints."""

    __slots__ = ("blocks", "maxes", "enc", "flat", "plain")

    def __init__(self) -> None:
        self.blocks: list[list[str]] = []
        self.maxes: list[str] = []  # the last text of each block
        self.enc: list[str | None] = []  # each block's JSON encoding (None: not computed yet)
        self.flat: tuple[str, ...] | None = ()  # the atoms as one tuple (None: not computed yet)
        # no text added so far has a character that JSON escapes: a block's encoding is then its
        # texts in quotes joined by '", "' (``encoded``)
        self.plain = True

    def update(self, added: list[str], removed: list[str]) -> None:
        """Remove the sorted texts ``removed`` (present) and add the sorted texts ``added`` (absent)."""
        if not added and not removed:
            return
        blocks, maxes, enc = self.blocks, self.maxes, self.enc
        self.flat = None
        if self.plain and added:
            # UTF-8 (surrogates passed) keeps every character below 128 as its byte, and writes
            # the others as bytes of 128 and more: deleting the escaped bytes changes the length
            # iff some text has a character to escape
            text = "".join(added).encode("utf-8", "surrogatepass")
            if len(text.translate(None, _JSON_ESCAPED)) != len(text):
                self.plain = False
        dirty = set()
        i, n = 0, len(removed)
        while i < n:
            j = bisect_left(maxes, removed[i])
            hi = bisect_right(removed, maxes[j], i)
            block = blocks[j]
            if hi - i == 1:
                del block[bisect_left(block, removed[i])]
            else:
                lo, run = bisect_left(block, removed[i]), removed[i:hi]
                if block[lo:lo + len(run)] == run:  # consecutive in the block (e.g. one time point's atoms)
                    del block[lo:lo + len(run)]
                else:
                    blocks[j] = list(filterfalse(set(run).__contains__, block))
            dirty.add(j)
            i = hi
        i, n = 0, len(added)
        if n and not blocks:
            blocks.append([])
            maxes.append(added[-1])
            enc.append(None)
        last = len(blocks) - 1
        while i < n:
            j = min(bisect_left(maxes, added[i]), last)
            hi = n if j == last else bisect_right(added, maxes[j], i)
            block = blocks[j]
            if hi - i == 1:
                insort(block, added[i])
            else:
                lo = bisect_left(block, added[i])
                if lo == len(block) or added[hi - 1] < block[lo]:  # all between two neighbours
                    block[lo:lo] = added[i:hi]
                else:
                    block += added[i:hi]
                    block.sort()  # two sorted runs: one merge
            dirty.add(j)
            i = hi
        if not dirty:
            return
        new_blocks: list[list[str]] = []
        new_enc: list[str | None] = []
        for j, block in enumerate(blocks):
            if j not in dirty:
                new_blocks.append(block)
                new_enc.append(enc[j])
            elif len(block) > 2 * _BLOCK:
                for k in range(0, len(block), _BLOCK):
                    new_blocks.append(block[k:k + _BLOCK])
                    new_enc.append(None)
            elif block:
                new_blocks.append(block)
                new_enc.append(None)
        self.blocks, self.enc = new_blocks, new_enc
        self.maxes = [b[-1] for b in new_blocks]

    def atoms(self) -> tuple[str, ...]:
        if self.flat is None:
            out: list[str] = []
            for block in self.blocks:
                out += block
            self.flat = tuple(out)
        return self.flat

    def encoded(self) -> str:
        """The JSON array of the atoms without its brackets (``json.dumps(…, ensure_ascii=False)``)."""
        enc = self.enc
        plain = self.plain
        for j, e in enumerate(enc):
            if e is None:
                if plain:  # what json.dumps writes for strings without a character to escape
                    enc[j] = f'"{_QUOTES.join(self.blocks[j])}"'
                else:
                    enc[j] = _dumps(self.blocks[j], ensure_ascii=False)[1:-1]
        return ", ".join(enc)  # type: ignore[arg-type]
