"""Hunting disagreements: random RSP-QL queries and streams run on an external engine and judged
against the query's expected outputs under the engine's profile; each output that no setting of the
profile explains is shrunk to a minimal query and stream (property-based testing with hypothesis,
MacIver et al., "Hypothesis: A new approach to property-based testing", JOSS 2019) and written as a
reproducible case.

The queries are in the fragment that RSP-JS and RSP4J both accept (RSP-QL, Dell'Aglio et al. 2014,
§4; RSP-JS's README): one named time-based window ``[RANGE r STEP s]`` (durations as bare numbers,
milliseconds, read as RSP-JS reads them) on one stream, a basic graph pattern of one or two triple
patterns inside ``WINDOW``, an optional FILTER, ``SELECT *`` or a projection, RStream. The streams
are a few timestamped triples over a small vocabulary, so that joins and duplicates happen.

The module knows neither the engine nor the judge: :func:`hunt` takes a ``probe`` (run the engine on
a case and judge its output) and searches, with time bounds for the search and for each shrink.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
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

    def query_text(self) -> str:
        """The RSP-QL query."""
        select = "*" if self.projection is None else " ".join(self.projection)
        body = " . ".join(" ".join(tp) for tp in self.patterns)
        where = f"WINDOW :w {{ {body} }}"
        if self.filter is not None:
            where += f" FILTER({self.filter})"
        return (f"PREFIX : <{NAMESPACE}>\n"
                f"REGISTER RStream <{OUTPUT}> AS\n"
                f"SELECT {select}\n"
                f"FROM NAMED WINDOW :w ON STREAM :s [RANGE {self.range_} STEP {self.step}]\n"
                f"WHERE {{ {where} }}\n")

    def stream_text(self) -> str:
        """The stream as timestamped N-Triples (docs/rdf-io.md §2.1), milliseconds."""
        return "".join(f"{_nt(s)} {_nt(p)} {_nt(o)} \"{t}\" .\n" for t, s, p, o in self.elements)

    def size(self) -> int:
        """How big the case is (smaller cases are easier to read)."""
        return len(self.elements) + 2 * len(self.patterns) + (self.filter is not None)


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
    """Random cases (the fragment of the module docstring); hypothesis shrinks them towards fewer
    elements, one pattern, no FILTER, ``SELECT *`` and small windows."""
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
    return Case(range_, step, projection, patterns, filter_, elements)


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


class _Unexplained(Exception):
    """The probe's output is not explained (hypothesis then shrinks the case)."""


class _TimeUp(BaseException):
    """The search's (or the shrink's) time is up. Not an ``Exception``: hypothesis lets it through
    instead of taking it for a failure to shrink; the smallest failing case seen is the finding."""


def hunt(probe: Probe, *, seconds: float, shrink_seconds: float = 60.0, seed: int = 0,
         max_findings: int = 5, on_case: Callable[[int], None] | None = None) -> HuntReport:
    """Probe random cases for about ``seconds``; each unexplained output of a new kind is shrunk
    (for at most ``shrink_seconds``) and reported. Kinds already found are not searched again, so
    one cause does not hide the others."""
    report = HuntReport()
    start = time.monotonic()
    known: set[str] = set()
    attempt = 0
    while time.monotonic() - start < seconds and len(report.findings) < max_findings:
        found = _search(probe, deadline=start + seconds, shrink_seconds=shrink_seconds, seed=seed + attempt,
                        known=known, report=report, on_case=on_case)
        attempt += 1
        if found is None:
            break
        known.add(found.kind)
        report.findings.append(found)
    report.seconds = time.monotonic() - start
    return report


def _search(probe: Probe, *, deadline: float, shrink_seconds: float, seed: int, known: set[str],
            report: HuntReport, on_case) -> Finding | None:
    seen: dict[Case, Verdict] = {}
    kind: list[str] = []  # the kind of unexplained output this search shrinks (the first one found)
    shrink_deadline: list[float] = []

    @fixed_seed(seed)
    @settings(max_examples=100_000, deadline=None, database=None,
              phases=(Phase.generate, Phase.shrink), report_multiple_bugs=False, print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def probe_once(case: Case) -> None:
        verdict = seen.get(case)  # hypothesis may run a case again: the same answer, not probed again
        if verdict is None:
            if time.monotonic() > (shrink_deadline[0] if shrink_deadline else deadline):
                raise _TimeUp  # what was found so far is the finding
            report.probed += 1
            if on_case is not None:
                on_case(report.probed)
            verdict = seen[case] = probe(case)
        if verdict.explained or verdict.kind in known:
            return
        if kind and kind[0] != verdict.kind:
            return  # another cause: left for a later search
        if not kind:
            kind.append(verdict.kind)
            shrink_deadline.append(time.monotonic() + shrink_seconds)
        raise _Unexplained(verdict.kind)

    try:
        probe_once()
    except _Unexplained:
        pass
    except _TimeUp:
        pass
    failing = [(case, v) for case, v in seen.items() if kind and not v.explained and v.kind == kind[0]]
    if not failing:
        return None
    case, verdict = min(failing, key=lambda cv: (cv[0].size(), len(cv[0].query_text()) + len(cv[0].stream_text())))
    return Finding(verdict.kind, case, verdict, report.probed)


def write_case(finding: Finding, folder: Path, reproduce: Callable[[Path], list[str]]) -> None:
    """The finding as files in ``folder``: ``query.rq``, ``stream.nt``, the probe's files (the
    engine's output, the expected outputs, the report), ``diagnosis.txt`` and ``README.md`` with
    the commands ``reproduce(folder)`` that replay it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "query.rq").write_text(finding.case.query_text(), encoding="utf-8")
    (folder / "stream.nt").write_text(finding.case.stream_text(), encoding="utf-8")
    for name, content in finding.verdict.files.items():
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "diagnosis.txt").write_text(finding.kind + "\n", encoding="utf-8")
    (folder / "case.json").write_text(json.dumps(asdict(finding.case), indent=1) + "\n", encoding="utf-8")
    lines = ["# A disagreement found by `rsplars hunt`", "", f"Diagnosis: {finding.kind}", "",
             "Reproduce:", "", "```sh", *reproduce(folder), "```", ""]
    (folder / "README.md").write_text("\n".join(lines), encoding="utf-8")


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
