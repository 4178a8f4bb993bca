"""The runtime's floor plan (docs/ARCHITECTURE.md): lookup imports numpy, msgpack and stdlib
only; its modules import each other without a circle; a wing never imports a wing above or
beside it, and the shared ground imports no wing.
"""

import ast
import subprocess
import sys

from conftest import REPO

ALLOWED_THIRD_PARTY = {"numpy", "msgpack"}
# The compiled move engine's one module; lookup/crossword/engine.py imports it only when asked
# to compile, and works without it.
OPTIONAL_THIRD_PARTY = {"engine_numba.py": {"numba"}}
FORBIDDEN = ("pipeline", "typer", "tqdm", "pyarrow", "numba", "click")
# Each wing's floor: a wing imports the ground and the wings on lower floors only.
WING_FLOORS = {"guessing": 1, "crossword": 1, "play": 2}
# Entry points stand above every wing: they may import anything, and nothing imports them.
ENTRY_POINTS = {"lookup", "lookup.__main__", "lookup.cli"}


def _lookup_modules() -> dict:
    """Every module of lookup by dotted name, with its source path."""
    modules = {}
    for path in sorted((REPO / "lookup").rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imports(path) -> list[tuple[str, list[str]]]:
    """(imported module, names) of every import in a file, inside functions too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def _import_graph() -> dict:
    """Module -> the lookup modules it imports (`from lookup.wing import module` included)."""
    modules = _lookup_modules()
    graph = {}
    for name, path in modules.items():
        targets = set()
        for module, names in _imports(path):
            if module.split(".")[0] != "lookup":
                continue
            submodules = {f"{module}.{n}" for n in names} & modules.keys()
            targets |= submodules or {module}
        graph[name] = targets - {name}
    return graph


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in WING_FLOORS else None


def _cycle(graph: dict) -> list | None:
    """One import cycle of the graph, or None."""
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return stack[stack.index(target):] + [target]
            if target not in state:
                found = visit(target, stack)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_lookup_sources_import_only_allowed_modules():
    stdlib = sys.stdlib_module_names
    for name, path in _lookup_modules().items():
        allowed = ALLOWED_THIRD_PARTY | OPTIONAL_THIRD_PARTY.get(path.name, set())
        for module, _names in _imports(path):
            top = module.split(".")[0]
            assert top == "lookup" or top in stdlib or top in allowed, f"{name} imports {module}"


def test_no_import_cycle_among_lookup_modules():
    assert _cycle(_import_graph()) is None, " -> ".join(_cycle(_import_graph()))


def test_no_import_runs_up_or_across_the_wings():
    upward = []
    for module, targets in _import_graph().items():
        if module in ENTRY_POINTS:
            continue
        wing = _wing(module)
        floor = WING_FLOORS.get(wing, 0)
        for target in targets:
            if target in ENTRY_POINTS:
                upward.append(f"{module} imports the entry point {target}")
            target_wing = _wing(target)
            if target_wing is None or target_wing == wing:
                continue
            if WING_FLOORS[target_wing] >= floor:
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_the_cycle_finder_finds_a_cycle_and_a_wing_test_would_catch_an_upward_import():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    assert _wing("lookup.play.game") == "play" and _wing("lookup.formats") is None


def test_importing_lookup_loads_no_build_modules():
    optional = [name.removesuffix(".py") for name in OPTIONAL_THIRD_PARTY]
    code = ("import sys, pkgutil, importlib, lookup; "
            "[importlib.import_module(m.name) "
            "for m in pkgutil.walk_packages(lookup.__path__, 'lookup.') "
            f"if m.name.rsplit('.', 1)[-1] not in {optional!r}]; "
            f"print([m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO, check=True)
    assert result.stdout.strip() == "[]"
