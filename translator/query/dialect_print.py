"""A query of one dialect as a query of another with the same answers (``rsplars translate --to
rspql|csparql|cqels``): query model → query model, printed by :mod:`translator.query.printer`.

The stream constructs are carried over through RSP-QL's named windows (Dell'Aglio et al. 2014,
Def 14), the one form all three dialects map to exactly:

* CQELS ``STREAM <s> [ω] { P }`` (τ2, Dao-Tran, Beck, Eiter 2015, §4.3) is ``WINDOW <w> { P }``
  with ``FROM NAMED WINDOW <w> ON <s> [ω]``; the window is named by the stream's IRI (a second
  window on the same stream by the IRI with ``/window2``, …).
* C-SPARQL ``FROM STREAM <s> [ω]`` merges the window content into the one default graph together
  with the static data (τ1, §4.3; Barbieri et al. 2010, §2.3): every triple pattern of the default
  graph matches the union of the windows and the static data. Printed as RSP-QL, each such triple
  pattern ``tp`` becomes ``{ SELECT DISTINCT ?v… WHERE { { WINDOW <s1> { tp } } UNION … UNION { tp } } }``
  over tp's variables ``?v…``: the merged graph is a set of triples, and tp's variables fix the triple
  matched, so a triple in both a window and the static data (or in two windows) gives one solution,
  as in the merged graph, and the answers keep their multiplicities (D5, docs/decisions.md: a plain
  UNION would count such a triple once per graph). A blank node of such a pattern becomes a variable ``?bnode_<label>`` that
  is not projected (the reading of translator.translate.normalize); under ``SELECT *`` it would be
  projected, a named error, as are property paths over the merged graph (a path cannot be split
  per triple pattern).
* C-SPARQL ``FROM NAMED STREAM <s> [ω]`` puts the window content into the named graph ``s`` (τ1):
  ``GRAPH <s> { P }`` reads exactly the window, which is ``WINDOW <s> { P }``. This is also how a
  WINDOW (or STREAM) pattern is printed in C-SPARQL, one window per stream.

The registration: C-SPARQL ``REGISTER QUERY|STREAM n AS`` reports every answer at each
evaluation, RSP-QL's ``REGISTER RSTREAM <n> AS`` (Dell'Aglio et al. 2014, Def 20); ``COMPUTED
EVERY d`` is kept only where it is the windows' STEP (the period ``rsplars run`` pulls at either
way). CQELS-QL has no registration: an RSTREAM registration is left out with a note; ISTREAM and
DSTREAM cannot be written in C-SPARQL or CQELS-QL. The execution mode is not part of the text
(pull for C-SPARQL, push for CQELS, the ``rsp-ql`` profile for RSP-QL, decision D4): the printed
query gives the original's answers under the same ``--mode``/``--period`` or ``--profile``.

EP-SPARQL → RSEP-QL (``--to rsepql``, Dell'Aglio et al. 2016, §3.3–4.2): a ``SEQ`` tree whose leaves
are groups of one triple pattern is ``MATCH { E1 SEQ E2 … }`` with each leaf an event ``EVENT ON
<w> { tp } AS Ek``, all on one landmark window ``WIN [LND 0]`` over the event stream
:data:`EVENT_STREAM` (EP-SPARQL has no window: every event from time 0 on — streams have no earlier time points —
up to the reference time). EP-SPARQL's ``e1 < s2`` (Anicic et al. 2011) is Eq. 7's ``W^int[0, t3−1]``. A
group of several triple patterns is a join of events at any times in EP-SPARQL, but a basic event
pattern matches one stream item, so it is refused, as are EQUALS, OPTIONALSEQ, EQUALSOPTIONAL,
UNION, WITHIN and the time functions (getDURATION(), …). FILTERs over the variables stand beside
MATCH. The selection and consumption policies are run options of both dialects (docs/epsparql.md
§4): the printed query gives the original's answers under the same ``--selection``/``--consumption``.

Everything else that one dialect cannot say is a :class:`NotExpressible` error at the construct's
position: ``FILE:LINE:COLUMN: <construct> cannot be written in <dialect>``.
"""

from __future__ import annotations

from decimal import Decimal

import dataclasses
import re
from dataclasses import dataclass, replace
from functools import reduce

from lars.errors import SourceError

from . import model as M

TARGETS = ("rspql", "csparql", "cqels", "rsepql")
DIALECT_NAMES = {"csparql": "C-SPARQL", "cqels": "CQELS-QL", "epsparql": "EP-SPARQL", "rspql": "RSP-QL",
                 "rsepql": "RSEP-QL"}
