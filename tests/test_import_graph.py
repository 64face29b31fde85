"""The module map keeps every arrow pointing down: no import cycle among failcode's modules, and
nothing of the fact, rule or data layers imports the layers that drive them (engine, cli, api,
report). Read from the source with `ast`, every import counted, also those inside functions, except
those under `if TYPE_CHECKING:`, which never run."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

SRC = REPO / "src"
DRIVERS = ("failcode.engine", "failcode.cli", "failcode.api", "failcode.report")
LOWER = ("failcode.facts", "failcode.rules", "failcode.model", "failcode.project", "failcode.names",
         "failcode.config", "failcode.version")


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(path): path for path in sorted((SRC / "failcode").rglob("*.py"))}


def _runtime_nodes(tree: ast.AST):
    """Every node except the bodies of `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
            else:
                stack.append(child)


def imports_of(module: str) -> set[str]:
    """failcode modules that `module` imports (`from failcode import x` counts as `failcode.x`)."""
    found = set()
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in _runtime_nodes(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in MODULES and name != module}
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycle() -> list[str]:
    """One import cycle as a path of modules, or [] (package __init__ files are entry points that
    re-export, so edges into a package's own __init__ from below are not followed)."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(GRAPH):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return []


def test_the_graph_is_read():
    """A control: the reader sees the imports it must see, or the checks below prove nothing."""
    assert "failcode.engine" in GRAPH["failcode.cli"]
    assert "failcode.model" in GRAPH["failcode.rules.fc001_unregistered_code"]
    assert "failcode.facts.extract" in GRAPH["failcode.facts"]  # a function-level import counts
    assert "failcode.facts.screen" in GRAPH["failcode.facts"]


def test_no_import_cycle():
    assert _cycle() == []


def test_no_layer_imports_the_layers_above_it():
    upward = sorted((module, target) for module, targets in GRAPH.items() for target in targets
                    if module.startswith(LOWER) and target.startswith(DRIVERS))
    assert upward == []


def test_reports_need_only_data():
    for module, targets in GRAPH.items():
        if module.startswith("failcode.report"):
            assert not targets & {"failcode.engine", "failcode.cli", "failcode.api"}, module


def test_the_engine_enters_the_facts_only_through_extract_file():
    facts_modules = {target for target in GRAPH["failcode.engine"] if target.startswith("failcode.facts.")}
    assert facts_modules <= {"failcode.facts.datafiles"}  # a data-file reader, no extraction
    assert "failcode.facts" in GRAPH["failcode.engine"]
