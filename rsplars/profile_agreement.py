"""The answer streams of two engine profiles compared time by time: :func:`agree_profiles` →
:class:`ProfileAgreementResult`, as ``rsplars agree QUERY --profiles A,B`` (or ``--pull QUERY_A --push
QUERY_B --profile X``): each relation an engine reports under its report policy (Dell'Aglio et al.
2014, Defs. 20–24), and whether one output is a correct output of the other profile for some t0
(Def. 25; :func:`translator.agreement.check.compare_profiles`, docs/check.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from lars.errors import RsplarsError

from rsplars.checking import _count, write_report
from rsplars.data import StaticDuring, StaticInput, StreamInput, read_data
from rsplars.queries import QueryInput, as_query, source_of
from translator.options import ProfileOptions

__all__ = ["ProfileAgreementResult", "agree_profiles"]


@dataclass(frozen=True, repr=False)
class ProfileAgreementResult:
    """``equal`` (the two answer streams are equal) and ``report``, the JSON report of ``rsplars agree
    --profiles A,B --report`` (the sides' labels, queries and parameters, the timeline of both
    streams, the first difference, whether each output is correct under the other profile)."""

    equal: bool
    report: dict[str, Any]

    def __repr__(self) -> str:
        return f"ProfileAgreementResult(equal={self.equal}, profiles={self.report['profiles']!r})"

    def write(self, json: str | os.PathLike[str] | None = None) -> None:
        """The JSON report to ``json``, if given, written atomically (no partial report)."""
        write_report(self.report, json, None, str)


def agree_profiles(query_a: QueryInput, query_b: QueryInput | None, streams: Mapping[str, StreamInput],
                   static: StaticInput = None, named: Mapping[str, str | os.PathLike[str]] | None = None, *,
                   profiles: tuple[ProfileOptions, ProfileOptions], labels: tuple[str, str] | None = None,
                   window_bounds: str | None = None, unit: str = "s", start: int | None = None,
                   end: int | None = None, compare: str = "bags", lars_engine: str = "auto",
                   stream_time_unit: str | None = None, epoch: str | None = None,
                   static_during: Sequence[StaticDuring] = (), accounting: Any = None) -> ProfileAgreementResult:
    """The answer streams of ``query_a`` under ``profiles[0]`` and ``query_b`` (``None``: ``query_a``
    again) under ``profiles[1]`` over ``streams``, compared time by time from ``start`` to ``end``;
    ``labels``: the sides' names in the report (default the profiles' names); ``window_bounds``: the
    window model of both (default each profile's); ``compare``: relations as ``bags`` or ``sets``.
    Data, ``accounting`` and ``lars_engine`` as for :func:`rsplars.check`.

    >>> import rsplars
    >>> q = "PREFIX : <http://example.org/> SELECT ?x WHERE { STREAM :s [RANGE 2s SLIDE 2s] { ?x :p ?y } }"
    >>> data = [(("<http://example.org/a>", "<http://example.org/p>", '"1"'), 1)]
    >>> sides = (rsplars.ProfileOptions("csparql"), rsplars.ProfileOptions("cqels"))
    >>> rsplars.agree_profiles(q, None, {"http://example.org/s": data}, profiles=sides, end=4).equal
    False
    """
    from translator.agreement.check import compare_profiles
    from translator.evaluate.operational import Evaluator
    from translator.evaluate.profiles import get_profile, operational_parameters
    from translator.translate.compile import compile_query
    from translator.translate.normalize import TimeBase

    if not streams:
        raise RsplarsError("the answer streams of two profiles are compared on streams (IRI → data)")
    for side in profiles:
        if side.profile is not None:
            get_profile(side.profile)  # a named error for an unknown profile
    ops: list[Any] = [operational_parameters(side, window_bounds=window_bounds, unit=unit) for side in profiles]
    a = as_query(query_a)
    b = a if query_b is None else as_query(query_b)
    data = read_data(streams, static, named, unit=unit, stream_time_unit=stream_time_unit, epoch=epoch,
                     static_during=static_during, accounting=accounting)
    base = TimeBase(unit)
    evaluators = []
    for query, op in zip((a, b), ops):
        compiled = compile_query(query, mode="none", bounds=op.window_model, base=base)
        evaluators.append(Evaluator(compiled.query, compiled.strategy, base, data.elements, data.facts,
                                    engine=lars_engine))
    result = compare_profiles(evaluators[0], ops[0], evaluators[1], ops[1], start=start, end=end, compare=compare)
    names = list(labels) if labels is not None else [side.profile or "options" for side in profiles]
    report = {"profiles": names, "queries": [source_of(a).source, source_of(b).source],
              "parameters": [op.as_dict() for op in ops], **result}
    _count(accounting, data.elements, end)
    return ProfileAgreementResult(bool(report["equal"]), report)
