"""Folders the index could not see: the listing had no permission to read them (see
`workspace.listing.unreadable_folders`), so their files are missing from the index and from every
structural answer, which used to go on as `ok` without a word. Each graph answer now carries them
as `unreadable`, beside `stale` and `ahead_of_index`, and an empty answer says what it may miss.
"""

from __future__ import annotations

from typing import Any

from ..workspace import Workspace, unreadable_folders

_SHOWN = 5


def mark_unreadable(payload: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """`payload` with `unreadable` (and, when it found nothing, a reason naming them) when the
    latest listing of the workspace met folders it could not read. Changes nothing otherwise."""
    folders = unreadable_folders(workspace.root)
    if not folders:
        return payload
    payload["unreadable"] = list(folders)
    if payload.get("status") == "no_references" or payload.get("results") == []:
        named = ", ".join(folders[:_SHOWN]) + (f" and {len(folders) - _SHOWN} more" if len(folders) > _SHOWN else "")
        note = (f"{len(folders)} folder(s) could not be read ({named}): files there are not indexed, "
                f"so a reference from them would not show here")
        payload["reason"] = f"{payload['reason']}; {note}" if payload.get("reason") else note
    return payload
