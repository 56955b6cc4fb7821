"""Applying write and delete batches: per-entry statuses, atomic rollback, preconditions, journal.

The order is write-ahead: every entry is planned first, then the pre-images of every file the batch
will change are made durable in the journal (intent.py), and only then is the first file touched.
Each landing is logged, and the batch's end is recorded before its result is returned. A batch
whose journal cannot be written does not start: no edit is ever made without its undo.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bytecode import forget_bytecode
from .containment import PathMissing, PathRefused
from .durable import fsync_dir
from .editing import EditPlanner, EditRequest, EntryFailed, Plan, unified_diff
from .guards import EditRun
from .handle import NotAFile, Workspace
from .intent import IntendedFile, JournalUnwritable, OpenBatch
from .journal import WriteJournal
from .restoring import restore
from .swap import SwapConflict, discard, put_back, remove_if, remove_keeping, replace_keeping, write_new, write_replacing

# Errors of the disk, not of the entry: the batch ends there (the next entry would meet them too).
_DISK_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EFBIG}
_KILLED = "not applied: the run was killed before this entry"


class _DiskFailed(EntryFailed):
    """Writing the entry failed for a reason of the disk (full, read-only, I/O error)."""


@dataclass
class _Outcome:
    request: EditRequest
    plan: Plan | None = None
    failure: EntryFailed | None = None
    applied: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def apply_edits(
    workspace: Workspace,
    requests: list[EditRequest],
    *,
    atomic: bool = False,
    preconditions: dict[str, str] | None = None,
    run: EditRun | None = None,
    journal: WriteJournal | None = None,
    tool: str = "write_code",
    killed: Callable[[], bool] = lambda: False,
) -> dict[str, Any]:
    """Apply a batch. Non-atomic: each entry stands alone. Atomic: all or nothing, byte for byte.

    `killed` is asked before each entry is applied: once it says yes, nothing more is applied (an
    atomic batch is rolled back), so a kill never leaves a half-applied batch, and the result says
    exactly which entries landed."""
    run = run or EditRun()
    outcomes = [_Outcome(request) for request in requests]
    if journal is not None:
        from .recovery import recover_interrupted

        recover_interrupted(workspace, journal)  # settle an interrupted batch before a newer one begins
    checked = _check_preconditions(workspace, preconditions or {})
    failed = [c for c in checked if c["status"] != "ok"]
    if failed:
        why = "; ".join(f"{c['path']}: {c['reason']}" for c in failed)
        for outcome in outcomes:
            outcome.failure = EntryFailed("conflict", f"a precondition failed, so nothing was written ({why})")
        return _report(workspace, outcomes, atomic, checked, None)

    planner = EditPlanner(workspace, run)
    if not _plan_all(workspace, planner, outcomes, atomic, preconditions or {}):
        return _report(workspace, outcomes, atomic, checked, None)
    planned = [o for o in outcomes if o.plan is not None and o.failure is None]
    if not planned:
        return _report(workspace, outcomes, atomic, checked, None)
    batch = None
    if journal is not None:
        try:
            batch = journal.begin(tool, atomic, _intent(workspace, planned))
        except JournalUnwritable as unwritable:
            for outcome in planned:
                outcome.failure = EntryFailed("rejected", str(unwritable))
            return _report(workspace, outcomes, atomic, checked, None, reason=str(unwritable))

    try:
        stop = (_apply_atomic if atomic else _apply_each)(workspace, planner, outcomes, batch, killed)
    except BaseException:
        # Something no entry expected (KeyboardInterrupt in a caller that does not wait for the
        # batch, a bug): settle the batch now as the next start would, then let it go on.
        if batch is not None and journal is not None:
            from .recovery import recover_interrupted

            batch.release()
            recover_interrupted(workspace, journal)
        raise
    applied = [o.plan for o in outcomes if o.applied and o.plan is not None]
    # Python trusts a cached .pyc whose recorded time and size still match: a same-size edit in the
    # same second would not be what the next command runs. Every writer comes through here.
    forget_bytecode(workspace, [p.resolved for p in applied])
    batch_id = None
    if batch is not None:
        batch_id, problem = _finish(workspace, batch, outcomes, atomic)
        stop = problem or stop
        _discard_kept(workspace, outcomes)
        if batch_id:
            journal.prune()  # type: ignore[union-attr]
    return _report(workspace, outcomes, atomic, checked, batch_id, reason=stop)


def _plan_all(workspace: Workspace, planner: EditPlanner, outcomes: list[_Outcome], atomic: bool, preconditions: dict[str, str]) -> bool:
    """Plan every entry before anything is written. False: an atomic batch ends here, untouched."""
    for index, outcome in enumerate(outcomes):
        try:
            outcome.plan = planner.plan(outcome.request)
        except EntryFailed as failure:
            outcome.failure = failure
            outcome.plan = None
            if atomic:
                _roll_back(workspace, outcomes, index)
                return False
    if atomic and any(c["status"] != "ok" for c in _check_preconditions(workspace, preconditions)):
        for outcome in outcomes:
            outcome.failure = EntryFailed("conflict", "a precondition changed while the batch was planned; nothing was written")
        return False
    return True


def _apply_atomic(workspace: Workspace, planner: EditPlanner, outcomes: list[_Outcome], batch: OpenBatch | None, killed: Callable[[], bool]) -> str | None:
    for index, outcome in enumerate(outcomes):
        assert outcome.plan is not None
        if killed():
            outcome.failure = EntryFailed("rolled_back", _KILLED)
            _roll_back(workspace, outcomes, index)
            return "the run was killed; the atomic batch was rolled back"
        try:
            _land(workspace, outcome, index, batch, keep=True)
        except EntryFailed as failure:
            outcome.failure = failure
            _roll_back(workspace, outcomes, index)
            return f"{failure.reason}; the atomic batch was rolled back" if isinstance(failure, _DiskFailed) else None
    return None


def _apply_each(workspace: Workspace, planner: EditPlanner, outcomes: list[_Outcome], batch: OpenBatch | None, killed: Callable[[], bool]) -> str | None:
    stale: set[str] = set()  # files whose earlier entry failed: later entries are planned again on the disk
    stopped: str | None = None
    for index, outcome in enumerate(outcomes):
        if outcome.plan is None or outcome.failure is not None:
            continue
        if stopped is not None:
            outcome.failure = EntryFailed("rejected", f"not applied: {stopped}")
            continue
        if killed():
            outcome.failure = EntryFailed("rejected", _KILLED)
            stopped = "the run was killed before this entry"
            continue
        try:
            if outcome.plan.resolved in stale:
                outcome.plan = _replan(planner, outcome, batch)
            _land(workspace, outcome, index, batch)
        except EntryFailed as failure:
            outcome.failure = failure
            if outcome.plan is not None:
                planner.forget(outcome.plan.resolved)
                stale.add(outcome.plan.resolved)
            if isinstance(failure, _DiskFailed):
                stopped = f"the batch stopped at entry {index + 1}: {failure.reason}"
    return stopped


def _replan(planner: EditPlanner, outcome: _Outcome, batch: OpenBatch | None) -> Plan:
    """Plan an entry again after an earlier entry of its file failed. The new plan must start from
    the bytes the journal holds, or undo could not take it back."""
    old = outcome.plan
    assert old is not None
    plan = planner.plan(outcome.request)
    if batch is not None and plan.before_revision not in (old.before_revision, _journaled(batch, plan.resolved)):
        planner.forget(plan.resolved)
        raise EntryFailed("conflict", f"{plan.resolved!r} changed while the batch was being applied; read it again")
    return plan


def _journaled(batch: OpenBatch, path: str) -> str | None:
    pre = batch.pre.get(path)
    return None if pre is None else pre.revision


def _land(workspace: Workspace, outcome: _Outcome, index: int, batch: OpenBatch | None, keep: bool = False) -> None:
    plan = outcome.plan
    assert plan is not None
    _apply(workspace, plan, keep)
    outcome.applied = True
    if batch is not None:
        try:
            batch.landed(index, plan.resolved, plan.after_revision, plan.created_dirs)
        except OSError as error:
            raise _DiskFailed("rejected", f"the undo journal could not log entry {index + 1}: {error.strerror or error}") from None


def _apply(workspace: Workspace, plan: Plan, keep: bool = False) -> None:
    """Write one planned entry. `keep`: an atomic batch keeps each displaced file until it ends, so
    its rollback only renames (a disk that just filled up cannot stop it)."""
    try:
        if plan.status == "created":
            assert plan.after is not None
            with workspace.locate(plan.request.path, make_parents=True) as where:
                plan.created_dirs = where.created_dirs
                plan.resolved = where.relative
                write_new(where.parent_fd, where.name, plan.after)
        elif plan.status == "deleted":
            with workspace.locate(plan.resolved, follow_last=False) as where:
                if keep:
                    plan.kept = remove_keeping(where.parent_fd, where.name, plan.before_revision or "")
                else:
                    remove_if(where.parent_fd, where.name, plan.before_revision or "")
        else:
            assert plan.after is not None
            with workspace.locate(plan.resolved) as where:
                # A rename, never a write into the open file: a hard link's other names keep their bytes.
                if keep:
                    plan.kept = replace_keeping(where.parent_fd, where.name, plan.after, plan.before_revision or "", plan.mode or 0o644)
                else:
                    write_replacing(where.parent_fd, where.name, plan.after, plan.before_revision or "", plan.mode or 0o644)
    except SwapConflict:
        raise EntryFailed("conflict", f"{plan.resolved!r} changed while it was being written; nothing of it was replaced") from None
    except PathRefused as refusal:
        raise EntryFailed("refused", str(refusal)) from None
    except (PathMissing, NotAFile) as missing:
        raise EntryFailed("rejected", str(missing)) from None
    except OSError as error:
        failure = _DiskFailed if error.errno in _DISK_ERRORS else EntryFailed
        raise failure("rejected", f"could not write {plan.resolved!r}: {error.strerror or error}") from None


def _roll_back(workspace: Workspace, outcomes: list[_Outcome], failed_index: int, because: str | None = None) -> None:
    """Restore, newest first, everything the batch wrote; then mark every other entry rolled_back.
    `failed_index` -1: no entry failed, the batch as a whole did (`because` says how)."""
    if because is None:
        culprit = outcomes[failed_index]
        assert culprit.failure is not None
        because = f"entry {failed_index + 1} ({culprit.request.path}) failed: {culprit.failure.status}"
        if isinstance(culprit.failure, _DiskFailed):
            because += f" ({culprit.failure.reason})"
        if culprit.failure.reason == _KILLED:
            because = "the run was killed"
    problems: dict[int, str] = {}
    was_applied = {index for index, outcome in enumerate(outcomes) if outcome.applied}
    for index in reversed(range(len(outcomes))):
        outcome = outcomes[index]
        if outcome.applied and outcome.plan is not None:
            try:
                _take_back(workspace, outcome.plan)
                workspace.remove_empty_dirs(outcome.plan.created_dirs)
                outcome.applied = False
            except (EntryFailed, OSError, SwapConflict, PathRefused, PathMissing) as error:
                problems[index] = f"could not be restored ({error}); it stays as the batch wrote it and `konstruct undo` can take it back"
    for index, outcome in enumerate(outcomes):
        if index == failed_index:
            continue
        note = "restored byte for byte" if index in was_applied else "not applied"
        status = "written" if index in problems else "rolled_back"
        outcome.failure = EntryFailed(status, problems.get(index, f"{note}: the atomic batch stopped because {because}"))


def _take_back(workspace: Workspace, plan: Plan) -> None:
    if plan.kept is None:
        restore(workspace, plan.resolved, plan.before, plan.after, plan.mode)
        return
    with workspace.locate(plan.resolved, follow_last=False) as where:
        put_back(where.parent_fd, plan.kept, where.name, plan.after_revision)
    plan.kept = None


def _discard_kept(workspace: Workspace, outcomes: list[_Outcome]) -> None:
    """The batch stands: the displaced files it kept for a rollback go (the journal has their bytes)."""
    for outcome in outcomes:
        plan = outcome.plan
        if plan is not None and plan.kept is not None:
            try:
                with workspace.locate(plan.resolved, follow_last=False) as where:
                    discard(where.parent_fd, plan.kept)
            except (OSError, PathRefused, PathMissing):
                pass  # its folder went away meanwhile, and the file with it
            plan.kept = None


def _finish(workspace: Workspace, batch: OpenBatch, outcomes: list[_Outcome], atomic: bool) -> tuple[str | None, str | None]:
    """Record the batch's end: what landed, made durable. (batch id or None, a problem or None)."""
    landed = [o for o in outcomes if o.applied and o.plan is not None]
    folders = sorted({_parent(o.plan.resolved) for o in landed if o.plan is not None})

    def sync_renames() -> None:  # the renames themselves survive a power cut before the result is given
        for folder in folders:
            _fsync_folder(workspace, folder)

    try:
        return batch.complete(_manifest_entries(landed), sync_renames), None
    except OSError as error:
        why = f"the undo journal could not record the batch's end ({error.strerror or error}: {batch.folder})"
        if atomic:
            _roll_back(workspace, outcomes, -1, why)
            if any(o.applied for o in outcomes):
                batch.release()  # what could not be restored stays open: the next start settles it
            else:
                batch.abandon()
            return None, f"{why}; the atomic batch was rolled back"
        batch.release()  # left open: the next konstruct start records what landed, so undo can take it back
        return batch.batch_id, f"{why}; the next konstruct start will record it so undo can take it back"


