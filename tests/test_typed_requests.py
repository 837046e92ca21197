"""The stages below the command line take typed requests (the options dataclasses of
``translator.options``, ``spark_jobs.options.SparkOptions`` and plain data), never the parsed command
line: outside ``translator/cli`` no module of the product mentions argparse's ``Namespace`` or
imports ``argparse``. The one exception is ``spark_jobs/submit.py``, the ``spark-submit`` entry point,
whose ``main`` and parser builders read its own argv and build the typed requests there."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("rsplars", "translator", "lars", "asp", "spark_jobs")
COMMAND_LINE = ROOT / "translator" / "cli"
SUBMIT = ROOT / "spark_jobs" / "submit.py"
#: the functions of submit.py that read its command line
SUBMIT_COMMAND_LINE = ("main", "build_parser", "_common")


def product_files() -> list[Path]:
    return sorted(p for package in PRODUCT for p in (ROOT / package).rglob("*.py") if COMMAND_LINE not in p.parents)


def mentions(text: str, word: str) -> list[int]:
    """The line numbers of ``text`` where ``word`` occurs."""
    return [number for number, line in enumerate(text.splitlines(), start=1) if word in line]


def argparse_imports(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "argparse" for a in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "argparse":
            lines.append(node.lineno)
    return lines


def command_line_lines(tree: ast.Module) -> set[int]:
    """The lines of submit.py's functions that read its command line (and the ``if TYPE_CHECKING:``
    block naming their types)."""
    out: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in SUBMIT_COMMAND_LINE or \
                isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return out


def test_no_module_below_the_command_line_handles_a_namespace() -> None:
    files = product_files()
    assert SUBMIT in files and len(files) > 100  # the scan sees the product
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        allowed = command_line_lines(tree) if path == SUBMIT else set()
        for number in mentions(text, "Namespace") + argparse_imports(tree):
            if number not in allowed:
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


def test_the_scan_finds_a_namespace(tmp_path) -> None:
    """The checks above see a mention and an import (they can fail)."""
    text = "import argparse\n\ndef run(args: argparse.Namespace) -> int:\n    return 0\n"
    tree = ast.parse(text)
    assert mentions(text, "Namespace") == [3]
    assert argparse_imports(tree) == [1]
    assert command_line_lines(tree) == set()
    tree = ast.parse("def main():\n    import argparse\n    return argparse.Namespace()\n")
    assert argparse_imports(tree) == [2] and command_line_lines(tree) == {1, 2, 3}
