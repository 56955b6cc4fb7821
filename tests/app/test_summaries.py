"""The one-line words for a tool call: a glyph that tells the truth, counts that say what they
count, a refusal's reason; and a result read as text, not JSON escapes."""

from __future__ import annotations

from typing import Any

import pytest

from konstruct_tui.agent import ToolFinished
from konstruct_tui.app import describe_outcome, path_tail, result_text, verdict

SANDBOX = {"mode": "workspace-write", "abi": 7, "network": "blocked"}


def _done(tool: str, result: dict[str, Any], statuses: tuple[str, ...] = (), ok: bool = True, error: str | None = None) -> ToolFinished:
    return ToolFinished(1, "c1", tool, ok, result, statuses, error)


@pytest.mark.parametrize(("event", "expected"), [
    (_done("read_code", {}, ("ok", "ok")), "ok"),
    (_done("read_code", {}, ("ok", "not_found")), "partial"),
    (_done("write_code", {}, ("conflict",)), "failed"),  # `write_code 1 conflict` is never a green ✓
    (_done("write_code", {}, ("rolled_back", "conflict")), "failed"),
    (_done("write_code", {}, ("written", "created")), "ok"),
    (_done("delete_code", {}, ("rejected",)), "failed"),
    (_done("run_command", {"status": "ok", "exit_code": 0}), "ok"),
    (_done("run_command", {"status": "failed", "exit_code": 1}), "failed"),
    (_done("run_command", {"status": "refused", "reason": "no"}), "failed"),
    (_done("run_command", {"status": "killed"}), "failed"),
    (_done("run_command", {"status": "timeout"}), "failed"),
    (_done("run_command", {"status": "needs_grant"}), "failed"),
    (_done("run_command", {"error": "denied", "status": "denied"}, ok=False, error="denied"), "failed"),
    (_done("traverse_graph", {"status": "no_references", "results": []}), "ok"),
    (_done("traverse_graph", {"status": "undeterminable", "reason": "indexing"}), "partial"),
    (_done("search", {"status": "some-new-word"}), "partial"),  # a word the UI does not know is not a calm ✓
])
def test_the_glyph_tells_the_truth(event: ToolFinished, expected: str) -> None:
    assert verdict(event) == expected


@pytest.mark.parametrize(("event", "said"), [
    (_done("search", {"status": "ok", "results": [{"path": "a.py"}] * 7, "truncated": False}), "7 matches"),
    (_done("search", {"status": "ok", "results": [{"path": "a.py"}], "truncated": True}), "1 match (more cut)"),
    (_done("traverse_graph", {"status": "ok", "results": [{}] * 40, "bounds": {"limit_unit": "files"}}), "40 files"),
    (_done("traverse_graph", {"status": "ok", "results": [{}] * 3}), "3 nodes"),
    (_done("enumerate", {"collection": "symbols", "status": "ok", "results": [{}] * 12, "total": 80}), "12 of 80 symbols"),
    (_done("enumerate", {"collection": "directories", "status": "ok", "results": [{}] * 2, "total": 2}), "2 directories"),
    (_done("git_diff", {"files": [{"path": "a"}, {"path": "b"}], "diff": ""}), "2 files changed"),
    (_done("git_diff", {"files": [], "diff": "", "reason": "the working tree matches HEAD"}), "the working tree matches HEAD"),
    (_done("read_code", {}, ("ok", "ok", "not_found")), "2 ok, 1 not_found"),
    (_done("traverse_graph", {"status": "not_indexed", "reason": "x.py is not in the index"}), "not_indexed: x.py is not in the index"),
])
def test_counts_say_what_they_count(event: ToolFinished, said: str) -> None:
    assert describe_outcome(event) == said


def test_a_refused_or_denied_command_says_why_on_its_line() -> None:
    refused = describe_outcome(_done("run_command", {"status": "refused", "command": "rm -rf /", "reason": "rm -rf / would remove the system"}))
    assert refused == "refused: rm -rf / would remove the system"
    denial = ("denied: the person has not granted `commands` (sleep 120); nothing was changed. "
              "Do not retry this call; finish with what you could do and say what grant you need.")
    said = describe_outcome(_done("run_command", {"error": denial, "status": "denied"}, ok=False, error=denial))
    assert said == "denied: the person has not granted `commands` (sleep 120); nothing was changed."
    grant = describe_outcome(_done("run_command", {"status": "needs_grant", "reason": "running this needs the 'commands' grant"}))
    assert grant == "needs_grant: running this needs the 'commands' grant"


def test_a_command_line_says_how_it_ended_and_what_the_sandbox_blocked() -> None:
    blocked = {"command": "curl -sS http://example.com", "sandbox": SANDBOX, "status": "failed", "exit_code": 6, "duration_s": 0.05,
               "stdout": "", "stderr": "curl: (6) Could not resolve host: example.com\n", "reason": "exited with status 6"}
    assert describe_outcome(_done("run_command", blocked)) == (
        "failed (exit 6): the sandbox blocked the network · workspace-write · Landlock 7 · network blocked · 0.05 s")
    plain_failure = {**blocked, "stderr": "AssertionError\n", "exit_code": 1, "reason": "exited with status 1"}
    assert describe_outcome(_done("run_command", plain_failure)).startswith("failed (exit 1) · workspace-write")
    killed = {**blocked, "status": "killed", "exit_code": None, "signal": 9, "stderr": "",
              "reason": "cancelled: it and every process it started were killed"}
    assert describe_outcome(_done("run_command", killed)).startswith("killed (signal SIGKILL): cancelled · ")


@pytest.mark.parametrize(("path", "width", "shown"), [
    ("src/konstruct/core/calc.py", 40, "src/konstruct/core/calc.py"),
    ("src/konstruct/core/calc.py", 16, "…/core/calc.py"),
    ("src/konstruct/core/calc.py", 10, "…/calc.py"),
    ("src/a_really_long_module_name.py", 12, "…ule_name.py"),  # the last part alone does not fit: its end
    ("x.py", 1, "…"),
])
def test_paths_are_cut_at_the_start_never_mid_word(path: str, width: int, shown: str) -> None:
    assert path_tail(path, width) == shown and len(shown) <= width


def test_a_result_reads_as_lines_not_json_escapes() -> None:
    text = result_text({"results": [{"path": "a.py", "status": "ok", "content": "def f():\n    return 1\n"}],
                        "truncated": False, "note": "", "stale": []})
    assert text.splitlines() == [
        "results:",
        "  - path: a.py",
        "    status: ok",
        "    content: |",
        "      def f():",
        "          return 1",
        "truncated: false",
        'note: ""',
        "stale: []",
    ]
    assert "\\n" not in text


def test_a_key_cannot_forge_a_field() -> None:
    text = result_text({"paths\nstatus: ok": ["a.py"], "x:y": 1})
    assert text.splitlines() == ['"paths\\nstatus: ok":', "  - a.py", '"x:y": 1']
