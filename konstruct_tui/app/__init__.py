"""The application layer: what the workbench does for the person, in plain Python (no Textual).

The UI (ui/) draws and forwards; the decisions live here so they can be tested without a screen:
slash commands, @file mentions, the session's diff, local model servers and the saved model choice.
"""

from .mentions import Attachment, attach_mentions, fuzzy_files, mention_at, project_files
from .model_servers import LocalServer, ModelChoice, detect_local_servers, key_source, save_model_choice
from .session_diff import session_diff
from .slash_commands import COMMANDS, SlashCommand, SlashInput, complete_command, parse_slash

__all__ = [
    "COMMANDS",
    "Attachment",
    "LocalServer",
    "ModelChoice",
    "SlashCommand",
    "SlashInput",
    "attach_mentions",
    "complete_command",
    "detect_local_servers",
    "fuzzy_files",
    "key_source",
    "mention_at",
    "parse_slash",
    "project_files",
    "save_model_choice",
    "session_diff",
]
