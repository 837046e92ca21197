"""The corpus of malformed inputs in ``tests/data/mutated/``, each mutated from a real file of
``tests/data`` (CityBench and CSRBench queries, Ticker LARS programs, RDF and LARS stream files)
by one mutation that makes it malformed by construction: a truncation inside an IRI or an atom, a
deleted character (a keyword's letter, a closing ``>`` or ``)``, a rule's final period), two tokens
swapped, a bad or backwards timestamp. ``MANIFEST.json`` lists for each file its source, the
mutation and the lines the error must be reported at (the mutated line; ``min_line`` when the
error can only show at the end of the input).

``python tests/robustness/mutated_corpus.py`` writes the corpus; ``test_mutated_corpus.py`` checks
that the files are what the mutations give and that rsplars rejects each with a located error.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parents[1] / "data"
CORPUS = DATA / "mutated"


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@dataclass(frozen=True)
class Mutant:
    text: str
    lines: tuple[int, ...] = ()  # the error is reported at one of these lines ...
    min_line: int | None = None  # ... or at this line or later (an error found at the end)


# ------------------------------------------------------------------------------ the mutations


def truncate_in_iri(text: str) -> Mutant:
    """Cut the text inside its last IRI, just after ``<http://`` (an IRI never closed)."""
    at = text.rindex("<http") + len("<http://")
    return Mutant(text[:at], lines=(_line_of(text, at),))


def truncate_in_atom(text: str) -> Mutant:
    """Cut the text just after the last ``(`` (an atom never closed)."""
    at = text.rindex("(") + 1
    return Mutant(text[:at], lines=(_line_of(text, at),))


def delete_last_brace(text: str) -> Mutant:
    """Delete the last ``}`` (a group never closed; found at the end of the input, which may be
    the last token before it)."""
    at = text.rindex("}")
    last_token = len(text[:at].rstrip()) - 1
    return Mutant(text[:at] + text[at + 1:], min_line=_line_of(text, last_token))


def misspell(word: str):
    def mutate(text: str) -> Mutant:
        """Delete the second letter of the first keyword ``word`` (case-insensitive)."""
        m = re.search(rf"\b{word}\b", text, re.I)
        assert m, word
        return Mutant(text[:m.start() + 1] + text[m.start() + 2:], lines=(_line_of(text, m.start()),))

    mutate.__name__ = f"misspell_{word.lower()}"
    return mutate


def swap(a: str, b: str):
    def mutate(text: str) -> Mutant:
        """Swap the first occurrences of the tokens ``a`` and ``b``."""
        ma, mb = re.search(rf"\b{a}\b", text, re.I), re.search(rf"\b{b}\b", text, re.I)
        assert ma and mb and ma.end() <= mb.start(), (a, b)
        out = text[:ma.start()] + mb.group() + text[ma.end():mb.start()] + ma.group() + text[mb.end():]
        return Mutant(out, lines=(_line_of(text, ma.start()),))

    mutate.__name__ = f"swap_{a.lower()}_{b.lower()}"
    return mutate


def swap_rule_arrow(text: str) -> Mutant:
    """In the first rule, swap the head with ``:-`` (``h :- b.`` becomes ``:- h b.``)."""
    m = re.search(r"^([^\n:%]+?)\s*:-", text, re.M)
    assert m
    return Mutant(text[:m.start()] + ":- " + m.group(1) + text[m.end():], lines=(_line_of(text, m.start()),))


def window_width_letters(text: str) -> Mutant:
    """Replace the digits of the first window width by letters (``[range 3000ms`` → ``[range xms``,
    ``[10 sec]`` → ``[x sec]``)."""
    m = re.search(r"\[\s*(?:range\s+)?(\d+)", text, re.I)
    assert m
    return Mutant(text[:m.start(1)] + "x" + text[m.end(1):], lines=(_line_of(text, m.start()),))


def delete_rule_period(text: str) -> Mutant:
    """Delete the period ending the first rule that has a body (the next rule runs into it)."""
    m = re.search(r":-[^\n]*?(\.)\s*$", text, re.M)
    assert m
    line = _line_of(text, m.start(1))
    return Mutant(text[:m.start(1)] + text[m.end(1):], lines=(line, line + 1))


def _element_lines(text: str) -> list[int]:
    """0-based indexes of the lines holding a stream element (not blank, not a comment or prefix)."""
    return [i for i, line in enumerate(text.split("\n"))
            if line.strip() and not line.lstrip().startswith(("#", "%", "@prefix", "PREFIX"))]


def _on_line(k: int, edit):
    """Apply ``edit`` to the k-th element line (1-based among the element lines)."""

    def mutate(text: str) -> Mutant:
        lines = text.split("\n")
        i = _element_lines(text)[k - 1]
        lines[i] = edit(lines[i], lines[:i])
        return Mutant("\n".join(lines), lines=(i + 1,))

    return mutate


def _timestamp(line: str) -> re.Match:
    m = re.search(r'"(\d+)"\s*\.?\s*$', line) or re.search(r"\[(\d+)\]\s*\.?\s*$", line) or re.match(r"\s*(\d+):", line)
    assert m, line
    return m


def bad_timestamp(k: int):
    def edit(line: str, before) -> str:
        m = _timestamp(line)
        return line[:m.start(1)] + m.group(1) + "x" + line[m.end(1):]

    mutate = _on_line(k, edit)
    mutate.__name__ = f"bad_timestamp_{k}"
    mutate.__doc__ = f"Append a letter to the timestamp of element line {k}."
    return mutate