#: the stream an EP-SPARQL query printed as RSEP-QL reads (EP-SPARQL reads every --stream as one
#: event stream) and the name of its landmark window
EVENT_STREAM = "http://rsplars.invalid/stream/events"
EVENT_WINDOW = "http://rsplars.invalid/window/events"
#: the window kinds each dialect can write (translator/query/grammars/*.lark)
WINDOW_KINDS = {
    "csparql": ("range", "tumbling", "triples"),
    "cqels": ("range", "tumbling", "now", "all", "triples", "rows"),
    "rspql": ("range", "tumbling", "rows", "interval"),
}
WINDOW_NAMES = {"range": "a time-based window", "tumbling": "a tumbling window", "now": "the [NOW] window",
                "all": "the [ALL] window", "triples": "a count-based [TRIPLES n] window",
                "rows": "a count-based [ROWS n] window", "interval": "a [FROM NOW-a TO NOW-b] window"}
#: the name of an RSP-QL output stream for a C-SPARQL query name (which is not an IRI)
QUERY_NAMESPACE = "http://rsplars.invalid/query/"


class NotExpressible(SourceError):
    """A construct of the query that the target dialect cannot write with the same answers."""


@dataclass(frozen=True)
class Printed:
    """A query rewritten into ``query.dialect``; ``notes`` say what was left out (answers unchanged)."""

    query: M.Query
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Where:
    """Where a rewrite fails: source name and query text, to point at the construct."""

    source: str
    text: str | None

    def error(self, construct: str, target: str, position: M.Position | None = None,
              find: str | None = None, expected: str | None = None, in_where: bool = False) -> NotExpressible:
        if position is None and find is not None and self.text is not None:
            position = _locate(self.text, find, r"\bWHERE\b|\{" if in_where else None)
        line, column = (position.line, position.column) if position is not None else (None, None)
        return NotExpressible(f"{construct} cannot be written in {DIALECT_NAMES[target]}", source=self.source,
                              line=line, column=column, text=self.text, expected=expected)


def _locate(text: str, pattern: str, after: str | None = None) -> M.Position | None:
    """The position of the first match of ``pattern`` (case-insensitive) outside comments, from
    the first match of ``after`` on if given."""
    started = after is None
    for number, line in enumerate(text.splitlines(), 1):
        code = re.sub(r"#.*$", "", line) if "<" not in line else line
        offset = 0
        if not started:
            assert after is not None  # not started: there is a pattern to start after
            m = re.search(after, code, re.I)
            if not m:
                continue
            started, offset = True, m.end()
        m = re.search(pattern, code[offset:], re.I)
        if m:
            return M.Position(number, offset + m.start() + 1)
    return None


def to_dialect(query: M.Query, target: str, *, source: str = "<input>", text: str | None = None) -> Printed:
    """``query`` written in ``target`` (module docstring); :class:`NotExpressible` where it cannot be."""
    if target not in TARGETS:
        raise ValueError(target)
    where = _Where(source, text)
    if query.dialect == target:
        return Printed(query)
    if target == "rsepql":
        if query.dialect != "epsparql":
            name = DIALECT_NAMES[query.dialect]
            raise where.error(f"{'an' if name.startswith('R') else 'a'} {name} query", target, find=r"\S",
                              expected="an EP-SPARQL query (rsplars reads RSEP-QL's event patterns, not its "
                                       "WINDOW graph patterns: docs/epsparql.md §8)")
        return _epsparql_to_rsepql(query, where)
    if query.dialect == "rsepql":
        raise where.error("an RSEP-QL query (event patterns over windows)", target, find=r"\S",
                          expected="a query without EVENT and MATCH")
    if query.dialect == "epsparql":
        op = next((n for n in M.walk_patterns(query.where) if isinstance(n, (M.EventPattern, M.Within))), None)
        what = f"the EP-SPARQL event operator {op.op}" if isinstance(op, M.EventPattern) else (
            "EP-SPARQL's WITHIN" if op is not None else "an EP-SPARQL query (events of one stream, no windows)")
        find = rf"\b{op.op}\b" if isinstance(op, M.EventPattern) else (r"\bWITHIN\b" if op is not None else r"\S")
        raise where.error(what, target, find=find,
                          expected="a query with windows; RSEP-QL (Dell'Aglio et al. 2016) is EP-SPARQL's "
                                   "counterpart with windows")
    _check_common(query, target, where)
    hub = _to_rspql(query, where, target)
    if target == "rspql":
        return Printed(_iso_durations(hub))
    hub = _window_variables_as_unions(hub)
    if target == "cqels":
        out, notes = _rspql_to_cqels(hub, where)
    else:
        out, notes = _rspql_to_csparql(hub, where)
    return Printed(_unit_durations(out), notes)


