"""Options and steps shared by ``translate``, ``run`` and ``agree``: reading a query, the
translation options, reading streams and static data, writing output atomically."""

from __future__ import annotations

import argparse
import sys

from lars.errors import RsplarsError
from lars.windows import WINDOW_BOUNDS
from translator.options import TranslationOptions
from translator.translate import variants

UNITS = ("ms", "s", "m", "h", "d")


def read_text(path: str, what: str = "query") -> tuple[str, str]:
    """(text, source name) of a file, ``-`` = stdin."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(), path
    except OSError as exc:
        raise RsplarsError(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RsplarsError(f"cannot read {what} {path}: not UTF-8 text ({exc.reason})") from None


#: the option groups of ``translate``, ``run``, ``agree`` and ``check``: key → (title, description).
#: :func:`option_groups` creates them in the order a command lists them; ``--help`` shows them so.
OPTION_GROUPS: dict[str, tuple[str, str | None]] = {
    "input": ("input", None),
    "query": ("query", None),
    "semantics": ("semantics", None),
    "profile": ("engine profile (docs/check.md)",
                "Any of these selects the report-policy semantics of a real engine. Without --profile: window "
                "close, left-open windows, rstream, empty relations emitted."),
    "epsparql": ("EP-SPARQL and RSEP-QL queries only (docs/epsparql.md)", None),
    "comparison": ("comparison", None),
    "output": ("output", None),
    "scale_out": ("evaluation engine and scale-out (Spark, docs/spark.md)", None),
    "robustness": ("robustness (docs/robustness.md)", None),
}


def option_groups(p: argparse.ArgumentParser, *keys: str) -> dict:
    """The argument groups ``keys`` of :data:`OPTION_GROUPS` on ``p``, created in that order."""
    return {key: p.add_argument_group(*OPTION_GROUPS[key]) for key in keys}


def add_query_options(p, *, epsparql=None) -> None:
    """``--dialect``, ``--lenient`` on ``p`` (a parser or an argument group); ``--bare-ns`` on
    ``epsparql`` if given (an option of EP-SPARQL queries only), else on ``p``. Options with long
    lists of choices name them in their help (``%(choices)s``), so that each fits a line or two."""
    p.add_argument("--dialect", choices=["auto", "csparql", "cqels", "epsparql", "rspql", "rsepql"],
                   default="auto", metavar="D",
                   help="%(choices)s (default: detected)")
    p.add_argument("--lenient", action="store_true",
                   help="accept the quirks of the papers' printed queries (docs/model-json.md)")
    (epsparql if epsparql is not None else p).add_argument(
        "--bare-ns", dest="bare_ns", metavar="IRI",
        help=("" if epsparql is not None else "EP-SPARQL: ") + "namespace of bare names (default "
             "http://rsplars.invalid/bare#)")


def add_translation_options(p, *, mode: bool = True, query=None) -> None:
    """``--mode``, ``--period`` (with ``mode``), ``--strategy``, ``--window-bounds``, ``--unit`` on
    ``p``; ``--as`` and ``--assign`` (which query is translated) on ``query`` if given, else on ``p``."""
    if mode:
        p.add_argument("--mode", choices=["push", "pull", "none"], metavar="MODE",
                       help="%(choices)s (Dao-Tran, Beck, Eiter 2015, §4.1; default: pull for C-SPARQL, push "
                            "for CQELS)")
        p.add_argument("--period", metavar="DUR",
                       help="pull period, e.g. 5m (default: COMPUTED EVERY, else the window STEP)")
    p.add_argument("--strategy", choices=["tau1", "tau2"], metavar="TAU",
                   help="tau1 (C-SPARQL: streams merged into the default graph) or tau2 (CQELS: STREAM "
                        "patterns); default: the query's own")
    q = query if query is not None else p
    q.add_argument("--as", dest="as_", choices=["csparql", "cqels-brave", "cqels-cautious", "cqels-all"],
                   metavar="VARIANT",
                   help="%(choices)s: run cs(Q) or a member of cq(Q) instead (Dao-Tran, Beck, Eiter 2015, §3)")
    q.add_argument("--assign", action="append", default=[], metavar="I=IRI",
                   help="for --as cqels-*: triple pattern I (from 1) reads stream IRI (repeatable; default: "
                        "read off the data)")
    add_window_bounds(p)
    p.add_argument("--unit", choices=UNITS, default="s", help="base time unit (D1; default: s)")


def add_window_bounds(p) -> None:
    """``--window-bounds`` (D2, docs/decisions.md)."""
    p.add_argument("--window-bounds", choices=list(WINDOW_BOUNDS), default="closed", metavar="B",
                   help="closed [t-L, t] (default), left-open (t-L, t], right-open [t-L, t) (D2); with --profile "
                        "or any operational option the profile decides")


def add_data_options(p, *, stream_required: bool) -> None:
    """``--stream``, ``--stream-time-unit``, ``--epoch``, ``--static``, ``--named``,
    ``--static-during`` on ``p`` (a parser or an argument group; docs/rdf-io.md)."""
    p.add_argument("--stream", action="append", default=[], metavar="IRI=FILE", required=stream_required,
                   help="an input stream (repeatable): timestamped N-Triples, TriG, the papers' notation or a "
                        "folder of NAME<k>.ttl; - is stdin (docs/rdf-io.md)")
    p.add_argument("--stream-time-unit", choices=UNITS, metavar="U",
                   help="unit of integer timestamps (default: --unit)")
    p.add_argument("--epoch", metavar="DATETIME", help="time 0 for xsd:dateTime timestamps (default: the first one)")
    p.add_argument("--static", action="append", default=[], metavar="FILE",
                   help="static data for the default graph, any RDF syntax (repeatable)")
    p.add_argument("--named", action="append", default=[], metavar="IRI=FILE", help="a named static graph (repeatable)")
    p.add_argument("--static-during", action="append", default=[], metavar="FROM..TO=FILE",
                   help="static data that holds only from FROM to TO (base units; repeatable)")


class Default(str):
    """An option's default that the user did not give: a profile's parameter overrides it, an
    explicit option overrides the profile (``--r2s``, ``--window-bounds``)."""


def given(value) -> bool:
    return value is not None and not isinstance(value, Default)


def read_query(path: str, dialect: str = "auto", *, lenient: bool = False, bare_ns: str | None = None):
    """The query of the file ``path`` (``-``: stdin) parsed by :func:`rsplars.parse`, which keeps
    its text for errors that point into it later; the detected dialect and the parser's notes go to
    stderr."""
    from rsplars.queries import parse
    from translator.query.parse import detect

    text, source = read_text(path)
    if dialect == "auto":  # translator.query.dialect.detect_dialect, remembered for a query run again
        dialect, reason = detect(text, source)
        print(f"rsplars: dialect: {dialect} ({reason})", file=sys.stderr)
    query = parse(text, dialect, source=source, lenient=lenient, bare_ns=bare_ns)
    for note in query.notes:
        print(f"rsplars: {note}", file=sys.stderr)
    return query


def parse_query(args: argparse.Namespace, path: str):
    """:func:`read_query` with ``--dialect``, ``--lenient``, ``--bare-ns``; the text is kept on
    ``args`` too (``query_text``, ``query_source``) for errors that point into it later."""
    from rsplars.queries import source_of

    query = read_query(path, args.dialect, lenient=args.lenient, bare_ns=getattr(args, "bare_ns", None))
    src = source_of(query)
    args.query_text, args.query_source = src.text, src.source
    return query


def print_note(text: str) -> None:
    """A remark of the API (``on_note``: ``note: …``) on stderr, as the command line prints it."""
    print(f"rsplars: {text}", file=sys.stderr)


def time_spec(args: argparse.Namespace):
    from translator.rdf.timeunits import TimeSpec, datetime, parse_datetime

    epoch: datetime | None = parse_datetime(args.epoch) if getattr(args, "epoch", None) else None
    return TimeSpec(args.unit, getattr(args, "stream_time_unit", None), epoch)


def stream_files(args: argparse.Namespace) -> dict[str, str]:
    """``--stream IRI=FILE`` options as IRI → FILE (an IRI given twice is an error)."""
    from translator.rdf.streams import parse_stream_spec

    files: dict[str, str] = {}
    for spec in args.stream:
        iri, path = parse_stream_spec(spec)
        if iri in files:
            raise RsplarsError(f"--stream {iri} is given twice")
        files[iri] = path
    return files


def static_data(args: argparse.Namespace) -> tuple:
    """The static facts of ``--static``/``--named``/``--static-during``."""
    from translator.rdf.streams import parse_stream_spec

    named = dict(parse_stream_spec(s) for s in args.named)
    facts: tuple = ()
    if args.static or named:  # translator.rdf.static only for static data (rdflib's parsers but for N-Triples)
        from translator.rdf.static import load_static_facts

        facts = load_static_facts(args.static, named)
    for spec in getattr(args, "static_during", None) or ():
        facts = (*facts, *_static_during(spec))
    return facts


def named_files(args: argparse.Namespace) -> dict[str, str]:
    """``--named IRI=FILE`` options as IRI → FILE."""
    from translator.rdf.streams import parse_stream_spec

    return dict(parse_stream_spec(s) for s in getattr(args, "named", None) or ())


def static_during_pieces(args: argparse.Namespace) -> list[tuple[int | None, int | None, str]]:
    """``--static-during FROM..TO=FILE`` options as ``(FROM, TO, FILE)`` (:data:`rsplars.StaticDuring`)."""
    from translator.rdf.streams import parse_static_during_spec

    return [parse_static_during_spec(spec) for spec in getattr(args, "static_during", None) or ()]


def data_arguments(args: argparse.Namespace) -> dict:
    """The data keywords of the API's calls (``streams``, ``static``, ``named``, ``stream_time_unit``,
    ``epoch``, ``static_during``; :func:`rsplars.data.read_data`) from ``--stream``, ``--static``,
    ``--named``, ``--stream-time-unit``, ``--epoch`` and ``--static-during``."""
    return {"streams": stream_files(args), "static": list(getattr(args, "static", None) or ()),
            "named": named_files(args), "stream_time_unit": getattr(args, "stream_time_unit", None),
            "epoch": getattr(args, "epoch", None), "static_during": static_during_pieces(args)}


def parsed_query(args: argparse.Namespace, path: str):
    """:func:`parse_query`, the text remembered for the API (its reports name ``path``)."""
    from rsplars.queries import QuerySource, remember

    query = parse_query(args, path)
    remember(query, QuerySource(args.query_text, path, args.lenient, getattr(args, "bare_ns", None)))
    return query


def read_data(args: argparse.Namespace, accounting=None):
    """(stream elements merged by time, static facts) from ``--stream``/``--static``/``--named``;
    ``accounting`` (``lars.accounting``) counts the elements and skips bad ones if asked."""
    from translator.rdf.streams import merge_streams, read_streams

    files = stream_files(args)
    elements = merge_streams(read_streams(files, time=time_spec(args), accounting=accounting)) if files else []
    return elements, static_data(args)


def _static_during(spec: str):
    """``FROM..TO=FILE`` of ``--static-during``: the file's triples as rules true from FROM to TO."""
    from translator.rdf.static import hold_during, load_static_facts
    from translator.rdf.streams import parse_static_during_spec

    start, end, path = parse_static_during_spec(spec)
    return hold_during(load_static_facts([path]), start, end)


