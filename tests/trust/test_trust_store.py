"""The trust store on disk: atomic, private, shared safely between processes, and never trusting a
damaged file."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from konstruct_tui.trust import BadGrant, TrustStore, TrustStoreWarning
from konstruct_tui.userdirs import config_dir


def test_lives_in_the_user_config_dir_with_mode_0600(tmp_path: Path) -> None:
    store = TrustStore()
    store.grant(tmp_path, "commands")
    assert store.path == config_dir() / "trust.json"
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700


def test_grants_are_keyed_by_the_real_root(tmp_path: Path) -> None:
    real = tmp_path / "project"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    store = TrustStore()
    store.grant(link, "scripts")
    assert [g.capability for g in TrustStore().grants(real)] == ["scripts"]
    assert TrustStore().grants(tmp_path) == []
    assert str(real) in json.loads(store.path.read_text())["projects"]


def test_edit_grants_may_be_scoped_to_globs(tmp_path: Path) -> None:
    store = TrustStore()
    grant = store.grant(tmp_path, "edit", ("src/**", "*.md"))
    assert grant.covers("edit", "src/a/b.py")
    assert grant.covers("edit", "README.md")
    assert not grant.covers("edit", "tests/test_a.py")
    assert not grant.covers("edit", "docs/x.md")
    with pytest.raises(BadGrant):
        store.grant(tmp_path, "commands", ("src/**",))
    with pytest.raises(BadGrant):
        store.grant(tmp_path, "edit", ("../outside/**",))


def test_granting_twice_keeps_one(tmp_path: Path) -> None:
    store = TrustStore()
    store.grant(tmp_path, "commands")
    store.grant(tmp_path, "commands")
    assert len(store.grants(tmp_path)) == 1


def test_revoke_one_capability_or_all(tmp_path: Path) -> None:
    store = TrustStore()
    for capability in ("edit", "scripts", "commands"):
        store.grant(tmp_path, capability)
    removed = store.revoke(tmp_path, "scripts")
    assert [g.capability for g in removed] == ["scripts"]
    assert sorted(g.capability for g in store.grants(tmp_path)) == ["commands", "edit"]
    assert len(store.revoke(tmp_path)) == 2
    assert store.grants(tmp_path) == []
    assert store.revoke(tmp_path) == []


@pytest.mark.parametrize("damage", [
    "{not json", "[]", '{"projects": []}', '{"projects": {"/x": {"grants": [{"capability": "root"}]}}}', "",
    '{"projects": {"/x": {"grants": [], "policy": {"chains": "yes"}}}}', '{"version": 9, "projects": {}}',
])
def test_a_corrupt_file_is_moved_aside_and_means_no_grants(tmp_path: Path, damage: str) -> None:
    store = TrustStore()
    store.grant(tmp_path, "commands")
    store.path.write_text(damage)
    with pytest.warns(TrustStoreWarning, match="moved it to"):
        assert store.grants(tmp_path) == []
    asides = list(store.path.parent.glob("trust.json.corrupt-*"))
    assert len(asides) == 1 and asides[0].read_text() == damage
    assert store.damage() == {"moved_to": asides[0].name, "at": store.damage()["at"]}  # the lock stays (issue 13)
    store.grant(tmp_path, "scripts")  # and the store works again
    assert [g.capability for g in store.grants(tmp_path)] == ["scripts"]


def test_writes_leave_no_temp_files(tmp_path: Path) -> None:
    store = TrustStore()
    for n in range(5):
        store.grant(tmp_path / str(n), "commands")
    names = sorted(p.name for p in store.path.parent.iterdir())
    assert names == ["trust.json", "trust.json.lock"]


def _grant_many(config_home: str, root: str, worker: int, count: int) -> None:
    os.environ["XDG_CONFIG_HOME"] = config_home
    store = TrustStore()
    for n in range(count):
        store.grant(f"{root}/p{worker}-{n}", "commands")


def test_two_processes_granting_at_once_lose_nothing(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    config_home = os.environ["XDG_CONFIG_HOME"]
    workers = [context.Process(target=_grant_many, args=(config_home, str(tmp_path), w, 25)) for w in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    projects = TrustStore().projects()
    assert len(projects) == 50
    assert all(len(grants) == 1 for grants in projects.values())
