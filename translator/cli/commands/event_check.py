"""``rsplars check`` and ``rsplars agree --answers A --answers B`` of an EP-SPARQL or RSEP-QL query
(docs/epsparql.md).

``check``: a recorded output of its
complex events — the JSON lines or CSV that ``rsplars run`` writes for event queries, each answer's
terms with its interval ``@start``/``@end`` — against rsplars's own run on the same streams, time by
time. The answers are bags (decision D13, docs/decisions.md): a complex event recorded once where
two project to its row and interval, or twice where one does, is wrong; ``--compare sets`` is the
set view. EP-SPARQL answers are compared at every event time (a complex event is reported at its
end, Anicic et al. 2011); RSEP-QL answers (the full ``[[MATCH E]]^t`` of Dell'Aglio et al. 2016,
Eq. 8) at the times the output records. The unrestricted policy is judged (``check`` offers no
selection or consumption option); ``--warm-up T`` and ``--to T`` limit the compared times. Exit code
0 when the output is correct, 1 when not, 2 on bad input.

``agree --answers A --answers B``: two recorded outputs of the query compared time by time, as bags
(``--compare sets``: the set view), ``--from``/``--to`` limiting the times; exit code 0 when they
agree at every time, 1 when not. There is no cause analysis: an event pattern has no windows or
report policy to vary.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter

from lars.errors import RsplarsError, SourceError
from rsplars.checking import write_report
from translator.exits import EXIT_FAILURE, EXIT_OK

START, END = "@start", "@end"
#: the mismatches a report lists (the count of all of them is given)
SHOWN = 10


def check_events(args: argparse.Namespace, query) -> int:
    """The verdict on ``args.answers`` for the event query ``query`` (module docstring)."""
    from translator.cli.commands.common import read_data
    from translator.evaluate.accounting import count_elements, new_accounting, print_summary

    if args.html:
        raise RsplarsError("--html: the check of an EP-SPARQL or RSEP-QL output writes --json only")
    from translator.query import model as M

    if not isinstance(query.form, M.Select):
        raise RsplarsError("check judges SELECT answers; this event query is not a SELECT query")
    compiled = _compiled(args, query)
    variables = compiled.variables
    recorded = read_event_answers(args.answers, variables, getattr(args, "answers_format", "auto"))
    accounting = new_accounting(getattr(args, "skip_bad_elements", False))
    elements, _facts = read_data(args, accounting)
    lo, hi = getattr(args, "warm_up", None), args.end
    expected = _expected(args, query, compiled, elements, sorted(recorded))
    view = args.compare
    times, mismatches = differences(recorded, expected, variables, view, lo, hi, ("recorded", "expected"))
    report = {"correct": not mismatches, "query": args.query_file, "answers": args.answers, "compare": view,
              "times_compared": len(times), "mismatches": len(mismatches), "first_mismatches": mismatches[:SHOWN]}
    write_report(report, args.json)
    print(_summary(report, "correct: the recorded complex events equal rsplars's", "not correct"))
    count_elements(accounting, elements, hi if hi is not None else max((x.t for x in elements), default=None))
    print_summary(accounting)
    return EXIT_OK if not mismatches else EXIT_FAILURE


def compare_event_outputs(args: argparse.Namespace, query) -> int:
    """``agree --answers A --answers B`` for an event query (module docstring)."""

    if args.html:
        raise RsplarsError("--html: two EP-SPARQL or RSEP-QL outputs are compared with --report only")
    if len(args.answers) != 2:
        raise RsplarsError(f"--answers: give two recorded outputs to compare (got {len(args.answers)})")
    compiled = _compiled(args, query)
    first, second = (read_event_answers(path, compiled.variables) for path in args.answers)
    view = args.compare or "bags"
    times, mismatches = differences(first, second, compiled.variables, view, args.start, args.end, ("A", "B"))
    report = {"agree": not mismatches, "query": args.query_file, "answers": list(args.answers), "compare": view,
              "times_compared": len(times), "mismatches": len(mismatches), "first_mismatches": mismatches[:SHOWN]}
    write_report(report, args.report)
    print(f"A = {args.answers[0]}, B = {args.answers[1]}")
    print(_summary(report, "agree: A and B report the same complex events", "disagree", ("A", "B")))
    return EXIT_OK if not mismatches else EXIT_FAILURE


def differences(first: dict[int, Counter], second: dict[int, Counter], variables: tuple[str, ...], view: str,
                lo: int | None, hi: int | None, names: tuple[str, str]) -> tuple[list[int], list[dict]]:
    """(the times compared, the answers whose counts differ between the two outputs at a time,
    each with both counts under ``names``); ``view`` ``sets`` counts each answer once."""
    times = sorted(t for t in set(first) | set(second) if (lo is None or t >= lo) and (hi is None or t <= hi))
    mismatches = []
    for t in times:
        a, b = first.get(t, Counter()), second.get(t, Counter())
        if view == "sets":
            a, b = Counter(set(a)), Counter(set(b))
        for key in sorted(set(a) | set(b), key=_key_order):
            if a[key] != b[key]:
                row, s, e = key
                mismatches.append({"t": t, "row": dict(zip(variables, row)), START: s, END: e,
                                   names[0]: a[key], names[1]: b[key]})
    return times, mismatches


def _key_order(key) -> tuple:
    row, s, e = key
    return e, s, tuple((x is not None, x or "") for x in row)


def _summary(report: dict, good: str, bad: str, names: tuple[str, str] = ("recorded", "expected")) -> str:
    view = f"compared as {report['compare']}"
    if not report["mismatches"]:
        return f"{good} at {report['times_compared']} times ({view})"
    n = report["mismatches"]
    lines = [f"{bad}: {n} {'answer differs' if n == 1 else 'answers differ'} ({view})"]
    for m in report["first_mismatches"]:
        row = ", ".join(f"?{v} = {term}" for v, term in m["row"].items() if term is not None) or "no bound variable"
        lines.append(f"  t={m['t']}: {row} on [{m[START]}, {m[END]}]: {names[0]} {m[names[0]]} time(s), "
                     f"{names[1]} {m[names[1]]}")
    return "\n".join(lines)


def _compiled(args: argparse.Namespace, query):
    """The unrestricted translation of the event query (the warning of an unbounded pattern on stderr)."""
    import sys

    from translator.translate.epsparql import compile_epsparql
    from translator.translate.normalize import TimeBase
    from translator.translate.rsepql import compile_rsepql

    base = TimeBase(args.unit)
    compiled = compile_rsepql(query, base=base) if query.dialect == "rsepql" else compile_epsparql(query, base=base)
    for warning in compiled.warnings:
        print(f"rsplars: warning: {warning}", file=sys.stderr)
    return compiled


def _expected(args: argparse.Namespace, query, compiled, elements, recorded_times: list[int]) -> dict[int, Counter]:
    """rsplars's answers: ``{t: bag of (row, start, end)}``."""
    from translator.evaluate.epsparql_run import event_answers, event_times

    if query.dialect == "rsepql":
        from translator.evaluate.rsepql_run import rsepql_answers

        times = sorted(set(recorded_times) or set(event_times(elements, None, args.end)))
        evs = rsepql_answers(compiled, elements, times=times, engine=args.lars_engine)
    else:
        evs = event_answers(compiled, elements, end=args.end, engine=args.lars_engine)
    return {ev.t: Counter(ev.rows) for ev in evs}


