"""The neighborhoods the workbench offers before any request: the project's own code first."""

from __future__ import annotations

from pathlib import Path

from konstruct_tui.app.graph_overview import graph_overview
from konstruct_tui.workspace import Workspace


def _cluster(root: Path, folder: str, names: list[str]) -> None:
    base = root / folder
    base.mkdir(parents=True, exist_ok=True)
    (base / "__init__.py").write_text("", encoding="utf-8")
    module = folder.replace("/", ".")
    for i, name in enumerate(names):
        others = "".join(f"from {module}.{other} import f_{other}\n" for other in names[:i])
        calls = "".join(f"    f_{other}()\n" for other in names[:i]) or "    pass\n"
        (base / f"{name}.py").write_text(f"{others}\n\ndef f_{name}():\n{calls}", encoding="utf-8")


def test_the_first_neighborhood_is_the_projects_own_code_not_its_examples(tmp_path: Path) -> None:
    root = tmp_path / "project"
    _cluster(root, "examples/shop", [f"ex{i}" for i in range(9)])  # the biggest cluster
    _cluster(root, "tests/unit", [f"test_t{i}" for i in range(7)])
    _cluster(root, "src/core", ["engine", "parts", "wheels"])
    workspace = Workspace(root)
    try:
        overview = graph_overview(workspace)
    finally:
        workspace.close()
    assert overview.status.startswith("graph: ready"), overview.status
    firsts = [hood["members"] for hood in overview.neighborhoods]
    assert firsts, overview
    assert all(m.startswith("src/") for m in firsts[0]), firsts[0]
    later = [m for members in firsts[1:] for m in members]
    assert any(m.startswith("examples/") for m in later)  # still offered, after the code
