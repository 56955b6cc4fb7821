"""The layers of DESIGN.md §2, as import contracts the code must keep.

One AST walk over the package finds every import (top level, inside functions, under
TYPE_CHECKING), resolved to absolute module names; each contract below is a question about that
list. A subprocess test then proves the stronger runtime claim: importing any core module never
loads textual.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import types
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "konstruct_tui"
UI_ONLY = {"textual", "rich"}  # the screen's libraries: ui/ only
# Data shipped with the package (the demo's sample project), not code of ours.
DATA = ("app/demo/sample",)

# Top-level modules every layer may import: where Konstruct keeps its files, and the one function
# that makes untrusted text safe for a terminal (the ui, the cli and the reports all need it).
EVERYONE = {"userdirs", "untrusted_text", "package_face"}

# What each package may import, inside konstruct_tui (besides itself and EVERYONE). Dependencies
# point one way: ui -> app -> blueprint -> agent -> tools -> graph/commands/trust/sandbox -> workspace.
MAY_IMPORT: dict[str, set[str]] = {
    "workspace": set(),
    "trust": set(),
    "graph": {"workspace"},
    "commands": {"workspace"},
    "sandbox": {"commands", "trust", "workspace"},
    "tools": {"workspace", "graph", "commands", "trust", "sandbox"},
    "agent": {"tools", "workspace", "graph", "commands", "trust", "sandbox"},
    "providers": {"agent"},  # they implement the agent's ModelCallPort
    "blueprint": {"agent", "tools", "workspace", "graph", "commands", "trust", "sandbox"},
    "app": {"agent", "blueprint", "providers", "tools", "workspace", "graph", "commands", "trust", "sandbox"},
    # Team runs (a durable queue in a shared database) drive the blueprint layer as the CLI does.
    "team": {"app", "agent", "blueprint", "providers", "tools", "workspace", "graph", "commands", "trust", "sandbox"},
    "ui": {"app", "agent", "blueprint", "team"},
    "cli": {"app", "agent", "blueprint", "providers", "tools", "workspace", "graph", "commands", "trust", "sandbox", "ui", "team"},
}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, relative to the package: "agent/loop.py"
    target: str  # the absolute module imported from: "konstruct_tui.tools.base"

    @property
    def layer(self) -> str:
        return self.source.split("/")[0]

    @property
    def target_layer(self) -> str | None:
        parts = self.target.split(".")
        return parts[1].removesuffix(".py") if parts[0] == "konstruct_tui" and len(parts) > 1 else None


def _modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if not str(p.relative_to(PACKAGE)).startswith(DATA)]


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = ["konstruct_tui", *path.relative_to(PACKAGE).with_suffix("").parts]
    parts = parts[: len(parts) - node.level]  # a module's own name counts as one level (an __init__ too)
    return ".".join(parts + ([node.module] if node.module else []))


@cache
def imports() -> tuple[Import, ...]:
    found = []
    for path in _modules():
        source = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [Import(source, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(path, node)
                found.append(Import(source, base))
                # `from ..tools import base` imports the module tools.base, unless the face exports that name
                face = _face(PACKAGE.parent / base.replace(".", "/")) if (PACKAGE.parent / base.replace(".", "/") / "__init__.py").exists() else None
                found += [
                    Import(source, f"{base}.{a.name}") for a in node.names
                    if (PACKAGE.parent / f"{base}.{a.name}".replace(".", "/")).with_suffix(".py").exists() and a.name not in (face or ())
                ]
    return tuple(found)


def _packages() -> list[str]:
    return sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())


def test_the_contract_names_every_package() -> None:
    assert set(_packages()) == set(MAY_IMPORT), "a new package needs its row in MAY_IMPORT"


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    allowed = MAY_IMPORT[layer] | {layer, *EVERYONE, None}
    guilty = sorted({f"{i.source} imports {i.target}" for i in imports() if i.layer == layer and i.target_layer not in allowed})
    assert guilty == []


def test_nothing_below_the_ui_imports_textual_or_rich() -> None:
    """The core imports neither; the CLI may print with rich (a progress bar) but never imports textual."""
    guilty = sorted({
        f"{i.source} imports {i.target}" for i in imports()
        if i.layer != "ui" and (i.target.split(".")[0] == "textual" or (i.layer != "cli" and i.target.split(".")[0] in UI_ONLY))
    })
    assert guilty == []


def test_nothing_imports_the_ui_but_the_cli() -> None:
    guilty = sorted({i.source for i in imports() if i.target_layer == "ui" and i.layer not in ("ui", "cli")})
    assert guilty == []


def test_tools_never_import_the_agent() -> None:
    assert sorted({i.source for i in imports() if i.layer == "tools" and i.target_layer == "agent"}) == []


def test_blueprint_runs_on_the_agent_loop_and_imports_no_provider() -> None:
    blueprint = [i for i in imports() if i.layer == "blueprint"]
    assert not [i.source for i in blueprint if i.target_layer == "providers"]
    session = (PACKAGE / "blueprint" / "session.py").read_text(encoding="utf-8")
    assert "AgentLoop(" in session, "a blueprint session must run on the agent's loop"


def test_every_ui_module_draws() -> None:
    """A module in ui/ imports textual or rich itself; anything else belongs in app/ or the core.
    A package face that only re-exports its own modules is the exception."""
    idle = []
    for path in (PACKAGE / "ui").rglob("*.py"):
        if path.name == "__init__.py":
            continue
        source = str(path.relative_to(PACKAGE))
        if not any(i.source == source and i.target.split(".")[0] in UI_ONLY for i in imports()):
            idle.append(source)
    assert sorted(idle) == []


def test_the_ui_reaches_the_core_only_through_the_application_layer() -> None:
    reaching = {"tools", "commands", "providers", "workspace", "graph", "sandbox"}
    guilty = sorted({f"{i.source} imports {i.target}" for i in imports() if i.layer == "ui" and i.target_layer in reaching})
    assert guilty == []


def _face(package: Path) -> list[str] | None:
    """The names of a package's `__all__`: a literal list, or (a lazy face, PEP 562) `sorted()` of
    the map from each name to the module it lives in."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    assigned = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    value = assigned.get("__all__")
    if value is None:
        return None
    if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "sorted" and isinstance(value.args[0], ast.Name):
        return sorted(ast.literal_eval(assigned[value.args[0].id]))
    return list(ast.literal_eval(value))