def read_event_answers(path: str, variables: tuple[str, ...], fmt: str = "auto") -> dict[int, Counter]:
    """A recorded output of complex events: ``{t: bag of (row of N-Triples terms, start, end)}``.

    JSON lines ``{"t": 2, "answers": [{"company": "<…>", "@start": 1, "@end": 2}, …]}`` or CSV
    ``t,var…,@start,@end`` (``rsplars run``'s formats for event queries); every duplicate kept."""
    from translator.cli.commands.common import read_text

    text, source = read_text(path)
    if fmt == "auto":
        fmt = "jsonl" if text.lstrip().startswith("{") else "csv"
    if fmt not in ("jsonl", "csv"):
        raise RsplarsError(f"--answers-format {fmt}: an EP-SPARQL or RSEP-QL output is read as jsonl or csv")
    out: dict[int, Counter] = {}
    if fmt == "jsonl":
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{source}:{number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RsplarsError(f"{where}:{exc.colno}: not JSON ({exc.msg})") from None
            if not isinstance(record, dict) or not isinstance(record.get("t"), int) \
                    or not isinstance(record.get("answers"), list):
                raise RsplarsError(f'{where}: expected {{"t": T, "answers": [...]}} (rsplars run\'s event output)')
            bag = out.setdefault(record["t"], Counter())
            for answer in record["answers"]:
                bag[_answer(answer, variables, where)] += 1
        return out
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    wanted = ["t", *variables, START, END]
    if header != wanted:
        raise RsplarsError(f"{source}:1: the CSV header is {','.join(header or [])!r}; expected {','.join(wanted)!r}")
    for number, cells in enumerate(reader, 2):
        where = f"{source}:{number}"
        if len(cells) != len(wanted):
            raise RsplarsError(f"{where}: {len(cells)} cells; expected {len(wanted)} ({','.join(wanted)})")
        answer = {v: cell for v, cell in zip(variables, cells[1:-2]) if cell != ""}
        answer[START], answer[END] = _int(cells[-2], where, START), _int(cells[-1], where, END)
        out.setdefault(_int(cells[0], where, "t"), Counter())[_answer(answer, variables, where)] += 1
    return out


def _int(text, where: str, name: str) -> int:
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    try:
        return int(text)
    except (TypeError, ValueError):
        raise RsplarsError(f"{where}: {name} {text!r} is not an integer time point") from None


def _answer(answer, variables: tuple[str, ...], where: str) -> tuple:
    from translator.rdf.terms import from_nt, to_nt

    if not isinstance(answer, dict) or START not in answer or END not in answer:
        raise RsplarsError(f"{where}: an answer without {START} and {END}: {answer!r}")
    unknown = sorted(set(answer) - {*variables, START, END})
    if unknown:
        raise RsplarsError(f"{where}: {', '.join(unknown)} is not a result variable of the query "
                           f"(expected {', '.join(variables) or 'none'})")
    row: list[str | None] = []
    for v in variables:
        term = answer.get(v)
        if term is None:
            row.append(None)
            continue
        if not isinstance(term, str):
            raise RsplarsError(f"{where}: ?{v} = {term!r} is not an N-Triples term (a string)")
        try:
            row.append(to_nt(from_nt(term)))
        except SourceError as exc:
            raise RsplarsError(f"{where}: ?{v} = {term!r} is not an N-Triples term ({exc.message})") from None
    return tuple(row), _int(answer[START], where, START), _int(answer[END], where, END)
