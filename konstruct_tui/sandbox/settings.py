"""Which sandbox a project's commands run in: the user's setting, kept outside the project.

One JSON file, `config_dir()/sandbox.json` (mode 0600 in a 0700 folder), keyed by each project's
real root:

    {"version": 1, "projects": {"/real/root": {"mode": "read-only", "network": "allow",
                                               "unsandboxed": "refuse"}}}

Why not a file in the project: the agent edits project files, and a sandbox it could loosen by
writing `mode = "full"` into the repository would confine nothing. (A confined command cannot
write this file either: it is outside every folder a sandbox lets it write.)

A file that does not parse, or a project entry that is unusable, fails closed (issue 13): that
project's commands run `read-only` with the network blocked and are refused rather than run
unsandboxed, with a one-line warning naming the file and what to do (fix it, or `konstruct sandbox
set`/`clear`, which rewrite it). Never the defaults: a damaged file may have asked for less.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..trust import project_key
from ..userdirs import FileDamaged, JsonFile, config_dir, projects_table

MODES = ("read-only", "workspace-write", "full")
DEFAULT_MODE = "workspace-write"
VERSION = 1


class BadSetting(ValueError):
    """A mode or switch value that is not one of ours."""


class SandboxSettingsWarning(UserWarning):
    """The sandbox settings file was unreadable; the defaults apply."""


@dataclass(frozen=True)
class SandboxSettings:
    mode: str = DEFAULT_MODE
    allow_network: bool = False  # outbound TCP connect, where the kernel can refuse it (Landlock ABI >= 4)
    refuse_unsandboxed: bool = False  # on a kernel without Landlock: refuse to run instead of running unconfined
    source: str = "default"  # where these came from: "default" or the settings file

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise BadSetting(f"unknown sandbox mode {self.mode!r}; known: {', '.join(MODES)}")

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "network": "allow" if self.allow_network else "block",
                "unsandboxed": "refuse" if self.refuse_unsandboxed else "run"}

    @classmethod
    def from_json(cls, data: Any, source: str) -> SandboxSettings:
        if not isinstance(data, dict):
            raise BadSetting("a project entry is not an object")
        network, unsandboxed = data.get("network", "block"), data.get("unsandboxed", "run")
        if network not in ("allow", "block"):
            raise BadSetting(f"network must be allow or block, not {network!r}")
        if unsandboxed not in ("run", "refuse"):
            raise BadSetting(f"unsandboxed must be run or refuse, not {unsandboxed!r}")
        return cls(str(data.get("mode", DEFAULT_MODE)), network == "allow", unsandboxed == "refuse", source)


def damaged_settings(source: str) -> SandboxSettings:
    """What a project gets when its settings cannot be read: the strictest there is."""
    return SandboxSettings(mode="read-only", allow_network=False, refuse_unsandboxed=True, source=f"{source} (damaged)")


class SandboxConfig:
    """The settings file. Reads never fail (a damaged file fails closed, with a warning)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "sandbox.json"
        self.file = JsonFile(self.path, projects_table(VERSION))
        self.warnings: list[str] = []
        self._damaged = False

    def settings(self, root: str | os.PathLike[str]) -> SandboxSettings:
        self._damaged = False
        projects = self._load()
        if self._damaged:
            return damaged_settings(str(self.path))
        entry = projects.get(project_key(root))
        if entry is None:
            return SandboxSettings()
        try:
            return SandboxSettings.from_json(entry, str(self.path))
        except BadSetting as problem:
            self._warn(f"the sandbox setting for this project in {self.path} is unusable ({problem}); its commands run "
                       "read-only with no network until you fix it or run `konstruct sandbox set` or `clear`")
            return damaged_settings(str(self.path))

    def update(self, root: str | os.PathLike[str], *, mode: str | None = None, allow_network: bool | None = None,
               refuse_unsandboxed: bool | None = None) -> SandboxSettings:
        """Change some of the project's settings; the others keep their value. Raises BadSetting."""
        current = self.settings(root)
        if current.source.endswith("(damaged)"):  # the person rewrites it now: start from the defaults
            current = SandboxSettings()
        changed = replace(
            current,
            mode=current.mode if mode is None else mode,
            allow_network=current.allow_network if allow_network is None else allow_network,
            refuse_unsandboxed=current.refuse_unsandboxed if refuse_unsandboxed is None else refuse_unsandboxed,
            source=str(self.path),
        )
        with self.file.locked():  # read again under the lock: a concurrent change to another project is kept
            projects = self._load()
            projects[project_key(root)] = changed.to_json()
            self.file.write({"version": VERSION, "projects": projects})
        return changed

    def clear(self, root: str | os.PathLike[str]) -> None:
        with self.file.locked():
            projects = self._load()
            if projects.pop(project_key(root), None) is not None:
                self.file.write({"version": VERSION, "projects": projects})

    def _load(self) -> dict[str, Any]:
        try:
            data = self.file.read()
        except FileDamaged as problem:
            self._damaged = True
            self._warn(f"the sandbox settings file {self.path} is unreadable ({problem}); commands run read-only with "
                       "no network until you fix it or run `konstruct sandbox set` or `clear` (which rewrite it)")
            return {}
        return dict(data.get("projects", {}))

    def _warn(self, message: str) -> None:
        self.warnings.append(message)
        warnings.warn(message, SandboxSettingsWarning, stacklevel=3)
