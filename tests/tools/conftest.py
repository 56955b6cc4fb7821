"""A small real-shaped project for the tool tests, and a headless way to call the tools."""

from __future__ import annotations

import subprocess
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

FILES = {
    "app/__init__.py": "",
    "app/util.py": '''\
        """Small helpers for money."""


        def compute_total(prices):
            """Add up every price in the cart."""
            return sum(prices)


        def unused_helper():
            return 42


        def _local():
            return compute_total([1])
        ''',
    "app/orders.py": '''\
        from app.util import compute_total


        class OrderBook:
            def total(self, items):
                return compute_total(items)
        ''',
    "app/report.py": '''\
        from app.orders import OrderBook


        def render_report():
            return OrderBook().total([1, 2])
        ''',
    "app/cycle_a.py": "from app import cycle_b\n",
    "app/cycle_b.py": "from app import cycle_a\n",
    "cli.py": "from app.report import render_report\n\nprint(render_report())\n",
    "tests/test_orders.py": "from app.orders import OrderBook\n\n\ndef test_total():\n    assert OrderBook().total([2]) == 2\n",
    "web/api.ts": "import { fetchUser } from './client';\nexport const load = () => fetchUser(1);\n",
    "web/client.ts": "export function fetchUser(id: number) { return id; }\n",
    "docs/notes.md": "# Notes\n\ncompute_total is documented here.\n",
    "build.gradle.txt": "plain text\n",
}


def make_project(root: Path, files: dict[str, str] = FILES, *, git: bool = True) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    if git:
        (root / ".gitignore").write_text("ignored/\n")
        (root / "ignored").mkdir(exist_ok=True)
        (root / "ignored" / "secret.py").write_text("compute_total = 'ignored'\n")
        _git(root, "init", "-q")
        _git(root, "add", "-A")
        _git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "start")
    return root


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def new_project() -> Callable[..., Path]:
    """Make the sample project somewhere else (e.g. without git)."""
    return make_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture
def tool(project: Path) -> Iterator[Callable[..., dict[str, Any]]]:
    """Call a tool on `project` the way `konstruct tool` does (one context, a foreground graph)."""
    workspace = Workspace(project)
    context = ToolContext(workspace)

    def run(name: str, **arguments: Any) -> dict[str, Any]:
        return call(name, arguments, context).to_json()

    run.context = context  # type: ignore[attr-defined]
    yield run
    workspace.close()


# --- graph questions on small projects written per test (traverse_graph evidence tests) ---


def _dedented_project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    subprocess.run(["git", "-C", str(root), "init", "-q"], check=True, capture_output=True)
    return root


@pytest.fixture
def ask(tmp_path: Path) -> Iterator[Callable[..., Callable[..., dict[str, Any]]]]:
    opened: list[Workspace] = []

    def make(files: dict[str, str]) -> Callable[..., dict[str, Any]]:
        root = _dedented_project(tmp_path / f"p{len(opened)}", files)
        workspace = Workspace(root)
        opened.append(workspace)
        context = ToolContext(workspace)
        return lambda **arguments: call("traverse_graph", arguments, context).to_json()

    yield make
    for workspace in opened:
        workspace.close()