CORE_PACKAGES = sorted(
    str(init.parent.relative_to(PACKAGE)) for init in PACKAGE.rglob("__init__.py")
    if init.parent != PACKAGE and init.relative_to(PACKAGE).parts[0] not in ("ui", "cli")
    and not str(init.relative_to(PACKAGE)).startswith(DATA)
)


@pytest.mark.parametrize("name", CORE_PACKAGES)
def test_every_core_package_has_a_face(name: str) -> None:
    import importlib

    names = _face(PACKAGE / name)
    assert names, f"konstruct_tui/{name}/__init__.py has no non-empty __all__"
    module = importlib.import_module("konstruct_tui." + name.replace("/", "."))
    assert [n for n in names if not hasattr(module, n)] == [], "__all__ names something the face does not have"
    # A name that is also a sub-module's resolves to the module once that is imported (a lazy face
    # never sees the lookup): faces export objects, never modules.
    assert [n for n in names if isinstance(getattr(module, n), types.ModuleType)] == []
    assert len(names) == len(set(names))


def test_other_packages_import_through_the_face() -> None:
    """Outside its own package, a module imports `konstruct_tui.X` (the face), never X's modules;
    a sub-package with a face of its own (app.demo) counts as one. ui/ and cli/ have no face: the
    CLI is the only importer of ui/, and nothing imports cli/ but `__main__`."""

    def is_face(target: str) -> bool:
        folder = PACKAGE.parent / target.replace(".", "/")
        return (folder / "__init__.py").exists() and bool(_face(folder))

    guilty = sorted({
        f"{i.source} imports {i.target}" for i in imports()
        if i.target_layer not in (None, i.layer, *EVERYONE, "ui", "cli") and i.target.count(".") >= 2 and not is_face(i.target)
    })
    assert guilty == []


