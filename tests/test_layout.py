"""The package layout, checked from the imports: envs <- agents <- evaluation <- training <- cli.

A package may import only packages to its left (and itself); the engine imports no
PettingZoo or gymnasium, so the rules can be used without any RL library; an import
inside a function says why it is not at the module's top (``# Deferred: ...``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ("envs", "agents", "evaluation", "training", "cli")


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported_names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the tree, function-level ones included."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


@pytest.mark.parametrize("package", ORDER)
def test_packages_import_only_packages_before_them(package):
    allowed = set(ORDER[: ORDER.index(package) + 1])
    offenders = []
    for path in modules(package):
        for line, name in imported_names(ast.parse(path.read_text())):
            parts = name.split(".")
            if parts[0] == "pokerzoo" and len(parts) > 1 and parts[1] in ORDER and parts[1] not in allowed:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not offenders, f"{package} may import only {sorted(allowed)}:\n" + "\n".join(offenders)


def test_the_engine_imports_no_rl_library():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules("envs/engine")
        for line, name in imported_names(ast.parse(path.read_text()))
        if name.split(".")[0] in ("pettingzoo", "gymnasium", "stable_baselines3", "sb3_contrib", "torch")
    ]
    assert not offenders, offenders


def function_imports_without_reason(path: Path) -> list[str]:
    source = path.read_text()
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Import | ast.ImportFrom):
                before = lines[node.lineno - 1 : sub.lineno]
                if not any(line.strip().startswith("# Deferred:") for line in before):
                    out.append(f"{path.relative_to(ROOT)}:{sub.lineno}: {lines[sub.lineno - 1].strip()}")
    return out


def test_imports_inside_functions_say_why():
    """Dependencies are read at a module's top; a deferred one (optional, or a measured start-up cost)
    carries a ``# Deferred: why`` comment in its function, above it."""
    offenders = [hit for package in ORDER for path in modules(package) for hit in function_imports_without_reason(path)]
    assert not offenders, "imports inside functions without a '# Deferred: why' comment:\n" + "\n".join(offenders)


@pytest.mark.parametrize("package", ORDER)
def test_every_folder_of_modules_is_a_package(package):
    """setup.py's find_packages skips a folder without ``__init__.py``: a regular install would lack its modules
    (the editable one, which sees the source tree, would not notice)."""
    folders = {p.parent for p in modules(package)}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file())
    assert not missing, f"folders with modules but no __init__.py: {missing}"
