"""rsplars: continuous RDF stream queries (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL, RSEP-QL)
translated into LARS programs (Dao-Tran, Beck, Eiter 2015), solved, and compared with real engines.

The API researchers import (docs/api.md); the ``rsplars`` command line does the same steps:

* :func:`parse` — a query text or file → :class:`Query`;
* :func:`translate` — a query → LARS, ASP, the query model or another dialect (``rsplars translate``);
  :func:`translations` — the compiled programs;
* :func:`run` — answers over streams (files, ``(triple, time)`` iterables, pandas DataFrames) →
  :class:`RunResult` (``rsplars run``); :func:`evaluations` — the same run, each evaluation
  computed as it is taken (:class:`Evaluations`: what ``rsplars run`` writes as it goes);
* :func:`parse_program`, :func:`lars_run` — a LARS program over a LARS stream, one
  :class:`LarsStep` per reference time (``rsplars lars``);
* :func:`agree` — pull vs push, interval by interval → :class:`AgreementResult` (``rsplars agree``);
* :func:`check` — an engine's recorded output under a profile → :class:`CheckResult`;
  :func:`infer` — the settings that explain it → :class:`InferenceResult` (``rsplars check``).

Options are frozen dataclasses (:class:`TranslationOptions`, :class:`ProfileOptions`,
:class:`EventOptions`; :class:`SparkOptions` for ``run``/``agree`` with ``engine="spark"``); user errors
are :class:`RsplarsError` (with file, line and column: :class:`SourceError`).

>>> import rsplars
>>> rsplars.parse("SELECT ?x WHERE { ?x ?p ?o }", dialect="rspql").dialect
'rspql'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names for mypy and pdoc; at run time each submodule is imported on first use
    from rsplars.agreement import AgreementResult, Agreements, agree, agreements
    from rsplars.answer_sets import answer_sets
    from rsplars.checking import AnswersInput, CheckResult, InferenceResult, check, infer
    from rsplars.data import StaticDuring, StaticInput, StreamInput
    from rsplars.diagnosing import Diagnosis, diagnose
    from rsplars.errors import (
        AgreementError,
        DialectMismatchError,
        PolicyError,
        QuerySemanticError,
        QuerySyntaxError,
        RsplarsError,
        RunError,
        SourceError,
        UnsupportedError,
    )
    from rsplars.generating import DataFiles, GeneratedData, citybench_streams, coupon_streams, random_stream
    from rsplars.hunting import HuntFinding, HuntResult, hunt
    from rsplars.live import LiveEngine, LiveRun, judged_end, run_engine, run_live
    from rsplars.profile_agreement import ProfileAgreementResult, agree_profiles
    from rsplars.programs import LarsStep, lars_run, parse_program
    from rsplars.queries import DIALECTS, Query, QueryInput, parse
    from rsplars.reading import read_streams
    from rsplars.recorded import RecordedAgreementResult, RecordedAnswers, agree_recorded
    from rsplars.running import FORMATS, Evaluations, RunResult, evaluations, run
    from rsplars.spark import SparkOptions
    from rsplars.translating import TARGETS, Translation, translate, translations
    from rsplars.translation_parts import BOUNDS, STRATEGIES, ProgramSummary, StreamWindow, cs, program, windows
    from translator.options import EventOptions, ProfileOptions, TranslationOptions

#: public name → the module that defines it (PEP 562: ``import rsplars`` loads none of them; the
#: command line imports only what its command needs, e.g. ``rsplars run`` never the agreement stage)
_SUBMODULE_OF: dict[str, str] = {
    **dict.fromkeys(("AgreementResult", "Agreements", "agree", "agreements"), "rsplars.agreement"),
    **dict.fromkeys(("answer_sets",), "rsplars.answer_sets"),
    **dict.fromkeys(("AnswersInput", "CheckResult", "InferenceResult", "check", "infer"), "rsplars.checking"),
    **dict.fromkeys(("StaticDuring", "StaticInput", "StreamInput"), "rsplars.data"),
    **dict.fromkeys(("Diagnosis", "diagnose"), "rsplars.diagnosing"),
    **dict.fromkeys(("AgreementError", "DialectMismatchError", "PolicyError", "QuerySemanticError",
                     "QuerySyntaxError", "RsplarsError", "RunError", "SourceError", "UnsupportedError"),
                    "rsplars.errors"),
    **dict.fromkeys(("DataFiles", "GeneratedData", "citybench_streams", "coupon_streams", "random_stream"),
                    "rsplars.generating"),
    **dict.fromkeys(("HuntFinding", "HuntResult", "hunt"), "rsplars.hunting"),
    **dict.fromkeys(("LiveEngine", "LiveRun", "judged_end", "run_engine", "run_live"), "rsplars.live"),
    **dict.fromkeys(("ProfileAgreementResult", "agree_profiles"), "rsplars.profile_agreement"),
    **dict.fromkeys(("LarsStep", "lars_run", "parse_program"), "rsplars.programs"),
    **dict.fromkeys(("DIALECTS", "Query", "QueryInput", "parse"), "rsplars.queries"),
    **dict.fromkeys(("read_streams",), "rsplars.reading"),
    **dict.fromkeys(("RecordedAgreementResult", "RecordedAnswers", "agree_recorded"), "rsplars.recorded"),
    **dict.fromkeys(("FORMATS", "Evaluations", "RunResult", "evaluations", "run"), "rsplars.running"),
    **dict.fromkeys(("SparkOptions",), "rsplars.spark"),
    **dict.fromkeys(("TARGETS", "Translation", "translate", "translations"), "rsplars.translating"),
    **dict.fromkeys(("BOUNDS", "STRATEGIES", "ProgramSummary", "StreamWindow", "cs", "program", "windows"),
                    "rsplars.translation_parts"),
    **dict.fromkeys(("EventOptions", "ProfileOptions", "TranslationOptions"), "translator.options"),
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its submodule on first use (PEP 562) and kept here."""
    module = _SUBMODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'rsplars' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "BOUNDS",
    "DIALECTS",
    "FORMATS",
    "STRATEGIES",
    "TARGETS",
    "AgreementError",
    "AgreementResult",
    "Agreements",
    "AnswersInput",
    "CheckResult",
    "DataFiles",
    "Diagnosis",
    "DialectMismatchError",
    "Evaluations",
    "EventOptions",
    "GeneratedData",
    "HuntFinding",
    "HuntResult",
    "InferenceResult",
    "LarsStep",
    "LiveEngine",
    "LiveRun",
    "PolicyError",
    "ProfileAgreementResult",
    "ProfileOptions",
    "ProgramSummary",
    "Query",
    "QueryInput",
    "QuerySemanticError",
    "QuerySyntaxError",
    "RecordedAgreementResult",
    "RecordedAnswers",
    "RsplarsError",
    "RunError",
    "RunResult",
    "SourceError",
    "SparkOptions",
    "StaticDuring",
    "StaticInput",
    "StreamInput",
    "StreamWindow",
    "Translation",
    "TranslationOptions",
    "UnsupportedError",
    "agree",
    "agree_profiles",
    "agree_recorded",
    "agreements",
    "answer_sets",
    "check",
    "citybench_streams",
    "coupon_streams",
    "cs",
    "diagnose",
    "evaluations",
    "hunt",
    "infer",
    "judged_end",
    "lars_run",
    "parse",
    "parse_program",
    "program",
    "random_stream",
    "read_streams",
    "run",
    "run_engine",
    "run_live",
    "translate",
    "translations",
    "windows",
]
