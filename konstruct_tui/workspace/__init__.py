"""The workspace layer: the only code that touches project files.

Public names: `Workspace` (rooted handle), `revision_of`, `read_batch` / `ReadRequest`,
`apply_edits` / `EditRequest` / `preview_edits`, `EditRun`, `WriteJournal`, `undo_last` / `UndoRefused`, and the
path errors `PathRefused` / `PathMissing` / `NotAFile`.
"""

from .batch import apply_edits
from .containment import PathMissing, PathRefused
from .editing import EditPreview, EditRequest, preview_edits
from .guards import EditRun
from .handle import FileSnapshot, NotAFile, Workspace
from .journal import WriteJournal
from .listing import SKIPPED_DIRS
from .reading import DEFAULT_MAX_BYTES, ReadRequest, read_batch
from .revision import is_revision, revision_of
from .safe_git import run_git
from .undo import UndoRefused, undo_last

__all__ = [
    "DEFAULT_MAX_BYTES",
    "SKIPPED_DIRS",
    "EditPreview",
    "EditRequest",
    "EditRun",
    "FileSnapshot",
    "NotAFile",
    "PathMissing",
    "PathRefused",
    "ReadRequest",
    "UndoRefused",
    "Workspace",
    "WriteJournal",
    "apply_edits",
    "is_revision",
    "preview_edits",
    "read_batch",
    "revision_of",
    "run_git",
    "undo_last",
]