# ---- EP-SPARQL → RSEP-QL ------------------------------------------------------------------------

def _epsparql_to_rsepql(query: M.Query, where: _Where) -> Printed:
    """The module docstring's EP-SPARQL → RSEP-QL rewrite; :class:`NotExpressible` at the first
    construct without an RSEP-QL counterpart."""
    target = "rsepql"
    for name in _function_names(query):
        if M.DIALECT_BUILTINS.get(name) == "epsparql":
            raise where.error(f"the EP-SPARQL function {name}() (the times of a complex event)", target,
                              find=rf"\b{name}\s*\(", expected="FILTERs over the variables of the events only")
    window = M.IRI(EVENT_WINDOW)
    declared: list[M.EventDeclaration] = []

    def event(node):
        """The RSEP-QL event expression of an EP-SPARQL operand."""
        if isinstance(node, M.EventPattern):
            if node.op != "SEQ":
                raise where.error(f"the EP-SPARQL event operator {node.op}", target, find=rf"\b{node.op}\b",
                                  expected="SEQ, the one event operator RSEP-QL has (Dell'Aglio et al. 2016, §4.2)")
            return M.EventPattern("SEQ", event(node.left), event(node.right))
        if isinstance(node, M.Group) and len(node.parts) == 1 and not isinstance(node.parts[0], M.BGP):
            return event(node.parts[0])
        if isinstance(node, M.Group) and len(node.parts) == 1 and isinstance(node.parts[0], M.BGP):
            node = node.parts[0]
        if isinstance(node, M.BGP):
            triples = node.triples
            if len(triples) != 1:
                local = re.split(r"[/#:]", _term_text(triples[1].predicate))[-1]
                raise where.error(f"a group of {len(triples)} triple patterns (a join of events at any times; an "
                                  "RSEP-QL basic event pattern matches one time point)", target,
                                  find=rf"\b{re.escape(local)}\b" if local else r"\{", in_where=True,
                                  expected="one triple pattern per group, groups joined by SEQ")
            if isinstance(triples[0].predicate, M.Path):
                local = re.split(r"[/#:]", _term_text(_first_iri(triples[0].predicate)))[-1]
                raise where.error("a property path (a join of events at any times)", target,
                                  find=rf"\b{re.escape(local)}\b" if local else r"\{", in_where=True,
                                  expected="a plain predicate: an RSEP-QL basic event pattern matches one time point")
            name = f"E{len(declared) + 1}"
            declared.append(M.EventDeclaration(name, window, M.BGP(triples)))
            return M.EventRef(name)
        if isinstance(node, M.Group) and node.parts:  # several parts: name the first that is no BGP
            raise _unexpressible(next((p for p in node.parts if not isinstance(p, M.BGP)), node.parts[0]), where)
        raise _unexpressible(node, where)

    parts = query.where.parts
    operands = [p for p in parts if not isinstance(p, M.Filter)]
    if len(operands) != 1:
        odd = [p for p in operands if not isinstance(p, (M.EventPattern, M.Group, M.BGP))]
        raise _unexpressible((odd or operands[1:] or [query.where])[0], where)
    expr = event(operands[0])
    filters = tuple(p for p in parts if isinstance(p, M.Filter))
    events = M.EventDataset((M.EventWindow(window, M.IRI(EVENT_STREAM), "landmark", 0),), tuple(declared))
    out = replace(query, dialect="rsepql", where=M.Group((M.MatchPattern(expr),) + filters), events=events)
    note = (f"EP-SPARQL reads every --stream as one event stream; the RSEP-QL query reads it as "
            f"--stream {EVENT_STREAM}=FILE")
    return Printed(out, (note,))


def _first_iri(path):
    """The first IRI of a property path (where the error points)."""
    while isinstance(path, M.Path) and path.args:
        path = path.args[0]
    return path


def _term_text(term) -> str:
    return term.value if isinstance(term, M.IRI) else ""


