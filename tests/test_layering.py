"""The runtime never pulls in the build side: lookup imports numpy, msgpack and stdlib only."""

import ast
import subprocess
import sys

from conftest import REPO

ALLOWED_THIRD_PARTY = {"numpy", "msgpack"}
# The compiled move engine's one module; lookup/engine.py imports it only when asked to
# compile, and works without it.
OPTIONAL_THIRD_PARTY = {"engine_numba.py": {"numba"}}
FORBIDDEN = ("pipeline", "typer", "tqdm", "pyarrow", "numba", "click")


def test_lookup_sources_import_only_allowed_modules():
    stdlib = sys.stdlib_module_names
    for path in sorted((REPO / "lookup").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            allowed = ALLOWED_THIRD_PARTY | OPTIONAL_THIRD_PARTY.get(path.name, set())
            for name in names:
                top = name.split(".")[0]
                assert top == "lookup" or top in stdlib or top in allowed, (
                    f"{path.name} imports {name}")


def test_importing_lookup_loads_no_build_modules():
    optional = [name.removesuffix(".py") for name in OPTIONAL_THIRD_PARTY]
    code = ("import sys, lookup, lookup.lexicon, lookup.dawg, lookup.gaddag; "
            "import pkgutil, importlib; "
            "[importlib.import_module('lookup.' + m.name) "
            "for m in pkgutil.iter_modules(lookup.__path__) "
            f"if m.name not in {optional!r}]; "
            f"print([m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO, check=True)
    assert result.stdout.strip() == "[]"
