"""The research notebooks use rsplars as its users do: their code cells import the public API
(``import rsplars``, ``from rsplars import …``) and nothing else of the project — no ``translator``,
``lars``, ``asp``, ``spark_jobs`` module and no command line (docs/api.md). Besides rsplars they
import pandas, matplotlib, the standard library, and rdflib as the independent SPARQL oracle."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ON_THE_API = ("01_running_example", "02_translations", "03_agreement_vs_density", "04_performance",
              "05_judging_engines")
#: what a notebook may import besides the standard library
ALLOWED = {"rsplars", "pandas", "matplotlib", "rdflib"}
#: the packages of this repository (every folder at its root with an __init__.py), rsplars aside
PROJECT = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"rsplars"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(cell number, module)`` of every import in the notebook's code cells (IPython magics and
    shell lines left out); a dynamic import (``importlib``, ``__import__``) counts as the module
    ``importlib`` / ``__import__``, so that it cannot hide one."""
    found = []
    for number, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found += [(number, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                found.append((number, "." * node.level + (node.module or "")))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
                found.append((number, "__import__"))
    return found


def test_the_project_packages_are_known():
    assert {"translator", "lars", "asp", "spark_jobs"} <= PROJECT


@pytest.mark.parametrize("name", ON_THE_API)
def test_notebook_imports_only_the_public_api(name):
    imports = imported_modules(NOTEBOOKS / f"{name}.ipynb")
    assert any(module == "rsplars" or module.startswith("rsplars.") for _, module in imports)
    wrong = [(cell, module) for cell, module in imports
             if module.split(".")[0] not in ALLOWED | set(sys.stdlib_module_names) or module.split(".")[0] in PROJECT
             or module in ("importlib", "__import__") or module.startswith((".", "rsplars."))]
    assert wrong == [], f"{name}: imports outside the public API (cell, module): {wrong}"


def test_the_check_sees_an_internal_import(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import rsplars\nfrom translator.cli import main"),
                nbformat.v4.new_code_cell("%matplotlib inline\nimport lars.printer as p\nx = __import__('asp')")]
    nbformat.write(nb, tmp_path / "n.ipynb")
    assert imported_modules(tmp_path / "n.ipynb") == [(0, "rsplars"), (0, "translator.cli"), (1, "lars.printer"),
                                                      (1, "__import__")]