def _unexpressible(node, where: _Where) -> NotExpressible:
    """The error for an EP-SPARQL pattern that is neither SEQ nor a group of one triple pattern."""
    named = {M.Within: ("EP-SPARQL's WITHIN", r"\bWITHIN\b"), M.Union_: ("UNION of event patterns", r"\bUNION\b"),
             M.SubSelect: ("a sub-query", r"\{\s*SELECT\b"), M.Filter: ("a FILTER inside an event operand", r"\bFILTER\b"),
             M.Group: ("an empty group", r"\{\s*\}"), M.BGP: ("a join of events", r"\{")}
    what, find = named.get(type(node), (f"the pattern {type(node).__name__.rstrip('_')}", r"\{"))
    return where.error(what, "rsepql", find=find, in_where=True,
                       expected="groups of one triple pattern joined by SEQ, FILTERs over their variables")


# ---- checks every source shares ------------------------------------------------------------------

def _check_common(query: M.Query, target: str, where: _Where) -> None:
    if query.aggregates:
        raise where.error("the C-SPARQL AGGREGATE clause", target, find=r"\bAGGREGATE\s*\{",
                          expected="SPARQL 1.1 GROUP BY with an aggregate in SELECT")
    for name in _function_names(query):
        owner = M.DIALECT_BUILTINS.get(name)
        if owner is not None and owner != target:
            raise where.error(f"the {DIALECT_NAMES[owner]} function {name.lower()}()", target,
                              find=rf"\b{name}\s*\(")
    windows = [(s.window, s.position) for s in query.dataset.streams]
    windows += [(w.window, w.position) for w in query.dataset.windows]
    windows += [(n.window, n.position) for n in M.walk_patterns(query.where) if isinstance(n, M.StreamPattern)]
    for window, position in windows:
        if window.kind not in WINDOW_KINDS[target]:
            raise where.error(WINDOW_NAMES[window.kind], target, window.position or position)


def _function_names(query: M.Query):
    """The built-in function names anywhere in the query (patterns, projection, modifiers)."""

    def visit(node):
        if isinstance(node, M.FunctionCall):
            yield node.name
        if isinstance(node, tuple):
            for item in node:
                yield from visit(item)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            for f in dataclasses.fields(node):
                yield from visit(getattr(node, f.name))

    yield from visit((query.form, query.where, query.modifiers))


# ---- any dialect → RSP-QL (the hub) -------------------------------------------------------------

def _to_rspql(query: M.Query, where: _Where, target: str) -> M.Query:
    """The query in RSP-QL; errors name ``target``, the dialect finally asked for."""
    if query.dialect == "rspql":
        return query
    if query.dialect == "cqels":
        return _cqels_to_rspql(query, where, target)
    return _csparql_to_rspql(query, where, target)


def _cqels_to_rspql(query: M.Query, where: _Where, target: str) -> M.Query:
    names: dict[tuple[str, M.Window], M.IRI] = {}
    per_stream: dict[str, int] = {}
    declared: list[M.NamedWindow] = []

    def window_name(p: M.StreamPattern) -> M.IRI:
        if not isinstance(p.stream, M.IRI):
            raise where.error(f"STREAM ?{p.stream.name} (a variable stream)", target, p.position,
                              expected="STREAM <iri>; RSP-QL's WINDOW ?w ranges over window names, not streams")
        key = (p.stream.value, p.window)
        if key not in names:
            k = per_stream[p.stream.value] = per_stream.get(p.stream.value, 0) + 1
            names[key] = M.IRI(p.stream.value if k == 1 else f"{p.stream.value}/window{k}")
            declared.append(M.NamedWindow(names[key], p.stream, p.window))
        return names[key]

    def rewrite(node):
        if isinstance(node, M.StreamPattern):
            return M.WindowPattern(window_name(node), rewrite(node.pattern), node.position)
        return _map_children(node, rewrite)

    where_ = rewrite(query.where)
    form = rewrite(query.form)
    modifiers = rewrite(query.modifiers)
    dataset = replace(query.dataset, windows=tuple(declared))
    return replace(query, dialect="rspql", where=where_, form=form, modifiers=modifiers, dataset=dataset)


