"""The request input's history, kept per project across launches (one request per line, JSON-encoded
so a request may hold newlines). Plain Python, called from worker threads."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..userdirs import data_dir, private_dir, workspace_key

MAX_KEPT = 200


def history_path(root: Path) -> Path:
    return data_dir() / "history" / f"{workspace_key(root)}.jsonl"


def load_history(root: Path) -> list[str]:
    try:
        lines = history_path(root).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    found = []
    for line in lines[-MAX_KEPT:]:
        try:
            text = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn line from a crash: skip it
        if isinstance(text, str) and text:
            found.append(text)
    return found


def append_history(root: Path, text: str) -> None:
    path = history_path(root)
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (json.dumps(text, ensure_ascii=False) + "\n").encode("utf-8"))
    finally:
        os.close(fd)
