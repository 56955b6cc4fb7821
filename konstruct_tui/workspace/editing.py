"""Planning one edit against the file as it is now: revision rules, replacements and guards.

A plan is made before anything is written, against a view of the files that already includes the
batch's earlier entries, so two edits to one file in one batch can both be built on the same read.
"""

from __future__ import annotations

import difflib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from .containment import PathMissing, PathRefused
from .guards import EditRejected, EditRun, apply_replacement, check_edit
from .handle import NotAFile, Workspace
from .revision import is_revision, revision_of

MAX_DIFF_LINES = 400
T = TypeVar("T")


@dataclass(frozen=True)
class EditRequest:
    """One entry of a write or delete batch. `kind`: replace, rewrite, create or delete."""

    path: str
    kind: str
    revision: str | None = None
    content: str | None = None
    replacements: tuple[tuple[str, str], ...] = ()


class EntryFailed(Exception):
    def __init__(self, status: str, reason: str, **extra: object) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.extra = extra


@dataclass
class FileState:
    """What the batch believes is at one resolved path: bytes (None: absent) and mode."""

    data: bytes | None
    mode: int | None
    revision_before_batch: str | None = None
    touched: bool = False


@dataclass
class Plan:
    request: EditRequest
    resolved: str
    before: bytes | None
    after: bytes | None
    mode: int | None
    status: str
    created_dirs: list[str] = field(default_factory=list)
    kept: str | None = None  # an atomic batch's displaced file, beside the new one until the batch ends

    @property
    def before_revision(self) -> str | None:
        return None if self.before is None else revision_of(self.before)

    @property
    def after_revision(self) -> str | None:
        return None if self.after is None else revision_of(self.after)


class EditPlanner:
    """Plans entries in order against a view that remembers the batch's own earlier plans."""

    def __init__(self, workspace: Workspace, run: EditRun) -> None:
        self.workspace = workspace
        self.run = run
        self.view: dict[str, FileState] = {}

    def plan(self, request: EditRequest) -> Plan:
        resolved, state = self._state(request)
        if request.kind == "create":
            return self._plan_create(request, resolved, state)
        if state.data is None:
            if request.revision is not None:
                raise EntryFailed("conflict", f"{resolved!r} no longer exists; it changed since your read")
            verb = "delete" if request.kind == "delete" else "edit"
            hint = "" if request.kind == "delete" else "; to make a new file pass \"create\": true"
            raise EntryFailed("rejected", f"cannot {verb} {resolved!r}: it does not exist{hint}")
        self._check_revision(request, resolved, state)
        if request.kind == "delete":
            return self._commit(request, resolved, state, None, "deleted")
        text = _text_of(state.data, resolved)
        if request.kind == "rewrite":
            after_text = request.content or ""
            _guard(lambda: check_edit(text, after_text, "this rewrite"))
        else:
            after_text = text
            for number, (old, new) in enumerate(request.replacements, start=1):
                step = _guard(lambda: apply_replacement(after_text, old, new), f"replacement {number}: ")
                _guard(lambda: check_edit(after_text, step, f"replacement {number}"))
                after_text = step
        _guard(lambda: self.run.check(resolved, text, after_text))
        return self._commit(request, resolved, state, _encode(after_text), "written")

    def forget(self, resolved: str) -> None:
        self.view.pop(resolved, None)

    def _plan_create(self, request: EditRequest, resolved: str, state: FileState) -> Plan:
        if state.data is not None:
            raise EntryFailed(
                "conflict",
                f"{resolved!r} already exists; read it and edit it with its revision",
                current_revision=revision_of(state.data),
            )
        content = request.content or ""
        if resolved in self.run.originals:
            _guard(lambda: self.run.check(resolved, self.run.originals[resolved], content))
        return self._commit(request, resolved, state, _encode(content), "created")

    def _check_revision(self, request: EditRequest, resolved: str, state: FileState) -> None:
        assert state.data is not None
        if request.revision is None:
            raise EntryFailed(
                "rejected",
                f"{resolved!r} exists, so this entry must carry the revision of the read it was built on",
            )
        if not is_revision(request.revision):
            raise EntryFailed("rejected", f"{request.revision!r} is not a revision (sha256:<64 hex digits>)")
        current = revision_of(state.data)
        if request.revision == current:
            return
        if state.touched and request.revision == state.revision_before_batch:
            return  # built on the same read as an earlier entry of this batch
        raise EntryFailed(
            "conflict",
            f"{resolved!r} changed since your read (it is now {current}); read it again and redo the edit",
            current_revision=current,
        )

    def _state(self, request: EditRequest) -> tuple[str, FileState]:
        follow = request.kind != "delete"
        try:
            with self.workspace.locate(request.path, follow_last=follow) as where:
                resolved = where.relative
                if not where.name:
                    raise EntryFailed("rejected", f"{request.path!r} is a directory, not a file")
                if not follow and where.exists and _is_link(where.parent_fd, where.name):
                    raise EntryFailed("rejected", f"{resolved!r} is a symbolic link; delete_code removes files")
        except PathRefused as refusal:
            raise EntryFailed("refused", str(refusal)) from None
        except PathMissing as missing:
            if request.kind != "create":
                raise EntryFailed("rejected", str(missing)) from None
            resolved = _normal(request.path)
        if resolved.split("/")[0] == ".git":
            raise EntryFailed("refused", "the repository's .git directory is not edited by tools")
        if resolved in self.view:
            return resolved, self.view[resolved]
        try:
            snapshot = self.workspace.read(resolved)
            state = FileState(snapshot.data, snapshot.mode, snapshot.revision)
        except PathMissing:
            state = FileState(None, None)
        except PathRefused as refusal:
            raise EntryFailed("refused", str(refusal)) from None
        except NotAFile as not_file:
            raise EntryFailed("rejected", str(not_file)) from None
        return resolved, state

    def _commit(self, request: EditRequest, resolved: str, state: FileState, after: bytes | None, status: str) -> Plan:
        plan = Plan(request, resolved, state.data, after, state.mode, status)
        before_text = None if state.data is None else state.data.decode("utf-8", "replace")
        self.run.record(resolved, before_text)
        self.view[resolved] = FileState(after, state.mode, state.revision_before_batch, True)
        return plan


