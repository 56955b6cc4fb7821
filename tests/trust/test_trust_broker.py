"""Asking for trust and deciding it: once / session / always scopes, headless brokers, is_granted."""

from __future__ import annotations

import asyncio
from pathlib import Path

from konstruct_tui.trust import (
    DenyAll,
    GrantForRun,
    TrustBroker,
    TrustDecision,
    TrustRequest,
    TrustSession,
    TrustStore,
    is_granted,
)


class ScriptedBroker:
    """Answers with a fixed decision and counts the questions."""

    def __init__(self, decision: TrustDecision) -> None:
        self.decision = decision
        self.asked: list[TrustRequest] = []

    async def request(self, request: TrustRequest) -> TrustDecision:
        self.asked.append(request)
        return self.decision


def test_headless_brokers_fit_the_port() -> None:
    assert isinstance(GrantForRun(), TrustBroker)
    assert isinstance(DenyAll(), TrustBroker)


def test_once_is_spent_by_one_use(tmp_path: Path) -> None:
    broker = ScriptedBroker(TrustDecision(True, "once"))
    session = TrustSession(tmp_path, broker=broker)
    request = TrustRequest("commands", "ls -la")
    assert asyncio.run(session.ensure(request))
    assert not session.use("commands")
    assert asyncio.run(session.ensure(request))
    assert len(broker.asked) == 2


def test_session_grants_last_the_session_and_are_not_stored(tmp_path: Path) -> None:
    broker = ScriptedBroker(TrustDecision(True, "session"))
    session = TrustSession(tmp_path, broker=broker)
    assert asyncio.run(session.ensure(TrustRequest("scripts", "test")))
    assert session.use("scripts") and session.use("scripts")
    assert len(broker.asked) == 1
    assert TrustStore().grants(tmp_path) == []
    assert not TrustSession(tmp_path).use("scripts")  # a new session starts without it


def test_always_grants_are_stored_for_the_project(tmp_path: Path) -> None:
    session = TrustSession(tmp_path, broker=ScriptedBroker(TrustDecision(True, "always")))
    assert asyncio.run(session.ensure(TrustRequest("commands", "make")))
    assert [g.capability for g in TrustStore().grants(tmp_path)] == ["commands"]
    later = TrustSession(tmp_path, broker=DenyAll())
    assert asyncio.run(later.ensure(TrustRequest("commands", "ls")))
    assert is_granted("commands", root=tmp_path)
    assert not is_granted("commands", root=tmp_path / "other")


def test_commands_grant_covers_scripts_but_not_edits(tmp_path: Path) -> None:
    TrustStore().grant(tmp_path, "commands")
    assert is_granted("scripts", root=tmp_path)
    assert not is_granted("edit", root=tmp_path, path="a.py")


def test_scoped_edit_grants(tmp_path: Path) -> None:
    broker = ScriptedBroker(TrustDecision(True, "session", ("src/**",)))
    session = TrustSession(tmp_path, broker=broker)
    assert asyncio.run(session.ensure(TrustRequest("edit", "src/a.py", ("src/a.py",)), path="src/a.py"))
    assert session.use("edit", "src/b/c.py")
    assert not session.use("edit", "setup.py")


def test_deny_all_grants_nothing(tmp_path: Path) -> None:
    session = TrustSession(tmp_path, broker=DenyAll())
    assert not asyncio.run(session.ensure(TrustRequest("commands", "ls")))
    assert not session.is_granted("commands")


def test_grant_for_run_grants_for_this_run_only(tmp_path: Path) -> None:
    session = TrustSession(tmp_path, broker=GrantForRun())
    assert asyncio.run(session.ensure(TrustRequest("commands", "ls")))
    assert session.use("commands")
    assert [g.scope for g in session.session_grants()] == ["session"]
    assert TrustStore().grants(tmp_path) == []


def test_revoked_always_grant_stops_counting(tmp_path: Path) -> None:
    store = TrustStore()
    store.grant(tmp_path, "scripts")
    session = TrustSession(tmp_path, store=store)
    assert session.use("scripts")
    store.revoke(tmp_path, "scripts")
    assert not session.use("scripts")


def test_revoke_takes_back_every_scope(tmp_path: Path) -> None:
    session = TrustSession(tmp_path, broker=ScriptedBroker(TrustDecision(True, "session")))
    assert asyncio.run(session.ensure(TrustRequest("commands", "ls")))
    session.store.grant(tmp_path, "commands")
    session.record(TrustRequest("scripts", "test"), TrustDecision(True, "once"))
    assert len(session.revoke("commands")) == 2
    assert not session.use("commands")
    assert session.use("scripts")  # the once grant for scripts was not touched
    assert session.revoke() == []