def _csparql_to_rspql(query: M.Query, where: _Where, target: str) -> M.Query:
    streams = query.dataset.streams
    seen: dict[str, M.StreamSource] = {}
    for s in streams:
        if s.iri.value in seen:
            raise where.error(f"the stream <{s.iri.value}> read twice", target, s.position,
                              expected="one FROM [NAMED] STREAM per stream")
        seen[s.iri.value] = s
    merged = [M.IRI(s.iri.value) for s in streams if not s.named]
    named = {s.iri.value for s in streams if s.named}
    registration = _csparql_registration(query, where, target)

    def tp_union(t: M.TriplePattern) -> M.Pattern:
        """``tp`` over the merged graph: the union over the windows and the static data, each triple
        once (a sub-query ``SELECT DISTINCT`` over tp's variables: they fix the matched triple)."""
        branches: list[M.Pattern] = [M.Group((M.WindowPattern(w, M.Group((M.BGP((t,)),))),)) for w in merged]
        branches.append(M.Group((M.BGP((t,)),)))
        names = sorted({x.name for x in (t.subject, t.predicate, t.object) if isinstance(x, M.Var)})
        return M.SubSelect(M.Select(tuple(M.Var(n) for n in names), "DISTINCT"),
                           M.Group((reduce(union, branches),)), M.Modifiers())

    def check_triple(t: M.TriplePattern) -> None:
        if isinstance(t.predicate, M.Path):
            from .printer import PRINTERS

            text = PRINTERS["csparql"](query).path(t.predicate)
            raise where.error(f"a property path ({text}) over the default graph that merges stream and static data",
                              target, find=re.escape(text) if where.text and text in where.text else r"\bWHERE\b",
                              expected="plain predicates, or GRAPH <s> { … } with FROM NAMED STREAM <s>")


    star = any(isinstance(n, M.SubSelect) and n.select.star for n in _all_patterns(query)) or (
        isinstance(query.form, (M.Select, M.Describe)) and not _projects(query.form))
    taken = _variable_names(query.where)
    renamed: set[str] = set()

    def blank_as_variable(term):
        """A blank node of a pattern is a variable that is not projected (SPARQL 1.1 §18.2.1;
        translator.translate.normalize reads it so): split over several groups, it must be one."""
        if not isinstance(term, M.BlankNode):
            return term
        name = f"bnode_{term.label}"
        if star or name in taken:
            raise where.error("a blank node in a pattern over the default graph that merges stream and static "
                              "data" + (" (in a query that projects *)" if star else ""), target,
                              find=rf"_:{re.escape(term.label)}|\[", in_where=True,
                              expected="a variable in place of the blank node")
        renamed.add(term.label)
        return M.Var(name)

    def rewrite_default(node):
        """Patterns read from the default graph (merged with the FROM STREAM windows)."""
        if isinstance(node, M.Group) and merged:  # the unions stand in the group in the BGP's place
            parts: list[M.Pattern] = []
            for part in node.parts:
                new = rewrite_default(part)
                parts += new.parts if isinstance(part, M.BGP) else (new,)
            return M.Group(tuple(parts))
        if isinstance(node, M.BGP):
            if not merged:
                return node
            for t in node.triples:
                check_triple(t)
            triples = [M.TriplePattern(blank_as_variable(t.subject), t.predicate, blank_as_variable(t.object))
                       for t in node.triples]
            return M.Group(tuple(tp_union(t) for t in triples))
        if isinstance(node, M.GraphPattern):
            if isinstance(node.name, M.Var):
                if named:
                    raise where.error(f"GRAPH ?{node.name.name} over named streams", target,
                                      find=rf"GRAPH\s+\?{node.name.name}\b",
                                      expected="GRAPH <g> or FROM STREAM (merged) streams")
                return node
            if node.name.value in named:
                return M.WindowPattern(node.name, node.pattern)
            return node  # a static named graph: read as it is
        return _map_children(node, rewrite_default)

    where_ = rewrite_default(query.where)
    if renamed:  # the same label elsewhere (in a GRAPH of a named stream) is the same variable
        where_ = _blank_nodes_renamed(where_, renamed)
    form = rewrite_default(query.form)
    modifiers = rewrite_default(query.modifiers)
    windows = tuple(M.NamedWindow(M.IRI(s.iri.value), s.iri, s.window, s.position) for s in streams)
    dataset = replace(query.dataset, streams=(), windows=windows)
    return replace(query, dialect="rspql", where=where_, form=form, modifiers=modifiers, dataset=dataset,
                   registration=registration, aggregates=())


def _blank_nodes_renamed(node, labels: set[str]):
    """``node`` with the blank nodes of ``labels`` as the variables ``?bnode_<label>``."""
    if isinstance(node, M.BlankNode):
        return M.Var(f"bnode_{node.label}") if node.label in labels else node
    if isinstance(node, M.TriplePattern):
        return M.TriplePattern(_blank_nodes_renamed(node.subject, labels), node.predicate,
                               _blank_nodes_renamed(node.object, labels))
    return _map_children(node, lambda child: _blank_nodes_renamed(child, labels))


