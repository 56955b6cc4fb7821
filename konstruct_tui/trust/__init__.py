"""The trust layer: what the person allowed the agent to do, per machine and per project.

Public names: `TrustStore` (the `always` grants on disk), `TrustGrant` / `TrustRequest` /
`TrustDecision` (records), `TrustBroker` (the port that asks the person) with the headless
`GrantForRun` and `DenyAll`, `TrustSession` (one session's grants) and `is_granted`.
"""

from .broker import DenyAll, GrantForRun, TrustBroker, TrustSession, is_granted
from .grants import CAPABILITIES, SCOPES, BadGrant, TrustDecision, TrustGrant, TrustRequest, glob_matches
from .store import TrustStore, TrustStoreWarning, project_key

__all__ = [
    "CAPABILITIES",
    "SCOPES",
    "BadGrant",
    "DenyAll",
    "GrantForRun",
    "TrustBroker",
    "TrustDecision",
    "TrustGrant",
    "TrustRequest",
    "TrustSession",
    "TrustStore",
    "TrustStoreWarning",
    "glob_matches",
    "is_granted",
    "project_key",
]