def _manifest_entries(landed: list[_Outcome]) -> list[dict[str, Any]]:
    """One entry per file: its mode before, the revision the batch left it at, the folders it made."""
    merged: dict[str, dict[str, Any]] = {}
    for outcome in landed:
        plan = outcome.plan
        assert plan is not None
        entry = merged.setdefault(plan.resolved, {"path": plan.resolved, "mode": plan.mode, "created_dirs": []})
        entry["after_revision"] = plan.after_revision
        entry["created_dirs"] += [d for d in plan.created_dirs if d not in entry["created_dirs"]]
    return list(merged.values())


def _intent(workspace: Workspace, planned: list[_Outcome]) -> list[IntendedFile]:
    files: dict[str, IntendedFile] = {}
    for outcome in planned:
        plan = outcome.plan
        assert plan is not None
        known = files.get(plan.resolved)
        if known is None:
            dirs = _missing_parents(workspace, plan.resolved) if plan.status == "created" else ()
            files[plan.resolved] = IntendedFile(plan.resolved, plan.before, plan.mode, (plan.after_revision,), dirs)
        else:
            files[plan.resolved] = IntendedFile(known.path, known.before, known.mode, (*known.revisions, plan.after_revision), known.may_create_dirs)
    return list(files.values())


def _missing_parents(workspace: Workspace, resolved: str) -> tuple[str, ...]:
    parts = resolved.split("/")[:-1]
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    return tuple(p for p in prefixes if not os.path.lexists(workspace.root / p))


