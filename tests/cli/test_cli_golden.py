"""Golden LARS and ASP texts of the papers' queries (``tests/data/golden``, written by
``tests/data/golden/regenerate.py``): the CLI's output is compared exactly, and every ``.lars``
file parses back (``lars.syntax.parse_program``) to the very programs the translator built."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from cli_helpers import DATA
from lars.model import Program
from lars.syntax import parse_program

GOLDEN = DATA / "golden"


#: the globals of tests/data/golden/regenerate.py (its cases and their renderer), run as a script file
REGENERATE = runpy.run_path(str(GOLDEN / "regenerate.py"), run_name="golden_regenerate")
CASES = REGENERATE["CASES"]


def test_every_golden_file_belongs_to_a_case():
    names = {c.name for c in CASES}
    files = [p for p in GOLDEN.iterdir() if p.suffix in (".lars", ".lp", ".unsupported")]
    assert files and {p.stem for p in files} == names


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cli_output_equals_golden(case):
    texts = REGENERATE["render"](case)
    for suffix, text in texts.items():
        path = GOLDEN / (case.name + suffix)
        assert path.exists(), f"{path.name} missing: run tests/data/golden/regenerate.py"
        assert text == path.read_text(encoding="utf-8"), f"{path.name} differs: review, then regenerate"
    expected = {p.suffix for p in GOLDEN.glob(case.name + ".*")}
    assert expected == set(texts), "a case changed between translatable and unsupported: regenerate"


def sections(text: str) -> list[str]:
    """The programs of one ``.lars`` file (``--as cqels-all`` prints several, each after a
    ``% label: …`` header line)."""
    out: list[list[str]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("% ") and ": strategy " in line:
            out.append([])
        out[-1].append(line)
    return ["".join(lines) for lines in out]


LARS_CASES = [c for c in CASES if (GOLDEN / (c.name + ".lars")).exists() and "--unicode" not in c.options]


@pytest.mark.parametrize("case", LARS_CASES, ids=lambda c: c.name)
def test_golden_lars_parses_back_to_the_translated_programs(case):
    from translator.cli import build_parser
    from translator.cli.commands.common import compile_variants, parse_query

    args = build_parser().parse_args(["translate", str(case.path), "--to", "lars", *case.options])
    variants = compile_variants(args, parse_query(args, str(case.path)))
    texts = sections((GOLDEN / (case.name + ".lars")).read_text(encoding="utf-8"))
    assert len(texts) == len(variants)
    for text, (_, compiled) in zip(texts, variants):
        assert parse_program(text, base_unit=case.unit) == Program(compiled.program.rules)


def test_the_seed_queries_are_all_covered():
    """Every query printed in the papers (Dao-Tran, Beck, Eiter 2015, Q1/Q2; Dell'Aglio et al. 2013,
    Listing 1; Barbieri et al. 2010, its eight queries and the static one) has a case."""
    seeds = {p.name for p in (DATA / "queries" / "seeds").glob("*.rq")}
    assert seeds == {Path(c.query).name for c in CASES if c.query.startswith("seeds/")}


def test_unsupported_cases_name_the_construct():
    for case in CASES:
        path = GOLDEN / (case.name + ".unsupported")
        if path.exists():
            assert path.read_text().startswith("rsplars: unsupported in translation to LARS: ")
