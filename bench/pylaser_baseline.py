"""A small re-implementation of PyLaser's evaluation, the baseline of ``bench/fresh_bench.py`` (not
a test, not part of the package).

PyLaser (github.com/maspadaru/pylaser, the Python port of Laser: Bazoobi, Urbani, van Harmelen,
*A Novel Reasoner for Stream Reasoning*, AAAI 2018) cannot be shipped here (no licence stated,
Python 2 code). What it computes on its micro-benchmarks, and what this script computes the same
way, for rules of the form

    h(X1, …, Xn) :- p(X1, …, Xn) [w].           (time window ⊞^w, ◇)
    h(X1, …, Xn) :- p(X1, …, Xn) always [w].    (time window ⊞^w, □)

(the head's arguments a permutation/subset of the body's variables):

* every ground substitution of the body is kept in a *substitution table* annotated as in Laser
  §4: for ◇ with its **horizon time** (the last time it was seen + w: it holds while
  t <= horizon), for □ with its **consideration time** (the first time point of its current run of
  consecutive occurrences: it holds at t iff it occurs at t and the run started at or before
  max(tmin, t − w));
* at every time point the new stream atoms update the table (O(new atoms)), expired rows are
  dropped by a garbage collection keyed on the horizon (``Program.cleanUp`` / ``Rule.gc`` in
  PyLaser), and the **full set of conclusions valid at t** is returned (PyLaser's
  ``getDerivations(now)``), as ``rsplars lars`` prints it: ``{"t": t, "atoms": [sorted]}``, one JSON
  line per time point (so both outputs can be compared byte for byte).

``--naive`` instead re-evaluates the rule over the window's content at every time point (the union
of the conclusions of the window's time points for ◇, their intersection for □), without
annotations: the textbook naive evaluation, closer to what a general engine such as PyLaser does per
time point than the annotated tables (which are PyLaser's best case).

It reads the stream text format of ``rsplars lars`` (``T: atom, atom, …``, flat atoms) with a
deliberately simple reader: ``re.findall`` on each line. No LARS semantics beyond these two rule
shapes is implemented; anything else is refused.

    python bench/pylaser_baseline.py [--naive] PROGRAM STREAM > answers.jsonl
"""

from __future__ import annotations

import json
from collections import deque
import re
import sys

_RULE = re.compile(r"\s*([a-z]\w*)\(([^()]*)\)\s*:-\s*([a-z]\w*)\(([^()]*)\)\s*(always\s*)?\[\s*(\d+)\s*\]\s*\.\s*$")
_ATOM = re.compile(r'[a-z]\w*(?:\((?:[^()"]|"(?:\\.|[^"\\])*")*\))?')
_TIME = re.compile(r"\s*(-?\d+)\s*:")


def parse_rule(text: str):
    m = _RULE.match(text)
    if m is None:
        raise SystemExit(f"pylaser_baseline: unsupported rule {text!r}")
    head, hargs, body, bargs, always, w = m.groups()
    hvars = [v.strip() for v in hargs.split(",")]
    bvars = [v.strip() for v in bargs.split(",")]
    positions = [bvars.index(v) for v in hvars]
    return head, body, positions, bool(always), int(w)


def main(argv: list[str]) -> int:
    naive = "--naive" in argv
    program_path, stream_path = [a for a in argv if a != "--naive"]
    rules = [line for line in open(program_path, encoding="utf-8").read().splitlines() if line.strip() and not line.lstrip().startswith("%")]
    if len(rules) != 1:
        raise SystemExit("pylaser_baseline: one rule expected")
    head, body, positions, box, w = parse_rule(rules[0])
    prefix = body + "("
    identity = positions == list(range(len(positions)))
    out = sys.stdout
    write = out.write
    dumps = json.dumps

    horizon: dict[str, int] = {}  # ◇: conclusion -> horizon time
    expiring: dict[int, list[str]] = {}  # horizon -> conclusions (garbage collection)
    run_start: dict[str, int] = {}  # □: conclusion -> consideration time of its current run
    previous: set[str] = set()
    tmin = None
    last = None

    def conclusion(atom: str) -> str | None:
        if not atom.startswith(prefix):
            return None
        if identity:
            return head + atom[len(body):]
        args = atom[len(prefix):-1].split(",")
        return f"{head}({','.join(args[i] for i in positions)})"

    def emit(t: int, atoms) -> None:
        write(dumps({"t": t, "atoms": sorted(atoms)}, ensure_ascii=False))
        write("\n")

    window: deque[set[str]] = deque()  # --naive: the conclusions of each time point of the window

    def step(t: int, atoms: list[str]) -> None:
        nonlocal previous
        found = {c for c in map(conclusion, atoms) if c is not None}
        if naive:
            window.append(found)
            while len(window) > min(w + 1, t - tmin + 1):
                window.popleft()
            emit(t, set.intersection(*window) if box else set().union(*window))
        elif box:
            lo = max(tmin, t - w)
            starts = {c: run_start[c] if c in previous else t for c in found}
            run_start.clear()
            run_start.update(starts)
            previous = found
            emit(t, [c for c, s in starts.items() if s <= lo])
        else:
            h = t + w
            for c in found:
                horizon[c] = h
            expiring.setdefault(h, []).extend(found)
            for c in expiring.pop(t - 1, ()):  # gc: rows whose horizon has passed
                if horizon.get(c) == t - 1:
                    del horizon[c]
            emit(t, horizon.keys())

    with open(stream_path, encoding="utf-8") as f:
        for line in f:
            m = _TIME.match(line)
            if m is None:
                continue
            t = int(m.group(1))
            if tmin is None:
                tmin = last = t
                step(t, _ATOM.findall(line, m.end()))
                continue
            while last + 1 < t:  # time points without data
                last += 1
                step(last, [])
            last = t
            step(t, _ATOM.findall(line, m.end()))
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
