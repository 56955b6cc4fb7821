"""Trust records: what the user granted, what the agent asks for, what the user answered.

Capabilities: `edit` (change project files, optionally only those matching path globs), `scripts`
(run the project's own scripts), `commands` (run an arbitrary command line the policy allows).
`commands` is the wider capability, so a `commands` grant also covers `scripts`. `full_access` (run
commands unconfined, in a project whose sandbox mode is `full`) is granted per session at most.

Scopes: `once` (one use), `session` (this session or headless run), `always` (this project on this
machine, kept in the trust store until revoked). Only `always` grants are written to disk.

How wide: an `edit` grant may name path globs (a file as itself, `src/**`; none: the whole project).
A `commands` grant may carry a `CommandRule`: one exact command line (`exact`), an argv rule of the
shape `--allow` takes (`prefix`: `pytest` admits `pytest -q tests/x`, never `pytestx` or an unsafe
option), or one exact chain (`chain`: `make && make test`, the same steps joined the same way, and
nothing else). What an argv is and which options are unsafe is the command layer's: the trust layer only
keeps the rule and asks the caller's `CommandCheck` whether it admits the command at hand. A chain
the user's policy lets ask is judged as a `ChainCheck`: an exact chain grant covers it whole, or
else every step that needs a grant must be covered on its own (by a rule, an exact command, or a
grant for every command), each by whichever grant admits it (see `grants_cover`). A rule
widens nothing the policy refuses: the policy (and its hard deny list) answers before any grant.
A `commands` grant without a rule is every command the policy lets ask (what older stores hold).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

CAPABILITIES = ("edit", "scripts", "commands", "full_access")
SCOPES = ("once", "session", "always")
# `full_access`: run commands without the sandbox (a project whose sandbox mode is `full`). It is
# asked every session: never stored, an `always` answer lasts the session (see TrustSession.record).
SESSION_ONLY = frozenset({"full_access"})
COMMAND_MATCHES = ("exact", "prefix", "chain")
# How chain steps are joined (the command layer's chain.py; a newline is kept as `;`, which it means).
CHAIN_CONNECTORS = ("&&", "||", ";")


class BadGrant(ValueError):
    """A capability, scope or path glob that is not one of ours."""


def check_capability(capability: str) -> str:
    if capability not in CAPABILITIES:
        raise BadGrant(f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}")
    return capability


def check_scope(scope: str) -> str:
    if scope not in SCOPES:
        raise BadGrant(f"unknown scope {scope!r}; known: {', '.join(SCOPES)}")
    return scope


def check_globs(paths: tuple[str, ...], capability: str) -> tuple[str, ...]:
    if paths and capability != "edit":
        raise BadGrant("path globs scope only the edit capability")
    for glob in paths:
        if not glob or glob.startswith("/") or "\0" in glob or ".." in glob.split("/"):
            raise BadGrant(f"path glob {glob!r} must be workspace-relative (no leading /, no ..)")
    return paths


@lru_cache(maxsize=256)
def _glob_regex(glob: str) -> re.Pattern[str]:
    # A glob covers what is inside a folder it names only when it names one: `docs`, `docs/`,
    # `src/**`. A last component with a wildcard (`*.md`, `test_?.py`) matches a file, never a folder
    # on the way: `*.md` must not cover `notes.md/test_x.py`. A backslash makes the next character
    # plain (`\*` is a star in a file name): see `exact_glob`.
    glob = normal_glob(glob)
    last = re.sub(r"\\.", "", glob.rstrip("/").rsplit("/", 1)[-1])
    names_folder = glob.endswith("/") or not any(c in last for c in "*?")
    glob = glob.rstrip("/")
    out, i = [], 0
    while i < len(glob):
        if glob[i] == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 2
        elif glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out) + ("(?:/.*)?" if names_folder else ""), re.DOTALL)


def normal_glob(glob: str) -> str:
    """A glob as it is matched, spelled once: `./src//x/` is `src/x/` (a person's `./` or doubled
    slash must not make a grant that silently never matches)."""
    glob = re.sub(r"/{2,}", "/", glob)
    while glob.startswith("./"):
        glob = glob[2:]
    glob = re.sub(r"(^|/)\.(?=/)", r"\1", glob).replace("//", "/")
    return glob


def exact_glob(path: str) -> str:
    """A glob that matches `path` itself (and, for a folder, what is inside it), never other names:
    the paths an agent's request names are paths, not patterns (a file named `**` must not become a
    grant over the whole project)."""
    return re.sub(r"([*?\\])", r"\\\1", path)


def glob_matches(glob: str, path: str) -> bool:
    """`src/**` matches `src/a/b.py`; `*.md` matches `README.md` only at the top (and never a folder
    on the way); `docs` covers `docs/x`. `path` must already be resolved (see `workspace_path`).
    The whole path must match (`$` would also accept a path one newline longer)."""
    return bool(_glob_regex(glob).fullmatch(path.removeprefix("./")))


def workspace_path(root: str | os.PathLike[str], path: str) -> str | None:
    """`path` as the workspace resolves it: `..` applied and symlinks inside followed, relative to the
    real root. None when it is absolute, holds a NUL, or resolves outside the root: no path-scoped
    grant covers such a path (`src/../x` is `x`; a link in src/ to ../secrets is outside)."""
    if not path or "\0" in path or os.path.isabs(path):
        return None
    real_root = os.path.realpath(os.fspath(root))
    target = os.path.realpath(os.path.join(real_root, path))
    if target == real_root or not target.startswith(real_root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(target, real_root).replace(os.sep, "/")


@dataclass(frozen=True)
class CommandRule:
    """Which command lines a `commands` grant covers: `exact` this argv and nothing else; `prefix`
    commands whose argv starts with these words (the command layer also refuses unsafe options);
    `chain` these `steps` (each a connector, None for the first, and an argv), joined so, and no other."""

    match: str
    argv: tuple[str, ...] = ()
    steps: tuple[tuple[str | None, tuple[str, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.match not in COMMAND_MATCHES:
            raise BadGrant(f"unknown command match {self.match!r}; known: {', '.join(COMMAND_MATCHES)}")
        if self.match == "chain":
            if self.argv or not self.steps:
                raise BadGrant("a chain rule names its steps, not one argv")
            for k, (connector, argv) in enumerate(self.steps):
                if (connector is None) != (k == 0) or (connector is not None and connector not in CHAIN_CONNECTORS):
                    raise BadGrant(f"a chain rule's step {k + 1} is joined by {connector!r}; known: {', '.join(CHAIN_CONNECTORS)}")
                _check_words(argv)
            return
        if self.steps:
            raise BadGrant("only a chain rule names steps")
        _check_words(self.argv)

    def text(self) -> str:
        """As a person reads it: `pytest -q tests/x`, `pytest …` for a prefix rule, `make && make test`."""
        if self.match == "chain":
            return "".join((f" {connector} " if connector else "") + shlex.join(argv) for connector, argv in self.steps)
        return shlex.join(self.argv) + (" …" if self.match == "prefix" else "")

    def to_json(self) -> dict[str, Any]:
        if self.match == "chain":
            return {"match": self.match, "steps": [{"connector": c, "argv": list(a)} for c, a in self.steps], "text": self.text()}
        return {"match": self.match, "argv": list(self.argv), "text": self.text()}

    @classmethod
    def from_json(cls, data: Any) -> CommandRule:
        if isinstance(data, dict) and data.get("match") == "chain":
            steps = data.get("steps")
            if not isinstance(steps, list) or not all(isinstance(s, dict) and isinstance(s.get("argv"), list) for s in steps):
                raise BadGrant("a grant's chain rule is not an object with a list of steps")
            return cls("chain", (), tuple((s.get("connector"), tuple(s["argv"])) for s in steps))
        if not isinstance(data, dict) or not isinstance(data.get("argv"), list):
            raise BadGrant("a grant's command rule is not an object with an argv list")
        return cls(str(data.get("match")), tuple(data["argv"]))


def _check_words(argv: tuple[str, ...]) -> None:
    if not argv or not all(isinstance(w, str) and w and "\0" not in w for w in argv):
        raise BadGrant("a command rule names at least one non-empty word")


# Asked of a command grant's rule: does it admit the command being run? (The command layer answers.)
CommandCheck = Callable[[CommandRule], bool]


@dataclass(frozen=True)
class ChainCheck:
    """A chain as the grants judge it: `whole` answers for a chain rule (this exact chain); `parts`
    holds, for each step that needs a grant, the capability it needs alone and its own check.
    A step the policy allows without a grant is not in `parts`."""

    whole: CommandCheck
    parts: tuple[tuple[str, CommandCheck], ...]


def grants_cover(grants: list[TrustGrant], capability: str, path: str | None = None,
                 command: CommandCheck | ChainCheck | None = None) -> bool:
    """Whether `grants` together cover the call. A chain is covered by one grant for it whole (a
    grant for every command, or this exact chain) or else step by step, each step that needs a
    grant by some grant that admits that step alone; a chain with no such step is covered by
    nothing narrower than a grant for it whole (a chain asks only when a step needs a grant)."""
    if isinstance(command, ChainCheck):
        if any(g.covers(capability, path, command.whole) for g in grants):
            return True
        return bool(command.parts) and all(any(g.covers(need, None, check) for g in grants) for need, check in command.parts)
    return any(g.covers(capability, path, command) for g in grants)


def now_utc() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class TrustGrant:
    capability: str
    scope: str
    paths: tuple[str, ...] = ()  # edit only; empty means the whole project
    granted_at: str = ""
    command: CommandRule | None = None  # commands only; None means every command the policy lets ask

    def covers(self, capability: str, path: str | None = None, command: CommandCheck | None = None) -> bool:
        if self.command is not None:  # one command or one rule: never scripts, never another capability
            return capability == self.capability == "commands" and command is not None and command(self.command)
        if self.capability != capability and not (self.capability == "commands" and capability == "scripts"):
            return False
        if capability != "edit" or not self.paths:
            return True
        return path is not None and any(glob_matches(glob, path) for glob in self.paths)

    def describe(self) -> str:
        """What the grant allows, in one line a person reads (`trust list`, the prompt)."""
        if self.command is not None:
            return {"exact": "the command ", "chain": "the chain "}.get(self.command.match, "commands ") + self.command.text()
        if self.capability == "edit":
            return f"edits to {', '.join(self.paths)}" if self.paths else "edits anywhere in the project"
        return {"commands": "every command the policy lets ask", "scripts": "the project's scripts",
                "full_access": "commands without the sandbox"}[self.capability]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"capability": self.capability, "scope": self.scope, "paths": list(self.paths),
                               "granted_at": self.granted_at}
        if self.command is not None:
            out["command"] = self.command.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any) -> TrustGrant:
        """Raises BadGrant for anything that is not a well-formed grant."""
        if not isinstance(data, dict):
            raise BadGrant("a grant is not an object")
        paths = data.get("paths", [])
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise BadGrant("a grant's paths are not a list of strings")
        capability = check_capability(str(data.get("capability")))
        granted_at = data.get("granted_at", "")
        command = CommandRule.from_json(data["command"]) if data.get("command") is not None else None
        if command is not None and capability != "commands":
            raise BadGrant("a command rule scopes only the commands capability")
        return cls(capability, check_scope(str(data.get("scope"))), check_globs(tuple(paths), capability),
                   granted_at if isinstance(granted_at, str) else "", command)


@dataclass(frozen=True)
class TrustRequest:
    """What the agent asks for. `detail` is shown to the person: the command line, the script, the files."""

    capability: str
    detail: str
    paths: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"capability": self.capability, "detail": self.detail, "paths": list(self.paths)}


@dataclass(frozen=True)
class TrustDecision:
    """The person's answer. A granted `edit` may narrow the paths to globs (empty: the whole project);
    a granted `commands` may narrow to a command rule, or to `rules` (one per step of a chain, each
    kept as its own grant). A denial may carry the person's message, which the agent receives as
    the call's result."""

    granted: bool
    scope: str | None = None
    paths: tuple[str, ...] = ()
    command: CommandRule | None = None
    message: str = ""
    rules: tuple[CommandRule, ...] = ()

    @classmethod
    def deny(cls, message: str = "") -> TrustDecision:
        return cls(False, message=message)
