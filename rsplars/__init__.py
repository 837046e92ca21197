"""rsplars: continuous RDF stream queries (C-SPARQL, CQELS-QL, EP-SPARQL, RSP-QL, RSEP-QL)
translated into LARS programs (Dao-Tran, Beck, Eiter 2015), solved, and compared with real engines.

The API researchers import (docs/api.md); the ``rsplars`` command line does the same steps:

* :func:`parse` — a query text or file → :class:`Query`;
* :func:`translate` — a query → LARS, ASP, the query model or another dialect (``rsplars translate``);
  :func:`translations` — the compiled programs;
* :func:`run` — answers over streams (files, ``(triple, time)`` iterables, pandas DataFrames) →
  :class:`RunResult` (``rsplars run``);
* :func:`agree` — pull vs push, interval by interval → :class:`AgreementResult` (``rsplars agree``);
* :func:`check` — an engine's recorded output under a profile → :class:`CheckResult`;
  :func:`infer` — the settings that explain it → :class:`InferenceResult` (``rsplars check``);
* :func:`run_live` (several engines, a ``with`` block) and :func:`run_engine` (one engine, one call)
  — real engines run live → :class:`LiveRun`, judged as recorded outputs (``--live-engine``);
  :func:`hunt` — random cases on which an engine disagrees with its profile → :class:`HuntResult`
  (``rsplars hunt``).

Options are frozen dataclasses (:class:`TranslationOptions`, :class:`ProfileOptions`,
:class:`EventOptions`; :class:`SparkOptions` for ``run``/``agree`` with ``engine="spark"``); user errors
are :class:`RsplarsError` (with file, line and column: :class:`SourceError`).

>>> import rsplars
>>> rsplars.parse("SELECT ?x WHERE { ?x ?p ?o }", dialect="rspql").dialect
'rspql'
"""

from __future__ import annotations

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
from translator.options import EventOptions, ProfileOptions, TranslationOptions
from rsplars.generating import DataFiles, GeneratedData, citybench_streams, coupon_streams, random_stream
from rsplars.hunting import HuntFinding, HuntResult, hunt
from rsplars.live import LiveEngine, LiveRun, judged_end, run_engine, run_live
from rsplars.profile_agreement import ProfileAgreementResult, agree_profiles
from rsplars.programs import BOUNDS, STRATEGIES, ProgramSummary, StreamWindow, cs, program, windows
from rsplars.queries import DIALECTS, Query, QueryInput, parse
from rsplars.reading import read_streams
from rsplars.recorded import RecordedAgreementResult, RecordedAnswers, agree_recorded
from rsplars.running import FORMATS, RunResult, run
from rsplars.spark import SparkOptions
from rsplars.translating import TARGETS, Translation, translate, translations

__all__ = [
    "DIALECTS",
    "FORMATS",
    "TARGETS",
    "AgreementError",
    "AgreementResult",
    "Agreements",
    "AnswersInput",
    "CheckResult",
    "DialectMismatchError",
    "EventOptions",
    "InferenceResult",
    "LiveEngine",
    "LiveRun",
    "PolicyError",
    "ProfileAgreementResult",
    "ProfileOptions",
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
    "TranslationOptions",
    "Translation",
    "UnsupportedError",
    "agree",
    "agree_profiles",
    "agree_recorded",
    "agreements",
    "answer_sets",
    "check",
    "hunt",
    "infer",
    "judged_end",
    "parse",
    "run",
    "run_live",
    "translate",
    "translations",
    "BOUNDS",
    "STRATEGIES",
    "DataFiles",
    "HuntFinding",
    "HuntResult",
    "Diagnosis",
    "GeneratedData",
    "ProgramSummary",
    "StreamWindow",
    "citybench_streams",
    "cs",
    "coupon_streams",
    "diagnose",
    "program",
    "random_stream",
    "read_streams",
    "run_engine",
    "windows",
]
