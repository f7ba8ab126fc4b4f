"""No import circles in Fray's own code: every import (at the top of a module or inside a
function, but not the type-only ones under ``if TYPE_CHECKING:``) of one of the project's
modules by another is an edge, and the graph has no cycle. Each package keeps its layer:
``rules`` imports nothing of ``world``, ``commands`` or ``typeclasses``."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "world", "commands", "typeclasses", "server", "web")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def imports_of(path: Path, name: str, known: dict) -> set[str]:
    tree = ast.parse(path.read_text())
    type_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    return {target for target in targets if target in known and target != name}


def graph() -> dict[str, set[str]]:
    known = project_modules()
    return {name: imports_of(path, name, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if state.get(other) == "open":
                found.append(stack[stack.index(other):] + [other])
            elif other not in state:
                visit(other)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_fray_has_no_import_circles():
    assert cycles(graph()) == []


def test_rules_import_only_rules():
    outside = {(name, target) for name, targets in graph().items() if name.startswith("rules")
               for target in targets if not target.startswith("rules")}
    assert outside == set()


def test_the_checker_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