def _parent(resolved: str) -> str:
    return resolved.rpartition("/")[0]


def _fsync_folder(workspace: Workspace, folder: str) -> None:
    if not folder:
        fsync_dir(workspace.root)
        return
    try:
        with workspace.locate(folder) as where:
            fd = os.open(where.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=where.parent_fd)
    except (PathMissing, PathRefused, OSError):
        return  # removed meanwhile: nothing of ours left in it to make durable
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_preconditions(workspace: Workspace, preconditions: dict[str, str]) -> list[dict[str, Any]]:
    checked = []
    for path, expected in preconditions.items():
        try:
            current = workspace.read(path).revision
        except PathRefused as refusal:
            checked.append({"path": path, "status": "refused", "reason": str(refusal)})
            continue
        except (PathMissing, NotAFile) as missing:
            checked.append({"path": path, "status": "not_found", "reason": str(missing)})
            continue
        if current == expected:
            checked.append({"path": path, "status": "ok"})
        else:
            checked.append({"path": path, "status": "conflict", "reason": f"is at {current}, not {expected}", "current_revision": current})
    return checked


def _report(
    workspace: Workspace, outcomes: list[_Outcome], atomic: bool, checked: list[dict[str, Any]], batch_id: str | None, reason: str | None = None
) -> dict[str, Any]:
    results = []
    for outcome in outcomes:
        entry: dict[str, Any] = {"path": workspace.scrub(outcome.request.path)}
        plan = outcome.plan
        if outcome.failure is not None and outcome.failure.status != "written":
            entry["status"] = outcome.failure.status
            entry["reason"] = workspace.scrub(outcome.failure.reason)
            entry.update(outcome.failure.extra)
        elif plan is not None:
            entry["status"] = plan.status
            if plan.resolved != outcome.request.path:
                entry["resolved"] = plan.resolved
            if plan.after is not None:
                entry["revision"] = plan.after_revision
            if plan.before is not None:
                entry["previous_revision"] = plan.before_revision
            if plan.status != "deleted":
                entry["diff"] = unified_diff(plan)
            if outcome.failure is not None:  # landed, and an atomic rollback could not take it back
                entry["reason"] = workspace.scrub(outcome.failure.reason)
        results.append(entry)
    report: dict[str, Any] = {"results": results, "atomic": atomic, "journal": batch_id}
    if reason:
        report["reason"] = workspace.scrub(reason)
    if checked:
        report["preconditions"] = checked
    return report
