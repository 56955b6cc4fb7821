"""graph/ is split into modules by idea: a module uses only the private names it defines itself
(no `from .x import _y`, no `other._method(...)` reaching into another module's object), and no
`if TYPE_CHECKING:` import closes a cycle (a cycle the type checker sees is one a reader must
untangle too)."""

from __future__ import annotations

import ast
from pathlib import Path

GRAPH = Path(__file__).parents[2] / "konstruct_tui" / "graph"

# Violations inside language folders at the start of this rule (issue #29 item 3), by file: the
# engineer who owns each language removes theirs, and takes it off this list (it may only shrink).
_LANGUAGE_FOLDERS_STILL_REACHING_IN: dict[str, set[str]] = {}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(source: str) -> set[str]:
    """Private names `source` takes from elsewhere: `from .x import _y` as "from .x import _y", and
    `obj._y` (read or called) as "._y" when the module defines no `_y` of its own (a function,
    class, variable, attribute it sets, parameter or alias)."""
    defined: set[str] = set()
    used: set[str] = set()
    reaches: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif _private(node.attr):
                used.add(node.attr)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            defined.add(node.asname)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                and _private(node.args[1].value)):
            used.add(node.args[1].value)  # `getattr(resolver, "_table")` is `resolver._table`
        if isinstance(node, ast.ImportFrom):
            reaches |= {f"from {'.' * node.level}{node.module or ''} import {a.name}"
                        for a in node.names if _private(a.name)}
    return reaches | {f".{name}" for name in used - defined}


def _modules() -> dict[str, Path]:
    return {path.relative_to(GRAPH).as_posix(): path for path in sorted(GRAPH.rglob("*.py"))}


def test_no_module_reaches_into_another_modules_private_names() -> None:
    found = {name: reaches for name, path in _modules().items() if (reaches := private_reaches(path.read_text()))}
    core = {name: reaches for name, reaches in found.items() if not name.startswith("languages/")}
    assert core == {}, "the core takes only public names from its modules"
    for name, reaches in found.items():
        allowed = _LANGUAGE_FOLDERS_STILL_REACHING_IN.get(name, set())
        assert reaches <= allowed, f"{name} reaches into another module: {sorted(reaches - allowed)}"
    for name, allowed in _LANGUAGE_FOLDERS_STILL_REACHING_IN.items():
        assert allowed <= found.get(name, set()), f"{name} no longer reaches {sorted(allowed)}: take it off the list"


def test_the_private_name_check_sees_each_way_in() -> None:
    assert private_reaches("from .resolver import _walk\n") == {"from .resolver import _walk"}
    assert private_reaches("from . import _helpers\n") == {"from . import _helpers"}
    assert private_reaches("def f(r):\n    return r._member_of(1)\n") == {"._member_of"}
    assert private_reaches("x = resolver._table\n") == {"._table"}
    assert private_reaches("x = getattr(resolver, '_table', None)\n") == {"._table"}
    assert private_reaches("from .resolver import (\n    walk,\n    _walk_members,\n)\n") == {
        "from .resolver import _walk_members"}
    # its own: a method, an attribute it sets, a module-level helper, an alias
    own = ("class A:\n    def __init__(self):\n        self._seen = {}\n    def _m(self):\n        return self._seen\n"
           "def _f(a):\n    return a._m(), _f\nimport json as _json\n")
    assert private_reaches(own) == set()
    assert private_reaches("x.__class__\n") == set()  # dunders are nobody's private names


def _resolve(importer: str, level: int, module: str | None, names: list[str], modules: dict[str, Path]) -> set[str]:
    """The graph modules an import statement in `importer` names."""
    if level == 0:
        if not (module or "").startswith("konstruct_tui.graph"):
            return set()
        parts = (module or "").split(".")[2:]
    else:
        package = importer.split("/")[:-1]
        parts = package[:len(package) - (level - 1)] + (module.split(".") if module else [])
    base = "/".join(parts)
    package = {c for c in (f"{base}.py", f"{base}/__init__.py".lstrip("/")) if c in modules}
    found = set()
    for name in names:  # `from . import treesitter`: a module of the package, else a name of its own
        inner = {c for c in (f"{base}/{name}.py".lstrip("/"), f"{base}/{name}/__init__.py".lstrip("/")) if c in modules}
        found |= inner or package
    return found if names else package


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_imports(importer: str, source: str, modules: dict[str, Path]) -> tuple[set[str], set[str]]:
    """(modules imported when `importer` loads, modules imported only under `if TYPE_CHECKING:`):
    module-level statements only (an import inside a function runs later, on purpose)."""
    runtime: set[str] = set()
    typing_only: set[str] = set()

    def visit(statements: list[ast.stmt], checking: bool) -> None:
        for node in statements:
            if isinstance(node, ast.If):
                visit(node.body, checking or _is_type_checking(node.test))
                visit(node.orelse, checking)
            elif isinstance(node, ast.Try):
                visit(node.body, checking)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                if isinstance(node, ast.Import):
                    targets = set().union(*(_resolve(importer, 0, a.name, [], modules) for a in node.names))
                else:
                    targets = _resolve(importer, node.level, node.module, [a.name for a in node.names], modules)
                (typing_only if checking else runtime).update(targets - {importer})

    visit(ast.parse(source).body, False)
    return runtime, typing_only


def type_checking_cycles(modules: dict[str, Path]) -> list[list[str]]:
    """Each `if TYPE_CHECKING:` import A -> B where B leads back to A through module-level imports."""
    edges = {name: module_imports(name, path.read_text(), modules) for name, path in modules.items()}
    reach = {name: runtime | typing_only for name, (runtime, typing_only) in edges.items()}
    cycles = []
    for importer, (_, typing_only) in sorted(edges.items()):
        for target in sorted(typing_only):
            path = _path(reach, target, importer)
            if path:
                cycles.append([importer, *path])
    return cycles


def _path(reach: dict[str, set[str]], start: str, goal: str) -> list[str]:
    came: dict[str, str] = {start: ""}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            if node == goal:
                path = [node]
                while came[path[-1]]:
                    path.append(came[path[-1]])
                return path[::-1]
            for nxt in sorted(reach.get(node, ())):
                if nxt not in came:
                    came[nxt] = node
                    following.append(nxt)
        frontier = following
    return []


def test_no_type_checking_import_closes_a_cycle() -> None:
    assert type_checking_cycles(_modules()) == []


def test_the_cycle_check_sees_a_type_checking_cycle(tmp_path: Path) -> None:
    package = tmp_path / "graph"
    (package / "languages").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "languages" / "__init__.py").write_text("")
    (package / "resolver.py").write_text("from .walks import walk\n")
    (package / "walks.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .resolver import R\n")
    (package / "lazy.py").write_text("def f():\n    from .resolver import R\n")  # a function's import: no cycle
    modules = {p.relative_to(package).as_posix(): p for p in sorted(package.rglob("*.py"))}
    assert type_checking_cycles(modules) == [["walks.py", "resolver.py", "walks.py"]]
    assert module_imports("lazy.py", (package / "lazy.py").read_text(), modules) == (set(), set())
