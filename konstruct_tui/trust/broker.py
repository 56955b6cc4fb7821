"""Asking for trust and deciding whether it is there.

`TrustBroker` is the port the agent loop and the UI use to ask the person: the UI implements it with
a modal; headless runs use `GrantForRun` (`--yes`: granted for this run only, never remembered) or
`DenyAll`. `TrustSession` holds one session's grants: the store's `always` grants, this session's
`session` grants, and `once` grants, each consumed by one use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .grants import (
    SESSION_ONLY,
    ChainCheck,
    CommandCheck,
    TrustDecision,
    TrustGrant,
    TrustRequest,
    check_capability,
    check_globs,
    exact_glob,
    check_scope,
    grants_cover,
    now_utc,
    workspace_path,
)
from .store import TrustStore


@runtime_checkable
class TrustBroker(Protocol):
    async def request(self, request: TrustRequest) -> TrustDecision: ...


class GrantForRun:
    """Headless `--yes`: everything asked is granted for this run (scope `session`), nothing is stored."""

    async def request(self, request: TrustRequest) -> TrustDecision:
        return TrustDecision(True, "session", request.paths)


class DenyAll:
    """Headless without `--yes`: nobody is there to ask, so the answer is no."""

    async def request(self, request: TrustRequest) -> TrustDecision:
        return TrustDecision.deny()


def is_granted(capability: str, *, root: str | os.PathLike[str], path: str | None = None,
               store: TrustStore | None = None, session_grants: Iterable[TrustGrant] = (),
               command: CommandCheck | ChainCheck | None = None) -> bool:
    """Whether `capability` (for `path`, with `edit`; for the command `command` judges, with
    `commands`) is granted by the store's `always` grants for the project at `root` or by
    `session_grants`. Consumes nothing."""
    check_capability(capability)
    path = workspace_path(root, path) if path is not None else None
    grants = list(session_grants) + (store or TrustStore()).grants(root)
    return grants_cover(grants, capability, path, command)


class TrustSession:
    """The grants in force for one session of one project."""

    def __init__(self, root: str | os.PathLike[str], store: TrustStore | None = None,
                 broker: TrustBroker | None = None) -> None:
        self.root = os.path.realpath(os.fspath(root))
        self.store = store or TrustStore()
        self.broker: TrustBroker = broker or DenyAll()
        self._session: list[TrustGrant] = []
        self._once: list[TrustGrant] = []
        self._lock = threading.Lock()

    def is_granted(self, capability: str, path: str | None = None, command: CommandCheck | ChainCheck | None = None) -> bool:
        with self._lock:
            pending = list(self._session) + list(self._once)
        return is_granted(capability, root=self.root, path=path, store=self.store, session_grants=pending, command=command)

    def use(self, capability: str, path: str | None = None, command: CommandCheck | ChainCheck | None = None) -> bool:
        """Whether the capability may be used now; a `once` grant that is the only cover is spent.
        A path is matched as the workspace resolves it (`src/../x` is `x`); a command grant's rule
        is put to `command` (the command layer's judgement of the command at hand; without it, only
        grants for every command cover `commands`). A chain's steps may be covered by different
        grants, this session's and stored ones together (see `grants_cover`)."""
        resolved = workspace_path(self.root, path) if path is not None else None
        with self._lock:
            standing = list(self._session)
        if grants_cover(standing, capability, resolved, command):
            return True  # the store is not read when this session's grants answer
        standing += self.store.grants(self.root)
        if grants_cover(standing, capability, resolved, command):
            return True
        with self._lock:
            for k, grant in enumerate(self._once):
                if grants_cover([*standing, grant], capability, resolved, command):
                    del self._once[k]
                    return True
        return False

    def record(self, request: TrustRequest, decision: TrustDecision) -> TrustGrant | None:
        """Keep a granted decision at its scope; `always` goes to the trust store."""
        if not decision.granted:
            return None
        scope = check_scope(decision.scope or "once")
        if scope == "always" and request.capability in SESSION_ONLY:
            scope = "session"  # asked again next session, whatever was answered
        # The paths a request names are paths, not patterns: granted as asked, they cover exactly
        # themselves (a file named `**` or `*` must not become a grant over every file).
        paths = tuple(exact_glob(p) if p in request.paths else p for p in decision.paths) if request.capability == "edit" else ()
        # A rule narrows commands only; `rules` (a chain's steps, each its own rule) become one grant each.
        rules = (decision.rules or (decision.command,)) if request.capability == "commands" else (None,)
        kept: list[TrustGrant] = []
        for command in rules:
            if scope == "always":  # only stored grants must be clean globs; a session grant is matched as given
                kept.append(self.store.grant(self.root, request.capability, check_globs(paths, request.capability), command))
                continue
            grant = TrustGrant(request.capability, scope, paths, now_utc(), command)
            with self._lock:
                (self._session if scope == "session" else self._once).append(grant)
            kept.append(grant)
        return kept[0]

    def revoke(self, capability: str | None = None) -> list[TrustGrant]:
        """Take back grants at every scope: this session's, pending `once` ones and the stored ones."""
        if capability is not None:
            check_capability(capability)
        with self._lock:
            dropped = [g for g in self._session + self._once if capability in (None, g.capability)]
            self._session = [g for g in self._session if g not in dropped]
            self._once = [g for g in self._once if g not in dropped]
        return dropped + self.store.revoke(self.root, capability)

    def session_grants(self) -> list[TrustGrant]:
        with self._lock:
            return list(self._session) + list(self._once)

    async def ensure(self, request: TrustRequest, path: str | None = None) -> bool:
        """Use a grant in force, or ask the broker once and keep its answer. True when granted."""
        if self.use(request.capability, path):
            return True
        decision = await self.broker.request(request)
        if self.record(request, decision) is None:
            return False
        return self.use(request.capability, path)