# Tests of one package that still reach into another's modules for a name its face does not offer
# (each is a private helper of that package, or graph/ being reorganised): the list only shrinks.
_TESTS_BEHIND_THE_FACE = frozenset({
    "agent/test_reasoning_responses.py -> providers.responses", "app/test_run_browser.py -> blueprint.failures",
    "agent/test_narrow_grants_in_the_loop.py -> app.trust",
    "app/test_run_browser.py -> blueprint.gate", "app/test_run_browser.py -> blueprint.store",
    "app/test_run_browser.py -> blueprint.verification", "app/test_run_browser.py -> blueprint.report",
    "commands/programs/test_git.py -> workspace.safe_git", "faults/test_fault_journal_edges.py -> workspace.intent",
    "sandbox/test_sandbox_verification.py -> blueprint.verification", "tools/test_go_build_constraints.py -> graph.languages",
    "tools/test_graph_honesty.py -> graph.dynamic_lookups", "ui/test_ui_runs_screen.py -> blueprint.store",
    "ui/team_fixture.py -> blueprint.store",  # a gate record written straight into a run store, as test_ui_runs_screen does
})


def test_tests_import_other_packages_through_their_faces() -> None:
    """A test of package X (tests/X/...) may import X's modules, which it tests; any other package it
    imports through that package's face, as the code does, so a package can move its modules around
    without breaking the tests of its neighbours. ui/ and cli/ have no face."""
    tests = Path(__file__).parent
    found = set()
    for path in tests.rglob("*.py"):
        own = path.relative_to(tests).parts[0] if len(path.relative_to(tests).parts) > 1 else None
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("konstruct_tui.")):
                continue
            parts = node.module.split(".")
            folder = PACKAGE.parent / node.module.replace(".", "/")
            if len(parts) < 3 or parts[1] in ("ui", "cli", own) or ((folder / "__init__.py").exists() and _face(folder)):
                continue
            if (PACKAGE / parts[1] / "__init__.py").exists():
                found.add(f"{path.relative_to(tests).as_posix()} -> {'.'.join(parts[1:3])}")
    assert sorted(found - _TESTS_BEHIND_THE_FACE) == []


def test_one_user_folder_fixture_for_every_test() -> None:
    """Private XDG folders come from one autouse fixture in tests/conftest.py; a copy in a folder's
    conftest would shadow it with a narrower one (some copies forgot XDG_STATE_HOME)."""
    tests = Path(__file__).parent
    setting = [str(p.relative_to(tests)) for p in tests.rglob("conftest.py")
               if "XDG_CONFIG_HOME" in p.read_text(encoding="utf-8")]
    assert setting == ["conftest.py"]
    root = (tests / "conftest.py").read_text(encoding="utf-8")
    assert all(name in root for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"))


def test_the_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").exists()


_PROBE = """
import importlib, json, sys
from pathlib import Path
import konstruct_tui
package = Path(konstruct_tui.__file__).parent
names = []
for path in sorted(package.rglob("*.py")):
    parts = path.relative_to(package.parent).with_suffix("").parts
    if parts[1] == "ui" or parts[-1] == "__main__" or "sample" in parts:
        continue
    names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
guilty = []
for name in names:
    importlib.import_module(name)
    if "textual" in sys.modules and not guilty:
        guilty.append(name)
print(json.dumps({"modules": names, "guilty": guilty}))
"""


def test_no_module_outside_ui_imports_textual() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert "konstruct_tui.workspace.containment" in report["modules"]
    assert "konstruct_tui.cli" in report["modules"]
    assert "konstruct_tui.app.workbench" in report["modules"]
    assert report["guilty"] == [], f"{report['guilty'][0]} pulls in textual"