def check_stream_iris(query, stream_iris) -> None:
    """Every ``--stream IRI`` must be a stream the query reads
    (:func:`translator.translate.variants.check_stream_iris`); the notes go to stderr."""
    notes: list[str] = []
    variants.check_stream_iris(query, stream_iris, notes)
    for note in notes:
        print_note(note)


def translation_options(args: argparse.Namespace) -> TranslationOptions:
    """The :class:`~translator.options.TranslationOptions` of ``--mode``, ``--period``,
    ``--strategy``, ``--window-bounds``, ``--unit``, ``--as`` and ``--assign I=IRI``."""
    assign: dict[int, str] = {}
    for spec in getattr(args, "assign", None) or ():
        number, sep, iri = spec.partition("=")
        if not sep or not number.strip().isdigit() or int(number) < 1:
            raise RsplarsError(f"--assign: expected I=IRI with I a triple pattern number from 1, got {spec!r}")
        assign[int(number)] = iri
    bounds = args.window_bounds if given(args.window_bounds) else None  # None: closed, or the profile's
    return TranslationOptions(mode=getattr(args, "mode", None) or None, period=getattr(args, "period", None),
                              strategy=getattr(args, "strategy", None), window_bounds=bounds,
                              unit=args.unit, as_variant=getattr(args, "as_", None), assign=assign)


