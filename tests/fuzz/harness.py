"""Grammar-aware fuzzing of every reader: real inputs from tests/data, mutated with hypothesis.

A *target* is a reader together with its seeds (real files of its language, copied into tests/data)
and the vocabulary of its grammar (the literal terminals of its Lark grammar, and strings matching
its regular-expression terminals, drawn with ``hypothesis.strategies.from_regex``). An input is a
seed with one to four mutations: delete, duplicate, swap or truncate text; insert or substitute a
grammar token; change a number (timestamps, window widths); insert an odd character (NUL, CR,
U+2028, a quote, a backslash).

The oracle for every input (docs/robustness.md):

* the reader accepts it, and its printed form reads back as the same model (round trip), or
* it raises :class:`lars.errors.SourceError` rendered ``FILE:LINE:COLUMN: message`` with a line
  and a column (what the CLI prints before exiting with 2);
* anything else (another exception, an error without a position) fails the test.

``COUNTS`` records, per target, how many inputs were accepted and rejected; ``tests/fuzz/conftest.py``
prints the table at the end of the run (``make fuzz``).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lars.errors import SourceError

#: target → Counter(accepted=…, rejected=…)
COUNTS: dict[str, Counter] = {}

#: generated inputs per reader, the one place that sets them: ``make test`` runs the ``test`` size
#: (derandomized: the same inputs on every run), ``make fuzz`` the ``fuzz`` size (``-m slow``, fresh
#: random seeds); ``RSPLARS_FUZZ_FAST`` and ``RSPLARS_FUZZ_FULL`` change them
EXAMPLES = {"test": int(os.environ.get("RSPLARS_FUZZ_FAST", "200")),
            "fuzz": int(os.environ.get("RSPLARS_FUZZ_FULL", "10000"))}

#: a CLI target runs a whole command per input: it gets a reader's count divided by this
CLI_DIVISOR = {"translate": 10, "lars": 10, "run": 40}


def examples(size: str, cli: str | None = None) -> int:
    """Inputs per target for ``size`` (``test`` or ``fuzz``); ``cli``: a CLI target's name."""
    return max(EXAMPLES[size] // (CLI_DIVISOR[cli] if cli else 1), 5)

LOCATED = re.compile(r"^[^\n]+:\d+:\d+: \S")

#: characters that break readers in interesting ways
ODD = ["\x00", "\r", "\r\n", "\u2028", "\u0085", "\ufeff", "\t", '"', "'", "\\", "\\u", "<", ">", "{", "}",
       "[", "]", "(", ")", ".", ",", ":", ";", "#", "%", "@", "^^", "_:", "?", "$", " ", "\n", "é", "\U0001F600"]
NUMBERS = st.one_of(st.integers(-3, 40), st.integers(-(10**20), 10**20), st.sampled_from(["1e9", "0.5", "-0", "007"]))


@dataclass(frozen=True)
class Target:
    """A reader under fuzz: ``check(text)`` returns True (accepted and round-tripped) or raises
    :class:`SourceError` (rejected); any other outcome is a bug."""

    name: str
    seeds: Sequence[str]
    vocabulary: Sequence[str]
    check: Callable[[str], bool]
    regexes: Sequence[str] = ()
    #: a structure-aware mutation ``(draw, text) -> text`` applied to some inputs (JSON values)
    extra: Callable | None = None


_JSON_SCALAR = re.compile(r'"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\btrue\b|\bfalse\b|\bnull\b')
JSON_VALUES = ["5", "-1", "1.5", "1e400", "null", "true", "[]", "{}", '""', '"x"', '"<http://e/a>"', '[1]', '{"a": 1}']


def json_value_swap(draw, text: str) -> str:
    """Replace one JSON scalar (a string, number, true/false/null) by a value of another type."""
    spans = list(_JSON_SCALAR.finditer(text))
    if not spans:
        return text
    m = spans[draw(st.integers(0, len(spans) - 1))]
    return text[:m.start()] + draw(st.sampled_from(JSON_VALUES)) + text[m.end():]


def lark_vocabulary(parser) -> tuple[list[str], list[str]]:
    """(literal terminals, regular-expression terminals) of a Lark parser."""
    literals, regexes = [], []
    for term in parser.terminals:
        pattern = term.pattern
        if pattern.type == "str":
            literals.append(pattern.value)
        else:
            regexes.append(pattern.to_regexp())
    return literals, regexes


#: the class "any character of the Basic Multilingual Plane from U+00C0 on" that Lark's SPARQL
#: grammars use for PN_CHARS_BASE (SPARQL 1.1, §19.8): hypothesis builds the character set of such a
#: class one character at a time (about 45 s per grammar, most of a fuzz run), so the generator draws
#: from a sample of it instead (Latin-1 letters, Greek, CJK): every string drawn still matches the
#: terminal; the odd characters of :data:`ODD` add further non-ASCII ones
WIDE_CLASS = "(?![\x00-\u00bf])[^\U00010000-\U0010ffff]"
WIDE_SAMPLE = "[\u00c0-\u00d6\u00d8-\u00f6\u0391-\u03c9\u4e00-\u4e0f]"


@lru_cache(maxsize=None)
def _regex_strategy(regexes: tuple[str, ...]):
    """Strings matching one of ``regexes`` (built once per set of terminals: the four query
    grammars share most of theirs)."""
    usable = []
    for rx in regexes:
        try:
            re.compile(rx)
            strat = st.from_regex(rx.replace(WIDE_CLASS, WIDE_SAMPLE), fullmatch=True)
            usable.append(strat.filter(lambda s: len(s) < 40))
        except Exception:  # noqa: BLE001 - a Lark regex hypothesis cannot generate from
            continue
    return st.one_of(usable) if usable else st.just("")


def mutated(target: Target):
    """Seeds of ``target`` with 1–4 grammar-aware mutations."""
    tokens = st.sampled_from(list(target.vocabulary) or ["x"])
    if target.regexes:
        tokens = st.one_of(tokens, _regex_strategy(tuple(target.regexes)))
    pieces = st.one_of(tokens, st.sampled_from(ODD), NUMBERS.map(str),
                       st.text(max_size=3))

    @st.composite
    def build(draw):
        text = draw(st.sampled_from(list(target.seeds)))
        if target.extra is not None and draw(st.booleans()):
            for _ in range(draw(st.integers(1, 3))):
                text = target.extra(draw, text)
            if draw(st.booleans()):
                return text
        for _ in range(draw(st.integers(1, 4))):
            op = draw(st.sampled_from(["delete", "insert", "insert", "replace", "duplicate", "truncate",
                                       "swap_lines", "drop_line", "dup_line", "number", "number"]))
            n = len(text)
            i = draw(st.integers(0, n))
            j = min(n, i + draw(st.integers(0, 12)))
            if op == "delete":
                text = text[:i] + text[j:]
            elif op == "insert":
                text = text[:i] + draw(pieces) + text[i:]
            elif op == "replace":
                text = text[:i] + draw(pieces) + text[j:]
            elif op == "duplicate":
                text = text[:j] + text[i:j] + text[j:]
            elif op == "truncate":
                text = text[:i]
            elif op in ("swap_lines", "drop_line", "dup_line"):
                lines = text.split("\n")
                a = draw(st.integers(0, len(lines) - 1))
                b = draw(st.integers(0, len(lines) - 1))
                if op == "swap_lines":
                    lines[a], lines[b] = lines[b], lines[a]
                elif op == "drop_line":
                    del lines[a]
                else:
                    lines.insert(b, lines[a])
                text = "\n".join(lines)
            else:  # change one number of the text
                numbers = list(re.finditer(r"-?\d+", text))
                if numbers:
                    m = numbers[draw(st.integers(0, len(numbers) - 1))]
                    text = text[:m.start()] + str(draw(NUMBERS)) + text[m.end():]
        return text

    return build()


def outcome(target: Target, text: str) -> str:
    """``accepted`` or ``rejected`` for one input; raises AssertionError on a bug."""
    try:
        accepted = target.check(text)
    except SourceError as err:
        rendered = str(err)
        assert err.line is not None and err.column is not None and LOCATED.match(rendered), (
            f"{target.name}: error without FILE:LINE:COLUMN: {rendered!r}\ninput: {text!r}")
        assert "Traceback" not in rendered
        return "rejected"
    assert accepted is True, f"{target.name}: check returned {accepted!r}"
    return "accepted"


def run(target: Target, examples: int, *, derandomize: bool) -> Counter:
    """Feed ``examples`` generated inputs to ``target``; returns (and records) the counts."""
    counts = COUNTS.setdefault(target.name, Counter())
    local: Counter = Counter()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(mutated(target))
    def fuzz(text: str) -> None:
        result = outcome(target, text)
        local[result] += 1

    fuzz()
    counts.update(local)
    return local
