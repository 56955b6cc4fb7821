"""Helpers the graph tests import by name (a uniquely named module: `from conftest import ...`
breaks when the whole suite runs and another folder's conftest is the one on sys.path)."""

from __future__ import annotations

import subprocess
from pathlib import Path

PROJECT = {
    "app/main.mini": "import lib/util\nuse helper\nuse Model\ndef main\n",
    "app/views.mini": "import app/main\nuse Model\ndef render\n",
    "lib/util.mini": "def helper\ndef unused_thing\nuse helper\n",
    "lib/models.mini": "def Model\nuse helper\n",
    "tests/test_util.mini": "import lib/util\nuse helper\n",
    "README.md": "# a project\n",
}


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        capture_output=True, text=True, check=True,
    )
    return done.stdout
