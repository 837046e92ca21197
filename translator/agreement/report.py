"""What an agreement report is about: its inputs, the verdicts and the optional diagnosis.

Every renderer (:mod:`.table`, :mod:`.report_json`, :mod:`.report_html`) takes one
:class:`AgreementReport`; none of them computes anything about agreement itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lars.windows import WindowBounds, WindowBoundsError
from translator.agreement.diagnosis import Diagnosis
from translator.agreement.errors import AgreementError
from translator.agreement.static_check import StaticCheck
from translator.agreement.verdicts import AgreementResult

#: how the two runs were obtained (``mode`` in the JSON report)
MODES = ("two-queries", "cqels-brave", "cqels-cautious", "cqels-all")


@dataclass(frozen=True)
class QueryInput:
    """One query of the analysis: its role (``pull`` or ``push``), where it came from, how it ran."""

    role: str
    source: str
    dialect: str | None = None
    translation: str | None = None  # "tau1" (C-SPARQL, cs(Q)) or "tau2" (CQELS, cq(Q))


@dataclass(frozen=True)
class StreamInput:
    """One input stream: its IRI and the file its elements were read from."""

    iri: str
    file: str


@dataclass(frozen=True)
class ReportInputs:
    """The options of the analysis as the user gave them (after defaults were applied)."""

    queries: tuple[QueryInput, ...]
    streams: tuple[StreamInput, ...]
    period: int
    window_bounds: WindowBounds | str = WindowBounds.CLOSED  # an option string is parsed into WindowBounds
    mode: str = "two-queries"
    static: tuple[str, ...] = ()
    time_from: int | None = None
    time_to: int | None = None
    time_unit: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise AgreementError(f"unknown agreement mode {self.mode!r}; expected one of {', '.join(MODES)}")
        try:  # an option string (D2)
            object.__setattr__(self, "window_bounds", WindowBounds.parse(self.window_bounds))
        except WindowBoundsError as error:
            raise AgreementError(str(error)) from None
        for query in self.queries:
            if query.role not in ("pull", "push"):
                raise AgreementError(f"a query's role is 'pull' or 'push', got {query.role!r}")


@dataclass(frozen=True)
class AgreementReport:
    """The inputs, the headline verdicts and (optionally) their diagnosis and the static check of (ii)."""

    inputs: ReportInputs
    result: AgreementResult
    diagnosis: Diagnosis | None = None
    static_check: StaticCheck | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.inputs.period != self.result.period:
            raise AgreementError(
                f"report inputs say period {self.inputs.period}, the verdicts were computed with {self.result.period}"
            )
        if self.diagnosis is not None and self.diagnosis.headline != self.result:
            raise AgreementError("the diagnosis was computed for other verdicts than the report's")
