"""The trust store: `always` grants, per machine, keyed by each project's real root.

One JSON file, `config_dir()/trust.json`, mode 0600 in a 0700 folder:

    {"version": 1, "projects": {"/real/root": {"grants": [{"capability": "edit", "scope": "always",
                                                            "paths": ["src/**"], "granted_at": "..."}],
                                               "policy": {"presets": ["python"], "allow": [], "chains": false}}}}

`policy` is the user's command policy for the project (allowlist presets and prefixes, chains); it
lives here rather than in the project so that the agent cannot loosen it by editing a file.

The file is a `userdirs.JsonFile`: every change a read-modify-write under an exclusive lock,
written atomically, so two processes granting at once both land and a reader never sees half a
file. A file that does not parse (or has the wrong shape) is moved aside as
`trust.json.corrupt-<UTC time>` with a warning, and means no grants: trust is never guessed from a
damaged file.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..userdirs import FileDamaged, JsonFile, config_dir, projects_table
from .grants import SESSION_ONLY, BadGrant, TrustGrant, check_capability, check_globs, now_utc

VERSION = 1


class TrustStoreWarning(UserWarning):
    """The trust file was unreadable and was moved aside."""


def project_key(root: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(root))


class TrustStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "trust.json"
        self.file = JsonFile(self.path, projects_table(VERSION, _check_project))
        self.warnings: list[str] = []

    # -- reading --------------------------------------------------------------------------------

    def grants(self, root: str | os.PathLike[str]) -> list[TrustGrant]:
        """The `always` grants for the project at `root`."""
        project = self._load().get(project_key(root), {})
        grants = [TrustGrant.from_json(g) for g in project.get("grants", [])]
        return [g for g in grants if g.capability not in SESSION_ONLY]  # a hand-written one counts for nothing

    def projects(self) -> dict[str, list[TrustGrant]]:
        return {key: [TrustGrant.from_json(g) for g in value.get("grants", [])] for key, value in self._load().items()}

    # -- changing -------------------------------------------------------------------------------

    def grant(self, root: str | os.PathLike[str], capability: str, paths: tuple[str, ...] = ()) -> TrustGrant:
        """Remember an `always` grant. Granting what is already granted changes nothing."""
        check_globs(paths, check_capability(capability))
        if capability in SESSION_ONLY:
            raise BadGrant(f"{capability} is asked every session and cannot be granted always")
        new = TrustGrant(capability, "always", tuple(paths), now_utc())
        key = project_key(root)

        def add(projects: dict[str, Any]) -> None:
            grants = projects.setdefault(key, {}).setdefault("grants", [])
            if not any(g["capability"] == capability and tuple(g.get("paths", [])) == new.paths for g in grants):
                grants.append(new.to_json())

        self._update(add)
        return new

    def revoke(self, root: str | os.PathLike[str], capability: str | None = None,
               paths: tuple[str, ...] | None = None) -> list[TrustGrant]:
        """Forget grants for the project: all of them, one capability's, or one edit grant's globs."""
        if capability is not None:
            check_capability(capability)
        key = project_key(root)
        removed: list[TrustGrant] = []

        def drop(projects: dict[str, Any]) -> None:
            project = projects.get(key)
            if not project:
                return
            kept: list[Any] = []
            for g in project.get("grants", []):
                grant = TrustGrant.from_json(g)
                hit = (capability is None or grant.capability == capability) and (paths is None or grant.paths == paths)
                (removed if hit else kept).append(grant if hit else g)
            project["grants"] = kept
            if not kept and not project.get("policy"):
                projects.pop(key)

        self._update(drop)
        return removed

    # -- command settings -----------------------------------------------------------------------

    def command_settings(self, root: str | os.PathLike[str]) -> dict[str, Any] | None:
        """The user's command policy for the project (`presets`, `allow`, `chains`), or None.
        Kept here, outside the project, so the agent cannot loosen it by editing a file."""
        settings = self._load().get(project_key(root), {}).get("policy")
        return dict(settings) if settings else None

    def set_command_settings(self, root: str | os.PathLike[str], presets: tuple[str, ...] = (),
                             allow: tuple[str, ...] = (), chains: bool = False) -> dict[str, Any] | None:
        """Replace the project's command policy; all empty and no chains clears it."""
        settings = {"presets": list(presets), "allow": list(allow), "chains": bool(chains)}
        key = project_key(root)
        empty = not (presets or allow or chains)

        def put(projects: dict[str, Any]) -> None:
            project = projects.setdefault(key, {})
            if empty:
                project.pop("policy", None)
                if not project.get("grants"):
                    projects.pop(key)
            else:
                project["policy"] = settings

        self._update(put)
        return None if empty else settings

    # -- the file -------------------------------------------------------------------------------

    def _update(self, change: Callable[[dict[str, Any]], None]) -> None:
        def in_projects(data: dict[str, Any]) -> None:
            data["version"] = VERSION
            change(data.setdefault("projects", {}))

        self.file.update(in_projects, self._damaged)

    def _load(self) -> dict[str, Any]:
        try:
            return dict(self.file.read().get("projects", {}))
        except FileDamaged:
            with self.file.locked():  # decide about the damage under the lock: one mover only
                try:
                    return dict(self.file.read().get("projects", {}))
                except FileDamaged as damage:
                    return self._damaged(damage)

    def _damaged(self, damage: FileDamaged) -> dict[str, Any]:
        """Under the lock: move the damaged file aside, warn, and start from no grants."""
        aside = self.file.move_aside()
        message = f"the trust store {self.path} was unreadable ({damage}); moved it to {aside.name}: no grants are in force"
        self.warnings.append(message)
        warnings.warn(message, TrustStoreWarning, stacklevel=4)
        return {}


def _check_project(key: str, project: Any) -> None:
    """One project's entry of a trust file. Raises ValueError (BadGrant is one)."""
    if not isinstance(project, dict) or not isinstance(project.get("grants", []), list):
        raise ValueError(f"project {key!r} has no grants list")
    for grant in project.get("grants", []):
        TrustGrant.from_json(grant)
    _check_settings(key, project.get("policy"))


def _check_settings(key: str, settings: Any) -> None:
    if settings is None:
        return
    if not isinstance(settings, dict) or not isinstance(settings.get("chains", False), bool) or not all(
        isinstance(settings.get(name, []), list) and all(isinstance(v, str) for v in settings.get(name, []))
        for name in ("presets", "allow")
    ):
        raise ValueError(f"project {key!r} has a malformed command policy")
