"""@file mentions: completion over the project's files and attachment through read_code."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from konstruct_tui.app.mentions import MENTION, attach_mentions, fuzzy_files, mention_at, project_files
from konstruct_tui.workspace import Workspace


def _project(root: Path) -> Path:
    for rel, text in {
        "shop/pricing.py": "def price():\n    return 1\n",
        "web/src/pricing.ts": "export const p = 1;\n",
        "README.md": "# shop\n",
        "build/out.js": "generated\n",
        "notes.log": "secret-ish log\n",
        "logs/keep.txt": "kept\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".gitignore").write_text("*.log\nlogs/\n")
    return root


def test_a_plain_folder_honours_its_gitignore(tmp_path: Path) -> None:
    files = project_files(_project(tmp_path))
    assert "shop/pricing.py" in files and "README.md" in files
    assert "notes.log" not in files and "logs/keep.txt" not in files
    assert "build/out.js" not in files  # build folders are skipped as in the workspace listing


def test_a_git_checkout_lists_what_git_would(tmp_path: Path) -> None:
    root = _project(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    files = project_files(root)
    assert "shop/pricing.py" in files and "notes.log" not in files and "logs/keep.txt" not in files


@pytest.mark.parametrize("text,cursor,expected", [
    ("explain @sho", 12, (8, "sho")), ("@", 1, (0, "")), ("see (@web", 9, (5, "web")),
    ("mail me@example.com", 19, None), ("explain @shop/pricing.py now", 28, None),
])
def test_the_mention_being_typed_is_found_at_the_cursor(text: str, cursor: int, expected: tuple[int, str] | None) -> None:
    assert mention_at(text, cursor) == expected


def test_fuzzy_matching_prefers_the_file_name_and_accepts_scattered_letters() -> None:
    files = ["shop/pricing.py", "web/src/pricing.ts", "README.md", "shop/cart.py", "pricing/notes.md"]
    assert fuzzy_files("pricing.py", files)[0] == "shop/pricing.py"
    assert set(fuzzy_files("pric", files)[:2]) == {"shop/pricing.py", "web/src/pricing.ts"}
    assert fuzzy_files("wsp", files) == ["web/src/pricing.ts"]
    assert fuzzy_files("zzz", files) == []


def test_emails_and_prose_are_not_mentions() -> None:
    assert MENTION.findall("ask me@example.com about @shop/pricing.py, and (@README.md)") == ["shop/pricing.py,", "README.md"]


def test_a_mentioned_file_is_attached_with_its_revision(tmp_path: Path) -> None:
    root = _project(tmp_path)
    with Workspace(root) as workspace:
        revision = workspace.read("shop/pricing.py").revision
        attachment = attach_mentions(workspace, "explain @shop/pricing.py, please")
    assert attachment.attached == (("shop/pricing.py", revision),)
    assert f'revision="{revision}"' in attachment.text and "def price():" in attachment.text
    assert attachment.text.startswith("explain @shop/pricing.py, please")
    assert attachment.problems == ()


def test_a_mention_that_cannot_be_read_says_so_and_attaches_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (tmp_path / "outside.txt").write_text("outside")
    with Workspace(root) as workspace:
        missing = attach_mentions(workspace, "explain @shop/missing.py")
        escaping = attach_mentions(workspace, "explain @../outside.txt")
    assert missing.attached == () and missing.text == "explain @shop/missing.py"
    assert any("shop/missing.py" in p and "not_found" in p for p in missing.problems)
    assert escaping.attached == () and escaping.text == "explain @../outside.txt"  # nothing of the file
    assert escaping.problems and "refused" in escaping.problems[0]


def test_a_handle_that_is_not_a_path_is_left_alone(tmp_path: Path) -> None:
    with Workspace(_project(tmp_path)) as workspace:
        attachment = attach_mentions(workspace, "thanks @dana")
    assert attachment.text == "thanks @dana" and attachment.attached == () and attachment.problems == ()


@pytest.mark.parametrize("mention", ["@/etc/passwd", "@~/.ssh/id_rsa", "@shop/../../outside.txt", "@shop/%2e%2e/x"])
def test_mentions_that_leave_the_project_attach_nothing(tmp_path: Path, mention: str) -> None:
    root = _project(tmp_path)
    (tmp_path / "outside.txt").write_text("outside secret")
    with Workspace(root) as workspace:
        attachment = attach_mentions(workspace, f"explain {mention}")
    assert attachment.attached == () and attachment.text == f"explain {mention}"
    assert "secret" not in attachment.text and "root:" not in attachment.text
