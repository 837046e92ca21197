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
  :func:`infer` — the settings that explain it → :class:`InferenceResult` (``rsplars check``).

Options are frozen dataclasses (:class:`TranslationOptions`, :class:`ProfileOptions`,
:class:`EventOptions`); user errors
are :class:`RsplarsError` (with file, line and column: :class:`SourceError`).

>>> import rsplars
>>> rsplars.parse("SELECT ?x WHERE { ?x ?p ?o }", dialect="rspql").dialect
'rspql'
"""

from __future__ import annotations

from rsplars.agreement import AgreementResult, agree
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
from rsplars.live import ENGINES, EngineRun, HuntResult, hunt, run_engine
from rsplars.programs import BOUNDS, STRATEGIES, ProgramSummary, StreamWindow, cs, program, windows
from rsplars.queries import DIALECTS, Query, QueryInput, parse
from rsplars.reading import read_streams
from rsplars.running import FORMATS, RunResult, run
from rsplars.translating import TARGETS, Translation, translate, translations

__all__ = [
    "DIALECTS",
    "FORMATS",
    "TARGETS",
    "AgreementError",
    "AgreementResult",
    "AnswersInput",
    "CheckResult",
    "DialectMismatchError",
    "EventOptions",
    "InferenceResult",
    "PolicyError",
    "ProfileOptions",
    "Query",
    "QueryInput",
    "QuerySemanticError",
    "QuerySyntaxError",
    "RsplarsError",
    "RunError",
    "RunResult",
    "SourceError",
    "StaticDuring",
    "StaticInput",
    "StreamInput",
    "TranslationOptions",
    "Translation",
    "UnsupportedError",
    "agree",
    "answer_sets",
    "check",
    "infer",
    "parse",
    "run",
    "translate",
    "translations",
    "BOUNDS",
    "STRATEGIES",
    "DataFiles",
    "ENGINES",
    "EngineRun",
    "HuntResult",
    "Diagnosis",
    "GeneratedData",
    "ProgramSummary",
    "StreamWindow",
    "citybench_streams",
    "cs",
    "coupon_streams",
    "diagnose",
    "hunt",
    "program",
    "random_stream",
    "read_streams",
    "run_engine",
    "windows",
]
