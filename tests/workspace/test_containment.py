"""Containment is enforced where a file is opened: nothing outside the root is ever read or written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def statuses(result: dict) -> list[str]:
    return [entry["status"] for entry in result["results"]]


@pytest.mark.parametrize(
    "path",
    ["/etc/passwd", "../outside/secret.txt", "pkg/../../outside/secret.txt", "a\x00b", "", "..", "pkg/../.."],
)
def test_paths_that_leave_or_are_malformed_are_refused(tool, path: str) -> None:
    entry = tool("read_code", {"paths": [path]})["results"][0]
    assert entry["status"] == "refused"
    assert entry["reason"]


def test_absolute_path_to_a_file_inside_is_still_refused_and_root_never_shown(tool, project: Path, konstruct) -> None:
    result = tool("read_code", {"paths": [str(project / "README.md")]})
    assert statuses(result) == ["refused"]
    assert str(project) not in str(result)


def test_dotdot_that_stays_inside_and_odd_names_are_allowed(tool, project: Path) -> None:
    (project / "a..b").write_text("dots\n")
    (project / "naïve 名前.py").write_text("x = 1\n")
    deep = project.joinpath(*[f"d{i}" for i in range(40)])
    deep.mkdir(parents=True)
    (deep / "leaf.txt").write_text("deep\n")
    deep_rel = "/".join(f"d{i}" for i in range(40)) + "/leaf.txt"
    result = tool("read_code", {"paths": ["pkg/../README.md", "a..b", "naïve 名前.py", deep_rel, "./pkg//util.py"]})
    assert statuses(result) == ["ok"] * 5
    assert result["results"][0]["content"] == "# demo\n"
    assert result["results"][1]["content"] == "dots\n"


def test_symlink_that_stays_inside_is_followed(tool, project: Path) -> None:
    os.symlink("pkg", project / "alias")
    os.symlink("../README.md", project / "pkg" / "readme_link")
    os.symlink(str(project / "README.md"), project / "absolute_inside")
    result = tool("read_code", {"paths": ["alias/util.py", "pkg/readme_link", "absolute_inside"]})
    assert statuses(result) == ["ok", "ok", "ok"]
    assert result["results"][1]["content"] == "# demo\n"


def test_symlink_pointing_outside_is_refused_at_any_component(tool, project: Path, outside: Path) -> None:
    os.symlink(outside, project / "escape_dir")
    os.symlink(outside / "secret.txt", project / "escape_file")
    os.symlink("../outside/secret.txt", project / "relative_escape")
    os.symlink("escape_dir", project / "chained")
    result = tool("read_code", {"paths": ["escape_dir/secret.txt", "escape_file", "relative_escape", "chained/secret.txt"]})
    assert statuses(result) == ["refused"] * 4
    assert "TOP-SECRET" not in str(result)
    assert str(outside) not in str(result)


def test_symlink_loop_is_refused_not_hung(tool, project: Path) -> None:
    os.symlink("loop_b", project / "loop_a")
    os.symlink("loop_a", project / "loop_b")
    assert statuses(tool("read_code", {"paths": ["loop_a"]})) == ["refused"]


def test_writes_through_outside_symlinks_are_refused_and_nothing_changes(tool, project: Path, outside: Path) -> None:
    os.symlink(outside, project / "escape_dir")
    result = tool(
        "write_code",
        {"edits": [{"path": "escape_dir/new.txt", "create": True, "content": "pwned"},
                   {"path": "../outside/other.txt", "create": True, "content": "pwned"}]},
    )
    assert statuses(result) == ["refused", "refused"]
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]


def test_fifo_and_directory_are_not_read(tool, project: Path) -> None:
    os.mkfifo(project / "pipe")
    result = tool("read_code", {"paths": ["pipe", "pkg"]})
    assert statuses(result) == ["not_found", "not_found"]
    assert "directory" in result["results"][1]["reason"]


def test_names_the_os_cannot_take_are_per_entry_errors_and_leave_nothing_behind(tool, project: Path) -> None:
    long_name = "n" * 300
    read = tool("read_code", {"paths": [long_name, f"pkg/{long_name}/x.py", "README.md/", "README.md"]})
    assert [e["status"] for e in read["results"]] == ["not_found", "not_found", "not_found", "ok"]
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    written = tool("write_code", {"edits": [{"path": f"new/deeper/{long_name}/x.py", "create": True, "content": "x = 1\n"}]})
    assert written["results"][0]["status"] == "rejected"
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before
