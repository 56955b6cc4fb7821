"""The application layer: what the workbench does for the person, in plain Python (no Textual).

The UI (ui/) draws and forwards; the decisions live here so they can be tested without a screen:
slash commands (`parse_slash`, `complete_command`, `help_lines`), @file mentions (`attach_mentions`,
`project_files`, `fuzzy_files`, `mention_at`), the session's diff (`session_diff`), `/undo`
(`undo_last_batch`), `/cost` (`CostLedger`), `/compact` (`compact_session`), and the model picker's
plain half (`detect_local_servers`, `key_source`, `save_model_choice`, `settings_for`).
"""

from .mentions import Attachment, attach_mentions, fuzzy_files, mention_at, project_files
from .model_servers import (
    REMOTE_CHOICES,
    USUAL_PORTS,
    LocalServer,
    ModelChoice,
    detect_local_servers,
    key_source,
    save_model_choice,
    settings_for,
)
from .session_commands import CompactionUnavailable, CostLedger, compact_session, undo_last_batch
from .session_diff import session_diff
from .slash_commands import COMMANDS, SlashCommand, SlashInput, complete_command, help_lines, literal_request, parse_slash

__all__ = [
    "COMMANDS",
    "REMOTE_CHOICES",
    "USUAL_PORTS",
    "Attachment",
    "CompactionUnavailable",
    "CostLedger",
    "LocalServer",
    "ModelChoice",
    "SlashCommand",
    "SlashInput",
    "attach_mentions",
    "compact_session",
    "complete_command",
    "detect_local_servers",
    "fuzzy_files",
    "help_lines",
    "key_source",
    "literal_request",
    "mention_at",
    "parse_slash",
    "project_files",
    "save_model_choice",
    "session_diff",
    "settings_for",
    "undo_last_batch",
]
