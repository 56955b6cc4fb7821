"""git_diff: what changed in the working tree against a base (HEAD by default), file by file, with
the diff text and a graph impact summary (who depends on the changed files, which neighborhoods
they touch). Untracked files count as added, since a new file is a change the agent made."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

from pydantic import Field

from ..workspace import Workspace, run_git
from .base import Tool, ToolContext, ToolError, ToolInput, ToolResult
from .enrichment import impact_summary, look
from .globs import path_filter

_TIMEOUT = 30
_STATUS = {"A": "added", "M": "modified", "D": "deleted", "T": "type_changed", "U": "unmerged"}
_SAFE_BASE = re.compile(r"^[A-Za-z0-9_./@^~{}:+-]+$")


class GitDiffInput(ToolInput):
    base: str = Field(default="HEAD", description="the commit, branch or tag to compare the working tree with")
    path_glob: str | None = Field(default=None, description="only paths matching this glob")
    max_bytes: int = Field(default=200_000, ge=0, le=8 * 1024 * 1024, description="cap on the diff text")


class GitDiff(Tool[GitDiffInput], name="git_diff", mutating=False):
    """The working tree's changes against base (default HEAD), including untracked files: per file
    status and line counts, the unified diff, and impact (files that depend on the changed ones,
    neighborhoods touched)."""

    def run(self, params: GitDiffInput, context: ToolContext) -> ToolResult:
        root = context.workspace.root
        _check_repository(root)
        base = _resolve_base(root, params.base)
        scope = path_filter(params.path_glob)
        files = _changed_files(context.workspace, base)
        files = [f for f in files if scope(f["path"])]
        paths = [f["path"] for f in files]
        tracked = [f["path"] for f in files if f["status"] != "untracked"]
        diff_text, truncated = _diff_text(root, base, tracked, narrowed=bool(params.path_glob), max_bytes=params.max_bytes)
        untracked = [f for f in files if f["status"] == "untracked"]
        for entry in untracked:
            entry["status"] = "added"
            entry["untracked"] = True
        if untracked and len(diff_text.encode()) < params.max_bytes:
            more, cut = _untracked_diff(root, [f["path"] for f in untracked], params.max_bytes - len(diff_text.encode()))
            diff_text += more
            truncated = truncated or cut
        payload: dict[str, Any] = {
            "base": params.base,
            "files": files,
            "diff": diff_text,
            "truncated": truncated,
            "impact": impact_summary(look(context, structural=True), paths),
        }
        if not files:
            payload["reason"] = f"the working tree matches {params.base}"
        return ToolResult(self.name, payload)


def _git(root: Path, *args: str, ok: tuple[int, ...] = (0,)) -> bytes:
    try:
        done = run_git(root, "-c", "core.quotepath=off", *args, timeout=_TIMEOUT)  # hardened: runs no project program
    except FileNotFoundError:
        raise ToolError("git is not installed, so there is no diff to show") from None
    except subprocess.TimeoutExpired:
        raise ToolError(f"git took longer than {_TIMEOUT} s") from None
    if done.returncode not in ok:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ToolError(f"git {args[0]} failed: {message[-1] if message else 'exit ' + str(done.returncode)}")
    return done.stdout


def _check_repository(root: Path) -> None:
    try:
        done = run_git(root, "rev-parse", "--is-inside-work-tree", timeout=_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        raise ToolError("git is not available, so there is no diff to show") from None
    if done.returncode != 0 or done.stdout.strip() != b"true":
        raise ToolError("this workspace is not a git work tree, so there is no diff; use read_code or search instead")


def _resolve_base(root: Path, base: str) -> str:
    if not base or base.startswith("-") or not _SAFE_BASE.match(base):
        raise ToolError(f"base {base!r} is not a commit, branch or tag name")
    try:
        out = _git(root, "rev-parse", "--verify", "-q", f"{base}^{{commit}}")
    except ToolError:
        if base == "HEAD":
            raise ToolError("the repository has no commit yet, so there is no HEAD to compare with") from None
        raise ToolError(f"base {base!r} is not a commit, branch or tag in this repository") from None
    return out.decode().strip()


def _changed_files(workspace: Workspace, base: str) -> list[dict[str, Any]]:
    root = workspace.root
    files: dict[str, dict[str, Any]] = {}
    names = _git(root, "diff", "--no-ext-diff", "--no-textconv", "--name-status", "-z", "--no-renames", "--relative", base, "--").split(b"\0")
    for status, name in zip(names[0::2], names[1::2], strict=False):
        if name:
            files[os.fsdecode(name)] = {"path": os.fsdecode(name), "status": _STATUS.get(status.decode()[:1], "modified")}
    numbers = _git(root, "diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", "--no-renames", "--relative", base, "--").split(b"\0")
    for row in numbers:
        parts = row.split(b"\t", 2)
        if len(parts) == 3 and os.fsdecode(parts[2]) in files:
            entry = files[os.fsdecode(parts[2])]
            binary = parts[0] == b"-"
            entry["additions"] = None if binary else int(parts[0])
            entry["deletions"] = None if binary else int(parts[1])
            if binary:
                entry["binary"] = True
    for name in _git(root, "ls-files", "-z", "--others", "--exclude-standard").split(b"\0"):
        path = os.fsdecode(name)
        if path and path not in files and (root / path).is_file() and not (root / path).is_symlink():
            files[path] = {"path": path, "status": "untracked", "additions": _line_count(workspace, path), "deletions": 0}
    return [files[p] for p in sorted(files)]


def _line_count(workspace: Workspace, path: str) -> int | None:
    try:
        data = workspace.read(path).data
    except Exception:  # refused or gone since git listed it: the count is unknown, the file still changed
        return None
    if b"\0" in data[:8192]:
        return None
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def _diff_text(root: Path, base: str, paths: list[str], *, narrowed: bool, max_bytes: int) -> tuple[str, bool]:
    if not paths:
        return "", False
    specs = [f":(literal){p}" for p in paths] if narrowed else []
    raw = _git(root, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--relative", base, "--", *specs)
    return _capped(raw, max_bytes)


def _untracked_diff(root: Path, paths: list[str], max_bytes: int) -> tuple[str, bool]:
    chunks: list[bytes] = []
    for path in paths:
        chunks.append(_git(root, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-index", "--", "/dev/null", path, ok=(0, 1)))
        if sum(len(c) for c in chunks) > max_bytes:
            break
    return _capped(b"".join(chunks), max_bytes, cut=len(chunks) < len(paths))


def _capped(raw: bytes, max_bytes: int, cut: bool = False) -> tuple[str, bool]:
    if len(raw) <= max_bytes:
        return raw.decode("utf-8", "replace"), cut
    return raw[:max_bytes].decode("utf-8", "ignore") + "\n[diff truncated: raise max_bytes or narrow path_glob]\n", True
