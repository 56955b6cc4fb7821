"""The trust layer: what the person allowed the agent to do, per machine and per project.

Public names: `TrustStore` (the `always` grants on disk), `TrustGrant` / `TrustRequest` /
`TrustDecision` / `CommandRule` (records; a `CommandCheck` judges a rule against a command, a `ChainCheck` a chain step by step), `TrustBroker` (the port that asks the person) with the headless
`GrantForRun` and `DenyAll`, `TrustSession` (one session's grants) and `is_granted`.
"""

from .broker import DenyAll, GrantForRun, TrustBroker, TrustSession, is_granted
from .grants import CAPABILITIES, SCOPES, BadGrant, ChainCheck, CommandCheck, CommandRule, TrustDecision, TrustGrant, TrustRequest, check_globs, exact_glob, glob_matches, normal_glob, workspace_path
from .store import TrustStore, TrustStoreWarning, project_key

__all__ = [
    "CAPABILITIES",
    "SCOPES",
    "BadGrant",
    "ChainCheck",
    "CommandCheck",
    "CommandRule",
    "DenyAll",
    "GrantForRun",
    "TrustBroker",
    "TrustDecision",
    "TrustGrant",
    "TrustRequest",
    "TrustSession",
    "TrustStore",
    "TrustStoreWarning",
    "check_globs",
    "exact_glob",
    "glob_matches",
    "normal_glob",
    "is_granted",
    "project_key",
    "workspace_path",
]
