"""Blueprint verification commands run under the same default confinement as run_command: the
person's home folder is out of reach and `.git` cannot be written (issue 13)."""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from sandbox_helpers import needs_landlock

from konstruct_tui.blueprint.verification import run_verification
from konstruct_tui.workspace import Workspace

pytestmark = needs_landlock


def test_verification_commands_are_confined(workspace_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----planted\n")
    monkeypatch.setenv("HOME", str(home))
    subprocess.run(["git", "init", "-q", str(workspace_root)], check=True)
    config_before = (workspace_root / ".git" / "config").read_text()
    # A script file: the policy cannot see what it does (a hole in recognition, not in the system).
    (workspace_root / "check.py").write_text("import os, sys\nprint(open(os.path.join(os.environ['HOME'], '.ssh', "
                                             "'id_ed25519')).read())\n")
    read_key = shlex.join([sys.executable, "check.py"])
    write_git = shlex.join([sys.executable, "-c", "open('.git/config', 'a').write('[core]\\n\\tfsmonitor = touch pwned\\n')"])
    with Workspace(workspace_root) as workspace:
        results = asyncio.run(run_verification([read_key, write_git], workspace, [], timeout_s=30,
                                               last_call=lambda: 0, last_write=0))
    assert [r.outcome for r in results] == ["failed", "failed"], results
    assert all("planted" not in r.output for r in results)
    assert (workspace_root / ".git" / "config").read_text() == config_before


def test_in_mode_full_verification_needs_the_full_access_grant(workspace_root: Path) -> None:
    """Issue 31: mode `full` runs the executor's code unconfined; like any unconfined run it needs
    `full_access`, which an unattended run never holds."""
    from konstruct_tui.sandbox import SandboxConfig

    SandboxConfig().update(workspace_root, mode="full")
    witness = workspace_root / "ran.txt"
    command = shlex.join([sys.executable, "-c", f"open({str(witness)!r}, 'w').write('unconfined')"])
    with Workspace(workspace_root) as workspace:
        refused = asyncio.run(run_verification([command], workspace, [], timeout_s=30, last_call=lambda: 0))
        assert refused[0].outcome == "refused" and "full_access" in refused[0].output, refused
        assert not witness.exists()
        granted = asyncio.run(run_verification([command], workspace, [], timeout_s=30, last_call=lambda: 0,
                                               full_access=lambda: True))
    assert granted[0].outcome == "ok" and witness.read_text() == "unconfined", granted


def test_a_verification_command_cannot_forge_the_run_store_or_the_engines_record(workspace_root: Path, tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The run store holds the gate's record and, beside it, the durable engine's (DBOS's tables): a
    command the executor wrote cannot mark a phase closed or a step done in either."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    from konstruct_tui.blueprint import LocalEngine, RunStore, default_path

    store = RunStore()
    store.create_run("bp-victim", "t", "plan.toml", "title = 't'", str(workspace_root), {"provider": "scripted"}, ["p1"])
    with LocalEngine(store.path):  # the engine's tables, as after a first run
        pass
    store.close()
    before = default_path().read_bytes()
    forge = ("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
             "db.execute(\"UPDATE phases SET status = 'closed'\"); "
             "db.execute(\"INSERT INTO operation_outputs (workflow_uuid, function_id, function_name) VALUES ('bp-victim', 1, 'konstruct_unit')\"); "
             "db.commit(); print('forged')")
    # By its path, through a link to it made in the workspace, and through a link to its folder.
    (workspace_root / "store.lnk").symlink_to(default_path())
    (workspace_root / "state.lnk").symlink_to(default_path().parent)
    targets = [str(default_path()), "store.lnk", "state.lnk/runs.sqlite3"]
    with Workspace(workspace_root) as workspace:
        results = asyncio.run(run_verification([shlex.join([sys.executable, "-c", forge, target]) for target in targets], workspace, [],
                                               timeout_s=30, last_call=lambda: 0, last_write=0))
    assert [r.outcome for r in results] == ["failed"] * 3 and not any("forged" in r.output for r in results), results
    assert default_path().read_bytes() == before
    assert [p.status for p in RunStore().phases("bp-victim")] == ["pending"]