def _blank_labels(node) -> set[str]:
    """The labels of the blank nodes of a pattern's triple patterns."""
    if isinstance(node, M.BlankNode):
        return {node.label}
    if isinstance(node, M.TriplePattern):
        return _blank_labels(node.subject) | _blank_labels(node.object)
    found: set[str] = set()

    def collect(child):
        found.update(_blank_labels(child))
        return child

    _map_children(node, collect)
    return found


def _blank_labels_renamed(node, renamed: dict[str, str]):
    """``node`` with the blank nodes of ``renamed``'s labels relabelled."""
    if isinstance(node, M.BlankNode):
        return M.BlankNode(renamed.get(node.label, node.label))
    if isinstance(node, M.TriplePattern):
        return M.TriplePattern(_blank_labels_renamed(node.subject, renamed), node.predicate,
                               _blank_labels_renamed(node.object, renamed))
    return _map_children(node, lambda child: _blank_labels_renamed(child, renamed))


def _projects(form) -> bool:
    """Whether a SELECT or DESCRIBE names what it returns (not ``*``)."""
    return bool(form.projection) if isinstance(form, M.Select) else bool(form.terms)


def _csparql_registration(query: M.Query, where: _Where, target: str) -> M.Registration | None:
    r = query.registration
    if r is None or r.name is None:
        return None
    every = r.computed_every
    if every is not None:
        steps = {s.window.step.ms if s.window.step is not None else None for s in query.dataset.streams}
        if steps != {every.ms}:
            raise where.error("COMPUTED EVERY other than the windows' STEP", target, r.position,
                              expected="COMPUTED EVERY equal to every window's STEP, or run with --period")
    return M.Registration("RSTREAM", QUERY_NAMESPACE + r.name, None, r.position)


# ---- RSP-QL → CQELS-QL, C-SPARQL ----------------------------------------------------------------

def _window_variables_as_unions(query: M.Query) -> M.Query:
    """``WINDOW ?w { P }`` as the union over the declared windows wi of ``{ WINDOW <wi> { P }
    VALUES ?w { <wi> } }``, the reading of :func:`translator.translate.rspql.lower_windows`
    (``GRAPH ?g`` of SPARQL 1.1 §18.6 over the window graphs). The blank node labels of P are
    suffixed in each copy after the first, since a label belongs to one basic graph pattern
    (SPARQL 1.1 §19.6) and each copy is a basic graph pattern of its own."""
    windows = query.dataset.windows
    taken = _blank_labels(query.where)

    def copy_labels(body, i: int):
        if i == 0:
            return body
        renamed = {}
        for label in sorted(_blank_labels(body)):
            new = f"{label}_{i}"
            while new in taken:
                new += "_"
            taken.add(new)
            renamed[label] = new
        return _blank_labels_renamed(body, renamed)

    def rewrite(node):
        if isinstance(node, M.WindowPattern) and isinstance(node.name, M.Var) and windows:
            body = rewrite(node.pattern)
            branches: list[M.Pattern] = [
                M.Group((M.WindowPattern(w.name, copy_labels(body, i), node.position),
                         M.Values((node.name,), ((w.name,),))))
                for i, w in enumerate(windows)
            ]
            return reduce(union, branches) if len(branches) > 1 else branches[0]
        return _map_children(node, rewrite)

    return replace(query, where=rewrite(query.where), form=rewrite(query.form), modifiers=rewrite(query.modifiers))


def _unit_durations(query: M.Query) -> M.Query:
    """ISO 8601 durations (RSP-QL's ``PT3S``) with a unit (``3s``, ``1500ms``), as C-SPARQL and
    CQELS-QL write them; a duration of a fraction of a millisecond stays an xsd:duration literal."""

    def unit(d: M.Duration | None) -> M.Duration | None:
        if d is None or d.unit != "xsd:duration" or d.ms != d.ms.to_integral_value():
            return d
        for name in ("d", "h", "m", "s", "ms"):
            size = M.Duration.unit_ms(name)
            if d.ms % size == 0:
                return M.Duration(d.ms / size, name)
        return d

    def window(w: M.Window) -> M.Window:
        return replace(w, range=unit(w.range), step=unit(w.step), until=unit(w.until))

    def rewrite(node):
        if isinstance(node, M.StreamPattern):
            return replace(node, window=window(node.window), pattern=rewrite(node.pattern))
        return _map_children(node, rewrite)

    streams = tuple(replace(s, window=window(s.window)) for s in query.dataset.streams)
    return replace(query, where=rewrite(query.where), dataset=replace(query.dataset, streams=streams))


