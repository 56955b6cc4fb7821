"""The workspace layer: the only code that touches project files.

Public names: `Workspace` (rooted handle), `revision_of`, `read_batch` / `ReadRequest`,
`apply_edits` / `EditRequest`, `EditRun`, `WriteJournal`, `undo_last` / `UndoRefused` / `JournalUnusable`, `recover_interrupted`, `list_files`, and the
path errors `PathRefused` / `PathMissing` / `NotAFile`.

The names load on first use (PEP 562): the index's warm start needs `workspace.listing` alone, and
importing this package used to pull in every edit and journal module (80 ms) before a file was seen.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_HOMES = {
    "shown": "odd_names",
    "on_disk": "odd_names",
    "FileState": "snapshot",
    "TreeSnapshot": "snapshot",
    "changes_between": "snapshot",
    "normalise": "snapshot",
    "take_snapshot": "snapshot",
    "preview_edits": "editing",
    "SKIPPED_DIRS": "listing",
    "run_git": "listing",
    "git_argv": "safe_git",
    "config_entries": "safe_git",
    "files_key": "safe_git",
    "names_program": "safe_git",
    "git_environment": "safe_git",
    "run_unstalled": "unstall",
    "is_outside": "outside_programs",
    "program_outside": "outside_programs",
    "stat_files": "listing",
    "unreadable_folders": "listing",
    "apply_edits": "batch",
    "PathMissing": "containment",
    "PathRefused": "containment",
    "EditRequest": "editing",
    "EditRun": "guards",
    "FileSnapshot": "handle",
    "NotAFile": "handle",
    "Workspace": "handle",
    "WriteJournal": "journal",
    "list_files": "listing",
    "DEFAULT_MAX_BYTES": "reading",
    "ReadRequest": "reading",
    "read_batch": "reading",
    "is_revision": "revision",
    "revision_of": "revision",
    "UndoRefused": "undo",
    "JournalUnusable": "undo",
    "JournalDamaged": "manifest",
    "JournalUnwritable": "intent",
    "Recovered": "recovery",
    "recover_interrupted": "recovery",
    "undo_last": "undo",
    "drop_batch": "undo",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # the next lookup is a plain dict hit
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


if TYPE_CHECKING:
    from .snapshot import FileState, TreeSnapshot, changes_between, normalise, take_snapshot
    from .editing import EditRequest, preview_edits
    from .listing import SKIPPED_DIRS, run_git, stat_files, unreadable_folders
    from .batch import apply_edits
    from .containment import PathMissing, PathRefused
    from .guards import EditRun
    from .handle import FileSnapshot, NotAFile, Workspace
    from .journal import WriteJournal
    from .listing import list_files
    from .reading import DEFAULT_MAX_BYTES, ReadRequest, read_batch
    from .revision import is_revision, revision_of
    from .undo import JournalUnusable, UndoRefused, drop_batch, undo_last
    from .manifest import JournalDamaged
    from .intent import JournalUnwritable
    from .recovery import Recovered, recover_interrupted
    from .safe_git import config_entries, files_key, git_argv, git_environment, names_program
    from .unstall import run_unstalled
    from .odd_names import on_disk, shown
    from .outside_programs import is_outside, program_outside
