"""Applying write and delete batches: per-entry statuses, atomic rollback, preconditions, journal."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bytecode import forget_bytecode
from .containment import PathMissing, PathRefused
from .editing import EditPlanner, EditRequest, EntryFailed, Plan, unified_diff
from .guards import EditRun
from .handle import NotAFile, Workspace
from .journal import JournalEntry, WriteJournal
from .revision import revision_of
from .swap import SwapConflict, remove_if, write_new, write_replacing


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
    checked = _check_preconditions(workspace, preconditions or {})
    failed = [c for c in checked if c["status"] != "ok"]
    if failed:
        why = "; ".join(f"{c['path']}: {c['reason']}" for c in failed)
        for outcome in outcomes:
            outcome.failure = EntryFailed("conflict", f"a precondition failed, so nothing was written ({why})")
        return _report(workspace, outcomes, atomic, checked, None)

    planner = EditPlanner(workspace, run)
    if atomic:
        _apply_atomic(workspace, planner, outcomes, preconditions or {}, killed)
    else:
        for outcome in outcomes:
            if killed():
                outcome.failure = EntryFailed("rejected", _KILLED)
                continue
            try:
                outcome.plan = planner.plan(outcome.request)
                _apply(workspace, outcome.plan)
                outcome.applied = True
            except EntryFailed as failure:
                outcome.failure = failure
                if outcome.plan is not None:
                    planner.forget(outcome.plan.resolved)  # not written: plan later entries on the disk
    # Python trusts a cached .pyc whose recorded time and size still match: a same-size edit in the
    # same second would not be what the next command runs. Every writer comes through here.
    forget_bytecode(workspace, [o.plan.resolved for o in outcomes if o.applied and o.plan is not None])
    batch_id = None
    if journal is not None:
        done = [o.plan for o in outcomes if o.applied and o.plan is not None]
        if done:
            batch_id = journal.record(tool, _journal_entries(done))
    return _report(workspace, outcomes, atomic, checked, batch_id)


_KILLED = "not applied: the run was killed before this entry"


def _apply_atomic(
    workspace: Workspace, planner: EditPlanner, outcomes: list[_Outcome], preconditions: dict[str, str], killed: Callable[[], bool]
) -> None:
    for index, outcome in enumerate(outcomes):
        try:
            outcome.plan = planner.plan(outcome.request)
        except EntryFailed as failure:
            outcome.failure = failure
            _roll_back(workspace, outcomes, index)
            return
    if any(c["status"] != "ok" for c in _check_preconditions(workspace, preconditions)):
        for outcome in outcomes:
            outcome.failure = EntryFailed("conflict", "a precondition changed while the batch was planned; nothing was written")
        return
    for index, outcome in enumerate(outcomes):
        assert outcome.plan is not None
        if killed():
            outcome.failure = EntryFailed("rolled_back", _KILLED)
            _roll_back(workspace, outcomes, index)
            return
        try:
            _apply(workspace, outcome.plan)
            outcome.applied = True
        except EntryFailed as failure:
            outcome.failure = failure
            _roll_back(workspace, outcomes, index)
            return


def _apply(workspace: Workspace, plan: Plan) -> None:
    try:
        if plan.status == "created":
            assert plan.after is not None
            with workspace.locate(plan.request.path, make_parents=True) as where:
                plan.created_dirs = where.created_dirs
                plan.resolved = where.relative
                write_new(where.parent_fd, where.name, plan.after)
        elif plan.status == "deleted":
            with workspace.locate(plan.resolved, follow_last=False) as where:
                remove_if(where.parent_fd, where.name, plan.before_revision or "")
        else:
            assert plan.after is not None
            with workspace.locate(plan.resolved) as where:
                write_replacing(where.parent_fd, where.name, plan.after, plan.before_revision or "", plan.mode or 0o644)
    except SwapConflict:
        raise EntryFailed("conflict", f"{plan.resolved!r} changed while it was being written; nothing of it was replaced") from None
    except PathRefused as refusal:
        raise EntryFailed("refused", str(refusal)) from None
    except (PathMissing, NotAFile) as missing:
        raise EntryFailed("rejected", str(missing)) from None
    except OSError as error:
        raise EntryFailed("rejected", f"could not write {plan.resolved!r}: {error.strerror or error}") from None


def _roll_back(workspace: Workspace, outcomes: list[_Outcome], failed_index: int) -> None:
    """Restore, newest first, everything the batch wrote; then mark every other entry rolled_back."""
    culprit = outcomes[failed_index]
    assert culprit.failure is not None
    because = f"entry {failed_index + 1} ({culprit.request.path}) failed: {culprit.failure.status}"
    if culprit.failure.reason == _KILLED:
        because = "the run was killed"
    problems: dict[int, str] = {}
    was_applied = {index for index, outcome in enumerate(outcomes) if outcome.applied}
    for index in reversed(range(len(outcomes))):
        outcome = outcomes[index]
        if outcome.applied and outcome.plan is not None:
            try:
                restore(workspace, outcome.plan.resolved, outcome.plan.before, outcome.plan.after, outcome.plan.mode)
                remove_empty_dirs(workspace, outcome.plan.created_dirs)
            except (EntryFailed, OSError, SwapConflict, PathRefused, PathMissing) as error:
                problems[index] = f"could not be restored ({error}); check it by hand"
            outcome.applied = False
    for index, outcome in enumerate(outcomes):
        if index == failed_index:
            continue
        note = "restored byte for byte" if index in was_applied else "not applied"
        outcome.failure = EntryFailed("rolled_back", problems.get(index, f"{note}: the atomic batch stopped because {because}"))


def restore(workspace: Workspace, resolved: str, before: bytes | None, after: bytes | None, mode: int | None) -> None:
    """Put `before` back where `after` is now (None on either side: absent). Raises SwapConflict
    when the file is no longer `after`."""
    if before is None and after is None:
        return
    if before is None:
        with workspace.locate(resolved, follow_last=False) as where:
            remove_if(where.parent_fd, where.name, revision_of(after or b""))
    elif after is None:
        with workspace.locate(resolved, make_parents=True) as where:
            write_new(where.parent_fd, where.name, before, mode)
    else:
        with workspace.locate(resolved) as where:
            write_replacing(where.parent_fd, where.name, before, revision_of(after), mode or 0o644)


def remove_empty_dirs(workspace: Workspace, created_dirs: list[str]) -> None:
    for directory in reversed(created_dirs):
        try:
            with workspace.locate(directory, follow_last=False) as where:
                os.rmdir(where.name, dir_fd=where.parent_fd)
        except (OSError, PathRefused, PathMissing):
            return


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


def _journal_entries(plans: list[Plan]) -> list[JournalEntry]:
    """One entry per file: the earliest pre-image and the latest result, however many edits it took."""
    merged: dict[str, JournalEntry] = {}
    for plan in plans:
        first = merged.get(plan.resolved)
        merged[plan.resolved] = JournalEntry(
            plan.resolved,
            first.before if first else plan.before,
            first.mode if first else plan.mode,
            plan.after_revision,
            tuple(first.created_dirs if first else plan.created_dirs),
        )
    return list(merged.values())


def _report(workspace: Workspace, outcomes: list[_Outcome], atomic: bool, checked: list[dict[str, Any]], batch_id: str | None) -> dict[str, Any]:
    results = []
    for outcome in outcomes:
        entry: dict[str, Any] = {"path": workspace.scrub(outcome.request.path)}
        plan = outcome.plan
        if outcome.failure is not None:
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
        results.append(entry)
    report: dict[str, Any] = {"results": results, "atomic": atomic, "journal": batch_id}
    if checked:
        report["preconditions"] = checked
    return report
