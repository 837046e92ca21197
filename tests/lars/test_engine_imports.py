"""Import rules of the two LARS engines and their oracle, read off the source (``ast``, imports
inside functions included):

* ``lars.reference``, the oracle the engines are tested against, imports neither engine nor what
  they share (``lars.evaluation``, ``lars.solver``, ``lars.windows``): it computes from the definitions on its own;
* neither engine (``asp``, ``lars.incremental``) imports ``lars.reference``;
* no module of the incremental engine imports or reads a private name (``_x``) of another module,
  and the engine's run is used through its public methods only (no ``engine._x``);
* the modules of the engines, their contract and their shared definitions form no import cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE_PACKAGES = ("lars.incremental", "asp")
SHARED = ("lars.evaluation", "lars.solver", "lars.windows")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(*packages: str) -> dict[str, Path]:
    out = {}
    for package in packages:
        base = ROOT.joinpath(*package.split("."))
        paths = sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
        for path in paths:
            out[_module_name(path)] = path
    return out


def _imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every import of the file as (module, names imported from it), anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = tuple(alias.name for alias in node.names)
            out.append((base, names))
            out += [(f"{base}.{n}", ()) for n in names]  # `from lars import reference` imports lars.reference
    return out


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_reference_imports_no_engine_and_nothing_they_share() -> None:
    imported = [m for m, _ in _imports(ROOT / "lars" / "reference.py")]
    bad = [m for m in imported if _within(m, ENGINE_PACKAGES + SHARED + ("clingo",))]
    assert imported and not bad


def test_the_reference_reads_the_syntax_tree_and_the_standard_library_only() -> None:
    """Written from the definitions: of rsplars it takes the syntax tree (``lars.model``) and the
    error types it raises (``lars.errors``), nothing else."""
    import sys

    imports = _imports(ROOT / "lars" / "reference.py")
    assert {m for m, names in imports if names and m.split(".")[0] == "lars"} == {"lars.model", "lars.errors"}
    assert {m.split(".")[0] for m, _ in imports} - {"lars", "__future__"} <= set(sys.stdlib_module_names)


def test_no_engine_imports_the_reference() -> None:
    modules = _modules(*ENGINE_PACKAGES)
    assert "lars.incremental.engine" in modules and "asp.solver" in modules
    bad = {name: m for name, path in modules.items() for m, _ in _imports(path) if _within(m, ("lars.reference",))}
    assert not bad


def test_no_engine_reaches_the_reference_through_other_modules() -> None:
    modules = _modules("lars", "asp")
    graph = {name: {m for m, _ in _imports(path) if m in modules} for name, path in modules.items()}
    reached, todo = set(), [m for m in modules if _within(m, ENGINE_PACKAGES)]
    while todo:
        m = todo.pop()
        if m not in reached:
            reached.add(m)
            todo += graph[m]
    assert "lars.streams" in reached and "lars.reference" not in reached


def test_no_private_name_crosses_a_module_of_the_incremental_engine() -> None:
    modules = _modules("lars.incremental", *SHARED, "asp.solver")
    imported_private = {(name, m, n) for name, path in modules.items() for m, names in _imports(path)
                        if _within(m, ("lars", "asp")) for n in names if n.startswith("_") and n != "__future__"}
    assert not imported_private
    reads = set()
    for name, path in _modules("lars.incremental").items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id not in ("self", "cls")):
                reads.add((name, node.value.id, node.attr, node.lineno))
    assert not reads


def test_the_engines_modules_form_no_import_cycle() -> None:
    modules = _modules("lars", "asp")
    graph = {name: {m for m, _ in _imports(path) if m in modules and m != name} for name, path in modules.items()}
    mine = set(_modules(*ENGINE_PACKAGES, *SHARED, "lars.reference"))
    # Tarjan's strongly connected components: a component of two or more modules is a cycle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 and mine & set(component):
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert "lars.incremental.aggregates" in graph["lars.incremental.compiling"]
    assert not cycles
