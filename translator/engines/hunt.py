"""Hunting disagreements: random RSP-QL queries and streams run on an external engine and judged
against the query's expected outputs under the engine's profile; each output that no setting of the
profile explains is shrunk to a minimal query and stream and written as a reproducible case. The
cases are generated with hypothesis (MacIver et al., "Hypothesis: A new approach to property-based
testing", JOSS 2019); each probe runs a real engine, which takes a second or more, so the shrinking is
a greedy delta debugging over the case's parts (:func:`shrink`), which needs few probes.

The queries are in the fragment that RSP-JS and RSP4J both accept (RSP-QL, Dell'Aglio et al. 2014,
§4; RSP-JS's README): one named time-based window ``[RANGE r STEP s]`` (durations as bare numbers,
milliseconds, read as RSP-JS reads them) on one stream, a basic graph pattern of one or two triple
patterns inside ``WINDOW``, an optional FILTER, ``SELECT *`` or a projection, RStream. The streams
are a few timestamped triples over a small vocabulary, so that joins and duplicates happen.

The module knows neither the engine nor the judge: :func:`hunt` takes a ``probe`` (run the engine on
a case and judge its output) and searches, with time bounds for the search and for each shrink.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterator

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as fixed_seed
from hypothesis import strategies as st

NAMESPACE = "http://hunt.example/"
STREAM = NAMESPACE + "s"
OUTPUT = NAMESPACE + "out"

SUBJECTS = ("a", "b")
PREDICATES = ("p", "q")
OBJECTS = ("a", "c", "1", "2")
VARIABLES = ("?x", "?y", "?z")


@dataclass(frozen=True)
class Case:
    """One random query and stream. Terms are written in the query's syntax: ``?x`` a variable,
    ``:a`` an IRI of :data:`NAMESPACE`, ``1`` an xsd:integer."""

    range_: int
    step: int
    projection: tuple[str, ...] | None
    """The projected variables; ``None``: ``SELECT *``."""
    patterns: tuple[tuple[str, str, str], ...]
    filter: str | None
    elements: tuple[tuple[int, str, str, str], ...]
    """``(t, subject, predicate, object)`` in arrival order (non-decreasing t), local names."""
    compact: bool = False
    """The layout of the WHERE clause: on one line, or each part on its own line as RSP-JS's README
    writes it (the RSP-QL grammar does not care; an engine that does has a bug to find)."""

    def query_text(self) -> str:
        """The RSP-QL query."""
        select = "*" if self.projection is None else " ".join(self.projection)
        body = " . ".join(" ".join(tp) for tp in self.patterns)
        parts = [f"WINDOW :w {{ {body} }}"] + ([f"FILTER({self.filter})"] if self.filter is not None else [])
        where = f"WHERE {{ {' '.join(parts)} }}" if self.compact else "WHERE {\n" + "".join(
            f"  {part}\n" for part in parts) + "}"
        return (f"PREFIX : <{NAMESPACE}>\n"
                f"REGISTER RStream <{OUTPUT}> AS\n"
                f"SELECT {select}\n"
                f"FROM NAMED WINDOW :w ON STREAM :s [RANGE {self.range_} STEP {self.step}]\n"
                f"{where}\n")

    def stream_text(self) -> str:
        """The stream as timestamped N-Triples (docs/rdf-io.md §2.1), milliseconds."""
        return "".join(f"{_nt(s)} {_nt(p)} {_nt(o)} \"{t}\" .\n" for t, s, p, o in self.elements)

    def size(self) -> int:
        """How big the case is (smaller cases are easier to read)."""
        return len(self.elements) + 2 * len(self.patterns) + (self.filter is not None) + self.compact


def _nt(name: str) -> str:
    if name.isdigit():
        return f'"{name}"^^<http://www.w3.org/2001/XMLSchema#integer>'
    return f"<{NAMESPACE}{name}>"


def _term(name: str) -> str:
    return name if name.isdigit() else f":{name}"


def _pattern(draw) -> tuple[str, str, str]:
    s = draw(st.sampled_from(VARIABLES[:2] + tuple(map(_term, SUBJECTS))))
    p = draw(st.sampled_from(tuple(map(_term, PREDICATES)) + ("?p",)))
    o = draw(st.sampled_from(VARIABLES + tuple(map(_term, OBJECTS))))
    return s, p, o


@st.composite
def cases(draw) -> Case:
    """Random cases (the fragment of the module docstring); hypothesis starts with the simplest."""
    range_ = draw(st.integers(1, 8))
    step = draw(st.integers(1, range_))
    patterns = (_pattern(draw),) + ((_pattern(draw),) if draw(st.booleans()) else ())
    bound = sorted({t for tp in patterns for t in tp if t.startswith("?")})
    if not bound:  # a pattern without variables: give it one, so that rows have columns
        s, p, o = patterns[0]
        patterns = (("?x", p, o),) + patterns[1:]
        bound = ["?x"]
    projection = None
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(bound), min_size=1, max_size=len(bound), unique=True))
        projection = tuple(sorted(chosen))
    filter_ = None
    if draw(st.booleans()):
        v = draw(st.sampled_from(bound))
        c = draw(st.sampled_from(tuple(map(_term, OBJECTS))))
        filter_ = f"{v} {draw(st.sampled_from(('=', '!=')))} {c}"
    times = sorted(draw(st.lists(st.integers(0, 20), min_size=0, max_size=8)))
    elements = tuple((t, draw(st.sampled_from(SUBJECTS)), draw(st.sampled_from(PREDICATES)),
                      draw(st.sampled_from(OBJECTS))) for t in times)
    return Case(range_, step, projection, patterns, filter_, elements, draw(st.booleans()))


@dataclass(frozen=True)
class Verdict:
    """What a probe found on one case: ``explained`` (some setting of the profile gives the
    engine's output), else a one-line ``kind`` (the diagnosis, to tell findings apart) and the
    material of the case (the engine's output, the expected outputs, the report)."""

    explained: bool
    kind: str = ""
    files: dict[str, str] = field(default_factory=dict)
    """file name → content, written with the case (engine output, expected output, report)."""


Probe = Callable[[Case], Verdict]


@dataclass
class Finding:
    """A minimal case that the engine's profile does not explain."""

    kind: str
    case: Case
    verdict: Verdict
    found_after: int
    """How many cases were probed before it was found (its shrinking included)."""


@dataclass
class HuntReport:
    probed: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"probed": self.probed, "seconds": round(self.seconds, 1),
                "findings": [{"kind": f.kind, "case": asdict(f.case), "found_after": f.found_after}
                             for f in self.findings]}


def hunt(probe: Probe, *, seconds: float, shrink_seconds: float = 60.0, seed: int = 0,
         max_findings: int = 5, on_case: Callable[[int], None] | None = None) -> HuntReport:
    """Probe random cases for about ``seconds``; each unexplained output of a new kind is shrunk
    (for at most ``shrink_seconds`` more, :func:`shrink`) and reported. Kinds already found are not
    searched again, so that one cause does not hide the others."""
    report = HuntReport()
    start = time.monotonic()
    known: set[str] = set()
    seen: dict[Case, Verdict] = {}

    def judged(case: Case) -> Verdict:
        verdict = seen.get(case)
        if verdict is None:
            report.probed += 1
            if on_case is not None:
                on_case(report.probed)
            verdict = seen[case] = probe(case)
        return verdict

    attempt = 0
    while time.monotonic() - start < seconds and len(report.findings) < max_findings:
        found = _search(judged, deadline=start + seconds, seed=seed + attempt, known=known)
        attempt += 1
        if found is None:
            break
        case, verdict = found
        case, verdict = shrink(case, verdict, judged, deadline=time.monotonic() + shrink_seconds)
        known.add(verdict.kind)
        report.findings.append(Finding(verdict.kind, case, verdict, report.probed))
    report.seconds = time.monotonic() - start
    return report


class _Found(Exception):
    """A case whose output is not explained, of a kind not found before: the search stops there."""


class _TimeUp(BaseException):
    """The search's time is up. Not an ``Exception``: hypothesis lets it through instead of taking it
    for a failure of the property."""


def _search(judged: Callable[[Case], Verdict], *, deadline: float, seed: int,
            known: set[str]) -> tuple[Case, Verdict] | None:
    """The first case hypothesis generates whose output is unexplained and of a new kind."""
    found: list[tuple[Case, Verdict]] = []

    @fixed_seed(seed)
    @settings(max_examples=100_000, deadline=None, database=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def probe_once(case: Case) -> None:
        if time.monotonic() > deadline:
            raise _TimeUp
        verdict = judged(case)
        if not verdict.explained and verdict.kind not in known:
            found.append((case, verdict))
            raise _Found

    try:
        probe_once()
    except (_Found, _TimeUp):
        pass
    return found[0] if found else None


def shrink(case: Case, verdict: Verdict, judged: Callable[[Case], Verdict], *,
           deadline: float) -> tuple[Case, Verdict]:
    """A smaller case with the same kind of unexplained output: greedy, simplest change first (the
    projection, the FILTER, a pattern, halves and single elements of the stream, smaller windows,
    earlier times, the first term of the vocabulary), until no change keeps the failure or the time is
    up (the delta debugging of Zeller and Hildebrandt, "Simplifying and isolating failure-inducing input",
    IEEE TSE 2002, on the case's parts)."""
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for smaller in _simpler(case):
            if time.monotonic() > deadline:
                break
            got = judged(smaller)
            if not got.explained and got.kind == verdict.kind:
                case, verdict, improved = smaller, got, True
                break
    return case, verdict


def _simpler(case: Case) -> Iterator[Case]:
    """Cases one step simpler than ``case``, the biggest steps first."""
    from dataclasses import replace

    if case.compact:
        yield replace(case, compact=False)
    if case.projection is not None:
        yield replace(case, projection=None)
    if case.filter is not None:
        yield replace(case, filter=None)
    for k in range(len(case.patterns)):
        rest = case.patterns[:k] + case.patterns[k + 1:]
        if rest and any(t.startswith("?") for tp in rest for t in tp):
            yield _without_dangling(replace(case, patterns=rest))
    n = len(case.elements)
    for size in sorted({n // 2, 1} - {0}, reverse=True):
        for k in range(0, n, size):
            yield replace(case, elements=case.elements[:k] + case.elements[k + size:])
    if case.range_ > 1:
        yield replace(case, range_=case.range_ - 1, step=min(case.step, case.range_ - 1))
    if case.step > 1:
        yield replace(case, step=case.step - 1)
    if case.elements and case.elements[0][0] > 0:
        shift = case.elements[0][0]
        yield replace(case, elements=tuple((t - shift, s, p, o) for t, s, p, o in case.elements))
    for k, (t, s, p, o) in enumerate(case.elements):
        for simpler in ((t, SUBJECTS[0], p, o), (t, s, PREDICATES[0], o), (t, s, p, OBJECTS[0])):
            if simpler != case.elements[k]:
                yield replace(case, elements=case.elements[:k] + (simpler,) + case.elements[k + 1:])


def _without_dangling(case: Case) -> Case:
    """The case with its projection and FILTER cut to the variables its patterns still bind."""
    from dataclasses import replace

    bound = {t for tp in case.patterns for t in tp if t.startswith("?")}
    projection = case.projection
    if projection is not None:
        projection = tuple(v for v in projection if v in bound) or None
    filter_ = case.filter if case.filter is None or case.filter.split()[0] in bound else None
    return replace(case, projection=projection, filter=filter_)


def iter_cases(count: int, seed_: int = 0) -> list[Case]:
    """``count`` random cases (the same for the same seed), e.g. for a benchmark or a notebook."""
    out: list[Case] = []

    @fixed_seed(seed_)
    @settings(max_examples=count, deadline=None, database=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def collect(case: Case) -> None:
        out.append(case)

    collect()
    return out[:count]