def backwards_timestamp(k: int):
    def edit(line: str, before) -> str:
        previous = max(int(_timestamp(b).group(1)) for b in before if b.strip() and not b.lstrip().startswith(
            ("#", "%", "@prefix", "PREFIX")))
        assert previous > 0
        m = _timestamp(line)
        return line[:m.start(1)] + str(previous - 1) + line[m.end(1):]

    mutate = _on_line(k, edit)
    mutate.__name__ = f"backwards_timestamp_{k}"
    mutate.__doc__ = f"Set the timestamp of element line {k} to one less than the largest before it."
    return mutate


def truncate_line_in_iri(k: int):
    def edit(line: str, before) -> str:
        at = line.index("<http") + len("<http://")
        return line[:at]

    mutate = _on_line(k, edit)
    mutate.__name__ = f"truncate_line_in_iri_{k}"
    mutate.__doc__ = f"Cut element line {k} inside its first IRI (the next lines stay)."
    return mutate


def delete_first(char: str, k: int):
    def edit(line: str, before) -> str:
        at = line.index(char)
        return line[:at] + line[at + 1:]

    mutate = _on_line(k, edit)
    mutate.__name__ = f"delete_{'gt' if char == '>' else 'paren' if char == ')' else 'colon'}_{k}"
    mutate.__doc__ = f"Delete the first {char!r} of element line {k}."
    return mutate


def trig_bad_graph_timestamp(text: str) -> Mutant:
    """Append a letter to the last graph timestamp of a TriG stream (``"1000"^^xsd:long``); the
    error is at the timestamp or where the graph it dates opens."""
    m = list(re.finditer(r'(\S+)\s+bench:hasTimestamp\s+"(\d+)"', text))[-1]
    graph = re.search(rf"^\s*{re.escape(m.group(1))}\s*\{{", text, re.M)
    assert graph
    out = text[:m.end(2)] + "x" + text[m.end(2):]
    return Mutant(out, lines=(_line_of(text, m.start(2)), _line_of(text, graph.start() + 1)))


def trig_delete_statement_period(k: int):
    def mutate(text: str) -> Mutant:
        """Delete the period ending the k-th triple inside a graph (found at the next statement)."""
        m = [x for x in re.finditer(r"^\s+\S.*?(\.)\s*$", text, re.M)][k - 1]
        line = _line_of(text, m.start(1))
        return Mutant(text[:m.start(1)] + text[m.end(1):], lines=(line, line + 1))

    mutate.__name__ = f"trig_delete_statement_period_{k}"
    return mutate


def trig_delete_open_brace(k: int):
    def mutate(text: str) -> Mutant:
        """Delete the ``{`` opening the k-th graph (found in its first statement)."""
        m = [x for x in re.finditer(r"\{", text)][k - 1]
        line = _line_of(text, m.start())
        return Mutant(text[:m.start()] + text[m.end():], lines=(line, line + 1))

    mutate.__name__ = f"trig_delete_open_brace_{k}"
    return mutate


# ------------------------------------------------------------------------------ the corpus

#: (kind, source under tests/data, mutations); kinds: query, program, rdf-stream, lars-stream
PLAN = [
    ("query", "queries/csparql/Q1.txt", [truncate_in_iri, delete_last_brace, misspell("where"),
                                         swap("select", "where"), window_width_letters]),
    ("query", "queries/csparql/Q5.txt", [misspell("select"), window_width_letters]),
    ("query", "queries/cqels/Q1.txt", [truncate_in_iri, misspell("where"), window_width_letters]),
    ("query", "queries/cqels/Q5.txt", [delete_last_brace, swap("select", "where")]),
    ("query", "queries/extra/csrbench_q1_csparql.rq", [truncate_in_iri, misspell("select"),
                                                       window_width_letters]),
    ("query", "queries/extra/csrbench_q4_csparql.rq", [delete_last_brace, swap("select", "where")]),
    ("program", "lars/ticker/program.lars", [truncate_in_atom, swap_rule_arrow, window_width_letters,
                                             delete_rule_period]),
    ("program", "lars/ticker/cacheHopsEvalInst.lars", [truncate_in_atom, swap_rule_arrow, delete_rule_period]),
    ("rdf-stream", "rdf/csrbench/listing1.nt", [bad_timestamp(2), backwards_timestamp(3), truncate_line_in_iri(2),
                                                delete_first(">", 1)]),
    ("rdf-stream", "spark/s1.nt", [bad_timestamp(2), backwards_timestamp(3), delete_first(">", 2)]),
    ("rdf-stream", "rdf/running_example/offers.stream", [bad_timestamp(2), backwards_timestamp(4)]),
    ("rdf-stream", "rdf/csrbench/observations.trig", [trig_bad_graph_timestamp, trig_delete_statement_period(3),
                                                       trig_delete_open_brace(2), truncate_in_iri]),
    ("lars-stream", "lars/stream.txt", [bad_timestamp(3), backwards_timestamp(3), delete_first(")", 2),
                                        delete_first(":", 4), truncate_in_atom]),
]


def build() -> list[dict]:
    """The corpus entries (without writing): name, kind, source, mutation, lines/min_line, text."""
    out = []
    for kind, source, mutations in PLAN:
        text = (DATA / source).read_text(encoding="utf-8")
        stem = source.replace("/", "_").rsplit(".", 1)[0]
        ext = source.rsplit(".", 1)[1]
        for mutate in mutations:
            mutant = mutate(text)
            assert mutant.text != text
            out.append({"name": f"{stem}.{mutate.__name__}.{ext}", "kind": kind, "source": source,
                        "mutation": mutate.__name__, "lines": list(mutant.lines), "min_line": mutant.min_line,
                        "text": mutant.text})
    return out


def write() -> None:
    CORPUS.mkdir(exist_ok=True)
    entries = build()
    for e in entries:
        (CORPUS / e["name"]).write_text(e["text"], encoding="utf-8")
    manifest = [{k: v for k, v in e.items() if k != "text"} for e in entries]
    (CORPUS / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
