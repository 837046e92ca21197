"""Translating a query: :func:`translate` to LARS, ASP, the query model (JSON) or another dialect,
as ``rsplars translate --to TARGET`` does (docs/translation.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from lars.errors import RsplarsError

from translator.translate.variants import compile_variants
from translator.options import ProfileOptions, TranslationOptions
from rsplars.queries import QueryInput, as_query, source_of

__all__ = ["TARGETS", "Translation", "translate", "translations"]

#: the targets of :func:`translate` (those of ``rsplars translate --to``)
TARGETS = ("model", "query", "lars", "asp", "rspql", "csparql", "cqels", "rsepql")


@dataclass(frozen=True)
class Translation:
    """One compiled program of a query: ``label`` (``Q``, or ``cs(Q)``/a member of cq(Q) for
    ``as_variant``), the :class:`translator.translate.compile.Compiled` program (``compiled.program``
    the LARS program, ``compiled.variables`` the answer variables, ``compiled.mode`` push/pull/none,
    ``compiled.period``), its LARS text and its ASP encoding."""

    label: str
    compiled: Any
    lars: str
    asp: str


def translate(query: QueryInput, to: str = "lars", *, options: TranslationOptions = TranslationOptions(),
              profile: ProfileOptions | None = None, r2s: str | None = None, unicode: bool = False,
              aggregates: str = "portable", on_note: Callable[[str], None] | None = None) -> str:
    """The text of ``query`` as ``to`` (one of :data:`TARGETS`), as ``rsplars translate --to``:

    * ``lars``: the LARS program (Dao-Tran, Beck, Eiter 2015, §4: τ1/τ2, Table 1 windows,
      push/pull) after a ``% label: …`` comment line per program — text that
      :func:`lars.syntax.parse_program` reads back (``unicode``: the paper's notation;
      ``aggregates="native"``: the incremental engine's external aggregates); with ``profile``
      (and for RSP-QL queries, which run under the ``rsp-ql`` profile) the program of the report
      policy (docs/check.md);
    * ``asp``: its clingo encoding (docs/asp-encoding.md);
    * ``model``: the query model as JSON (docs/model-json.md); ``query``: the query printed back;
    * ``rspql``, ``csparql``, ``cqels``, ``rsepql``: the query in that dialect, same answers.

    ``r2s``: the R2S operator of the report-policy program (overrides the profile's, and the one an
    RSP-QL registration names). ``on_note``: called with each remark (``note: …``) on the
    translation, e.g. what a dialect printer changed or why an RSP-QL query runs its plain
    translation (the command line prints them on stderr).

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 10s SLIDE 2s] { ?x :p ?y } }'''
    >>> print(rsplars.translate(q, "lars").splitlines()[0])
    % Q: strategy tau2, mode push, window bounds closed, time unit s; answers: answer(?x)
    """
    if to not in TARGETS:
        raise RsplarsError(f"unknown target {to!r} (expected one of {', '.join(TARGETS)})")
    parsed = as_query(query)
    if to == "model":
        from translator.query.model_json import query_json

        return json.dumps(query_json(parsed), indent=2, ensure_ascii=False) + "\n"
    if to == "query":
        from translator.query.printer import print_query

        return str(print_query(parsed))
    if to in ("rspql", "csparql", "cqels", "rsepql"):
        from translator.query.dialect_print import print_in_dialect

        src = source_of(parsed)
        text, notes = print_in_dialect(parsed, to, source=src.source, text=src.text)
        for note in notes:
            _note(on_note, f"note: {note}")
        return str(text)
    if to == "lars":
        profile = dialect_profile(parsed, options, profile, r2s, on_note=on_note)
        if profile is not None:
            return _operational_lars(parsed, options, profile, unicode)
    from translator.translate.compile import program_header

    out = []
    warnings: list[str] = []  # of the translation (an EP-SPARQL pattern without a bound)
    variants = compile_variants(parsed, options, (), warnings)
    for warning in warnings:
        _note(on_note, warning)
    for label, compiled in variants:
        out.append(program_header(label, compiled, options.unit))
        if to == "asp":
            from translator.translate.asp_export import program_text

            out.append(program_text(compiled.program))
        else:
            from lars.printer import format_program

            native = aggregates == "native" and compiled.native is not None
            program = compiled.native if native else compiled.program
            out.append(format_program(program, unicode, base_unit=options.unit).rstrip("\n") + "\n")
    return "\n".join(out)


def translations(query: QueryInput, *, options: TranslationOptions = TranslationOptions()) -> list[Translation]:
    """The compiled programs of ``query`` (one, or one per counterpart of ``options.as_variant``),
    each with its LARS text and ASP encoding.

    >>> import rsplars
    >>> q = '''PREFIX : <http://example.org/>
    ... SELECT ?x WHERE { STREAM :s [RANGE 10s SLIDE 2s] { ?x :p ?y } }'''
    >>> [t.label for t in rsplars.translations(q, options=rsplars.TranslationOptions(as_variant="csparql"))]
    ['cs(Q)']
    """
    from lars.printer import format_program
    from translator.translate.asp_export import program_text

    return [Translation(label, compiled, format_program(compiled.program, False, base_unit=options.unit),
                        program_text(compiled.program))
            for label, compiled in compile_variants(as_query(query), options)]


def dialect_profile(query: Any, options: TranslationOptions, profile: ProfileOptions | None,
                    r2s: str | None = None, *, on_note: Callable[[str], None] | None = None) -> ProfileOptions | None:
    """``profile`` (where it names no R2S: ``r2s``, else that of an RSP-QL registration; where it names
    no profile, the dialect's: its fields override that profile's parameters), else the profile of
    the query's dialect (RSP-QL: ``rsp-ql``, with ``r2s`` or the R2S of its registration) unless the options ask for a plain
    translation (mode, period, as_variant) or the query has windows a report policy cannot run (as
    ``rsplars run``/``translate`` decide, :func:`translator.evaluate.profiles.dialect_defaults`;
    ``on_note`` hears why)."""
    if query.dialect == "rspql":  # the one dialect with a profile of its own: other runs load no profiles
        from translator.evaluate.profiles import dialect_defaults

        registration = getattr(query, "registration", None)
        name, default_r2s = dialect_defaults(query.dialect, registration.kind if registration is not None else None)
    else:
        name, default_r2s = None, None
    plain = bool(options.mode or options.period or options.as_variant)
    if profile is not None:  # the R2S of an RSP-QL registration, unless r2s or the profile names one
        from dataclasses import replace

        r2s = r2s or default_r2s
        if r2s is not None and profile.r2s is None:
            profile = replace(profile, r2s=r2s)
        if profile.profile is None and name is not None and not plain:  # parameters of the dialect's profile
            profile = replace(profile, profile=name)
        return profile
    if query.dialect != "rspql" or plain:
        return None
    if name is None:
        return None
    other = sorted({w.window.kind for w in query.dataset.windows} - {"range", "tumbling"})
    if other:  # report policies need time-based sliding windows
        _note(on_note, f"note: the {name} profile reports on time-based sliding windows (Dell'Aglio et al. 2013, "
                       f"§2.3); a query with {' and '.join(other)} windows runs its plain translation (pulled at the "
                       "windows' slide, pushed when every window counts triples)")
        return None
    return ProfileOptions(name, r2s=r2s or default_r2s)


def _note(on_note: Callable[[str], None] | None, text: str) -> None:
    if on_note is not None:
        on_note(text)


def _operational_lars(query: Any, options: TranslationOptions, profile: ProfileOptions, unicode: bool) -> str:
    """The program of the report policy (:func:`translator.evaluate.operational.report_program`)
    after comment lines with the parameters, as ``rsplars translate --to lars --profile``."""
    from dataclasses import replace

    from translator.evaluate.operational import report_programs_text

    if options.mode or options.period:
        raise RsplarsError("mode/period and a profile exclude each other: the report policy decides when the "
                           "query is evaluated")
    from translator.evaluate.profiles import operational_parameters

    op: Any = operational_parameters(profile, window_bounds=_given_bounds(options), unit=options.unit)
    plain = replace(options, window_bounds=op.window_model, mode="none")
    return str(report_programs_text(compile_variants(query, plain), op, options.unit, unicode))


def _given_bounds(options: TranslationOptions) -> str | None:
    """The window bounds the options name, ``None`` for the default (the profile's then decide)."""
    return options.window_bounds
