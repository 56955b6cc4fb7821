"""Package faces that load on first use.

A package's `__init__` names its public names once, as imports under `if TYPE_CHECKING:` (so mypy
and readers see exactly where each comes from), and ends with

    __getattr__, __dir__ = lazy_face(__name__, __file__)

Importing the package then costs nothing; `from konstruct_tui.agent import Limits` loads
`agent/budgets.py` (and what it imports), not the whole agent. Why: the workbench must paint its first
frame before the core is loaded (a person waits for that frame, DESIGN.md §8), and `konstruct
--help` must not load the graph. The names are read from the `__init__` file itself, so the
import block stays the one list of the package's face.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path


def _type_checking_imports(source: str) -> dict[str, tuple[str, str]]:
    """exported name -> (relative module, name in that module), from `if TYPE_CHECKING:` blocks."""
    names: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.level == 1 and statement.module:
                for alias in statement.names:
                    names[alias.asname or alias.name] = (statement.module, alias.name)
    return names


def lazy_face(package: str, init_file: str) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module-level `__getattr__` and `__dir__` for `package` (PEP 562)."""
    table = _type_checking_imports(Path(init_file).read_text(encoding="utf-8"))
    here = sys.modules[package]
    # A name that is also its own submodule's name (`app.session_diff`): importing that submodule
    # sets the package attribute to the module, and `__getattr__` would never be asked. Loaded now,
    # as an eager face would, so the name is the function, whoever imports the submodule later.
    folder = Path(init_file).parent
    for name, (module, original) in table.items():
        if (folder / f"{name}.py").exists() or (folder / name).is_dir():
            setattr(here, name, getattr(importlib.import_module(f"{package}.{module}"), original))

    def __getattr__(name: str) -> object:
        where = table.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(f"{package}.{where[0]}")
        value = getattr(module, where[1])
        setattr(sys.modules[package], name, value)  # the next lookup is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted(set(table) | set(vars(sys.modules[package])))

    return __getattr__, __dir__
