"""Window contents kept incrementally in Python (``docs/asp-encoding.md`` §Windows).

For each window of the program, :class:`WindowState` follows the window function of Dao-Tran, Beck, Eiter 2015
§2.3 / ``lars.reference.window_view`` from one reference time to the next and reports which
stream-fed external atoms of ``asp.encode`` change truth value:

* time window ``⊞^{l,u,d}`` at t: ``t' = ⌊t/d⌋·d``, timeline ``[max(tmin, t'−l), min(t'+u, t)]``;
  its content is every stream atom of those time points;
* tuple window ``⊞^{#n}``: the last n stream atoms up to t in arrival order (D11), timeline
  ``[t_n, t]`` with t_n the time of the oldest atom kept (``tmin`` if fewer than n exist, ``t`` if
  n = 0); partition windows do the same over the stream atoms that match their key.

Both come from ``lars.windows`` (``time_window_bounds``, ``in_partition``), the one definition every
engine uses.

Counting is per atom: ``present[a]`` = number of the window's time points at which a is in the
window, so ``◇a ⇔ present[a] > 0`` and ``□a ⇔ present[a] = |timeline|`` (every □ holds on an
empty timeline). Moving the window touches only the time points (or tuples) that enter or leave:
the cost per step is proportional to the change, not to the window length.

:class:`StreamIndex` interns the stream's atoms (an integer id per distinct atom) and keeps the ids
of a time point only while some window may still need it, so memory follows the windows, not the
stream length (the ``Stream`` object itself is the caller's).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from typing import Iterable

from clingo.symbol import Symbol

from asp.encode import AT, BOX, DIA, Signature
from clingo.symbol import Function as SymFunction

from asp.symbols import atom_symbol, term_symbol
from lars.model import Atom, PartitionWindow, Stream, TimeWindow, TupleWindow
from lars.windows import in_partition, time_window_bounds


class StreamIndex:
    """The stream with interned atoms: ``times`` (ascending time points with data inside the
    timeline), ids per time point on demand, one clingo symbol per distinct atom."""

    def __init__(self, stream: Stream, term_ids=None) -> None:
        self.stream = stream
        self.term_ids = term_ids  # asp.termids.TermIds: stream terms as reused integer ids (or None)
        self.live = getattr(stream, "live", False)  # lars.streams.LiveStream: read while evaluated
        self.tmin, self.tmax = stream.timeline
        if self.live:
            ordered = stream.take_arrived()  # type: ignore[attr-defined]
        else:
            ordered = getattr(stream, "_sorted", None) or sorted(stream.points)
        self.times: list[int] = [u for u in ordered if u >= self.tmin]
        # per atom id (ids are never reused; the tables hold the atoms that may still be needed,
        # see collect): the atom, its signature, its clingo symbol, the loaded time points it occurs at
        self.atoms: dict[int, Atom] = {}
        self.sigs: dict[int, Signature] = {}
        self._symbols: dict[int, Symbol] = {}
        self.hits: dict[int, int] = {}
        self._next = 0
        self._intern: dict[Atom, int] = {}
        self._by_object: dict[int, tuple[Atom, int]] = {}
        self._terms: dict = {}  # term -> clingo symbol (cleared when large: fresh terms never recur)
        self._ids: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # time index -> (ids, unique ids)
        self._last_atoms: object = None  # the atoms tuple of the last time point loaded, and its ids
        self._last_ids: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def advance(self, t: int) -> None:
        """A live stream: read until the atoms of every time point up to t are complete."""
        if self.live:
            self.stream.read_past(t)  # type: ignore[attr-defined]
            self.times.extend(u for u in self.stream.take_arrived() if u >= self.tmin)  # type: ignore[attr-defined]

    def read_ahead(self, count: int, until: int | None = None) -> None:
        """A live stream: read up to ``count`` further time points (up to time ``until``) where that
        does not block (``LiveStream.read_ahead``), for the solver's look-ahead."""
        if self.live:
            self.stream.read_ahead(count, until)  # type: ignore[attr-defined]
            self.times.extend(u for u in self.stream.take_arrived() if u >= self.tmin)  # type: ignore[attr-defined]

    def _id(self, atom: Atom) -> int:
        hit = self._by_object.get(id(atom))
        if hit is not None and hit[0] is atom:
            return hit[1]
        i = self._intern.setdefault(atom, self._next)  # one hash of the atom, not two
        if i == self._next:
            self._next += 1
            self.atoms[i] = atom
            self.sigs[i] = (atom.predicate, len(atom.args))
            self.hits[i] = 0
        self._by_object[id(atom)] = (atom, i)
        return i

    def _load(self, i: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        got = self._ids.get(i)
        if got is None:
            atoms = self.stream.points[self.times[i]]
            if atoms is self._last_atoms and self._last_ids is not None:
                got = self._last_ids  # the reader gave the previous time point's atoms again
            else:
                ids = tuple(self._id(a) for a in atoms)
                got = (ids, tuple(dict.fromkeys(ids)))
                self._last_atoms, self._last_ids = atoms, got
            self._ids[i] = got
            hits = self.hits
            for x in got[1]:
                hits[x] += 1
        return got

    def loaded_ids(self) -> Iterable[int]:
        """The atom ids of the time points loaded and not yet forgotten."""
        for ids in self._ids.values():
            yield from ids[1]

    def collect(self, live: set[int]) -> None:
        """Drop every atom id outside ``live`` from the tables (the caller knows which ids a window,
        the current epoch or a loaded time point still refers to); an atom seen again later gets a
        new id."""
        for x in [x for x in self.atoms if x not in live]:
            atom = self.atoms.pop(x)
            if self._intern.get(atom) == x:
                del self._intern[atom]
            del self.sigs[x]
            self.hits.pop(x, None)
            self._symbols.pop(x, None)
        self._by_object.clear()
        self._terms.clear()
        self._last_atoms = self._last_ids = None
        if self.term_ids is not None:
            self.term_ids.release_unused(self.atoms.values())

    def ids(self, i: int) -> tuple[int, ...]:
        """Atom ids of the i-th time point with data, arrival order (duplicates kept)."""
        return self._load(i)[0]

    def unique(self, i: int) -> tuple[int, ...]:
        return self._load(i)[1]

    def symbol(self, i: int) -> Symbol:
        s = self._symbols.get(i)
        if s is None:
            atom = self.atoms[i]
            terms = self._terms  # id(term) -> (term, symbol): the reader shares equal terms
            if len(terms) > 200_000:
                terms.clear()
            args = []
            for a in atom.args:
                hit = terms.get(id(a))
                if hit is None or hit[0] is not a:
                    hit = terms[id(a)] = (a, term_symbol(a) if self.term_ids is None else self.term_ids.symbol(a))
                args.append(hit[1])
            s = self._symbols[i] = SymFunction(atom.predicate, args) if args else atom_symbol(atom)
        return s

    def range(self, lo: int, hi: int) -> range:
        """Indices of the time points with data in ``[lo, hi]``."""
        return range(bisect_left(self.times, lo), bisect_right(self.times, hi))

    def upto(self, t: int) -> int:
        """Number of time points with data ``<= t``."""
        return bisect_right(self.times, t)

    def forget_before(self, i: int) -> None:
        """Drop the cached ids of time indices ``< i`` (no window will look at them again)."""
        if self._ids and min(self._ids) < i:
            for j in [j for j in self._ids if j < i]:
                del self._ids[j]
        if self.live and i < len(self.times):
            self.stream.forget_before(self.times[i])  # type: ignore[attr-defined]
        if len(self._by_object) > 4 * len(self.atoms) + 1024:
            self._by_object.clear()


def interval_difference(a: int, b: int, c: int, d: int) -> list[tuple[int, int]]:
    """``[a, b] \\ [c, d]`` as at most two intervals (empty intervals allowed on input)."""
    if a > b:
        return []
    if c > d or d < a or c > b:
        return [(a, b)]
    out = []
    if a < c:
        out.append((a, c - 1))
    if d < b:
        out.append((d + 1, b))
    return out


class Sequence:
    """The stream atoms a tuple window counts (all of them, or one partition's), as positions:
    ``entry(p) = (atom id, time)``; built lazily up to the time points reached so far."""

    def __init__(self, index: StreamIndex, key: Atom | None) -> None:
        self.index = index
        self.key = key
        self.start: list[int] = [0]  # start[i] = position of the first atom of time index i
        self._entries: dict[int, tuple[tuple[int, ...], int]] = {}  # time index -> (ids, time)

    def _entries_of(self, i: int) -> tuple[int, ...]:
        got = self._entries.get(i)
        if got is None:
            ids = self.index.ids(i)
            if self.key is not None:
                atoms = self.index.atoms
                ids = tuple(x for x in ids if in_partition(self.key, atoms[x]))
            got = (ids, self.index.times[i])
            self._entries[i] = got
        return got[0]

    def end(self, n_times: int) -> int:
        """Number of atoms in the first ``n_times`` time points."""
        while len(self.start) <= n_times:
            i = len(self.start) - 1
            self.start.append(self.start[-1] + len(self._entries_of(i)))
        return self.start[n_times]

    def time_index_of(self, p: int) -> int:
        return bisect_right(self.start, p) - 1

    def entries(self, s: int, e: int) -> Iterable[tuple[int, int]]:
        """``(atom id, time)`` of the positions ``[s, e)``."""
        if s >= e:
            return
        i = self.time_index_of(s)
        while s < e:
            ids = self._entries_of(i)
            base = self.start[i]
            u = self.index.times[i]
            for p in range(max(s, base), min(e, base + len(ids))):
                yield ids[p - base], u
            s = base + len(ids)
            i += 1

    def forget_before(self, i: int) -> None:
        for j in [j for j in self._entries if j < i]:
            del self._entries[j]


class WindowState:
    """One window of the program followed over reference times.

    ``routes``: signature → kinds (DIA, BOX, AT) the encoding reads for this window; ``flags``: the
    flags (IN, NONEMPTY, HAS_NOW) it reads. After :meth:`move`, the attributes ``dia``, ``box``
    (a set, or ``None`` meaning "every atom", on an empty timeline), ``at`` (pairs), ``inside``
    (timeline as ``(lo, hi)``) describe the window at the new reference time, and ``changed_*``
    what changed since the previous call.
    """

    def __init__(
        self,
        k: int,
        window: TimeWindow | TupleWindow | PartitionWindow,
        index: StreamIndex,
        routes: dict[Signature, set[str]],
        flags: set[str],
    ) -> None:
        self.k = k
        self.window = window
        self.index = index
        self.routes = routes
        self.flags = flags
        self.counted = {s for s, kinds in routes.items() if kinds & {DIA, BOX}}
        self.paired = {s for s, kinds in routes.items() if AT in kinds}
        self.want_box = any(BOX in kinds for kinds in routes.values())
        self.want_dia = any(DIA in kinds for kinds in routes.values())
        self.seq = None
        if isinstance(window, TupleWindow):
            self.seq = Sequence(index, None)
        elif isinstance(window, PartitionWindow):
            self.seq = Sequence(index, window.key)
        self.t: int | None = None
        self.lo, self.hi = 0, -1  # timeline of the window (empty)
        self.s, self.e = 0, 0  # positions (tuple windows)
        self.added: Counter[int] = Counter()
        self.removed: Counter[int] = Counter()
        self.pairs: Counter[tuple[int, int]] = Counter()  # tuple windows: multiplicity of (id, time)
        self.dia: set[int] = set()
        self.box: set[int] | None = set()
        self.at: set[tuple[int, int]] = set()
        self.changed_dia: dict[int, bool] = {}
        self.changed_box: dict[int, bool] = {}
        self.changed_at: dict[tuple[int, int], bool] = {}
        self.box_reset = False  # box went from/to "every atom"

    # ------------------------------------------------------------------------------ bounds
    def timeline_at(self, t: int) -> tuple[int, int]:
        """The window's timeline at t (for time windows; tuple windows need the data)."""
        if isinstance(self.window, TimeWindow):
            return time_window_bounds(self.window, t, self.index.tmin)
        lo, hi, _, _ = self._tuple_bounds(t)
        return lo, hi

    def _tuple_bounds(self, t: int) -> tuple[int, int, int, int]:
        window, seq = self.window, self.seq
        assert not isinstance(window, TimeWindow) and seq is not None, "tuple and partition windows only"
        n = window.n
        e = seq.end(self.index.upto(t))
        s = max(0, e - n)
        if n == 0:
            lo = t
        elif e - s < n:
            lo = self.index.tmin
        else:
            lo = self.index.times[seq.time_index_of(s)]
        return lo, t, s, e

    def earliest_needed(self, t: int) -> int:
        """The oldest time point whose stream atoms the window can contain at t or later."""
        return self.timeline_at(t)[0]

    # ------------------------------------------------------------------------------ moving
    def _present(self, ids: Iterable[int], u: int, sign: int) -> None:
        """Atoms ``ids`` enter (sign +1) or leave (-1) the window at time point u."""
        sigs = self.index.sigs
        if self.counted:
            chosen = [x for x in ids if sigs[x] in self.counted]
            (self.added if sign > 0 else self.removed).update(chosen)
            self._touched.update(chosen)
        if self.paired:
            for x in ids:
                if sigs[x] in self.paired:
                    key = (x, u)
                    if sign > 0:
                        self.at.add(key)
                        self.changed_at[key] = True
                    else:
                        self.at.discard(key)
                        self.changed_at[key] = False

    def _pair(self, x: int, u: int, sign: int) -> None:
        """Tuple windows: one tuple enters/leaves; the atom is present at u while any copy is in."""
        key = (x, u)
        before = self.pairs[key]
        after = before + sign
        if after:
            self.pairs[key] = after
        else:
            del self.pairs[key]
        if (before == 0) != (after == 0):
            self._present((x,), u, sign)

    def move(self, t: int) -> None:
        """Advance (or jump) to reference time t; fills the ``changed_*`` maps."""
        self.changed_dia, self.changed_box, self.changed_at = {}, {}, {}
        self.box_reset = False
        self._touched: set[int] = set()
        old_len = self.hi - self.lo + 1 if self.hi >= self.lo else 0
        idx = self.index
        if self.seq is None:
            lo, hi = self.timeline_at(t)
            if self.routes:
                for a, b in interval_difference(self.lo, self.hi, lo, hi):
                    for i in idx.range(a, b):
                        self._present(idx.unique(i), idx.times[i], -1)
                for a, b in interval_difference(lo, hi, self.lo, self.hi):
                    for i in idx.range(a, b):
                        self._present(idx.unique(i), idx.times[i], +1)
        else:
            lo, hi, s, e = self._tuple_bounds(t)
            if self.routes:
                for a, b in interval_difference(self.s, self.e - 1, s, e - 1):
                    for x, u in self.seq.entries(a, b + 1):
                        self._pair(x, u, -1)
                for a, b in interval_difference(s, e - 1, self.s, self.e - 1):
                    for x, u in self.seq.entries(a, b + 1):
                        self._pair(x, u, +1)
            self.s, self.e = s, e
        self.t, self.lo, self.hi = t, lo, hi
        new_len = hi - lo + 1 if hi >= lo else 0
        # ◇ and □ from the per-atom counts
        added, removed = self.added, self.removed
        for x in self._touched:
            c = added[x] - removed[x]
            if c > 0:
                if x not in self.dia:
                    self.dia.add(x)
                    self.changed_dia[x] = True
            elif x in self.dia:
                self.dia.discard(x)
                self.changed_dia[x] = False
        if self.want_box:
            self._update_box(old_len, new_len)

    def _update_box(self, old_len: int, new_len: int) -> None:
        added, removed = self.added, self.removed
        if new_len == 0:
            if self.box is not None:
                self.box = None
                self.box_reset = True
            return
        if self.box is None:  # leaving the empty timeline: recompute
            self.box = {x for x in self.dia if added[x] - removed[x] == new_len}
            self.box_reset = True
            return
        candidates = self._touched if old_len == new_len else (set(self.dia) | self.box)
        for x in candidates:
            full = added[x] - removed[x] == new_len
            if full and x not in self.box:
                self.box.add(x)
                self.changed_box[x] = True
            elif not full and x in self.box:
                self.box.discard(x)
                self.changed_box[x] = False

    def compact(self) -> None:
        """Drop zero counts (keeps the counters as small as the window's distinct atoms)."""
        added, removed = self.added, self.removed
        gone = [x for x in removed if added[x] == removed[x]]
        for x in gone:
            del added[x]
            del removed[x]

    def oldest_time_index(self) -> int:
        """Time index below which this window will never look again (windows only move right)."""
        return bisect_left(self.index.times, self.lo) if self.hi >= self.lo else bisect_left(self.index.times, self.hi)

    # ------------------------------------------------------------------------------ flags
    def has_now(self) -> bool:
        return self.lo <= self.t <= self.hi  # type: ignore[operator]

    def nonempty(self) -> bool:
        return self.lo <= self.hi

