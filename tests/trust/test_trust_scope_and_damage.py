"""Path-scoped grants match the path as the workspace resolves it, component by component; a damaged
trust store fails closed: no grants, and allowlist mode on with nothing allowed until the person
repairs the file or runs `konstruct trust reset` (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.cli import main
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.trust import TrustSession, TrustStore, TrustStoreWarning, glob_matches
from konstruct_tui.workspace import Workspace


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "notes.md").mkdir()  # a folder whose name looks like a markdown file
    (tmp_path / "outside").mkdir()
    (root / "src" / "elsewhere").symlink_to(tmp_path / "outside", target_is_directory=True)
    (root / "source-link").symlink_to(root / "src", target_is_directory=True)
    return root


@pytest.mark.parametrize(("glob", "path", "covered"), [
    ("src/**", "src/pkg/a.py", True),
    ("src/**", "src/./pkg/../b.py", True),
    ("src/**", "src/../x.py", False),
    ("src/**", "src/../../project/x.py", False),
    ("src/**", "src/elsewhere/x.py", False),  # a link inside that points outside
    ("src/**", "source-link/a.py", True),  # a link inside that stays inside: the real path is src/a.py
    ("*.md", "README.md", True),
    ("*.md", "notes.md/test_x.py", False),
    ("*.md", "docs/guide.md", False),
    ("docs", "docs/guide.md", True),
    ("docs/", "docs/a/b.md", True),
    ("src/*.py", "src/a.py", True),
    ("src/*.py", "src/a.py/evil.sh", False),
])
def test_edit_grants_match_resolved_paths_by_component(project: Path, glob: str, path: str, covered: bool) -> None:
    store = TrustStore()
    store.grant(project, "edit", (glob,))
    session = TrustSession(project, store)
    assert session.is_granted("edit", path) is covered
    assert session.use("edit", path) is covered


def test_glob_matches_a_file_not_a_folder_on_the_way() -> None:
    assert glob_matches("*.md", "notes.md") and not glob_matches("*.md", "notes.md/x.py")
    assert glob_matches("**/*.md", "a/b/c.md") and not glob_matches("**/*.md", "a/b.md/c.py")


def _tool(root: Path, command: str) -> dict:
    with Workspace(root) as workspace:
        return call("run_command", {"command": command}, ToolContext(workspace)).to_json()


def test_a_damaged_store_keeps_allowlist_mode_on_with_nothing_allowed(project: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    store = TrustStore()
    store.set_command_settings(project, allow=("ls",))
    store.grant(project, "commands")
    assert _tool(project, "echo hi")["status"] == "refused"  # the allowlist held
    store.path.write_text(store.path.read_text()[:40])  # truncated
    with pytest.warns(TrustStoreWarning) as caught:
        assert TrustStore().grants(project) == []
        assert TrustStore().command_settings(project)["locked"] is True
    assert any("konstruct trust reset" in str(w.message) and str(store.path) in str(w.message) for w in caught)
    with pytest.warns(TrustStoreWarning):
        refused = _tool(project, "echo hi")
        listed = _tool(project, "ls")
    assert refused["status"] == "refused" and refused["policy"]["rule"] == "allowlist", refused
    assert listed["status"] == "refused"  # nothing allowed, not even what was: the file could not say
    assert main(["trust", "reset", "--root", str(project)]) == 0
    assert json.loads(capsys.readouterr().out) == {"reset": True}
    assert _tool(project, "echo hi")["status"] == "ok"  # the person decided: back to the defaults


def test_the_lock_survives_a_new_process_and_a_new_grant(project: Path) -> None:
    TrustStore().path.parent.mkdir(parents=True, exist_ok=True)
    TrustStore().path.write_text("{oops")
    with pytest.warns(TrustStoreWarning):
        TrustStore().grants(project)
    with pytest.warns(TrustStoreWarning):
        TrustStore().grant(project, "scripts")
        assert TrustStore().command_settings(project)["locked"] is True


def test_setting_the_project_policy_again_lifts_the_lock_for_it(project: Path) -> None:
    TrustStore().path.parent.mkdir(parents=True, exist_ok=True)
    TrustStore().path.write_text("[]")
    with pytest.warns(TrustStoreWarning):
        TrustStore().set_command_settings(project, allow=("echo",))
    assert TrustStore().command_settings(project) == {"presets": [], "allow": ["echo"], "chains": False}
    assert _tool(project, "echo hi")["status"] == "ok"


def test_an_unknown_preset_in_the_stored_policy_fails_closed(project: Path) -> None:
    store = TrustStore()
    store.set_command_settings(project, presets=("python",))
    data = json.loads(store.path.read_text())
    data["projects"][str(project.resolve())]["policy"]["presets"] = ["no-such-preset"]
    store.path.write_text(json.dumps(data))
    assert _tool(project, "echo hi")["status"] == "refused"


def test_policy_show_says_a_locked_policy_is_in_allowlist_mode(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    TrustStore().path.parent.mkdir(parents=True, exist_ok=True)
    TrustStore().path.write_text("{oops")
    with pytest.warns(TrustStoreWarning):
        assert main(["policy", "show", "--root", str(project)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["locked"] is True and shown["allowlist_mode"] is True and shown["allow"] == []
