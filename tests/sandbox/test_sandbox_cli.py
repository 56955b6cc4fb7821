"""`konstruct sandbox check|set|clear`: what the machine offers, the project's mode and where it is
configured; bad input is one line on stderr, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sandbox_helpers import needs_landlock

from konstruct_tui.sandbox import SandboxConfig, kernel_abi


@needs_landlock
def test_check_reports_landlock_the_rules_and_the_default_mode(workspace_root: Path, konstruct: Any) -> None:
    code, report, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert code == 0
    abi = kernel_abi()
    assert report["landlock"] == {"available": True, "abi": abi, "network_rules": abi >= 4, "scopes": abi >= 6}
    assert report["project"]["mode"] == "workspace-write" and report["project"]["configured_in"].startswith("default")
    assert report["mode"] == "workspace-write" and report["applied"]["mode"] == "workspace-write"
    assert "<workspace>" in report["filesystem"]["writable"]
    assert "/dev/null" in report["filesystem"]["writable"]
    assert report["self_test"]["write_outside_refused"] is True
    assert report["self_test"]["connect_refused"] is (True if abi >= 4 else None)
    assert str(workspace_root) not in json.dumps(report)  # the workspace's location is never printed


def test_check_without_landlock_says_so(workspace_root: Path, konstruct: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONSTRUCT_SANDBOX_ABI", "0")
    code, report, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert code == 0
    assert report["landlock"]["available"] is False and report["landlock"]["abi"] == 0
    assert report["applied"]["mode"] == "unsandboxed" and report["mode"] == "workspace-write"
    assert report["filesystem"]["writable"] == [] and report["self_test"] is None


def test_set_changes_the_mode_check_shows_and_clear_restores(workspace_root: Path, konstruct: Any) -> None:
    code, shown, _ = konstruct("sandbox", "set", "--root", str(workspace_root), "--mode", "read-only",
                               "--network", "allow", "--unsandboxed", "refuse")
    assert code == 0 and shown["mode"] == "read-only" and shown["configured_in"].endswith("sandbox.json")
    code, report, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert (report["project"]["mode"], report["project"]["network"], report["project"]["unsandboxed"]) == (
        "read-only", "allow", "refuse")
    assert report["project"]["configured_in"].endswith("sandbox.json")
    konstruct("sandbox", "set", "--root", str(workspace_root), "--network", "block")
    assert SandboxConfig().settings(workspace_root).mode == "read-only"  # other settings kept
    code, cleared, _ = konstruct("sandbox", "clear", "--root", str(workspace_root))
    assert code == 0 and cleared == {"mode": "workspace-write", "network": "block", "unsandboxed": "run",
                                     "configured_in": "default"}


@pytest.mark.parametrize("argv", [
    ["sandbox", "set", "--mode", "nothing"],
    ["sandbox", "set"],
    ["sandbox", "set", "--network", "maybe"],
    ["sandbox"],
])
def test_bad_input_exits_2_and_writes_nothing(workspace_root: Path, konstruct: Any, argv: list[str]) -> None:
    code, _, err = konstruct(*argv, "--root", str(workspace_root)) if len(argv) > 1 else konstruct(*argv)
    assert code == 2 and err.startswith("konstruct: error:") and err.count("\n") == 1
    assert not SandboxConfig().path.exists()


def test_check_on_a_missing_root_exits_2(tmp_path: Path, konstruct: Any) -> None:
    code, _, err = konstruct("sandbox", "check", "--root", str(tmp_path / "nope"))
    assert code == 2 and "not a directory" in err


def test_a_damaged_settings_file_fails_closed(workspace_root: Path) -> None:
    config = SandboxConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text("{not json")
    with pytest.warns(UserWarning, match="unreadable.*konstruct sandbox set"):
        settings = config.settings(workspace_root)
    assert (settings.mode, settings.allow_network, settings.refuse_unsandboxed) == ("read-only", False, True)
    assert settings.source.endswith("(damaged)")
    with pytest.warns(UserWarning, match="unreadable"):
        assert config.update(workspace_root, allow_network=False).mode == "workspace-write"  # the person rewrote it
    assert config.settings(workspace_root).mode == "workspace-write"


def test_a_bad_entry_fails_closed_for_that_project(workspace_root: Path) -> None:
    config = SandboxConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text(json.dumps({"version": 1, "projects": {str(workspace_root.resolve()): {"mode": "yolo"}}}))
    with pytest.warns(UserWarning, match="unusable"):
        assert config.settings(workspace_root).mode == "read-only"


def test_settings_file_is_private(workspace_root: Path) -> None:
    config = SandboxConfig()
    config.update(workspace_root, mode="full")
    assert config.path.stat().st_mode & 0o777 == 0o600
    assert config.settings(workspace_root).mode == "full"


def test_settings_changed_at_once_by_two_processes_both_land(workspace_root: Path, tmp_path: Path) -> None:
    """Each change reads and writes under the file's lock: neither process loses the other's setting."""
    import subprocess
    import sys

    other = tmp_path / "other-project"
    other.mkdir()
    code = ("import sys; from konstruct_tui.sandbox import SandboxConfig\n"
            "for _ in range(20): SandboxConfig().update(sys.argv[1], mode=sys.argv[2])\n")
    runs = [subprocess.Popen([sys.executable, "-c", code, str(root), mode]) for root, mode in ((workspace_root, "read-only"), (other, "full"))]
    assert [run.wait(60) for run in runs] == [0, 0]
    config = SandboxConfig()
    assert (config.settings(workspace_root).mode, config.settings(other).mode) == ("read-only", "full")
    assert oct(config.path.stat().st_mode & 0o777) == "0o600"


@needs_landlock
def test_check_lists_the_namespaces_each_command_gets(workspace_root: Path, konstruct: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from konstruct_tui.sandbox.namespaces import available

    code, report, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert code == 0 and set(report["namespaces"]) == {"pid", "mount", "network_when_blocked", "ipc"}
    in_its_own_network = any("network namespace of its own" in line for line in report["network"]["refused"])
    assert in_its_own_network is report["namespaces"]["network_when_blocked"]
    if available():  # root or CAP_SYS_ADMIN, as on CI: the person is told the command cannot reach localhost
        assert report["namespaces"]["pid"] and report["namespaces"]["network_when_blocked"] and in_its_own_network
    konstruct("sandbox", "set", "--root", str(workspace_root), "--network", "allow")
    _, allowed, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert allowed["namespaces"]["network_when_blocked"] is False
    monkeypatch.setenv("KONSTRUCT_SANDBOX_NO_NAMESPACES", "1")  # a machine without them: nothing claimed
    _, without, _ = konstruct("sandbox", "check", "--root", str(workspace_root))
    assert not any(without["namespaces"].values())
    assert not any("network namespace" in line for line in without["network"]["refused"])
