"""What a phase changed, as the disk shows it: a snapshot when the phase began (kept in the run
store, so a resumed run measures from the same start), diffed against the disk at every gate.

The changed set is that diff, whatever made it: `write_code`, `delete_code`, `run_command`, a project
script, a formatter. Each change is labelled with how it came about where that is known: a rolling
snapshot is taken before and after every executor call that can change files, and a path that
moved across a `write_code`/`delete_code` call whose result names it is a `tool` change, across a
`run_command` a `command` change, and anything else (between calls, outside the run) `unknown`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..workspace import FileState, TreeSnapshot, Workspace, changes_between, normalise, take_snapshot
from .pinning import (
    is_config,
    is_test_config,
    is_test_like,
    pinned_files,
    task_targets,
    verification_part,
)
from .plan import Phase
from .project_files import NEW_PROJECT_FILES, without_test_parts
from .shadowing import shadows
from .store import RunStore

WRITE_TOOLS = frozenset({"write_code", "delete_code"})
LANDED = frozenset({"written", "created", "deleted"})
WATCHED_TOOLS = WRITE_TOOLS | {"run_command"}
_DIFF_CHARS = 6000
_PIN_FILE_BYTES = 16 * 1024 * 1024  # a pinned file bigger than this (test data) is not kept: it runs as the disk has it
_PIN_TOTAL_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Change:
    path: str
    kind: str  # added, modified, deleted
    how: str  # tool, command, unknown
    detail: str  # the tool, or the command line

    def json(self) -> dict[str, str]:
        return {"path": self.path, "kind": self.kind, "how": self.how, "detail": self.detail}


class PhaseDisk:
    """One phase's view of the disk: its start, the pinned files' bytes then, and the changes since."""

    def __init__(self, store: RunStore, run_id: str, workspace: Workspace) -> None:
        self.store = store
        self.run_id = run_id
        self.workspace = workspace
        self.phase: Phase | None = None
        self.start = TreeSnapshot({})
        self.pinned: dict[str, bytes] = {}
        self.latest: TreeSnapshot | None = None
        self._last_moved: tuple[str, ...] = ()

    def begin(self, phase: Phase) -> None:
        """At the phase's first attempt: snapshot and pin. On resume: the recorded start."""
        self.phase = phase
        recorded = self.store.phase_start(self.run_id, phase.id)
        if recorded is not None:
            taken, files, pinned = recorded
            self.start = TreeSnapshot({p: FileState(*state) for p, state in files.items()}, taken)
            self.pinned = pinned
            self.latest = None
            origins = self.store.change_origins(self.run_id, phase.id)
            # Whatever moved while no process watched is not attributable, except that a run killed
            # mid-verification leaves what that command wrote: the verification's, not the phase's.
            how = ("verification", origins[""][1]) if origins.get("", ("",))[0] == "verifying" else ("unknown", "")
            self.refresh(*how, known=frozenset(origins))
            return
        self.start = take_snapshot(self.workspace.root)
        pins = pinned_files(phase, self.start.files, self._bytes)
        self.pinned = {}
        total = 0
        for path in sorted(pins):
            state = self.start.files.get(path)
            if state is None or state.size > _PIN_FILE_BYTES or total + state.size > _PIN_TOTAL_BYTES:
                continue
            data = self._bytes(path)
            if data is not None:
                self.pinned[path] = data
                total += len(data)
        self.store.put_phase_start(self.run_id, phase.id, self.start.taken_ns,
                                   {p: (s.size, s.mtime_ns, s.inode, s.revision) for p, s in self.start.files.items()}, self.pinned)
        self.latest = self.start

    def refresh(self, how: str = "unknown", detail: str = "", tool_paths: frozenset[str] = frozenset(),
                known: frozenset[str] = frozenset()) -> TreeSnapshot:
        """The disk now; what moved since the last look is labelled `how` (`tool` for `tool_paths`);
        paths in `known` keep the label they have (a resume compares with the phase's start)."""
        assert self.phase is not None
        now = take_snapshot(self.workspace.root, self.latest or self.start)
        self._last_moved = tuple(p for p in changes_between(self.latest or self.start, now).paths if p not in known)
        for path in self._last_moved:
            label = "tool" if path in tool_paths else how
            self.store.record_change(self.run_id, self.phase.id, path, label, detail if label != "unknown" else "")
        self.latest = now
        return now

    def before_call(self, tool: str) -> None:
        if tool in WATCHED_TOOLS and self.phase is not None:
            self.refresh()

    def after_call(self, tool: str, arguments: dict[str, Any], result: dict[str, Any]) -> None:
        if tool not in WATCHED_TOOLS or self.phase is None:
            return
        if tool == "run_command":
            detail = str(arguments.get("command") or f"script {arguments.get('script')}")
            self.refresh("command", detail[:300])
            return
        landed = frozenset(p for entry in result.get("results", []) if isinstance(entry, dict) and entry.get("status") in LANDED
                           and isinstance(entry.get("path"), str) and (p := normalise(entry["path"])))
        self.refresh("unknown", tool, landed)

    def changes(self, now: TreeSnapshot) -> list[Change]:
        """The phase's changed set: the disk against its start, less what only verification wrote."""
        assert self.phase is not None
        origins = self.store.change_origins(self.run_id, self.phase.id)
        return [Change(path, kind, *origins.get(path, ("unknown", "")))
                for path, kind in changes_between(self.start, now).kinds.items()
                if origins.get(path, ("",))[0] != "verification"]

    def only_verification(self) -> frozenset[str]:
        """Paths nothing but verification changed in this phase (its caches, reports, pid files)."""
        assert self.phase is not None
        return frozenset(p for p, (how, _) in self.store.change_origins(self.run_id, self.phase.id).items() if how == "verification")

    @contextmanager
    def verifying(self, command: str) -> Iterator[None]:
        """A verify command run in the workspace itself: what it writes there (caches, reports, a pid
        file) is labelled `verification` and is never the phase's change. The mark in the store lets
        a resume after a kill mid-verification label what the killed command left."""
        assert self.phase is not None
        self.refresh()
        self.store.record_change(self.run_id, self.phase.id, "", "verifying", command[:300])
        try:
            yield
        finally:
            self.refresh("verification", command[:300])
            self.store.record_change(self.run_id, self.phase.id, "", "verified", "")

    def reversion(self, now: TreeSnapshot) -> dict[str, bytes | None]:
        """What the scratch copy must hold instead of the disk: pinned files the phase edited (or
        deleted) as they stood when it began, no test configuration the phase added (conftest.py,
        pytest.ini, jest.config.js, ...) and no added file that shadows a pinned module (shadowing.py)."""
        assert self.phase is not None
        revert: dict[str, bytes | None] = {}
        for path, data in self.pinned.items():
            if now.revision(path) != self.start.revision(path) and verification_part(path, data) != verification_part(path, self._bytes(path)):
                revert[path] = data
        targets = task_targets(self.phase)
        for path in now.files:
            if path not in self.start.files and is_test_config(path) and path not in targets:
                revert[path] = None
            elif path not in self.start.files and path.endswith(NEW_PROJECT_FILES) and path not in targets:
                created = self._bytes(path)  # a new project file stays, but not its test part
                kept = without_test_parts(path, created) if created is not None else created
                if kept != created:
                    revert[path] = kept
        # Nor a file that makes Python import something else under a pinned module's name.
        for path in shadows(self.workspace.root, self.pinned, self.start.files, now.files, self.phase.verify, self._bytes, targets):
            revert[path] = None
        return revert

    def added_tests(self, now: TreeSnapshot) -> tuple[str, ...]:
        """Test files (and files in test folders) the phase added that no task names as a target."""
        assert self.phase is not None
        targets = task_targets(self.phase)
        return tuple(p for p in sorted(now.files) if p not in self.start.files and p not in targets
                     and is_test_like(p) and not is_config(p))

    def ignored_diff(self, revert: dict[str, bytes | None]) -> str:
        """The phase's edits to its verification, as a unified diff (for the adjudicator)."""
        out: list[str] = []
        for path, before in sorted(revert.items()):
            after = self._bytes(path)
            if before is None and (after is None or b"\0" in after[:8192]):  # a binary or a link: no text to show
                out.append(f"added {path} (binary, or a link): absent where the verification ran\n")
                continue
            old = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
            new = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
            out += difflib.unified_diff(old, new, f"a/{path}" if before is not None else "/dev/null",
                                        f"b/{path}" if after is not None else "/dev/null")
        text = "".join(out)
        return text if len(text) <= _DIFF_CHARS else text[:_DIFF_CHARS] + "\n[... diff cut]\n"

    def _bytes(self, path: str) -> bytes | None:
        try:
            return self.workspace.read(path).data
        except Exception:  # noqa: BLE001 - gone, refused or unreadable: nothing to pin
            return None