@dataclass(frozen=True)
class EditPreview:
    """What one entry would do: its diff, or why the write would refuse it."""

    path: str
    diff: str | None
    problem: str | None = None


def preview_edits(workspace: Workspace, requests: list[EditRequest], max_lines: int = MAX_DIFF_LINES) -> list[EditPreview]:
    """Plan a batch in memory by the write's own rules (revisions, replacements, guards) and say what
    each entry would change. Nothing is written; the real write plans again against the files as
    they are then."""
    planner = EditPlanner(workspace, EditRun())
    previews = []
    for request in requests:
        try:
            plan = planner.plan(request)
        except EntryFailed as failed:
            previews.append(EditPreview(request.path, None, f"{failed.status}: {failed.reason}"))
            continue
        previews.append(EditPreview(plan.resolved, unified_diff(plan, max_lines)))
    return previews


def unified_diff(plan: Plan, max_lines: int = MAX_DIFF_LINES) -> str:
    before = "" if plan.before is None else plan.before.decode("utf-8", "replace")
    after = "" if plan.after is None else plan.after.decode("utf-8", "replace")
    lines = list(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            "/dev/null" if plan.before is None else f"a/{plan.resolved}",
            "/dev/null" if plan.after is None else f"b/{plan.resolved}",
        )
    )
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"... {len(lines) - max_lines} more diff lines\n"]
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _guard(step: Callable[[], T], prefix: str = "") -> T:
    try:
        return step()
    except EditRejected as rejected:
        raise EntryFailed("rejected", prefix + str(rejected)) from None


def _text_of(data: bytes, resolved: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise EntryFailed("rejected", f"{resolved!r} is not UTF-8 text; write_code edits text files") from None


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise EntryFailed("rejected", f"the new content cannot be written as UTF-8: {error.reason}") from None


def _is_link(dir_fd: int, name: str) -> bool:
    return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)


def _normal(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == ".." and parts:
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)