def iso_8601(ms: Decimal) -> str:
    """The ISO 8601 text of a positive duration of ``ms`` milliseconds, in days, hours, minutes and
    (decimal) seconds: ``PT3S``, ``PT1.5S``, ``PT30M``, ``PT1H30M``, ``P1D``."""
    days, rest = divmod(ms, 86_400_000)
    hours, rest = divmod(rest, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds = rest / 1000
    time = "".join(f"{int(n)}{u}" for n, u in ((hours, "H"), (minutes, "M")) if n)
    if seconds:
        time += (str(int(seconds)) if seconds == seconds.to_integral_value() else str(seconds.normalize())) + "S"
    return "P" + (f"{int(days)}D" if days else "") + (f"T{time}" if time else "")


def _iso_durations(query: M.Query) -> M.Query:
    """Durations with a unit (``3s``, ``3000ms``) as ISO 8601 (``PT3S``), as RSP-QL engines read them
    (W3C RSP community group syntax); the inverse of :func:`_unit_durations`."""

    def iso(d: M.Duration | None) -> M.Duration | None:
        if d is None or d.unit == "xsd:duration":
            return d
        return M.Duration.from_iso8601(iso_8601(d.ms))

    windows = tuple(replace(w, window=replace(w.window, range=iso(w.window.range), step=iso(w.window.step),
                                              until=iso(w.window.until)))
                    for w in query.dataset.windows)
    return replace(query, dataset=replace(query.dataset, windows=windows))


def _rspql_registration_kind(query: M.Query, target: str, where: _Where) -> M.Registration | None:
    r = query.registration
    if r is not None and r.kind != "RSTREAM":
        raise where.error(f"REGISTER {r.kind} (the {r.kind.lower()} R2S operator)", target, r.position,
                          expected="REGISTER RSTREAM, or run both with the same --r2s")
    return r


def union(left: M.Pattern, right: M.Pattern) -> M.Pattern:
    """``{ left } UNION { right }``: the two-argument form :func:`functools.reduce` folds with."""
    return M.Union_(left, right)


def window_iri(node: M.WindowPattern) -> M.IRI:
    """The IRI of ``WINDOW <w> { … }`` (:func:`_window_patterns_named` refused ``WINDOW ?w`` before)."""
    assert isinstance(node.name, M.IRI)
    return node.name


def _window_patterns_named(query: M.Query, target: str, where: _Where) -> dict[str, M.NamedWindow]:
    windows = {w.name.value: w for w in query.dataset.windows}
    for node in _all_patterns(query):
        if isinstance(node, M.WindowPattern) and isinstance(node.name, M.Var):
            raise where.error(f"WINDOW ?{node.name.name} (a variable over the window names)", target, node.position,
                              expected="WINDOW <w> for each window")
    return windows


def _rspql_to_cqels(query: M.Query, where: _Where) -> tuple[M.Query, tuple[str, ...]]:
    r = _rspql_registration_kind(query, "cqels", where)
    windows = _window_patterns_named(query, "cqels", where)

    def rewrite(node):
        if isinstance(node, M.WindowPattern):
            w = windows[window_iri(node).value]
            return M.StreamPattern(w.stream, w.window, rewrite(node.pattern), node.position)
        return _map_children(node, rewrite)

    notes: tuple[str, ...] = ()
    if r is not None and r.name is not None:
        notes = (f"CQELS-QL has no registration: REGISTER RSTREAM <{r.name}> is left out "
                 "(the answers stay the same under the same --mode/--period or --profile)",)
    out = replace(query, dialect="cqels", where=rewrite(query.where), form=rewrite(query.form),
                  modifiers=rewrite(query.modifiers), registration=None,
                  dataset=replace(query.dataset, windows=()))
    return out, notes


def _rspql_to_csparql(query: M.Query, where: _Where) -> tuple[M.Query, tuple[str, ...]]:
    r = _rspql_registration_kind(query, "csparql", where)
    windows = _window_patterns_named(query, "csparql", where)
    by_stream: dict[str, M.NamedWindow] = {}
    for w in windows.values():
        other = by_stream.setdefault(w.stream.value, w)
        if other is not w:
            raise where.error(f"two windows on the stream <{w.stream.value}>", "csparql", w.position,
                              expected="one window per stream (C-SPARQL reads a stream's window as the named "
                                       "graph of the stream, FROM NAMED STREAM)")
    streams = set(by_stream)
    for g in query.dataset.default + query.dataset.named:
        if g.value in streams:
            raise where.error(f"the static graph <{g.value}> named like a stream", "csparql",
                              find=re.escape(g.value))
    for node in _all_patterns(query):
        if isinstance(node, M.GraphPattern) and streams:
            if isinstance(node.name, M.Var):
                raise where.error(f"GRAPH ?{node.name.name} in a query with windows", "csparql",
                                  find=rf"GRAPH\s+\?{node.name.name}\b",
                                  expected="GRAPH <g> (in C-SPARQL, GRAPH ?g would also range over the streams)")
            if node.name.value in streams:
                raise where.error(f"GRAPH <{node.name.value}> named like a stream", "csparql",
                                  find=r"GRAPH\s+\S*")

    def rewrite(node):
        if isinstance(node, M.WindowPattern):
            w = windows[window_iri(node).value]
            return M.GraphPattern(w.stream, rewrite(node.pattern))
        return _map_children(node, rewrite)

    registration = None
    if r is not None and r.name is not None:
        kind = "STREAM" if isinstance(query.form, M.Construct) else "QUERY"
        registration = M.Registration(kind, _query_name(r.name), r.computed_every, r.position)
    sources = tuple(M.StreamSource(w.stream, w.window, True, w.position) for w in by_stream.values())
    out = replace(query, dialect="csparql", where=rewrite(query.where), form=rewrite(query.form),
                  modifiers=rewrite(query.modifiers), registration=registration,
                  dataset=replace(query.dataset, windows=(), streams=sources))
    return out, ()


def _query_name(iri: str) -> str:
    """A C-SPARQL query name for an RSP-QL output stream IRI: its last segment as a name."""
    if iri.startswith(QUERY_NAMESPACE) and re.fullmatch(r"[A-Za-z_][\w\-.]*", iri[len(QUERY_NAMESPACE):]):
        return iri[len(QUERY_NAMESPACE):]
    last = re.split(r"[/#:]", iri.rstrip("/#"))[-1]
    name = re.sub(r"[^\w\-.]", "_", last)
    return name if re.match(r"[A-Za-z_]", name) else "Q" + name


# ---- generic traversal --------------------------------------------------------------------------

_LEAVES = (M.IRI, M.Literal, M.BlankNode, M.Var, M.Window, M.Duration, M.Position, M.Path, M.TriplePattern)


def _map_children(node, fn):
    """``node`` with ``fn`` applied to its dataclass children (patterns, expressions, EXISTS groups)."""
    if isinstance(node, tuple):
        return tuple(fn(item) for item in node)
    if isinstance(node, _LEAVES) or not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple) or (dataclasses.is_dataclass(value) and not isinstance(value, _LEAVES)):
            new = fn(value)
            if new is not value:
                changes[f.name] = new
    return replace(node, **changes) if changes else node


