"""The project's modules import each other without cycles, and no module reaches into another's private names.

The import-linter contracts of ``pyproject.toml`` (checked by ``tests/test_layout.py``) see only the
imports at module level. A cycle closed by an import inside a function works at run time, but it
ties the modules together all the same: neither can be read, tested or moved without the other.
This test therefore reads every module of the packages ``translator``, ``lars``, ``asp`` and
``spark_jobs`` with :mod:`ast` and counts **every** import statement, wherever it stands: at
module level, inside functions and methods, inside ``try`` and ``if`` blocks, and the calls
``importlib.import_module("a.b")`` with a literal name; a name built at run time from a literal
package prefix (``import_module(f"translator.cli.commands.{name}")``) counts as an import of every
module of that package. The one exception is the block under ``if TYPE_CHECKING:``, which never
runs (it serves type checkers only).

How an import becomes an edge of the graph:

* ``import a.b.c`` and ``import a.b.c as m``: an edge to ``a.b.c``;
* ``from a.b import name``: an edge to ``a.b.name`` when that is a module of the project (a
  submodule imported by name), else to ``a.b`` (a name defined in the module or package ``a.b``);
* relative imports (``from . import x``, ``from ..b import y``) are resolved against the importing
  module's package first.

The packages that Python imports on the way (``a`` and ``a.b`` for ``import a.b.c``) are not
edges: a package's ``__init__`` counts only through what it imports itself, the way import-linter
sees it too. Imports of anything outside the four packages are ignored.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("translator", "lars", "asp", "spark_jobs")


@dataclass(frozen=True)
class Module:
    """One module of the project: its dotted name, its file, and whether it is a package."""

    name: str
    path: Path
    is_package: bool


@dataclass
class ModuleImports:
    """What one module imports: the modules (the graph's edges) and the names taken from each."""

    modules: set[str] = field(default_factory=set)
    private_names: list[str] = field(default_factory=list)


def project_modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module of the four packages, by dotted name (``a.b`` for ``a/b.py`` and ``a/b/__init__.py``)."""
    found: dict[str, Module] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            found[".".join(parts)] = Module(".".join(parts), path, is_package)
    return found


def _in_project(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def _is_type_checking_guard(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements_that_run(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (its ``else`` branch does run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking_guard(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _absolute(module: Module, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import ...`` written in ``module``."""
    if level == 0:
        return target or ""
    package = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _imported_by_call(node: ast.Call, modules: dict[str, Module]) -> set[str]:
    """The modules ``importlib.import_module(…)`` (or ``import_module``, ``__import__``) imports: the
    literal name, or every module of the package a literal prefix names (``f"a.b.{x}"``)."""
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))
    if not (named and node.args):
        return set()
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    if (isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant)
            and str(arg.values[0].value).endswith(".")):
        package = str(arg.values[0].value)
        return {name for name in modules if name.startswith(package) and "." not in name[len(package):]}
    return set()


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def imports_of(module: Module, modules: dict[str, Module]) -> ModuleImports:
    """The project modules that ``module`` imports, anywhere but under ``if TYPE_CHECKING:``, and the
    private names it takes from other project modules (``from a import _x``, ``a._x``, ``m._x``)."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
    found = ModuleImports()
    bound: dict[str, str] = {}  # local name -> the project module it is bound to
    nodes = list(_statements_that_run(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _in_project(alias.name):
                    continue
                found.modules.add(alias.name)
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node.level, node.module)
            if not _in_project(source):
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    found.modules.add(submodule)
                    bound[alias.asname or alias.name] = submodule
                else:
                    found.modules.add(source)
                if _is_private(alias.name) and source != module.name:
                    found.private_names.append(f"from {source} import {alias.name} (line {node.lineno})")
        elif isinstance(node, ast.Call):
            found.modules |= {name for name in _imported_by_call(node, modules) if _in_project(name)}
    for node in nodes:
        if not isinstance(node, ast.Attribute) or not _is_private(node.attr):
            continue
        chain: list[str] = []
        base: ast.expr = node.value
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in bound:
            continue
        owner = ".".join([bound[base.id], *reversed(chain)])
        if owner in modules and owner != module.name:
            found.private_names.append(f"{owner}.{node.attr} (line {node.lineno})")
    found.modules.discard(module.name)
    found.modules &= set(modules)
    return found


def import_graph(root: Path = ROOT) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """The graph (module -> the project modules it imports) and the private names each module takes."""
    modules = project_modules(root)
    graph: dict[str, set[str]] = {}
    private: dict[str, list[str]] = {}
    for name, module in modules.items():
        imports = imports_of(module, modules)
        graph[name] = imports.modules
        if imports.private_names:
            private[name] = imports.private_names
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan 1972), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0

    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def one_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One closed path through ``component`` (a -> b -> ... -> a), to show in a failure message."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & members):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    return component


def test_the_import_graph_has_no_cycle():
    graph, _ = import_graph()
    found = cycles(graph)
    shown = [" -> ".join(one_cycle(graph, component)) + f"   (modules: {', '.join(component)})"
             for component in found]
    assert not found, "import cycles (imports inside functions count):\n" + "\n".join(shown)


def test_no_private_name_is_imported_from_another_module():
    _, private = import_graph()
    shown = [f"{module}: {use}" for module, uses in sorted(private.items()) for use in uses]
    assert not private, "private names used across modules:\n" + "\n".join(shown)


# The checks above can fail: each of these small trees holds what they must find.

def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    return tmp_path


def test_a_cycle_closed_inside_a_function_is_found(tmp_path):
    root = _tree(tmp_path, {
        "lars/__init__.py": "",
        "lars/a.py": "from lars.b import f\n",
        "lars/b.py": "def f():\n    from . import a\n    return a\n",
    })
    graph, _ = import_graph(root)
    assert cycles(graph) == [["lars.a", "lars.b"]]
    assert one_cycle(graph, ["lars.a", "lars.b"]) == ["lars.a", "lars.b", "lars.a"]


def test_a_cycle_through_import_module_and_relative_parents_is_found(tmp_path):
    root = _tree(tmp_path, {
        "translator/__init__.py": "",
        "translator/rdf/__init__.py": "",
        "translator/rdf/x.py": "import importlib\n\ndef g():\n    return importlib.import_module('translator.rdf.y')\n",
        "translator/rdf/y.py": "from ..rdf.z import h\n",
        "translator/rdf/z.py": "import translator.rdf.x as x\nh = x\n",
    })
    graph, _ = import_graph(root)
    assert cycles(graph) == [["translator.rdf.x", "translator.rdf.y", "translator.rdf.z"]]


def test_a_module_name_built_from_a_package_prefix_imports_the_whole_package(tmp_path):
    root = _tree(tmp_path, {
        "translator/__init__.py": "",
        "translator/main.py": "import importlib\n\ndef f(n):\n    return importlib.import_module(f'translator.commands.{n}')\n",
        "translator/commands/__init__.py": "",
        "translator/commands/run.py": "",
        "translator/commands/agree.py": "from translator.main import f\n",
        "translator/commands/deeper/__init__.py": "",
        "translator/commands/deeper/x.py": "",
    })
    graph, _ = import_graph(root)
    assert graph["translator.main"] == {"translator.commands.run", "translator.commands.agree",
                                        "translator.commands.deeper"}
    assert cycles(graph) == [["translator.commands.agree", "translator.main"]]


def test_imports_under_type_checking_are_not_edges(tmp_path):
    root = _tree(tmp_path, {
        "asp/__init__.py": "",
        "asp/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from asp.b import B\n",
        "asp/b.py": "from asp.a import *\n",
    })
    graph, _ = import_graph(root)
    assert graph["asp.a"] == set() and cycles(graph) == []


def test_private_names_taken_from_another_module_are_found(tmp_path):
    root = _tree(tmp_path, {
        "asp/__init__.py": "",
        "asp/a.py": "_hidden = 1\n",
        "asp/b.py": "from asp.a import _hidden\n",
        "asp/c.py": "import asp.a\nimport asp.a as m\nx = asp.a._hidden + m._hidden + m.__name__\n",
        "asp/d.py": "from asp import a\n\ndef f(obj):\n    return a._hidden + obj._own\n",
    })
    _, private = import_graph(root)
    assert private == {
        "asp.b": ["from asp.a import _hidden (line 1)"],
        "asp.c": ["asp.a._hidden (line 3)", "asp.a._hidden (line 3)"],
        "asp.d": ["asp.a._hidden (line 4)"],
    }
