"""Paths the model gives the non-file tools (graph targets, folders to list): workspace-relative,
normalized, and refused when they would leave the root. (Opening a file is the workspace layer's
job; these are names to look up, so a string check is the whole story.)"""

from __future__ import annotations

import posixpath

from .base import ToolError


def relative_target(value: str | None, what: str = "target") -> str:
    """"" for the root; `a/../b` that stays inside is fine; absolute or escaping paths are refused."""
    text = (value or "").strip().replace("\\", "/")
    if "\0" in text or text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        raise ToolError(f"{what} must be a workspace-relative path inside the project, not {value!r}")
    normal = posixpath.normpath(text) if text else "."
    if normal == ".." or normal.startswith("../"):
        raise ToolError(f"{what} must be a workspace-relative path inside the project, not {value!r}")
    return "" if normal == "." else normal