def _variable_names(node) -> set[str]:
    """Every variable name written in ``node``, those local to a sub-query too (a blank node
    renamed to a variable must not meet one of them)."""
    if isinstance(node, M.Var):
        return {node.name}
    if isinstance(node, tuple):
        return {n for item in node for n in _variable_names(item)}
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return {n for f in dataclasses.fields(node) for n in _variable_names(getattr(node, f.name))}
    return set()


def _all_patterns(query: M.Query):
    """Every dataclass node of the query (also inside expressions: EXISTS groups)."""

    def visit(node):
        if isinstance(node, tuple):
            for item in node:
                yield from visit(item)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type) and not isinstance(node, _LEAVES):
            yield node
            for f in dataclasses.fields(node):
                yield from visit(getattr(node, f.name))

    yield from visit((query.form, query.where, query.modifiers))


def print_in_dialect(query: M.Query, target: str, *, source: str = "<input>",
                     text: str | None = None) -> tuple[str, tuple[str, ...]]:
    """(the text of ``query`` in ``target``, notes): :func:`to_dialect` then the target's printer."""
    from .printer import print_query

    printed = to_dialect(query, target, source=source, text=text)
    return print_query(printed.query), printed.notes


__all__ = ["NotExpressible", "Printed", "TARGETS", "print_in_dialect", "to_dialect"]
