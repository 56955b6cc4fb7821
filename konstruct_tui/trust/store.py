"""The trust store: `always` grants, per machine, keyed by each project's real root.

One JSON file, `config_dir()/trust.json`, mode 0600 in a 0700 folder:

    {"version": 2, "projects": {"/real/root": {"grants": [{"capability": "edit", "scope": "always",
                                                            "paths": ["src/**"], "granted_at": "..."},
                                                           {"capability": "commands", "scope": "always", "paths": [],
                                                            "command": {"match": "prefix", "argv": ["pytest"]}, ...}],
                                               "policy": {"presets": ["python"], "allow": [], "chains": false}}}}

`policy` is the user's command policy for the project (allowlist presets and prefixes, chains); it
lives here rather than in the project so that the agent cannot loosen it by editing a file.

The file is a `userdirs.JsonFile`: every change a read-modify-write under an exclusive lock,
written atomically, so two processes granting at once both land and a reader never sees half a file. A file that does not parse (or has the wrong shape)
is moved aside as `trust.json.corrupt-<UTC time>` with a warning, and fails closed: no grants, and
because the damaged file may have held an allowlist, every project's command policy is *locked*
(allowlist mode on, nothing allowed) until the person repairs the file (moves it back) or runs
`konstruct trust reset`, or sets that project's policy again. The new file records this:

    {"version": 1, "projects": {}, "damaged": {"moved_to": "trust.json.corrupt-...", "at": "..."}}
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..userdirs import FileDamaged, JsonFile, config_dir
from .grants import SESSION_ONLY, BadGrant, CommandRule, TrustGrant, check_capability, check_globs, now_utc

# Version 2 added command rules to `commands` grants ("command": {"match", "argv"}). A version 1 file
# loads as it is (its `commands` grants cover every command, as they always did). A file is written as
# version 2 only while it holds a command rule: a build that knows only version 1 then refuses the
# file (fails closed) rather than reading a narrow grant as one for every command.
# Version 3 added chain rules (`"match": "chain"` with its steps), written only while one is held,
# for the same reason: a version 2 build refuses the file rather than misreading a chain grant.
VERSION = 1
RULES_VERSION = 2
CHAINS_VERSION = 3
READABLE_VERSIONS = (VERSION, RULES_VERSION, CHAINS_VERSION)
# The command policy of every project while the store is damaged: allowlist mode, nothing allowed.
LOCKED_POLICY = {"presets": [], "allow": [], "chains": False, "locked": True}


class TrustStoreWarning(UserWarning):
    """The trust file was unreadable and was moved aside."""


def project_key(root: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(root))


class TrustStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "trust.json"
        self.file = JsonFile(self.path, _parse)
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

    def grant(self, root: str | os.PathLike[str], capability: str, paths: tuple[str, ...] = (),
              command: CommandRule | None = None) -> TrustGrant:
        """Remember an `always` grant. Granting what is already granted changes nothing."""
        check_globs(paths, check_capability(capability))
        if capability in SESSION_ONLY:
            raise BadGrant(f"{capability} is asked every session and cannot be granted always")
        if command is not None and capability != "commands":
            raise BadGrant("a command rule scopes only the commands capability")
        new = TrustGrant(capability, "always", tuple(paths), now_utc(), command)
        key = project_key(root)

        def same(stored: dict[str, Any]) -> bool:
            old = TrustGrant.from_json(stored)
            return (old.capability, old.paths, old.command) == (new.capability, new.paths, new.command)

        def add(projects: dict[str, Any]) -> None:
            grants = projects.setdefault(key, {}).setdefault("grants", [])
            if not any(same(g) for g in grants):
                grants.append(new.to_json())

        self._update(add)
        return new

    def revoke(self, root: str | os.PathLike[str], capability: str | None = None,
               paths: tuple[str, ...] | None = None, command: CommandRule | None = None) -> list[TrustGrant]:
        """Forget grants for the project: all of them, one capability's, one edit grant's globs, or
        one command rule."""
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
                hit = ((capability is None or grant.capability == capability) and (paths is None or grant.paths == paths)
                       and (command is None or grant.command == command))
                (removed if hit else kept).append(grant if hit else g)
            project["grants"] = kept
            if not kept and not project.get("policy"):
                projects.pop(key)

        self._update(drop)
        return removed

    # -- command settings -----------------------------------------------------------------------

    def command_settings(self, root: str | os.PathLike[str]) -> dict[str, Any] | None:
        """The user's command policy for the project (`presets`, `allow`, `chains`), or None.
        Kept here, outside the project, so the agent cannot loosen it by editing a file. While the
        store is damaged (see the module docstring) a project without a policy set since gets
        LOCKED_POLICY: whatever allowlist the damaged file held, nothing runs that it did not allow."""
        settings = self._load().get(project_key(root), {}).get("policy")
        if settings:
            return dict(settings)
        damage = self.damage()
        if damage is not None:
            self._note(f"the trust store {self.path} was damaged (moved to {damage.get('moved_to')}): allowlist "
                       "mode is on with nothing allowed until you move the repaired file back or run `konstruct trust reset`")
            return dict(LOCKED_POLICY)
        return None

    def damage(self) -> dict[str, Any] | None:
        """The record of a damaged store this file replaced, or None."""
        data = self._read()
        found = data.get("damaged") if isinstance(data, dict) else None
        return found if isinstance(found, dict) else None

    def reset(self) -> bool:
        """Lift the lock a damaged store left (the person's decision). True when there was one."""
        lifted = []

        def lift(data: dict[str, Any]) -> None:
            lifted.append(data.pop("damaged", None) is not None)

        self._update(lift, whole=True)
        return bool(lifted and lifted[0])

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

    def _update(self, change: Callable[[dict[str, Any]], None], whole: bool = False) -> None:
        """Change the projects table (or, `whole`, the whole file) under the lock; a damage record
        is carried over unless the change removes it."""
        with self.file.locked():
            data = self._read(locked=True)
            data.setdefault("projects", {})
            change(data if whole else data["projects"])
            held = _holds_rules(data)
            data["version"] = CHAINS_VERSION if held == "chain" else RULES_VERSION if held == "rule" else VERSION
            self.file.write(data)

    def _load(self, locked: bool = False) -> dict[str, Any]:
        return dict(self._read(locked).get("projects", {}))

    def _read(self, locked: bool = False) -> dict[str, Any]:
        """The whole file, validated ({} when there is none). A damaged one is moved aside."""
        try:
            return self.file.read()
        except FileDamaged as problem:
            if not locked:
                with self.file.locked():  # decide about the damage under the lock: one mover only
                    return self._read(locked=True)
            return self._move_aside(str(problem))

    def _move_aside(self, problem: str) -> dict[str, Any]:
        aside = self.file.move_aside()
        data = {"version": VERSION, "projects": {}, "damaged": {"moved_to": aside.name, "at": now_utc()}}
        self.file.write(data)  # the lock outlives this process: a later run must not fail open
        self._note(f"the trust store {self.path} was unreadable ({problem}); moved it to {aside.name}: no grants "
                   "are in force and allowlist mode is on with nothing allowed until you move the repaired file "
                   "back or run `konstruct trust reset`", stacklevel=5)
        return data

    def _note(self, message: str, stacklevel: int = 4) -> None:
        if message in self.warnings:
            return  # once per store object
        self.warnings.append(message)
        warnings.warn(message, TrustStoreWarning, stacklevel=stacklevel)


def _parse(data: Any) -> dict[str, Any]:
    """A trust file, validated. Raises ValueError (BadGrant is one)."""
    if not isinstance(data, dict) or not isinstance(data.get("projects"), dict):
        raise ValueError("it is not a trust file (no projects table)")
    if data.get("version", VERSION) not in READABLE_VERSIONS:
        raise ValueError(f"unknown version {data.get('version')!r}")
    for key, project in data["projects"].items():
        if not isinstance(project, dict) or not isinstance(project.get("grants", []), list):
            raise ValueError(f"project {key!r} has no grants list")
        for grant in project.get("grants", []):
            TrustGrant.from_json(grant)
        _check_settings(key, project.get("policy"))
    if "damaged" in data and not isinstance(data["damaged"], dict):
        raise ValueError("its damage record is not an object")
    return data


def _holds_rules(data: dict[str, Any]) -> str | None:
    """"chain" when the file holds a chain rule, "rule" when it holds other command rules only."""
    commands = [g["command"] for project in data.get("projects", {}).values() for g in project.get("grants", [])
                if g.get("command") is not None]
    if any(c.get("match") == "chain" for c in commands):
        return "chain"
    return "rule" if commands else None


def _check_settings(key: str, settings: Any) -> None:
    if settings is None:
        return
    if not isinstance(settings, dict) or not isinstance(settings.get("chains", False), bool) or not all(
        isinstance(settings.get(name, []), list) and all(isinstance(v, str) for v in settings.get(name, []))
        for name in ("presets", "allow")
    ):
        raise ValueError(f"project {key!r} has a malformed command policy")
