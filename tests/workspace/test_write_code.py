"""write_code: revisions, conflicts, guards, creation, preconditions, mode bits."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def test_replacement_built_on_a_revision_is_written_with_a_diff(tool, project: Path, revision_of) -> None:
    rev = revision_of("pkg/util.py")
    result = tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": rev, "replacements": [{"old": "return 3\n", "new": "return 33\n"}]}]})
    entry = result["results"][0]
    assert entry["status"] == "written"
    assert entry["previous_revision"] == rev
    assert entry["revision"] == revision_of("pkg/util.py")
    assert "+    return 33" in entry["diff"]
    assert "return 33" in (project / "pkg/util.py").read_text()


def test_missing_revision_is_rejected_and_stale_revision_is_a_conflict(tool, project: Path, revision_of) -> None:
    before = (project / "pkg/util.py").read_bytes()
    stale = revision_of("pkg/util.py")
    (project / "pkg/util.py").write_text(before.decode() + "# changed by someone else\n")
    changed = (project / "pkg/util.py").read_bytes()
    result = tool("write_code", {"edits": [
        {"path": "pkg/util.py", "replacements": [{"old": "return 1\n", "new": "return 11\n"}]},
        {"path": "pkg/util.py", "revision": stale, "replacements": [{"old": "return 1\n", "new": "return 11\n"}]},
    ]})
    assert [e["status"] for e in result["results"]] == ["rejected", "conflict"]
    assert result["results"][1]["current_revision"] == revision_of("pkg/util.py")
    assert (project / "pkg/util.py").read_bytes() == changed


def test_old_must_occur_exactly_once(tool, project: Path, revision_of) -> None:
    rev = revision_of("pkg/util.py")
    result = tool("write_code", {"edits": [
        {"path": "pkg/util.py", "revision": rev, "replacements": [{"old": "    return", "new": "    yield"}]},
        {"path": "pkg/util.py", "revision": rev, "replacements": [{"old": "not in the file", "new": "x"}]},
    ]})
    assert [e["status"] for e in result["results"]] == ["rejected", "rejected"]
    assert "20 times" in result["results"][0]["reason"]
    assert "does not occur" in result["results"][1]["reason"]


def test_one_replacement_may_not_change_more_than_half_the_file(tool, project: Path, revision_of) -> None:
    text = (project / "pkg/util.py").read_text()
    half = text[: len(text) * 6 // 10]
    result = tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "replacements": [{"old": half, "new": "# gone\n"}]}]})
    assert result["results"][0]["status"] == "rejected"
    assert "50%" in result["results"][0]["reason"]
    assert (project / "pkg/util.py").read_text() == text


def test_a_full_rewrite_counts_against_the_same_limit(tool, project: Path, revision_of) -> None:
    result = tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "content": "print('new')\n"}]})
    assert result["results"][0]["status"] == "rejected"
    small = (project / "pkg/util.py").read_text().replace("return 7\n", "return 70\n")
    result = tool("write_code", {"edits": [{"path": "pkg/util.py", "revision": revision_of("pkg/util.py"), "content": small}]})
    assert result["results"][0]["status"] == "written"


def test_edits_in_one_run_add_up_to_the_65_percent_limit(project: Path) -> None:
    from konstruct_tui.tools import ToolContext, call
    from konstruct_tui.workspace import Workspace

    lines = [f"value_{i} = {i}\n" for i in range(10)]
    (project / "values.py").write_text("".join(lines))
    with Workspace(project) as ws:
        context = ToolContext(ws)  # one run across several calls
        statuses = []
        for i in range(8):
            rev = ws.read("values.py").revision
            result = call("write_code", {"edits": [{"path": "values.py", "revision": rev, "replacements": [{"old": lines[i], "new": f"renamed_{i} = {i}\n"}]}]}, context)
            statuses.append(result.payload["results"][0]["status"])
    # each step changes ~10% of the file; the run's total crosses 65% at the seventh
    assert statuses == ["written"] * 6 + ["rejected", "rejected"]
    assert "renamed_6" not in (project / "values.py").read_text()


def test_run_limit_reason_names_the_limit(project: Path) -> None:
    from konstruct_tui.tools import ToolContext, call
    from konstruct_tui.workspace import Workspace

    (project / "four.py").write_text("alpha = 1\nbravo = 2\ncharlie = 3\ndelta = 4\n")
    with Workspace(project) as ws:
        context = ToolContext(ws)
        results = []
        for old, new in [("alpha = 1\nbravo = 2\n", "xxxxx = 0\nyyyyy = 0\n"), ("charlie = 3\n", "zzzzzzz = 0\n")]:
            rev = ws.read("four.py").revision
            results.append(call("write_code", {"edits": [{"path": "four.py", "revision": rev, "replacements": [{"old": old, "new": new}]}]}, context).payload["results"][0])
    assert results[0]["status"] == "written"
    assert results[1]["status"] == "rejected" and "65%" in results[1]["reason"]


def test_create_makes_parents_and_refuses_to_clobber(tool, project: Path) -> None:
    result = tool("write_code", {"edits": [
        {"path": "new/deep/mod.py", "create": True, "content": "x = 1\n"},
        {"path": "README.md", "create": True, "content": "clobber\n"},
    ]})
    assert [e["status"] for e in result["results"]] == ["created", "conflict"]
    assert (project / "new/deep/mod.py").read_text() == "x = 1\n"
    assert (project / "README.md").read_text() == "# demo\n"


def test_two_edits_to_one_file_in_one_batch_can_share_a_read(tool, project: Path, revision_of) -> None:
    rev = revision_of("pkg/util.py")
    result = tool("write_code", {"edits": [
        {"path": "pkg/util.py", "revision": rev, "replacements": [{"old": "return 1\n", "new": "return 100\n"}]},
        {"path": "pkg/util.py", "revision": rev, "replacements": [{"old": "return 2\n", "new": "return 200\n"}]},
    ]})
    assert [e["status"] for e in result["results"]] == ["written", "written"]
    text = (project / "pkg/util.py").read_text()
    assert "return 100\n" in text and "return 200\n" in text


def test_crlf_file_matches_an_lf_quote_and_keeps_its_line_endings(tool, project: Path, revision_of) -> None:
    (project / "win.txt").write_bytes(b"alpha\r\nbeta\r\ngamma\r\ndelta\r\n")
    result = tool("write_code", {"edits": [{"path": "win.txt", "revision": revision_of("win.txt"), "replacements": [{"old": "beta\ngamma", "new": "BETA\ngamma"}]}]})
    assert result["results"][0]["status"] == "written"
    assert (project / "win.txt").read_bytes() == b"alpha\r\nBETA\r\ngamma\r\ndelta\r\n"


def test_mode_bits_are_kept(tool, project: Path, revision_of) -> None:
    script = project / "run.sh"
    script.write_text("#!/bin/sh\necho one\necho two\necho three\n")
    script.chmod(0o755)
    tool("write_code", {"edits": [{"path": "run.sh", "revision": revision_of("run.sh"), "replacements": [{"old": "echo two", "new": "echo 2"}]}]})
    assert stat.S_IMODE(os.stat(script).st_mode) == 0o755


def test_preconditions_guard_other_files(tool, project: Path, revision_of) -> None:
    readme_rev = revision_of("README.md")
    util_rev = revision_of("pkg/util.py")
    (project / "README.md").write_text("# changed\n")
    result = tool("write_code", {
        "edits": [{"path": "pkg/util.py", "revision": util_rev, "replacements": [{"old": "return 1\n", "new": "return 9\n"}]}],
        "preconditions": {"README.md": readme_rev},
    })
    assert result["results"][0]["status"] == "conflict"
    assert "precondition" in result["results"][0]["reason"]
    assert result["preconditions"][0]["status"] == "conflict"
    assert revision_of("pkg/util.py") == util_rev


def test_the_git_directory_is_off_limits(tool, project: Path) -> None:
    (project / ".git").mkdir()
    result = tool("write_code", {"edits": [{"path": ".git/hooks/pre-commit", "create": True, "content": "#!/bin/sh\n"}]})
    assert result["results"][0]["status"] == "refused"
    assert not (project / ".git/hooks").exists()