def assignment_from(args: argparse.Namespace, query, elements) -> dict[int, str] | None:
    """``--assign`` if given, else read off the stream data (for ``--as cqels-*`` on C-SPARQL)."""
    return variants.assignment_of(query, translation_options(args), elements)


def compile_variants(args: argparse.Namespace, query, elements=()) -> list[tuple[str, object]]:
    """[(label, Compiled)] for the query or the counterparts ``--as`` asks for
    (:func:`translator.translate.variants.compile_variants`); its warnings go to stderr."""
    notes: list[str] = []
    out = variants.compile_variants(query, translation_options(args), elements, notes)
    for note in notes:
        print_note(note)
    return out


def output(path: str | None):
    """stdout, or FILE written atomically (:func:`translator.evaluate.fileio.atomic_output`)."""
    from translator.evaluate.fileio import atomic_output

    return atomic_output(path)


class Progress:
    """A progress line on stderr for long runs, only when stderr is a terminal."""

    def __init__(self, label: str, enabled: bool | None = None) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 50:
            return
        pct = done * 100 // max(total, 1)
        if pct != self.last:
            self.last = pct
            print(f"\r{self.label}: {done}/{total} evaluations ({pct}%)", end="", file=sys.stderr, flush=True)
            if done == total:
                print(file=sys.stderr)
