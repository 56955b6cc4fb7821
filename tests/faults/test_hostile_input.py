"""Hostile trees and input (issue #30, item 7): folders we may not read are named, never skipped in
silence; a 1 GB file is refused from its size without being read; tool arguments too deep, too
many or too long are one line and exit 2, before any tool runs.

Tests run as root, which reads any folder whatever its mode: "no read permission" is simulated at
the calls the listing makes (os.scandir for a plain tree, os.lstat for a git tree), raising the
PermissionError the kernel gives a process without it.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest

from konstruct_tui.cli import main

SECRET = "secret"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def tool(capsys: pytest.CaptureFixture[str], root: Path, name: str, arguments: object) -> dict:
    code, out, err = run_cli(capsys, "tool", name, "--root", str(root), "--json", json.dumps(arguments))
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "app").mkdir(parents=True)
    (root / SECRET).mkdir()
    (root / "app" / "main.py").write_text("from util import helper\n\nprint(helper())\n")
    (root / "util.py").write_text("def helper():\n    return 1\n")
    (root / SECRET / "caller.py").write_text("from util import helper\n\nhelper()\n")
    return root


def deny_scandir(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    real = os.scandir

    def scandir(path=".", *args):  # type: ignore[no-untyped-def]
        if os.path.realpath(os.fspath(path)) == os.path.realpath(folder):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path, *args)

    monkeypatch.setattr(os, "scandir", scandir)


def deny_lstat_under(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    real = os.lstat
    inside = os.path.abspath(folder) + os.sep  # not realpath: that calls lstat itself

    def lstat(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(path, str | bytes | os.PathLike) and os.path.abspath(os.fsdecode(path)).startswith(inside):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)


def _assert_named_everywhere(capsys: pytest.CaptureFixture[str], root: Path) -> None:
    code, out, err = run_cli(capsys, "index", "--root", str(root))
    assert code == 0, err
    [line] = [line for line in out.splitlines() if line.startswith("Not readable")]
    assert f"{SECRET}/" in line and "not indexed" in line
    impact = tool(capsys, root, "traverse_graph", {"mode": "impact", "target": "util.py"})
    assert impact["unreadable"] == [f"{SECRET}/"]
    assert f"{SECRET}/caller.py" not in json.dumps(impact["results"])  # it cannot be seen...
    callers = tool(capsys, root, "traverse_graph", {"mode": "callers", "symbol": "helper", "target": "util.py"})
    assert callers["unreadable"] == [f"{SECRET}/"]  # ...so every answer that may miss it says so
    found = tool(capsys, root, "search", {"query": "nothing_is_called_this", "match": "symbol"})
    assert found["unreadable"] == [f"{SECRET}/"] and SECRET in found["reason"]  # an empty answer says what it may miss


def test_a_folder_without_read_permission_is_named_in_the_summary_and_the_answers(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    deny_scandir(monkeypatch, project / SECRET)
    _assert_named_everywhere(capsys, project)


def test_in_a_git_tree_too(project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A git work tree is listed by `git ls-files` and one lstat per file: a tracked file in a
    folder we may not enter is met there."""
    for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *argv], cwd=project, check=True, capture_output=True)
    deny_lstat_under(monkeypatch, project / SECRET)
    _assert_named_everywhere(capsys, project)


def test_a_readable_tree_has_no_unreadable_field(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "index", "--root", str(project))
    assert code == 0 and "Not readable" not in out
    assert "unreadable" not in tool(capsys, project, "traverse_graph", {"mode": "impact", "target": "util.py"})


def test_a_one_gigabyte_file_is_too_large_from_its_size_not_read(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    huge = project / "huge.log"
    with open(huge, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: 1 GB long, no disk used
    read_bytes: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read_bytes.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counting_read)
    answer = tool(capsys, project, "read_code", {"paths": ["huge.log", "util.py"]})
    big, small = answer["results"]
    assert big["status"] == "too_large" and big["size"] == 1 << 30 and big["revision"] is None
    assert "not read" in big["reason"]
    assert small["status"] == "ok"  # the rest of the call goes on
    assert sum(read_bytes) < 1 << 20  # decided from the size: not a byte of the 1 GB was read


@pytest.mark.parametrize("arguments, says", [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than 64 levels"),  # past the JSON decoder's own recursion
    ('{"paths": ' + "[" * 70 + '"a.py"' + "]" * 70 + "}", "nested deeper than 64 levels"),  # within the decoder's reach
    (json.dumps({"paths": ["a.py"] * 200_000}), "more than 100000 values"),
    ('{"paths": ["a.py"', "is not valid JSON"),
])
def test_tool_arguments_past_a_bound_are_one_line_and_exit_2(
        project: Path, capsys: pytest.CaptureFixture[str], arguments: str, says: str) -> None:
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    code, out, err = run_cli(capsys, "tool", "read_code", "--root", str(project), "--json", arguments)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert says in err and "internal error" not in err and "RecursionError" not in err
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


def test_tool_arguments_on_stdin_are_bounded_too(project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--json -` reads the arguments from stdin: the same bounds, and a bounded read."""
    import io

    monkeypatch.setattr("konstruct_tui.cli.tool.MAX_ARGUMENT_CHARS", 1000)  # the real bound is 96 MiB
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"paths": ["a.py"] * 1000})))
    code, _, err = run_cli(capsys, "tool", "read_code", "--root", str(project), "--json", "-")
    assert code == 2 and err.count("\n") == 1 and "longer than 1000 characters" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("[" * 900 + "]" * 90))
    code, _, err = run_cli(capsys, "tool", "read_code", "--root", str(project), "--json", "-")
    assert code == 2 and err.count("\n") == 1 and "is not valid JSON" in err
