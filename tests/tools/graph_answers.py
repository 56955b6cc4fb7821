"""Reading traverse_graph answers in tests."""

from __future__ import annotations

from typing import Any


def dead_files(answer: dict[str, Any]) -> set[str]:
    """The files an `unreferenced` answer calls dead (none unless its status is `ok`)."""
    return {r["path"] for r in answer["results"] if r.get("kind") == "file"} if answer["status"] == "ok" else set()
